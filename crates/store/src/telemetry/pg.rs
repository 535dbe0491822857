//! The batch write on PostgreSQL: one statement per table whatever the batch's size, each row's
//! fields passed as a few arrays and expanded by `UNNEST` (`INSERT .. SELECT * FROM UNNEST(..)`).
//! Multi-row `VALUES` with one parameter per field cost a bind and a parse per 128 rows and
//! grew the statement count with the batch; arrays are one parameter per column, sent binary.
//! COPY would skip the `SELECT`, but it cannot `ON CONFLICT` (it would need a staging table and a
//! second statement per table), and for a thousand rows the arrays are as fast.
//!
//! Several of these transactions may run at once (ingest commits batches concurrently on
//! PostgreSQL, and replicas ingest side by side), so every statement takes its row locks in key
//! order (no two batches can deadlock on rows they share), and a plant's day is summed only
//! under a lock of that plant-day taken after this batch's device rows are written: the last
//! writer of a plant-day sums what every other writer of it committed before.

use domain::ids::{DeviceId, PlantId};
use std::{collections::BTreeSet, sync::LazyLock};

use sqlx::PgPool;

use super::{
    CounterKind, DAILY_HEAD, DAILY_TAIL, LATEST_HEAD, LATEST_TAIL, LIFETIME_HEAD, LIFETIME_TAIL,
    MergedEnergy, SAMPLES_HEAD, SAMPLES_TAIL, SUM_TAIL, SampleWrite,
};
use crate::{Result, StoreError};

/// Namespace of the advisory locks of plant-days (`pg_advisory_xact_lock(ns, key)`).
const PLANT_DAY_LOCK: i32 = 0x5044_4159; // "PDAY"

static SAMPLES: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{SAMPLES_HEAD} SELECT * FROM UNNEST($1::BIGINT[], $2::BIGINT[], $3::TEXT[]) {SAMPLES_TAIL}"
    )
});

static LATEST: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{LATEST_HEAD} SELECT * FROM UNNEST($1::BIGINT[], $2::BIGINT[], $3::TEXT[]) {LATEST_TAIL}"
    )
});

const DEVICES_SEEN: &str = "UPDATE devices SET online = TRUE, \
    status = CASE WHEN status = 0 THEN 1 ELSE status END, \
    last_seen = (SELECT l.ts FROM device_latest l WHERE l.device_id = devices.id) \
    WHERE id = ANY($1::BIGINT[])";

/// One-value energy rows (`DAILY_HEAD` columns) as arrays, then the rule of `tail`.
fn one_value(tail: &str) -> String {
    format!(
        "{DAILY_HEAD} SELECT * FROM UNNEST($1::BIGINT[], $2::TEXT[], $3::TEXT[], \
         $4::DOUBLE PRECISION[], $5::BIGINT[], $6::BIGINT[]) {tail}"
    )
}

static DAILY: LazyLock<String> = LazyLock::new(|| one_value(DAILY_TAIL));

static SUM: LazyLock<String> = LazyLock::new(|| one_value(SUM_TAIL));

static LIFETIME: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{LIFETIME_HEAD} SELECT * FROM UNNEST($1::BIGINT[], $2::TEXT[], $3::TEXT[], \
         $4::DOUBLE PRECISION[], $5::DOUBLE PRECISION[], $6::DOUBLE PRECISION[], \
         $7::BIGINT[], $8::BIGINT[]) {LIFETIME_TAIL}"
    )
});

/// Locks the plant-days `$2` (sorted keys) in order.
const LOCK_PLANT_DAYS: &str = "SELECT pg_advisory_xact_lock($1, k) FROM UNNEST($2::INT[]) AS k";

/// Every plant-day of `$1`/`$2` summed again: per metric, the sum over the plant's devices of
/// the best-ranked source present (as `PLANT_DAY` does for one).
const PLANT_DAYS: &str = "INSERT INTO plant_energy_daily (plant_id, day, metric, kwh) \
    SELECT e.plant_id, e.day, e.metric, SUM(e.kwh) \
    FROM UNNEST($1::BIGINT[], $2::TEXT[]) AS k(plant_id, day) \
    JOIN energy_daily e ON e.plant_id = k.plant_id AND e.day = k.day \
    WHERE e.source_rank = (SELECT MIN(r.source_rank) FROM energy_daily r \
      WHERE r.plant_id = e.plant_id AND r.day = e.day AND r.metric = e.metric) \
    GROUP BY e.plant_id, e.day, e.metric \
    ON CONFLICT (plant_id, day, metric) DO UPDATE SET kwh = excluded.kwh";

/// A plant-day's lock key: FNV-1a of the plant and the day, the same in every replica and
/// version. Two plant-days sharing a key only wait for each other.
fn plant_day_key(plant: PlantId, day: &str) -> i32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in plant.0.to_le_bytes().iter().chain(day.as_bytes()) {
        h ^= u32::from(*b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h as i32
}

/// Tries to write the batch up to this many times when PostgreSQL breaks a deadlock by failing
/// it (rows are locked in key order, so only an unforeseen lock order could get there); the
/// other transaction has gone on by then, so the batch is written again at once.
const ATTEMPTS: u32 = 3;

pub(super) async fn write(
    pool: &PgPool,
    samples: &[SampleWrite],
    newest: &[&SampleWrite],
    energy: &[MergedEnergy],
    plant_days: &BTreeSet<(PlantId, &str)>,
) -> Result<u64> {
    let mut attempt = 1;
    loop {
        match write_once(pool, samples, newest, energy, plant_days).await {
            Err(StoreError::Db(sqlx::Error::Database(e)))
                if attempt < ATTEMPTS && e.code().as_deref() == Some(DEADLOCK) =>
            {
                tracing::warn!(
                    attempt,
                    "telemetry batch chosen as a deadlock victim: written again"
                );
                attempt += 1;
            }
            other => return other,
        }
    }
}

/// SQLSTATE `deadlock_detected`.
const DEADLOCK: &str = "40P01";

async fn write_once(
    pool: &PgPool,
    samples: &[SampleWrite],
    newest: &[&SampleWrite],
    energy: &[MergedEnergy],
    plant_days: &BTreeSet<(PlantId, &str)>,
) -> Result<u64> {
    let mut sorted: Vec<&SampleWrite> = samples.iter().collect();
    sorted.sort_unstable_by_key(|s| (s.device_id, s.ts));
    let mut energy: Vec<&MergedEnergy> = energy.iter().collect();
    energy.sort_unstable_by(|a, b| {
        (a.device_id, &a.day, &a.metric).cmp(&(b.device_id, &b.day, &b.metric))
    });

    let mut tx = pool.begin().await?;
    let inserted = sqlx::query(sqlx::AssertSqlSafe(SAMPLES.as_str()))
        .bind(sorted.iter().map(|s| s.device_id).collect::<Vec<_>>())
        .bind(sorted.iter().map(|s| s.ts).collect::<Vec<_>>())
        .bind(
            sorted
                .iter()
                .map(|s| s.payload.as_str())
                .collect::<Vec<_>>(),
        )
        .execute(&mut *tx)
        .await?
        .rows_affected();
    if !newest.is_empty() {
        // `newest` is one row per device, in device order.
        let ids: Vec<DeviceId> = newest.iter().map(|s| s.device_id).collect();
        sqlx::query(sqlx::AssertSqlSafe(LATEST.as_str()))
            .bind(&ids)
            .bind(newest.iter().map(|s| s.ts).collect::<Vec<_>>())
            .bind(
                newest
                    .iter()
                    .map(|s| s.payload.as_str())
                    .collect::<Vec<_>>(),
            )
            .execute(&mut *tx)
            .await?;
        sqlx::query(DEVICES_SEEN)
            .bind(&ids)
            .execute(&mut *tx)
            .await?;
    }
    // Daily counters and sums: one value a row, kept as the highest or added up.
    for (kind, sql) in [(CounterKind::Daily, &DAILY), (CounterKind::Sum, &SUM)] {
        let rows: Vec<&MergedEnergy> = energy.iter().copied().filter(|e| e.kind == kind).collect();
        if rows.is_empty() {
            continue;
        }
        sqlx::query(sqlx::AssertSqlSafe(sql.as_str()))
            .bind(rows.iter().map(|e| e.device_id).collect::<Vec<_>>())
            .bind(rows.iter().map(|e| e.day.as_str()).collect::<Vec<_>>())
            .bind(rows.iter().map(|e| e.metric.as_str()).collect::<Vec<_>>())
            .bind(rows.iter().map(|e| e.hi).collect::<Vec<_>>())
            .bind(rows.iter().map(|e| e.plant_id).collect::<Vec<_>>())
            .bind(rows.iter().map(|e| e.rank).collect::<Vec<_>>())
            .execute(&mut *tx)
            .await?;
    }
    let lifetime: Vec<&MergedEnergy> = energy
        .iter()
        .copied()
        .filter(|e| e.kind == CounterKind::Lifetime)
        .collect();
    if !lifetime.is_empty() {
        sqlx::query(sqlx::AssertSqlSafe(LIFETIME.as_str()))
            .bind(lifetime.iter().map(|e| e.device_id).collect::<Vec<_>>())
            .bind(lifetime.iter().map(|e| e.day.as_str()).collect::<Vec<_>>())
            .bind(
                lifetime
                    .iter()
                    .map(|e| e.metric.as_str())
                    .collect::<Vec<_>>(),
            )
            .bind(lifetime.iter().map(|e| e.hi - e.lo).collect::<Vec<_>>())
            .bind(lifetime.iter().map(|e| e.lo).collect::<Vec<_>>())
            .bind(lifetime.iter().map(|e| e.hi).collect::<Vec<_>>())
            .bind(lifetime.iter().map(|e| e.plant_id).collect::<Vec<_>>())
            .bind(lifetime.iter().map(|e| e.rank).collect::<Vec<_>>())
            .execute(&mut *tx)
            .await?;
    }
    if !plant_days.is_empty() {
        let mut keys: Vec<i32> = plant_days
            .iter()
            .map(|(p, d)| plant_day_key(*p, d))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        sqlx::query(LOCK_PLANT_DAYS)
            .bind(PLANT_DAY_LOCK)
            .bind(keys)
            .execute(&mut *tx)
            .await?;
        // A statement of its own, after the locks: its snapshot holds what the plant-day's
        // previous writers committed.
        sqlx::query(PLANT_DAYS)
            .bind(plant_days.iter().map(|(p, _)| *p).collect::<Vec<_>>())
            .bind(plant_days.iter().map(|(_, d)| *d).collect::<Vec<_>>())
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(inserted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plant_days_lock_key_is_fixed_and_tells_days_apart() {
        assert_eq!(
            plant_day_key(PlantId(7), "2026-11-28"),
            plant_day_key(PlantId(7), "2026-11-28")
        );
        assert_ne!(
            plant_day_key(PlantId(7), "2026-11-28"),
            plant_day_key(PlantId(7), "2026-11-29")
        );
        assert_ne!(
            plant_day_key(PlantId(7), "2026-11-28"),
            plant_day_key(PlantId(8), "2026-11-28")
        );
    }
}
