//! `portal serve`: open the database, make sure the first administrator exists, start the
//! device link (MQTT broker, ingest, command dispatch) and HTTP.

use std::{net::SocketAddr, sync::Arc, time::Duration};

use anyhow::Context;
use domain::user::BuiltinRole;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use rand::{Rng, distributions::Alphanumeric};
use store::Store;

use crate::{admin, config::Config};

pub fn init_tracing(filter: &str) {
    let filter = tracing_subscriber::EnvFilter::try_new(filter)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(crate::config::DEFAULT_LOG));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).try_init();
}

/// Opens (creating when needed) and migrates the database, and refreshes the built-in roles.
pub async fn open_store(config: &Config) -> anyhow::Result<Store> {
    std::fs::create_dir_all(&config.data_dir)
        .with_context(|| format!("creating data dir {}", config.data_dir.display()))?;
    let store = Store::connect(&config.database_url())
        .await
        .context("opening the database")?;
    store.migrate().await.context("migrating the database")?;
    // The months ahead before any report (the history job keeps them made afterwards); if
    // this fails, rows wait in the default partition until it succeeds, nothing is refused.
    if let Err(e) = store.ensure_sample_partitions(domain::time::now_ms()).await {
        tracing::warn!(error = %e, "sample partitions not made at start");
    }
    store
        .sync_builtin_roles(domain::time::now_ms())
        .await
        .context("syncing built-in roles")?;
    Ok(store)
}

pub async fn run(config: Config, demo: bool) -> anyhow::Result<()> {
    let store = open_store(&config).await?;
    seed_admin(&store, &config).await?;
    if config.files()? == api::FilesBackend::Database {
        let copied = crate::files::import_local(&store, &config.data_dir)
            .await
            .context("copying uploaded files into the database")?;
        if copied > 0 {
            println!("Copied {copied} uploaded files from the data directory into the database");
        }
    }
    let keys = api::Keys::load_or_create(&store)
        .await
        .context("loading keys")?;
    let api_config = config.api();
    let mailer = service::mailer::Mailer::new(api_config.smtp.as_ref())
        .map_err(|e| anyhow::anyhow!("smtp configuration: {e}"))?;
    let addr: SocketAddr = config.http_addr.parse().context("http_addr")?;
    let listener = crate::http::listen(addr).with_context(|| {
        format!("cannot listen on {addr}: is another program using it? Set PORTAL_HTTP_ADDR")
    })?;
    let shown = listener.local_addr().unwrap_or(addr);
    if !config.web_dir.join("index.html").is_file() {
        tracing::warn!(dir = %config.web_dir.display(), "no built web app found: serving the API only");
    }
    let devices = start_devices(&config, &store).await?;
    let state = api::AppState {
        store: store.clone(),
        config: Arc::new(api_config),
        keys: Arc::new(keys),
        mailer: Arc::new(mailer),
        metrics: Some(metrics_recorder()?),
        commands: Some(devices.link.dispatcher.clone()),
        latest: devices
            .link
            .broker_addr()
            .map(|_| devices.ingest.cache().clone()),
        caches: Default::default(),
        vtn_nudges: Default::default(),
    };
    let demo_stop = if demo {
        Some(start_demo(&config, &store, &devices).await?)
    } else {
        None
    };
    // The jobs, started once the demo is seeded: on SQLite a job's write between a seeding
    // transaction's first read and its first write fails that transaction (SQLITE_BUSY, no
    // waiting).
    jobs::start(
        jobs::Context {
            store: store.clone(),
            mailer: state.mailer.clone(),
            commands: state.commands.clone(),
            ven: service::energy_hub::vtn::Ven {
                public_url: state.config.public_url.clone(),
                data_dir: state.config.data_dir.clone(),
            },
            vtn_nudges: state.vtn_nudges.clone(),
            figures: state.config.figures,
        },
        jobs::Schedule {
            mail: Duration::from_secs(config.mail_interval_secs.unsigned_abs()),
            alarms: Duration::from_secs(config.alarm_interval_secs.unsigned_abs()),
            alarm_settings: config.alarms(),
            webhooks: config.webhooks(),
            push: config.push(),
            dr_tick: Duration::from_secs(config.dr_tick_secs.unsigned_abs()),
            history: config.history(),
            keep: config.keep(),
        },
    );
    let limits = http_limits(&config)?;
    serve_metrics(&config, state.clone(), limits).await?;
    println!("Portal listening on http://{shown}  (API docs: http://{shown}/api/docs)");
    crate::http::serve("public", listener, api::router(state), limits, shutdown()).await;
    if let Some(stop) = demo_stop {
        let _ = stop.send(true);
    }
    drop(devices);
    store.close().await;
    Ok(())
}

/// The HTTP bounds of the configuration, the total lowered to what the open-file limit allows
/// (said at start, with how to raise the limit).
fn http_limits(config: &Config) -> anyhow::Result<crate::http::Limits> {
    let wanted = config.http()?;
    let nofile = crate::http::open_file_limit();
    let limits = wanted.within(nofile);
    if limits.total < wanted.total {
        println!(
            "HTTP: at most {} connections, not {}: the open-file limit is {}; raise it \
             (LimitNOFILE=, ulimit -n) to at least twice PORTAL_HTTP_MAX_CONNECTIONS",
            limits.total,
            wanted.total,
            nofile.unwrap_or_default()
        );
    }
    tracing::info!(
        total = limits.total,
        per_address = limits.per_address,
        header_timeout_secs = limits.timeouts.header.as_secs(),
        idle_timeout_secs = limits.timeouts.idle.as_secs(),
        "HTTP connection bounds"
    );
    Ok(limits)
}

/// What runs for devices: the MQTT link (broker, client, dispatcher) and the ingest worker.
#[allow(
    dead_code,
    reason = "held to keep them running; handed to the API (dispatcher, latest values) and the demo next"
)]
pub struct Devices {
    pub link: devices::link::Link,
    pub ingest: devices::ingest::Ingest,
    /// Another way into ingest, for the demo's history.
    pub submissions: devices::report::SubmissionTx,
}

/// Starts ingest and the device link: the embedded broker (or the client of an external one),
/// the portal's subscriber that feeds ingest, and the command dispatcher with its sweeper.
pub async fn start_devices(config: &Config, store: &Store) -> anyhow::Result<Devices> {
    let (tx, rx) = tokio::sync::mpsc::channel(4096);
    let submissions = tx.clone();
    devices::protocol::stored::seed(store, domain::time::now_ms())
        .await
        .context("storing the shipped protocol configs")?;
    let protocols = devices::protocol::stored::load(store)
        .await
        .context("loading protocol configs")?;
    let options = devices::ingest::IngestOptions {
        protocols,
        // With an external broker other replicas may take any of a device's reports.
        shared: !config.mqtt_embedded,
        calm_wait: Duration::from_millis(config.ingest_calm_wait_ms.unsigned_abs()),
        ..devices::ingest::IngestOptions::default()
    };
    let ingest = devices::ingest::Ingest::spawn(store.clone(), rx, options);
    let link_config = config.link()?;
    let link = devices::link::Link::start(store.clone(), link_config, tx)
        .await
        .context("starting the device link")?;
    // What ingest leaves out of a message (e.g. a value outside its valid range) shows in the
    // gateway's communication log beside the message.
    ingest.report_skips_to(link.comm_log.clone());
    match link.broker_addr() {
        Some(addr) => println!("MQTT broker for devices on {addr}"),
        None => println!(
            "Devices via the MQTT broker at {}",
            config.mqtt_url.as_deref().unwrap_or("?")
        ),
    }
    Ok(Devices {
        link,
        ingest,
        submissions,
    })
}

/// Eight simulated plants for the demo owner (one of them with ten inverters), a year of
/// history on first start (on later starts the gateways resume and fill the gap), then live
/// gateways reporting every five seconds to the device broker.
async fn start_demo(
    config: &Config,
    store: &Store,
    devices: &Devices,
) -> anyhow::Result<tokio::sync::watch::Sender<bool>> {
    // One plant per inverter type code, and a commercial roof with ten inverters of one type
    // (enough for a batch upgrade of ten).
    let mut specs = sim::fleet::demo_fleet(7, 2024);
    specs.push(sim::fleet::commercial_plant(specs.len(), 2024));
    // A soiled plant, a shaded string and a silent inverter (docs/simulator.md).
    if config.demo_faults {
        sim::scenarios::demo(&mut specs, chrono::Utc::now());
    }
    // The plant read through the gateway agent: created like the others (first, so that the
    // simulated plants keep the newest places in the lists), but reported by the agent from an
    // emulated stick rather than by the simulator.
    specs.insert(0, crate::demo_agent::spec(2024));
    let files = api::FileStore::new(config.files()?, &config.data_dir, store);
    crate::demo::prepare(store, files, &mut specs).await?;
    let agent_plant = specs.remove(0);
    let broker = match devices.link.broker_addr() {
        Some(addr) => sim::gateway::Broker {
            host: addr.ip().to_string(),
            port: addr.port(),
        },
        None => {
            let url = config
                .mqtt_url
                .as_deref()
                .unwrap_or("mqtt://127.0.0.1:1883");
            let rest = url.split("://").nth(1).unwrap_or(url);
            let (host, port) = rest.rsplit_once(':').unwrap_or((rest, "1883"));
            sim::gateway::Broker {
                host: host.to_string(),
                port: port.parse().unwrap_or(1883),
            }
        }
    };
    let configs = Arc::new(
        devices::protocol::shipped().map_err(|e| anyhow::anyhow!("shipped configs: {e}"))?,
    );
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let broker_addr = format!("{}:{}", broker.host, broker.port)
        .parse()
        .context("the demo's broker address")?;
    crate::demo_agent::start(agent_plant, broker_addr, &config.data_dir, stop_rx.clone()).await?;
    let tx = devices.submissions.clone();
    let history_days = config.demo_history_days;
    let longest = Duration::from_secs(config.demo_upgrade_secs.unsigned_abs());
    let reboot = Duration::from_secs(config.demo_reboot_secs.unsigned_abs());
    let upgrades = sim::commands::UpgradeTiming {
        min: longest / 2,
        max: longest,
        ..sim::commands::UpgradeTiming::default()
    };
    println!(
        "Demo: sign in as {} / {} to see {} simulated plants and one read by the gateway agent, \
         or as {} (same password) to run their installer, {}",
        crate::demo::DEMO_ACCOUNT,
        crate::demo::DEMO_PASSWORD,
        specs.len(),
        crate::demo_company::INSTALLER_ADMIN,
        crate::demo_company::INSTALLER,
    );
    let store = store.clone();
    tokio::spawn(async move {
        let hub_specs = specs.clone();
        let mut fleet: Vec<sim::fleet::SimGateway> =
            specs.into_iter().map(sim::fleet::SimGateway::new).collect();
        let started = std::time::Instant::now();
        match crate::demo::catch_up(&store, &mut fleet, &tx, &configs, history_days).await {
            Ok(n) => tracing::info!(
                reports = n,
                secs = started.elapsed().as_secs(),
                "demo history written"
            ),
            Err(e) => tracing::warn!(%e, "demo history incomplete"),
        }
        // After the history: an inverter is a device of its plant once its reports are in.
        match crate::demo_energy_hub::prepare(&store, &hub_specs).await {
            Ok(Some((program, zone))) => {
                tokio::spawn(crate::demo_energy_hub::keep_going(
                    store.clone(),
                    program,
                    zone,
                ));
            }
            Ok(None) => {}
            Err(e) => tracing::warn!(%e, "demo energy hub not seeded"),
        }
        let opts = sim::gateway::RunOptions {
            broker,
            interval: Duration::from_secs(5),
            upload_cycle_secs: 5,
            reboot,
        };
        for gw in fleet {
            tokio::spawn(sim::gateway::run_with(
                gw,
                configs.clone(),
                opts.clone(),
                upgrades,
                stop_rx.clone(),
            ));
        }
    });
    Ok(stop_tx)
}

/// `/metrics` on its own address (PORTAL_METRICS_ADDR, loopback by default), never on the
/// public one. When that address is taken (another portal on this machine) the portal still
/// starts, without metrics, and says so: metrics are not worth refusing service for. Served
/// with the same bounds as the public address (an idle socket costs a descriptor here too).
async fn serve_metrics(
    config: &Config,
    state: api::AppState,
    limits: crate::http::Limits,
) -> anyhow::Result<()> {
    let Some(addr) = config.metrics()? else {
        println!("Metrics: off");
        return Ok(());
    };
    let listener = match crate::http::listen(addr) {
        Ok(listener) => listener,
        Err(e) => {
            tracing::warn!(%addr, %e, "metrics not served: set PORTAL_METRICS_ADDR to a free address");
            println!("Metrics: not served, {addr} is not available ({e})");
            return Ok(());
        }
    };
    let shown = listener.local_addr().unwrap_or(addr);
    println!("Metrics on http://{shown}/metrics");
    let app = api::metrics_router(state);
    tokio::spawn(crate::http::serve(
        "metrics",
        listener,
        app,
        limits,
        std::future::pending(),
    ));
    Ok(())
}

fn metrics_recorder() -> anyhow::Result<PrometheusHandle> {
    PrometheusBuilder::new()
        .install_recorder()
        .context("installing the metrics recorder")
}

/// On an empty database, creates the first internal administrator. Without a configured
/// password one is generated and printed this once (only its hash is kept).
async fn seed_admin(store: &Store, config: &Config) -> anyhow::Result<()> {
    if store.count_users().await? > 0 {
        return Ok(());
    }
    let account = config
        .admin_user
        .clone()
        .unwrap_or_else(|| "admin@example.com".into());
    let (password, generated) = match &config.admin_password {
        Some(p) => (p.clone(), false),
        None => {
            let p: String = rand::thread_rng()
                .sample_iter(&Alphanumeric)
                .take(14)
                .map(char::from)
                .collect();
            (p, true)
        }
    };
    let created = admin::create_user(
        store,
        &account,
        &password,
        BuiltinRole::InternalAdmin,
        None,
        "Administrator",
        false,
    )
    .await;
    if let Err(e) = created {
        // Replicas started together all find no user; the one that loses the race finds the
        // administrator another one created, and starts like a later start would.
        if store.count_users().await? > 0 {
            println!("First administrator: created by another replica meanwhile");
            return Ok(());
        }
        return Err(e.context("creating the first administrator"));
    }
    if generated {
        println!(
            "First administrator created: {account} / {password}  (shown once; change it after signing in)"
        );
    } else {
        println!("First administrator created: {account} (password from configuration)");
    }
    Ok(())
}

async fn shutdown() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = terminate => {} }
    tracing::info!("shutting down");
}
