//! One plant's physics: PV from the sun and clouds, a household load, and a battery that
//! charges from surplus and covers deficits, all through one or more inverters that each take
//! an equal part of the array and can be switched off or trip.
//!
//! Every step keeps the energy balance PV + discharge + import = load + charge + export, per
//! inverter and for the plant (charge and discharge are measured at the battery's terminals;
//! the battery's own losses are in the state of charge, see [`crate::battery`]). Each inverter
//! integrates the energy counters it reports (today's, reset at local midnight, and lifetime
//! totals); the plant's are their sums.

use chrono::{DateTime, NaiveDate, Timelike, Utc};
use chrono_tz::Tz;

use crate::{
    battery::{BatterySpec, BatteryState, CHARGE_EFFICIENCY, DISCHARGE_EFFICIENCY, MIN_SOC},
    control::Control,
    noise, readings,
    scenarios::Losses,
    sun,
};

#[derive(Debug, Clone)]
pub struct PlantSpec {
    pub seed: u64,
    pub lat: f64,
    pub lon: f64,
    pub tz: Tz,
    pub pv_kwp: f64,
    /// 1 to 4 strings per inverter, sharing its part of the array evenly.
    pub mppt_count: usize,
    /// Inverters sharing the array (an equal part each) and the battery; at least 1.
    pub inverters: usize,
    /// Each inverter's rated AC output, kW.
    pub inverter_kw: f64,
    /// `None` for a grid-tied plant without storage.
    pub battery: Option<BatterySpec>,
    pub daily_load_kwh: f64,
    /// Chance per hour that an inverter trips (then it recovers within the hour).
    pub fault_rate: f64,
    /// The modules' tilt from the horizontal and azimuth clockwise from north, degrees: the
    /// plane the sunlight is computed on.
    pub tilt: f64,
    pub azimuth: f64,
    /// Charging the battery from the grid at night (a time-of-use setting), if the plant does.
    pub grid_charge: Option<GridCharge>,
    /// Soiling and shading beyond the model's own losses (none by default).
    pub losses: Losses,
}

/// A window of the night in which the battery charges from the grid, as an installer sets a
/// hybrid to buy cheap night energy: from `start` to `end` (minutes after local midnight, the
/// window within one day), at up to `power_w`, until the charge reaches `target_soc` %.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridCharge {
    pub start: u32,
    pub end: u32,
    pub power_w: f64,
    pub target_soc: f64,
}

impl GridCharge {
    fn holds(&self, minute: u32) -> bool {
        (self.start..self.end).contains(&minute)
    }
}

/// Energy counters in kWh.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Energy {
    pub pv: f64,
    pub load: f64,
    pub import: f64,
    pub export: f64,
    pub charge: f64,
    pub discharge: f64,
}

/// A clear sky's irradiance on the plant's plane (W/m²): `domain::clear_sky`, the model the
/// portal's figures use as their reference when a plant has no weather station.
fn clear_sky_on_plane(s: &PlantSpec, at: DateTime<Utc>) -> f64 {
    let plane = domain::clear_sky::Orientation {
        tilt: s.tilt,
        azimuth: s.azimuth,
        assumed: false,
    };
    domain::clear_sky::poa_irradiance(s.lat, s.lon, plane, at.timestamp_millis())
}

impl Energy {
    fn add(&mut self, s: &Flows, hours: f64) {
        self.pv += s.pv_w * hours / 1000.0;
        self.load += s.load_w * hours / 1000.0;
        self.import += s.grid_w.max(0.0) * hours / 1000.0;
        self.export += (-s.grid_w).max(0.0) * hours / 1000.0;
        self.charge += (-s.battery_w).max(0.0) * hours / 1000.0;
        self.discharge += s.battery_w.max(0.0) * hours / 1000.0;
    }

    fn plus(self, o: Energy) -> Energy {
        Energy {
            pv: self.pv + o.pv,
            load: self.load + o.load,
            import: self.import + o.import,
            export: self.export + o.export,
            charge: self.charge + o.charge,
            discharge: self.discharge + o.discharge,
        }
    }

    /// Sources minus sinks: PV + discharge + import - (load + charge + export). Zero when the
    /// counters keep the balance.
    pub fn imbalance(&self) -> f64 {
        self.pv + self.discharge + self.import - (self.load + self.charge + self.export)
    }
}

/// Power flows in W. `battery_w` > 0 discharges; `grid_w` > 0 imports.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Flows {
    pub pv_w: f64,
    pub load_w: f64,
    pub battery_w: f64,
    pub grid_w: f64,
}

impl Flows {
    /// What the inverter puts out on its AC side: PV and battery discharge (less charging).
    pub fn ac_output_w(&self) -> f64 {
        self.pv_w + self.battery_w
    }
}

/// One inverter at one step.
#[derive(Debug, Clone, PartialEq)]
pub struct InverterSnapshot {
    /// Switched on (power on/off commands).
    pub on: bool,
    /// Tripped by a fault (it recovers within the hour).
    pub faulted: bool,
    pub rated_w: f64,
    pub flows: Flows,
    /// Per string: (volts, amps, watts).
    pub strings: Vec<(f64, f64, f64)>,
    pub today: Energy,
    pub total: Energy,
    /// The output limit written to it (`activePowerLimit`), % of its rating; 100 when none.
    pub active_limit_pct: f64,
}

/// The plant at one step: its flows and counters (sums over its inverters), the weather and
/// the battery. [`Snapshot::inverter`] gives one inverter's view.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub at: DateTime<Utc>,
    pub local_day: NaiveDate,
    pub flows: Flows,
    /// Per string of every inverter: (volts, amps, watts).
    pub strings: Vec<(f64, f64, f64)>,
    /// In the plane of the modules, W/m².
    pub irradiance: f64,
    /// Today's in-plane irradiation so far, kWh/m² (reset at local midnight).
    pub irradiation_today: f64,
    pub ambient_c: f64,
    pub module_c: f64,
    pub wind_ms: f64,
    /// Some inverter is tripped (an inverter's view: this one is).
    pub faulted: bool,
    /// Some inverter is switched on (an inverter's view: this one is).
    pub on: bool,
    /// More than one inverter share the plant (hybrids then work as a parallel system).
    pub parallel: bool,
    /// Rated AC output of the inverters together (an inverter's view: its own).
    pub rated_w: f64,
    /// The output limit in % of the rating (an inverter's view: its own; the plant's: 100).
    pub active_limit_pct: f64,
    pub today: Energy,
    pub total: Energy,
    pub battery: Option<BatteryState>,
    pub inverters: Vec<InverterSnapshot>,
}

impl Snapshot {
    /// What inverter `k` reports: its own flows, strings, counters and state; the plant's
    /// battery (each hybrid sees the shared bank) and weather. The plant's view if there is no
    /// inverter `k`.
    pub fn inverter(&self, k: usize) -> Snapshot {
        let Some(inv) = self.inverters.get(k) else {
            return self.clone();
        };
        Snapshot {
            flows: inv.flows,
            strings: inv.strings.clone(),
            faulted: inv.faulted,
            on: inv.on,
            rated_w: inv.rated_w,
            active_limit_pct: inv.active_limit_pct,
            today: inv.today,
            total: inv.total,
            inverters: Vec::new(),
            ..self.clone()
        }
    }

    /// The battery's state of charge, if the plant has a battery.
    pub fn soc(&self) -> Option<f64> {
        self.battery.as_ref().map(|b| b.soc)
    }
}

/// What an inverter keeps between steps.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InverterCounters {
    pub off: bool,
    pub today: Energy,
    pub total: Energy,
}

pub struct PlantModel {
    pub spec: PlantSpec,
    soc: f64,
    day: Option<NaiveDate>,
    /// Today's in-plane irradiation, kWh/m² (what a weather station counts).
    irradiation: f64,
    inverters: Vec<InverterCounters>,
    /// Each inverter's written settings ([`crate::control`]).
    controls: Vec<Control>,
}

impl PlantModel {
    pub fn new(spec: PlantSpec) -> PlantModel {
        let inverters = vec![InverterCounters::default(); spec.inverters.max(1)];
        let controls = vec![Control::default(); inverters.len()];
        PlantModel {
            spec,
            soc: 60.0,
            day: None,
            irradiation: 0.0,
            inverters,
            controls,
        }
    }

    /// Lifetime totals so far (the sums of what the inverters report).
    pub fn total(&self) -> Energy {
        self.inverters
            .iter()
            .fold(Energy::default(), |a, i| a.plus(i.total))
    }

    /// Switches inverter `k` on or off; false when there is no such inverter.
    pub fn set_on(&mut self, k: usize, on: bool) -> bool {
        match self.inverters.get_mut(k) {
            Some(inv) => {
                inv.off = !on;
                true
            }
            None => false,
        }
    }

    /// Keeps settings written to inverter `k`; false when there is no such inverter. A
    /// written `powerOn` switches it as the power on/off commands do (the same register).
    pub fn write_settings<'a>(
        &mut self,
        k: usize,
        values: impl IntoIterator<Item = (&'a str, String)>,
    ) -> bool {
        let Some(c) = self.controls.get_mut(k) else {
            return false;
        };
        let values: Vec<(&str, String)> = values.into_iter().collect();
        let power = values
            .iter()
            .rev()
            .find(|(key, _)| *key == "powerOn")
            .map(|(_, v)| matches!(v.as_str(), "1" | "true"));
        c.write(values);
        if let Some(on) = power {
            self.set_on(k, on);
        }
        true
    }

    /// The battery's state of charge now, if the plant has a battery.
    pub fn soc(&self) -> Option<f64> {
        self.spec.battery.map(|_| self.soc)
    }

    pub fn is_on(&self, k: usize) -> bool {
        self.inverters.get(k).is_some_and(|i| !i.off)
    }

    /// Picks up where a previous run stopped (as a real device keeps its counters, its
    /// switch and its charge across a restart of the portal): the inverters' state, today's
    /// counters belonging to `day`, and the battery's state of charge.
    pub fn resume(&mut self, day: NaiveDate, inverters: Vec<InverterCounters>, soc: Option<f64>) {
        for (slot, saved) in self.inverters.iter_mut().zip(inverters) {
            *slot = saved;
        }
        self.day = Some(day);
        if let Some(soc) = soc {
            self.soc = soc.clamp(0.0, 100.0);
        }
    }

    /// Picks up today's irradiation a weather station last counted (kWh/m²), on the day
    /// [`PlantModel::resume`] was given.
    pub fn resume_irradiation(&mut self, kwh_m2: f64) {
        if kwh_m2.is_finite() {
            self.irradiation = kwh_m2.max(0.0);
        }
    }

    /// Advances the model by `dt_secs` ending at `at` and returns what the devices see then.
    pub fn step(&mut self, at: DateTime<Utc>, dt_secs: f64) -> Snapshot {
        let s = &self.spec;
        let t = at.timestamp();
        let local = at.with_timezone(&s.tz);
        let local_day = local.date_naive();
        if self.day != Some(local_day) {
            self.day = Some(local_day);
            self.irradiation = 0.0;
            for inv in &mut self.inverters {
                inv.today = Energy::default();
            }
        }
        let elevation = sun::elevation(s.lat, s.lon, at);
        let day_index = t.div_euclid(86_400) as u64;
        // Some days are overcast all day; on others clouds come and go.
        let overcast = noise::unit(s.seed ^ 0xC10D, day_index);
        let drift = noise::smooth(s.seed ^ 0xD81F, t, 1800);
        let flicker = noise::smooth(s.seed ^ 0xF11C, t, 240);
        let clearness =
            (1.0 - 0.65 * overcast * overcast - 0.35 * drift * flicker).clamp(0.08, 1.0);
        let irradiance = clear_sky_on_plane(s, at) * clearness;
        let ambient_c = 12.0 + 8.0 * (elevation.max(-10.0) / 60.0) + 4.0 * drift;
        let module_c = ambient_c + irradiance * 0.03;
        let temp_derate = 1.0 - 0.004 * (module_c - 25.0).max(0.0);
        let n = self.inverters.len();
        let rated_w = s.inverter_kw * 1000.0;
        // Each inverter converts its part of the array, up to its rating: the light its strings
        // get (less dirt, less a shaded string's loss) in equal parts.
        let local_hour = local.hour() as f64 + local.minute() as f64 / 60.0;
        let light: Vec<Vec<f64>> = (0..n)
            .map(|k| s.losses.string_light(k, s.mppt_count, local_hour))
            .collect();
        let array_w = s.pv_kwp * irradiance * 0.86 * temp_derate * s.losses.kept() / n as f64;
        let pv_of: Vec<f64> = light
            .iter()
            .map(|l| (array_w * l.iter().sum::<f64>() / l.len() as f64).min(rated_w))
            .collect();
        // A switched-off inverter does not trip.
        let faulted: Vec<bool> = (0..n)
            .map(|k| !self.inverters[k].off && self.faulted(t, k))
            .collect();
        let running: Vec<bool> = (0..n)
            .map(|k| !self.inverters[k].off && !faulted[k])
            .collect();
        let running_n = running.iter().filter(|r| **r).count();
        let mut pv_w: f64 = (0..n).filter(|k| running[*k]).map(|k| pv_of[k]).sum();
        let load_w = self.load_w(local_hour, t);
        let hours = dt_secs.max(0.0) / 3600.0;
        self.irradiation += irradiance * hours / 1000.0;
        let minute = local.hour() * 60 + local.minute();
        let forced = self.forced(&running, minute);
        let battery_w = self.dispatch(pv_w, load_w, running_n, (hours, minute), forced);
        let mut curtailed = false;

        let s = &self.spec;
        let mut inverters = Vec::with_capacity(n);
        for (k, inv) in self.inverters.iter_mut().enumerate() {
            // A running inverter takes its part of the battery's flow; every inverter's load
            // port carries its part of the load (from the grid alone when it is off).
            let (mut pv, battery) = if running[k] {
                (pv_of[k], battery_w / running_n as f64)
            } else {
                (0.0, 0.0)
            };
            let load = load_w / n as f64;
            // An active power limit caps what the inverter converts.
            let limit_pct = self.controls[k].active_limit_pct();
            let cap_w = rated_w * limit_pct / 100.0;
            if pv > cap_w {
                pv = cap_w;
                curtailed = true;
            }
            // An export limit curtails PV (the battery's forced part is what was asked).
            if let Some(cap) = self.controls[k].export_cap_w() {
                let over = pv + battery - load - cap;
                if over > 0.0 {
                    pv -= over.min(pv);
                    curtailed = true;
                }
            }
            let flows = Flows {
                pv_w: pv,
                load_w: load,
                battery_w: battery,
                grid_w: load - pv - battery,
            };
            inv.today.add(&flows, hours);
            inv.total.add(&flows, hours);
            inverters.push(InverterSnapshot {
                on: !inv.off,
                faulted: faulted[k],
                rated_w,
                flows,
                strings: strings(s, k, pv, &light[k], t),
                today: inv.today,
                total: inv.total,
                active_limit_pct: limit_pct,
            });
        }
        if curtailed {
            pv_w = inverters.iter().map(|i| i.flows.pv_w).sum();
        }
        let sum = |f: fn(&InverterSnapshot) -> Energy| {
            inverters
                .iter()
                .fold(Energy::default(), |a, i| a.plus(f(i)))
        };
        let (today, total) = (sum(|i| i.today), sum(|i| i.total));
        let wind_ms = 1.0 + 6.0 * noise::smooth(s.seed ^ 0x3117, t, 1200);
        let battery = s.battery.map(|b| {
            let cycles = total.discharge / b.kwh().max(0.001);
            BatteryState::measure(b, s.seed, self.soc, battery_w, t, ambient_c, cycles)
        });
        Snapshot {
            at,
            local_day,
            flows: Flows {
                pv_w,
                load_w,
                battery_w,
                grid_w: load_w - pv_w - battery_w,
            },
            strings: inverters.iter().flat_map(|i| i.strings.clone()).collect(),
            irradiance,
            irradiation_today: self.irradiation,
            ambient_c,
            module_c,
            wind_ms,
            faulted: faulted.iter().any(|f| *f),
            on: inverters.iter().any(|i| i.on),
            parallel: n > 1,
            rated_w: rated_w * n as f64,
            active_limit_pct: 100.0,
            today,
            total,
            battery,
            inverters,
        }
    }

    /// The forced discharge the running inverters' active time-of-use slots ask for now: the
    /// sum of their powers (W) and the highest of their floors (%).
    fn forced(&self, running: &[bool], minute: u32) -> Option<(f64, f64)> {
        self.controls
            .iter()
            .zip(running)
            .filter(|(_, r)| **r)
            .filter_map(|(c, _)| c.forced_at(minute))
            .reduce(|a, b| (a.0 + b.0, a.1.max(b.1)))
    }

    /// The battery's power for a step (positive discharges) and its new state of charge. It
    /// charges from surplus PV and covers deficits down to [`MIN_SOC`], within its power limit
    /// (shared by the running inverters) and what the running inverters can put out; with no
    /// inverter running it is idle. A `forced` discharge (W, floor %) gives at least that much
    /// while the charge is above the floor, exporting what the load does not take. In the
    /// plant's [`GridCharge`] window (`minute` after local midnight) and without PV surplus it
    /// charges from the grid up to the window's target, then holds, instead of covering the
    /// load.
    fn dispatch(
        &mut self,
        pv_w: f64,
        load_w: f64,
        running_n: usize,
        (hours, minute): (f64, u32),
        forced: Option<(f64, f64)>,
    ) -> f64 {
        let Some(b) = self.spec.battery else {
            return 0.0;
        };
        if running_n == 0 || hours <= 0.0 {
            return 0.0;
        }
        let n = self.inverters.len() as f64;
        let capacity_wh = b.kwh() * 1000.0;
        let max_w = b.max_kw() * 1000.0 * running_n as f64 / n;
        let surplus = pv_w - load_w;
        let floor = forced.map_or(MIN_SOC, |(_, f)| f.max(MIN_SOC));
        let forced_w = forced.map_or(0.0, |(w, _)| w);
        let forcing = forced_w > 0.0 && self.soc > floor;
        // In a grid-charge window the battery charges to the target and then holds it (the
        // load is fed from the grid), as a hybrid does in a time-of-use slot with charging on.
        let from_grid = self
            .spec
            .grid_charge
            .filter(|g| !forcing && surplus <= 0.0 && g.holds(minute));
        let battery_w = if let Some(g) = from_grid {
            let room_w =
                (g.target_soc - self.soc) / 100.0 * capacity_wh / CHARGE_EFFICIENCY / hours;
            let inverter_w = self.spec.inverter_kw * 1000.0 * running_n as f64;
            -g.power_w.min(max_w).min(inverter_w).min(room_w.max(0.0))
        } else if surplus > 0.0 && !forcing {
            let room_w = (100.0 - self.soc) / 100.0 * capacity_wh / CHARGE_EFFICIENCY / hours;
            -surplus.min(max_w).min(room_w.max(0.0))
        } else {
            let available_w =
                (self.soc - floor) / 100.0 * capacity_wh * DISCHARGE_EFFICIENCY / hours;
            let headroom_w = (self.spec.inverter_kw * 1000.0 * running_n as f64 - pv_w).max(0.0);
            let wanted = if forcing {
                (-surplus).max(forced_w)
            } else {
                -surplus
            };
            wanted.min(max_w).min(available_w.max(0.0)).min(headroom_w)
        };
        // The cells keep less than they take and give more than is delivered.
        let stored_wh = if battery_w < 0.0 {
            -battery_w * hours * CHARGE_EFFICIENCY
        } else {
            -battery_w * hours / DISCHARGE_EFFICIENCY
        };
        self.soc = (self.soc + stored_wh / capacity_wh * 100.0).clamp(0.0, 100.0);
        battery_w
    }

    /// A trip of inverter `k` in hour `h` lasts 10-40 minutes from the top of the hour. Each
    /// inverter trips on its own, except for a grid outage, which trips them all together.
    fn faulted(&self, t: i64, k: usize) -> bool {
        let hour = t.div_euclid(3600) as u64;
        let plant_wide = readings::is_grid_loss(t.div_euclid(3600));
        let seed = if plant_wide {
            self.spec.seed
        } else {
            self.spec.seed ^ (k as u64).wrapping_mul(0x9E37_79B9)
        };
        if noise::unit(seed ^ 0xFA17, hour) >= self.spec.fault_rate {
            return false;
        }
        let minutes = 10 + (noise::unit(seed ^ 0xFA18, hour) * 30.0) as i64;
        t.rem_euclid(3600) < minutes * 60
    }

    /// Household load: a base, a morning and a larger evening peak, and appliance noise.
    fn load_w(&self, local_hour: f64, t: i64) -> f64 {
        let bump = |centre: f64, width: f64| (-((local_hour - centre) / width).powi(2)).exp();
        let shape = 0.55 + 0.9 * bump(7.5, 1.2) + 1.4 * bump(19.5, 2.0) + 0.3 * bump(13.0, 2.5);
        let mean_w = self.spec.daily_load_kwh * 1000.0 / 24.0;
        let noise = 0.8 + 0.4 * noise::smooth(self.spec.seed ^ 0x10AD, t, 300);
        mean_w * shape / 1.12 * noise
    }
}

/// Inverter `k`'s strings for `pv_w` at time `t`, each making its share of the `light` they
/// get: (volts, amps, watts) each.
fn strings(s: &PlantSpec, k: usize, pv_w: f64, light: &[f64], t: i64) -> Vec<(f64, f64, f64)> {
    let count = s.mppt_count.max(1);
    let total: f64 = light.iter().sum();
    (0..count)
        .map(|i| {
            let share = match light.get(i) {
                Some(l) if total > 0.0 => l / total,
                _ => 1.0 / count as f64,
            };
            let p = pv_w * share;
            let seed = s.seed ^ i as u64 ^ ((k as u64) << 8);
            let v = if p > 0.0 {
                320.0 + 40.0 * noise::smooth(seed, t, 600)
            } else {
                0.0
            };
            let a = if v > 0.0 { p / v } else { 0.0 };
            (round(v, 1), round(a, 1), round(p, 0))
        })
        .collect()
}

pub fn round(v: f64, decimals: i32) -> f64 {
    let f = 10f64.powi(decimals);
    (v * f).round() / f
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battery::Bus;
    use chrono::{Duration, TimeZone};

    pub(crate) fn spec(battery_packs: usize) -> PlantSpec {
        PlantSpec {
            seed: 42,
            lat: 40.4,
            lon: -3.7,
            tz: chrono_tz::Europe::Madrid,
            pv_kwp: 6.0,
            mppt_count: 2,
            inverters: 1,
            inverter_kw: 6.0,
            battery: (battery_packs > 0).then_some(BatterySpec {
                bus: Bus::Low,
                packs: battery_packs,
                cell_ah: 100.0,
            }),
            daily_load_kwh: 12.0,
            fault_rate: 0.02,
            tilt: 30.0,
            azimuth: 180.0,
            grid_charge: None,
            losses: Losses::default(),
        }
    }

    fn run_day(model: &mut PlantModel, start: DateTime<Utc>) -> Vec<Snapshot> {
        (1..=288)
            .map(|i| model.step(start + Duration::minutes(5 * i), 300.0))
            .collect()
    }

    #[test]
    fn every_step_keeps_the_energy_balance() {
        let mut model = PlantModel::new(spec(2));
        let start = Utc.with_ymd_and_hms(2024, 6, 1, 0, 0, 0).unwrap();
        for s in run_day(&mut model, start) {
            let f = s.flows;
            let lhs = f.pv_w + f.battery_w.max(0.0) + f.grid_w.max(0.0);
            let rhs = f.load_w + (-f.battery_w).max(0.0) + (-f.grid_w).max(0.0);
            assert!((lhs - rhs).abs() < 1e-6, "{f:?}");
            let soc = s.soc().unwrap();
            assert!((MIN_SOC - 1e-9..=100.0).contains(&soc), "{soc}");
            assert!(s.total.imbalance().abs() < 1e-6);
        }
    }

    #[test]
    fn pv_follows_the_sun_and_a_summer_day_makes_sense() {
        let mut model = PlantModel::new(spec(0));
        let start = Utc.with_ymd_and_hms(2024, 6, 21, 0, 0, 0).unwrap();
        let day = run_day(&mut model, start);
        let at = |h: u32| {
            day.iter()
                .find(|s| s.at.with_timezone(&chrono_tz::Europe::Madrid).hour() == h)
                .map(|s| s.flows.pv_w)
                .unwrap_or(-1.0)
        };
        assert_eq!(at(2), 0.0, "no sun at night");
        let e = model.total();
        assert!(
            (5.0..60.0).contains(&e.pv),
            "daily PV {} kWh for 6 kWp",
            e.pv
        );
        assert!((8.0..16.0).contains(&e.load), "daily load {} kWh", e.load);
        assert_eq!(e.charge + e.discharge, 0.0, "no battery");
        assert!(day.iter().all(|s| s.battery.is_none()));
    }

    #[test]
    fn the_same_seed_and_times_give_the_same_history() {
        let start = Utc.with_ymd_and_hms(2024, 3, 3, 0, 0, 0).unwrap();
        let a = run_day(&mut PlantModel::new(spec(1)), start);
        let b = run_day(&mut PlantModel::new(spec(1)), start);
        assert_eq!(a.last().map(|s| s.total), b.last().map(|s| s.total));
    }

    #[test]
    fn today_counters_restart_at_local_midnight() {
        let mut model = PlantModel::new(spec(1));
        let start = Utc.with_ymd_and_hms(2024, 6, 1, 20, 0, 0).unwrap();
        let steps: Vec<Snapshot> = (1..=48)
            .map(|i| model.step(start + Duration::minutes(5 * i), 300.0))
            .collect();
        let before = steps
            .iter()
            .rev()
            .find(|s| s.local_day.to_string() == "2024-06-01")
            .unwrap();
        let after = steps
            .iter()
            .find(|s| s.local_day.to_string() == "2024-06-02")
            .unwrap();
        assert!(after.today.load < before.today.load);
        assert!(after.total.load > before.total.load);
    }

    #[test]
    fn a_switched_off_inverter_converts_nothing_and_its_load_comes_from_the_grid() {
        let mut model = PlantModel::new(PlantSpec {
            inverters: 3,
            fault_rate: 0.0,
            ..spec(2)
        });
        let noon = Utc.with_ymd_and_hms(2024, 6, 21, 11, 0, 0).unwrap();
        let on = model.step(noon, 5.0);
        assert!(on.inverters.iter().all(|i| i.flows.pv_w > 0.0));
        assert!(model.set_on(1, false) && !model.set_on(3, false));
        let s = model.step(noon + Duration::seconds(5), 5.0);
        let off = &s.inverters[1];
        assert!(!off.on);
        assert_eq!(
            (off.flows.pv_w, off.flows.battery_w, off.flows.ac_output_w()),
            (0.0, 0.0, 0.0)
        );
        assert!((off.flows.grid_w - off.flows.load_w).abs() < 1e-9);
        assert!(s.inverters[0].flows.pv_w > 0.0);
        let view = s.inverter(1);
        assert!(!view.on && view.flows.pv_w == 0.0);
        model.set_on(1, true);
        let back = model.step(noon + Duration::seconds(10), 5.0);
        assert!(back.inverters[1].on && back.inverters[1].flows.pv_w > 0.0);
    }

    fn write(model: &mut PlantModel, pairs: &[(&'static str, &str)]) {
        assert!(model.write_settings(0, pairs.iter().map(|(k, v)| (*k, v.to_string()))));
    }

    #[test]
    fn a_forced_slot_discharges_at_its_power_exports_the_rest_and_stops_at_its_cap() {
        let mut model = PlantModel::new(PlantSpec {
            fault_rate: 0.0,
            ..spec(2)
        });
        // 19:00 in Madrid (slot 5 by default): the evening peak, no sun.
        let evening = Utc.with_ymd_and_hms(2024, 6, 21, 17, 0, 0).unwrap();
        let before = model.step(evening, 5.0);
        write(
            &mut model,
            &[
                ("sysWorkMode", "0"),
                ("peakAndVallery", "1"),
                ("sellTime5Pac", "4000"),
                ("cap5", "55"),
            ],
        );
        let s = model.step(evening + Duration::seconds(5), 5.0);
        assert!(before.flows.battery_w < 4000.0, "{:?}", before.flows);
        assert!((s.flows.battery_w - 4000.0).abs() < 1e-6, "{:?}", s.flows);
        assert!(s.flows.grid_w < 0.0, "exports what the load does not take");
        // Down to the slot's cap, then no more than the load.
        let later = (1..=24)
            .map(|i| model.step(evening + Duration::minutes(5 * i), 300.0))
            .last()
            .unwrap();
        assert!(later.soc().unwrap() >= 55.0 - 1e-9);
        assert!(later.flows.grid_w >= -1e-6, "{:?}", later.flows);
    }

    #[test]
    fn an_export_limit_curtails_pv_and_keeps_the_balance() {
        let mut model = PlantModel::new(PlantSpec {
            fault_rate: 0.0,
            ..spec(0)
        });
        let noon = Utc.with_ymd_and_hms(2024, 6, 21, 11, 0, 0).unwrap();
        let free = model.step(noon, 5.0);
        assert!(free.flows.grid_w < -600.0, "{:?}", free.flows);
        write(&mut model, &[("solarMaxSellPower", "300")]);
        let s = model.step(noon + Duration::seconds(5), 5.0);
        assert!((s.flows.grid_w + 300.0).abs() < 1e-6, "{:?}", s.flows);
        let f = s.flows;
        assert!((f.pv_w + f.battery_w - f.load_w - (-f.grid_w)).abs() < 1e-6);
        assert!((s.strings.iter().map(|x| x.2).sum::<f64>() - f.pv_w).abs() < 2.0);
    }

    #[test]
    fn a_night_window_charges_the_battery_from_the_grid_up_to_its_target() {
        let mut model = PlantModel::new(PlantSpec {
            fault_rate: 0.0,
            grid_charge: Some(GridCharge {
                start: 0,
                end: 5 * 60,
                power_w: 2000.0,
                target_soc: 80.0,
            }),
            ..spec(2)
        });
        // 00:30 in Madrid (22:30 UTC the day before): no sun; the charge starts at 60 %.
        let night = Utc.with_ymd_and_hms(2024, 6, 20, 22, 30, 0).unwrap();
        let s = model.step(night, 300.0);
        assert_eq!(s.flows.pv_w, 0.0);
        assert!((s.flows.battery_w + 2000.0).abs() < 1e-9, "{:?}", s.flows);
        assert!((s.flows.grid_w - (s.flows.load_w + 2000.0)).abs() < 1e-9);
        // It stops at the target, and outside the window the battery covers the load again.
        let mut last = s;
        for i in 1..=48 {
            last = model.step(night + Duration::minutes(5 * i), 300.0);
        }
        assert!(
            (last.soc().unwrap() - 80.0).abs() < 1e-6,
            "{:?}",
            last.soc()
        );
        assert_eq!(last.flows.battery_w, 0.0, "holds the target in the window");
        let morning = model.step(night + Duration::hours(5), 300.0);
        assert!(morning.flows.battery_w >= 0.0, "{:?}", morning.flows);
    }

    #[test]
    fn the_day_counts_the_sunlight_on_the_modules() {
        let mut model = PlantModel::new(spec(0));
        let start = Utc.with_ymd_and_hms(2024, 6, 21, 0, 0, 0).unwrap();
        let day = run_day(&mut model, start);
        let noon = day.iter().map(|s| s.irradiance).fold(0.0, f64::max);
        assert!((500.0..1100.0).contains(&noon), "{noon}");
        // At most the clear sky's 8.2 kWh/m² on a 30° plane in Madrid in June.
        let total = day
            .iter()
            .filter(|s| s.local_day.to_string() == "2024-06-21")
            .map(|s| s.irradiation_today)
            .fold(0.0, f64::max);
        assert!((1.0..8.3).contains(&total), "{total}");
    }

    #[test]
    fn resuming_keeps_the_counters_the_switch_and_the_charge() {
        let mut first = PlantModel::new(spec(2));
        let start = Utc.with_ymd_and_hms(2024, 6, 1, 0, 0, 0).unwrap();
        let last = run_day(&mut first, start).pop().unwrap();
        let mut second = PlantModel::new(spec(2));
        let saved = InverterCounters {
            off: true,
            today: last.today,
            total: last.total,
        };
        second.resume(last.local_day, vec![saved], last.soc());
        let next = second.step(last.at + Duration::minutes(5), 300.0);
        assert!(!next.on);
        assert!(next.total.load > last.total.load);
        assert!(next.total.pv >= last.total.pv);
    }
}
