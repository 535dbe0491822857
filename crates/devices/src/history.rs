//! Upkeep of sample history: compaction of closed plant-local days into blocks, retention of
//! old blocks (see `store::history`), and on PostgreSQL the monthly partitions of the samples
//! (the months ahead made, emptied old months dropped). Runs in every `portal serve`; two
//! replicas compacting the same day at once is safe (each move is one transaction; the second
//! finds no rows), and so is partition upkeep (serialised in the database).

use domain::ids::DeviceId;
use std::{collections::HashMap, time::Duration};

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use chrono_tz::Tz;
use store::Store;

/// How history is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryOptions {
    /// How long after a local day ends its late reports are still awaited as rows before the
    /// day is compacted (they are merged into the block afterwards anyway).
    pub grace: Duration,
    /// How long compacted blocks are kept; `None` keeps them forever. Energy per day (the
    /// rollups) is kept forever whatever this says.
    pub keep: Option<Duration>,
    /// How often the job looks for closed days.
    pub every: Duration,
}

impl Default for HistoryOptions {
    fn default() -> Self {
        HistoryOptions {
            grace: Duration::from_secs(2 * 3600),
            keep: None,
            every: Duration::from_secs(600),
        }
    }
}

/// What one pass did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Upkeep {
    /// Device-days compacted.
    pub days: u64,
    /// Sample rows moved into blocks.
    pub rows: u64,
    /// Blocks deleted by retention.
    pub expired: u64,
    /// Month partitions of the samples dropped once compaction emptied them (PostgreSQL).
    pub partitions_dropped: u64,
}

/// `[start, end)` of a local day in epoch milliseconds (days of 23 or 25 hours included).
pub fn day_bounds(tz: Tz, day: NaiveDate) -> (i64, i64) {
    let start = |d: NaiveDate| {
        tz.from_local_datetime(&d.and_time(chrono::NaiveTime::MIN))
            .earliest()
            .map(|t| t.timestamp_millis())
            // Midnight skipped by a DST jump: the day starts an hour later.
            .unwrap_or_else(|| {
                d.and_hms_opt(1, 0, 0)
                    .map_or(0, |t| t.and_utc().timestamp_millis())
            })
    };
    let next = day.succ_opt().unwrap_or(day);
    (start(day), start(next))
}

/// The local day holding `ts`, and its bounds.
fn day_of(ts: i64, tz: Tz) -> (NaiveDate, (i64, i64)) {
    let day = DateTime::<Utc>::from_timestamp_millis(ts)
        .unwrap_or_default()
        .with_timezone(&tz)
        .date_naive();
    (day, day_bounds(tz, day))
}

/// Compacts every device-day that closed more than `grace` before `now` (ms), deletes blocks
/// older than `keep`, and drops the month partitions compaction emptied.
pub async fn upkeep(store: &Store, now: i64, options: &HistoryOptions) -> store::Result<Upkeep> {
    let grace = i64::try_from(options.grace.as_millis()).unwrap_or(i64::MAX);
    let zones: HashMap<DeviceId, Tz> = store
        .device_zones()
        .await?
        .into_iter()
        .map(|d| {
            let tz = d.timezone.and_then(|t| t.parse().ok()).unwrap_or(Tz::UTC);
            (d.device_id, tz)
        })
        .collect();
    let mut done = Upkeep::default();
    for (device, oldest) in store.oldest_sample_rows().await? {
        // Samples of a device that no longer exists stay on UTC days.
        let tz = zones.get(&device).copied().unwrap_or(Tz::UTC);
        let mut next = Some(oldest);
        while let Some(ts) = next {
            let (day, (from, to)) = day_of(ts, tz);
            if to.saturating_add(grace) > now {
                break;
            }
            let c = store
                .compact_day(device, &day.format("%Y-%m-%d").to_string(), from, to)
                .await?;
            done.days += 1;
            done.rows += c.rows;
            next = store.oldest_sample_row(device, to).await?;
        }
    }
    if let Some(keep) = options.keep {
        let keep = i64::try_from(keep.as_millis()).unwrap_or(i64::MAX);
        done.expired = store.delete_blocks_before(now.saturating_sub(keep)).await?;
    }
    // Only space comes back from this: a failure (a lock not had in time) waits for the next
    // pass rather than fail one whose compaction went through.
    done.partitions_dropped = match store.drop_empty_sample_partitions(now).await {
        Ok(n) => n,
        Err(e) => {
            tracing::warn!(error = %e, "empty sample partitions not dropped");
            0
        }
    };
    Ok(done)
}

/// Runs [`upkeep`] every `options.every`, for as long as the process lives.
pub async fn run(store: Store, options: HistoryOptions) {
    let mut tick = tokio::time::interval(options.every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let now = Utc::now().timestamp_millis();
        // Apart from compaction: a month made late only costs a few rows kept in the default
        // partition for a while, and must not hold compaction back.
        match store.ensure_sample_partitions(now).await {
            Ok(p) if p.created > 0 => {
                tracing::info!(
                    created = p.created,
                    moved = p.moved,
                    "sample partitions made"
                )
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "sample partitions not made"),
        }
        match upkeep(&store, now, &options).await {
            Ok(u) if u.days > 0 || u.expired > 0 || u.partitions_dropped > 0 => tracing::info!(
                days = u.days,
                rows = u.rows,
                expired = u.expired,
                partitions_dropped = u.partitions_dropped,
                "history compacted"
            ),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "history upkeep failed"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_is_placed_in_the_plants_zone() {
        // 2024-03-10 20:00 UTC is already the 11th in Shanghai.
        let ts = 1_710_100_800_000;
        let (day, (from, to)) = day_of(ts, chrono_tz::Asia::Shanghai);
        assert_eq!(day.to_string(), "2024-03-11");
        assert!(from <= ts && ts < to);
        assert_eq!(to - from, 86_400_000);
    }

    #[test]
    fn a_daylight_saving_day_lasts_23_hours() {
        let day = NaiveDate::from_ymd_opt(2024, 3, 31).unwrap_or_default();
        let (from, to) = day_bounds(chrono_tz::Europe::Madrid, day);
        assert_eq!(to - from, 23 * 3_600_000);
    }
}
