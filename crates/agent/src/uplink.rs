//! The MQTT connection to the portal, in a task of its own that polls the client all the time
//! (docs/device-protocol.md, "Never let publishing stop the connection").
//!
//! Readings come from the disk buffer: up to `WINDOW` are in flight at once, each marked
//! acknowledged in the buffer only when its PUBACK arrives (from the embedded broker that means
//! "stored"). Every publish is tagged when the client hands it to the socket (rumqttc's
//! `Outgoing::Publish(pkid)` events come in request order), so a PUBACK names the reading or
//! reply it acknowledges. When a connection ends and the broker starts a new session, rumqttc
//! forgets what was unacknowledged: the uplink then sends again from the buffer's cursor and
//! its own unacknowledged replies (duplicates are harmless: the portal stores one reading per
//! device and timestamp). When the session resumes, rumqttc resends with the same packet ids.
//!
//! rumqttc's `EventLoop::poll` must never be cancelled: dropped while it connects it leaves a
//! half-open connection behind (the broker sees the gateway sign in twice), dropped while it
//! writes it loses a packet it counts as sent. So one task does nothing but poll and hands the
//! events to the pump, which selects over them, the rest of the agent and its timers.

use std::{
    collections::{BTreeMap, BTreeSet, HashMap, VecDeque},
    sync::{Arc, Mutex},
    time::Duration,
};

use devices::report::{Command, GatewayStatus, topic};
use rumqttc::{AsyncClient, Event, EventLoop, LastWill, MqttOptions, Outgoing, Packet, QoS};
use tokio::sync::{mpsc, oneshot, watch};

use crate::buffer::Buffer;

/// Readings in flight at once (the embedded broker takes one gateway's messages one at a time,
/// each after its commit; a window keeps the pipe full while a backlog is sent).
pub const WINDOW: usize = 8;
/// Replies and events kept until acknowledged; beyond it the oldest go (they time out).
const MESSAGES_MAX: usize = 1000;
const BACKOFF_MIN: Duration = Duration::from_secs(1);
const BACKOFF_MAX: Duration = Duration::from_secs(30);

/// What the rest of the agent asks of the uplink.
pub enum ToUplink {
    /// A reply or event: sent (again after a lost session) until acknowledged; `acked` is told
    /// when it is.
    Message {
        leaf: &'static str,
        payload: Vec<u8>,
        acked: Option<oneshot::Sender<()>>,
    },
    /// A reading was appended to the buffer.
    Reading,
    /// Sign in with this key from now on (after a rotation): reconnect at once.
    Rekey(String),
}

#[derive(Debug, Clone)]
pub struct UplinkOptions {
    pub host: String,
    pub port: u16,
    pub sn: String,
    pub key: String,
    pub keep_alive: Duration,
}

/// A reply or event waiting for its PUBACK: its leaf, payload and who to tell.
type Pending = (&'static str, Vec<u8>, Option<oneshot::Sender<()>>);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tag {
    Reading(u64),
    Message(u64),
    Status,
}

pub struct Uplink {
    pub tx: mpsc::Sender<ToUplink>,
    pub commands: mpsc::Receiver<Command>,
    /// Counts accepted connections (changes on every CONNACK).
    pub connected: watch::Receiver<u64>,
    pub task: tokio::task::JoinHandle<()>,
}

pub fn start(
    opts: UplinkOptions,
    buffer: Arc<Mutex<Buffer>>,
    status: watch::Receiver<GatewayStatus>,
    stop: watch::Receiver<bool>,
) -> Uplink {
    let mut mqtt = MqttOptions::new(opts.sn.clone(), opts.host.clone(), opts.port);
    mqtt.set_credentials(opts.sn.clone(), opts.key.clone());
    mqtt.set_keep_alive(opts.keep_alive);
    // Queued commands and unacknowledged messages survive a reconnection.
    mqtt.set_clean_session(false);
    mqtt.set_last_will(LastWill::new(
        topic(&opts.sn, "status"),
        r#"{"v":1,"online":false}"#,
        QoS::AtLeastOnce,
        true,
    ));
    mqtt.set_max_packet_size(512 * 1024, 512 * 1024);
    mqtt.set_inflight(u16::try_from(WINDOW * 4).unwrap_or(32));
    let (client, events) = AsyncClient::new(mqtt, 64);
    let (tx, rx) = mpsc::channel(256);
    let (commands_tx, commands) = mpsc::channel(64);
    let (connected_tx, connected) = watch::channel(0);
    let acked = buffer.lock().map_or(0, |b| b.acked());
    let pump = Pump {
        sn: opts.sn,
        client,
        buffer,
        fifo: VecDeque::new(),
        inflight: HashMap::new(),
        readings: BTreeSet::new(),
        sent_upto: acked,
        messages: BTreeMap::new(),
        queued: BTreeSet::new(),
        next_message: 0,
        rekey: None,
        connected: false,
        cleaned: false,
    };
    let (events_tx, events_rx) = mpsc::unbounded_channel();
    let (ctl_tx, ctl_rx) = mpsc::unbounded_channel();
    let poller = tokio::spawn(poll_events(events, events_tx, ctl_rx, stop.clone()));
    let task = tokio::spawn(async move {
        pump.run(
            events_rx,
            ctl_tx,
            rx,
            commands_tx,
            connected_tx,
            status,
            stop,
        )
        .await;
        // Gone with the pump whatever it was doing (connecting, waiting to reconnect).
        poller.abort();
    });
    Uplink {
        tx,
        commands,
        connected,
        task,
    }
}

struct Pump {
    sn: String,
    client: AsyncClient,
    buffer: Arc<Mutex<Buffer>>,
    /// Publishes handed to the client, not yet written (no packet id yet), in order.
    fifo: VecDeque<Tag>,
    /// Written and not yet acknowledged, by packet id.
    inflight: HashMap<u16, Tag>,
    /// Readings handed to the client and not acknowledged.
    readings: BTreeSet<u64>,
    /// The newest reading handed to the client.
    sent_upto: u64,
    /// Replies and events not yet acknowledged, and those of them handed to the client.
    messages: BTreeMap<u64, Pending>,
    queued: BTreeSet<u64>,
    next_message: u64,
    /// A new key to sign in with once the rotation's reply is acknowledged (or by the instant).
    rekey: Option<(String, tokio::time::Instant)>,
    connected: bool,
    /// The client moved what it had not sent into its pending list (a connection ended).
    cleaned: bool,
}

/// A key to sign in with after the next DISCONNECT (a key rotation).
struct Rekey(String);

/// Polls the client for ever (never cancelled, see the module doc); after a failure waits with
/// a back-off (1 s doubling to 30 s, with jitter, reset by a CONNACK). Ends after a DISCONNECT
/// that is not a key rotation's, or when the pump is gone.
async fn poll_events(
    mut events: EventLoop,
    out: mpsc::UnboundedSender<Result<Event, String>>,
    mut ctl: mpsc::UnboundedReceiver<Rekey>,
    mut stop: watch::Receiver<bool>,
) {
    let mut wait = BACKOFF_MIN;
    let mut rekey = None;
    loop {
        let event = events.poll().await;
        while let Ok(Rekey(key)) = ctl.try_recv() {
            rekey = Some(key);
        }
        let mut end = false;
        match &event {
            Ok(Event::Incoming(Packet::ConnAck(_))) => wait = BACKOFF_MIN,
            Ok(Event::Outgoing(Outgoing::Disconnect)) => match rekey.take() {
                Some(key) => {
                    let user = events.mqtt_options.client_id();
                    events.mqtt_options.set_credentials(user, key);
                    // The broker may keep the socket after a DISCONNECT: drop it, and connect
                    // again at once (what was unacknowledged is resent in the session).
                    events.clean();
                    wait = BACKOFF_MIN;
                }
                None => end = true,
            },
            _ => {}
        }
        let failed = event.is_err();
        if out.send(event.map_err(|e| e.to_string())).is_err() || end {
            return;
        }
        if failed {
            let now = wait.mul_f64(1.0 + jitter() * 0.25).min(BACKOFF_MAX);
            wait = (wait * 2).clamp(BACKOFF_MIN, BACKOFF_MAX);
            tracing::debug!(retry_in = ?now, "reconnecting");
            tokio::select! {
                _ = stop.wait_for(|s| *s) => return,
                () = tokio::time::sleep(now) => {}
            }
        }
    }
}

impl Pump {
    #[allow(clippy::too_many_arguments)]
    async fn run(
        mut self,
        mut events: mpsc::UnboundedReceiver<Result<Event, String>>,
        ctl: mpsc::UnboundedSender<Rekey>,
        mut rx: mpsc::Receiver<ToUplink>,
        commands: mpsc::Sender<Command>,
        connected: watch::Sender<u64>,
        mut status: watch::Receiver<GatewayStatus>,
        mut stop: watch::Receiver<bool>,
    ) {
        let cmd_topic = topic(&self.sn, "cmd");
        let mut tick = tokio::time::interval(Duration::from_millis(500));
        loop {
            if self.connected {
                self.fill();
            }
            tokio::select! {
                _ = stop.wait_for(|s| *s) => break,
                event = events.recv() => match event {
                    None => break,
                    Some(Ok(Event::Incoming(Packet::ConnAck(ack)))) => {
                        self.on_connack(ack.session_present);
                        let _ = self.client.try_subscribe(cmd_topic.clone(), QoS::AtLeastOnce);
                        self.publish_status(&status.borrow());
                        connected.send_modify(|n| *n += 1);
                        tracing::info!(gateway = %self.sn, "signed in to the portal");
                    }
                    Some(Ok(Event::Incoming(Packet::Publish(p)))) if p.topic == cmd_topic => {
                        match serde_json::from_slice::<Command>(&p.payload) {
                            Ok(cmd) => {
                                if commands.try_send(cmd).is_err() {
                                    tracing::warn!("command dropped: too many waiting");
                                }
                            }
                            Err(e) => tracing::warn!(%e, "unreadable command dropped"),
                        }
                    }
                    Some(Ok(Event::Outgoing(Outgoing::Publish(pkid)))) => self.on_written(pkid),
                    Some(Ok(Event::Incoming(Packet::PubAck(ack)))) => {
                        if let Some(tag) = self.inflight.remove(&ack.pkid) {
                            self.on_ack(tag, &ctl);
                        }
                    }
                    Some(Ok(Event::Outgoing(Outgoing::Disconnect))) => self.on_lost(),
                    Some(Ok(_)) => {}
                    Some(Err(e)) => {
                        if self.connected {
                            tracing::warn!(error = %e, "portal connection lost; reconnecting");
                        } else {
                            tracing::debug!(error = %e, "portal not reachable");
                        }
                        self.on_lost();
                    }
                },
                msg = rx.recv() => match msg {
                    Some(ToUplink::Message { leaf, payload, acked }) => {
                        if self.messages.len() >= MESSAGES_MAX
                            && let Some((&oldest, _)) = self.messages.iter().next()
                        {
                            self.messages.remove(&oldest);
                            self.queued.remove(&oldest);
                        }
                        self.next_message += 1;
                        self.messages.insert(self.next_message, (leaf, payload, acked));
                    }
                    Some(ToUplink::Reading) => {}
                    Some(ToUplink::Rekey(key)) => {
                        self.rekey = Some((key, tokio::time::Instant::now() + Duration::from_secs(5)));
                    }
                    None => break,
                },
                Ok(()) = status.changed() => {
                    if self.connected {
                        self.publish_status(&status.borrow_and_update());
                    }
                }
                _ = tick.tick() => {
                    if let Ok(mut b) = self.buffer.lock()
                        && let Err(e) = b.save_cursor()
                    {
                        tracing::warn!(%e, "could not save the buffer's cursor");
                    }
                    if self.rekey.as_ref().is_some_and(|(_, by)| *by <= tokio::time::Instant::now()) {
                        self.apply_rekey(&ctl);
                    }
                }
            }
        }
        self.goodbye(&mut events).await;
    }

    /// The client wrote a publish: a packet id still in flight is a resend of a resumed
    /// session, any other is the oldest publish handed to the client.
    fn on_written(&mut self, pkid: u16) {
        if !self.inflight.contains_key(&pkid)
            && let Some(tag) = self.fifo.pop_front()
        {
            self.inflight.insert(pkid, tag);
        }
    }

    /// The connection ended: what the client had not sent went to its pending list.
    fn on_lost(&mut self) {
        if self.connected {
            self.cleaned = true;
        }
        self.connected = false;
    }

    fn on_connack(&mut self, session_present: bool) {
        self.connected = true;
        if self.cleaned && !session_present {
            // The client dropped what it had pending: start again from what is acknowledged.
            self.fifo.clear();
            self.inflight.clear();
            self.readings.clear();
            self.queued.clear();
            self.sent_upto = self.buffer.lock().map_or(0, |b| b.acked());
        }
        self.cleaned = false;
    }

    /// Hands the client unsent replies and events, then readings up to the window.
    fn fill(&mut self) {
        let unsent: Vec<u64> = self
            .messages
            .keys()
            .filter(|id| !self.queued.contains(id))
            .copied()
            .collect();
        for id in unsent {
            let Some((leaf, payload, _)) = self.messages.get(&id) else {
                continue;
            };
            let (leaf, payload) = (*leaf, payload.clone());
            if !self.publish(leaf, false, payload, Tag::Message(id)) {
                return;
            }
            self.queued.insert(id);
        }
        while self.readings.len() < WINDOW {
            let next = match self.buffer.lock() {
                Ok(mut b) => {
                    let after = self.sent_upto.max(b.acked());
                    b.next_after(after)
                }
                Err(_) => return,
            };
            match next {
                Ok(Some((seq, payload))) => {
                    if !self.publish("telemetry", false, payload, Tag::Reading(seq)) {
                        return;
                    }
                    self.readings.insert(seq);
                    self.sent_upto = seq;
                }
                Ok(None) => return,
                Err(e) => {
                    tracing::warn!(%e, "the reading buffer could not be read");
                    return;
                }
            }
        }
    }

    fn publish(&mut self, leaf: &str, retain: bool, payload: Vec<u8>, tag: Tag) -> bool {
        let ok = self
            .client
            .try_publish(topic(&self.sn, leaf), QoS::AtLeastOnce, retain, payload)
            .is_ok();
        if ok {
            self.fifo.push_back(tag);
        }
        ok
    }

    fn publish_status(&mut self, status: &GatewayStatus) {
        if let Ok(payload) = serde_json::to_vec(status) {
            self.publish("status", true, payload, Tag::Status);
        }
    }

    fn on_ack(&mut self, tag: Tag, ctl: &mpsc::UnboundedSender<Rekey>) {
        match tag {
            Tag::Reading(seq) => self.acked_reading(seq),
            Tag::Message(id) => {
                self.queued.remove(&id);
                if let Some((_, _, Some(acked))) = self.messages.remove(&id) {
                    let _ = acked.send(());
                }
                if self.rekey.is_some() {
                    self.apply_rekey(ctl);
                }
            }
            Tag::Status => {}
        }
    }

    fn acked_reading(&mut self, seq: u64) {
        self.readings.remove(&seq);
        // Everything below the oldest reading still in flight is acknowledged.
        let upto = self
            .readings
            .first()
            .map_or(self.sent_upto, |oldest| oldest - 1);
        if let Ok(mut b) = self.buffer.lock() {
            b.ack(upto);
        }
    }

    /// Signs in again with the new key: a clean DISCONNECT (no last will, the session kept),
    /// then the poll task connects again with it.
    fn apply_rekey(&mut self, ctl: &mpsc::UnboundedSender<Rekey>) {
        let Some((key, _)) = self.rekey.take() else {
            return;
        };
        let _ = ctl.send(Rekey(key));
        if self.client.try_disconnect().is_ok() {
            tracing::info!(gateway = %self.sn, "signing in again with the rotated key");
        }
    }

    /// Stopping: the offline status, the cursor saved, a clean DISCONNECT (2 s at most).
    async fn goodbye(&mut self, events: &mut mpsc::UnboundedReceiver<Result<Event, String>>) {
        if let Ok(mut b) = self.buffer.lock() {
            let _ = b.save_cursor();
        }
        if !self.connected {
            return;
        }
        // What is in flight gets a second to be acknowledged (else it is sent again next time).
        let _ = tokio::time::timeout(Duration::from_secs(1), async {
            while !self.inflight.is_empty() || !self.fifo.is_empty() {
                match events.recv().await {
                    None | Some(Err(_)) => return,
                    Some(Ok(Event::Outgoing(Outgoing::Publish(pkid)))) => self.on_written(pkid),
                    Some(Ok(Event::Incoming(Packet::PubAck(ack)))) => {
                        if let Some(Tag::Reading(seq)) = self.inflight.remove(&ack.pkid) {
                            self.acked_reading(seq);
                        }
                    }
                    Some(Ok(_)) => {}
                }
            }
        })
        .await;
        let offline = br#"{"v":1,"online":false}"#.to_vec();
        let _ = self
            .client
            .try_publish(topic(&self.sn, "status"), QoS::AtLeastOnce, true, offline);
        let _ = self.client.try_disconnect();
        let _ = tokio::time::timeout(Duration::from_secs(2), async {
            while let Some(event) = events.recv().await {
                match event {
                    Ok(Event::Outgoing(Outgoing::Disconnect)) | Err(_) => break,
                    Ok(Event::Outgoing(Outgoing::Publish(pkid))) => self.on_written(pkid),
                    Ok(Event::Incoming(Packet::PubAck(ack))) => {
                        if let Some(Tag::Reading(seq)) = self.inflight.remove(&ack.pkid) {
                            self.acked_reading(seq);
                        }
                    }
                    Ok(_) => {}
                }
            }
        })
        .await;
        if let Ok(mut b) = self.buffer.lock() {
            let _ = b.save_cursor();
        }
    }
}

/// 0..1 from the clock, enough to spread gateways that lost the broker together.
fn jitter() -> f64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    f64::from(nanos % 1000) / 1000.0
}
