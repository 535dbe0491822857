//! Test harness for the device link: a fresh database, an embedded broker on a free port, a
//! stand-in for ingest that the test controls, and gateways speaking MQTT over real sockets.

#![allow(dead_code)]

use std::{
    io,
    net::{Ipv4Addr, SocketAddr},
    time::Duration,
};

use devices::{
    link::{
        BrokerChoice, BrokerConfig, ClientConfig, Link, LinkConfig, PORTAL_SECRET, PORTAL_USER,
    },
    report::{Item, Submission, SubmissionTx},
};
use rumqttc::{AsyncClient, ConnectionError, Event, Incoming, LastWill, MqttOptions, Publish, QoS};
use store::{Store, telemetry::GatewayStatusUpdate};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpSocket, TcpStream},
    sync::mpsc,
    task::JoinHandle,
};

pub type TestResult = Result<(), Box<dyn std::error::Error>>;

pub const WAIT: Duration = Duration::from_secs(10);

/// How the stand-in for ingest answers.
#[derive(Clone, Copy, PartialEq)]
pub enum Answer {
    /// Commit at once (status messages update the gateway's online state, as ingest does).
    Commit,
    /// Keep `done` unanswered; the test gets it with the submission.
    Hold,
}

pub struct Received {
    pub gateway_sn: String,
    pub item: Item,
    /// Present when the answer is `Hold`.
    pub done: Option<tokio::sync::oneshot::Sender<Result<(), String>>>,
}

/// A stand-in for `devices::ingest`: answers each submission and reports it to the test.
pub fn fake_ingest(
    store: Store,
    answer: Answer,
) -> (SubmissionTx, mpsc::UnboundedReceiver<Received>) {
    let (tx, mut rx) = mpsc::channel::<Submission>(64);
    let (seen_tx, seen_rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Some(s) = rx.recv().await {
            if let Item::Status(status) = &s.item
                && let Ok(Some(g)) = store.gateway_by_sn(&s.gateway_sn).await
            {
                let update = GatewayStatusUpdate {
                    online: status.online,
                    ..GatewayStatusUpdate::default()
                };
                let _ = store.update_gateway_status(g.id, &update, now_ms()).await;
            }
            let done = match answer {
                Answer::Commit => {
                    let _ = s.done.send(Ok(()));
                    None
                }
                Answer::Hold => Some(s.done),
            };
            let _ = seen_tx.send(Received {
                gateway_sn: s.gateway_sn,
                item: s.item,
                done,
            });
        }
    });
    (tx, seen_rx)
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

pub fn link_config(client_id: &str) -> LinkConfig {
    let mut client = ClientConfig::new("127.0.0.1", 0, client_id);
    client.redeliver_after = Duration::from_millis(300);
    LinkConfig {
        broker: BrokerChoice::Embedded(BrokerConfig::new(loopback(0))),
        client,
        sweep_every: Duration::from_millis(200),
        comm_log: devices::link::CommLogConfig::default(),
    }
}

/// `127.0.0.<last>`: a loopback address of its own, for limits kept per address.
pub fn lo(last: u8) -> Ipv4Addr {
    Ipv4Addr::new(127, 0, 0, last)
}

pub fn loopback(port: u16) -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], port))
}

pub struct Harness {
    pub store: Store,
    pub link: Link,
    pub seen: mpsc::UnboundedReceiver<Received>,
    pub addr: SocketAddr,
}

/// A database with the given gateways (SN, key) registered and a started link.
pub async fn harness(
    gateways: &[(&str, &str)],
    answer: Answer,
) -> Result<Harness, Box<dyn std::error::Error>> {
    harness_with(gateways, answer, BrokerConfig::new(loopback(0))).await
}

/// [`harness`] with an embedded broker configured as given.
pub async fn harness_with(
    gateways: &[(&str, &str)],
    answer: Answer,
    broker: BrokerConfig,
) -> Result<Harness, Box<dyn std::error::Error>> {
    let store = store::testing::sqlite().await?;
    for (sn, key) in gateways {
        store.create_gateway(sn, key, "", now_ms()).await?;
    }
    let (tx, seen) = fake_ingest(store.clone(), answer);
    let mut config = link_config("portal-test");
    config.broker = BrokerChoice::Embedded(broker);
    let link = Link::start(store.clone(), config, tx).await?;
    let addr = link.broker_addr().ok_or("no broker")?;
    if !link.client.ready(WAIT).await {
        return Err("portal client not ready".into());
    }
    Ok(Harness {
        store,
        link,
        seen,
        addr,
    })
}

impl Harness {
    /// The next submission for `sn`, skipping others; `None` after `within`.
    pub async fn next_for(&mut self, sn: &str, within: Duration) -> Option<Received> {
        let until = tokio::time::Instant::now() + within;
        loop {
            let r = tokio::time::timeout_at(until, self.seen.recv())
                .await
                .ok()??;
            if r.gateway_sn == sn {
                return Some(r);
            }
        }
    }

    /// Connections to the embedded broker now, by phase.
    pub fn connections(&self) -> devices::link::gate::Counts {
        self.link
            .broker
            .as_ref()
            .map(devices::link::Broker::connections)
            .unwrap_or_default()
    }

    pub async fn portal_secret(&self) -> Result<String, Box<dyn std::error::Error>> {
        Ok(self.store.secret_or_insert(PORTAL_SECRET, "").await?)
    }
}

/// A gateway (or any MQTT client) connected over a real socket.
pub struct Gateway {
    pub client: AsyncClient,
    pub events: mpsc::UnboundedReceiver<Incoming>,
    task: JoinHandle<()>,
}

impl Drop for Gateway {
    fn drop(&mut self) {
        self.task.abort();
    }
}

pub fn options(addr: SocketAddr, client_id: &str, user: &str, password: &str) -> MqttOptions {
    let mut o = MqttOptions::new(client_id, addr.ip().to_string(), addr.port());
    o.set_credentials(user, password)
        .set_keep_alive(Duration::from_secs(5))
        .set_max_packet_size(2 * 1024 * 1024, 2 * 1024 * 1024);
    o
}

/// The gateway's usual options: client id = SN, username = SN, password = key, and a retained
/// offline status as its last will.
pub fn gateway_options(addr: SocketAddr, sn: &str, key: &str) -> MqttOptions {
    let mut o = options(addr, sn, sn, key);
    o.set_last_will(LastWill::new(
        format!("portal/v1/{sn}/status"),
        r#"{"v":1,"online":false}"#,
        QoS::AtLeastOnce,
        true,
    ));
    o
}

/// Connects and waits for the broker's answer: the refusal comes back as the error.
pub async fn connect(options: MqttOptions) -> Result<Gateway, ConnectionError> {
    let (client, mut eventloop) = AsyncClient::new(options, 64);
    let first = tokio::time::timeout(WAIT, eventloop.poll())
        .await
        .map_err(|_| ConnectionError::NetworkTimeout)?;
    match first? {
        Event::Incoming(Incoming::ConnAck(_)) => {}
        other => panic!("expected CONNACK, got {other:?}"),
    }
    let (tx, events) = mpsc::unbounded_channel();
    let task = tokio::spawn(async move {
        loop {
            match eventloop.poll().await {
                Ok(Event::Incoming(i)) => {
                    let _ = tx.send(i);
                }
                Ok(_) => {}
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    });
    Ok(Gateway {
        client,
        events,
        task,
    })
}

impl Gateway {
    /// The next incoming packet matching `pick`, within `within`.
    pub async fn next<T>(
        &mut self,
        within: Duration,
        mut pick: impl FnMut(Incoming) -> Option<T>,
    ) -> Option<T> {
        let until = tokio::time::Instant::now() + within;
        loop {
            let i = tokio::time::timeout_at(until, self.events.recv())
                .await
                .ok()??;
            if let Some(t) = pick(i) {
                return Some(t);
            }
        }
    }

    pub async fn publish(
        &self,
        topic: &str,
        payload: impl Into<Vec<u8>>,
    ) -> Result<(), rumqttc::ClientError> {
        self.client
            .publish(topic, QoS::AtLeastOnce, false, payload.into())
            .await
    }

    /// Publishes its online status (retained), as a gateway does after connecting.
    pub async fn online(&self, sn: &str) -> Result<(), rumqttc::ClientError> {
        self.client
            .publish(
                format!("portal/v1/{sn}/status"),
                QoS::AtLeastOnce,
                true,
                r#"{"v":1,"online":true,"softVer":"1.0"}"#,
            )
            .await
    }

    /// Subscribes and answers whether the broker granted it.
    pub async fn subscribe(&mut self, filter: &str) -> Option<bool> {
        self.client.subscribe(filter, QoS::AtLeastOnce).await.ok()?;
        self.next(WAIT, |i| match i {
            Incoming::SubAck(a) => Some(
                a.return_codes
                    .iter()
                    .all(|c| !matches!(c, rumqttc::SubscribeReasonCode::Failure)),
            ),
            _ => None,
        })
        .await
    }
}

pub fn telemetry(ts: i64, device: &str) -> String {
    format!(
        r#"{{"v":1,"ts":{ts},"devices":[{{"sn":"{device}","family":"inverter","type":1,"values":{{"pv_power":1200.5}}}}]}}"#
    )
}

pub fn publish_of(i: Incoming) -> Option<Publish> {
    match i {
        Incoming::Publish(p) => Some(p),
        _ => None,
    }
}

pub const PORTAL: &str = PORTAL_USER;

/// A TCP connection to `addr` from the loopback source address `from` (Linux routes all of
/// 127/8 to the loopback interface, so a test can play several peers).
pub async fn tcp_from(from: Ipv4Addr, addr: SocketAddr) -> io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::from((from, 0)))?;
    socket.connect(addr).await
}

/// Whether the peer closed `s` (end of stream or reset) within `within`; a connection that
/// stays silent that long is open.
pub async fn closed_within(s: &mut TcpStream, within: Duration) -> bool {
    let mut buf = [0u8; 64];
    loop {
        match tokio::time::timeout(within, s.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            // Whatever the broker sent (a CONNACK), the question is whether it closes after.
            Ok(Ok(_)) => continue,
        }
    }
}

/// Signs in on a raw connection with an MQTT 3.1.1 CONNECT (client id and user name `sn`,
/// password `key`, clean session) and answers the CONNACK's return code.
pub async fn sign_in_raw(s: &mut TcpStream, sn: &str, key: &str) -> io::Result<u8> {
    let mut body = Vec::new();
    let string = |body: &mut Vec<u8>, text: &str| {
        body.extend_from_slice(&u16::try_from(text.len()).unwrap_or(0).to_be_bytes());
        body.extend_from_slice(text.as_bytes());
    };
    string(&mut body, "MQTT");
    // Level 4, flags: user name, password, clean session; keep alive 30 s.
    body.extend_from_slice(&[4, 0xC2, 0, 30]);
    string(&mut body, sn);
    string(&mut body, sn);
    string(&mut body, key);
    let length = u8::try_from(body.len())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "CONNECT too long"))?;
    let mut packet = vec![0x10, length];
    packet.extend_from_slice(&body);
    s.write_all(&packet).await?;
    let mut connack = [0u8; 4];
    tokio::time::timeout(WAIT, s.read_exact(&mut connack))
        .await
        .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "no CONNACK"))??;
    Ok(connack[3])
}

/// Waits until `done` holds, checking every 20 ms; false after `within`.
pub async fn eventually(within: Duration, mut done: impl FnMut() -> bool) -> bool {
    let until = tokio::time::Instant::now() + within;
    while tokio::time::Instant::now() < until {
        if done() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    done()
}
