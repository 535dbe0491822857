//! The gateway agent's costs (`bench agent`), against the device emulators of `sim::emulate`:
//! - one poll of 10 inverters on one emulated RS485 bus at 9600 baud, timed through the agent's
//!   own poller, against the bus's physical limit (every byte of every request and reply on
//!   the wire at 10 bits per byte, nothing else);
//! - one poll of 100 inverters behind one Modbus TCP server, against a bare client sending the
//!   same requests back to back on one connection (no checks, no buffering) in the same run;
//! - the `portal-agent` binary as a process reading 10 inverters over Modbus TCP and reporting
//!   to the portal's embedded broker and ingest (SQLite): its resident memory and its CPU time
//!   per poll.
//!
//! Run by hand in release (docs/performance.md).

use std::{
    fmt::Write as _,
    net::SocketAddr,
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use anyhow::{Context, bail};
use devices::{
    decode::{ReadRequest, plan_reads},
    ingest::{Ingest, IngestOptions},
    link::{BrokerChoice, BrokerConfig, ClientConfig, CommLogConfig, Link, LinkConfig},
    modbus::{self, Request},
    protocol::ProtocolConfig,
};
use sim::emulate::{EmulateOptions, Emulation, RtuOptions, commercial_site};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

use crate::db::{DbKind, FreshDb};

#[derive(Debug, Clone)]
pub struct AgentBenchOptions {
    /// Inverters on the RS485 bus.
    pub rtu_devices: usize,
    pub baud: u32,
    /// Inverters behind the Modbus TCP server.
    pub tcp_devices: usize,
    /// Timed polls of each kind (the median is reported).
    pub polls: usize,
    /// The `portal-agent` binary; `None` skips the process measurement.
    pub agent_bin: Option<PathBuf>,
    /// Inverters the process reads.
    pub process_devices: usize,
    /// How long the process is measured after its first poll.
    pub process_seconds: f64,
}

#[derive(Debug, Clone, Default)]
pub struct PollTiming {
    pub devices: usize,
    pub requests: usize,
    /// Bytes of requests and replies on the wire per poll.
    pub wire_bytes: usize,
    /// Each timed poll.
    pub polls: Vec<Duration>,
    /// Blocks that failed over all timed polls (should be 0).
    pub failures: usize,
}

impl PollTiming {
    pub fn median(&self) -> Duration {
        let mut p = self.polls.clone();
        p.sort();
        p.get(p.len() / 2).copied().unwrap_or_default()
    }
}

#[derive(Debug, Clone, Default)]
pub struct ProcessFigures {
    pub devices: usize,
    pub polls: u64,
    pub seconds: f64,
    pub cpu: Duration,
    pub rss_kib: u64,
    pub peak_rss_kib: u64,
    pub samples_stored: u64,
}

#[derive(Debug, Clone, Default)]
pub struct AgentBenchResult {
    pub rtu: PollTiming,
    /// The RS485 bus's physical limit for one poll.
    pub rtu_limit: Duration,
    pub tcp: PollTiming,
    /// The bare client's pass over the same requests.
    pub tcp_bare: Vec<Duration>,
    pub process: Option<ProcessFigures>,
}

fn median(d: &[Duration]) -> Duration {
    let mut p = d.to_vec();
    p.sort();
    p.get(p.len() / 2).copied().unwrap_or_default()
}

/// The emulated commercial roof with `n` three-phase hybrids (units 1..=n), registers held
/// still; served on the transports asked for.
async fn emulate(n: usize, tcp: bool, rtu_baud: Option<u32>) -> anyhow::Result<Emulation> {
    let configs = devices::protocol::shipped().map_err(|e| anyhow::anyhow!("{e}"))?;
    Emulation::start(EmulateOptions {
        site: commercial_site(n, 2024),
        configs,
        step: None,
        tcp: tcp.then(|| SocketAddr::from(([127, 0, 0, 1], 0))),
        v5: None,
        rtu: rtu_baud.map(|baud| RtuOptions { baud, link: None }),
    })
    .await
    .map_err(|e| anyhow::anyhow!("emulators: {e}"))
}

/// The inverters' units, SNs and protocol config.
fn inverters(e: &Emulation, n: usize) -> Vec<(u8, String, ProtocolConfig)> {
    let site = e.site.lock();
    site.devices()
        .iter()
        .filter(|d| d.family == devices::DeviceFamily::Inverter)
        .take(n)
        .map(|d| (d.unit, d.sn.clone(), d.config().clone()))
        .collect()
}

/// An agent configuration: one bus (`bus`, TOML lines), the devices on it.
fn agent_toml(
    mqtt: &str,
    state_dir: &Path,
    bus: &str,
    devices: &[(u8, String, ProtocolConfig)],
) -> String {
    let mut s = format!(
        "mqtt = \"{mqtt}\"\nsn = \"BENCHAGENT1\"\nkey = \"bench-key-Kq7xTz2m\"\n\
         state_dir = \"{}\"\nupload_cycle = 10\n\n[[bus]]\nname = \"bus\"\n{bus}\n",
        state_dir.display()
    );
    for (unit, sn, config) in devices {
        let _ = write!(
            s,
            "\n[[device]]\nbus = \"bus\"\nunit = {unit}\nsn = \"{sn}\"\nprotocol = \"{}\"\n",
            config.code
        );
    }
    s
}

fn plan(config: &ProtocolConfig) -> Vec<ReadRequest> {
    // The agent's own plan (the bus's default max_gap of 10).
    plan_reads(config, 125, 10)
}

/// RTU bytes of one read and its reply: unit, function, start, count, CRC; unit, function,
/// byte count, the words, CRC.
fn rtu_bytes(r: &ReadRequest) -> usize {
    8 + 5 + 2 * usize::from(r.count)
}

/// Times `polls` polls of the agent's poller over `toml`'s site (after one untimed poll that
/// opens the connections).
async fn time_polls(toml: &str, base: &Path, polls: usize) -> anyhow::Result<PollTiming> {
    let config = agent::Config::parse(toml, base)
        .map_err(|e| anyhow::anyhow!("agent config: {}", e.0.join("; ")))?;
    let site = agent::poller::Site::new(&config);
    let mut t = PollTiming {
        devices: site.devices.len(),
        requests: site.devices.iter().map(|d| d.plan.len()).sum(),
        wire_bytes: site
            .devices
            .iter()
            .flat_map(|d| d.plan.iter())
            .map(rtu_bytes)
            .sum(),
        ..PollTiming::default()
    };
    let warm = site.poll().await;
    let failed: usize = warm.iter().map(|(_, r)| r.failures.len()).sum();
    if failed > 0 {
        bail!("{failed} blocks failed in the first poll: the emulators do not answer");
    }
    for _ in 0..polls.max(1) {
        let started = Instant::now();
        let reads = site.poll().await;
        t.polls.push(started.elapsed());
        t.failures += reads.iter().map(|(_, r)| r.failures.len()).sum::<usize>();
    }
    Ok(t)
}

/// The same requests as the agent's poll, sent back to back on one connection by a client
/// that only frames, writes and reads (no checks, no decoding): what the link itself costs.
async fn bare_tcp_pass(
    addr: SocketAddr,
    devices: &[(u8, String, ProtocolConfig)],
) -> anyhow::Result<Duration> {
    let mut s = TcpStream::connect(addr).await?;
    s.set_nodelay(true)?;
    let requests: Vec<(u8, Vec<u8>)> = devices
        .iter()
        .flat_map(|(unit, _, config)| {
            plan(config).into_iter().filter_map(move |r| {
                let req = match r.function_code() {
                    4 => Request::ReadInput {
                        start: r.start,
                        count: r.count,
                    },
                    _ => Request::ReadHolding {
                        start: r.start,
                        count: r.count,
                    },
                };
                Some((*unit, req.to_pdu().ok()?))
            })
        })
        .collect();
    let mut buf = vec![0u8; 512];
    let started = Instant::now();
    for (tid, (unit, pdu)) in requests.iter().enumerate() {
        s.write_all(&modbus::tcp_frame(tid as u16, *unit, pdu))
            .await?;
        s.read_exact(&mut buf[..7]).await?;
        let len = modbus::tcp_frame_len(&buf[..7]).map_err(|e| anyhow::anyhow!("{e}"))?;
        if len > buf.len() {
            buf.resize(len, 0);
        }
        s.read_exact(&mut buf[7..len]).await?;
    }
    Ok(started.elapsed())
}

/// CPU time of process `pid` so far: the scheduler's nanoseconds of each of its threads
/// (`/proc/PID/schedstat` alone is the main thread's).
fn cpu_of(pid: u32) -> Option<Duration> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let ns: u64 = tasks
        .filter_map(Result::ok)
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|text| text.split_whitespace().next()?.parse::<u64>().ok())
        .sum();
    Some(Duration::from_nanos(ns))
}

/// (VmRSS, VmHWM) of process `pid`, KiB.
fn rss_of(pid: u32) -> (u64, u64) {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// The `portal-agent` process reading `n` inverters over Modbus TCP and reporting to the
/// portal's device side (embedded broker, ingest, SQLite).
async fn process(bin: &Path, n: usize, seconds: f64) -> anyhow::Result<ProcessFigures> {
    let db = FreshDb::create(DbKind::Sqlite, "", "agent").await?;
    let store = db.store.clone();
    store
        .create_gateway(
            "BENCHAGENT1",
            "bench-key-Kq7xTz2m",
            "",
            chrono::Utc::now().timestamp_millis(),
        )
        .await?;
    let (tx, rx) = tokio::sync::mpsc::channel(1024);
    let ingest = Ingest::spawn(store.clone(), rx, IngestOptions::default());
    let link = Link::start(
        store.clone(),
        LinkConfig {
            broker: BrokerChoice::Embedded(BrokerConfig::new(SocketAddr::from((
                [127, 0, 0, 1],
                0,
            )))),
            client: ClientConfig::new("127.0.0.1", 0, "portal-bench-agent"),
            sweep_every: Duration::from_secs(5),
            comm_log: CommLogConfig::default(),
        },
        tx,
    )
    .await
    .context("starting the device link")?;
    if !link.client.ready(Duration::from_secs(15)).await {
        bail!("the portal's MQTT client did not connect to the embedded broker");
    }
    let broker = link.broker_addr().context("no broker address")?;
    let emulation = emulate(n, true, None).await?;
    let addr = emulation.tcp.as_ref().context("no tcp server")?.addr;
    let devices = inverters(&emulation, n);
    let per_poll: u64 = devices.iter().map(|(_, _, c)| plan(c).len() as u64).sum();
    let dir = std::env::temp_dir().join(format!("portal-bench-agent-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let config = dir.join("agent.toml");
    std::fs::write(
        &config,
        agent_toml(
            &broker.to_string(),
            &dir.join("state"),
            &format!("kind = \"tcp\"\naddress = \"{addr}\""),
            &devices,
        ),
    )?;
    let mut child = std::process::Command::new(bin)
        .arg("--config")
        .arg(&config)
        .env("PORTAL_AGENT_LOG", "warn")
        .spawn()
        .with_context(|| format!("starting {}", bin.display()))?;
    let pid = child.id();
    let stats = emulation
        .tcp
        .as_ref()
        .context("no tcp server")?
        .stats
        .clone();
    let measured = async {
        // After the first poll (start-up excluded).
        let deadline = Instant::now() + Duration::from_secs(30);
        while stats.counts().requests < per_poll {
            if Instant::now() > deadline {
                bail!("the agent did not poll within 30 s");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        let (cpu0, req0, t0) = (
            cpu_of(pid).context("no schedstat")?,
            stats.counts().requests,
            Instant::now(),
        );
        tokio::time::sleep(Duration::from_secs_f64(seconds)).await;
        let (cpu1, req1) = (
            cpu_of(pid).context("no schedstat")?,
            stats.counts().requests,
        );
        let (rss, peak) = rss_of(pid);
        let samples = match store.device_by_sn(&devices[0].1).await? {
            Some(d) => store.samples(d.id, 0, i64::MAX, 100_000).await?.len() as u64,
            None => 0,
        };
        Ok(ProcessFigures {
            devices: devices.len(),
            polls: (req1 - req0) / per_poll.max(1),
            seconds: t0.elapsed().as_secs_f64(),
            cpu: cpu1.saturating_sub(cpu0),
            rss_kib: rss,
            peak_rss_kib: peak,
            samples_stored: samples,
        })
    }
    .await;
    let _ = child.kill();
    let _ = child.wait();
    drop(link);
    let _ = tokio::time::timeout(Duration::from_secs(10), ingest.join()).await;
    let _ = db.remove().await;
    let _ = std::fs::remove_dir_all(&dir);
    measured
}

pub async fn run(o: &AgentBenchOptions) -> anyhow::Result<AgentBenchResult> {
    let mut r = AgentBenchResult::default();
    let base = std::env::temp_dir();

    println!(
        "rtu: {} inverters on one emulated RS485 bus at {} baud, {} polls",
        o.rtu_devices, o.baud, o.polls
    );
    let e = emulate(o.rtu_devices, false, Some(o.baud)).await?;
    let devices = inverters(&e, o.rtu_devices);
    let path = e.rtu.as_ref().context("no rtu bus")?.path.clone();
    let toml = agent_toml(
        "127.0.0.1:1",
        &base.join("portal-bench-agent-unused"),
        &format!(
            "kind = \"rtu\"\nport = \"{}\"\nbaud = {}\ntimeout_ms = 3000",
            path.display(),
            o.baud
        ),
        &devices,
    );
    r.rtu = time_polls(&toml, &base, o.polls).await?;
    r.rtu_limit = Duration::from_secs_f64(r.rtu.wire_bytes as f64 * 10.0 / f64::from(o.baud));
    drop(e);

    println!(
        "tcp: {} inverters behind one Modbus TCP server, {} polls",
        o.tcp_devices, o.polls
    );
    let e = emulate(o.tcp_devices, true, None).await?;
    let devices = inverters(&e, o.tcp_devices);
    let addr = e.tcp.as_ref().context("no tcp server")?.addr;
    let toml = agent_toml(
        "127.0.0.1:1",
        &base.join("portal-bench-agent-unused"),
        &format!("kind = \"tcp\"\naddress = \"{addr}\""),
        &devices,
    );
    r.tcp = time_polls(&toml, &base, o.polls).await?;
    bare_tcp_pass(addr, &devices).await?;
    for _ in 0..o.polls.max(1) {
        r.tcp_bare.push(bare_tcp_pass(addr, &devices).await?);
    }
    drop(e);

    if let Some(bin) = &o.agent_bin {
        println!(
            "process: {} reading {} inverters over Modbus TCP every 10 s, reporting to the \
             embedded broker; {} s measured after its first poll",
            bin.display(),
            o.process_devices,
            o.process_seconds
        );
        r.process = Some(process(bin, o.process_devices, o.process_seconds).await?);
    }
    Ok(r)
}

pub fn render(o: &AgentBenchOptions, r: &AgentBenchResult) -> String {
    let mut s = String::new();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let _ = writeln!(s, "== agent benchmark ==");
    let rtu = r.rtu.median();
    let ratio = rtu.as_secs_f64() / r.rtu_limit.as_secs_f64().max(1e-9);
    let _ = writeln!(
        s,
        "rtu poll     {} devices, {} requests, {} bytes on the wire at {} baud: median {:.0} ms \
         (polls {}), physical limit {:.0} ms -> ratio {ratio:.3} (target <= 1.3: {}); {} \
         blocks failed",
        r.rtu.devices,
        r.rtu.requests,
        r.rtu.wire_bytes,
        o.baud,
        ms(rtu),
        r.rtu
            .polls
            .iter()
            .map(|d| format!("{:.0}", ms(*d)))
            .collect::<Vec<_>>()
            .join(" "),
        ms(r.rtu_limit),
        if ratio <= 1.3 { "met" } else { "NOT met" },
        r.rtu.failures
    );
    let tcp = r.tcp.median();
    let bare = median(&r.tcp_bare);
    let _ = writeln!(
        s,
        "tcp poll     {} devices, {} requests: median {:.1} ms ({:.3} ms per request); bare \
         client on one connection {:.1} ms -> ratio {:.3}; {} blocks failed",
        r.tcp.devices,
        r.tcp.requests,
        ms(tcp),
        ms(tcp) / r.tcp.requests.max(1) as f64,
        ms(bare),
        tcp.as_secs_f64() / bare.as_secs_f64().max(1e-9),
        r.tcp.failures
    );
    if let Some(p) = &r.process {
        let per_poll = p.cpu.as_secs_f64() * 1000.0 / p.polls.max(1) as f64;
        let _ = writeln!(
            s,
            "process      {} devices over Modbus TCP, {} polls in {:.1} s: CPU {:.1} ms in all = \
             {per_poll:.2} ms per poll ({:.3} % of one core); RSS {:.1} MiB (peak {:.1} MiB); \
             {} readings of the first inverter stored",
            p.devices,
            p.polls,
            p.seconds,
            p.cpu.as_secs_f64() * 1000.0,
            p.cpu.as_secs_f64() * 100.0 / p.seconds.max(1e-9),
            p.rss_kib as f64 / 1024.0,
            p.peak_rss_kib as f64 / 1024.0,
            p.samples_stored
        );
    }
    s
}
