//! A simulated gateway as the fleet runs it: signs in with its SN and key, sends one telemetry
//! report every report period with QoS 1 (resending the last one until it is acknowledged),
//! pings when idle, and after a lost or refused connection reconnects with the gateway agent's
//! back-off (1 s doubling to 30 s, plus up to a quarter of jitter, reset by a CONNACK; see
//! `crates/agent/src/uplink.rs`). One task per gateway and no thread: a few KB each.

use std::{
    io,
    net::{IpAddr, Ipv4Addr, SocketAddr},
    sync::{
        Mutex,
        atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering},
    },
    time::Duration,
};

use devices::report::topic;
use tokio::{sync::Semaphore, time::Instant};

use crate::{
    gateway_client::{Incoming, Login, Publisher, Reader, connect},
    load::{gateway_key, gateway_sn},
    payload::Template,
};

/// The agent's back-off bounds (`crates/agent/src/uplink.rs`).
pub const BACKOFF_MIN: Duration = Duration::from_secs(1);
pub const BACKOFF_MAX: Duration = Duration::from_secs(30);
/// The agent's MQTT keep-alive (`crates/agent/src/run.rs`).
pub const KEEP_ALIVE: Duration = Duration::from_secs(60);
/// A sign-in that has no CONNACK by then counts as failed and is retried.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// What all gateways did, counted together.
#[derive(Default)]
pub struct Counters {
    pub stop: AtomicBool,
    /// Stop sending new reports (the ones sent are still acknowledged).
    pub quiet: AtomicBool,
    pub online: AtomicUsize,
    /// Reports sent (each counted once, however often it was resent).
    pub published: AtomicU64,
    /// Reports the portal acknowledged (PUBACK: after its commit).
    pub acked: AtomicU64,
    pub sign_ins: AtomicU64,
    /// TCP connections refused or reset before a CONNACK (nobody listening, a full backlog,
    /// the broker's per-address gate).
    pub refused_tcp: AtomicU64,
    /// CONNACKs with a refusal code.
    pub refused_connack: AtomicU64,
    /// No CONNACK within `CONNECT_TIMEOUT`.
    pub timed_out: AtomicU64,
    /// Established connections that ended.
    pub dropped: AtomicU64,
    /// Sign-ins that succeeded after at least one failed attempt since the gateway was last
    /// online.
    pub in_after_retry: AtomicU64,
    /// The most attempts one gateway needed to get back in.
    pub most_attempts: AtomicU64,
    pub first_error: Mutex<Option<String>>,
}

impl Counters {
    fn note(&self, why: &io::Error) {
        if let Ok(mut first) = self.first_error.lock() {
            first.get_or_insert_with(|| why.to_string());
        }
    }

    pub fn get(&self, counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }

    pub fn online(&self) -> usize {
        self.online.load(Ordering::Relaxed)
    }
}

/// How one gateway behaves.
#[derive(Debug, Clone, Copy)]
pub struct Behaviour {
    pub broker: SocketAddr,
    /// Distinct source addresses the gateways share (0: one each).
    pub sources: usize,
    pub report_every: Duration,
    pub values: usize,
}

/// The local address gateway `i` connects from: real gateways come from many addresses, and
/// each loopback address has its own ephemeral ports, so the gateways spread over 127.1.0.1
/// on (Linux routes all of 127/8 to the loopback interface), one each or `sources` in turn.
pub fn source(i: usize, sources: usize, broker: SocketAddr) -> Option<IpAddr> {
    let first = u32::from(Ipv4Addr::new(127, 1, 0, 1));
    let slot = if sources == 0 { i } else { i % sources };
    let slot = u32::try_from(slot).ok().filter(|&s| s < 1 << 22)?;
    matches!(broker.ip(), IpAddr::V4(v4) if v4.is_loopback())
        .then(|| IpAddr::V4(Ipv4Addr::from(first + slot)))
}

/// A small xorshift generator per gateway, for the back-off's jitter.
struct Jitter(u64);

impl Jitter {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % 1000) as f64 / 1000.0
    }
}

/// Gateway `i`: first connects while holding a permit of `ramp` (the first sign-ins are
/// paced; reconnects are not), sends its first report at `first_report`, then one every
/// period, until `counters.stop`.
pub async fn run(
    i: usize,
    how: Behaviour,
    counters: &Counters,
    ramp: &Semaphore,
    first_report: Instant,
) {
    let sn = gateway_sn(i);
    let key = gateway_key(i);
    let login = Login {
        client_id: &sn,
        username: &sn,
        password: &key,
        keep_alive: KEEP_ALIVE,
    };
    let source = source(i, how.sources, how.broker);
    let mut jitter = Jitter(0x9E37_79B9_7F4A_7C15 ^ (i as u64 + 1).wrapping_mul(0xBF58_476D));
    let mut wait = BACKOFF_MIN;
    let mut report = Report {
        next: first_report,
        pending: None,
    };
    let mut first = true;
    let mut attempts = 0u64;
    while !counters.stop.load(Ordering::Relaxed) {
        let permit = if first {
            ramp.acquire().await.ok()
        } else {
            None
        };
        first = false;
        attempts += 1;
        let attempt = tokio::time::timeout(CONNECT_TIMEOUT, connect(how.broker, source, &login));
        let result = attempt.await;
        drop(permit);
        match result {
            Ok(Ok((publisher, reader))) => {
                wait = BACKOFF_MIN;
                counters.sign_ins.fetch_add(1, Ordering::Relaxed);
                if attempts > 1 {
                    counters.in_after_retry.fetch_add(1, Ordering::Relaxed);
                }
                counters
                    .most_attempts
                    .fetch_max(attempts, Ordering::Relaxed);
                attempts = 0;
                counters.online.fetch_add(1, Ordering::Relaxed);
                let ended = online(&sn, how, counters, publisher, reader, &mut report).await;
                counters.online.fetch_sub(1, Ordering::Relaxed);
                if counters.stop.load(Ordering::Relaxed) {
                    return;
                }
                counters.dropped.fetch_add(1, Ordering::Relaxed);
                counters.note(&ended);
            }
            Ok(Err(e)) => {
                let counter = if e.kind() == io::ErrorKind::ConnectionRefused
                    && e.to_string().contains("CONNACK")
                {
                    &counters.refused_connack
                } else {
                    &counters.refused_tcp
                };
                counter.fetch_add(1, Ordering::Relaxed);
                counters.note(&e);
            }
            Err(_) => {
                counters.timed_out.fetch_add(1, Ordering::Relaxed);
            }
        }
        // The agent's rule: wait, then double the next wait (a CONNACK resets it).
        let now = wait.mul_f64(1.0 + jitter.next() * 0.25).min(BACKOFF_MAX);
        wait = (wait * 2).clamp(BACKOFF_MIN, BACKOFF_MAX);
        tokio::time::sleep(now).await;
    }
}

/// When the next report is due, and the one sent but not yet acknowledged (its time stamp):
/// kept across connections, as the agent keeps unacknowledged readings in its buffer.
struct Report {
    next: Instant,
    pending: Option<i64>,
}

/// One connection, until it fails (the error). The run ends by dropping the gateways' runtime,
/// which closes every connection (no per-gateway timer just to look at a stop flag).
async fn online(
    sn: &str,
    how: Behaviour,
    counters: &Counters,
    mut publisher: Publisher,
    mut reader: Reader,
    report: &mut Report,
) -> io::Error {
    let telemetry = topic(sn, "telemetry");
    // The packet id of the pending report on this connection.
    let mut in_flight = None;
    if let Some(ts) = report.pending {
        match send(sn, how, &telemetry, &mut publisher, ts).await {
            Ok(id) => in_flight = Some(id),
            Err(e) => return e,
        }
    }
    let ping = tokio::time::sleep_until(publisher.ping_due());
    tokio::pin!(ping);
    loop {
        let may_send = report.pending.is_none() && !counters.quiet.load(Ordering::Relaxed);
        tokio::select! {
            packet = reader.next() => match packet {
                Ok(Incoming::PubAck { packet_id }) if Some(packet_id) == in_flight => {
                    in_flight = None;
                    report.pending = None;
                    counters.acked.fetch_add(1, Ordering::Relaxed);
                }
                Ok(_) => {}
                Err(e) => return e,
            },
            () = tokio::time::sleep_until(report.next), if may_send => {
                let ts = chrono::Utc::now().timestamp_millis();
                match send(sn, how, &telemetry, &mut publisher, ts).await {
                    Ok(id) => in_flight = Some(id),
                    Err(e) => return e,
                }
                report.pending = Some(ts);
                counters.published.fetch_add(1, Ordering::Relaxed);
                report.next += how.report_every;
            }
            () = &mut ping => {
                if let Err(e) = publisher.ping_if_idle().await {
                    return e;
                }
                ping.as_mut().reset(publisher.ping_due());
            }
        }
    }
}

/// Publishes the report of time `ts` (built now and dropped after: nothing per gateway is
/// kept between reports but the connection's own buffers).
async fn send(
    sn: &str,
    how: Behaviour,
    telemetry: &str,
    publisher: &mut Publisher,
    ts: i64,
) -> io::Result<u16> {
    let payload = Template::new(sn, 1, how.values).render(ts, ts as f64 / 3.6e9);
    publisher.publish(telemetry, &payload).await
}
