//! A simulated fleet for the end-to-end tests: gateways that publish numbered telemetry reports
//! (QoS 1) and keep a ledger of which ones the broker acknowledged (with the embedded broker an
//! acknowledgement means the report is committed), and command responders that answer what the
//! portal sends a gateway.

use std::{
    collections::{HashMap, HashSet, VecDeque},
    sync::{
        Arc, Mutex,
        atomic::{AtomicI64, Ordering},
    },
    time::Duration,
};

use devices::{
    Value,
    report::{Command, CommandReply, DeviceReading, PAYLOAD_VERSION, Telemetry, ValueMap, topic},
};
use rumqttc::{AsyncClient, Event, MqttOptions, Outgoing, Packet, QoS};
use tokio::sync::watch;

use super::Error;

pub fn device_sn(gateway: &str) -> String {
    format!("{gateway}-INV")
}

/// Report numbers, unique over the fleet; a report's time is derived from its number (`step`
/// milliseconds apart from `base_ts`), so every report has its own (device, time) and the
/// newest report of a device is the one with the highest number.
#[derive(Clone)]
pub struct Numbers {
    next: Arc<AtomicI64>,
    pub base_ts: i64,
    step: i64,
}

impl Numbers {
    /// Reports one millisecond apart.
    pub fn new(base_ts: i64) -> Numbers {
        Numbers::spaced(base_ts, 1)
    }

    /// Reports `step` milliseconds apart (history over days).
    pub fn spaced(base_ts: i64, step: i64) -> Numbers {
        Numbers {
            next: Arc::default(),
            base_ts,
            step: step.max(1),
        }
    }

    pub fn take(&self) -> (i64, i64) {
        let seq = self.next.fetch_add(1, Ordering::Relaxed);
        (seq, self.base_ts + seq * self.step)
    }

    pub fn seq_of(&self, ts: i64) -> i64 {
        (ts - self.base_ts) / self.step
    }
}

/// What one gateway published and which of it the broker acknowledged (PUBACK), by number.
#[derive(Default)]
pub struct Ledger {
    /// Numbers queued for sending, in order (the client numbers packets in this order).
    queued: VecDeque<i64>,
    in_flight: HashMap<u16, i64>,
    pub acked: HashSet<i64>,
}

/// One report: the number as `pv1_power` (what the realtime endpoint shows as `pac`).
fn report(gateway: &str, seq: i64, ts: i64) -> Result<Vec<u8>, serde_json::Error> {
    let values: ValueMap = [
        ("pv1_power", seq as f64),
        ("battery_soc", (seq % 100) as f64),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), Value::Number(v)))
    .collect();
    serde_json::to_vec(&Telemetry {
        v: PAYLOAD_VERSION,
        ts,
        devices: vec![DeviceReading {
            sn: device_sn(gateway),
            family: "inverter".into(),
            type_code: 2,
            protocol: "deye-hybrid-1ph".into(),
            model: "REPLICA".into(),
            parent: None,
            values,
            raw: Vec::new(),
        }],
    })
}

/// A gateway connected to the broker; a task polls its connection and keeps the ledger.
#[derive(Clone)]
pub struct Gateway {
    pub sn: String,
    client: AsyncClient,
    pub ledger: Arc<Mutex<Ledger>>,
}

impl Gateway {
    /// Connects as `sn`, with its registration key where the broker checks it (the embedded
    /// one).
    pub async fn connect(sn: &str, port: u16, key: Option<&str>) -> Result<Gateway, Error> {
        let mut options = MqttOptions::new(sn, "127.0.0.1", port);
        if let Some(key) = key {
            options.set_credentials(sn, key);
        }
        options
            .set_keep_alive(Duration::from_secs(10))
            .set_inflight(100);
        let (client, mut events) = AsyncClient::new(options, 256);
        let ledger = Arc::new(Mutex::new(Ledger::default()));
        let (connected_tx, mut connected) = watch::channel(false);
        let book = ledger.clone();
        tokio::spawn(async move {
            loop {
                let event = events.poll().await;
                let mut l = book.lock().unwrap_or_else(|e| e.into_inner());
                match event {
                    Ok(Event::Incoming(Packet::ConnAck(_))) => {
                        connected_tx.send_replace(true);
                    }
                    Ok(Event::Outgoing(Outgoing::Publish(pkid))) => {
                        if let Some(seq) = l.queued.pop_front() {
                            l.in_flight.insert(pkid, seq);
                        }
                    }
                    Ok(Event::Incoming(Packet::PubAck(ack))) => {
                        if let Some(seq) = l.in_flight.remove(&ack.pkid) {
                            l.acked.insert(seq);
                        }
                    }
                    Ok(_) => {}
                    // The broker outlives the test's use of it: a failure here is the end.
                    Err(_) => return,
                }
            }
        });
        tokio::time::timeout(Duration::from_secs(10), connected.wait_for(|c| *c))
            .await
            .map_err(|_| format!("{sn}: no CONNACK"))??;
        Ok(Gateway {
            sn: sn.to_string(),
            client,
            ledger,
        })
    }

    /// Publishes report `seq` (QoS 1); the ledger learns whether the broker took it.
    pub async fn publish(&self, seq: i64, ts: i64) -> Result<(), Error> {
        let payload = report(&self.sn, seq, ts)?;
        // Queued first: the event loop numbers packets in request order.
        self.ledger
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .queued
            .push_back(seq);
        self.client
            .publish(
                topic(&self.sn, "telemetry"),
                QoS::AtLeastOnce,
                false,
                payload,
            )
            .await?;
        Ok(())
    }

    pub fn acked(&self) -> HashSet<i64> {
        let l = self.ledger.lock().unwrap_or_else(|e| e.into_inner());
        l.acked.clone()
    }
}

/// Answers every command sent to gateway `sn` with success (code 0), on a connection of its
/// own (so the gateway's ledger counts only its reports). Answers how many it answered.
pub async fn respond(sn: &str, port: u16) -> Result<Arc<AtomicI64>, Error> {
    let mut options = MqttOptions::new(format!("{sn}-cmd"), "127.0.0.1", port);
    options.set_keep_alive(Duration::from_secs(10));
    let (client, mut events) = AsyncClient::new(options, 64);
    let answered = Arc::new(AtomicI64::new(0));
    let (subscribed_tx, mut subscribed) = watch::channel(false);
    let (count, reply_topic) = (answered.clone(), topic(sn, "reply"));
    let cmd_topic = topic(sn, "cmd");
    client.subscribe(&cmd_topic, QoS::AtLeastOnce).await?;
    tokio::spawn(async move {
        while let Ok(event) = events.poll().await {
            match event {
                Event::Incoming(Packet::SubAck(_)) => {
                    subscribed_tx.send_replace(true);
                }
                Event::Incoming(Packet::Publish(p)) if p.topic == cmd_topic => {
                    let Ok(command) = serde_json::from_slice::<Command>(&p.payload) else {
                        continue;
                    };
                    let reply = CommandReply {
                        v: PAYLOAD_VERSION,
                        id: command.id,
                        code: 0,
                        msg: "ok".into(),
                        data: serde_json::Value::Null,
                    };
                    let Ok(payload) = serde_json::to_vec(&reply) else {
                        continue;
                    };
                    if client
                        .try_publish(&reply_topic, QoS::AtLeastOnce, false, payload)
                        .is_ok()
                    {
                        count.fetch_add(1, Ordering::Relaxed);
                    }
                }
                _ => {}
            }
        }
    });
    tokio::time::timeout(Duration::from_secs(10), subscribed.wait_for(|s| *s))
        .await
        .map_err(|_| format!("{sn}: command subscription not acknowledged"))??;
    Ok(answered)
}
