//! What each simulated device reports, keyed exactly like the shipped protocol configs
//! (crates/devices/protocols), so the portal stores simulated and real devices alike. A device
//! can report decoded values or the raw register blocks a logger would read.

use std::collections::BTreeMap;

use devices::{
    Value,
    decode::{RegisterImage, plan_reads},
    protocol::ProtocolConfig,
    report::DeviceReading,
};

use crate::{
    battery::Bus,
    noise,
    plant::{Snapshot, round},
};

pub type Values = BTreeMap<String, Value>;

fn num(map: &mut Values, key: &str, v: f64, decimals: i32) {
    map.insert(key.to_string(), Value::Number(round(v, decimals)));
}

/// An inverter's realtime values (single- or three-phase hybrid layouts share these keys;
/// three-phase keys add per-phase splits). `s` is the inverter's view of its plant
/// ([`Snapshot::inverter`]). Battery values only when the plant has a battery: a grid-tied
/// inverter has no battery port to report on.
pub fn inverter(s: &Snapshot, phases: usize, serial: &str) -> Values {
    let mut m = Values::new();
    let f = s.flows;
    m.insert("serial_number".into(), Value::Text(serial.into()));
    num(&mut m, "rated_power", s.rated_w, 0);
    num(&mut m, "mppt_count", s.strings.len() as f64, 0);
    num(&mut m, "phase_count", phases as f64, 0);
    m.insert("power_on".into(), Value::Bool(s.on));
    num(&mut m, "running_state", running_state(s), 0);
    for (i, (v, a, p)) in s.strings.iter().enumerate() {
        num(&mut m, &format!("pv{}_voltage", i + 1), *v, 1);
        num(&mut m, &format!("pv{}_current", i + 1), *a, 1);
        num(&mut m, &format!("pv{}_power", i + 1), *p, 0);
    }
    num(&mut m, "today_pv_energy", s.today.pv, 1);
    num(&mut m, "total_pv_energy", s.total.pv, 1);
    num(&mut m, "today_load_energy", s.today.load, 1);
    num(&mut m, "total_load_energy", s.total.load, 1);
    num(&mut m, "today_grid_import", s.today.import, 1);
    num(&mut m, "today_grid_export", s.today.export, 1);
    num(&mut m, "total_grid_import", s.total.import, 1);
    num(&mut m, "total_grid_export", s.total.export, 1);
    num(
        &mut m,
        "today_energy_net",
        s.today.pv + s.today.discharge - s.today.charge,
        1,
    );
    num(
        &mut m,
        "total_energy_active",
        s.total.pv + s.total.discharge - s.total.charge,
        1,
    );
    num(&mut m, "grid_power", f.grid_w, 0);
    num(&mut m, "grid_ct_power", f.grid_w, 0);
    num(&mut m, "load_power", f.load_w, 0);
    num(&mut m, "inverter_power", f.ac_output_w(), 0);
    if let Some(b) = &s.battery {
        num(&mut m, "today_battery_charge", s.today.charge, 1);
        num(&mut m, "today_battery_discharge", s.today.discharge, 1);
        num(&mut m, "total_battery_charge", s.total.charge, 1);
        num(&mut m, "total_battery_discharge", s.total.discharge, 1);
        num(&mut m, "battery_power", f.battery_w, 0);
        num(&mut m, "battery_soc", b.soc, 0);
        num(&mut m, "battery_voltage", b.voltage, 2);
        // This inverter's part of the bank's current.
        let amps = if b.voltage > 0.0 {
            f.battery_w / b.voltage
        } else {
            0.0
        };
        num(&mut m, "battery_current", amps, 2);
        num(&mut m, "battery_temperature", s.ambient_c + 5.0, 1);
    }
    num(&mut m, "inverter_temperature", s.module_c * 0.6 + 15.0, 1);
    num(&mut m, "dc_temperature", s.module_c * 0.5 + 14.0, 1);
    num(&mut m, "grid_frequency", 50.0, 2);
    num(&mut m, "inverter_frequency", 50.0, 2);
    num(&mut m, "load_frequency", 50.0, 2);
    let phase_v = 230.0;
    let lines: Vec<usize> = (1..=phases.max(1)).collect();
    for l in &lines {
        let share = 1.0 / lines.len() as f64;
        num(&mut m, &format!("grid_voltage_l{l}"), phase_v, 1);
        num(
            &mut m,
            &format!("grid_current_l{l}"),
            f.grid_w * share / phase_v,
            1,
        );
        num(&mut m, &format!("grid_power_l{l}"), f.grid_w * share, 0);
        num(&mut m, &format!("load_power_l{l}"), f.load_w * share, 0);
        if phases > 1 {
            num(&mut m, &format!("grid_ct_power_l{l}"), f.grid_w * share, 0);
            num(
                &mut m,
                &format!("inverter_power_l{l}"),
                f.ac_output_w() * share,
                0,
            );
            num(&mut m, &format!("inverter_voltage_l{l}"), phase_v, 1);
            num(
                &mut m,
                &format!("inverter_current_l{l}"),
                f.ac_output_w() * share / phase_v,
                1,
            );
            num(&mut m, &format!("load_voltage_l{l}"), phase_v, 1);
        }
    }
    if phases <= 1 {
        // A single-phase model has one output line under the bare keys.
        num(&mut m, "inverter_voltage", phase_v, 1);
        num(&mut m, "inverter_current", f.ac_output_w() / phase_v, 1);
    }
    m.insert("grid_connected".into(), Value::Bool(true));
    for (i, word) in fault_words(s, Equipment::hybrid(s)).iter().enumerate() {
        num(
            &mut m,
            &format!("fault_word_{}", i + 1),
            f64::from(*word),
            0,
        );
    }
    num(&mut m, "warning_word", 0.0, 0);
    m
}

/// What Deye's string and micro inverters share (`deye-string-3ph`, `deye-micro`): identity,
/// switch and state, the output limit, PV energy and power, the AC output and its frequency.
fn grid_tied_common(s: &Snapshot, serial: &str, phases: usize) -> Values {
    let mut m = Values::new();
    let f = s.flows;
    m.insert("serial_number".into(), Value::Text(serial.into()));
    num(&mut m, "rated_power", s.rated_w, 0);
    num(&mut m, "mppt_count", s.strings.len() as f64, 0);
    num(&mut m, "phase_count", phases as f64, 0);
    m.insert("power_on".into(), Value::Bool(s.on));
    num(&mut m, "running_state", running_state(s), 0);
    num(&mut m, "active_power_limit", s.active_limit_pct, 1);
    num(&mut m, "today_pv_energy", s.today.pv, 1);
    num(&mut m, "total_pv_energy", s.total.pv, 1);
    num(&mut m, "pv_power", f.pv_w, 1);
    num(&mut m, "inverter_power", f.ac_output_w().max(0.0), 1);
    num(&mut m, "grid_frequency", 50.0, 2);
    num(&mut m, "warning_word", 0.0, 0);
    m
}

/// A three-phase string (grid-tied) inverter, keyed like `deye-string-3ph`: its output on
/// each line (the grid connection), its inputs, and the plant's meter values the inverter's
/// own meter port reports (load, grid and their counters).
pub fn string_inverter(s: &Snapshot, serial: &str) -> Values {
    let mut m = grid_tied_common(s, serial, 3);
    let f = s.flows;
    let phase_v = 230.0;
    let amps = f.ac_output_w().max(0.0) / 3.0 / phase_v;
    for l in 1..=3 {
        num(&mut m, &format!("grid_voltage_l{l}"), phase_v, 1);
        num(&mut m, &format!("inverter_voltage_l{l}"), phase_v, 1);
        num(&mut m, &format!("grid_current_l{l}"), amps, 1);
        num(&mut m, &format!("inverter_current_l{l}"), amps, 1);
    }
    for pair in ["l12", "l23", "l31"] {
        num(
            &mut m,
            &format!("grid_line_voltage_{pair}"),
            phase_v * 3f64.sqrt(),
            1,
        );
    }
    num(&mut m, "apparent_power", f.ac_output_w().max(0.0), 1);
    num(&mut m, "reactive_power", 0.0, 1);
    for (i, (v, a, _)) in s.strings.iter().enumerate() {
        num(&mut m, &format!("pv{}_voltage", i + 1), *v, 1);
        num(&mut m, &format!("pv{}_current", i + 1), *a, 1);
    }
    num(&mut m, "inverter_temperature", s.module_c * 0.6 + 15.0, 1);
    num(&mut m, "dc_temperature", s.module_c * 0.5 + 14.0, 1);
    for (i, word) in fault_words(s, Equipment::GRID_TIED).iter().enumerate() {
        num(
            &mut m,
            &format!("fault_word_{}", i + 1),
            f64::from(*word),
            0,
        );
    }
    num(&mut m, "load_power", f.load_w, 0);
    num(&mut m, "grid_power", f.grid_w, 0);
    num(&mut m, "today_load_energy", s.today.load, 2);
    num(&mut m, "total_load_energy", s.total.load, 1);
    num(&mut m, "today_grid_import", s.today.import, 2);
    num(&mut m, "today_grid_export", s.today.export, 2);
    num(&mut m, "total_grid_import", s.total.import, 1);
    num(&mut m, "total_grid_export", s.total.export, 1);
    m
}

/// A module's voltage at its maximum power point, V (a micro inverter's input takes one).
const MICRO_MODULE_VMP: f64 = 37.5;

/// A micro inverter, keyed like `deye-micro`: one module per input at module voltage, its
/// single-phase output, and its fault word under the micro's own keys (its bits are not the
/// hybrids' Fnn).
pub fn micro_inverter(s: &Snapshot, serial: &str) -> Values {
    let mut m = grid_tied_common(s, serial, 1);
    let f = s.flows;
    let phase_v = 230.0;
    let amps = f.ac_output_w().max(0.0) / phase_v;
    for key in ["grid", "inverter"] {
        num(&mut m, &format!("{key}_voltage"), phase_v, 1);
        num(&mut m, &format!("{key}_current"), amps, 1);
    }
    for (i, (_, _, w)) in s.strings.iter().enumerate() {
        let v = if *w > 0.0 {
            MICRO_MODULE_VMP * (1.0 - 0.0035 * (s.module_c - 25.0))
        } else {
            0.0
        };
        let a = if v > 0.0 { w / v } else { 0.0 };
        num(&mut m, &format!("pv{}_voltage", i + 1), v, 1);
        num(&mut m, &format!("pv{}_current", i + 1), a, 1);
    }
    num(&mut m, "inverter_temperature", s.module_c * 0.6 + 15.0, 1);
    for (i, word) in fault_words(s, Equipment::GRID_TIED).iter().enumerate() {
        num(
            &mut m,
            &format!("micro_fault_word_{}", i + 1),
            f64::from(*word),
            0,
        );
    }
    m
}

/// Deye's running state: 0 standby (switched off), 2 normal, 4 fault.
fn running_state(s: &Snapshot) -> f64 {
    if !s.on {
        0.0
    } else if s.faulted {
        4.0
    } else {
        2.0
    }
}

/// F35, "No AC grid": a grid outage, which every inverter of a plant sees at once.
pub const GRID_LOSS: u32 = 35;

/// Faults any inverter trips with (Fnn of the Deye fault word): F13 a working mode change (a
/// notice), F24 low DC insulation impedance (wet modules), F64 heat-sink over-temperature.
const ANY_INVERTER: [u32; 3] = [13, 24, 64];
/// F56 battery under-voltage: only a hybrid with a battery.
const BATTERY_LOW: u32 = 56;
/// F41 parallel system stopped: only hybrids working in parallel (more than one on a plant).
const PARALLEL_STOPPED: u32 = 41;

/// What an inverter has, which decides the faults it can have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Equipment {
    pub battery: bool,
    pub parallel: bool,
}

impl Equipment {
    /// A grid-tied string or micro inverter: no battery, not a parallel system.
    pub const GRID_TIED: Equipment = Equipment {
        battery: false,
        parallel: false,
    };

    /// An inverter of the hybrid layout in the plant `s` shows: its battery if the plant has
    /// one, parallel when such a hybrid shares the plant with others (an inverter of this
    /// layout on a plant without a battery is grid-tied: no battery port, no parallel system).
    pub fn hybrid(s: &Snapshot) -> Equipment {
        let battery = s.battery.is_some();
        Equipment {
            battery,
            parallel: battery && s.parallel,
        }
    }
}

/// Whether a trip starting in `hour` (hours since the epoch) is a grid outage: every fourth
/// hour's, for every inverter of the plant together.
pub fn is_grid_loss(hour: i64) -> bool {
    hour.rem_euclid(4) == 1
}

/// The fault a trip starting in `hour` raises on an inverter with `equipment`: a grid outage
/// every fourth hour, else one of the faults it can have, so that the demo never reports a
/// battery fault on an inverter without a battery or a parallel fault on a plant's only one.
pub fn fault_code(hour: i64, equipment: Equipment) -> u32 {
    if is_grid_loss(hour) {
        return GRID_LOSS;
    }
    let mut own = ANY_INVERTER.to_vec();
    if equipment.battery {
        own.push(BATTERY_LOW);
    }
    if equipment.parallel {
        own.push(PARALLEL_STOPPED);
    }
    own[hour.div_euclid(4).rem_euclid(own.len() as i64) as usize]
}

/// The 64-bit fault word as four 16-bit registers: Fnn is bit nn-1. A trip raises one fault,
/// chosen by the hour it happens in; a healthy inverter reports zeros, which clears it.
pub fn fault_words(s: &Snapshot, equipment: Equipment) -> [u16; 4] {
    let mut words = [0u16; 4];
    if s.faulted {
        let bit = fault_code(s.at.timestamp().div_euclid(3600), equipment) - 1;
        words[(bit / 16) as usize] |= 1 << (bit % 16);
    }
    words
}

/// The grid meter at the connection point.
pub fn meter(s: &Snapshot, serial: &str) -> Values {
    let mut m = Values::new();
    let f = s.flows;
    m.insert("serial_number".into(), Value::Text(serial.into()));
    for l in 1..=3 {
        num(&mut m, &format!("voltage_l{l}"), 230.0, 1);
        num(&mut m, &format!("current_l{l}"), f.grid_w / 3.0 / 230.0, 2);
        num(&mut m, &format!("power_l{l}"), f.grid_w / 3.0, 0);
    }
    num(&mut m, "power", f.grid_w, 0);
    num(&mut m, "power_factor", 0.98, 2);
    num(&mut m, "frequency", 50.0, 2);
    num(&mut m, "import_energy", s.total.import, 2);
    num(&mut m, "export_energy", s.total.export, 2);
    num(&mut m, "total_energy", s.total.import + s.total.export, 2);
    m
}

/// The shipped BMS config of a battery on `bus`.
pub fn battery_protocol(bus: Bus) -> &'static str {
    match bus {
        Bus::Low => "bms-lv-stack",
        Bus::High => "bms-hv-stack",
    }
}

/// The battery stack (master) with its slave packs, their cells and temperature sensors.
/// Nothing when the plant has no battery.
pub fn battery(s: &Snapshot, serial: &str) -> Values {
    let mut m = Values::new();
    m.insert("serial_number".into(), Value::Text(serial.into()));
    let Some(b) = &s.battery else {
        return m;
    };
    let spec = b.spec;
    let packs = spec.packs;
    num(&mut m, "pack_count", packs as f64, 0);
    num(&mut m, "soc", b.soc, 0);
    num(&mut m, "soh", b.soh, 0);
    num(&mut m, "voltage", b.voltage, 2);
    num(&mut m, "current", b.current, 2);
    num(&mut m, "power", s.flows.battery_w, 0);
    let sensors: Vec<f64> = b.sensors.iter().flatten().copied().collect();
    let cells: Vec<f64> = b.cells.iter().flatten().copied().collect();
    num(&mut m, "temperature_max", max(&sensors), 1);
    num(&mut m, "temperature_min", min(&sensors), 1);
    num(&mut m, "cell_voltage_max", max(&cells), 3);
    num(&mut m, "cell_voltage_min", min(&cells), 3);
    num(&mut m, "cycles", b.cycles.floor(), 0);
    let full_ah = spec.capacity_ah();
    num(&mut m, "capacity_full", full_ah, 1);
    num(&mut m, "capacity_remaining", full_ah * b.soc / 100.0, 1);
    // 0.5 C each way, in the stack's amps.
    num(&mut m, "charge_current_limit", full_ah * 0.5, 1);
    num(&mut m, "discharge_current_limit", full_ah * 0.5, 1);
    m.insert("charging".into(), Value::Bool(s.flows.battery_w < 0.0));
    m.insert("discharging".into(), Value::Bool(s.flows.battery_w > 0.0));
    m.insert("charge_relay_closed".into(), Value::Bool(true));
    m.insert("discharge_relay_closed".into(), Value::Bool(true));
    num(&mut m, "total_charge_energy", s.total.charge, 1);
    num(&mut m, "total_discharge_energy", s.total.discharge, 1);
    for (i, (pack_cells, pack_sensors)) in b.cells.iter().zip(&b.sensors).enumerate() {
        let p = i + 1;
        m.insert(
            format!("pack{p}_serial_number"),
            Value::Text(format!("{serial}-P{p}")),
        );
        num(&mut m, &format!("pack{p}_soc"), b.soc, 0);
        num(&mut m, &format!("pack{p}_soh"), b.soh, 0);
        num(&mut m, &format!("pack{p}_voltage"), b.pack_voltage(i), 2);
        num(&mut m, &format!("pack{p}_current"), b.pack_current(), 2);
        let mean = pack_sensors.iter().sum::<f64>() / pack_sensors.len().max(1) as f64;
        num(&mut m, &format!("pack{p}_temperature"), mean, 1);
        num(
            &mut m,
            &format!("pack{p}_cell_voltage_max"),
            max(pack_cells),
            3,
        );
        num(
            &mut m,
            &format!("pack{p}_cell_voltage_min"),
            min(pack_cells),
            3,
        );
        num(&mut m, &format!("pack{p}_cycles"), b.cycles.floor(), 0);
        for (c, v) in pack_cells.iter().enumerate() {
            num(&mut m, &format!("pack{p}_cell{}_voltage", c + 1), *v, 3);
        }
        for (k, t) in pack_sensors.iter().enumerate() {
            num(
                &mut m,
                &format!("pack{p}_sensor{}_temperature", k + 1),
                *t,
                1,
            );
        }
    }
    m
}

fn max(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::MIN, f64::max)
}

fn min(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::MAX, f64::min)
}

pub fn weather(s: &Snapshot, serial: &str) -> Values {
    let mut m = Values::new();
    m.insert("serial_number".into(), Value::Text(serial.into()));
    num(&mut m, "irradiance", s.irradiance, 0);
    num(&mut m, "today_irradiation", s.irradiation_today, 3);
    num(&mut m, "module_temperature", s.module_c, 1);
    num(&mut m, "ambient_temperature", s.ambient_c, 1);
    num(&mut m, "humidity", 55.0, 0);
    num(&mut m, "wind_speed", s.wind_ms, 1);
    num(&mut m, "wind_direction", 225.0, 0);
    num(&mut m, "pressure", 1013.0, 0);
    num(&mut m, "rainfall", 0.0, 1);
    m
}

/// A simulated combiner's strings: 13 modules of 450 W (37.5 V at maximum power) each.
const STRING_MODULES: f64 = 13.0;
const MODULE_W: f64 = 450.0;
const MODULE_VMP: f64 = 37.5;
/// The weak string of a simulated box (soiled, or a module bypassed) and the share it gives.
pub const WEAK_STRING: usize = 5;
const WEAK_SHARE: f64 = 0.45;

/// A DC combiner box gathering `strings` strings of a plant of `plant_kwp`: each string makes
/// its share of the plant's PV power, with a little mismatch between strings, and string
/// [`WEAK_STRING`] a bit less than half; keyed like `combiner-dc16`.
pub fn combiner(s: &Snapshot, serial: &str, strings: usize, plant_kwp: f64) -> Values {
    let mut m = Values::new();
    m.insert("serial_number".into(), Value::Text(serial.into()));
    let string_kwp = STRING_MODULES * MODULE_W / 1000.0;
    let share = if plant_kwp > 0.0 {
        string_kwp / plant_kwp
    } else {
        0.0
    };
    let string_w = s.flows.pv_w.max(0.0) * share;
    // Voltage drops about 0.35 % per degree of module temperature above 25 °C.
    let volts = if string_w > 1.0 {
        STRING_MODULES * MODULE_VMP * (1.0 - 0.0035 * (s.module_c - 25.0))
    } else {
        0.0
    };
    let slot = u64::try_from(s.at.timestamp() / 300).unwrap_or(0);
    let (mut amps_sum, mut watts_sum, mut gain_sum) = (0.0, 0.0, 0.0);
    for n in 1..=strings {
        let gain = if n == WEAK_STRING {
            WEAK_SHARE
        } else {
            0.97 + 0.05 * noise::unit(n as u64, slot)
        };
        let v = volts * (0.995 + 0.01 * noise::unit(100 + n as u64, slot));
        let w = string_w * gain;
        let a = if v > 0.0 { w / v } else { 0.0 };
        num(&mut m, &format!("string{n}_current"), a, 2);
        num(&mut m, &format!("string{n}_voltage"), v, 1);
        amps_sum += a;
        watts_sum += w;
        gain_sum += gain;
    }
    num(&mut m, "string_count", strings as f64, 0);
    num(&mut m, "bus_voltage", volts, 1);
    num(&mut m, "total_current", amps_sum, 2);
    num(&mut m, "power", watts_sum, 0);
    let sun = if plant_kwp > 0.0 {
        (s.flows.pv_w / (plant_kwp * 1000.0)).clamp(0.0, 1.0)
    } else {
        0.0
    };
    num(&mut m, "temperature", s.ambient_c + 12.0 * sun, 1);
    num(&mut m, "status_word", 0.0, 0);
    num(&mut m, "today_energy", s.today.pv * share * gain_sum, 1);
    num(&mut m, "total_energy", s.total.pv * share * gain_sum, 1);
    m
}

/// Encodes values into the registers `config` describes and returns the blocks a logger would
/// read, so the portal's decoder gets exercised end to end. Values the config does not know are
/// ignored; points without a value read as zero, as on a real device.
pub fn raw_reading(config: &ProtocolConfig, values: &Values, base: DeviceReading) -> DeviceReading {
    let mut image = RegisterImage::new();
    for point in &config.points {
        if let Some(v) = values.get(&point.key) {
            // A value the layout cannot hold is left out rather than sent wrong.
            let _ = image.encode(point, v);
        }
    }
    let blocks = image.blocks(&plan_reads(config, 125, 16));
    DeviceReading {
        values: BTreeMap::new(),
        raw: blocks,
        protocol: config.code.clone(),
        ..base
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        battery::BatterySpec,
        plant::{PlantModel, PlantSpec},
    };
    use chrono::{TimeZone, Utc};

    fn snapshot_on(bus: Bus, packs: usize) -> Snapshot {
        let spec = PlantSpec {
            seed: 1,
            lat: 51.5,
            lon: 0.0,
            tz: chrono_tz::Europe::London,
            pv_kwp: 5.0,
            mppt_count: 2,
            inverters: 1,
            inverter_kw: 5.0,
            battery: Some(BatterySpec {
                bus,
                packs,
                cell_ah: 100.0,
            }),
            daily_load_kwh: 10.0,
            fault_rate: 0.0,
            tilt: 30.0,
            azimuth: 180.0,
            grid_charge: None,
            losses: Default::default(),
        };
        PlantModel::new(spec)
            .step(Utc.with_ymd_and_hms(2024, 6, 21, 12, 0, 0).unwrap(), 300.0)
            .inverter(0)
    }

    fn snapshot() -> Snapshot {
        snapshot_on(Bus::Low, 2)
    }

    #[test]
    fn a_tripped_inverter_sets_one_fault_bit_and_a_healthy_one_none() {
        let mut s = snapshot();
        assert_eq!(fault_words(&s, Equipment::hybrid(&s)), [0; 4]);
        s.faulted = true;
        let words = fault_words(&s, Equipment::hybrid(&s));
        assert_eq!(words.iter().map(|w| w.count_ones()).sum::<u32>(), 1);
    }

    #[test]
    fn each_inverter_trips_only_with_faults_it_can_have() {
        let codes = |e: Equipment| -> std::collections::BTreeSet<u32> {
            (0..400).map(|h| fault_code(h, e)).collect()
        };
        let lone_hybrid = Equipment {
            battery: true,
            parallel: false,
        };
        let parallel_hybrids = Equipment {
            battery: true,
            parallel: true,
        };
        assert_eq!(codes(Equipment::GRID_TIED), [13, 24, 35, 64].into());
        assert_eq!(codes(lone_hybrid), [13, 24, 35, 56, 64].into());
        assert_eq!(codes(parallel_hybrids), [13, 24, 35, 41, 56, 64].into());
        // A grid outage falls in the same hours whatever the inverter, so a plant's trip together.
        for h in 0..400 {
            assert_eq!(
                fault_code(h, Equipment::GRID_TIED) == GRID_LOSS,
                fault_code(h, parallel_hybrids) == GRID_LOSS
            );
        }
        // The snapshot says what the plant has: one hybrid with a battery here.
        let s = snapshot();
        assert_eq!(Equipment::hybrid(&s), lone_hybrid);
    }

    #[test]
    fn every_value_uses_a_key_of_its_shipped_config() {
        let configs = devices::protocol::shipped().unwrap();
        let config = |code: &str| configs.iter().find(|c| c.code == code).unwrap();
        let s = snapshot();
        let hv = snapshot_on(Bus::High, 8);
        let cases = [
            ("deye-hybrid-1ph", inverter(&s, 1, "INV1")),
            ("deye-hybrid-3ph-lv", inverter(&s, 3, "INV3")),
            ("deye-hybrid-3ph-hv", inverter(&hv, 3, "INV4")),
            ("meter-3ph", meter(&s, "MTR1")),
            ("bms-lv-stack", battery(&snapshot_on(Bus::Low, 4), "BAT1")),
            ("bms-hv-stack", battery(&hv, "BAT2")),
            ("weather-station", weather(&s, "WS1")),
            ("deye-string-3ph", string_inverter(&s, "INV5")),
            ("deye-micro", micro_inverter(&s, "INV6")),
        ];
        for (code, values) in cases {
            let keys: Vec<&str> = config(code).points.iter().map(|p| p.key.as_str()).collect();
            for key in values.keys() {
                assert!(keys.contains(&key.as_str()), "{code} has no point {key}");
            }
        }
    }

    #[test]
    fn a_single_phase_inverter_reports_its_output_line_and_a_three_phase_one_each_line() {
        let s = snapshot();
        let get = |v: &Values, k: &str| v.get(k).and_then(Value::as_f64);
        let one = inverter(&s, 1, "INV1");
        assert_eq!(get(&one, "inverter_voltage"), Some(230.0));
        let watts = get(&one, "inverter_power").unwrap();
        let amps = get(&one, "inverter_current").unwrap();
        assert!(
            (amps - watts / 230.0).abs() < 0.06,
            "{amps} A for {watts} W"
        );
        let three = inverter(&s, 3, "INV3");
        assert_eq!(get(&three, "inverter_voltage"), None);
        assert_eq!(get(&three, "inverter_voltage_l3"), Some(230.0));
    }

    #[test]
    fn a_stack_reports_every_cell_and_its_extremes_match_them() {
        let s = snapshot_on(Bus::High, 3);
        let v = battery(&s, "BAT");
        let cells: Vec<f64> = (1..=3)
            .flat_map(|p| (1..=16).map(move |c| format!("pack{p}_cell{c}_voltage")))
            .map(|k| v.get(&k).and_then(Value::as_f64).unwrap())
            .collect();
        assert_eq!(cells.len(), 48);
        let get = |k: &str| v.get(k).and_then(Value::as_f64).unwrap();
        assert_eq!(get("cell_voltage_max"), max(&cells));
        assert_eq!(get("cell_voltage_min"), min(&cells));
        // Packs in series: the stack is at the sum of its cells.
        assert!((get("voltage") - cells.iter().sum::<f64>()).abs() < 0.02);
        assert!(v.contains_key("pack3_sensor4_temperature"));
    }

    #[test]
    fn a_plant_without_a_battery_reports_no_battery_values() {
        let spec = PlantSpec {
            seed: 1,
            lat: 51.5,
            lon: 0.0,
            tz: chrono_tz::Europe::London,
            pv_kwp: 5.0,
            mppt_count: 1,
            inverters: 1,
            inverter_kw: 5.0,
            battery: None,
            daily_load_kwh: 10.0,
            fault_rate: 0.0,
            tilt: 30.0,
            azimuth: 180.0,
            grid_charge: None,
            losses: Default::default(),
        };
        let s = PlantModel::new(spec)
            .step(Utc.with_ymd_and_hms(2024, 6, 21, 12, 0, 0).unwrap(), 300.0)
            .inverter(0);
        let v = inverter(&s, 1, "INV");
        assert!(!v.keys().any(|k| k.contains("battery")), "{:?}", v.keys());
        assert_eq!(v.get("rated_power").and_then(Value::as_f64), Some(5000.0));
    }

    /// A plant without a battery at noon on midsummer, as inverter `k` sees it.
    fn grid_tied_snapshot(mppt_count: usize, kwp: f64) -> Snapshot {
        let spec = PlantSpec {
            seed: 3,
            lat: 40.4,
            lon: -3.7,
            tz: chrono_tz::Europe::Madrid,
            pv_kwp: kwp,
            mppt_count,
            inverters: 1,
            inverter_kw: kwp,
            battery: None,
            daily_load_kwh: 10.0,
            fault_rate: 0.0,
            tilt: 30.0,
            azimuth: 180.0,
            grid_charge: None,
            losses: Default::default(),
        };
        let mut model = PlantModel::new(spec);
        let start = Utc.with_ymd_and_hms(2024, 6, 21, 0, 0, 0).unwrap();
        let mut s = model.step(start, 300.0);
        for i in 1..=144 {
            s = model.step(start + chrono::Duration::minutes(5 * i), 300.0);
        }
        s.inverter(0)
    }

    /// Reports `values` as raw registers with `code`'s map and decodes them as the portal does:
    /// nothing missing, nothing outside its valid range.
    fn decoded(code: &str, values: &Values) -> BTreeMap<String, f64> {
        let configs = devices::protocol::shipped().unwrap();
        let config = configs.iter().find(|c| c.code == code).unwrap();
        let base = DeviceReading {
            sn: "INV".into(),
            family: devices::DeviceFamily::Inverter.to_string(),
            type_code: config.inverter_type.map_or(0, i64::from),
            protocol: String::new(),
            model: String::new(),
            parent: None,
            values: BTreeMap::new(),
            raw: Vec::new(),
        };
        let reading = raw_reading(config, values, base);
        assert_eq!(reading.protocol, code);
        let out = devices::decode(config, &reading.raw);
        assert!(out.missing.is_empty() && out.invalid.is_empty(), "{out:?}");
        assert!(out.out_of_range.is_empty(), "{:?}", out.out_of_range);
        out.values
            .iter()
            .filter_map(|(k, v)| Some((k.to_string(), v.as_f64()?)))
            .collect()
    }

    #[test]
    fn a_string_inverter_reports_plausible_values_in_its_own_map() {
        let s = grid_tied_snapshot(2, 5.0);
        let d = decoded("deye-string-3ph", &string_inverter(&s, "INV5"));
        let pv = d["pv_power"];
        assert!((1000.0..=5000.0).contains(&pv), "noon PV {pv} W");
        let inputs: f64 = (1..=2)
            .map(|n| d[&format!("pv{n}_voltage")] * d[&format!("pv{n}_current")])
            .sum();
        assert!(
            (inputs - pv).abs() < pv * 0.05,
            "{inputs} W from the inputs, {pv} W"
        );
        for l in 1..=3 {
            assert_eq!(d[&format!("grid_voltage_l{l}")], 230.0);
        }
        let amps: f64 = (1..=3).map(|l| d[&format!("grid_current_l{l}")]).sum();
        assert!((amps * 230.0 - d["inverter_power"]).abs() < 100.0);
        assert_eq!(d["grid_frequency"], 50.0);
        assert_eq!((d["running_state"], d["power_on"]), (2.0, 1.0));
        assert_eq!(d["active_power_limit"], 100.0);
        assert!(d["today_pv_energy"] > 1.0 && d["total_pv_energy"] >= d["today_pv_energy"]);
        assert!(
            (d["load_power"] - pv - d["grid_power"]).abs() < 2.0,
            "load = PV + grid"
        );
        assert!(!d.contains_key("battery_soc"));
    }

    #[test]
    fn a_micro_inverter_reports_module_voltages_in_its_own_map() {
        let s = grid_tied_snapshot(4, 2.0);
        let d = decoded("deye-micro", &micro_inverter(&s, "INV6"));
        for n in 1..=4 {
            let v = d[&format!("pv{n}_voltage")];
            assert!((30.0..=45.0).contains(&v), "input {n}: {v} V");
        }
        assert!(d["pv_power"] > 200.0 && d["pv_power"] <= 2000.0);
        assert_eq!((d["grid_voltage"], d["phase_count"]), (230.0, 1.0));
        assert!((d["grid_current"] * 230.0 - d["inverter_power"]).abs() < 30.0);
        assert!(d.contains_key("micro_fault_word_1") && !d.contains_key("fault_word_1"));
    }

    #[test]
    fn raw_blocks_decode_back_to_the_simulated_values() {
        let configs = devices::protocol::shipped().unwrap();
        let config = configs
            .iter()
            .find(|c| c.code == "deye-hybrid-1ph")
            .unwrap();
        let s = snapshot();
        let values = inverter(&s, 1, "INV1");
        let base = DeviceReading {
            sn: "INV1".into(),
            family: devices::DeviceFamily::Inverter.to_string(),
            type_code: 2,
            protocol: String::new(),
            model: "SUN-5K".into(),
            parent: None,
            values: BTreeMap::new(),
            raw: Vec::new(),
        };
        let reading = raw_reading(config, &values, base);
        let decoded = devices::decode(config, &reading.raw);
        let get = |k: &str| {
            decoded
                .values
                .iter()
                .find(|(key, _)| *key == k)
                .and_then(|(_, v)| v.as_f64())
        };
        let expect = |k: &str| values.get(k).and_then(Value::as_f64);
        for key in ["pv1_power", "battery_soc", "today_pv_energy", "load_power"] {
            let (got, want) = (get(key), expect(key));
            assert!(
                matches!((got, want), (Some(g), Some(w)) if (g - w).abs() <= 1.0),
                "{key}: {got:?} vs {want:?}"
            );
        }
    }
}
