//! Crash safety of ingest: gateways publish numbered telemetry reports (QoS 1) to `portal serve`
//! as fast as they can, the server is killed with SIGKILL in the middle, and after a restart on
//! the same data dir every report whose PUBACK the gateway received must have its `samples` row.
//! Reports that were never acknowledged may or may not be stored. The kill is repeated at three
//! different moments on the same SQLite database.
//!
//! The history job is killed the same way in the middle of compacting closed days into blocks:
//! every sample stays readable (from its row or its block) and the next start finishes the job.
//!
//! Two set-ups:
//! - an external broker (the Mosquitto on 127.0.0.1:1883; skipped when none listens): the broker
//!   outlives the portal and redelivers what the portal had not acknowledged;
//! - the embedded broker: it dies with the portal, so it must not acknowledge a gateway's message
//!   before ingest has committed it. Its publish hook hands each message to ingest and waits for
//!   the commit, and the PUBACK goes out only after that hook returns.

use std::{
    collections::{HashMap, HashSet, VecDeque},
    io::{BufRead, BufReader},
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use crate::common::{self, fleet::device_sn, free_port};
use devices::{
    Value,
    report::{DeviceReading, PAYLOAD_VERSION, Telemetry, ValueMap, topic},
};
use rumqttc::{AsyncClient, Event, MqttOptions, Outgoing, Packet, QoS};
use store::Store;
use tokio::sync::watch;

mod compaction;
mod ingest;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const MOSQUITTO: &str = "127.0.0.1:1883";

/// Which broker the gateways and the portal meet at.
#[derive(Clone)]
enum Broker {
    Embedded,
    /// Mosquitto; the portal's client id and shared group are unique to this run.
    External {
        client_id: String,
        group: String,
    },
}

/// A `portal serve` child process; killed (SIGKILL) when dropped.
struct Server {
    child: Child,
    /// Where gateways connect.
    mqtt_port: u16,
}

impl Server {
    fn start(data_dir: &Path, broker: &Broker) -> Result<Server, Box<dyn std::error::Error>> {
        let http_port = free_port()?;
        let mut command = Command::new(env!("CARGO_BIN_EXE_portal"));
        command
            .arg("serve")
            .env_remove("PORTAL_DATABASE_URL")
            .env_remove("PORTAL_MQTT_URL")
            .env_remove("PORTAL_MQTT_USERNAME")
            .env_remove("PORTAL_MQTT_PASSWORD");
        let mqtt_port = match broker {
            Broker::Embedded => {
                let port = free_port()?;
                command
                    .env("PORTAL_MQTT_EMBEDDED", "true")
                    .env("PORTAL_MQTT_ADDR", format!("127.0.0.1:{port}"))
                    .env("PORTAL_MQTT_ADDR_FALLBACK", "false");
                port
            }
            Broker::External { client_id, group } => {
                command
                    .env("PORTAL_MQTT_EMBEDDED", "false")
                    .env("PORTAL_MQTT_URL", format!("mqtt://{MOSQUITTO}"))
                    .env("PORTAL_MQTT_CLIENT_ID", client_id)
                    .env("PORTAL_MQTT_SHARED_GROUP", group);
                1883
            }
        };
        let mut child = command
            .env("PORTAL_HTTP_ADDR", format!("127.0.0.1:{http_port}"))
            .env("PORTAL_DATA_DIR", data_dir)
            .env("PORTAL_ADMIN_PASSWORD", "crash-pass1")
            .env("PORTAL_LOG", "warn")
            // The history job at its quickest: closed days are compacted at once.
            .env("PORTAL_HISTORY_INTERVAL_SECS", "10")
            .env("PORTAL_HISTORY_GRACE_HOURS", "0")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let ready = line.contains("Portal listening");
                println!("[portal] {line}");
                if ready {
                    let _ = tx.send(());
                }
            }
        });
        let mut server = Server { child, mqtt_port };
        if rx.recv_timeout(Duration::from_secs(30)).is_err() {
            let status = server.child.try_wait()?;
            return Err(format!("portal serve did not start (exit: {status:?})").into());
        }
        Ok(server)
    }

    /// SIGKILL: no shutdown code runs.
    fn kill(mut self) -> std::io::Result<()> {
        self.child.kill()?;
        self.child.wait()?;
        Ok(())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What one gateway published and which of it the broker acknowledged, by report number.
#[derive(Default)]
struct Ledger {
    /// Report numbers queued for sending, in order (packet ids are assigned in this order).
    queued: VecDeque<i64>,
    in_flight: HashMap<u16, i64>,
    sent: Vec<i64>,
    acked: HashSet<i64>,
}

fn report(gateway: &str, seq: i64, ts: i64) -> Result<Vec<u8>, serde_json::Error> {
    let values: ValueMap = [
        ("pv1_power", (seq % 5000) as f64),
        ("battery_soc", (seq % 100) as f64),
        ("seq", seq as f64),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), Value::Number(v)))
    .collect();
    let t = Telemetry {
        v: PAYLOAD_VERSION,
        ts,
        devices: vec![DeviceReading {
            sn: device_sn(gateway),
            family: "inverter".into(),
            type_code: 2,
            protocol: "deye-hybrid-1ph".into(),
            model: "CRASH".into(),
            parent: None,
            values,
            raw: Vec::new(),
        }],
    };
    serde_json::to_vec(&t)
}

/// A connected test gateway: a task polls its event loop and keeps the ledger.
struct Gateway {
    sn: &'static str,
    client: AsyncClient,
    ledger: Arc<Mutex<Ledger>>,
    connected: watch::Receiver<bool>,
    poller: tokio::task::JoinHandle<()>,
}

/// What a publishing task needs of a gateway.
struct Handle {
    sn: &'static str,
    client: AsyncClient,
    ledger: Arc<Mutex<Ledger>>,
    connected: watch::Receiver<bool>,
}

impl Handle {
    async fn publish(
        &self,
        seq: i64,
        ts: i64,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let payload = report(self.sn, seq, ts)?;
        // Queued first: the event loop numbers packets in request order.
        self.ledger
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .queued
            .push_back(seq);
        self.client
            .publish(
                topic(self.sn, "telemetry"),
                QoS::AtLeastOnce,
                false,
                payload,
            )
            .await?;
        Ok(())
    }
}

impl Gateway {
    async fn connect(sn: &'static str, key: &str, port: u16) -> Result<Gateway, String> {
        let mut options = MqttOptions::new(sn, "127.0.0.1", port);
        options
            .set_credentials(sn, key)
            .set_keep_alive(Duration::from_secs(5))
            .set_inflight(200);
        let (client, mut events) = AsyncClient::new(options, 64);
        let ledger = Arc::new(Mutex::new(Ledger::default()));
        let (connected_tx, mut connected) = watch::channel(false);
        let book = ledger.clone();
        let poller = tokio::spawn(async move {
            loop {
                match events.poll().await {
                    Ok(Event::Incoming(Packet::ConnAck(_))) => {
                        connected_tx.send_replace(true);
                    }
                    Ok(Event::Outgoing(Outgoing::Publish(pkid))) => {
                        let mut l = book.lock().unwrap_or_else(|e| e.into_inner());
                        if let Some(seq) = l.queued.pop_front() {
                            l.in_flight.insert(pkid, seq);
                            l.sent.push(seq);
                        }
                    }
                    Ok(Event::Incoming(Packet::PubAck(ack))) => {
                        let mut l = book.lock().unwrap_or_else(|e| e.into_inner());
                        if let Some(seq) = l.in_flight.remove(&ack.pkid) {
                            l.acked.insert(seq);
                        }
                    }
                    Ok(_) => {}
                    // The server is gone (or refused us): this connection is over.
                    Err(_) => {
                        connected_tx.send_replace(false);
                        return;
                    }
                }
            }
        });
        tokio::time::timeout(Duration::from_secs(10), connected.wait_for(|c| *c))
            .await
            .map_err(|_| format!("{sn}: no CONNACK"))?
            .map_err(|_| format!("{sn}: connection failed"))?;
        Ok(Gateway {
            sn,
            client,
            ledger,
            connected,
            poller,
        })
    }

    fn handle(&self) -> Handle {
        Handle {
            sn: self.sn,
            client: self.client.clone(),
            ledger: self.ledger.clone(),
            connected: self.connected.clone(),
        }
    }
}

/// Numbers reports across rounds and gateways; a report's timestamp is derived from its number
/// (one millisecond apart), so every report has its own (device, ts).
#[derive(Clone)]
struct Numbers {
    next: Arc<std::sync::atomic::AtomicI64>,
    base_ts: i64,
}

impl Numbers {
    fn take(&self) -> (i64, i64) {
        let seq = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        (seq, self.ts(seq))
    }

    fn ts(&self, seq: i64) -> i64 {
        self.base_ts + seq
    }

    fn peek(&self) -> i64 {
        self.next.load(std::sync::atomic::Ordering::Relaxed)
    }
}
