//! A report's peak power: the highest sum of the inverters' PV power over 5-minute buckets of
//! the period. A closed day's peak is kept once computed (`store::power_peaks`), so a year
//! report reads a row per day; only today and the closed days not yet kept read samples, all
//! of them in one read per inverter.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, NaiveDate};
use chrono_tz::Tz;
use domain::DeviceFamily;
use store::{Store, power_peaks::DayPeak};

use crate::{
    curves::PlantDevices,
    readings::{Reading, pv_power},
};

/// The peak reads one sample per device per this many ms.
const BUCKET_MS: i64 = 5 * 60 * 1000;

/// A local day of the period and its bounds (ms).
struct Day {
    key: String,
    from: i64,
    to: i64,
}

fn local_date(ms: i64, tz: Tz) -> NaiveDate {
    DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .with_timezone(&tz)
        .date_naive()
}

/// The local days that meet `[from, to)`, in order.
fn days(tz: Tz, from: i64, to: i64) -> Vec<Day> {
    let mut out = Vec::new();
    let mut day = local_date(from, tz);
    let last = local_date(to - 1, tz);
    while day <= last {
        let (a, b) = devices::history::day_bounds(tz, day);
        out.push(Day {
            key: day.format("%Y-%m-%d").to_string(),
            from: a,
            to: b,
        });
        let Some(next) = day.succ_opt() else { break };
        day = next;
    }
    out
}

/// Keeps the later of equal peaks, as a walk over the buckets in time order does.
fn higher(best: Option<(f64, i64)>, candidate: Option<(f64, i64)>) -> Option<(f64, i64)> {
    match (best, candidate) {
        (Some(b), Some(c)) if c.0 >= b.0 => Some(c),
        (None, c) => c,
        (b, _) => b,
    }
}

/// The highest bucket with a start in `[from, to)`.
fn peak_within(buckets: &BTreeMap<i64, f64>, from: i64, to: i64) -> Option<(f64, i64)> {
    buckets
        .range(from..to)
        .fold(None, |best, (at, w)| higher(best, Some((*w, *at))))
}

/// The PV power summed over the plant's inverters per 5-minute bucket of `[from, to)`, keyed
/// by the bucket's start.
async fn bucket_sums(
    store: &Store,
    ctx: PlantDevices<'_>,
    from: i64,
    to: i64,
) -> store::Result<BTreeMap<i64, f64>> {
    let mut buckets = BTreeMap::new();
    // The inverters' PV power makes the peak.
    for d in ctx
        .devices
        .iter()
        .filter(|d| d.family == DeviceFamily::Inverter)
    {
        for s in store.samples_thinned(d.id, from, to, BUCKET_MS).await? {
            if let Some(w) = pv_power(&Reading::from_sample(s.ts, &s.payload)) {
                let start = from + (s.ts - from) / BUCKET_MS * BUCKET_MS;
                *buckets.entry(start).or_default() += w;
            }
        }
    }
    Ok(buckets)
}

/// The peak of `[from, to)` (whole local days) and when it happened.
pub(super) async fn peak(
    store: &Store,
    ctx: PlantDevices<'_>,
    from: i64,
    to: i64,
) -> store::Result<Option<(f64, i64)>> {
    let days = days(ctx.tz, from, to);
    let (Some(first), Some(last)) = (days.first(), days.last()) else {
        return Ok(None);
    };
    let plant = ctx.plant.id;
    let kept: HashMap<String, DayPeak> = store
        .plant_power_peaks(plant, &first.key, &last.key)
        .await?
        .into_iter()
        .collect();
    let now = domain::time::now_ms();
    let closed = |d: &Day| d.to <= now && d.from >= from && d.to <= to;
    let mut best = None;
    let mut missing = Vec::new();
    for d in &days {
        match kept.get(&d.key) {
            Some(p) if closed(d) => best = higher(best, p.watts.zip(p.at)),
            _ => missing.push(d),
        }
    }
    let (Some(a), Some(b)) = (missing.first(), missing.last()) else {
        return Ok(best);
    };
    let (read_from, read_to) = (a.from.max(from), b.to.min(to));
    let buckets = bucket_sums(store, ctx, read_from, read_to).await?;
    let mut computed = Vec::new();
    for d in missing {
        let p = peak_within(&buckets, d.from.max(from), d.to.min(to));
        best = higher(best, p);
        if closed(d) {
            let peak = DayPeak {
                watts: p.map(|(w, _)| w),
                at: p.map(|(_, at)| at),
            };
            computed.push((d.key.clone(), peak));
        }
    }
    store.put_plant_power_peaks(plant, &computed).await?;
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_month_has_its_days_in_the_plants_zone() {
        let tz: Tz = "Europe/Madrid".parse().unwrap();
        let (from, _) =
            devices::history::day_bounds(tz, NaiveDate::from_ymd_opt(2024, 3, 1).unwrap());
        let (_, to) =
            devices::history::day_bounds(tz, NaiveDate::from_ymd_opt(2024, 3, 31).unwrap());
        let ds = days(tz, from, to);
        assert_eq!(ds.len(), 31);
        assert_eq!(ds[0].key, "2024-03-01");
        // The day clocks go forward lasts 23 hours.
        assert_eq!(ds[30].to - ds[30].from, 23 * 3_600_000);
    }

    #[test]
    fn of_equal_peaks_the_later_wins_as_before() {
        let buckets: BTreeMap<i64, f64> =
            [(0, 5.0), (300_000, 7.0), (600_000, 7.0), (900_000, 1.0)]
                .into_iter()
                .collect();
        assert_eq!(peak_within(&buckets, 0, 1_200_000), Some((7.0, 600_000)));
        assert_eq!(peak_within(&buckets, 0, 300_000), Some((5.0, 0)));
        assert_eq!(peak_within(&buckets, 1_200_000, 1_500_000), None);
        assert_eq!(higher(Some((7.0, 1)), Some((7.0, 2))), Some((7.0, 2)));
        assert_eq!(higher(Some((7.0, 1)), None), Some((7.0, 1)));
    }
}
