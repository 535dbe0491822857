//! Energy metrics and where each comes from: the one table that maps the keys of the shipped
//! protocol configs (and of gateways that decode values themselves with the same names) to the
//! portal's day-energy metrics.
//!
//! Inverters report daily counters (`today_*`, reset at the device's midnight) and lifetime
//! counters (`total_*`); a daily counter is preferred. Meters and battery stacks only report
//! lifetime counters. Inside a plant a metric is summed over the best-ranked family that reports
//! it (inverter, then meter, then battery), so a hybrid inverter and its battery's BMS do not
//! both count the same charge.
//!
//! Three day metrics of the plant figures (docs/figures.md) sit beside the energy: a weather
//! station's in-plane `irradiation` (kWh/m², its daily counter here, or integrated from its
//! irradiance by [`super::intervals`]), and two that ingest derives from consecutive reports
//! ([`DERIVED`]): the battery's `grid_charge` and the inverters' `available_h`.

use store::telemetry::CounterKind;

use crate::protocol::DeviceFamily;

pub const PV: &str = "pv";
pub const LOAD: &str = "load";
pub const GRID_IMPORT: &str = "grid_import";
pub const GRID_EXPORT: &str = "grid_export";
pub const CHARGE: &str = "charge";
pub const DISCHARGE: &str = "discharge";
pub const GENERATOR: &str = "generator";
/// In-plane irradiation of a weather station, kWh/m².
pub const IRRADIATION: &str = "irradiation";
/// Energy the battery took from the grid, kWh: the charge the PV surplus did not cover
/// (`domain::kpi::grid_charge_w`), integrated over each report interval.
pub const GRID_CHARGE: &str = "grid_charge";
/// Hours of daylight an inverter reported in without a fault (the availability's numerator).
pub const AVAILABLE_H: &str = "available_h";

/// The day metrics ingest derives from a device's consecutive reports rather than reads from
/// a counter ([`super::intervals`]).
pub const DERIVED: [&str; 2] = [GRID_CHARGE, AVAILABLE_H];

/// Every energy metric, in display order.
pub const ALL: [&str; 7] = [
    PV,
    LOAD,
    GRID_IMPORT,
    GRID_EXPORT,
    CHARGE,
    DISCHARGE,
    GENERATOR,
];

/// One value key that feeds a metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Source {
    pub metric: &'static str,
    pub key: &'static str,
    pub kind: CounterKind,
}

const fn daily(metric: &'static str, key: &'static str) -> Source {
    Source {
        metric,
        key,
        kind: CounterKind::Daily,
    }
}

const fn lifetime(metric: &'static str, key: &'static str) -> Source {
    Source {
        metric,
        key,
        kind: CounterKind::Lifetime,
    }
}

/// Deye/Sunsynk hybrids (`deye-hybrid-1ph`, `deye-hybrid-3ph-lv`, `deye-hybrid-3ph-hv`).
/// Per metric, earlier sources win.
const INVERTER: &[Source] = &[
    daily(PV, "today_pv_energy"),
    lifetime(PV, "total_pv_energy"),
    daily(LOAD, "today_load_energy"),
    lifetime(LOAD, "total_load_energy"),
    daily(GRID_IMPORT, "today_grid_import"),
    lifetime(GRID_IMPORT, "total_grid_import"),
    daily(GRID_EXPORT, "today_grid_export"),
    lifetime(GRID_EXPORT, "total_grid_export"),
    daily(CHARGE, "today_battery_charge"),
    lifetime(CHARGE, "total_battery_charge"),
    daily(DISCHARGE, "today_battery_discharge"),
    lifetime(DISCHARGE, "total_battery_discharge"),
    daily(GENERATOR, "today_gen_energy"),
    lifetime(GENERATOR, "total_gen_energy"),
];

/// `meter-3ph`: a grid connection meter.
const METER: &[Source] = &[
    lifetime(GRID_IMPORT, "import_energy"),
    lifetime(GRID_EXPORT, "export_energy"),
];

/// `bms-lv-stack`: the master battery of a stack.
const BATTERY: &[Source] = &[
    lifetime(CHARGE, "total_charge_energy"),
    lifetime(DISCHARGE, "total_discharge_energy"),
];

/// `weather-station`: the day's in-plane irradiation, when the station counts it.
const WEATHER_STATION: &[Source] = &[daily(IRRADIATION, "today_irradiation")];

/// `combiner-dc16`: the DC energy through the box. It ranks below every other family, so a
/// plant's PV is its inverters' whenever they report it, never both.
const COMBINER: &[Source] = &[daily(PV, "today_energy"), lifetime(PV, "total_energy")];

/// The keys that feed energy metrics for a device family, best first per metric.
pub fn sources(family: DeviceFamily) -> &'static [Source] {
    match family {
        DeviceFamily::Inverter => INVERTER,
        DeviceFamily::Meter => METER,
        DeviceFamily::Battery => BATTERY,
        DeviceFamily::Combiner => COMBINER,
        DeviceFamily::WeatherStation => WEATHER_STATION,
    }
}

/// Source priority inside a plant: lower wins.
pub fn rank(family: DeviceFamily) -> i64 {
    match family {
        DeviceFamily::Inverter => 0,
        DeviceFamily::Meter => 1,
        DeviceFamily::Battery => 2,
        DeviceFamily::Combiner => 3,
        DeviceFamily::WeatherStation => 4,
    }
}

/// The energy readings in one report: per metric, the first source present with a finite,
/// non-negative value. `value` looks a key up in the report.
pub fn readings(
    family: DeviceFamily,
    value: impl Fn(&str) -> Option<f64>,
) -> Vec<(&'static str, f64, CounterKind)> {
    let mut out: Vec<(&'static str, f64, CounterKind)> = Vec::new();
    for s in sources(family) {
        if out.iter().any(|(m, _, _)| *m == s.metric) {
            continue;
        }
        if let Some(v) = value(s.key).filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e12) {
            out.push((s.metric, v, s.kind));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::shipped;

    /// A hybrid's map (battery, load and grid ports); the others are grid-tied or micro.
    fn is_hybrid(config: &crate::protocol::ProtocolConfig) -> bool {
        !matches!(config.inverter_type, Some(1 | 3))
    }

    #[test]
    fn every_mapped_key_exists_in_the_shipped_configs_of_its_family() {
        let configs = shipped().unwrap_or_default();
        assert!(!configs.is_empty());
        for config in &configs {
            for s in sources(config.family) {
                // Generator counters exist on the three-phase models only.
                if s.metric == GENERATOR && config.code == "deye-hybrid-1ph" {
                    continue;
                }
                // Grid-tied maps count PV; a meter port's counters where the map has one.
                if config.family == DeviceFamily::Inverter
                    && !is_hybrid(config)
                    && (s.metric != PV || config.point(s.key).is_none())
                {
                    if let Some(p) = config.point(s.key) {
                        assert_eq!(p.unit, "kWh", "{} {}", config.code, s.key);
                    }
                    continue;
                }
                assert!(
                    config.point(s.key).is_some(),
                    "{} has no key {} for {}",
                    config.code,
                    s.key,
                    s.metric
                );
                let unit = if s.metric == IRRADIATION {
                    "kWh/m²"
                } else {
                    "kWh"
                };
                assert_eq!(config.point(s.key).map(|p| p.unit.as_str()), Some(unit));
                assert!(ALL.contains(&s.metric) || s.metric == IRRADIATION);
            }
        }
    }

    #[test]
    fn every_inverter_config_feeds_pv_load_grid_and_battery_metrics() {
        for config in shipped().unwrap_or_default() {
            if config.family != DeviceFamily::Inverter {
                continue;
            }
            let found = readings(config.family, |k| config.point(k).map(|_| 1.0));
            let metrics: Vec<&str> = found.iter().map(|(m, _, _)| *m).collect();
            let wanted: &[&str] = if is_hybrid(&config) {
                &[PV, LOAD, GRID_IMPORT, GRID_EXPORT, CHARGE, DISCHARGE]
            } else {
                // String and micro inverters have no battery; their PV is what they count.
                &[PV]
            };
            for &m in wanted {
                assert!(metrics.contains(&m), "{} lacks {m}", config.code);
            }
            assert!(
                found
                    .iter()
                    .all(|(m, _, k)| *k == CounterKind::Daily || *m == GENERATOR)
            );
        }
    }

    #[test]
    fn a_daily_counter_wins_over_a_lifetime_counter_and_bad_values_are_skipped() {
        let r = readings(DeviceFamily::Inverter, |k| match k {
            "today_pv_energy" => Some(12.5),
            "total_pv_energy" => Some(9000.0),
            "today_load_energy" => Some(f64::NAN),
            "total_load_energy" => Some(-1.0),
            "total_grid_import" => Some(50.0),
            _ => None,
        });
        assert_eq!(
            r,
            vec![
                (PV, 12.5, CounterKind::Daily),
                (GRID_IMPORT, 50.0, CounterKind::Lifetime)
            ]
        );
    }

    #[test]
    fn meters_and_batteries_rank_below_inverters_and_weather_feeds_only_irradiation() {
        assert!(rank(DeviceFamily::Inverter) < rank(DeviceFamily::Meter));
        assert!(rank(DeviceFamily::Meter) < rank(DeviceFamily::Battery));
        assert!(rank(DeviceFamily::Battery) < rank(DeviceFamily::Combiner));
        assert!(
            sources(DeviceFamily::WeatherStation)
                .iter()
                .all(|s| s.metric == IRRADIATION)
        );
        assert_eq!(
            readings(DeviceFamily::Meter, |k| (k == "import_energy")
                .then_some(3.0)),
            vec![(GRID_IMPORT, 3.0, CounterKind::Lifetime)]
        );
    }
}
