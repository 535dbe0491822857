//! Sample history: the samples of open days as rows (`samples`), closed days as one columnar
//! block per device and plant-local day (`sample_blocks`, see [`codec`]). Every reader of
//! samples goes through [`Store::samples`] or [`Store::samples_thinned`], which read both
//! and merge them; the first sample stored for a timestamp wins, as in `samples` itself.
//!
//! Compaction ([`Store::compact_day`]) moves one closed device-day into its block in one
//! transaction, so a crash leaves either the rows or the block, never neither; late rows for a
//! day already compacted are merged into its block by the next compaction.

pub mod codec;
pub mod partitions;

use codec::{Block, Sample};
use domain::ids::DeviceId;

use crate::{Result, Store, StoreError, telemetry::SampleRow};

/// A block holds one local day, which lasts at most 25 hours; a plant moved to another time
/// zone can make a day's block reach a little further. Reads look this far back for blocks
/// that may reach into the asked range.
const MAX_BLOCK_SPAN_MS: i64 = 7 * 86_400_000;

/// What a compaction did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Compacted {
    /// Sample rows moved into the block.
    pub rows: u64,
    /// Samples the block holds now.
    pub samples: u64,
    pub bytes: u64,
}

/// The size of stored history, rows and blocks apart.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct HistorySize {
    pub rows: i64,
    pub blocks: i64,
    pub block_samples: i64,
    pub block_points: i64,
    pub block_bytes: i64,
}

#[derive(sqlx::FromRow)]
struct BlockData {
    data: Vec<u8>,
}

/// A device and its plant's time zone name (none without a plant).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DeviceZone {
    pub device_id: DeviceId,
    pub timezone: Option<String>,
}

#[derive(sqlx::FromRow)]
struct OldestRow {
    device_id: DeviceId,
    ts: i64,
}

fn damaged(e: codec::CodecError) -> StoreError {
    StoreError::Damaged(e.to_string())
}

fn to_samples(rows: Vec<SampleRow>) -> Vec<Sample> {
    rows.into_iter()
        .map(|r| Sample {
            ts: r.ts,
            payload: r.payload,
        })
        .collect()
}

/// Rows and decoded blocks of one device as one series, oldest first; where both hold a
/// timestamp the block's sample (stored first) wins.
fn merge(device: DeviceId, from_blocks: Vec<Sample>, rows: Vec<SampleRow>) -> Vec<SampleRow> {
    let mut all: Vec<SampleRow> = from_blocks
        .into_iter()
        .map(|s| SampleRow {
            device_id: device,
            ts: s.ts,
            payload: s.payload,
        })
        .chain(rows)
        .collect();
    // Stable: of equal timestamps, the block's (earlier in `all`) stays first.
    all.sort_by_key(|s| s.ts);
    all.dedup_by_key(|s| s.ts);
    all
}

/// The first sample of each `bucket_ms` counted from `from`.
fn thin(samples: Vec<SampleRow>, from: i64, bucket_ms: i64) -> Vec<SampleRow> {
    let mut last = None;
    samples
        .into_iter()
        .filter(|s| {
            let bucket = (s.ts - from).div_euclid(bucket_ms);
            let first = last != Some(bucket);
            last = Some(bucket);
            first
        })
        .collect()
}

impl Store {
    /// A device's samples with `from <= ts < to`, oldest first, at most `limit`.
    pub async fn samples(
        &self,
        device: DeviceId,
        from: i64,
        to: i64,
        limit: i64,
    ) -> Result<Vec<SampleRow>> {
        let rows = rows!(
            self,
            fetch_all,
            SampleRow,
            "SELECT device_id, ts, payload FROM samples \
             WHERE device_id = $1 AND ts >= $2 AND ts < $3 ORDER BY ts LIMIT $4",
            device,
            from,
            to,
            limit
        )?;
        let blocks = self.block_samples(device, from, to).await?;
        let mut all = merge(device, blocks, rows);
        all.truncate(usize::try_from(limit).unwrap_or(0));
        Ok(all)
    }

    /// A device's samples with `from <= ts < to`, at most one per `bucket_ms` (the first of
    /// each bucket, counted from `from`), oldest first. A day chart reads at most one point a
    /// minute whether the gateway uploads every 5 minutes or every 5 seconds, so a whole day
    /// fits in a bounded answer instead of being cut off at a row limit.
    pub async fn samples_thinned(
        &self,
        device: DeviceId,
        from: i64,
        to: i64,
        bucket_ms: i64,
    ) -> Result<Vec<SampleRow>> {
        let bucket_ms = bucket_ms.max(1);
        let rows = rows!(
            self,
            fetch_all,
            SampleRow,
            "SELECT device_id, ts, payload FROM samples \
             WHERE device_id = $1 AND ts >= $2 AND ts < $3 AND ts IN \
                 (SELECT MIN(ts) FROM samples WHERE device_id = $1 AND ts >= $2 AND ts < $3 \
                  GROUP BY (ts - $2) / $4) \
             ORDER BY ts",
            device,
            from,
            to,
            bucket_ms
        )?;
        let blocks = self.block_samples(device, from, to).await?;
        if blocks.is_empty() {
            return Ok(rows);
        }
        Ok(thin(merge(device, blocks, rows), from, bucket_ms))
    }

    /// The samples of `[from, to)` held in a device's blocks, oldest first.
    async fn block_samples(&self, device: DeviceId, from: i64, to: i64) -> Result<Vec<Sample>> {
        let blocks = rows!(
            self,
            fetch_all,
            BlockData,
            "SELECT data FROM sample_blocks WHERE device_id = $1 \
             AND first_ts < $3 AND first_ts > $4 AND last_ts >= $2 ORDER BY first_ts",
            device,
            from,
            to,
            from.saturating_sub(MAX_BLOCK_SPAN_MS)
        )?;
        let mut out = Vec::new();
        for b in blocks {
            out.extend(
                codec::decode(&b.data)
                    .map_err(damaged)?
                    .into_iter()
                    .filter(|s| s.ts >= from && s.ts < to),
            );
        }
        Ok(out)
    }

    /// Each device with sample rows, and its oldest row's time: where compaction looks for
    /// closed days.
    pub async fn oldest_sample_rows(&self) -> Result<Vec<(DeviceId, i64)>> {
        let rows = rows!(
            self,
            fetch_all,
            OldestRow,
            "SELECT device_id, MIN(ts) AS ts FROM samples GROUP BY device_id ORDER BY device_id"
        )?;
        Ok(rows.into_iter().map(|r| (r.device_id, r.ts)).collect())
    }

    /// Every device with its plant's time zone: what places samples on plant-local days.
    pub async fn device_zones(&self) -> Result<Vec<DeviceZone>> {
        Ok(rows!(
            self,
            fetch_all,
            DeviceZone,
            "SELECT d.id AS device_id, p.timezone FROM devices d \
             LEFT JOIN plants p ON p.id = d.plant_id ORDER BY d.id"
        )?)
    }

    /// The oldest sample row of a device from `since` on.
    pub async fn oldest_sample_row(&self, device: DeviceId, since: i64) -> Result<Option<i64>> {
        Ok(scalar!(
            self,
            fetch_one,
            Option<i64>,
            "SELECT MIN(ts) FROM samples WHERE device_id = $1 AND ts >= $2",
            device,
            since
        )?)
    }

    /// Moves a device's sample rows of `[from, to)`, its plant-local day `day`, into the day's
    /// block (merged with the block already there), in one transaction.
    pub async fn compact_day(
        &self,
        device: DeviceId,
        day: &str,
        from: i64,
        to: i64,
    ) -> Result<Compacted> {
        let out = in_tx!(self, |tx, sqlite| {
            let select_rows = if sqlite {
                crate::sql::for_sqlite(COMPACT_ROWS).into_owned()
            } else {
                COMPACT_ROWS.to_string()
            };
            let rows: Vec<SampleRow> = sqlx::query_as(sqlx::AssertSqlSafe(select_rows))
                .bind(device)
                .bind(from)
                .bind(to)
                .fetch_all(&mut *tx)
                .await?;
            if rows.is_empty() {
                Compacted::default()
            } else {
                let select_block = if sqlite {
                    crate::sql::for_sqlite(COMPACT_BLOCK).into_owned()
                } else {
                    COMPACT_BLOCK.to_string()
                };
                let existing: Option<BlockData> = sqlx::query_as(sqlx::AssertSqlSafe(select_block))
                    .bind(device)
                    .bind(day)
                    .fetch_optional(&mut *tx)
                    .await?;
                let mut samples = match existing {
                    Some(b) => codec::decode(&b.data).map_err(damaged)?,
                    None => Vec::new(),
                };
                let moved = rows.len() as u64;
                samples.extend(to_samples(rows));
                let Block {
                    data,
                    samples: held,
                    points,
                    first_ts,
                    last_ts,
                } = codec::encode(&samples).map_err(damaged)?;
                let bytes = data.len() as u64;
                tx_exec!(
                    tx,
                    sqlite,
                    "INSERT INTO sample_blocks \
                     (device_id, day, first_ts, last_ts, samples, points, data) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7) \
                     ON CONFLICT (device_id, day) DO UPDATE SET first_ts = excluded.first_ts, \
                     last_ts = excluded.last_ts, samples = excluded.samples, \
                     points = excluded.points, data = excluded.data",
                    device,
                    day,
                    first_ts,
                    last_ts,
                    held as i64,
                    points as i64,
                    data
                )?;
                // A battery's health of this day (or of a later one, which looks back into
                // it) was computed without these rows if the job has passed the day: it is
                // computed again (docs/battery-health.md). Other devices have no health rows.
                tx_exec!(
                    tx,
                    sqlite,
                    "INSERT INTO battery_health_stale (device_id, day) \
                     SELECT CAST($1 AS BIGINT), CAST($2 AS TEXT) WHERE EXISTS \
                     (SELECT 1 FROM battery_health_days WHERE device_id = $1 AND day >= $2)",
                    device,
                    day
                )?;
                // The plant's peak of this day was computed without these rows, if at all.
                tx_exec!(
                    tx,
                    sqlite,
                    "DELETE FROM plant_power_peaks WHERE day = $2 AND plant_id = \
                     (SELECT plant_id FROM devices WHERE id = $1)",
                    device,
                    day
                )?;
                tx_exec!(
                    tx,
                    sqlite,
                    "DELETE FROM samples WHERE device_id = $1 AND ts >= $2 AND ts < $3",
                    device,
                    from,
                    to
                )?;
                Compacted {
                    rows: moved,
                    samples: held as u64,
                    bytes,
                }
            }
        });
        Ok(out)
    }

    /// Deletes the blocks whose last sample is older than `before` (retention). Rows are not
    /// touched: they are compacted first. Answers the number of blocks deleted.
    pub async fn delete_blocks_before(&self, before: i64) -> Result<u64> {
        Ok(exec!(
            self,
            "DELETE FROM sample_blocks WHERE last_ts < $1",
            before
        )?)
    }

    /// How much history is stored, as rows and as blocks.
    pub async fn history_size(&self) -> Result<HistorySize> {
        Ok(rows!(
            self,
            fetch_one,
            HistorySize,
            "SELECT (SELECT COUNT(*) FROM samples) AS rows, COUNT(*) AS blocks, \
             CAST(COALESCE(SUM(samples), 0) AS BIGINT) AS block_samples, \
             CAST(COALESCE(SUM(points), 0) AS BIGINT) AS block_points, \
             CAST(COALESCE(SUM(LENGTH(data)), 0) AS BIGINT) AS block_bytes FROM sample_blocks"
        )?)
    }
}

const COMPACT_ROWS: &str = "SELECT device_id, ts, payload FROM samples \
    WHERE device_id = $1 AND ts >= $2 AND ts < $3 ORDER BY ts";
const COMPACT_BLOCK: &str = "SELECT data FROM sample_blocks WHERE device_id = $1 AND day = $2";

#[cfg(test)]
mod tests {
    use super::*;

    fn row(ts: i64, v: &str) -> SampleRow {
        SampleRow {
            device_id: DeviceId(1),
            ts,
            payload: v.into(),
        }
    }

    #[test]
    fn a_block_sample_wins_over_a_row_of_the_same_time() {
        let merged = merge(
            DeviceId(1),
            vec![Sample {
                ts: 2,
                payload: "b".into(),
            }],
            vec![row(1, "r"), row(2, "r"), row(3, "r")],
        );
        let got: Vec<(i64, &str)> = merged.iter().map(|s| (s.ts, s.payload.as_str())).collect();
        assert_eq!(got, vec![(1, "r"), (2, "b"), (3, "r")]);
    }

    #[test]
    fn thinning_keeps_the_first_of_each_bucket() {
        let kept = thin(
            vec![row(100, "a"), row(150, "b"), row(200, "c"), row(390, "d")],
            100,
            100,
        );
        let ts: Vec<i64> = kept.iter().map(|s| s.ts).collect();
        assert_eq!(ts, vec![100, 200, 390]);
    }
}
