//! End to end: the portal's device side as `portal serve` starts it (embedded broker, the
//! portal's MQTT client, ingest on a fresh database), N gateways over MQTT publishing
//! telemetry with QoS 1 as fast as it is acknowledged, and what was committed counted in the
//! database afterwards.

use std::{
    net::SocketAddr,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use anyhow::{Context, bail};
use devices::{
    ingest::{Ingest, IngestOptions},
    link::{BrokerChoice, BrokerConfig, ClientConfig, CommLogConfig, Link, LinkConfig},
};
use store::Store;
use tokio::sync::Semaphore;

use crate::{
    db::{DbKind, FreshDb},
    load::{Load, gateway, gateway_key, gateway_sn, release_permits},
    payload::{Template, device_sn},
    rss::{RssSampler, mib, rss_kib},
    stats::Latency,
};

#[derive(Debug, Clone)]
pub struct E2eOptions {
    pub db: DbKind,
    pub postgres_url: String,
    pub gateways: usize,
    /// Devices in each report (each is one `samples` row).
    pub devices_per_message: usize,
    /// Values per device reading (data points).
    pub values: usize,
    pub seconds: f64,
    /// Reports in flight end to end (published, not yet acknowledged by the portal after its
    /// commit) per gateway; the budget is shared by all gateways.
    pub window: u16,
    /// Progress line interval.
    pub report_every: Duration,
    /// Pause between realtime reads.
    pub read_every: Duration,
    /// After the run, how long to wait for every published message to be acknowledged.
    pub drain_timeout: Duration,
    pub quiet: bool,
    /// Capture the communication log (as `portal serve` does by default).
    pub comm_log: bool,
    /// Batches ingest writes at once (0: ingest's default for the backend).
    pub writes_in_flight: usize,
    /// How long ingest waits for more reports after a batch's first (zero by default).
    pub max_wait: Duration,
    /// How long a calm gateway's report waits for company (`IngestOptions::calm_wait`).
    pub calm_wait: Duration,
}

#[derive(Debug, Clone, Default)]
pub struct E2eResult {
    /// Whether the communication log captured messages in this run.
    pub comm_log: bool,
    /// Messages the communication log wrote, and dropped (its buffer was full).
    pub comm_log_written: u64,
    pub comm_log_dropped: u64,
    /// Bytes the communication log's table and indexes take, when the database tells.
    pub comm_log_bytes: Option<i64>,
    /// Measured window: from all gateways connected to the end of the run.
    pub secs: f64,
    pub messages_in_window: u64,
    /// Every message the portal acknowledged after its commit, including the drain.
    pub messages_acked: u64,
    pub messages_published: u64,
    /// PUBACKs the gateways got from the broker (the broker holds it; not yet committed).
    pub messages_broker_acked: u64,
    pub rows_expected: u64,
    pub rows_committed: u64,
    pub points_per_row: u64,
    pub connection_errors: u64,
    pub portal_not_committed: u64,
    pub rss_start_mib: f64,
    pub rss_peak_mib: f64,
    pub rss_end_mib: f64,
    /// RSS at each progress line, for a flatness check over long runs.
    pub rss_trace_mib: Vec<f64>,
    pub latest_cache: Latency,
    pub latest_db: Latency,
    pub place: String,
    /// CPU seconds in the measured window: the portal's threads, the gateways', the database's
    /// (SQLite's threads, or the PostgreSQL backends serving the portal).
    pub cpu: crate::cpu::Split,
}

impl E2eResult {
    pub fn messages_per_sec(&self) -> f64 {
        self.messages_in_window as f64 / self.secs.max(1e-9)
    }
    pub fn rows_per_sec(&self, devices_per_message: usize) -> f64 {
        self.messages_per_sec() * devices_per_message as f64
    }
    pub fn points_per_sec(&self, devices_per_message: usize) -> f64 {
        self.rows_per_sec(devices_per_message) * self.points_per_row as f64
    }
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

pub async fn run(o: &E2eOptions) -> anyhow::Result<E2eResult> {
    let say = |s: String| {
        if !o.quiet {
            println!("{s}");
        }
    };
    let db = FreshDb::create(o.db, &o.postgres_url, "e2e").await?;
    let result = run_on(o, &db, &say).await;
    if let Err(e) = db.remove().await {
        eprintln!("warning: could not remove the benchmark database: {e}");
    }
    result
}

async fn run_on(o: &E2eOptions, db: &FreshDb, say: &dyn Fn(String)) -> anyhow::Result<E2eResult> {
    let store = db.store.clone();
    let now = now_ms();
    for i in 0..o.gateways {
        store
            .create_gateway(&gateway_sn(i), &gateway_key(i), "", now)
            .await
            .context("registering gateways")?;
    }

    // The device side exactly as `portal serve` starts it (serve.rs `start_devices` with the
    // defaults of config.rs `link()`), the broker on a free loopback port.
    let (tx, rx) = tokio::sync::mpsc::channel(4096);
    let ingest = Ingest::spawn(
        store.clone(),
        rx,
        IngestOptions {
            writes_in_flight: o.writes_in_flight,
            max_wait: o.max_wait,
            calm_wait: o.calm_wait,
            ..IngestOptions::default()
        },
    );
    let broker = BrokerConfig::new(SocketAddr::from(([127, 0, 0, 1], 0)));
    let link = Link::start(
        store.clone(),
        LinkConfig {
            broker: BrokerChoice::Embedded(broker),
            client: ClientConfig::new("127.0.0.1", 0, "portal-bench"),
            sweep_every: Duration::from_secs(5),
            comm_log: CommLogConfig {
                enabled: o.comm_log,
                ..CommLogConfig::default()
            },
        },
        tx,
    )
    .await
    .context("starting the device link")?;
    if !link.client.ready(Duration::from_secs(15)).await {
        bail!("the portal's MQTT client did not connect to the embedded broker");
    }
    let addr = link.broker_addr().context("no embedded broker address")?;
    say(format!(
        "  portal device side up: broker {addr}, database {}",
        db.place
    ));

    // Gateways run on a runtime of their own (one thread), as they would be other machines;
    // they still share this machine's cores with the portal.
    let gw_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("gateways")
        .enable_all()
        .build()?;
    let budget = o.gateways * usize::from(o.window.max(1));
    let load = Arc::new(Load {
        stop: AtomicBool::new(false),
        connected: AtomicUsize::new(0),
        published: AtomicU64::new(0),
        broker_acked: AtomicU64::new(0),
        errors: AtomicU64::new(0),
        first_error: Mutex::new(None),
        budget: Semaphore::new(budget),
    });
    // The portal's own count of messages acknowledged after commit.
    let committed = link.client.stats();
    let releaser = tokio::spawn(release_permits(load.clone(), committed.clone()));
    // Reports are 100 ms of model time apart, starting two days ago: unique (device, ts) and
    // inside ingest's accepted time range for more than a million reports per gateway.
    let base_ts = now - 2 * 24 * 3600 * 1000;
    let connect_deadline = Instant::now() + Duration::from_secs(30 + o.gateways as u64 / 50);
    let mut tasks = Vec::with_capacity(o.gateways);
    for i in 0..o.gateways {
        tasks.push(gw_rt.spawn(gateway(
            i,
            addr,
            o.window,
            load.clone(),
            Template::new(&gateway_sn(i), o.devices_per_message, o.values),
            base_ts,
            tokio::time::Instant::from_std(connect_deadline),
        )));
    }
    while load.connected.load(Ordering::Relaxed) < o.gateways {
        let failed = load.errors.load(Ordering::Relaxed) > 0;
        if failed || Instant::now() > connect_deadline {
            load.stop.store(true, Ordering::Relaxed);
            load.budget.close();
            releaser.abort();
            gw_rt.shutdown_background();
            bail!(
                "only {} of {} gateways connected{}",
                load.connected.load(Ordering::Relaxed),
                o.gateways,
                if failed {
                    format!("; {}", load.first_error())
                } else {
                    String::new()
                }
            );
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // The measured window starts now.
    let rss = RssSampler::start();
    let rss_start = rss_kib();
    let pids_start = db.backend_pids().await?;
    let backends_start = crate::cpu::backends_secs(&pids_start);
    let cpu_start = crate::cpu::split_now();
    let t0 = Instant::now();
    let acked0 = committed.acked.load(Ordering::Relaxed);
    let reading = Arc::new(AtomicBool::new(true));
    let reader = tokio::spawn(read_latest(
        store.clone(),
        ingest.clone(),
        device_sn(&gateway_sn(0), 0),
        o.read_every,
        reading.clone(),
    ));
    let deadline = t0 + Duration::from_secs_f64(o.seconds);
    let mut last = (t0, acked0);
    let mut trace = Vec::new();
    let mut next_report = t0 + o.report_every;
    loop {
        let now = Instant::now();
        if now >= deadline {
            break;
        }
        tokio::time::sleep((deadline - now).min(next_report.saturating_duration_since(now))).await;
        let now = Instant::now();
        if now >= next_report || now >= deadline {
            let acked = committed.acked.load(Ordering::Relaxed);
            let dt = now.duration_since(last.0).as_secs_f64().max(1e-9);
            let msgs = (acked - last.1) as f64 / dt;
            let rss_now = mib(rss_kib());
            trace.push(rss_now);
            say(format!(
                "  {:>6.0} s  {:>9.0} msg/s  {:>11.0} points/s  RSS {:>7.1} MiB",
                now.duration_since(t0).as_secs_f64(),
                msgs,
                msgs * (o.devices_per_message * o.values) as f64,
                rss_now
            ));
            last = (now, acked);
            next_report += o.report_every;
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    let in_window = committed.acked.load(Ordering::Relaxed) - acked0;
    let cpu_end = crate::cpu::split_now();
    let mut pids_end = db.backend_pids().await?;
    pids_end.extend(pids_start.iter().copied());
    pids_end.sort_unstable();
    pids_end.dedup();
    let backends_end = crate::cpu::backends_secs(&pids_end);
    let mut cpu = cpu_end.minus(&cpu_start);
    cpu.database += crate::cpu::backends_delta(&backends_start, &backends_end);
    reading.store(false, Ordering::Relaxed);
    let rss_end = rss_kib();

    // Stop publishing and wait until the portal acknowledged (= committed) all that was sent.
    load.stop.store(true, Ordering::Relaxed);
    load.budget.close();
    let drained = tokio::time::timeout(o.drain_timeout, async {
        for t in tasks {
            let _ = t.await;
        }
        while committed.acked.load(Ordering::Relaxed) < load.published.load(Ordering::Relaxed) {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .is_ok();
    releaser.abort();
    if !drained {
        eprintln!(
            "warning: not every published message was acknowledged within {:?}",
            o.drain_timeout
        );
    }
    gw_rt.shutdown_background();
    let errors = load.errors.load(Ordering::Relaxed);
    if errors > 0 {
        eprintln!(
            "warning: {errors} gateway connection(s) failed; the first: {}",
            load.first_error()
        );
    }
    let (mut cache_lat, mut db_lat) = reader.await.unwrap_or_default();
    let samples = rss.finish();
    let peak = samples.iter().copied().max().unwrap_or(0).max(rss_end);

    let acked = committed.acked.load(Ordering::Relaxed);
    let rows_committed = u64::try_from(db.count_samples().await?).unwrap_or(0);
    let points_per_row = match db.any_payload().await? {
        Some(p) => {
            serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(&p)?.len() as u64
        }
        None => 0,
    };
    let stats = link.client.stats();
    let not_committed = stats.not_committed.load(Ordering::Relaxed);
    // What was noted last is written before the log is measured.
    link.comm_log.flush(&store).await;
    let (comm_log_written, comm_log_dropped) = (link.comm_log.written(), link.comm_log.dropped());
    let comm_log_bytes = if o.comm_log {
        db.comm_log_bytes().await?
    } else {
        None
    };
    drop(link);
    if tokio::time::timeout(Duration::from_secs(10), ingest.join())
        .await
        .is_err()
    {
        eprintln!("warning: ingest did not stop within 10 s");
    }
    Ok(E2eResult {
        comm_log: o.comm_log,
        comm_log_written,
        comm_log_dropped,
        comm_log_bytes,
        secs,
        messages_in_window: in_window,
        messages_acked: acked,
        messages_published: load.published.load(Ordering::Relaxed),
        messages_broker_acked: load.broker_acked.load(Ordering::Relaxed),
        rows_expected: acked * o.devices_per_message as u64,
        rows_committed,
        points_per_row,
        connection_errors: load.errors.load(Ordering::Relaxed),
        portal_not_committed: not_committed,
        rss_start_mib: mib(rss_start),
        rss_peak_mib: mib(peak),
        rss_end_mib: mib(rss_end),
        rss_trace_mib: trace,
        latest_cache: Latency::of(&mut cache_lat),
        latest_db: Latency::of(&mut db_lat),
        place: db.place.clone(),
        cpu,
    })
}

/// Reads one device's latest values in a loop while ingest runs: through ingest (memory, the
/// store on a miss) and straight from the store (`device_latest`).
async fn read_latest(
    store: Store,
    ingest: Ingest,
    device: String,
    every: Duration,
    running: Arc<AtomicBool>,
) -> (Vec<Duration>, Vec<Duration>) {
    let (mut cache, mut db) = (Vec::new(), Vec::new());
    let id = loop {
        if !running.load(Ordering::Relaxed) {
            return (cache, db);
        }
        if let Ok(Some(d)) = store.device_by_sn(&device).await {
            break d.id;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    while running.load(Ordering::Relaxed) {
        let t = Instant::now();
        let hit = ingest.latest(id).await;
        let took = t.elapsed();
        if matches!(hit, Ok(Some(_))) {
            cache.push(took);
        }
        let t = Instant::now();
        let row = store.latest_sample(id).await;
        let took = t.elapsed();
        if matches!(row, Ok(Some(_))) {
            db.push(took);
        }
        tokio::time::sleep(every).await;
    }
    (cache, db)
}
