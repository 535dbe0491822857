//! A simulated gateway's MQTT connection, driven by a task of its own.
//!
//! rumqttc's `AsyncClient::publish` only queues a request; the `EventLoop` must be polled for it
//! to reach the broker, and for acknowledgements, pings and commands to come in. The runtime
//! used to poll the event loop in the same `select!` in which it published: while a branch
//! awaited a publish into a full request queue, nothing polled the event loop, so the queue never
//! drained and the gateway froze (no reports, no pings) until the broker dropped it, and then
//! never reconnected (issue 13). Here a pump task polls the event loop all the time, whatever
//! the runtime does, and hands it commands through a channel it never waits on; publishing can
//! then only wait for the broker, never for itself.
//!
//! The pump also reconnects after any error, with an exponential back-off (1 s doubling to 30 s,
//! with jitter so that gateways dropped together do not come back together), reset by the next
//! CONNACK.

use std::{collections::VecDeque, time::Duration};

use devices::report::{Command, topic};
use rumqttc::{AsyncClient, Event, EventLoop, Packet, QoS};
use tokio::{
    sync::{mpsc, oneshot, watch},
    task::JoinHandle,
};

/// Commands waiting for the runtime; more are dropped (and time out at the portal), as a real
/// gateway's command buffer would overflow.
const COMMAND_BUFFER: usize = 256;

/// Messages that must arrive kept while the client's queue is full; beyond it the oldest go.
const OUTBOX_MAX: usize = 1000;

/// First and longest wait before reconnecting.
pub const BACKOFF_MIN: Duration = Duration::from_secs(1);
pub const BACKOFF_MAX: Duration = Duration::from_secs(30);

/// The next wait after `current` (doubling, capped) and the wait to use now, with up to 25 %
/// jitter drawn from `seed`.
pub fn backoff(current: Duration, seed: u64) -> (Duration, Duration) {
    let jitter = crate::noise::unit(0xBAC0, seed) * 0.25;
    let now = current.mul_f64(1.0 + jitter).min(BACKOFF_MAX);
    (current.saturating_mul(2).min(BACKOFF_MAX), now)
}

/// One signed-in (or signing-in) connection and its pump.
pub struct Connection {
    pub client: AsyncClient,
    /// Commands the broker delivered on the gateway's `cmd` topic.
    pub commands: mpsc::Receiver<Command>,
    /// How many times this connection has been accepted (a CONNACK); it changes on every
    /// (re)connection, when the gateway must announce itself again.
    pub connected: watch::Receiver<u64>,
    sn: String,
    /// (leaf, retained, payload) waiting for room in the client's queue, oldest first.
    outbox: VecDeque<(&'static str, bool, Vec<u8>)>,
    halt: Option<oneshot::Sender<Duration>>,
    pump: JoinHandle<()>,
}

impl Connection {
    /// Starts polling `events` (whose client is `client`) for the gateway `sn`.
    pub fn start(sn: &str, client: AsyncClient, events: EventLoop) -> Connection {
        let (commands_tx, commands) = mpsc::channel(COMMAND_BUFFER);
        let (connected_tx, connected) = watch::channel(0);
        let (halt_tx, halt_rx) = oneshot::channel();
        let pump = tokio::spawn(pump(
            sn.to_string(),
            events,
            commands_tx,
            connected_tx,
            halt_rx,
        ));
        Connection {
            client,
            commands,
            connected,
            sn: sn.to_string(),
            outbox: VecDeque::new(),
            halt: Some(halt_tx),
            pump,
        }
    }

    /// Publishes a message that must arrive (QoS 1), after those still in the outbox.
    pub fn send(&mut self, leaf: &'static str, retain: bool, payload: Vec<u8>) {
        if self.outbox.len() >= OUTBOX_MAX {
            self.outbox.pop_front();
            tracing::warn!(gateway = %self.sn, "outbox full: the oldest message dropped");
        }
        self.outbox.push_back((leaf, retain, payload));
        self.flush();
    }

    /// Publishes a message the next one replaces (telemetry, interim progress): dropped when it
    /// cannot be queued at once.
    pub fn offer(&mut self, leaf: &'static str, payload: Vec<u8>) {
        self.flush();
        if !self.outbox.is_empty() || !self.try_publish(leaf, false, payload) {
            tracing::debug!(gateway = %self.sn, leaf, "dropped: the broker is not keeping up");
        }
    }

    /// Moves what the outbox holds into the client's queue while there is room.
    pub fn flush(&mut self) {
        while let Some((leaf, retain, payload)) = self.outbox.pop_front() {
            if !self.try_publish(leaf, retain, payload.clone()) {
                self.outbox.push_front((leaf, retain, payload));
                return;
            }
        }
    }

    /// Whether messages wait in the outbox.
    pub fn backlog(&self) -> bool {
        !self.outbox.is_empty()
    }

    /// Flushes until the outbox is empty, for at most `within`.
    pub async fn drain(&mut self, within: Duration) {
        let until = tokio::time::Instant::now() + within;
        self.flush();
        while self.backlog() && tokio::time::Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(20)).await;
            self.flush();
        }
    }

    fn try_publish(&self, leaf: &'static str, retain: bool, payload: Vec<u8>) -> bool {
        self.client
            .try_publish(topic(&self.sn, leaf), QoS::AtLeastOnce, retain, payload)
            .is_ok()
    }

    /// Says goodbye: what the outbox holds, then a DISCONNECT (no last will), given up to two
    /// seconds each.
    pub async fn close(mut self) {
        self.drain(Duration::from_secs(2)).await;
        let client = self.client.clone();
        let pump = &mut self.pump;
        let _ = tokio::time::timeout(Duration::from_secs(2), async move {
            let _ = client.disconnect().await;
            let _ = pump.await;
        })
        .await;
    }

    /// Goes silent as a gateway that loses power does: nothing more is read or written, but the
    /// socket stays open for `hold` (the broker sees no goodbye and keeps the session until its
    /// keep-alive runs out or the gateway's next connection takes it over), then closes.
    pub fn freeze(mut self, hold: Duration) {
        if let Some(halt) = self.halt.take() {
            let _ = halt.send(hold);
        }
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        // A frozen pump keeps its socket for the hold time and then ends by itself.
        if self.halt.is_some() {
            self.pump.abort();
        }
    }
}

async fn pump(
    sn: String,
    mut events: EventLoop,
    commands: mpsc::Sender<Command>,
    connected: watch::Sender<u64>,
    mut halt: oneshot::Receiver<Duration>,
) {
    let cmd_topic = topic(&sn, "cmd");
    let mut wait = BACKOFF_MIN;
    let mut attempt = 0u64;
    loop {
        let event = tokio::select! {
            hold = &mut halt => {
                if let Ok(hold) = hold {
                    tokio::time::sleep(hold).await;
                }
                return;
            }
            event = events.poll() => event,
        };
        match event {
            Ok(Event::Incoming(Packet::ConnAck(_))) => {
                wait = BACKOFF_MIN;
                connected.send_modify(|n| *n += 1);
            }
            Ok(Event::Incoming(Packet::Publish(p))) if p.topic == cmd_topic => {
                match serde_json::from_slice::<Command>(&p.payload) {
                    Ok(cmd) => {
                        if let Err(e) = commands.try_send(cmd) {
                            tracing::warn!(gateway = %sn, %e, "command dropped: buffer full");
                        }
                    }
                    Err(e) => tracing::warn!(gateway = %sn, %e, "unreadable command dropped"),
                }
            }
            Ok(Event::Outgoing(rumqttc::Outgoing::Disconnect)) => {
                // The goodbye is written; the runtime is closing this connection.
                return;
            }
            Ok(_) => {}
            Err(e) => {
                attempt += 1;
                let (next, now) = backoff(wait, crate::noise::mix(attempt ^ seed_of(&sn)));
                wait = next;
                tracing::info!(gateway = %sn, %e, retry_in = ?now, "broker connection lost; reconnecting");
                tokio::select! {
                    hold = &mut halt => {
                        if let Ok(hold) = hold {
                            tokio::time::sleep(hold).await;
                        }
                        return;
                    }
                    () = tokio::time::sleep(now) => {}
                }
            }
        }
    }
}

fn seed_of(sn: &str) -> u64 {
    sn.bytes()
        .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_doubles_to_its_cap_with_bounded_jitter() {
        let mut wait = BACKOFF_MIN;
        let mut waits = Vec::new();
        for seed in 0..10 {
            let (next, now) = backoff(wait, seed);
            assert!(now >= wait && now <= wait.mul_f64(1.25).min(BACKOFF_MAX));
            waits.push(now);
            wait = next;
        }
        assert_eq!(wait, BACKOFF_MAX);
        assert!(waits[0] < Duration::from_millis(1250));
        assert!(waits[9] <= BACKOFF_MAX);
        assert!(waits[4] >= Duration::from_secs(16));
    }
}
