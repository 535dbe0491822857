//! The simulator's physics add up, checked on what its devices report (decoded like the portal
//! decodes them) over a full simulated day at the demo's sample rate (a report every five
//! seconds), for every plant the demo runs: one per inverter type code and the commercial roof
//! with ten inverters.
//!
//! Per inverter and per plant: PV + discharge + import = load + charge + export, every report
//! and over the day; the daily counters equal the integral of the reported powers; the meter's
//! and the BMS's lifetime counters move by what the inverters counted. The battery stays within
//! its capacity, its state of charge follows the integrated charge and discharge, its capacity
//! and voltage are those of its class (LV 48 V stacks on LV hybrids, HV stacks on HV ones), and
//! it lists every cell. A plant without a battery reports no battery values. Then a power off
//! stops an inverter's output and a power on brings it back. A micro inverter's map has no
//! load or grid registers: its plant is balanced on its PV and the meter alone.

#![allow(clippy::unwrap_used)] // a test: a missing value is a failure

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use devices::DeviceFamily;
use devices::{Value, protocol::ProtocolConfig, report::DeviceReading};
use serde_json::json;
use sim::{
    battery::{CHARGE_EFFICIENCY, DISCHARGE_EFFICIENCY, MIN_SOC},
    commands::{self, GatewayState},
    fleet::{GatewaySpec, SimGateway, commercial_plant, demo_fleet},
    readings::Values,
};

/// The demo's live sample rate (`serve --demo` reports every five seconds).
const STEP_SECS: i64 = 5;
const STEPS_PER_DAY: i64 = 86_400 / STEP_SECS;
/// Counters are reported in 0.1 kWh (the registers' resolution).
const COUNTER: f64 = 0.05;

/// The plants `serve --demo` runs (crates/portal/src/serve.rs), with the soiled plant and the
/// shaded string of its scenarios; without the silent inverter, whose missing reports would
/// leave the plant's sums short (the model still balances it).
fn demo_plants() -> Vec<GatewaySpec> {
    let mut plants = demo_fleet(7, 2024);
    plants.push(commercial_plant(plants.len(), 2024));
    sim::scenarios::demo(&mut plants, Utc::now());
    for p in &mut plants {
        p.silent = None;
    }
    plants
}

/// A reading's values as numbers (booleans 0/1), decoded first when it carries raw registers.
fn numbers(r: &DeviceReading, configs: &[ProtocolConfig]) -> BTreeMap<String, f64> {
    let values: Values = if r.raw.is_empty() {
        r.values.clone()
    } else {
        let config = configs.iter().find(|c| c.code == r.protocol).unwrap();
        devices::decode(config, &r.raw)
            .values
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect()
    };
    values
        .into_iter()
        .filter_map(|(k, v)| match v {
            Value::Number(n) => Some((k, n)),
            Value::Bool(b) => Some((k, f64::from(u8::from(b)))),
            Value::Text(_) => None,
        })
        .collect()
}

fn get(m: &BTreeMap<String, f64>, key: &str) -> f64 {
    *m.get(key)
        .unwrap_or_else(|| panic!("no {key} in {:?}", m.keys()))
}

/// PV power: the map's input power where it has one (string and micro maps), else the inputs'.
fn pv_power(m: &BTreeMap<String, f64>) -> f64 {
    m.get("pv_power")
        .copied()
        .unwrap_or_else(|| (1..=4).filter_map(|n| m.get(&format!("pv{n}_power"))).sum())
}

/// Whether an inverter's map reports its load and grid side (a micro inverter's does not).
fn has_load_side(m: &BTreeMap<String, f64>) -> bool {
    m.contains_key("load_power") && m.contains_key("grid_power")
}

/// Energy of one device over the day: integrated from its powers, kWh.
#[derive(Debug, Default, Clone, Copy)]
struct Integral {
    pv: f64,
    load: f64,
    import: f64,
    export: f64,
    charge: f64,
    discharge: f64,
}

impl Integral {
    fn add(&mut self, pv: f64, load: f64, grid: f64, battery: f64) {
        let h = STEP_SECS as f64 / 3600.0 / 1000.0;
        self.pv += pv * h;
        self.load += load * h;
        self.import += grid.max(0.0) * h;
        self.export += (-grid).max(0.0) * h;
        self.charge += (-battery).max(0.0) * h;
        self.discharge += battery.max(0.0) * h;
    }
}

/// What one plant's day looked like.
struct Day {
    name: String,
    errors: Vec<String>,
    summary: String,
}

fn check(ok: bool, errors: &mut Vec<String>, what: impl FnOnce() -> String) {
    if !ok {
        errors.push(what());
    }
}

/// Runs `spec`'s plant through local day `day` and checks it.
fn run_day(spec: GatewaySpec, day: NaiveDate, configs: &[ProtocolConfig]) -> Day {
    let tz = spec.plant.tz;
    let name = format!("{} (type {})", spec.plant_name, spec.devices[0].type_code);
    let midnight: DateTime<Utc> = tz
        .from_local_datetime(&day.and_hms_opt(0, 0, 0).unwrap())
        .earliest()
        .unwrap()
        .with_timezone(&Utc);
    let inverter_sns: Vec<String> = spec
        .devices
        .iter()
        .filter(|d| d.family == DeviceFamily::Inverter)
        .map(|d| d.sn.clone())
        .collect();
    let battery_spec = spec.plant.battery;
    let hv_hybrid = matches!(spec.devices[0].type_code, 94 | 21);
    let mut gw = SimGateway::new(spec);
    let mut errors = Vec::new();

    // An hour before midnight, so the lifetime counters have a value from the day before.
    let mut before = BTreeMap::new();
    for i in (1..=3600 / STEP_SECS).rev() {
        let at = midnight - Duration::seconds(STEP_SECS * i);
        let (_, t) = gw.telemetry(at, STEP_SECS as f64, configs);
        before = t
            .devices
            .iter()
            .map(|r| (r.sn.clone(), numbers(r, configs)))
            .collect::<BTreeMap<_, _>>();
    }
    let soc_start = gw.model.soc().unwrap_or(0.0);

    let mut integrals = vec![Integral::default(); inverter_sns.len()];
    let mut last = BTreeMap::new();
    let mut last_snapshot = None;
    let (mut soc_min, mut soc_max) = (f64::MAX, f64::MIN);
    let mut max_ac_over_rated: f64 = f64::MIN;
    for i in 0..STEPS_PER_DAY {
        let at = midnight + Duration::seconds(STEP_SECS * i);
        let (snapshot, t) = gw.telemetry(at, STEP_SECS as f64, configs);
        let values: BTreeMap<String, BTreeMap<String, f64>> = t
            .devices
            .iter()
            .map(|r| (r.sn.clone(), numbers(r, configs)))
            .collect();
        let mut grid_sum = 0.0;
        let mut grid_known = true;
        for (k, sn) in inverter_sns.iter().enumerate() {
            let m = &values[sn];
            let pv = pv_power(m);
            if !has_load_side(m) {
                grid_known = false;
                check(get(m, "power_on") == 1.0, &mut errors, || {
                    format!("{sn} at {at}: reports off")
                });
                integrals[k].add(pv, 0.0, 0.0, 0.0);
                continue;
            }
            let load = get(m, "load_power");
            let grid = get(m, "grid_power");
            let battery = m.get("battery_power").copied().unwrap_or(0.0);
            grid_sum += grid;
            // Each power is rounded to a watt (PV per string).
            check(
                (pv + battery + grid - load).abs() <= 6.0,
                &mut errors,
                || {
                    format!(
                        "{sn} at {at}: pv {pv} + battery {battery} + grid {grid} != load {load}"
                    )
                },
            );
            check(get(m, "power_on") == 1.0, &mut errors, || {
                format!("{sn} at {at}: reports off")
            });
            let rated = get(m, "rated_power");
            max_ac_over_rated = max_ac_over_rated.max(get(m, "inverter_power") - rated);
            integrals[k].add(pv, load, grid, battery);
        }
        if let Some(meter) = values
            .values()
            .find(|m| grid_known && m.contains_key("import_energy"))
        {
            let power = get(meter, "power");
            check(
                (power - grid_sum).abs() <= 1.0 + inverter_sns.len() as f64,
                &mut errors,
                || format!("at {at}: meter {power} W, inverters' grid {grid_sum} W"),
            );
        }
        if let Some(b) = &snapshot.battery {
            soc_min = soc_min.min(b.soc);
            soc_max = soc_max.max(b.soc);
        }
        last = values;
        last_snapshot = Some(snapshot);
    }
    let snapshot = last_snapshot.unwrap();

    // Counters against the integrated powers, and the balance of the counters.
    let mut plant = Integral::default();
    let load_side = inverter_sns.iter().all(|sn| has_load_side(&last[sn]));
    for (k, sn) in inverter_sns.iter().enumerate() {
        let m = &last[sn];
        let counter = |key: &str| m.get(key).copied().unwrap_or(0.0);
        let pairs = [
            ("today_pv_energy", integrals[k].pv),
            ("today_load_energy", integrals[k].load),
            ("today_grid_import", integrals[k].import),
            ("today_grid_export", integrals[k].export),
            ("today_battery_charge", integrals[k].charge),
            ("today_battery_discharge", integrals[k].discharge),
        ];
        for (key, integral) in pairs {
            let reported = counter(key);
            check(
                (reported - integral).abs() <= COUNTER + 0.02,
                &mut errors,
                || format!("{sn} {key}: counter {reported} kWh, powers integrate to {integral:.3}"),
            );
        }
        let imbalance = counter("today_pv_energy")
            + counter("today_battery_discharge")
            + counter("today_grid_import")
            - counter("today_load_energy")
            - counter("today_battery_charge")
            - counter("today_grid_export");
        check(
            !has_load_side(m) || imbalance.abs() <= 6.0 * COUNTER,
            &mut errors,
            || format!("{sn}: the day's counters are off balance by {imbalance:.2} kWh"),
        );
        plant.pv += counter("today_pv_energy");
        plant.load += counter("today_load_energy");
        plant.import += counter("today_grid_import");
        plant.export += counter("today_grid_export");
        plant.charge += counter("today_battery_charge");
        plant.discharge += counter("today_battery_discharge");
    }
    let n = inverter_sns.len() as f64;
    let plant_imbalance =
        plant.pv + plant.discharge + plant.import - plant.load - plant.charge - plant.export;
    check(
        !load_side || plant_imbalance.abs() <= 6.0 * COUNTER * n,
        &mut errors,
        || format!("plant counters off balance by {plant_imbalance:.2} kWh"),
    );
    check(snapshot.today.imbalance().abs() < 1e-6, &mut errors, || {
        format!("model counters off balance: {:?}", snapshot.today)
    });
    check(max_ac_over_rated <= 1.0, &mut errors, || {
        format!("AC output above the rating by {max_ac_over_rated} W")
    });
    let model_name = &gw.spec.devices[0].model;
    let rated_kw = get(&last[&inverter_sns[0]], "rated_power") / 1000.0;
    check(
        model_name.ends_with(&format!("-{}K", rated_kw as i64)),
        &mut errors,
        || format!("{model_name} rated {rated_kw} kW"),
    );

    // The meter's lifetime counters moved by what the inverters counted.
    if let Some((sn, meter)) = last
        .iter()
        .find(|(_, m)| load_side && m.contains_key("import_energy"))
    {
        for (key, day) in [
            ("import_energy", plant.import),
            ("export_energy", plant.export),
        ] {
            let moved = get(meter, key) - get(&before[sn], key);
            check(
                (moved - day).abs() <= COUNTER * n + 0.01,
                &mut errors,
                || format!("meter {key} moved {moved:.2} kWh, inverters counted {day:.2}"),
            );
        }
    }

    // The battery.
    let bms = last.iter().find(|(_, m)| m.contains_key("pack_count"));
    let inverter0 = &last[&inverter_sns[0]];
    let summary = match (battery_spec, bms) {
        (None, bms) => {
            check(bms.is_none(), &mut errors, || {
                "a BMS without a battery".into()
            });
            for sn in &inverter_sns {
                let keys: Vec<&String> =
                    last[sn].keys().filter(|k| k.contains("battery")).collect();
                check(keys.is_empty(), &mut errors, || {
                    format!("{sn} has no battery but reports {keys:?}")
                });
            }
            format!("no battery; pv {:.1} load {:.1} kWh", plant.pv, plant.load)
        }
        (Some(_), None) => {
            errors.push("a battery without a BMS".into());
            String::new()
        }
        (Some(spec), Some((sn, m))) => {
            let capacity = spec.kwh();
            // Capacity as the BMS states it (Ah at the stack's nominal voltage).
            let stated = get(m, "capacity_full") * spec.nominal_v() / 1000.0;
            check((stated / capacity - 1.0).abs() < 0.01, &mut errors, || {
                format!("BMS states {stated:.1} kWh, the stack holds {capacity:.1}")
            });
            let voltage = get(m, "voltage");
            let (lo, hi) = if hv_hybrid {
                (150.0, 1000.0)
            } else {
                (40.0, 60.0)
            };
            check((lo..=hi).contains(&voltage), &mut errors, || {
                format!(
                    "stack at {voltage} V on a {} hybrid",
                    if hv_hybrid { "HV" } else { "LV" }
                )
            });
            let inv_v = get(inverter0, "battery_voltage");
            check(
                (inv_v - voltage).abs() <= voltage * 0.005 + 0.1,
                &mut errors,
                || format!("inverter sees {inv_v} V, BMS {voltage} V"),
            );
            let cells: Vec<f64> = (1..=spec.packs)
                .flat_map(|p| (1..=16).map(move |c| format!("pack{p}_cell{c}_voltage")))
                .filter_map(|k| m.get(&k).copied())
                .collect();
            check(cells.len() == spec.packs * 16, &mut errors, || {
                format!("{} cell voltages for {} packs", cells.len(), spec.packs)
            });
            let top = cells.iter().copied().fold(f64::MIN, f64::max);
            check(
                (get(m, "cell_voltage_max") - top).abs() < 1e-6,
                &mut errors,
                || format!("highest cell {top}, summary {}", get(m, "cell_voltage_max")),
            );
            // Within capacity all day, and the state of charge follows the energy.
            check(
                soc_min >= MIN_SOC - 1e-6 && soc_max <= 100.0 + 1e-9,
                &mut errors,
                || format!("SOC ran {soc_min:.1}-{soc_max:.1} %"),
            );
            let today = snapshot.today;
            let soc_end = snapshot.soc().unwrap();
            let stored = (soc_end - soc_start) / 100.0 * capacity;
            let expected =
                today.charge * CHARGE_EFFICIENCY - today.discharge / DISCHARGE_EFFICIENCY;
            check((stored - expected).abs() < 1e-6, &mut errors, || {
                format!("stored {stored:.3} kWh, charge and discharge give {expected:.3}")
            });
            check(
                today.charge > 0.1 && today.discharge > 0.1,
                &mut errors,
                || format!("a day without both charge and discharge: {today:?}"),
            );
            // At most a full swing each way and back: the battery cannot move more energy
            // than its charge range allows plus what it took in the same day.
            let range = (100.0 - MIN_SOC) / 100.0 * capacity;
            check(today.discharge <= range + today.charge, &mut errors, || {
                format!(
                    "discharged {:.1} kWh from {range:.1} kWh of range",
                    today.discharge
                )
            });
            // The BMS's lifetime counters moved by what the inverters counted.
            for (key, day) in [
                ("total_charge_energy", plant.charge),
                ("total_discharge_energy", plant.discharge),
            ] {
                let moved = get(m, key) - get(&before[sn], key);
                check(
                    (moved - day).abs() <= COUNTER * (n + 2.0),
                    &mut errors,
                    || format!("BMS {key} moved {moved:.2} kWh, inverters counted {day:.2}"),
                );
            }
            format!(
                "{:.1} kWh {} stack at {voltage:.0} V, SOC {soc_start:.0}->{soc_end:.0} % \
                 (range {soc_min:.0}-{soc_max:.0}), charged {:.1} discharged {:.1}, \
                 pv {:.1} load {:.1} import {:.1} export {:.1} kWh",
                capacity,
                if hv_hybrid { "HV" } else { "LV" },
                plant.charge,
                plant.discharge,
                plant.pv,
                plant.load,
                plant.import,
                plant.export,
            )
        }
    };
    Day {
        name,
        errors,
        summary,
    }
}

#[test]
fn every_demo_plant_keeps_its_energy_balance_over_a_day_at_the_demo_sample_rate() {
    let configs = devices::protocol::shipped().unwrap();
    // An equinox: the sun is up about twelve hours at every site, north and south.
    let day = NaiveDate::from_ymd_opt(2025, 3, 20).unwrap();
    let plants = demo_plants();
    let types: Vec<i64> = plants.iter().map(|p| p.devices[0].type_code).collect();
    for code in [1, 2, 3, 21, 22, 93, 94] {
        assert!(types.contains(&code), "the demo has a type {code} plant");
    }
    let days: Vec<Day> = std::thread::scope(|scope| {
        let handles: Vec<_> = plants
            .into_iter()
            .map(|spec| {
                let configs = &configs;
                scope.spawn(move || run_day(spec, day, configs))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut failures = Vec::new();
    for d in &days {
        println!("{}: {}", d.name, d.summary);
        failures.extend(d.errors.iter().take(5).map(|e| format!("{}: {e}", d.name)));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The values of `sn` in the gateway's next report.
fn next(
    gw: &mut SimGateway,
    at: DateTime<Utc>,
    sn: &str,
    configs: &[ProtocolConfig],
) -> BTreeMap<String, f64> {
    let (_, t) = gw.telemetry(at, STEP_SECS as f64, configs);
    let r = t.devices.iter().find(|r| r.sn == sn).unwrap();
    numbers(r, configs)
}

#[test]
fn power_off_stops_an_inverters_output_and_power_on_brings_it_back() {
    let configs = devices::protocol::shipped().unwrap();
    let cmd = |kind: &str, sn: &str| devices::report::Command {
        v: 1,
        id: format!("c-{kind}"),
        sn: sn.into(),
        kind: kind.into(),
        params: json!(null),
        timeout_ms: 5000,
    };
    let plants = demo_plants();
    // The single-phase LV hybrid reporting raw registers, and the commercial roof.
    for spec in [plants[0].clone(), plants[7].clone()] {
        let noon = spec
            .plant
            .tz
            .with_ymd_and_hms(2025, 6, 21, 12, 30, 0)
            .unwrap()
            .with_timezone(&Utc);
        let sn = spec.devices[0].sn.clone();
        let bms = spec
            .devices
            .iter()
            .find(|d| d.family == DeviceFamily::Battery)
            .map(|d| d.sn.clone())
            .unwrap();
        let mut gw = SimGateway::new(spec);
        let mut state = GatewayState::default();
        let mut at = noon;
        let on = next(&mut gw, at, &sn, &configs);
        assert!(pv_power(&on) > 0.0, "{sn} produces at noon: {on:?}");
        assert_eq!(
            (get(&on, "power_on"), get(&on, "running_state")),
            (1.0, 2.0)
        );

        let r = commands::answer(
            &mut gw,
            &mut state,
            &cmd("power_off", &sn),
            &Values::new(),
            None,
        );
        assert_eq!(r.code, 0, "{}", r.msg);
        at += Duration::seconds(STEP_SECS);
        let off = next(&mut gw, at, &sn, &configs);
        assert_eq!(get(&off, "power_on"), 0.0);
        assert_eq!(get(&off, "running_state"), 0.0, "standby");
        assert_eq!(pv_power(&off), 0.0);
        assert_eq!(get(&off, "inverter_power"), 0.0, "no AC output");
        assert_eq!(get(&off, "battery_power"), 0.0, "no battery flow");
        // Its load is fed from the grid alone.
        assert_eq!(get(&off, "grid_power"), get(&off, "load_power"));
        let today_pv = get(&off, "today_pv_energy");
        at += Duration::seconds(600);
        let later = next(&mut gw, at, &sn, &configs);
        assert_eq!(
            get(&later, "today_pv_energy"),
            today_pv,
            "no PV energy while off"
        );
        if gw.spec.plant.inverters == 1 {
            let (_, t) = gw.telemetry(at + Duration::seconds(STEP_SECS), 5.0, &configs);
            let b = numbers(t.devices.iter().find(|r| r.sn == bms).unwrap(), &configs);
            assert_eq!(
                get(&b, "power"),
                0.0,
                "the battery is idle with its only inverter off"
            );
        }

        let r = commands::answer(
            &mut gw,
            &mut state,
            &cmd("power_on", &sn),
            &Values::new(),
            None,
        );
        assert_eq!(r.code, 0, "{}", r.msg);
        at += Duration::seconds(STEP_SECS * 2);
        let back = next(&mut gw, at, &sn, &configs);
        assert_eq!(get(&back, "power_on"), 1.0);
        assert!(pv_power(&back) > 0.0, "{sn} produces again: {back:?}");
        assert!(get(&back, "inverter_power") != 0.0);
    }
}
