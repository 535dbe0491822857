//! Test peers: minimal Modbus TCP and Solarman V5 responders built from the project's codec
//! (`devices::modbus`), holding a register image, counting what they are asked, refusing
//! writes to chosen registers with an exception; the portal's embedded broker with a database
//! for sign-in and a stand-in ingest that records what arrives; temporary directories.
#![allow(dead_code)]

use std::{
    collections::BTreeSet,
    net::SocketAddr,
    path::PathBuf,
    sync::{
        Arc, Mutex,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use devices::{
    RegisterType,
    decode::RegisterImage,
    link::{BrokerChoice, BrokerConfig, ClientConfig, CommLogConfig, Link, LinkConfig},
    modbus::{self, Request, Response},
    report::{Item, Submission, SubmissionTx},
};
use store::{Store, telemetry::GatewayStatusUpdate};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
    sync::mpsc,
};

pub type TestResult = Result<(), Box<dyn std::error::Error>>;

pub const GATEWAY: &str = "AGENTGW0001";
pub const KEY: &str = "Kq7xTz2mWp9rLb4v";

/// The test protocol: a few input registers, holding registers with three settings and one
/// holding register that is NOT a setting (never to be written).
pub const PROTOCOL: &str = r#"{
  "code": "test-inverter", "name": "Test inverter", "family": "inverter", "inverter_type": 2,
  "version": 1,
  "points": [
    {"key": "pv_power", "function_code": 4, "address": 10, "data_type": "u16", "unit": "W"},
    {"key": "grid_voltage", "function_code": 4, "address": 11, "data_type": "u16", "scale": 0.1, "unit": "V"},
    {"key": "e_today", "function_code": 4, "address": 200, "data_type": "u16", "scale": 0.1, "unit": "kWh"},
    {"key": "rated_power", "address": 20, "data_type": "u16", "unit": "W"},
    {"key": "power_on", "address": 80, "data_type": "u16"},
    {"key": "charge_amps", "address": 108, "data_type": "u16", "unit": "A"},
    {"key": "sell_time1", "address": 148, "data_type": "u16"}
  ],
  "settings": [
    {"param": "powerOn", "point": "power_on", "encoding": "flag"},
    {"param": "batteryMaxCurrentCharge", "point": "charge_amps", "min": 0, "max": 185},
    {"param": "sellTime1", "point": "sell_time1", "encoding": "hhmm"}
  ]
}"#;

/// A fresh directory under the system's temp dir (and logs to the test's output when
/// `PORTAL_AGENT_LOG` is set).
pub fn temp_dir(name: &str) -> PathBuf {
    if let Ok(filter) = std::env::var("PORTAL_AGENT_LOG") {
        let _ = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
            .with_test_writer()
            .try_init();
    }
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "agent-test-{}-{name}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// One emulated device behind a responder.
#[derive(Default)]
pub struct Device {
    pub unit: u8,
    pub image: RegisterImage,
    /// Writes to these registers are refused with exception 3 (illegal data value).
    pub refuse: BTreeSet<u16>,
    /// Reads touching these registers are refused with exception 2 (illegal data address).
    pub holes: BTreeSet<u16>,
    /// Answers nothing at all while true.
    pub dead: bool,
    /// Leaves this many requests unanswered (a reply lost to noise), then answers again.
    pub drop_next: usize,
    pub requests: usize,
    pub writes: Vec<(u16, Vec<u16>)>,
}

pub type Shared = Arc<Mutex<Device>>;

pub fn device(unit: u8) -> Shared {
    let mut d = Device {
        unit,
        ..Device::default()
    };
    for (a, w) in [(10, 3120), (11, 2305), (200, 124)] {
        d.image.set_word(RegisterType::Input, a, w);
    }
    for (a, w) in [(20, 5000), (80, 1), (108, 100), (148, 2230)] {
        d.image.set_word(RegisterType::Holding, a, w);
    }
    Arc::new(Mutex::new(d))
}

/// The reply PDU to `pdu` for `unit`, or `None` for silence.
pub fn answer(dev: &Shared, unit: u8, pdu: &[u8]) -> Option<Vec<u8>> {
    let mut d = dev.lock().ok()?;
    if d.dead || unit != d.unit {
        return None;
    }
    if d.drop_next > 0 {
        d.drop_next -= 1;
        return None;
    }
    d.requests += 1;
    let request = Request::from_pdu(pdu).ok()?;
    let function = request.function_code();
    let exception = |code| Response::Exception { function, code };
    let response = match request {
        Request::ReadHolding { start, count } | Request::ReadInput { start, count } => {
            let kind = if function == 3 {
                RegisterType::Holding
            } else {
                RegisterType::Input
            };
            if (start..start + count).any(|a| d.holes.contains(&a)) {
                exception(2)
            } else {
                Response::Registers {
                    function,
                    values: (start..start + count)
                        .map(|a| d.image.word(kind, a))
                        .collect(),
                }
            }
        }
        Request::WriteSingle { address, value } => {
            if d.refuse.contains(&address) {
                exception(3)
            } else {
                d.image.set_word(RegisterType::Holding, address, value);
                d.writes.push((address, vec![value]));
                Response::WriteSingle { address, value }
            }
        }
        Request::WriteMultiple { start, values } => {
            if (start..start + values.len() as u16).any(|a| d.refuse.contains(&a)) {
                exception(3)
            } else {
                for (i, v) in values.iter().enumerate() {
                    d.image
                        .set_word(RegisterType::Holding, start + i as u16, *v);
                }
                d.writes.push((start, values.clone()));
                Response::WriteMultiple {
                    start,
                    count: values.len() as u16,
                }
            }
        }
    };
    response.to_pdu().ok()
}

/// A Modbus TCP server for `devices` (by unit id) on a free port.
pub async fn modbus_tcp(devices: Vec<Shared>) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        while let Ok((s, _)) = listener.accept().await {
            let devices = devices.clone();
            tokio::spawn(serve_tcp(s, devices));
        }
    });
    addr
}

async fn serve_tcp(mut s: TcpStream, devices: Vec<Shared>) {
    loop {
        let mut head = [0u8; 7];
        if s.read_exact(&mut head).await.is_err() {
            return;
        }
        let Ok(len) = modbus::tcp_frame_len(&head) else {
            return;
        };
        let mut frame = head.to_vec();
        frame.resize(len, 0);
        if s.read_exact(&mut frame[7..]).await.is_err() {
            return;
        }
        let Ok((tid, unit, pdu)) = modbus::tcp_split(&frame) else {
            return;
        };
        let reply = devices.iter().find_map(|d| answer(d, unit, pdu));
        if let Some(reply) = reply
            && s.write_all(&modbus::tcp_frame(tid, unit, &reply))
                .await
                .is_err()
        {
            return;
        }
    }
}

/// A Solarman V5 stick with logger serial `logger` (answering as `answer_as`) for `devices`.
pub async fn v5_stick(devices: Vec<Shared>, logger: u32, answer_as: u32) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        while let Ok((mut s, _)) = listener.accept().await {
            let devices = devices.clone();
            tokio::spawn(async move {
                loop {
                    let mut head = [0u8; 3];
                    if s.read_exact(&mut head).await.is_err() {
                        return;
                    }
                    let Ok(len) = modbus::v5_frame_len(&head) else {
                        return;
                    };
                    let mut frame = head.to_vec();
                    frame.resize(len, 0);
                    if s.read_exact(&mut frame[3..]).await.is_err() {
                        return;
                    }
                    let Ok(split) = modbus::v5_split(&frame) else {
                        return;
                    };
                    // A real stick ignores frames for another logger serial.
                    if split.logger != logger {
                        continue;
                    }
                    let Ok(rtu) = modbus::v5_request_rtu(split.payload) else {
                        return;
                    };
                    let Ok((unit, pdu)) = modbus::rtu_split(rtu) else {
                        continue;
                    };
                    let Some(reply) = devices.iter().find_map(|d| answer(d, unit, pdu)) else {
                        continue;
                    };
                    let out = modbus::v5_response(
                        split.sequence,
                        answer_as,
                        &modbus::rtu_frame(unit, &reply),
                    );
                    if s.write_all(&out).await.is_err() {
                        return;
                    }
                }
            });
        }
    });
    addr
}

/// What the portal's stand-in ingest saw: each telemetry message's timestamp and devices.
#[derive(Debug, Clone)]
pub struct Seen {
    pub ts: i64,
    pub devices: Vec<(String, usize)>,
}

/// Ingest stand-in: commits everything (status sets the gateway online or offline), records
/// telemetry and events.
fn ingest(
    store: Store,
    telemetry: mpsc::UnboundedSender<Seen>,
    events: mpsc::UnboundedSender<(String, String, String)>,
) -> SubmissionTx {
    let (tx, mut rx) = mpsc::channel::<Submission>(64);
    tokio::spawn(async move {
        while let Some(s) = rx.recv().await {
            match &s.item {
                Item::Status(status) => {
                    if let Ok(Some(g)) = store.gateway_by_sn(&s.gateway_sn).await {
                        let update = GatewayStatusUpdate {
                            online: status.online,
                            ..GatewayStatusUpdate::default()
                        };
                        let _ = store
                            .update_gateway_status(g.id, &update, chrono_ms())
                            .await;
                    }
                }
                Item::Telemetry(r) => {
                    let _ = telemetry.send(Seen {
                        ts: r.ts,
                        devices: r
                            .devices
                            .iter()
                            .map(|d| (d.sn.clone(), d.raw.len()))
                            .collect(),
                    });
                }
                Item::Event(e) => {
                    let _ = events.send((e.sn.clone(), e.code.clone(), e.action.clone()));
                }
                Item::Reply(_) => {}
            }
            let _ = s.done.send(Ok(()));
        }
    });
    tx
}

pub fn chrono_ms() -> i64 {
    agent::run::now_ms()
}

pub struct Portal {
    pub store: Store,
    pub link: Link,
    pub port: u16,
    pub telemetry: mpsc::UnboundedReceiver<Seen>,
    pub events: mpsc::UnboundedReceiver<(String, String, String)>,
}

/// A free local port (bound and released).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port")
}

/// The portal's embedded broker on `port` (0: any) with the test gateway registered.
pub async fn portal(port: u16) -> Result<Portal, Box<dyn std::error::Error>> {
    let store = store::testing::sqlite().await?;
    store.create_gateway(GATEWAY, KEY, "", chrono_ms()).await?;
    let (seen, telemetry) = mpsc::unbounded_channel();
    let (ev, events) = mpsc::unbounded_channel();
    let mut client = ClientConfig::new("127.0.0.1", 0, "portal-agent-test");
    client.redeliver_after = Duration::from_millis(300);
    let config = LinkConfig {
        broker: BrokerChoice::Embedded(BrokerConfig::new(SocketAddr::from(([127, 0, 0, 1], port)))),
        client,
        sweep_every: Duration::from_millis(200),
        comm_log: CommLogConfig::default(),
    };
    let link = Link::start(store.clone(), config, ingest(store.clone(), seen, ev)).await?;
    if !link.client.ready(Duration::from_secs(10)).await {
        return Err("the portal's client did not connect".into());
    }
    let port = link.broker_addr().ok_or("no broker")?.port();
    Ok(Portal {
        store,
        link,
        port,
        telemetry,
        events,
    })
}

impl Portal {
    pub async fn online_within(&self, online: bool, within: Duration) -> bool {
        let until = tokio::time::Instant::now() + within;
        while tokio::time::Instant::now() < until {
            if let Ok(Some(g)) = self.store.gateway_by_sn(GATEWAY).await
                && g.online == online
            {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        false
    }

    /// The next telemetry message within `within`.
    pub async fn next_telemetry(&mut self, within: Duration) -> Option<Seen> {
        tokio::time::timeout(within, self.telemetry.recv())
            .await
            .ok()
            .flatten()
    }

    /// Sends a command and waits for its end: (status, code, msg, data).
    pub async fn ask(
        &self,
        device: &str,
        kind: &str,
        params: serde_json::Value,
    ) -> Result<(String, Option<i64>, String, serde_json::Value), Box<dyn std::error::Error>> {
        let within = Duration::from_secs(10);
        let id = self
            .link
            .dispatcher
            .send(GATEWAY, device, kind, params, within)
            .await?;
        let row = self
            .link
            .dispatcher
            .wait(id, within + Duration::from_secs(1))
            .await?
            .ok_or("no command row")?;
        let data = serde_json::from_str(&row.result_data).unwrap_or(serde_json::Value::Null);
        Ok((row.status, row.result_code, row.result_msg, data))
    }
}

/// An agent config: the test protocol from a protocols dir, devices as (bus toml, devices).
pub fn config_text(state: &std::path::Path, mqtt_port: u16, buses: &str, devices: &str) -> String {
    let protocols = state.join("protocols");
    std::fs::create_dir_all(&protocols).expect("protocols dir");
    std::fs::write(protocols.join("test-inverter.json"), PROTOCOL).expect("protocol");
    format!(
        "mqtt = \"127.0.0.1:{mqtt_port}\"\nsn = \"{GATEWAY}\"\nkey = \"{KEY}\"\n\
         state_dir = \"{}\"\nprotocols_dir = \"{}\"\n\n{buses}\n{devices}\n",
        state.join("state").display(),
        protocols.display()
    )
}

pub fn tcp_bus(name: &str, addr: SocketAddr) -> String {
    format!("[[bus]]\nname = \"{name}\"\nkind = \"tcp\"\naddress = \"{addr}\"\ntimeout_ms = 1000\n")
}

pub fn v5_bus(name: &str, addr: SocketAddr, logger: u32) -> String {
    format!(
        "[[bus]]\nname = \"{name}\"\nkind = \"solarman\"\naddress = \"{addr}\"\nlogger_serial = {logger}\ntimeout_ms = 1000\n"
    )
}

pub fn device_entry(bus: &str, unit: u8, sn: &str) -> String {
    format!(
        "[[device]]\nbus = \"{bus}\"\nunit = {unit}\nsn = \"{sn}\"\nprotocol = \"test-inverter\"\nmodel = \"T-5K\"\n"
    )
}

/// A TCP proxy in front of the broker that a test can cut (every connection closed, new ones
/// refused) and restore: the portal unreachable for a while, as a network outage.
pub struct Proxy {
    pub port: u16,
    cut: Arc<std::sync::atomic::AtomicBool>,
    conns: Arc<Mutex<Vec<tokio::task::JoinHandle<()>>>>,
}

impl Proxy {
    pub async fn start(target: u16) -> Result<Proxy, Box<dyn std::error::Error>> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let port = listener.local_addr()?.port();
        let cut = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let conns: Arc<Mutex<Vec<tokio::task::JoinHandle<()>>>> = Arc::default();
        let (c, k) = (cut.clone(), conns.clone());
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                if c.load(Ordering::SeqCst) {
                    continue;
                }
                let task = tokio::spawn(async move {
                    if let Ok(mut outbound) = TcpStream::connect(("127.0.0.1", target)).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                if let Ok(mut k) = k.lock() {
                    k.push(task);
                }
            }
        });
        Ok(Proxy { port, cut, conns })
    }

    pub fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
        if let Ok(mut k) = self.conns.lock() {
            for t in k.drain(..) {
                t.abort();
            }
        }
    }

    pub fn restore(&self) {
        self.cut.store(false, Ordering::SeqCst);
    }
}
