//! `bench`: hand-run benchmarks. `cargo run --release -p bench -- ingest --db sqlite`.

use std::time::Duration;

use bench::{DbKind, IngestBench, e2e::E2eOptions};
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(about = "Portal benchmarks (run in release; see docs/performance.md)")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Telemetry ingest end to end (gateways -> MQTT -> ingest -> database) against a baseline
    /// of batched INSERTs into the same kind of database.
    Ingest(IngestArgs),
    /// Monitoring reads (plant overview endpoints, energy periods, plant list) through the real
    /// router over a database of plants with a year of rollups and 5-minute samples.
    Overview(OverviewArgs),
    /// The fleet dashboard (the home screen's calls) over one company's thousands of plants,
    /// with concurrent clients, against `GET /api/v1/user` in the same run.
    Fleet(FleetArgs),
    /// A large installer's screens (5,000 plants, 20,000 devices, a year of energy): the
    /// plant, gateway, inverter and event lists, the fleet counts and a plant's day energy.
    Installer(InstallerArgs),
    /// History storage: simulated gateways report for some days, then the closed days are
    /// compacted; bytes per data point as rows and as blocks, and day reads from each.
    History(HistoryArgs),
    /// Read load against a running portal (`portal serve --demo`, release build): concurrent
    /// clients on keep-alive connections; `GET /api/v1/user` is the baseline.
    Reads(ReadsArgs),
    /// The gateway agent against the device emulators: a poll of an emulated RS485 bus against
    /// its physical limit, a Modbus TCP poll of many devices against a bare client, and the
    /// `portal-agent` process's memory and CPU time per poll.
    Agent(AgentArgs),
    /// Many gateways connected to a `portal serve` process, reporting every minute: its RSS per
    /// connection and CPU at rest against a bare echo server, then a restart and the reconnect
    /// storm (release build of `portal` and `bench`).
    Connections(bench::connections::ConnectionsArgs),
    /// The baseline server of `bench connections` (started by it).
    #[command(hide = true)]
    EchoServe,
}

#[derive(clap::Args)]
struct AgentArgs {
    /// Inverters on the emulated RS485 bus.
    #[arg(long, default_value_t = 10)]
    rtu_devices: usize,
    #[arg(long, default_value_t = 9600)]
    baud: u32,
    /// Inverters behind the emulated Modbus TCP server.
    #[arg(long, default_value_t = 100)]
    tcp_devices: usize,
    /// Timed polls of each kind.
    #[arg(long, default_value_t = 5)]
    polls: usize,
    /// The `portal-agent` binary (default: next to this one; `cargo build --release -p agent`).
    #[arg(long)]
    agent_bin: Option<std::path::PathBuf>,
    /// Skip the process measurement.
    #[arg(long)]
    no_process: bool,
    #[arg(long, default_value_t = 10)]
    process_devices: usize,
    /// Seconds the process is measured (it polls every 10 s).
    #[arg(long, default_value_t = 120.0)]
    process_seconds: f64,
}

#[derive(clap::Args)]
struct ReadsArgs {
    /// The portal's HTTP address.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    #[arg(long, default_value = "demo@example.com")]
    account: String,
    #[arg(long, default_value = "demo1234")]
    password: String,
    #[arg(long, default_value_t = 50)]
    clients: usize,
    /// Length of each phase.
    #[arg(long, default_value_t = 20.0)]
    seconds: f64,
    /// The portal's process id, to print its CPU time per request (`pgrep -f 'portal serve'`).
    #[arg(long)]
    pid: Option<u32>,
}

#[derive(clap::Args)]
struct FleetArgs {
    #[arg(long, value_enum, default_value = "sqlite")]
    db: DbKind,
    #[arg(
        long,
        env = "PORTAL_TEST_DATABASE_URL",
        default_value = "postgres://postgres@127.0.0.1/test"
    )]
    database_url: String,
    /// Plants of the measured company.
    #[arg(long, default_value_t = 5000)]
    plants: usize,
    /// Plants of another company beside them (never counted).
    #[arg(long, default_value_t = 1000)]
    other_plants: usize,
    /// Customer accounts the company's plants belong to.
    #[arg(long, default_value_t = 100)]
    customers: usize,
    /// Days of daily energy per plant.
    #[arg(long, default_value_t = 35)]
    days: i64,
    #[arg(long, default_value_t = 20)]
    clients: usize,
    /// Length of each measured phase.
    #[arg(long, default_value_t = 15.0)]
    seconds: f64,
}

#[derive(clap::Args)]
struct InstallerArgs {
    #[arg(long, value_enum, default_value = "sqlite")]
    db: DbKind,
    #[arg(
        long,
        env = "PORTAL_TEST_DATABASE_URL",
        default_value = "postgres://postgres@127.0.0.1/test"
    )]
    database_url: String,
    #[arg(long, default_value_t = 5000)]
    plants: usize,
    #[arg(long, default_value_t = 100)]
    customers: usize,
    /// Days of daily energy per plant.
    #[arg(long, default_value_t = 365)]
    days: i64,
    /// Clients of the list phases.
    #[arg(long, default_value_t = 20)]
    clients: usize,
    /// Clients of the day energy phase.
    #[arg(long, default_value_t = 50)]
    day_clients: usize,
    /// Length of each measured phase.
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
}

#[derive(clap::Args)]
struct HistoryArgs {
    #[arg(long, value_enum, default_value = "sqlite")]
    db: DbKind,
    #[arg(
        long,
        env = "PORTAL_TEST_DATABASE_URL",
        default_value = "postgres://postgres@127.0.0.1/test"
    )]
    database_url: String,
    /// Simulated gateways (the demo's fleet: every inverter family, meters, batteries).
    #[arg(long, default_value_t = 20)]
    gateways: usize,
    /// Days of reports every five minutes.
    #[arg(long, default_value_t = 7)]
    days: i64,
    /// Day reads measured from rows and from blocks.
    #[arg(long, default_value_t = 200)]
    reads: usize,
}

#[derive(clap::Args)]
struct OverviewArgs {
    #[arg(long, value_enum, default_value = "sqlite")]
    db: DbKind,
    #[arg(
        long,
        env = "PORTAL_TEST_DATABASE_URL",
        default_value = "postgres://postgres@127.0.0.1/test"
    )]
    database_url: String,
    #[arg(long, default_value_t = 1000)]
    plants: usize,
    /// Days of daily energy per plant.
    #[arg(long, default_value_t = 365)]
    days: i64,
    /// Plants that get every 5-minute sample of those days (the others get today's).
    #[arg(long, default_value_t = 10)]
    sampled_plants: usize,
    /// Measured requests per endpoint.
    #[arg(long, default_value_t = 300)]
    requests: usize,
}

#[derive(clap::Args)]
struct IngestArgs {
    #[arg(long, value_enum, default_value = "sqlite")]
    db: DbKind,
    /// PostgreSQL server for `--db postgres` (a fresh schema is created and dropped).
    #[arg(
        long,
        env = "PORTAL_TEST_DATABASE_URL",
        default_value = "postgres://postgres@127.0.0.1/test"
    )]
    database_url: String,
    /// Simulated gateways, one MQTT connection each (each has one report in flight through
    /// ingest, so this is also the largest batch ingest can form).
    #[arg(long, default_value_t = 1000)]
    gateways: usize,
    /// Length of the measured end-to-end window.
    #[arg(long, default_value_t = 60.0)]
    seconds: f64,
    /// Devices per report (each one `samples` row).
    #[arg(long, default_value_t = 1)]
    devices_per_message: usize,
    /// Values per device reading (data points).
    #[arg(long, default_value_t = 100)]
    values: usize,
    /// Reports in flight end to end per gateway (published, not yet committed): the shared
    /// budget is gateways x window.
    #[arg(long, default_value_t = 16)]
    window: u16,
    /// Length of the baseline run (default: like the end-to-end run, at most 60 s).
    #[arg(long)]
    baseline_seconds: Option<f64>,
    /// Rows per baseline transaction (one multi-row INSERT).
    #[arg(long, default_value_t = 1000)]
    batch_rows: usize,
    #[arg(long)]
    no_baseline: bool,
    /// Seconds between progress lines.
    #[arg(long, default_value_t = 10)]
    report_every: u64,
    /// Milliseconds between two realtime reads of the latest values.
    #[arg(long, default_value_t = 5)]
    read_every_ms: u64,
    /// The communication log during the end-to-end run: `on` (the portal's default), `off`,
    /// or `both` (a run with it off, then one with it on, and the two ratios compared).
    #[arg(long, value_enum, default_value = "both")]
    comm_log: CommLogRuns,
    /// Batches ingest writes at once (0: the portal's choice for the backend).
    #[arg(long, default_value_t = 0)]
    writes_in_flight: usize,
    /// How long ingest waits for more reports after a batch's first (ms; the portal's default
    /// is 0: a batch is what queued while the previous one was written).
    #[arg(long, default_value_t = 0)]
    max_wait_ms: u64,
    /// How long a report from a gateway at a calm pace waits for company (ms; the portal's
    /// default, `PORTAL_INGEST_CALM_WAIT_MS`; these gateways report back to back, so only their
    /// first reports are calm).
    #[arg(long, default_value_t = devices::ingest::DEFAULT_CALM_WAIT.as_millis() as u64)]
    calm_wait_ms: u64,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum CommLogRuns {
    On,
    Off,
    Both,
}

fn main() -> anyhow::Result<()> {
    let filter = std::env::var("RUST_LOG").unwrap_or_else(|_| "warn".into());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
        .try_init();
    let cli = Cli::parse();
    // The portal's runtime: tokio's default, one worker per core (as `portal serve`).
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    match cli.command {
        Command::Ingest(a) => rt.block_on(ingest(a)),
        Command::Overview(a) => rt.block_on(overview(a)),
        Command::Fleet(a) => rt.block_on(fleet(a)),
        Command::Installer(a) => rt.block_on(installer(a)),
        Command::History(a) => rt.block_on(history(a)),
        Command::Reads(a) => rt.block_on(reads(a)),
        Command::Agent(a) => rt.block_on(agent(a)),
        Command::Connections(a) => rt.block_on(connections(a)),
        Command::EchoServe => rt.block_on(bench::portal_process::serve_echo()),
    }
}

async fn agent(a: AgentArgs) -> anyhow::Result<()> {
    let agent_bin = if a.no_process {
        None
    } else {
        let bin = match a.agent_bin {
            Some(b) => b,
            None => std::env::current_exe()?
                .parent()
                .map(|d| d.join("portal-agent"))
                .ok_or_else(|| anyhow::anyhow!("no directory of this binary"))?,
        };
        if !bin.exists() {
            anyhow::bail!(
                "{} is missing: build it (`cargo build --release -p agent`), name it with \
                 --agent-bin, or pass --no-process",
                bin.display()
            );
        }
        Some(bin)
    };
    let options = bench::agent::AgentBenchOptions {
        rtu_devices: a.rtu_devices.clamp(1, 240),
        baud: a.baud.max(1200),
        tcp_devices: a.tcp_devices.clamp(1, 240),
        polls: a.polls.max(1),
        agent_bin,
        process_devices: a.process_devices.clamp(1, 240),
        process_seconds: a.process_seconds.max(10.0),
    };
    println!(
        "machine: {} cores, {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        cpu_model()
    );
    let result = bench::agent::run(&options).await?;
    print!("{}", bench::agent::render(&options, &result));
    Ok(())
}

async fn connections(a: bench::connections::ConnectionsArgs) -> anyhow::Result<()> {
    let options = a.options()?;
    println!(
        "machine: {} cores, {}; load average {}; {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        cpu_model(),
        load_average(),
        chrono::Utc::now().format("%Y-%m-%d %H:%M UTC")
    );
    let result = bench::connections::run(&options).await?;
    print!("{}", bench::connections::render(&options, &result));
    println!("load average at the end: {}", load_average());
    if !result.complete(options.gateways) {
        anyhow::bail!("not every gateway connected and came back, or a report was not stored");
    }
    Ok(())
}

async fn fleet(a: FleetArgs) -> anyhow::Result<()> {
    let options = bench::fleet::FleetOptions {
        db: a.db,
        postgres_url: a.database_url,
        plants: a.plants.max(1),
        other_plants: a.other_plants,
        customers: a.customers.max(1),
        days: a.days.max(1),
        clients: a.clients.max(1),
        seconds: a.seconds,
    };
    println!(
        "machine: {} cores, {}; load average {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        cpu_model(),
        load_average()
    );
    println!(
        "fleet: {} plants of one company ({} customers) + {} of another on {}, {} days of energy, {} clients, {} s per phase",
        options.plants,
        options.customers,
        options.other_plants,
        options.db,
        options.days,
        options.clients,
        options.seconds
    );
    let result = bench::fleet::run(&options).await?;
    print!("{}", bench::fleet::render(&options, &result));
    println!("load average at the end: {}", load_average());
    Ok(())
}

async fn installer(a: InstallerArgs) -> anyhow::Result<()> {
    let options = bench::installer::InstallerOptions {
        db: a.db,
        postgres_url: a.database_url,
        plants: a.plants.max(1),
        customers: a.customers.max(1),
        days: a.days.max(1),
        clients: a.clients.max(1),
        day_clients: a.day_clients.max(1),
        seconds: a.seconds,
    };
    println!(
        "machine: {} cores, {}; load average {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        cpu_model(),
        load_average()
    );
    let result = bench::installer::run(&options).await?;
    print!("{}", bench::installer::render(&options, &result));
    println!("load average at the end: {}", load_average());
    Ok(())
}

/// The 1, 5 and 15 minute load averages (other work shares the machine).
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".into())
}

async fn history(a: HistoryArgs) -> anyhow::Result<()> {
    let options = bench::history::HistoryBenchOptions {
        db: a.db,
        postgres_url: a.database_url,
        gateways: a.gateways.max(1),
        days: a.days.max(1),
        reads: a.reads.max(1),
    };
    println!(
        "machine: {} cores, {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        cpu_model()
    );
    let result = bench::history::run(&options).await?;
    print!("{}", bench::history::render(&options, &result));
    Ok(())
}

async fn ingest(a: IngestArgs) -> anyhow::Result<()> {
    let bench = IngestBench {
        e2e: E2eOptions {
            db: a.db,
            postgres_url: a.database_url,
            gateways: a.gateways.max(1),
            devices_per_message: a.devices_per_message.max(1),
            values: a.values.max(1),
            seconds: a.seconds,
            window: a.window.max(1),
            report_every: Duration::from_secs(a.report_every.max(1)),
            read_every: Duration::from_millis(a.read_every_ms),
            drain_timeout: Duration::from_secs(120),
            quiet: false,
            comm_log: a.comm_log != CommLogRuns::Off,
            writes_in_flight: a.writes_in_flight,
            max_wait: Duration::from_millis(a.max_wait_ms),
            calm_wait: Duration::from_millis(a.calm_wait_ms),
        },
        baseline_seconds: (!a.no_baseline)
            .then(|| a.baseline_seconds.unwrap_or(a.seconds.min(60.0))),
        batch_rows: a.batch_rows.max(1),
        comm_log_off_too: a.comm_log == CommLogRuns::Both,
    };
    println!(
        "machine: {} cores, {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        cpu_model()
    );
    let report = bench::run_ingest(&bench).await?;
    print!("{}", bench::render(&bench, &report));
    if report.e2e.rows_committed < report.e2e.rows_expected {
        anyhow::bail!("fewer rows committed than acknowledged");
    }
    Ok(())
}

async fn overview(a: OverviewArgs) -> anyhow::Result<()> {
    let options = bench::overview::OverviewOptions {
        db: a.db,
        postgres_url: a.database_url,
        plants: a.plants.max(1),
        days: a.days.max(1),
        sampled_plants: a.sampled_plants.min(a.plants.max(1)),
        requests: a.requests.max(1),
    };
    println!(
        "machine: {} cores, {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        cpu_model()
    );
    println!(
        "overview: {} plants on {}, {} days of daily energy each, every 5-minute sample of those days for {} of them (today's for the rest), {} requests per endpoint",
        options.plants, options.db, options.days, options.sampled_plants, options.requests
    );
    let result = bench::overview::run(&options).await?;
    print!("{}", bench::overview::render(&options, &result));
    Ok(())
}

async fn reads(a: ReadsArgs) -> anyhow::Result<()> {
    let options = bench::reads::ReadsOptions {
        addr: a.addr,
        account: a.account,
        password: a.password,
        clients: a.clients.max(1),
        seconds: a.seconds.max(1.0),
        server_pid: a.pid,
    };
    println!(
        "machine: {} cores, {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        cpu_model()
    );
    let (plant, inverters, phases) = bench::reads::run(&options).await?;
    print!(
        "{}",
        bench::reads::render(&options, plant, inverters, &phases)
    );
    Ok(())
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|v| v.trim_start_matches([' ', '\t', ':']).to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}
