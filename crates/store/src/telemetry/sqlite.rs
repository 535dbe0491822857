//! The batch write on SQLite: multi-row `INSERT`s of up to [`CHUNK`] rows with plain `?`
//! parameters, one transaction (SQLite has one writer; ingest writes one batch at a time).

use std::collections::BTreeSet;

use domain::ids::PlantId;

use sqlx::SqlitePool;

use super::{
    CHUNK, CounterKind, DAILY_HEAD, DAILY_TAIL, LATEST_HEAD, LATEST_TAIL, LIFETIME_HEAD,
    LIFETIME_TAIL, MergedEnergy, PLANT_DAY, SAMPLES_HEAD, SAMPLES_TAIL, SUM_TAIL, SampleWrite,
    values_sql,
};
use crate::{Result, sql::push_params};

pub(super) async fn write(
    pool: &SqlitePool,
    samples: &[SampleWrite],
    newest: &[&SampleWrite],
    energy: &[MergedEnergy],
    plant_days: &BTreeSet<(PlantId, &str)>,
) -> Result<u64> {
    let mut tx = pool.begin().await?;
    let mut inserted = 0u64;
    for chunk in samples.chunks(CHUNK) {
        let sql = values_sql(SAMPLES_HEAD, chunk.len(), 3, SAMPLES_TAIL, true);
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for s in chunk {
            q = q.bind(s.device_id).bind(s.ts).bind(s.payload.as_str());
        }
        inserted += q.execute(&mut *tx).await?.rows_affected();
    }
    for chunk in newest.chunks(CHUNK) {
        let sql = values_sql(LATEST_HEAD, chunk.len(), 3, LATEST_TAIL, true);
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for s in chunk {
            q = q.bind(s.device_id).bind(s.ts).bind(s.payload.as_str());
        }
        q.execute(&mut *tx).await?;
        let mut sql = String::from(
            "UPDATE devices SET online = TRUE, \
                 status = CASE WHEN status = 0 THEN 1 ELSE status END, \
                 last_seen = (SELECT l.ts FROM device_latest l WHERE l.device_id = devices.id) \
                 WHERE id IN (",
        );
        push_params(&mut sql, 0, chunk.len(), true);
        sql.push(')');
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for s in chunk {
            q = q.bind(s.device_id);
        }
        q.execute(&mut *tx).await?;
    }
    // Daily counters and sums: one value a row, kept as the highest or added up.
    for (kind, tail) in [
        (CounterKind::Daily, DAILY_TAIL),
        (CounterKind::Sum, SUM_TAIL),
    ] {
        let rows: Vec<&MergedEnergy> = energy.iter().filter(|e| e.kind == kind).collect();
        write_values(&mut tx, &rows, tail).await?;
    }
    let lifetime: Vec<&MergedEnergy> = energy
        .iter()
        .filter(|e| e.kind == CounterKind::Lifetime)
        .collect();
    for chunk in lifetime.chunks(CHUNK) {
        let sql = values_sql(LIFETIME_HEAD, chunk.len(), 8, LIFETIME_TAIL, true);
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for e in chunk {
            q = q
                .bind(e.device_id)
                .bind(e.day.as_str())
                .bind(e.metric.as_str())
                .bind(e.hi - e.lo)
                .bind(e.lo)
                .bind(e.hi)
                .bind(e.plant_id)
                .bind(e.rank);
        }
        q.execute(&mut *tx).await?;
    }
    let plant_day = crate::sql::for_sqlite(PLANT_DAY).into_owned();
    for (plant, day) in plant_days {
        sqlx::query(sqlx::AssertSqlSafe(plant_day.clone()))
            .bind(*plant)
            .bind(*day)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(inserted)
}

/// Upserts one-value energy rows (`DAILY_HEAD` columns) with `tail`'s rule.
async fn write_values(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    rows: &[&MergedEnergy],
    tail: &str,
) -> Result<()> {
    for chunk in rows.chunks(CHUNK) {
        let sql = values_sql(DAILY_HEAD, chunk.len(), 6, tail, true);
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for e in chunk {
            q = q
                .bind(e.device_id)
                .bind(e.day.as_str())
                .bind(e.metric.as_str())
                .bind(e.hi)
                .bind(e.plant_id)
                .bind(e.rank);
        }
        q.execute(&mut **tx).await?;
    }
    Ok(())
}
