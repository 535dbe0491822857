//! Many gateways connected at once: `portal serve` (embedded broker, SQLite) as a process of its
//! own, N simulated gateways (`idle_gateway`) that sign in and report every period, and what the
//! portal's process costs per connection (RSS) and at rest (CPU), beside a bare TCP echo server
//! holding as many sockets and the portal with no gateway. Then the reconnect storm: the portal
//! is restarted (SIGTERM, started again on the same database) and every gateway comes back with
//! the agent's back-off; the online count per second until all are back, failed sign-ins, the
//! portal's peak RSS, and whether every acknowledged report is stored.

use std::{
    fmt::Write as _,
    net::SocketAddr,
    path::PathBuf,
    sync::{Arc, atomic::Ordering},
    time::{Duration, Instant},
};

use anyhow::{Context, bail};
use tokio::sync::Semaphore;

use crate::{
    db::{DbKind, FreshDb},
    idle_gateway::{self, Behaviour, Counters},
    load::{gateway_key, gateway_sn},
    portal_process::{self, PortalCommand, Process},
    procstat,
    rss::mib,
};

#[derive(Debug, Clone)]
pub struct ConnectionsOptions {
    pub gateways: usize,
    pub report_every: Duration,
    /// Values per report (one device).
    pub values: usize,
    /// Distinct source addresses (0: one per gateway).
    pub sources: usize,
    /// Sign-ins in progress at once while the gateways first connect.
    pub ramp: usize,
    /// How long CPU at rest is measured (with everyone connected, after one report period).
    pub rest: Duration,
    /// Restart the portal and measure the reconnect storm.
    pub storm: bool,
    /// Give up waiting for everyone (to connect, to come back) after this long.
    pub patience: Duration,
    pub portal_bin: PathBuf,
    /// The `bench` binary, for its `echo-serve` baseline.
    pub echo_bin: PathBuf,
    /// Extra `PORTAL_*` settings for the portal process.
    pub portal_env: Vec<(String, String)>,
    pub quiet: bool,
}

/// One second of a curve.
#[derive(Debug, Clone, Copy, Default)]
pub struct Point {
    pub secs: f64,
    pub online: usize,
    pub portal_rss_kib: u64,
}

#[derive(Debug, Clone, Default)]
pub struct Phase {
    pub rss_kib: u64,
    /// CPU seconds per minute over the measured span.
    pub cpu_per_min: f64,
}

#[derive(Debug, Clone, Default)]
pub struct ConnectionsResult {
    pub nofile_limit: u64,
    pub echo_empty: Phase,
    pub echo_full: Phase,
    pub portal_empty: Phase,
    pub portal_full: Phase,
    /// This process (the simulated gateways) with everyone connected.
    pub clients_rss_kib: u64,
    pub clients_cpu_per_min: f64,
    pub connect_curve: Vec<Point>,
    pub connect_secs: f64,
    pub connected: usize,
    pub rest_reports_per_sec: f64,
    pub rest_acks_per_sec: f64,
    pub storm: Option<Storm>,
    pub published: u64,
    pub acked: u64,
    pub stored: u64,
    pub sign_ins: u64,
    pub refused_tcp: u64,
    pub refused_connack: u64,
    pub timed_out: u64,
    pub first_error: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct Storm {
    pub stop_secs: f64,
    /// From SIGTERM until the first gateway signed in to the restarted portal.
    pub first_in_secs: Option<f64>,
    /// From SIGTERM until every gateway was online again (None: not within patience).
    pub all_back_secs: Option<f64>,
    pub curve: Vec<Point>,
    pub peak_rss_kib: u64,
    pub refused_tcp: u64,
    pub refused_connack: u64,
    pub timed_out: u64,
    pub in_after_retry: u64,
    pub most_attempts: u64,
}

fn say(o: &ConnectionsOptions, s: impl AsRef<str>) {
    if !o.quiet {
        println!("{}", s.as_ref());
    }
}

pub async fn run(o: &ConnectionsOptions) -> anyhow::Result<ConnectionsResult> {
    let mut r = ConnectionsResult {
        nofile_limit: procstat::raise_nofile(),
        ..ConnectionsResult::default()
    };
    // The portal needs a socket per gateway plus its database files, listeners and the like.
    let needed = o.gateways as u64 + 200;
    if r.nofile_limit < needed {
        bail!(
            "the open file limit is {} and {} gateways need about {needed} (in the portal and in \
             this process): raise it (`ulimit -n`, LimitNOFILE; see docs/operations.md)",
            r.nofile_limit,
            o.gateways
        );
    }
    let gw_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("gateways")
        .enable_all()
        .build()?;

    // Baseline: a bare echo server holding the same number of sockets.
    let (echo, echo_addr) = portal_process::start_echo(&o.echo_bin)?;
    tokio::time::sleep(Duration::from_millis(500)).await;
    r.echo_empty.rss_kib = procstat::rss_kib(echo.pid);
    let held = hold_sockets(&gw_rt, o, echo_addr).await?;
    let (rss, cpu) = at_rest(echo.pid, o.rest.min(Duration::from_secs(15))).await;
    r.echo_full = Phase {
        rss_kib: rss,
        cpu_per_min: cpu,
    };
    say(
        o,
        format!(
            "echo baseline: {held} sockets, RSS {:.1} -> {:.1} MiB",
            mib(r.echo_empty.rss_kib),
            mib(rss)
        ),
    );
    drop(echo);
    // The echo clients' tasks end with their sockets' errors; the runtime is replaced anyway.
    gw_rt.shutdown_background();

    let db = FreshDb::create(DbKind::Sqlite, "", "connections").await?;
    let result = run_portal(o, &db, &mut r).await;
    if let Err(e) = db.remove().await {
        eprintln!("warning: could not remove the benchmark database: {e}");
    }
    result.map(|()| r)
}

/// Connects N plain TCP sockets to `addr` from the gateways' source addresses and keeps them.
async fn hold_sockets(
    rt: &tokio::runtime::Runtime,
    o: &ConnectionsOptions,
    addr: SocketAddr,
) -> anyhow::Result<usize> {
    let ramp = Arc::new(Semaphore::new(o.ramp.max(1)));
    let held = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let failed = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    for i in 0..o.gateways {
        let (ramp, held, failed) = (ramp.clone(), held.clone(), failed.clone());
        let source = idle_gateway::source(i, o.sources, addr);
        rt.spawn(async move {
            let Ok(permit) = ramp.acquire().await else {
                return;
            };
            let socket = async {
                let s = tokio::net::TcpSocket::new_v4()?;
                if let Some(ip) = source {
                    s.bind(SocketAddr::new(ip, 0))?;
                }
                s.connect(addr).await
            };
            let Ok(mut stream) = socket.await else {
                failed.fetch_add(1, Ordering::Relaxed);
                return;
            };
            drop(permit);
            held.fetch_add(1, Ordering::Relaxed);
            let mut buf = [0u8; 16];
            let _ = tokio::io::AsyncReadExt::read(&mut stream, &mut buf).await;
        });
    }
    let t = Instant::now();
    while held.load(Ordering::Relaxed) + failed.load(Ordering::Relaxed) < o.gateways {
        if t.elapsed() > o.patience {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let failed = failed.load(Ordering::Relaxed);
    if failed > 0 {
        bail!("{failed} echo connections failed");
    }
    Ok(held.load(Ordering::Relaxed))
}

/// RSS at the end of `span`, and CPU seconds per minute over it, of process `pid`.
async fn at_rest(pid: u32, span: Duration) -> (u64, f64) {
    let cpu0 = procstat::cpu_time(pid);
    let t = Instant::now();
    tokio::time::sleep(span).await;
    let cpu = (procstat::cpu_time(pid) - cpu0).as_secs_f64();
    (
        procstat::rss_kib(pid),
        cpu * 60.0 / t.elapsed().as_secs_f64(),
    )
}

async fn run_portal(
    o: &ConnectionsOptions,
    db: &FreshDb,
    r: &mut ConnectionsResult,
) -> anyhow::Result<()> {
    let t = Instant::now();
    let now = chrono::Utc::now().timestamp_millis();
    for i in 0..o.gateways {
        db.store
            .create_gateway(&gateway_sn(i), &gateway_key(i), "", now)
            .await
            .context("registering gateways")?;
    }
    say(
        o,
        format!(
            "{} gateways registered in {:.1} s ({})",
            o.gateways,
            t.elapsed().as_secs_f64(),
            db.place
        ),
    );
    let mqtt = SocketAddr::from(([127, 0, 0, 1], portal_process::free_port()?));
    let http = SocketAddr::from(([127, 0, 0, 1], portal_process::free_port()?));
    let data_dir = std::env::temp_dir().join(format!("portal-bench-conn-{}", std::process::id()));
    std::fs::create_dir_all(&data_dir)?;
    let mut env: Vec<(String, String)> = vec![
        (
            "PORTAL_DATABASE_URL".into(),
            format!("sqlite://{}", db.place),
        ),
        ("PORTAL_DATA_DIR".into(), data_dir.display().to_string()),
        ("PORTAL_HTTP_ADDR".into(), http.to_string()),
        ("PORTAL_MQTT_ADDR".into(), mqtt.to_string()),
        ("PORTAL_METRICS_ADDR".into(), "off".into()),
    ];
    env.extend(o.portal_env.iter().cloned());
    let command = PortalCommand {
        bin: o.portal_bin.clone(),
        env,
        log: data_dir.join("portal.log"),
    };
    let mut portal = command.start()?;
    portal_process::wait_listening(mqtt, Duration::from_secs(60))
        .await
        .with_context(|| format!("the portal did not start; see {}", command.log.display()))?;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let (rss, cpu) = at_rest(portal.pid, o.rest.min(Duration::from_secs(15))).await;
    r.portal_empty = Phase {
        rss_kib: rss,
        cpu_per_min: cpu,
    };
    say(
        o,
        format!(
            "portal up (pid {}, MQTT {mqtt}): RSS {:.1} MiB with no gateway, {:.2} CPU s/min",
            portal.pid,
            mib(rss),
            cpu
        ),
    );

    let gw_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("gateways")
        .enable_all()
        .build()?;
    let counters = Arc::new(Counters::default());
    let ramp = Arc::new(Semaphore::new(o.ramp.max(1)));
    let how = Behaviour {
        broker: mqtt,
        sources: o.sources,
        report_every: o.report_every,
        values: o.values,
    };
    // First reports spread evenly over one period from now (a gateway not yet connected at
    // its time sends as soon as it is), so the rate at rest is N / period.
    let t0 = Instant::now();
    let start = tokio::time::Instant::now();
    for i in 0..o.gateways {
        let (counters, ramp) = (counters.clone(), ramp.clone());
        let offset = o.report_every.mul_f64(i as f64 / o.gateways.max(1) as f64);
        gw_rt.spawn(async move {
            idle_gateway::run(i, how, &counters, &ramp, start + offset).await;
        });
    }
    let followed = follow(o, &counters, &mut portal, t0, 0, "connect").await;
    r.connect_curve = followed.curve;
    r.connected = counters.online();
    r.connect_secs = followed.all.unwrap_or(t0.elapsed().as_secs_f64());
    if followed.all.is_none() {
        say(
            o,
            format!(
                "only {} of {} connected within {:?}: {}",
                r.connected,
                o.gateways,
                o.patience,
                first_error(&counters)
            ),
        );
    }

    // At rest: one report period in, everyone reporting once per period.
    let settle = (start + o.report_every).saturating_duration_since(tokio::time::Instant::now());
    say(
        o,
        format!(
            "waiting {:.0} s for the first full report period",
            settle.as_secs_f64()
        ),
    );
    tokio::time::sleep(settle).await;
    let (pub0, ack0) = (
        counters.get(&counters.published),
        counters.get(&counters.acked),
    );
    let me = std::process::id();
    let clients_cpu0 = procstat::cpu_time(me);
    let rest_t = Instant::now();
    let (rss, cpu) = at_rest(portal.pid, o.rest).await;
    let rest_secs = rest_t.elapsed().as_secs_f64();
    r.portal_full = Phase {
        rss_kib: rss,
        cpu_per_min: cpu,
    };
    r.clients_cpu_per_min =
        (procstat::cpu_time(me) - clients_cpu0).as_secs_f64() * 60.0 / rest_secs;
    r.clients_rss_kib = procstat::rss_kib(me);
    r.rest_reports_per_sec = (counters.get(&counters.published) - pub0) as f64 / rest_secs;
    r.rest_acks_per_sec = (counters.get(&counters.acked) - ack0) as f64 / rest_secs;
    say(
        o,
        format!(
            "at rest ({:.0} s, {} online): portal RSS {:.1} MiB, {:.2} CPU s/min; {:.0} reports/s sent, {:.0} acknowledged/s",
            rest_secs,
            counters.online(),
            mib(rss),
            cpu,
            r.rest_reports_per_sec,
            r.rest_acks_per_sec
        ),
    );

    if o.storm {
        r.storm = Some(storm(o, &counters, &command, &mut portal).await?);
        // Everyone back: one more period, so every gateway reports after the restart.
        say(o, "one more report period after the storm");
        tokio::time::sleep(o.report_every).await;
    }

    // Stop sending, let the last reports be acknowledged, then count what is stored.
    counters.quiet.store(true, Ordering::Relaxed);
    let drain = Instant::now();
    while counters.get(&counters.acked) < counters.get(&counters.published)
        && drain.elapsed() < Duration::from_secs(60)
    {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    counters.stop.store(true, Ordering::Relaxed);
    gw_rt.shutdown_background();
    let _ = portal.stop(Duration::from_secs(30)).await;
    r.published = counters.get(&counters.published);
    r.acked = counters.get(&counters.acked);
    r.stored = u64::try_from(db.count_samples().await?).unwrap_or(0);
    r.sign_ins = counters.get(&counters.sign_ins);
    r.refused_tcp = counters.get(&counters.refused_tcp);
    r.refused_connack = counters.get(&counters.refused_connack);
    r.timed_out = counters.get(&counters.timed_out);
    r.first_error = counters.first_error.lock().ok().and_then(|e| e.clone());
    let _ = std::fs::remove_dir_all(&data_dir);
    Ok(())
}

fn first_error(c: &Counters) -> String {
    c.first_error
        .lock()
        .ok()
        .and_then(|e| e.clone())
        .unwrap_or_else(|| "no error seen".into())
}

/// What [`follow`] saw.
struct Followed {
    curve: Vec<Point>,
    /// Seconds from `t0` until every gateway had signed in again and was online.
    all: Option<f64>,
    /// Seconds from `t0` until the first of them signed in.
    first: Option<f64>,
    peak_rss_kib: u64,
}

/// The online count once a second (and the portal's RSS every 100 ms) until every gateway has
/// signed in since `t0` (sign-ins counted from `sign_ins_before`) and is online, or patience
/// runs out.
async fn follow(
    o: &ConnectionsOptions,
    c: &Counters,
    portal: &mut Process,
    t0: Instant,
    sign_ins_before: u64,
    what: &str,
) -> Followed {
    let mut f = Followed {
        curve: Vec::new(),
        all: None,
        first: None,
        peak_rss_kib: 0,
    };
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    let mut next_line = Duration::ZERO;
    loop {
        tick.tick().await;
        let online = c.online();
        let signed_in = c.get(&c.sign_ins) - sign_ins_before;
        let secs = t0.elapsed();
        let rss = procstat::rss_kib(portal.pid);
        f.peak_rss_kib = f.peak_rss_kib.max(rss);
        if signed_in > 0 && f.first.is_none() {
            f.first = Some(secs.as_secs_f64());
        }
        let done = online >= o.gateways && signed_in >= o.gateways as u64;
        if done || secs >= next_line {
            f.curve.push(Point {
                secs: secs.as_secs_f64(),
                online,
                portal_rss_kib: rss,
            });
            say(
                o,
                format!(
                    "  {what} {:>5.1} s  online {:>7}  portal RSS {:>7.1} MiB",
                    secs.as_secs_f64(),
                    online,
                    mib(rss)
                ),
            );
            next_line += Duration::from_secs(1);
        }
        if done {
            f.all = Some(secs.as_secs_f64());
            return f;
        }
        if secs > o.patience || portal.exited() {
            return f;
        }
    }
}

async fn storm(
    o: &ConnectionsOptions,
    c: &Counters,
    command: &PortalCommand,
    portal: &mut Process,
) -> anyhow::Result<Storm> {
    let before = (
        c.get(&c.refused_tcp),
        c.get(&c.refused_connack),
        c.get(&c.timed_out),
        c.get(&c.in_after_retry),
    );
    c.most_attempts.store(0, Ordering::Relaxed);
    say(
        o,
        "storm: restarting the portal (SIGTERM, then started again)",
    );
    let sign_ins = c.get(&c.sign_ins);
    let t0 = Instant::now();
    let stop = portal.stop(Duration::from_secs(30)).await?;
    *portal = command.start()?;
    let f = follow(o, c, portal, t0, sign_ins, "storm").await;
    Ok(Storm {
        stop_secs: stop.as_secs_f64(),
        first_in_secs: f.first,
        all_back_secs: f.all,
        curve: f.curve,
        peak_rss_kib: f.peak_rss_kib,
        refused_tcp: c.get(&c.refused_tcp) - before.0,
        refused_connack: c.get(&c.refused_connack) - before.1,
        timed_out: c.get(&c.timed_out) - before.2,
        in_after_retry: c.get(&c.in_after_retry) - before.3,
        most_attempts: c.get(&c.most_attempts),
    })
}

fn per_connection_kib(empty: u64, full: u64, n: usize) -> f64 {
    full.saturating_sub(empty) as f64 / n.max(1) as f64
}

/// The curve as a table, about `rows` lines.
fn curve_table(out: &mut String, curve: &[Point], rows: usize) {
    let Some(last) = curve.last() else {
        return;
    };
    let step = (last.secs / rows.max(1) as f64).ceil().max(1.0);
    let mut next = 0.0;
    let _ = writeln!(
        out,
        "    {:>7}  {:>8}  {:>14}",
        "s", "online", "portal RSS MiB"
    );
    for (i, p) in curve.iter().enumerate() {
        if p.secs + 1e-9 >= next || i + 1 == curve.len() {
            let _ = writeln!(
                out,
                "    {:>7.1}  {:>8}  {:>14.1}",
                p.secs,
                p.online,
                mib(p.portal_rss_kib)
            );
            next = p.secs + step - 0.5;
        }
    }
}

pub fn render(o: &ConnectionsOptions, r: &ConnectionsResult) -> String {
    let mut out = String::new();
    let n = o.gateways;
    let sources = if o.sources == 0 {
        "one loopback source address each".to_string()
    } else {
        format!("{} loopback source addresses", o.sources)
    };
    let _ = writeln!(
        out,
        "connections: {n} gateways ({sources}), one report of {} values every {} s each; open file limit {}",
        o.values,
        o.report_every.as_secs_f64(),
        r.nofile_limit
    );
    let echo_per = per_connection_kib(r.echo_empty.rss_kib, r.echo_full.rss_kib, n);
    let _ = writeln!(
        out,
        "  baseline, bare tokio echo server process: RSS {:.1} MiB empty, {:.1} MiB holding {n} sockets = {:.1} KiB per socket; CPU at rest {:.2} s/min",
        mib(r.echo_empty.rss_kib),
        mib(r.echo_full.rss_kib),
        echo_per,
        r.echo_full.cpu_per_min
    );
    let portal_per = per_connection_kib(r.portal_empty.rss_kib, r.portal_full.rss_kib, n);
    let _ = writeln!(
        out,
        "  portal process: RSS {:.1} MiB with no gateway, {:.1} MiB with {} connected = {:.1} KiB per connection ({:.1} x the echo server's); CPU at rest {:.2} s/min with no gateway, {:.2} s/min with all connected",
        mib(r.portal_empty.rss_kib),
        mib(r.portal_full.rss_kib),
        r.connected,
        portal_per,
        portal_per / echo_per.max(1e-9),
        r.portal_empty.cpu_per_min,
        r.portal_full.cpu_per_min
    );
    let _ = writeln!(
        out,
        "  at 100,000 connections that is about {:.0} MiB (extrapolated from the per-connection figure)",
        mib(r.portal_empty.rss_kib) + portal_per * 100_000.0 / 1024.0
    );
    let _ = writeln!(
        out,
        "  simulated gateways (this process, not the portal): RSS {:.1} MiB = {:.1} KiB per gateway; CPU {:.2} s/min",
        mib(r.clients_rss_kib),
        r.clients_rss_kib as f64 / n.max(1) as f64,
        r.clients_cpu_per_min
    );
    let _ = writeln!(
        out,
        "  connect: {} of {n} online after {:.1} s; at rest {:.1} reports/s sent, {:.1} acknowledged/s",
        r.connected, r.connect_secs, r.rest_reports_per_sec, r.rest_acks_per_sec
    );
    curve_table(&mut out, &r.connect_curve, 10);
    if let Some(s) = &r.storm {
        let back = s.all_back_secs.map_or_else(
            || format!("NOT all back within {:?}", o.patience),
            |t| format!("all {n} back after {t:.1} s"),
        );
        let _ = writeln!(
            out,
            "  storm (portal restarted: SIGTERM, exited after {:.1} s, started again): first sign-in after {}, {back}; portal peak RSS {:.1} MiB",
            s.stop_secs,
            s.first_in_secs.map_or("-".into(), |t| format!("{t:.1} s")),
            mib(s.peak_rss_kib)
        );
        let _ = writeln!(
            out,
            "  failed sign-ins during the storm: {} TCP refused or reset, {} CONNACK refusals, {} timeouts; {} gateways got in after retrying (most attempts by one: {})",
            s.refused_tcp, s.refused_connack, s.timed_out, s.in_after_retry, s.most_attempts
        );
        curve_table(&mut out, &s.curve, 20);
    }
    let lost = r.acked.saturating_sub(r.stored);
    let _ = writeln!(
        out,
        "  reports: {} sent, {} acknowledged, {} stored; acknowledged but not stored: {lost}",
        r.published, r.acked, r.stored
    );
    let _ = writeln!(
        out,
        "  all runs: {} sign-ins, {} TCP refused or reset, {} CONNACK refusals, {} timeouts{}",
        r.sign_ins,
        r.refused_tcp,
        r.refused_connack,
        r.timed_out,
        r.first_error
            .as_ref()
            .map_or(String::new(), |e| format!("; first error: {e}"))
    );
    out
}

impl ConnectionsResult {
    /// Every acknowledged report stored, everyone connected, and (after a storm) back.
    pub fn complete(&self, gateways: usize) -> bool {
        self.stored >= self.acked
            && self.acked == self.published
            && self.connected == gateways
            && self
                .storm
                .as_ref()
                .is_none_or(|s| s.all_back_secs.is_some())
    }
}

/// `bench connections`.
#[derive(Debug, Clone, clap::Args)]
pub struct ConnectionsArgs {
    /// Simulated gateways, one MQTT connection each.
    #[arg(long, default_value_t = 10_000)]
    pub gateways: usize,
    /// Seconds between two reports of one gateway (the reports of all are spread evenly).
    #[arg(long, default_value_t = 60.0)]
    pub report_every: f64,
    /// Values per report.
    #[arg(long, default_value_t = 30)]
    pub values: usize,
    /// Distinct loopback source addresses the gateways share (0: one each, as gateways on
    /// their own lines; fewer stand for gateways behind a NAT and meet the broker's
    /// per-address limits).
    #[arg(long, default_value_t = 0)]
    pub sources: usize,
    /// Sign-ins in progress at once while the gateways first connect.
    #[arg(long, default_value_t = 256)]
    pub ramp: usize,
    /// Seconds CPU at rest is measured with everyone connected.
    #[arg(long, default_value_t = 60.0)]
    pub rest: f64,
    /// Skip the reconnect storm.
    #[arg(long)]
    pub no_storm: bool,
    /// Seconds to wait for everyone to connect, and to come back after the restart.
    #[arg(long, default_value_t = 180.0)]
    pub patience: f64,
    /// The `portal` binary (default: next to this one; `cargo build --release -p portal`).
    #[arg(long)]
    pub portal_bin: Option<PathBuf>,
    /// Extra settings for the portal process, NAME=VALUE (e.g.
    /// PORTAL_MQTT_MAX_CONNECTIONS_PER_ADDRESS=20000).
    #[arg(long = "portal-env")]
    pub portal_env: Vec<String>,
}

impl ConnectionsArgs {
    pub fn options(&self) -> anyhow::Result<ConnectionsOptions> {
        let portal_bin = match &self.portal_bin {
            Some(b) => b.clone(),
            None => portal_process::portal_beside_this().context(
                "no portal binary next to this one: build it (`cargo build --release -p portal`) \
                 or name it with --portal-bin",
            )?,
        };
        let portal_env = self
            .portal_env
            .iter()
            .map(|kv| {
                kv.split_once('=')
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .with_context(|| format!("--portal-env {kv}: expected NAME=VALUE"))
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(ConnectionsOptions {
            gateways: self.gateways.max(1),
            report_every: Duration::from_secs_f64(self.report_every.max(0.1)),
            values: self.values.max(1),
            sources: self.sources,
            ramp: self.ramp.max(1),
            rest: Duration::from_secs_f64(self.rest.max(1.0)),
            storm: !self.no_storm,
            patience: Duration::from_secs_f64(self.patience.max(1.0)),
            portal_bin,
            echo_bin: std::env::current_exe()?,
            portal_env,
            quiet: false,
        })
    }
}
