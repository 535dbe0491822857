//! History storage benchmark: simulated gateways (the demo's plant models, every inverter
//! family, meters, batteries, weather stations) report every five minutes for some days
//! through ingest into a fresh database; then the closed days are compacted into blocks.
//! Printed: bytes on disk per data point as rows (the baseline, the same samples before
//! compaction) and as blocks, the compaction's speed, and a day read from rows and from a
//! block.

use std::time::Instant;

use domain::ids::DeviceId;

use anyhow::Context;
use chrono::{DateTime, Duration as Days, NaiveDate, Utc};
use devices::{
    history::{HistoryOptions, day_bounds},
    ingest::{Ingest, IngestOptions},
    report::{Item, Submission},
};
use sim::fleet::SimGateway;
use store::history::HistorySize;
use tokio::sync::{mpsc, oneshot};

use crate::{
    db::{DbKind, FreshDb},
    stats::Latency,
};

/// Seconds between two reports of a gateway.
const REPORT_EVERY_S: i64 = 300;

#[derive(Debug, Clone)]
pub struct HistoryBenchOptions {
    pub db: DbKind,
    pub postgres_url: String,
    pub gateways: usize,
    pub days: i64,
    /// Day reads measured from rows and from blocks.
    pub reads: usize,
}

#[derive(Debug, Clone)]
pub struct HistoryResult {
    pub devices: usize,
    pub rows: i64,
    pub points: i64,
    /// On disk, table and indexes.
    pub rows_bytes: Option<i64>,
    /// The stored JSON texts alone.
    pub payload_bytes: i64,
    pub blocks: HistorySize,
    pub blocks_bytes: Option<i64>,
    pub rows_left: i64,
    pub ingest_secs: f64,
    pub compact_secs: f64,
    pub read_rows: Latency,
    pub read_blocks: Latency,
}

pub async fn run(o: &HistoryBenchOptions) -> anyhow::Result<HistoryResult> {
    let db = FreshDb::create(o.db, &o.postgres_url, "history").await?;
    let result = run_on(o, &db).await;
    if let Err(e) = db.remove().await {
        eprintln!("warning: could not remove the benchmark database: {e}");
    }
    result
}

async fn run_on(o: &HistoryBenchOptions, db: &FreshDb) -> anyhow::Result<HistoryResult> {
    let store = db.store.clone();
    let now = domain::time::now_ms();
    devices::protocol::stored::seed(&store, now).await?;
    let protocols = devices::protocol::stored::load(&store).await?;
    let configs = protocols.clone();
    let (tx, rx) = mpsc::channel(4096);
    let ingest = Ingest::spawn(
        store.clone(),
        rx,
        IngestOptions {
            protocols,
            ..IngestOptions::default()
        },
    );
    let mut fleet: Vec<SimGateway> = sim::fleet::demo_fleet(o.gateways, 7)
        .into_iter()
        .map(SimGateway::new)
        .collect();
    for gw in &fleet {
        store
            .create_gateway(&gw.spec.sn, &gw.spec.key, "", now)
            .await?;
    }
    // Whole UTC days (the gateways have no plant, so their days are UTC days), ending
    // yesterday.
    let today = Utc::now().date_naive();
    let first = today - Days::days(o.days);
    let start = DateTime::<Utc>::from_naive_utc_and_offset(
        first.and_hms_opt(0, 0, 0).context("midnight")?,
        Utc,
    );
    let reports = o.days * 86_400 / REPORT_EVERY_S;
    let started = Instant::now();
    let mut pending = Vec::new();
    for i in 0..reports {
        let at = start + Days::seconds(i * REPORT_EVERY_S);
        for gw in fleet.iter_mut() {
            let (_, telemetry) = gw.telemetry(at, REPORT_EVERY_S as f64, &configs);
            let (done, answer) = oneshot::channel();
            tx.send(Submission {
                gateway_sn: gw.spec.sn.clone(),
                item: Item::Telemetry(telemetry.into()),
                done,
            })
            .await
            .context("ingest stopped")?;
            pending.push(answer);
        }
        if pending.len() >= 4096 {
            for answer in pending.drain(..) {
                let _ = answer.await;
            }
        }
    }
    for answer in pending {
        let _ = answer.await;
    }
    drop(tx);
    drop(ingest);
    let ingest_secs = started.elapsed().as_secs_f64();

    let rows = db.count_samples().await?;
    let payload_bytes = db.payload_bytes().await?;
    let rows_bytes = db.table_bytes("samples").await?;
    let device = store
        .oldest_sample_rows()
        .await?
        .first()
        .map(|(d, _)| *d)
        .context("no samples were stored")?;
    let read_day = first + Days::days(o.days / 2);
    let read_rows = day_reads(&store, device, read_day, o.reads).await?;

    let started = Instant::now();
    let done = devices::history::upkeep(
        &store,
        Utc::now().timestamp_millis() + 86_400_000,
        &HistoryOptions::default(),
    )
    .await?;
    let compact_secs = started.elapsed().as_secs_f64();
    db.reclaim().await?;
    let blocks = store.history_size().await?;
    let blocks_bytes = db.table_bytes("sample_blocks").await?;
    let read_blocks = day_reads(&store, device, read_day, o.reads).await?;
    anyhow::ensure!(
        done.rows == u64::try_from(rows).unwrap_or(0),
        "compaction moved {} of {rows} rows",
        done.rows
    );
    Ok(HistoryResult {
        devices: store.device_zones().await?.len(),
        rows,
        points: blocks.block_points,
        rows_bytes,
        payload_bytes,
        blocks,
        blocks_bytes,
        rows_left: blocks.rows,
        ingest_secs,
        compact_secs,
        read_rows,
        read_blocks,
    })
}

/// Server-side time of reading one device's day as the day curve does (thinned to a minute).
async fn day_reads(
    store: &store::Store,
    device: DeviceId,
    day: NaiveDate,
    reads: usize,
) -> anyhow::Result<Latency> {
    let (from, to) = day_bounds(chrono_tz::Tz::UTC, day);
    let mut times = Vec::with_capacity(reads);
    for _ in 0..reads.max(1) {
        let t = Instant::now();
        let samples = store.samples_thinned(device, from, to, 60_000).await?;
        anyhow::ensure!(!samples.is_empty(), "no samples on {day}");
        times.push(t.elapsed());
    }
    Ok(Latency::of(&mut times))
}

fn per_point(bytes: i64, points: i64) -> String {
    if points == 0 {
        return "-".into();
    }
    format!("{:.2}", bytes as f64 / points as f64)
}

pub fn render(o: &HistoryBenchOptions, r: &HistoryResult) -> String {
    let mut out = String::new();
    let disk = |b: Option<i64>| b.map_or("(not measurable)".to_string(), |b| format!("{b}"));
    out.push_str(&format!(
        "history: {} gateways ({} devices) on {}, {} days every {} s: {} samples, {} data points ({:.0} s through ingest)\n",
        o.gateways, r.devices, o.db, o.days, REPORT_EVERY_S, r.rows, r.points, r.ingest_secs
    ));
    out.push_str(&format!(
        "  rows (baseline):  {} bytes on disk = {} bytes/point (JSON text alone {} bytes = {} bytes/point)\n",
        disk(r.rows_bytes),
        r.rows_bytes.map_or("-".into(), |b| per_point(b, r.points)),
        r.payload_bytes,
        per_point(r.payload_bytes, r.points)
    ));
    out.push_str(&format!(
        "  blocks:           {} bytes on disk = {} bytes/point ({} blocks, data alone {} bytes = {} bytes/point); rows left {}\n",
        disk(r.blocks_bytes),
        r.blocks_bytes.map_or("-".into(), |b| per_point(b, r.points)),
        r.blocks.blocks,
        r.blocks.block_bytes,
        per_point(r.blocks.block_bytes, r.points),
        r.rows_left
    ));
    if let (Some(rows), Some(blocks)) = (r.rows_bytes, r.blocks_bytes) {
        out.push_str(&format!(
            "  blocks / rows on disk: {:.3} (target: at most 2 bytes/point)\n",
            blocks as f64 / rows.max(1) as f64
        ));
    }
    out.push_str(&format!(
        "  compaction: {} device-days in {:.1} s = {:.0} rows/s\n",
        r.blocks.blocks,
        r.compact_secs,
        r.rows as f64 / r.compact_secs.max(1e-9)
    ));
    out.push_str(&format!(
        "  one device-day read (thinned to a minute): rows p50 {:.2} ms p99 {:.2} ms; block p50 {:.2} ms p99 {:.2} ms; block / rows p50 {:.2}\n",
        r.read_rows.p50_ms,
        r.read_rows.p99_ms,
        r.read_blocks.p50_ms,
        r.read_blocks.p99_ms,
        r.read_blocks.p50_ms / r.read_rows.p50_ms.max(1e-9)
    ));
    out
}
