//! The baselines: the same rows written straight to a fresh database of the same
//! kind, with multi-row prepared INSERTs, one transaction per batch, on one connection. No
//! MQTT, no JSON work while timing (the payload texts are built beforehand).

use domain::DeviceFamily;
use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use sqlx::{Acquire, AssertSqlSafe};

use crate::{
    db::{DbKind, FreshDb, Raw},
    payload::stored_payload,
};

#[derive(Debug, Clone)]
pub struct BaselineOptions {
    pub db: DbKind,
    pub postgres_url: String,
    /// Distinct devices the rows are spread over (as many as the end-to-end run reports).
    pub devices: usize,
    pub values: usize,
    pub seconds: f64,
    /// Rows per transaction (one multi-row INSERT).
    pub batch_rows: usize,
}

#[derive(Debug, Clone, Default)]
pub struct BaselineResult {
    pub secs: f64,
    /// Rows (reports) per transaction.
    pub batch_rows: usize,
    pub rows: u64,
    pub rows_committed: u64,
    pub points_per_row: u64,
}

impl BaselineResult {
    pub fn rows_per_sec(&self) -> f64 {
        self.rows as f64 / self.secs.max(1e-9)
    }
    pub fn points_per_sec(&self) -> f64 {
        self.rows_per_sec() * self.points_per_row as f64
    }
}

fn insert_sql(rows: usize, sqlite: bool) -> Arc<str> {
    let mut sql = String::from("INSERT INTO samples (device_id, ts, payload) VALUES ");
    for r in 0..rows {
        if r > 0 {
            sql.push(',');
        }
        if sqlite {
            // Plain `?`: sqlx looks numbered SQLite parameters up by name, a scan per parameter.
            sql.push_str("(?,?,?)");
        } else {
            sql.push_str(&format!("(${},${},${})", 3 * r + 1, 3 * r + 2, 3 * r + 3));
        }
    }
    Arc::from(sql)
}

/// Rows per INSERT statement (PostgreSQL takes at most 65,535 parameters per statement), so a
/// transaction of 1000 rows is 8 statements.
const STATEMENT_ROWS: usize = 125;

/// Writes batches until `seconds` have passed; the same statement text every time, so it is
/// prepared once and reused from the connection's statement cache.
macro_rules! write_batches {
    ($pool:expr, $sql:expr, $o:expr, $payloads:expr, $base:expr) => {{
        let mut conn = $pool.acquire().await?;
        let started = Instant::now();
        let until = started + Duration::from_secs_f64($o.seconds);
        let devices = $o.devices.max(1) as u64;
        let mut row = 0u64;
        while Instant::now() < until {
            let mut tx = conn.begin().await?;
            for _ in 0..$o.batch_rows / STATEMENT_ROWS {
                let mut q = sqlx::query(AssertSqlSafe($sql.clone()));
                for _ in 0..STATEMENT_ROWS {
                    let device = row % devices;
                    let ts = $base + i64::try_from(row / devices).unwrap_or(0) * 100;
                    q = q
                        .bind(i64::try_from(device).unwrap_or(0) + 1)
                        .bind(ts)
                        .bind($payloads[device as usize].as_str());
                    row += 1;
                }
                q.execute(&mut *tx).await?;
            }
            tx.commit().await?;
        }
        (started.elapsed().as_secs_f64(), row)
    }};
}

pub async fn run(o: &BaselineOptions) -> anyhow::Result<BaselineResult> {
    let db = FreshDb::create(o.db, &o.postgres_url, "baseline").await?;
    let result = run_on(o, &db).await;
    if let Err(e) = db.remove().await {
        eprintln!("warning: could not remove the baseline database: {e}");
    }
    result
}

async fn run_on(o: &BaselineOptions, db: &FreshDb) -> anyhow::Result<BaselineResult> {
    let payloads: Vec<String> = (0..o.devices.max(1))
        .map(|d| stored_payload(o.values, d as f64 * 0.001))
        .collect();
    let base = chrono::Utc::now().timestamp_millis() - 2 * 24 * 3600 * 1000;
    // Whole statements per transaction.
    let batch = o.batch_rows.max(STATEMENT_ROWS) / STATEMENT_ROWS * STATEMENT_ROWS;
    let o = BaselineOptions {
        batch_rows: batch,
        ..o.clone()
    };
    let (secs, rows) = match &db.raw {
        Raw::Sqlite(pool) => {
            let sql = insert_sql(STATEMENT_ROWS, true);
            write_batches!(pool, sql, o, payloads, base)
        }
        Raw::Postgres(pool) => {
            let sql = insert_sql(STATEMENT_ROWS, false);
            write_batches!(pool, sql, o, payloads, base)
        }
    };
    let rows_committed = u64::try_from(db.count_samples().await?).unwrap_or(0);
    let points_per_row = match db.any_payload().await? {
        Some(p) => {
            serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(&p)?.len() as u64
        }
        None => 0,
    };
    Ok(BaselineResult {
        secs,
        batch_rows: o.batch_rows,
        rows,
        rows_committed,
        points_per_row,
    })
}

/// The second baseline: every row ingest writes for a report (the sample, the device's latest
/// values, its `last_seen`, the day's energy), written by the store's own batched prepared
/// statements (`Store::write_telemetry_batch`), `batch_rows` reports per transaction. Only the
/// writes are timed: the batches are assembled between them, outside the clock.
pub async fn run_store(o: &BaselineOptions) -> anyhow::Result<BaselineResult> {
    let db = FreshDb::create(o.db, &o.postgres_url, "baseline_rows").await?;
    let result = run_store_on(o, &db).await;
    if let Err(e) = db.remove().await {
        eprintln!("warning: could not remove the baseline database: {e}");
    }
    result
}

async fn run_store_on(o: &BaselineOptions, db: &FreshDb) -> anyhow::Result<BaselineResult> {
    use store::telemetry::{CounterKind, EnergyWrite, SampleWrite, TelemetryBatch};

    let now = chrono::Utc::now().timestamp_millis();
    let gateway = db.store.create_gateway("BASELINE-GW", "K", "", now).await?;
    let mut devices = Vec::with_capacity(o.devices.max(1));
    for d in 0..o.devices.max(1) {
        let sn = format!("BASELINE-D{d}");
        let id = db
            .store
            .upsert_device(
                &sn,
                gateway,
                DeviceFamily::Inverter,
                2,
                "deye-hybrid-1ph",
                "",
                None,
                now,
            )
            .await?;
        devices.push(id);
    }
    let payloads: Vec<String> = (0..devices.len())
        .map(|d| stored_payload(o.values, d as f64 * 0.001))
        .collect();
    let base = now - 2 * 24 * 3600 * 1000;
    let day = chrono::DateTime::from_timestamp_millis(base)
        .unwrap_or_default()
        .format("%Y-%m-%d")
        .to_string();
    let batch_rows = o.batch_rows.max(1);
    let until = Instant::now() + Duration::from_secs_f64(o.seconds);
    let mut writing = Duration::ZERO;
    let mut row = 0u64;
    while Instant::now() < until {
        let mut batch = TelemetryBatch::default();
        for _ in 0..batch_rows {
            let d = (row % devices.len() as u64) as usize;
            let ts = base + i64::try_from(row / devices.len() as u64).unwrap_or(0) * 100;
            batch.samples.push(SampleWrite {
                device_id: devices[d],
                ts,
                payload: payloads[d].clone(),
            });
            batch.energy.push(EnergyWrite {
                device_id: devices[d],
                plant_id: None,
                day: day.clone(),
                metric: "pv".into(),
                value: row as f64 * 0.001,
                kind: CounterKind::Daily,
                rank: 0,
            });
            row += 1;
        }
        let started = Instant::now();
        db.store.write_telemetry_batch(&batch).await?;
        writing += started.elapsed();
    }
    let rows_committed = u64::try_from(db.count_samples().await?).unwrap_or(0);
    let points_per_row = match db.any_payload().await? {
        Some(p) => {
            serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(&p)?.len() as u64
        }
        None => 0,
    };
    Ok(BaselineResult {
        secs: writing.as_secs_f64(),
        batch_rows,
        rows: row,
        rows_committed,
        points_per_row,
    })
}
