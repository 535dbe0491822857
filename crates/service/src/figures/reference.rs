//! The reference of the yields: a plant's weather stations' in-plane irradiation per day, and
//! the reference yield and performance ratio from it (or from the clear sky, computed by the
//! caller).

use std::collections::BTreeMap;

use chrono::NaiveDate;
use domain::{DeviceFamily, kpi};
use store::{
    Store,
    telemetry::{Bucket, DayRange},
};

use super::{Basis, Figure, OrientationUsed, parse_day};
use crate::{Result, curves::PlantDevices, readings::round2};

/// The reference yield and performance ratio, and what they were computed from.
pub(super) struct Reference {
    pub reference_yield: Figure,
    pub ratio: Figure,
    pub irradiation: Option<f64>,
    pub ratio_days: i64,
    pub orientation: Option<OrientationUsed>,
}

impl Reference {
    pub fn missing() -> Reference {
        Reference {
            reference_yield: Figure::missing(),
            ratio: Figure::missing(),
            irradiation: None,
            ratio_days: 0,
            orientation: None,
        }
    }
}

/// Y_r from in-plane irradiation per day (`h`), and PR over the days that also have production
/// (`pv`); with no such day, Y_r over every day of `h` and no PR.
pub(super) fn reference(
    h: &BTreeMap<NaiveDate, f64>,
    pv: &BTreeMap<NaiveDate, f64>,
    capacity: f64,
    basis: Basis,
) -> Reference {
    let both: Vec<NaiveDate> = h.keys().filter(|d| pv.contains_key(d)).copied().collect();
    let days: Vec<NaiveDate> = if both.is_empty() {
        h.keys().copied().collect()
    } else {
        both.clone()
    };
    let irradiation: f64 = days.iter().filter_map(|d| h.get(d)).sum();
    let yr = kpi::reference_yield(irradiation);
    let ratio = if both.is_empty() {
        None
    } else {
        let energy: f64 = both.iter().filter_map(|d| pv.get(d)).sum();
        let yf = kpi::specific_yield(energy, capacity);
        yf.zip(yr)
            .and_then(|(f, r)| kpi::performance_ratio(f, r))
            .map(|pr| round2(pr * 100.0))
    };
    Reference {
        reference_yield: Figure::of(yr.map(round2), basis),
        ratio: Figure::of(ratio, basis),
        irradiation: Some((irradiation * 1000.0).round() / 1000.0),
        ratio_days: both.len() as i64,
        orientation: None,
    }
}

/// The in-plane irradiation of each day the plant's weather stations recorded (kWh/m², the
/// mean over stations that recorded the day).
pub(super) async fn station_days(
    store: &Store,
    plant: PlantDevices<'_>,
    range: &DayRange,
) -> Result<BTreeMap<NaiveDate, f64>> {
    let mut per_day: BTreeMap<NaiveDate, (f64, u32)> = BTreeMap::new();
    for station in plant
        .devices
        .iter()
        .filter(|d| d.family == DeviceFamily::WeatherStation)
    {
        let points = store
            .device_energy_series(station.id, range, Bucket::Day)
            .await?;
        for p in points.iter().filter(|p| p.metric == "irradiation") {
            if let Some(day) = parse_day(&p.bucket).filter(|_| p.kwh > 0.0) {
                let e = per_day.entry(day).or_insert((0.0, 0));
                *e = (e.0 + p.kwh, e.1 + 1);
            }
        }
    }
    Ok(per_day
        .into_iter()
        .map(|(d, (sum, n))| (d, sum / f64::from(n)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        parse_day(s).unwrap_or_default()
    }

    #[test]
    fn the_ratio_counts_only_days_with_production_and_irradiation() {
        // Station: 5 and 6 kWh/m²; production on the second day and a third without
        // irradiation: PR over the second day only, 21 kWh / 4.5 kWp / 6 h = 77.78 %.
        let h = BTreeMap::from([(d("2024-06-01"), 5.0), (d("2024-06-02"), 6.0)]);
        let pv = BTreeMap::from([(d("2024-06-02"), 21.0), (d("2024-06-03"), 20.0)]);
        let r = reference(&h, &pv, 4.5, Basis::Station);
        assert_eq!(r.ratio.value, Some(77.78));
        assert_eq!(r.reference_yield.value, Some(6.0));
        assert_eq!((r.ratio_days, r.irradiation), (1, Some(6.0)));
        // Irradiation without any production: a reference yield, no ratio.
        let none = reference(&h, &BTreeMap::new(), 4.5, Basis::Station);
        assert_eq!(none.reference_yield.value, Some(11.0));
        assert_eq!(none.ratio, Figure::missing());
        // No capacity: no final yield, so no ratio.
        assert_eq!(
            reference(&h, &pv, 0.0, Basis::Station).ratio,
            Figure::missing()
        );
    }
}
