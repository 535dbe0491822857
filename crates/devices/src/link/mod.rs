//! The MQTT device link: an embedded broker (or an external one), the path from gateways'
//! messages to ingest and the commands table, and the command dispatcher.
//!
//! ```text
//! embedded:  gateway --MQTT--> broker hook --Submission, wait for commit--> ingest
//!                                  |   '--reply--> commands table
//!                                  '--PUBACK after the commit--> gateway
//! external:  gateway --MQTT--> broker --$share/portal/portal/v1/+/{leaf}--> LinkClient
//!                                  --Submission--> ingest, PUBACK to the broker after the commit
//! both:      Dispatcher --portal/v1/{sn}/cmd--> LinkClient --> broker --> gateway
//! ```
//!
//! Start it with [`Link::start`]; the ingest side consumes the [`crate::report::SubmissionRx`].

pub mod acl;
mod broker;
mod broker_auth;
mod broker_extensions;
mod client;
pub mod comm_log;
mod dispatch;
pub mod gate;
mod heard;
pub mod parse;
mod replies;
pub mod signin;
mod takeover;
mod uplink;

use std::{
    net::SocketAddr,
    sync::Arc,
    time::{Duration, SystemTime, UNIX_EPOCH},
};

pub use broker::{Broker, BrokerConfig, BrokerError, CONNECT_TIMEOUT};
pub use client::{ClientConfig, LinkClient, LinkStats};
pub use comm_log::{CommLog, CommLogConfig};
pub use dispatch::{DispatchError, Dispatcher, Prepared};
pub use dispatch::{
    UPGRADE_GATEWAY_GONE_AFTER, UPGRADE_SILENCE, UPGRADE_SILENCE_GATEWAY, sweep_upgrades,
};
pub use heard::FLUSH_EVERY as HEARD_FLUSH_EVERY;
pub use replies::{
    GATEWAY_GONE, NO_PROGRESS, TIMED_OUT, UpgradeEnds, status_of as reply_status,
    sync_ended_upgrades, sync_upgrade, upgrade_update,
};
use store::Store;

use crate::report::SubmissionTx;

/// The username of the portal's own client on the embedded broker (a `$` never starts an SN).
pub const PORTAL_USER: &str = "$portal";
/// Name of the portal client's password in the secrets table.
pub const PORTAL_SECRET: &str = "mqtt_portal_password";

pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// Which broker the devices talk to.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)] // made once at start: its size costs nothing
pub enum BrokerChoice {
    /// Run one in this process.
    Embedded(BrokerConfig),
    /// Use a broker that runs elsewhere; the client settings say where and as whom.
    External,
}

#[derive(Debug, Clone)]
pub struct LinkConfig {
    pub broker: BrokerChoice,
    /// For `Embedded`, host, port and credentials are filled in by [`Link::start`].
    pub client: ClientConfig,
    /// How often overdue commands are marked timed out.
    pub sweep_every: Duration,
    /// The communication log: what it keeps, or off.
    pub comm_log: CommLogConfig,
}

/// The running link: keep it alive as long as devices should be served.
pub struct Link {
    pub broker: Option<Broker>,
    pub client: LinkClient,
    pub dispatcher: Dispatcher,
    sweeper: tokio::task::JoinHandle<()>,
    /// Writes when each gateway was last heard from (see `heard.rs`).
    heard_writer: tokio::task::JoinHandle<()>,
    /// What the gateways sent and were sent, on its way to the communication log.
    pub comm_log: Arc<CommLog>,
    /// Writes and prunes the communication log (see `comm.rs`); none when it is off.
    comm_writer: Option<tokio::task::JoinHandle<()>>,
}

impl Link {
    /// Starts the broker (when embedded), the portal's client and the dispatcher. The embedded
    /// broker hands gateways' messages to `tx` itself and acknowledges each after its commit;
    /// with an external broker the portal's client does.
    pub async fn start(
        store: Store,
        mut config: LinkConfig,
        tx: SubmissionTx,
    ) -> Result<Link, LinkError> {
        let stats = Arc::new(LinkStats::default());
        let heard = Arc::new(heard::Heard::default());
        let comm_log = Arc::new(CommLog::new(config.comm_log.clone()));
        let ends = UpgradeEnds::default();
        let broker = match &config.broker {
            BrokerChoice::Embedded(broker_config) => {
                let candidate = format!("{:032x}", rand::random::<u128>());
                let secret = store.secret_or_insert(PORTAL_SECRET, &candidate).await?;
                let uplink = uplink::Uplink {
                    store: store.clone(),
                    tx: std::sync::Mutex::new(Some(tx.clone())),
                    stats: stats.clone(),
                    commit_timeout: broker_config.commit_timeout,
                    takeovers: Arc::default(),
                    heard: heard.clone(),
                    comm: comm_log.clone(),
                    ends: ends.clone(),
                };
                let broker =
                    Broker::start_ingesting(store.clone(), secret.clone(), broker_config, uplink)
                        .await?;
                let addr = connect_addr(broker.local_addr());
                config.client.host = addr.ip().to_string();
                config.client.port = addr.port();
                config.client.username = Some(PORTAL_USER.into());
                config.client.password = Some(secret);
                // The broker ingests; the client only publishes commands.
                config.client.uplink = false;
                Some(broker)
            }
            BrokerChoice::External => None,
        };
        let client = LinkClient::start_with_stats(
            config.client,
            store.clone(),
            tx,
            stats,
            heard.clone(),
            comm_log.clone(),
            ends.clone(),
        );
        let heard_writer = heard::spawn_writer(store.clone(), heard);
        let comm_writer = comm_log
            .enabled()
            .then(|| comm_log::spawn_writer(store.clone(), comm_log.clone()));
        let dispatcher = Dispatcher::new(store, client.mqtt())
            .with_comm_log(comm_log.clone())
            .with_upgrade_ends(ends);
        let sweeper = dispatcher.spawn_sweeper(config.sweep_every);
        Ok(Link {
            broker,
            client,
            dispatcher,
            sweeper,
            heard_writer,
            comm_log,
            comm_writer,
        })
    }

    /// Where the embedded broker listens (`None` with an external broker).
    pub fn broker_addr(&self) -> Option<SocketAddr> {
        self.broker.as_ref().map(Broker::local_addr)
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        self.sweeper.abort();
        self.heard_writer.abort();
        if let Some(writer) = &self.comm_writer {
            writer.abort();
        }
    }
}

/// A wildcard listen address is reached on loopback.
fn connect_addr(bound: SocketAddr) -> SocketAddr {
    let mut addr = bound;
    if addr.ip().is_unspecified() {
        addr.set_ip(match addr {
            SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
            SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
        });
    }
    addr
}

#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    #[error(transparent)]
    Broker(#[from] BrokerError),
    #[error("reading the MQTT secret: {0}")]
    Store(#[from] store::StoreError),
}
