//! The load: simulated gateways, each on its own MQTT connection (`gateway_client`),
//! publishing telemetry with QoS 1 as fast as the shared end-to-end budget allows.

use std::{
    fmt::Display,
    io,
    net::{IpAddr, Ipv4Addr, SocketAddr},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering},
    },
    time::Duration,
};

use devices::report::topic;
use tokio::sync::Semaphore;

use crate::{
    gateway_client::{Incoming, Login, Publisher, Reader, connect},
    payload::Template,
};

pub(crate) struct Load {
    pub(crate) stop: AtomicBool,
    pub(crate) connected: AtomicUsize,
    pub(crate) published: AtomicU64,
    /// PUBACKs gateways received from the broker: the broker has the message, nothing more.
    pub(crate) broker_acked: AtomicU64,
    pub(crate) errors: AtomicU64,
    /// What the first failed connection said, for the report.
    pub(crate) first_error: Mutex<Option<String>>,
    /// End-to-end flow control: a gateway publishes only with a permit; a permit comes back
    /// when the portal acknowledges a message, i.e. after ingest committed it.
    pub(crate) budget: Semaphore,
}

impl Load {
    /// Counts a failed gateway connection and keeps the first reason.
    pub(crate) fn fail(&self, why: impl Display) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut first) = self.first_error.lock() {
            first.get_or_insert_with(|| why.to_string());
        }
    }

    pub(crate) fn first_error(&self) -> String {
        self.first_error
            .lock()
            .ok()
            .and_then(|first| first.clone())
            .unwrap_or_default()
    }
}

pub fn gateway_sn(i: usize) -> String {
    format!("BGW{i:06}")
}

pub(crate) fn gateway_key(i: usize) -> String {
    format!("key-{i}")
}

/// Gives a permit back for each message the portal acknowledged since the last look.
pub(crate) async fn release_permits(load: Arc<Load>, committed: Arc<devices::link::LinkStats>) {
    let mut seen = committed.acked.load(Ordering::Relaxed);
    let mut tick = tokio::time::interval(Duration::from_millis(1));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let now = committed.acked.load(Ordering::Relaxed);
        if now > seen {
            load.budget
                .add_permits(usize::try_from(now - seen).unwrap_or(usize::MAX));
            seen = now;
        }
    }
}

/// The local address gateway `i` connects from: real gateways come from many addresses and
/// the broker bounds connections per address, so against a loopback broker each simulated
/// gateway takes its own address of 127/8 (Linux routes all of it to the loopback interface),
/// from 127.1.0.1 on.
fn source(i: usize, broker: SocketAddr) -> Option<IpAddr> {
    let first = u32::from(Ipv4Addr::new(127, 1, 0, 1));
    let i = u32::try_from(i).ok().filter(|&i| i < 1 << 22)?;
    matches!(broker.ip(), IpAddr::V4(v4) if v4.is_loopback())
        .then(|| IpAddr::V4(Ipv4Addr::from(first + i)))
}

/// One gateway: signs in with its SN and key and publishes telemetry reports with QoS 1, each
/// as soon as the shared end-to-end budget allows, until told to stop. One task reads the
/// broker's acks and publishes (no task or channel between them, to keep the load lean). A
/// connection that fails counts as an error and ends the gateway (no reconnect: the report
/// shows it).
pub(crate) async fn gateway(
    i: usize,
    addr: SocketAddr,
    window: u16,
    load: Arc<Load>,
    template: Template,
    base_ts: i64,
    connect_by: tokio::time::Instant,
) {
    let sn = gateway_sn(i);
    let key = gateway_key(i);
    let login = Login {
        client_id: &sn,
        username: &sn,
        password: &key,
        keep_alive: Duration::from_secs(30),
    };
    let (mut publisher, mut acks) =
        match tokio::time::timeout_at(connect_by, connect(addr, source(i, addr), &login)).await {
            Ok(Ok(connection)) => connection,
            Ok(Err(e)) => return load.fail(format_args!("gateway {sn}: {e}")),
            Err(_) => return load.fail(format_args!("gateway {sn}: no CONNACK in time")),
        };
    load.connected.fetch_add(1, Ordering::Relaxed);
    let telemetry = topic(&sn, "telemetry");
    // Published, not yet acknowledged by the broker: at most `window` (as rumqttc's in-flight
    // limit had it), which also keeps packet ids unique as window <= 65535.
    let mut in_flight = 0u16;
    let window = window.max(1);
    // Reset only when it fires: publishing moves the due time, checked then.
    let ping = tokio::time::sleep_until(publisher.ping_due());
    tokio::pin!(ping);
    let mut seq = 0i64;
    let failed = loop {
        if load.stop.load(Ordering::Relaxed) {
            break None;
        }
        tokio::select! {
            biased;
            packet = acks.next() => {
                if let Err(e) = packet.and_then(|p| on_packet(p, &load, &mut in_flight)) {
                    break Some(e);
                }
            }
            () = &mut ping => {
                if let Err(e) = publisher.ping_if_idle().await {
                    break Some(e);
                }
                ping.as_mut().reset(publisher.ping_due());
            }
            permit = load.budget.acquire(), if in_flight < window => {
                // The budget is closed when the run stops.
                let Ok(permit) = permit else { break None };
                permit.forget();
                if load.stop.load(Ordering::Relaxed) {
                    break None;
                }
                let payload = template.render(base_ts + seq * 100, seq as f64 * 0.001);
                if let Err(e) = publisher.publish(&telemetry, &payload).await {
                    break Some(e);
                }
                in_flight += 1;
                seq += 1;
                load.published.fetch_add(1, Ordering::Relaxed);
            }
        }
    };
    match failed {
        Some(e) => load.fail(format_args!("gateway {sn}: {e}")),
        // The connection stays up (and acks keep being counted) until the gateways' runtime
        // shuts down, as the portal drains what was published.
        None => {
            tokio::spawn(linger(sn, publisher, acks, in_flight, load));
        }
    }
}

/// Counts a broker's PUBACK; anything but an ack for a message in flight (or a packet a
/// publisher may ignore, such as PINGRESP) is a protocol error.
fn on_packet(packet: Incoming, load: &Load, in_flight: &mut u16) -> io::Result<()> {
    match packet {
        Incoming::PubAck { packet_id } => {
            *in_flight = in_flight.checked_sub(1).ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("PUBACK {packet_id} with nothing in flight"),
                )
            })?;
            load.broker_acked.fetch_add(1, Ordering::Relaxed);
            Ok(())
        }
        Incoming::ConnAck { .. } => Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "a second CONNACK",
        )),
        Incoming::Other { .. } => Ok(()),
    }
}

/// Keeps a gateway's connection alive once it stopped publishing: counts the last acks and
/// pings when idle.
async fn linger(
    sn: String,
    mut publisher: Publisher,
    mut acks: Reader,
    mut in_flight: u16,
    load: Arc<Load>,
) {
    loop {
        let step = tokio::select! {
            packet = acks.next() => packet.and_then(|p| on_packet(p, &load, &mut in_flight)),
            () = tokio::time::sleep_until(publisher.ping_due()) => publisher.ping_if_idle().await,
        };
        if let Err(e) = step {
            return load.fail(format_args!("gateway {sn}: {e}"));
        }
    }
}
