//! The portal's own MQTT client: publishes commands and, with an external broker, reads every
//! gateway's uplink topics, hands telemetry, status and events to ingest, records command
//! replies, and acknowledges each QoS 1 message only once what it carries is committed. With the
//! embedded broker the broker's own hooks take the uplink in (`uplink.rs`), so the client does
//! not subscribe to it (`ClientConfig::uplink` is false).

use std::{
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use rumqttc::{AsyncClient, Event, EventLoop, Incoming, MqttOptions, Publish, QoS};
use store::Store;
use tokio::{
    sync::{Notify, mpsc, oneshot, watch},
    task::JoinHandle,
};

use super::{
    acl::UPLINK_LEAVES,
    comm_log::CommLog,
    heard::Heard,
    parse::{DropReason, Inbound, parse},
    replies,
};
use crate::report::{MAX_PAYLOAD_BYTES, Submission, SubmissionTx, TOPIC_ROOT};

/// Where and how the portal's client connects.
#[derive(Clone)]
pub struct ClientConfig {
    pub host: String,
    pub port: u16,
    /// Stable per replica: the broker keeps the session (and unacknowledged messages) under it.
    pub client_id: String,
    pub username: Option<String>,
    pub password: Option<String>,
    /// Subscribe through `$share/{group}/...` so replicas split the load; `None` subscribes
    /// plainly (brokers without shared subscriptions).
    pub shared_group: Option<String>,
    pub keep_alive: Duration,
    /// After a message could not be committed, the client reconnects this long later so the
    /// broker delivers the unacknowledged messages again.
    pub redeliver_after: Duration,
    /// Subscribe to the gateways' uplink topics and ingest what arrives (an external broker).
    /// [`super::Link::start`] turns it off with the embedded broker, which ingests in its hooks.
    pub uplink: bool,
}

impl std::fmt::Debug for ClientConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientConfig")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("client_id", &self.client_id)
            .field("username", &self.username)
            .field("password", &self.password.as_ref().map(|_| "<redacted>"))
            .field("shared_group", &self.shared_group)
            .field("uplink", &self.uplink)
            .finish_non_exhaustive()
    }
}

impl ClientConfig {
    pub fn new(host: impl Into<String>, port: u16, client_id: impl Into<String>) -> ClientConfig {
        ClientConfig {
            host: host.into(),
            port,
            client_id: client_id.into(),
            username: None,
            password: None,
            shared_group: Some("portal".into()),
            keep_alive: Duration::from_secs(30),
            redeliver_after: Duration::from_secs(5),
            uplink: true,
        }
    }

    /// The topic filters the client subscribes (none without `uplink`).
    pub fn filters(&self) -> Vec<String> {
        if !self.uplink {
            return Vec::new();
        }
        UPLINK_LEAVES
            .iter()
            .map(|leaf| match &self.shared_group {
                Some(g) if !g.is_empty() => format!("$share/{g}/{TOPIC_ROOT}/+/{leaf}"),
                _ => format!("{TOPIC_ROOT}/+/{leaf}"),
            })
            .collect()
    }
}

/// Counts of what the link did with gateways' messages (in the portal's client with an external
/// broker, in the embedded broker's hooks otherwise), for tests and diagnostics (the same
/// figures go to the `portal_mqtt_*` metrics).
#[derive(Debug, Default)]
pub struct LinkStats {
    pub accepted: AtomicU64,
    /// Messages acknowledged after their commit (to the external broker, or by the embedded
    /// broker to the gateway).
    pub acked: AtomicU64,
    /// Messages whose data was not committed (left unacknowledged for redelivery).
    pub not_committed: AtomicU64,
    dropped: [AtomicU64; DropReason::ALL.len()],
}

impl LinkStats {
    pub fn dropped(&self, reason: DropReason) -> u64 {
        self.dropped[reason as usize].load(Ordering::Relaxed)
    }

    pub(super) fn drop_one(&self, reason: DropReason) {
        self.dropped[reason as usize].fetch_add(1, Ordering::Relaxed);
        metrics::counter!("portal_mqtt_dropped_total", "reason" => reason.label()).increment(1);
    }
}

/// The running client. Dropping it stops it (without a clean disconnect).
pub struct LinkClient {
    client: AsyncClient,
    ready: watch::Receiver<bool>,
    stats: Arc<LinkStats>,
    tasks: Vec<JoinHandle<()>>,
}

impl LinkClient {
    /// Connects (in the background, retrying) and starts handing messages to `tx`.
    pub fn start(config: ClientConfig, store: Store, tx: SubmissionTx) -> LinkClient {
        let off = Arc::new(CommLog::new(super::comm_log::CommLogConfig {
            enabled: false,
            ..super::comm_log::CommLogConfig::default()
        }));
        let ends = super::UpgradeEnds::default();
        LinkClient::start_with_stats(config, store, tx, Arc::default(), Arc::default(), off, ends)
    }

    /// Like [`LinkClient::start`], counting into `stats` (shared with an ingesting broker),
    /// noting when gateways were heard from in `heard` and what they sent in `comm` (both
    /// written by the [`super::Link`]), and saying on `ends` when a reply ends an upgrade.
    pub(crate) fn start_with_stats(
        config: ClientConfig,
        store: Store,
        tx: SubmissionTx,
        stats: Arc<LinkStats>,
        heard: Arc<Heard>,
        comm: Arc<CommLog>,
        ends: super::UpgradeEnds,
    ) -> LinkClient {
        let mut options = MqttOptions::new(&config.client_id, &config.host, config.port);
        options
            .set_keep_alive(config.keep_alive)
            .set_clean_session(false)
            .set_manual_acks(true)
            .set_inflight(100)
            // Oversized payloads must still arrive so they can be counted and acknowledged.
            .set_max_packet_size(2 * 1024 * 1024, MAX_PAYLOAD_BYTES + 1024);
        if let Some(user) = &config.username {
            options.set_credentials(user, config.password.clone().unwrap_or_default());
        }
        let (client, eventloop) = AsyncClient::new(options, 1024);
        let (ready_tx, ready) = watch::channel(false);
        let redeliver = Arc::new(Notify::new());
        let (queue_tx, queue_rx) = mpsc::unbounded_channel();
        let poller = tokio::spawn(poll(
            eventloop,
            client.clone(),
            config.filters(),
            queue_tx,
            ready_tx,
            redeliver.clone(),
        ));
        let handler = Handler {
            client: client.clone(),
            store,
            tx,
            stats: stats.clone(),
            redeliver,
            redeliver_after: config.redeliver_after,
            heard,
            comm,
            ends,
        };
        let forwarder = tokio::spawn(handler.run(queue_rx));
        LinkClient {
            client,
            ready,
            stats,
            tasks: vec![poller, forwarder],
        }
    }

    /// A handle for publishing (commands).
    pub fn mqtt(&self) -> AsyncClient {
        self.client.clone()
    }

    pub fn stats(&self) -> Arc<LinkStats> {
        self.stats.clone()
    }

    /// Waits until the client is connected (and subscribed, with `uplink`), at most `timeout`.
    pub async fn ready(&self, timeout: Duration) -> bool {
        let mut ready = self.ready.clone();
        tokio::time::timeout(timeout, ready.wait_for(|r| *r))
            .await
            .is_ok_and(|r| r.is_ok())
    }

    /// Disconnects cleanly (the broker keeps the session) and stops.
    pub async fn shutdown(self) {
        let _ = self.client.disconnect().await;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

impl Drop for LinkClient {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

async fn poll(
    mut eventloop: EventLoop,
    client: AsyncClient,
    filters: Vec<String>,
    queue: mpsc::UnboundedSender<Publish>,
    ready: watch::Sender<bool>,
    redeliver: Arc<Notify>,
) {
    let mut backoff = Duration::from_millis(200);
    loop {
        let event = tokio::select! {
            biased;
            _ = redeliver.notified() => {
                // Dropping the connection makes the broker resend what is unacknowledged when
                // the session resumes (and forgets acks queued for the old connection).
                tracing::info!("reconnecting to the MQTT broker for redelivery");
                eventloop.clean();
                ready.send_replace(false);
                continue;
            }
            event = eventloop.poll() => event,
        };
        match event {
            Ok(Event::Incoming(Incoming::ConnAck(_))) => {
                backoff = Duration::from_millis(200);
                tracing::info!("connected to the MQTT broker");
                if filters.is_empty() {
                    ready.send_replace(true);
                    continue;
                }
                let subs = filters
                    .iter()
                    .map(|f| rumqttc::SubscribeFilter::new(f.clone(), QoS::AtLeastOnce));
                if let Err(e) = client.try_subscribe_many(subs) {
                    tracing::warn!(%e, "MQTT subscribe could not be queued");
                }
            }
            Ok(Event::Incoming(Incoming::SubAck(ack))) => {
                let refused = ack
                    .return_codes
                    .iter()
                    .any(|c| matches!(c, rumqttc::SubscribeReasonCode::Failure));
                if refused {
                    tracing::error!("the MQTT broker refused the portal's subscriptions (ACL?)");
                } else {
                    ready.send_replace(true);
                }
            }
            Ok(Event::Incoming(Incoming::Publish(p))) => {
                if queue.send(p).is_err() {
                    return;
                }
            }
            Ok(_) => {}
            Err(e) => {
                ready.send_replace(false);
                tracing::warn!(%e, retry_in = ?backoff, "MQTT connection failed");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(10));
            }
        }
    }
}

struct Handler {
    client: AsyncClient,
    store: Store,
    tx: SubmissionTx,
    stats: Arc<LinkStats>,
    redeliver: Arc<Notify>,
    redeliver_after: Duration,
    heard: Arc<Heard>,
    comm: Arc<CommLog>,
    ends: super::UpgradeEnds,
}

impl Handler {
    /// Handles messages in arrival order, so a gateway's messages reach ingest in its order.
    async fn run(self, mut queue: mpsc::UnboundedReceiver<Publish>) {
        let this = Arc::new(self);
        while let Some(publish) = queue.recv().await {
            this.clone().handle(publish).await;
        }
    }

    async fn handle(self: Arc<Self>, publish: Publish) {
        let (gateway_sn, inbound) = match parse(&publish.topic, &publish.payload) {
            Ok(parsed) => {
                let parsed_ref = Some(&parsed.1);
                super::uplink::capture(
                    &self.comm,
                    &publish.topic,
                    &publish.payload,
                    parsed_ref,
                    false,
                );
                parsed
            }
            Err(reason) => {
                super::uplink::capture(&self.comm, &publish.topic, &publish.payload, None, false);
                tracing::warn!(topic = %publish.topic, bytes = publish.payload.len(), reason = reason.label(), "MQTT message dropped");
                self.stats.drop_one(reason);
                self.ack(&publish).await;
                return;
            }
        };
        self.stats.accepted.fetch_add(1, Ordering::Relaxed);
        metrics::counter!("portal_mqtt_messages_total").increment(1);
        super::uplink::note(&self.heard, &gateway_sn, &inbound);
        match inbound {
            Inbound::Reply(reply) => {
                match replies::record(&self.store, &gateway_sn, &reply, &self.ends).await {
                    Ok(()) => self.ack(&publish).await,
                    Err(e) => self.not_committed(&gateway_sn, &e.to_string()),
                }
            }
            Inbound::Item(item) => {
                let (done, committed) = oneshot::channel();
                let submission = Submission {
                    gateway_sn: gateway_sn.clone(),
                    item,
                    done,
                };
                if self.tx.send(submission).await.is_err() {
                    self.not_committed(&gateway_sn, "ingest is not running");
                    return;
                }
                // Wait for the commit off the ordered path: ingest batches many messages.
                tokio::spawn(async move {
                    match committed.await {
                        Ok(Ok(())) => self.ack(&publish).await,
                        Ok(Err(e)) if !crate::report::is_retryable(&e) => {
                            tracing::warn!(gateway = %gateway_sn, why = %e, "MQTT message refused by ingest: dropped");
                            self.stats.drop_one(DropReason::Refused);
                            self.ack(&publish).await;
                        }
                        Ok(Err(e)) => self.not_committed(&gateway_sn, &e),
                        Err(_) => self.not_committed(&gateway_sn, "ingest dropped the message"),
                    }
                });
            }
        }
    }

    async fn ack(&self, publish: &Publish) {
        if self.client.ack(publish).await.is_ok() {
            self.stats.acked.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Leaves the message unacknowledged and schedules a reconnect so the broker delivers it
    /// again.
    fn not_committed(&self, gateway_sn: &str, why: &str) {
        self.stats.not_committed.fetch_add(1, Ordering::Relaxed);
        metrics::counter!("portal_mqtt_not_committed_total").increment(1);
        tracing::warn!(
            gateway = gateway_sn,
            why,
            "MQTT message not committed: left for redelivery"
        );
        let redeliver = self.redeliver.clone();
        let after = self.redeliver_after;
        tokio::spawn(async move {
            tokio::time::sleep(after).await;
            redeliver.notify_one();
        });
    }
}
