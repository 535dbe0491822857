//! Day metrics that no device counts, integrated by ingest over the interval between a device's
//! consecutive reports (docs/figures.md):
//!
//! - `grid_charge` (kWh): the power a battery takes from the grid,
//!   `max(0, charge - max(0, pv - load))` (`domain::kpi::grid_charge_w`), from an inverter's
//!   `battery_power`, PV and load powers;
//! - `available_h` (h): the daylight part of the interval (`domain::sun::daylight_ms` at the
//!   plant's place), less half of it for each of its two reports that showed a fault-severity
//!   status word (the fault state integrated like the powers);
//! - `irradiation` (kWh/m²): a weather station's `irradiance`, for a station that does not count
//!   `today_irradiation` itself.
//!
//! Powers are integrated with the trapezoid rule. An interval counts only when it is at most
//! [`MAX_INTERVAL_MS`] long (a longer silence is a gap: no energy, no availability) and ends
//! after the previous report (a report sent again, or an older one arriving late, adds
//! nothing), so each interval is written once; each part lands on the plant-local day of the
//! interval's end, as a [`CounterKind::Sum`] row that the day adds up.

use std::collections::HashMap;

use domain::{ids::DeviceId, kpi, sun};
use store::telemetry::{CounterKind, EnergyWrite};

use super::{
    metrics,
    prepare::{Placement, local_day},
    values::Watched,
};
use crate::{
    events::{self, EventSeverity},
    protocol::DeviceFamily,
};

/// Longest interval between two reports that is integrated: an hour and five minutes (gateways
/// report every few minutes; the demo's history hourly).
pub const MAX_INTERVAL_MS: i64 = 65 * 60 * 1000;

const PV_KEYS: [&str; 8] = [
    "pv1_power",
    "pv2_power",
    "pv3_power",
    "pv4_power",
    "pv5_power",
    "pv6_power",
    "pv7_power",
    "pv8_power",
];
const INVERTER_KEYS: [&str; 13] = [
    "pv_power",
    "pv1_power",
    "pv2_power",
    "pv3_power",
    "pv4_power",
    "pv5_power",
    "pv6_power",
    "pv7_power",
    "pv8_power",
    "load_power",
    "battery_power",
    "grid_ct_power",
    "grid_power",
];
const GRID_KEYS: [&str; 2] = ["grid_ct_power", "grid_power"];

/// The keys a family's readings are watched for here (beside the energy counters and status
/// words of `values`).
pub fn keys(family: DeviceFamily) -> &'static [&'static str] {
    match family {
        DeviceFamily::Inverter => &INVERTER_KEYS,
        DeviceFamily::WeatherStation => &["irradiance"],
        _ => &[],
    }
}

/// What one report says about the interval it ends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub ts: i64,
    pub family: DeviceFamily,
    /// W taken from the grid into the battery; `None` without a battery reporting.
    pub grid_charge_w: Option<f64>,
    /// W/m² in the plane of the array; `None` unless the station has no daily counter.
    pub irradiance: Option<f64>,
    /// An inverter with a fault-severity event of its status words on.
    pub faulted: bool,
}

fn pv_w(w: &Watched) -> Option<f64> {
    w.get("pv_power").or_else(|| {
        PV_KEYS
            .iter()
            .filter_map(|k| w.get(k))
            .fold(None, |acc, v| Some(acc.unwrap_or(0.0) + v))
    })
}

/// The load of an inverter: as reported, else what the balance of its node leaves
/// (PV + battery + grid, battery and grid positive into the node).
fn load_w(w: &Watched, pv: Option<f64>, battery: f64) -> Option<f64> {
    w.get("load_power").or_else(|| {
        let grid = GRID_KEYS.iter().find_map(|k| w.get(k))?;
        Some((pv.unwrap_or(0.0) + battery + grid).max(0.0))
    })
}

/// What a reading of `family` at `ts` contributes to the intervals, or `None` for a family
/// nothing is integrated for.
pub fn point(family: DeviceFamily, ts: i64, w: &Watched) -> Option<Point> {
    match family {
        DeviceFamily::Inverter => {
            let pv = pv_w(w);
            let grid_charge_w = w.get("battery_power").and_then(|battery| {
                let load = load_w(w, pv, battery)?;
                Some(kpi::grid_charge_w(pv.unwrap_or(0.0), load, battery))
            });
            let faulted = events::word_events(family, |k| w.get(k))
                .into_iter()
                .any(|(def, on)| on && def.severity == EventSeverity::Fault);
            Some(Point {
                ts,
                family,
                grid_charge_w,
                irradiance: None,
                faulted,
            })
        }
        DeviceFamily::WeatherStation => {
            let irradiance = if w.contains("today_irradiation") {
                None
            } else {
                w.get("irradiance").map(|v| v.max(0.0))
            };
            Some(Point {
                ts,
                family,
                grid_charge_w: None,
                irradiance,
                faulted: false,
            })
        }
        _ => None,
    }
}

/// The day rows of the interval from `prev` to `cur` of the device at `at` (none for an
/// interval that does not count, see the module).
pub fn rows(prev: &Point, cur: &Point, at: Placement) -> Vec<EnergyWrite> {
    let dt = cur.ts - prev.ts;
    if dt <= 0 || dt > MAX_INTERVAL_MS {
        return Vec::new();
    }
    let hours = dt as f64 / 3_600_000.0;
    let day = local_day(cur.ts, at.tz);
    let rank = metrics::rank(cur.family);
    let row = |metric: &str, value: f64| EnergyWrite {
        device_id: at.device_id,
        plant_id: at.plant_id,
        day: day.clone(),
        metric: metric.to_string(),
        value,
        kind: CounterKind::Sum,
        rank,
    };
    let trapezoid = |a: Option<f64>, b: Option<f64>| Some((a? + b?) / 2.0 * hours / 1000.0);
    let mut out = Vec::new();
    if let Some(kwh) = trapezoid(prev.grid_charge_w, cur.grid_charge_w) {
        out.push(row(metrics::GRID_CHARGE, kwh));
    }
    if let Some(kwh_m2) = trapezoid(prev.irradiance, cur.irradiance) {
        out.push(row(metrics::IRRADIATION, kwh_m2));
    }
    if cur.family == DeviceFamily::Inverter
        && let Some((lat, lon)) = at.location
    {
        let daylight = sun::daylight_ms(lat, lon, prev.ts, cur.ts) as f64 / 3_600_000.0;
        if daylight > 0.0 {
            let up = |p: &Point| if p.faulted { 0.0 } else { 1.0 };
            let share = (up(prev) + up(cur)) / 2.0;
            out.push(row(metrics::AVAILABLE_H, daylight * share));
        }
    }
    out
}

/// Each device's newest report as far as the intervals go, kept between batches (bounded: at
/// most `capacity` devices, then it starts again and reads from the store on a miss).
#[derive(Debug)]
pub struct Previous {
    points: HashMap<DeviceId, Point>,
    capacity: usize,
}

impl Previous {
    pub fn new(capacity: usize) -> Previous {
        Previous {
            points: HashMap::new(),
            capacity: capacity.max(1),
        }
    }

    pub fn get(&self, device: DeviceId) -> Option<Point> {
        self.points.get(&device).copied()
    }

    pub fn contains(&self, device: DeviceId) -> bool {
        self.points.contains_key(&device)
    }

    /// Keeps `point` unless a later report of the device is kept already.
    pub fn put(&mut self, device: DeviceId, point: Point) {
        if self.get(device).is_some_and(|p| p.ts >= point.ts) {
            return;
        }
        if self.points.len() >= self.capacity && !self.points.contains_key(&device) {
            self.points.clear();
        }
        self.points.insert(device, point);
    }

    /// Forgets everything: another process may have ingested since (replicas), or a batch
    /// whose points were kept was not written.
    pub fn clear(&mut self) {
        self.points.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::ids::PlantId;

    fn watched(pairs: &[(&str, f64)]) -> Watched {
        let mut w = Watched::default();
        for (k, v) in pairs {
            w.derive(k, *v);
        }
        w
    }

    /// Madrid, 2024-06-21 10:00 UTC (midday sun).
    const NOON: i64 = 1_718_964_000_000;
    /// The same day, 00:00 UTC (night).
    const NIGHT: i64 = 1_718_928_000_000;

    fn madrid() -> Placement {
        Placement {
            device_id: DeviceId(5),
            plant_id: Some(PlantId(2)),
            tz: Some(chrono_tz::Europe::Madrid),
            location: Some((40.42, -3.70)),
        }
    }

    fn value(rows: &[EnergyWrite], metric: &str) -> Option<f64> {
        rows.iter().find(|r| r.metric == metric).map(|r| r.value)
    }

    #[test]
    fn a_battery_charging_from_the_grid_at_night_counts_its_whole_charge() {
        // 02:00 local: no PV, 400 W load, the battery takes 2 kW (battery_power -2000), then
        // 3 kW five minutes later: (2 + 3) / 2 kW × 1/12 h = 0.2083 kWh.
        let a = point(
            DeviceFamily::Inverter,
            NIGHT,
            &watched(&[
                ("pv1_power", 0.0),
                ("load_power", 400.0),
                ("battery_power", -2000.0),
            ]),
        );
        let b = point(
            DeviceFamily::Inverter,
            NIGHT + 300_000,
            &watched(&[
                ("pv1_power", 0.0),
                ("load_power", 400.0),
                ("battery_power", -3000.0),
            ]),
        );
        let (Some(a), Some(b)) = (a, b) else {
            panic!("inverter points")
        };
        let rows = rows(&a, &b, madrid());
        let kwh = value(&rows, metrics::GRID_CHARGE).unwrap_or(-1.0);
        assert!((kwh - 5.0 / 24.0).abs() < 1e-9, "{kwh}");
        assert!(
            rows.iter()
                .all(|r| r.kind == CounterKind::Sum && r.day == "2024-06-21")
        );
        // At night there is no daylight to be available in.
        assert_eq!(value(&rows, metrics::AVAILABLE_H), None);
    }

    #[test]
    fn charging_from_the_pv_surplus_is_no_grid_charge() {
        // Noon: 5 kW PV, 1 kW load, 3 kW into the battery; then 4 kW PV, 1 kW load, 3.5 kW:
        // (0 + 0.5) / 2 kW × 1/12 h.
        let p = |ts, pv, bat| {
            point(
                DeviceFamily::Inverter,
                ts,
                &watched(&[
                    ("pv1_power", pv),
                    ("load_power", 1000.0),
                    ("battery_power", bat),
                ]),
            )
        };
        let (Some(a), Some(b)) = (p(NOON, 5000.0, -3000.0), p(NOON + 300_000, 4000.0, -3500.0))
        else {
            panic!("points")
        };
        let kwh = value(&rows(&a, &b, madrid()), metrics::GRID_CHARGE).unwrap_or(-1.0);
        assert!((kwh - 0.25 / 12.0).abs() < 1e-9, "{kwh}");
    }

    #[test]
    fn the_load_comes_from_the_balance_when_the_inverter_does_not_report_it() {
        // PV 1 kW, battery charging 3 kW, importing 2.5 kW: load = 1 - 3 + 2.5 = 0.5 kW, the
        // surplus 0.5 kW, the grid charge 2.5 kW.
        let w = watched(&[
            ("pv_power", 1000.0),
            ("battery_power", -3000.0),
            ("grid_ct_power", 2500.0),
        ]);
        let p = point(DeviceFamily::Inverter, NOON, &w).map(|p| p.grid_charge_w);
        assert_eq!(p, Some(Some(2500.0)));
        // Without a battery, or without load and grid, nothing is known.
        let none = point(DeviceFamily::Inverter, NOON, &watched(&[("pv_power", 1.0)]));
        assert_eq!(none.map(|p| p.grid_charge_w), Some(None));
        let no_load = watched(&[("pv_power", 1.0), ("battery_power", -5.0)]);
        assert_eq!(
            point(DeviceFamily::Inverter, NOON, &no_load).map(|p| p.grid_charge_w),
            Some(None)
        );
    }

    #[test]
    fn an_inverter_is_available_in_daylight_unless_a_fault_word_is_set() {
        let ok = point(
            DeviceFamily::Inverter,
            NOON,
            &watched(&[("pv_power", 900.0)]),
        );
        let later = point(
            DeviceFamily::Inverter,
            NOON + 600_000,
            &watched(&[("pv_power", 950.0)]),
        );
        let (Some(ok), Some(later)) = (ok, later) else {
            panic!("points")
        };
        let r = rows(&ok, &later, madrid());
        assert_eq!(
            value(&r, metrics::AVAILABLE_H),
            Some(600_000.0 / 3_600_000.0)
        );
        // A fault word bit (a fault-severity event of the catalogue) at one end takes half the
        // interval, at both ends all of it.
        let fault = events::of_family(DeviceFamily::Inverter)
            .find(|d| d.severity == EventSeverity::Fault && d.word.is_some())
            .and_then(|d| d.word)
            .map(|w| (w.key, f64::from(1u32 << w.bit)));
        let Some((key, bits)) = fault else {
            panic!("a fault word in the catalogue")
        };
        let faulted = point(
            DeviceFamily::Inverter,
            NOON + 600_000,
            &watched(&[(key, bits)]),
        );
        let Some(faulted) = faulted else {
            panic!("point")
        };
        assert!(faulted.faulted);
        let half = 300_000.0 / 3_600_000.0;
        assert_eq!(
            value(&rows(&ok, &faulted, madrid()), metrics::AVAILABLE_H),
            Some(half)
        );
        let still = Point {
            ts: faulted.ts + 600_000,
            ..faulted
        };
        assert_eq!(
            value(&rows(&faulted, &still, madrid()), metrics::AVAILABLE_H),
            Some(0.0)
        );
        // Without a location there is no daylight to count.
        let nowhere = Placement {
            location: None,
            ..madrid()
        };
        assert_eq!(
            value(&rows(&ok, &later, nowhere), metrics::AVAILABLE_H),
            None
        );
    }

    #[test]
    fn a_gap_a_repeat_or_a_late_report_adds_nothing() {
        let p = |ts| {
            point(
                DeviceFamily::Inverter,
                ts,
                &watched(&[
                    ("pv_power", 0.0),
                    ("load_power", 0.0),
                    ("battery_power", -1000.0),
                ]),
            )
        };
        let (Some(a), Some(b), Some(far)) = (p(NIGHT), p(NIGHT), p(NIGHT + MAX_INTERVAL_MS + 1))
        else {
            panic!("points")
        };
        assert!(rows(&a, &b, madrid()).is_empty(), "the same report again");
        assert!(rows(&far, &a, madrid()).is_empty(), "an older report");
        assert!(rows(&a, &far, madrid()).is_empty(), "a gap");
    }

    #[test]
    fn a_station_without_a_daily_counter_integrates_its_irradiance() {
        let s = |ts, g| {
            point(
                DeviceFamily::WeatherStation,
                ts,
                &watched(&[("irradiance", g)]),
            )
        };
        let (Some(a), Some(b)) = (s(NOON, 800.0), s(NOON + 3_600_000, 900.0)) else {
            panic!("points")
        };
        let r = rows(&a, &b, madrid());
        assert_eq!(value(&r, metrics::IRRADIATION), Some(0.85));
        assert_eq!(r[0].rank, metrics::rank(DeviceFamily::WeatherStation));
        // One that counts it is read from its counter instead.
        let counted = watched(&[("irradiance", 800.0), ("today_irradiation", 4.2)]);
        let c = point(DeviceFamily::WeatherStation, NOON, &counted);
        assert_eq!(c.map(|p| p.irradiance), Some(None));
        assert_eq!(point(DeviceFamily::Meter, NOON, &counted), None);
    }

    #[test]
    fn previous_points_keep_the_newest_and_stay_bounded() {
        let p = |ts| Point {
            ts,
            family: DeviceFamily::Inverter,
            grid_charge_w: None,
            irradiance: None,
            faulted: false,
        };
        let mut prev = Previous::new(2);
        prev.put(DeviceId(1), p(10));
        prev.put(DeviceId(1), p(5));
        assert_eq!(prev.get(DeviceId(1)).map(|p| p.ts), Some(10));
        prev.put(DeviceId(2), p(1));
        prev.put(DeviceId(3), p(1));
        assert!(prev.contains(DeviceId(3)) && !prev.contains(DeviceId(1)));
        prev.clear();
        assert!(!prev.contains(DeviceId(3)));
    }
}
