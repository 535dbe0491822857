//! PostgreSQL keeps `samples` in one partition per UTC month of `ts` (migration 0028), with a
//! DEFAULT partition that takes any row of a month without one, so a write is never refused.
//! The store keeps the previous, current and next two months ready
//! ([`Store::ensure_sample_partitions`]: at start and on every history pass) and drops months
//! whose rows have all been compacted ([`Store::drop_empty_sample_partitions`]). SQLite keeps
//! one table; both calls do nothing there.
//!
//! Several replicas may run these at once: each change is one transaction behind an advisory
//! lock of the schema, re-checks what it found before it acts, and gives up after
//! [`LOCK_TIMEOUT`] rather than hold ingest behind a lock it waits for (the next pass retries).

use chrono::{DateTime, Datelike, NaiveDate, Utc};

use crate::{Db, Result, Store};

/// How long partition upkeep waits for a table lock. While it waits, new writes to `samples`
/// queue behind it, so it must give up quickly.
const LOCK_TIMEOUT: &str = "SET LOCAL lock_timeout = '3s'";
/// One advisory lock per schema (namespace "PART"): the replicas' partition upkeep runs one at
/// a time.
const SERIALIZE: &str = "SELECT pg_advisory_xact_lock(1346458196, hashtext(current_schema()))";
/// The partitions of `samples` (names in this schema), default one excluded.
const PARTITIONS: &str = "SELECT c.relname::TEXT FROM pg_inherits i \
    JOIN pg_class c ON c.oid = i.inhrelid \
    WHERE i.inhparent = 'samples'::regclass AND c.relname <> 'samples_default' ORDER BY 1";

/// What partition upkeep did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PartitionUpkeep {
    /// Month partitions created.
    pub created: u64,
    /// Rows moved from the default partition into a month created for them.
    pub moved: u64,
}

/// A UTC calendar month.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Month {
    year: i32,
    /// 1 to 12.
    month: u32,
}

impl Month {
    /// The month holding `ts` (epoch ms).
    pub fn of(ts: i64) -> Month {
        let t = DateTime::<Utc>::from_timestamp_millis(ts).unwrap_or_default();
        Month {
            year: t.year(),
            month: t.month(),
        }
    }

    /// The month `n` months after this one (before it when `n` is negative).
    pub fn plus(self, n: i32) -> Month {
        let index = self.year * 12 + self.month as i32 - 1 + n;
        Month {
            year: index.div_euclid(12),
            month: index.rem_euclid(12) as u32 + 1,
        }
    }

    /// The month's first millisecond (epoch ms).
    pub fn start(self) -> i64 {
        NaiveDate::from_ymd_opt(self.year, self.month, 1)
            .map(|d| {
                d.and_time(chrono::NaiveTime::MIN)
                    .and_utc()
                    .timestamp_millis()
            })
            .unwrap_or(i64::MIN)
    }

    /// The first millisecond after the month.
    pub fn end(self) -> i64 {
        self.plus(1).start()
    }

    /// Its partition's name, as migration 0028 names them.
    pub fn partition(self) -> String {
        format!("samples_y{:04}m{:02}", self.year, self.month)
    }

    /// The month of a partition name, `None` for any other table.
    pub fn from_partition(name: &str) -> Option<Month> {
        let rest = name.strip_prefix("samples_y")?;
        let (year, month) = rest.split_once('m')?;
        let month: u32 = month.parse().ok()?;
        let year: i32 = year.parse().ok()?;
        (1..=12).contains(&month).then_some(Month { year, month })
    }
}

/// The months kept ready at `now`: the previous one (reports buffered by a gateway over the
/// turn of a month), the current one and the next two.
fn months_ahead(now: i64) -> impl Iterator<Item = Month> {
    let this = Month::of(now);
    (-1..=2).map(move |n| this.plus(n))
}

impl Store {
    /// The month partitions of `samples`, oldest first (PostgreSQL; none on SQLite).
    pub async fn sample_partitions(&self) -> Result<Vec<String>> {
        let Db::Postgres(pool) = &self.db else {
            return Ok(Vec::new());
        };
        Ok(sqlx::query_scalar(PARTITIONS).fetch_all(pool).await?)
    }

    /// PostgreSQL: creates the partitions of `samples` for the previous, current and next two
    /// months of `now` where missing, moving into each the rows of its month that the default
    /// partition took meanwhile. Nothing to do on SQLite.
    pub async fn ensure_sample_partitions(&self, now: i64) -> Result<PartitionUpkeep> {
        let Db::Postgres(pool) = &self.db else {
            return Ok(PartitionUpkeep::default());
        };
        let existing: Vec<String> = sqlx::query_scalar(PARTITIONS).fetch_all(pool).await?;
        let mut done = PartitionUpkeep::default();
        for month in months_ahead(now) {
            let name = month.partition();
            if existing.contains(&name) {
                continue;
            }
            if let Some(moved) = create_month(pool, month, &name).await? {
                done.created += 1;
                done.moved += moved;
            }
        }
        Ok(done)
    }

    /// PostgreSQL: drops the month partitions older than the ones kept ready that hold no row
    /// (compaction has moved their days into blocks). A late row of such a month lands in the
    /// default partition and is compacted from there. Answers the partitions dropped.
    pub async fn drop_empty_sample_partitions(&self, now: i64) -> Result<u64> {
        let Db::Postgres(pool) = &self.db else {
            return Ok(0);
        };
        let oldest_kept = Month::of(now).plus(-1);
        let existing: Vec<String> = sqlx::query_scalar(PARTITIONS).fetch_all(pool).await?;
        let mut dropped = 0;
        for name in existing {
            if Month::from_partition(&name).is_some_and(|m| m < oldest_kept)
                && drop_if_empty(pool, &name).await?
            {
                dropped += 1;
            }
        }
        Ok(dropped)
    }
}

/// Creates `month`'s partition unless another replica just did; answers the rows moved into it
/// from the default partition, `None` when it existed already.
async fn create_month(pool: &sqlx::PgPool, month: Month, name: &str) -> Result<Option<u64>> {
    let mut tx = pool.begin().await?;
    sqlx::query(LOCK_TIMEOUT).execute(&mut *tx).await?;
    sqlx::query(SERIALIZE).execute(&mut *tx).await?;
    let existing: Vec<String> = sqlx::query_scalar(PARTITIONS).fetch_all(&mut *tx).await?;
    if existing.iter().any(|n| n == name) {
        return Ok(None);
    }
    // Built apart and attached, rather than `CREATE TABLE .. PARTITION OF`, which locks all
    // of `samples` against writes; attaching locks the default partition only (it checks that
    // the default holds no row of the month: those are moved first, with writes to the default
    // held back until the commit so none slips in between).
    let create = format!("CREATE TABLE IF NOT EXISTS {name} (LIKE samples INCLUDING DEFAULTS)");
    sqlx::query(sqlx::AssertSqlSafe(create))
        .execute(&mut *tx)
        .await?;
    sqlx::query("LOCK TABLE samples_default IN ACCESS EXCLUSIVE MODE")
        .execute(&mut *tx)
        .await?;
    let take = format!(
        "WITH moved AS (DELETE FROM samples_default WHERE ts >= $1 AND ts < $2 \
         RETURNING device_id, ts, payload) \
         INSERT INTO {name} (device_id, ts, payload) SELECT device_id, ts, payload FROM moved"
    );
    let moved = sqlx::query(sqlx::AssertSqlSafe(take))
        .bind(month.start())
        .bind(month.end())
        .execute(&mut *tx)
        .await?
        .rows_affected();
    let attach = format!(
        "ALTER TABLE samples ATTACH PARTITION {name} FOR VALUES FROM ({}) TO ({})",
        month.start(),
        month.end()
    );
    sqlx::query(sqlx::AssertSqlSafe(attach))
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Some(moved))
}

/// Drops a month partition if it holds no row. The table is vacuumed first so that the check
/// made under the locks reads no dead pages (compaction deleted every row it had). Writes to
/// `samples` wait while the locks are held: dropping a partition locks its parent, which is
/// locked first, as every writer and reader does, so that none can deadlock with this.
async fn drop_if_empty(pool: &sqlx::PgPool, name: &str) -> Result<bool> {
    let any = format!("SELECT EXISTS (SELECT 1 FROM {name})");
    let holds_rows: bool = sqlx::query_scalar(sqlx::AssertSqlSafe(any.clone()))
        .fetch_one(pool)
        .await?;
    if holds_rows {
        return Ok(false);
    }
    sqlx::query(sqlx::AssertSqlSafe(format!("VACUUM {name}")))
        .execute(pool)
        .await?;
    let mut tx = pool.begin().await?;
    sqlx::query(LOCK_TIMEOUT).execute(&mut *tx).await?;
    sqlx::query(SERIALIZE).execute(&mut *tx).await?;
    let existing: Vec<String> = sqlx::query_scalar(PARTITIONS).fetch_all(&mut *tx).await?;
    if !existing.iter().any(|n| n == name) {
        return Ok(false);
    }
    sqlx::query("LOCK TABLE ONLY samples IN ACCESS EXCLUSIVE MODE")
        .execute(&mut *tx)
        .await?;
    let holds_rows: bool = sqlx::query_scalar(sqlx::AssertSqlSafe(any))
        .fetch_one(&mut *tx)
        .await?;
    if holds_rows {
        return Ok(false);
    }
    sqlx::query(sqlx::AssertSqlSafe(format!("DROP TABLE {name}")))
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_step_over_the_turn_of_a_year() {
        let dec = Month::of(1_796_083_200_000); // 2026-12-01T00:00Z
        assert_eq!(dec.partition(), "samples_y2026m12");
        assert_eq!(dec.plus(1).partition(), "samples_y2027m01");
        assert_eq!(dec.plus(-12).partition(), "samples_y2025m12");
        assert_eq!(dec.start(), 1_796_083_200_000);
        assert_eq!(dec.end(), 1_798_761_600_000);
        assert_eq!(Month::of(dec.start() - 1).partition(), "samples_y2026m11");
    }

    #[test]
    fn partition_names_read_back_as_their_month() {
        let m = Month::of(1_717_200_000_000);
        assert_eq!(Month::from_partition(&m.partition()), Some(m));
        assert_eq!(Month::from_partition("samples_default"), None);
        assert_eq!(Month::from_partition("samples_y2024m13"), None);
    }
}
