//! A battery's health days (docs/battery-health.md): each battery's samples of a plant-local
//! day turned into one row of `battery_health_days` (the BMS's SOH and cycle count, the cell
//! spread, the energy moved, equivalent full cycles, and the capacity measured over a full
//! swing that ended that day, `domain::battery_health`). The battery health job runs
//! [`refresh_all`]; the rows are derived data, so computing a day again replaces it. A day the
//! job has passed is computed again when late reports for it arrive: the history compaction,
//! which merges every late report into its day, marks the day ([`refresh_stale`]).

mod points;

use std::collections::{BTreeSet, HashMap};

use chrono::{DateTime, Duration, NaiveDate};
use chrono_tz::Tz;
use domain::{
    battery_health::{self as health, LOOKBACK_MS, MeasuredCycle},
    ids::DeviceId,
};
use store::{
    Store,
    battery_health::HealthDayRow,
    telemetry::{DayRange, EnergyTotal},
};

use crate::{Result, local_time, readings::DAY_BUCKET_MS};
pub use points::point_of;

/// A battery with no health yet is filled from its oldest sample, but at most this many days
/// back (older samples are rarely kept; the job must not spend an hour on one battery).
pub const MAX_BACKFILL_DAYS: i64 = 400;
/// Marked days (late reports) read per pass; more wait for the next pass.
pub const STALE_BATCH: i64 = 500;

/// What one pass did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Refreshed {
    pub batteries: usize,
    /// Days written (a day without samples writes nothing).
    pub days: usize,
}

/// Computes the health days of every battery that are not stored yet, and its newest stored
/// day again (it may have been partial), up to today in its plant's zone; then the days
/// whose samples changed since they were computed ([`refresh_stale`]).
pub async fn refresh_all(store: &Store, now: i64) -> Result<Refreshed> {
    let mut done = Refreshed::default();
    let mut zones = HashMap::new();
    for b in store.battery_zones().await? {
        let tz = local_time::zone(b.timezone.as_deref().unwrap_or("UTC"));
        done.days += refresh_device(store, b.device_id, tz, now).await?;
        done.batteries += 1;
        zones.insert(b.device_id, tz);
    }
    done.days += refresh_stale(store, &zones, now).await?;
    Ok(done)
}

/// Computes again the days the history compaction marked (late reports merged into a day
/// the job had passed, `store::history`), each with the day after it (whose swings look back
/// into it), at most [`STALE_BATCH`] marks a pass: answers the days written. A mark of a
/// device that is no battery any more, or of a day older than [`MAX_BACKFILL_DAYS`], is
/// dropped.
pub async fn refresh_stale(
    store: &Store,
    zones: &HashMap<DeviceId, Tz>,
    now: i64,
) -> Result<usize> {
    let marks = store.battery_health_stale(STALE_BATCH).await?;
    let mut days = BTreeSet::new();
    for m in &marks {
        let (Some(tz), Ok(day)) = (
            zones.get(&m.device_id),
            NaiveDate::parse_from_str(&m.day, "%Y-%m-%d"),
        ) else {
            continue;
        };
        let today = day_of(now, *tz);
        if day < today - Duration::days(MAX_BACKFILL_DAYS) || day > today {
            continue;
        }
        days.insert((m.device_id, day));
        if day < today {
            days.insert((m.device_id, day + Duration::days(1)));
        }
    }
    let mut written = 0;
    for (device, day) in days {
        let Some(tz) = zones.get(&device) else {
            continue;
        };
        if let Some(row) = compute_day(store, device, *tz, day, now).await? {
            store.put_battery_health_day(&row).await?;
            written += 1;
        }
    }
    let ids: Vec<i64> = marks.iter().map(|m| m.id).collect();
    store.clear_battery_health_stale(&ids).await?;
    Ok(written)
}

/// [`refresh_all`] for one battery: answers the days written.
pub async fn refresh_device(store: &Store, device: DeviceId, tz: Tz, now: i64) -> Result<usize> {
    let today = day_of(now, tz);
    let first = match store.battery_health_last_day(device).await? {
        Some(d) => NaiveDate::parse_from_str(&d, "%Y-%m-%d").ok(),
        None => store.oldest_sample(device).await?.map(|ts| day_of(ts, tz)),
    };
    let Some(first) = first else { return Ok(0) };
    let mut day = first.max(today - Duration::days(MAX_BACKFILL_DAYS));
    let mut written = 0;
    while day <= today {
        if let Some(row) = compute_day(store, device, tz, day, now).await? {
            store.put_battery_health_day(&row).await?;
            written += 1;
        }
        day += Duration::days(1);
    }
    Ok(written)
}

/// The plant-local day holding `ms`.
fn day_of(ms: i64, tz: Tz) -> NaiveDate {
    DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .with_timezone(&tz)
        .date_naive()
}

fn kwh(rows: &[EnergyTotal], metric: &str) -> Option<f64> {
    rows.iter().find(|e| e.metric == metric).map(|e| e.kwh)
}

/// The widest swing that ended within `[from, to)`.
fn widest(cycles: Vec<MeasuredCycle>, from: i64, to: i64) -> Option<MeasuredCycle> {
    cycles
        .into_iter()
        .filter(|c| (from..to).contains(&c.end_ts))
        .max_by(|a, b| {
            let swing = |c: &MeasuredCycle| (c.soc_from - c.soc_to).abs();
            swing(a).total_cmp(&swing(b)).then(a.end_ts.cmp(&b.end_ts))
        })
}

/// One day of one battery from its samples (at most one a minute) and its energy rollups;
/// `None` when it reported nothing that day.
pub async fn compute_day(
    store: &Store,
    device: DeviceId,
    tz: Tz,
    day: NaiveDate,
    now: i64,
) -> Result<Option<HealthDayRow>> {
    let (from, to) = devices::history::day_bounds(tz, day);
    let samples = store
        .samples_thinned(device, from - LOOKBACK_MS, to, DAY_BUCKET_MS)
        .await?;
    let points: Vec<health::Point> = samples.iter().map(|s| point_of(s.ts, &s.payload)).collect();
    let first_today = points.partition_point(|p| p.ts < from);
    let today = &points[first_today..];
    if today.is_empty() {
        return Ok(None);
    }
    let s = health::summarise_day(today);
    let day_text = day.format("%Y-%m-%d").to_string();
    // The rollups are the figures the battery's page shows; the integral stands in without.
    let energy = store
        .device_energy(device, &DayRange::day(&day_text))
        .await?;
    let discharge = kwh(&energy, "discharge").or(s.discharge_kwh);
    let charge = kwh(&energy, "charge").or(s.charge_kwh);
    let efc = match (discharge, s.capacity_ah, s.voltage) {
        (Some(d), Some(c), Some(v)) => health::equivalent_cycles(d, c, v),
        _ => None,
    };
    let cycle = widest(health::measured_cycles(&points), from, to);
    let cell = |c: Option<health::CellId>| {
        (
            c.and_then(|c| c.pack).map(i64::from),
            c.map(|c| i64::from(c.cell)),
        )
    };
    let (high_pack, high_cell) = cell(s.high_cell);
    let (low_pack, low_cell) = cell(s.low_cell);
    Ok(Some(HealthDayRow {
        device_id: device,
        day: day_text,
        soh: s.soh,
        bms_cycles: s.bms_cycles,
        capacity_ah: s.capacity_ah,
        voltage: s.voltage,
        discharge_kwh: discharge,
        charge_kwh: charge,
        efc,
        spread_mv: s.spread_mv,
        high_pack,
        high_cell,
        low_pack,
        low_cell,
        cycle_kind: cycle.map(|c| c.kind.key().to_string()),
        cycle_start: cycle.map(|c| c.start_ts),
        cycle_end: cycle.map(|c| c.end_ts),
        cycle_soc_from: cycle.map(|c| c.soc_from),
        cycle_soc_to: cycle.map(|c| c.soc_to),
        cycle_ah: cycle.and_then(|c| c.ah),
        cycle_kwh: cycle.and_then(|c| c.kwh),
        measured_ah: cycle.map(|c| c.capacity_ah),
        measured_kwh: cycle.and_then(|c| c.capacity_kwh),
        bms_ah: cycle.and_then(|c| c.bms_ah),
        samples: today.len() as i64,
        updated_at: now,
    }))
}
