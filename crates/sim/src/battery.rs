//! A lithium iron phosphate (LFP) battery stack: packs of 16 cells in series, either in
//! parallel on a low-voltage bus (48 V class, for LV hybrids) or in series on a high-voltage
//! bus (HV hybrids). From the state of charge and the power it gives the stack, pack and cell
//! voltages and the temperature sensors a BMS reports.

use crate::noise;

/// Cells in series in one pack (16 x 3.2 V = 51.2 V nominal).
pub const CELLS_PER_PACK: usize = 16;
/// Temperature sensors per pack (one per four cells).
pub const SENSORS_PER_PACK: usize = 4;
const CELL_NOMINAL_V: f64 = 3.2;

/// Lowest state of charge the inverter discharges to, %.
pub const MIN_SOC: f64 = 10.0;
/// Charging stores this share of the energy taken in; discharging delivers this share of the
/// energy taken out (about 92 % round trip, as for LFP with its converter).
pub const CHARGE_EFFICIENCY: f64 = 0.96;
pub const DISCHARGE_EFFICIENCY: f64 = 0.96;

/// State of health lost per full equivalent cycle, percentage points: an LFP stack rated for
/// 6000 cycles to 80 % loses about 0.0033; the demo ages three times as fast so that a year of
/// history shows its SOH falling (docs/battery-health.md).
pub const SOH_FADE_PER_CYCLE: f64 = 0.01;
/// The one cell of a stack with a weak cell drifts below the others by this much per cycle,
/// V, up to [`WEAK_CELL_MAX_DRIFT`]; twice that near empty, where a weak cell sags most.
const WEAK_CELL_DRIFT_PER_CYCLE: f64 = 0.000_15;
const WEAK_CELL_MAX_DRIFT: f64 = 0.05;
/// The share of stacks with a weak cell (one of the demo fleet's, with its seed).
const WEAK_CELL_SHARE: f64 = 0.25;

/// The SOH the BMS reports, %: a little below 100 when new (each stack its own, from its
/// seed), falling with use.
pub fn soh(seed: u64, cycles: f64) -> f64 {
    let new = 99.6 - noise::unit(seed ^ 0x50A1, 0) * 1.2;
    (new - cycles.max(0.0) * SOH_FADE_PER_CYCLE).clamp(60.0, 100.0)
}

/// The stack's weak cell, `(pack, cell)`, when it has one: a cell whose voltage drifts away
/// from the others as the stack cycles (what a cell spread chart is for).
pub fn weak_cell(spec: &BatterySpec, seed: u64) -> Option<(usize, usize)> {
    let n = spec.packs * CELLS_PER_PACK;
    (n > 0 && noise::unit(seed ^ 0x3EAC, 0) < WEAK_CELL_SHARE)
        .then(|| (noise::mix(seed ^ 0x3EAD) % n as u64) as usize)
        .map(|i| (i / CELLS_PER_PACK, i % CELLS_PER_PACK))
}

/// How the packs are wired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bus {
    /// Packs in parallel: the stack is at one pack's voltage (about 51 V).
    Low,
    /// Packs in series: the stack is at the sum of the packs' voltages (hundreds of volts).
    High,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BatterySpec {
    pub bus: Bus,
    pub packs: usize,
    /// Capacity of one cell (and so of one pack), Ah.
    pub cell_ah: f64,
}

impl BatterySpec {
    pub fn pack_nominal_v(&self) -> f64 {
        CELLS_PER_PACK as f64 * CELL_NOMINAL_V
    }

    pub fn nominal_v(&self) -> f64 {
        match self.bus {
            Bus::Low => self.pack_nominal_v(),
            Bus::High => self.pack_nominal_v() * self.packs as f64,
        }
    }

    /// The stack's capacity in Ah at its own voltage.
    pub fn capacity_ah(&self) -> f64 {
        match self.bus {
            Bus::Low => self.cell_ah * self.packs as f64,
            Bus::High => self.cell_ah,
        }
    }

    /// Usable energy from empty to full, kWh.
    pub fn kwh(&self) -> f64 {
        self.nominal_v() * self.capacity_ah() / 1000.0
    }

    /// A stack of about `target_kwh` on `bus`: packs of 100 Ah cells (200 or 280 Ah when
    /// more packs than the bus takes would be needed), at least three in series on a
    /// high-voltage bus (the lowest voltage HV hybrids accept), at most four in parallel on a
    /// low-voltage bus and eight in series on a high-voltage one.
    pub fn sized(bus: Bus, target_kwh: f64) -> BatterySpec {
        let (min_packs, max_packs) = match bus {
            Bus::Low => (1, 4),
            Bus::High => (3, 8),
        };
        let pack_kwh = |ah: f64| CELLS_PER_PACK as f64 * CELL_NOMINAL_V * ah / 1000.0;
        let cell_ah = [100.0, 200.0, 280.0]
            .into_iter()
            .find(|ah| (target_kwh / pack_kwh(*ah)).ceil() <= max_packs as f64)
            .unwrap_or(280.0);
        let packs = ((target_kwh / pack_kwh(cell_ah)).ceil() as usize).clamp(min_packs, max_packs);
        BatterySpec {
            bus,
            packs,
            cell_ah,
        }
    }

    /// Charge and discharge power limit: half the capacity per hour (0.5 C).
    pub fn max_kw(&self) -> f64 {
        self.kwh() * 0.5
    }
}

/// What the battery measures at one step.
#[derive(Debug, Clone, PartialEq)]
pub struct BatteryState {
    pub spec: BatterySpec,
    pub soc: f64,
    /// Stack voltage, V.
    pub voltage: f64,
    /// Stack current, A (positive discharges, as the power).
    pub current: f64,
    /// Per pack, its cells' voltages, V.
    pub cells: Vec<Vec<f64>>,
    /// Per pack, its sensors' temperatures, °C.
    pub sensors: Vec<Vec<f64>>,
    /// Full equivalent cycles so far.
    pub cycles: f64,
    /// The SOH the BMS reports, %.
    pub soh: f64,
}

/// Open-circuit voltage of an LFP cell: steep at both ends, a flat plateau between.
fn open_circuit_v(soc: f64) -> f64 {
    const CURVE: [(f64, f64); 9] = [
        (0.0, 2.90),
        (5.0, 3.10),
        (10.0, 3.20),
        (20.0, 3.24),
        (40.0, 3.28),
        (60.0, 3.30),
        (80.0, 3.32),
        (95.0, 3.35),
        (100.0, 3.45),
    ];
    let soc = soc.clamp(0.0, 100.0);
    CURVE
        .windows(2)
        .find(|w| soc <= w[1].0)
        .map_or(CURVE[CURVE.len() - 1].1, |w| {
            let ((s0, v0), (s1, v1)) = (w[0], w[1]);
            v0 + (v1 - v0) * (soc - s0) / (s1 - s0)
        })
}

impl BatteryState {
    /// The battery at `soc` while it gives `power_w` (positive discharges) at time `t`, in
    /// `ambient_c`. Each cell differs a little from its neighbours, the same way every time.
    pub fn measure(
        spec: BatterySpec,
        seed: u64,
        soc: f64,
        power_w: f64,
        t: i64,
        ambient_c: f64,
        cycles: f64,
    ) -> BatteryState {
        let c_rate = power_w / (spec.kwh() * 1000.0).max(1.0);
        // Charging lifts the cells above their resting voltage, discharging pulls them below.
        let cell_base = open_circuit_v(soc) - 0.06 * c_rate;
        let weak = weak_cell(&spec, seed);
        let sag = (cycles.max(0.0) * WEAK_CELL_DRIFT_PER_CYCLE).min(WEAK_CELL_MAX_DRIFT)
            * (1.0 + (50.0 - soc).max(0.0) / 50.0);
        let cells: Vec<Vec<f64>> = (0..spec.packs)
            .map(|p| {
                (0..CELLS_PER_PACK)
                    .map(|c| {
                        let n = (p * CELLS_PER_PACK + c) as u64;
                        let fixed = (noise::unit(seed ^ 0xCE11, n) - 0.5) * 0.016;
                        let drift = (noise::smooth(seed ^ 0xCE12 ^ n, t, 900) - 0.5) * 0.004;
                        let weak = if weak == Some((p, c)) { sag } else { 0.0 };
                        round3(cell_base + fixed + drift - weak)
                    })
                    .collect()
            })
            .collect();
        let pack_v: Vec<f64> = cells.iter().map(|c| c.iter().sum()).collect();
        let voltage = match spec.bus {
            Bus::Low => pack_v.iter().sum::<f64>() / pack_v.len().max(1) as f64,
            Bus::High => pack_v.iter().sum(),
        };
        let warming = 4.0 * c_rate.abs();
        let sensors = (0..spec.packs)
            .map(|p| {
                (0..SENSORS_PER_PACK)
                    .map(|k| {
                        let n = (p * SENSORS_PER_PACK + k) as u64;
                        let offset = (noise::unit(seed ^ 0x7E3F, n) - 0.5) * 2.0;
                        ambient_c + 3.0 + warming + offset
                    })
                    .collect()
            })
            .collect();
        BatteryState {
            spec,
            soc,
            voltage,
            current: if voltage > 0.0 {
                power_w / voltage
            } else {
                0.0
            },
            cells,
            sensors,
            cycles,
            soh: soh(seed, cycles),
        }
    }

    /// One pack's voltage (its cells in series).
    pub fn pack_voltage(&self, pack: usize) -> f64 {
        self.cells.get(pack).map_or(0.0, |c| c.iter().sum())
    }

    /// One pack's current: the stack's split over parallel packs, or all of it in series.
    pub fn pack_current(&self) -> f64 {
        match self.spec.bus {
            Bus::Low => self.current / self.spec.packs.max(1) as f64,
            Bus::High => self.current,
        }
    }
}

fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn low_and_high_voltage_stacks_have_their_class_of_voltage_and_capacity() {
        let lv = BatterySpec {
            bus: Bus::Low,
            packs: 2,
            cell_ah: 100.0,
        };
        let hv = BatterySpec {
            bus: Bus::High,
            packs: 8,
            cell_ah: 100.0,
        };
        assert!((lv.kwh() - 10.24).abs() < 1e-9);
        assert!((hv.kwh() - 40.96).abs() < 1e-9);
        let at = |spec| BatteryState::measure(spec, 7, 50.0, 0.0, 0, 20.0, 0.0).voltage;
        assert!((48.0..56.0).contains(&at(lv)), "{}", at(lv));
        assert!((380.0..450.0).contains(&at(hv)), "{}", at(hv));
    }

    #[test]
    fn voltage_rises_with_charge_and_cells_differ_by_millivolts() {
        let spec = BatterySpec {
            bus: Bus::Low,
            packs: 3,
            cell_ah: 100.0,
        };
        let low = BatteryState::measure(spec, 1, 12.0, 0.0, 0, 20.0, 0.0);
        let high = BatteryState::measure(spec, 1, 97.0, 0.0, 0, 20.0, 0.0);
        assert!(high.voltage > low.voltage);
        let all: Vec<f64> = high.cells.iter().flatten().copied().collect();
        assert_eq!(all.len(), 3 * CELLS_PER_PACK);
        let spread = all.iter().copied().fold(f64::MIN, f64::max)
            - all.iter().copied().fold(f64::MAX, f64::min);
        assert!((0.002..0.03).contains(&spread), "spread {spread}");
        // Parallel packs share the current.
        let busy = BatteryState::measure(spec, 1, 50.0, 3000.0, 0, 20.0, 0.0);
        assert!((busy.pack_current() * 3.0 - busy.current).abs() < 1e-9);
    }

    #[test]
    fn soh_falls_with_cycles_and_a_weak_cell_drifts_from_the_others() {
        let spec = BatterySpec {
            bus: Bus::Low,
            packs: 2,
            cell_ah: 100.0,
        };
        let new = soh(5, 0.0);
        assert!((98.4..=99.6).contains(&new), "{new}");
        assert!((new - soh(5, 300.0) - 3.0).abs() < 1e-9);
        // Some seed has a weak cell: it sits with the others when new and below them later.
        let seed = (0..100)
            .find(|s| weak_cell(&spec, *s).is_some())
            .expect("a seed with a weak cell");
        let (p, c) = weak_cell(&spec, seed).unwrap();
        let spread = |cycles: f64| {
            let b = BatteryState::measure(spec, seed, 30.0, 0.0, 0, 20.0, cycles);
            let others = b.cells.iter().flatten().copied().fold(f64::MIN, f64::max);
            others - b.cells[p][c]
        };
        assert!(spread(0.0) < 0.025, "{}", spread(0.0));
        assert!(spread(300.0) > 0.05, "{}", spread(300.0));
    }

    #[test]
    fn one_battery_of_the_demo_fleet_has_a_weak_cell() {
        let mut fleet = crate::fleet::demo_fleet(7, 2024);
        fleet.push(crate::fleet::commercial_plant(fleet.len(), 2024));
        let weak: Vec<&str> = fleet
            .iter()
            .filter(|g| {
                g.plant
                    .battery
                    .is_some_and(|b| weak_cell(&b, g.plant.seed).is_some())
            })
            .map(|g| g.plant_name.as_str())
            .collect();
        assert_eq!(weak.len(), 1, "{weak:?}");
    }

    #[test]
    fn a_stack_is_sized_to_its_target_within_what_its_bus_takes() {
        let home = BatterySpec::sized(Bus::Low, 9.0);
        assert_eq!((home.packs, home.cell_ah), (2, 100.0));
        let big_lv = BatterySpec::sized(Bus::Low, 40.0);
        assert_eq!((big_lv.packs, big_lv.cell_ah), (4, 200.0));
        let small_hv = BatterySpec::sized(Bus::High, 5.0);
        assert_eq!(small_hv.packs, 3, "an HV stack needs three packs");
        let plant = BatterySpec::sized(Bus::High, 110.0);
        assert_eq!((plant.packs, plant.cell_ah), (8, 280.0));
        assert!(plant.kwh() >= 110.0 && plant.nominal_v() > 400.0);
    }
}
