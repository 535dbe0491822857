//! A plant's figures over a span of days (docs/figures.md): specific yield, reference yield and
//! performance ratio (IEC 61724-1), availability, self-consumption and self-sufficiency with
//! the battery's grid charge taken out, and CO2 avoided, each from the rule of `domain::kpi`.
//! Read only, from day rows (the plant's, and its weather stations'), so the cost of a span
//! does not grow with its samples: at most [`MAX_DAYS`] days, whose clear-sky reference and
//! daylight are computed in 5-minute steps (about 105,000 sun positions for a year).

pub mod model;
mod reference;
pub mod sheet;

use std::collections::{BTreeMap, HashMap};

use chrono::NaiveDate;
use domain::{DeviceFamily, DomainError, clear_sky, kpi, sun};
use reference::{Reference, reference, station_days};
use store::{
    Store,
    telemetry::{Bucket, DayRange, EnergyPoint},
};

pub use model::{Basis, Figure, OrientationUsed, PlantFigures};

use crate::{Result, curves::PlantDevices, local_time::today, readings::round2};

/// Longest span of days one answer covers: a leap year.
pub const MAX_DAYS: i64 = 366;

/// What the operator sets for the figures (`PORTAL_CO2_KG_PER_KWH`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FiguresConfig {
    /// The grid's emission factor, kg CO2 per kWh.
    pub co2_kg_per_kwh: f64,
}

impl Default for FiguresConfig {
    fn default() -> Self {
        FiguresConfig {
            co2_kg_per_kwh: kpi::DEFAULT_CO2_KG_PER_KWH,
        }
    }
}

/// A span of plant-local days `from..=to`, checked: in order and at most [`MAX_DAYS`] long
/// (4 `to` otherwise).
pub fn check_span(from: NaiveDate, to: NaiveDate) -> std::result::Result<(), DomainError> {
    if to < from || (to - from).num_days() >= MAX_DAYS {
        return Err(DomainError::invalid("to"));
    }
    Ok(())
}

fn day_text(d: NaiveDate) -> String {
    d.format("%Y-%m-%d").to_string()
}

fn parse_day(s: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()
}

/// Per metric, the sum of its day rows (a metric without rows is absent: not measured).
fn totals(points: &[EnergyPoint]) -> HashMap<&str, f64> {
    let mut out: HashMap<&str, f64> = HashMap::new();
    for p in points {
        *out.entry(p.metric.as_str()).or_insert(0.0) += p.kwh;
    }
    out
}

/// The energy flows of `kpi` from metric totals (the metric names of ingest).
pub fn flows(totals: &HashMap<&str, f64>) -> kpi::Flows {
    let get = |m: &str| totals.get(m).copied();
    kpi::Flows {
        pv: get("pv"),
        load: get("load"),
        import: get("grid_import"),
        export: get("grid_export"),
        charge: get("charge"),
        discharge: get("discharge"),
        grid_charge: get("grid_charge"),
    }
}

/// Self-consumption and self-sufficiency in % (2 decimals): the one rule of the figures, the
/// reports and their workbooks (`kpi::self_consumption`, `kpi::self_sufficiency`).
pub fn shares(f: &kpi::Flows) -> (Figure, Figure) {
    let basis = if f.charge.is_some_and(|c| c > 0.0) {
        Basis::GridCharge
    } else {
        Basis::Energy
    };
    let pct = |v: Option<f64>| v.map(|s| round2(s * 100.0));
    (
        Figure::of(pct(kpi::self_consumption(f)), basis),
        Figure::of(pct(kpi::self_sufficiency(f)), basis),
    )
}

/// The plant-local bounds of `day` (ms), the end no later than `now`.
fn bounds(plant: PlantDevices<'_>, day: NaiveDate, now: i64) -> (i64, i64) {
    let (from, to) = devices::history::day_bounds(plant.tz, day);
    (from, to.min(now))
}

/// The plant's location, if the sun can be computed for it.
fn location(plant: PlantDevices<'_>) -> Option<(f64, f64)> {
    let p = plant.plant;
    sun::has_location(p.lat, p.lon).then_some((p.lat, p.lon))
}

/// What the figures of a span are computed from, read once: the plant's day rows, its
/// stations' irradiation per day and the first day availability was recorded.
struct Inputs {
    points: Vec<EnergyPoint>,
    stations: BTreeMap<NaiveDate, f64>,
    measured_since: Option<NaiveDate>,
}

async fn read_inputs(store: &Store, plant: PlantDevices<'_>, range: &DayRange) -> Result<Inputs> {
    let points = store
        .plant_energy_series(plant.plant.id, range, Bucket::Day)
        .await?;
    let stations = station_days(store, plant, range).await?;
    let measured_since = store
        .plant_metric_first_day(plant.plant.id, devices::ingest::metrics::AVAILABLE_H)
        .await?
        .and_then(|d| parse_day(&d));
    Ok(Inputs {
        points,
        stations,
        measured_since,
    })
}

/// The figures of `plant` (visible to the caller, who checked) over the plant-local days
/// `from..=to` (checked by [`check_span`]), with the operator's `config`.
pub async fn plant_figures(
    store: &Store,
    plant: PlantDevices<'_>,
    (from, to): (NaiveDate, NaiveDate),
    config: &FiguresConfig,
) -> Result<PlantFigures> {
    check_span(from, to)?;
    let range = DayRange {
        from: day_text(from),
        to: day_text(to),
    };
    let inputs = read_inputs(store, plant, &range).await?;
    Ok(compute(
        plant,
        &inputs,
        (from, to),
        config,
        domain::time::now_ms(),
    ))
}

/// Most days [`plant_figures_by_day`] answers: the plant generation export's bound.
pub const MAX_DAYS_BY_DAY: i64 = 550;

/// The figures of each plant-local day `from..=to` (at most [`MAX_DAYS_BY_DAY`]; 4 `to`
/// otherwise), each what [`plant_figures`] answers for that day alone, read in one go: what a
/// day-by-day export writes beside each day's energy.
pub async fn plant_figures_by_day(
    store: &Store,
    plant: PlantDevices<'_>,
    (from, to): (NaiveDate, NaiveDate),
    config: &FiguresConfig,
) -> Result<Vec<PlantFigures>> {
    if to < from || (to - from).num_days() >= MAX_DAYS_BY_DAY {
        return Err(DomainError::invalid("to").into());
    }
    let range = DayRange {
        from: day_text(from),
        to: day_text(to),
    };
    let inputs = read_inputs(store, plant, &range).await?;
    let now = domain::time::now_ms();
    Ok(from
        .iter_days()
        .take_while(|d| *d <= to)
        .map(|d| compute(plant, &inputs, (d, d), config, now))
        .collect())
}

/// The figures over `from..=to` from `inputs` (read for a span covering it).
fn compute(
    plant: PlantDevices<'_>,
    inputs: &Inputs,
    (from, to): (NaiveDate, NaiveDate),
    config: &FiguresConfig,
    now: i64,
) -> PlantFigures {
    let last = to.min(today(plant.tz));
    let range = DayRange {
        from: day_text(from),
        to: day_text(to),
    };
    let within = |d: &NaiveDate| (from..=to).contains(d);
    let points: Vec<EnergyPoint> = inputs
        .points
        .iter()
        .filter(|p| parse_day(&p.bucket).is_some_and(|d| within(&d)))
        .cloned()
        .collect();
    let totals = totals(&points);
    let capacity = plant.plant.total_power;
    let pv = totals.get("pv").copied();
    let pv_days: BTreeMap<NaiveDate, f64> = points
        .iter()
        .filter(|p| p.metric == "pv")
        .filter_map(|p| Some((parse_day(&p.bucket)?, p.kwh)))
        .collect();
    let counted: Vec<NaiveDate> = from.iter_days().take_while(|d| *d <= last).collect();

    // The reference: the station's irradiation, else a clear sky over the plant.
    let stations: BTreeMap<NaiveDate, f64> = inputs
        .stations
        .iter()
        .filter(|(d, _)| within(d))
        .map(|(d, h)| (*d, *h))
        .collect();
    let place = location(plant);
    let reference = if !stations.is_empty() {
        reference(&stations, &pv_days, capacity, Basis::Station)
    } else if let Some((lat, lon)) = place {
        let o = clear_sky::orientation(lat, plant.plant.tilt, plant.plant.azimuth);
        let days: Vec<NaiveDate> = if pv_days.is_empty() {
            counted.clone()
        } else {
            counted
                .iter()
                .filter(|d| pv_days.contains_key(d))
                .copied()
                .collect()
        };
        let h: BTreeMap<NaiveDate, f64> = days
            .into_iter()
            .map(|d| {
                let (a, b) = bounds(plant, d, now);
                (d, clear_sky::poa_irradiation(lat, lon, o, a, b))
            })
            .collect();
        let basis = if o.assumed {
            Basis::ClearSkyAssumed
        } else {
            Basis::ClearSky
        };
        Reference {
            orientation: Some(OrientationUsed {
                tilt: o.tilt,
                azimuth: o.azimuth,
                assumed: o.assumed,
            }),
            ..reference(&h, &pv_days, capacity, basis)
        }
    } else {
        Reference::missing()
    };

    // Availability: the inverters' daylight hours since the plant's were first recorded.
    let inverters = plant
        .devices
        .iter()
        .filter(|d| d.family == DeviceFamily::Inverter)
        .count();
    let (daylight_hours, available_hours) = match (place, inputs.measured_since) {
        (Some((lat, lon)), Some(since)) if inverters > 0 => {
            let start = from.max(since);
            let daylight_ms: i64 = counted
                .iter()
                .filter(|d| **d >= start)
                .map(|d| {
                    let (a, b) = bounds(plant, *d, now);
                    sun::daylight_ms(lat, lon, a, b)
                })
                .sum();
            let available: f64 = totals
                .get(devices::ingest::metrics::AVAILABLE_H)
                .copied()
                .unwrap_or(0.0);
            (
                Some(daylight_ms as f64 / 3_600_000.0 * inverters as f64),
                Some(available),
            )
        }
        _ => (None, None),
    };
    let availability = daylight_hours
        .zip(available_hours)
        .and_then(|(d, a)| kpi::availability(a, d))
        .map(|a| round2(a * 100.0));

    let flows = flows(&totals);
    let (self_consumption, self_sufficiency) = shares(&flows);
    PlantFigures {
        from: range.from,
        to: range.to,
        capacity,
        pv_energy: pv.map(round2),
        specific_yield: Figure::of(
            pv.and_then(|e| kpi::specific_yield(e, capacity))
                .map(round2),
            Basis::PvEnergy,
        ),
        reference_yield: reference.reference_yield,
        performance_ratio: reference.ratio,
        availability: Figure::of(availability, Basis::Reports),
        self_consumption,
        self_sufficiency,
        co2_avoided: Figure::of(
            kpi::co2_avoided_kg(pv, config.co2_kg_per_kwh).map(round2),
            Basis::PvEnergy,
        ),
        co2_factor: config.co2_kg_per_kwh,
        irradiation: reference.irradiation,
        ratio_days: reference.ratio_days,
        days: counted.len() as i64,
        orientation: reference.orientation,
        grid_charge: flows.grid_charge.map(round2),
        daylight_hours: daylight_hours.map(round2),
        available_hours: available_hours.map(round2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        parse_day(s).unwrap_or_default()
    }

    #[test]
    fn a_span_is_in_order_and_at_most_a_leap_year() {
        assert!(check_span(d("2024-01-01"), d("2024-12-31")).is_ok());
        assert!(check_span(d("2024-03-01"), d("2024-03-01")).is_ok());
        let long = check_span(d("2024-01-01"), d("2025-01-01"));
        assert_eq!(long.unwrap_err().detail.as_deref(), Some("to"));
        assert!(check_span(d("2024-03-02"), d("2024-03-01")).is_err());
    }

    #[test]
    fn shares_use_the_battery_rule_and_say_so() {
        let f = kpi::Flows {
            pv: Some(20.0),
            load: Some(18.0),
            import: Some(9.0),
            export: Some(10.0),
            charge: Some(11.0),
            discharge: Some(10.0),
            grid_charge: Some(6.0),
        };
        let (sc, ss) = shares(&f);
        assert_eq!((sc.value, sc.basis), (Some(50.0), Basis::GridCharge));
        assert_eq!((ss.value, ss.basis), (Some(53.03), Basis::GridCharge));
        let no_battery = kpi::Flows {
            charge: None,
            discharge: None,
            grid_charge: None,
            ..f
        };
        assert_eq!(shares(&no_battery).1.basis, Basis::Energy);
        let (sc, ss) = shares(&kpi::Flows::default());
        assert_eq!((sc, ss), (Figure::missing(), Figure::missing()));
    }

    #[test]
    fn metric_totals_leave_out_what_was_not_measured() {
        let p = |day: &str, metric: &str, kwh: f64| EnergyPoint {
            bucket: day.into(),
            metric: metric.into(),
            kwh,
        };
        let points = [
            p("2024-06-01", "pv", 2.0),
            p("2024-06-02", "pv", 3.0),
            p("2024-06-02", "grid_export", 1.0),
        ];
        let t = totals(&points);
        let f = flows(&t);
        assert_eq!((f.pv, f.export, f.load), (Some(5.0), Some(1.0), None));
    }
}
