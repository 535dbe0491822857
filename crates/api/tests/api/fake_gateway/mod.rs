//! Commands over a real device link in API tests: the embedded MQTT broker on a free port, the
//! app rebuilt with its dispatcher, and fake gateways that connect over a socket with their SN
//! and key and answer commands (or stay silent, or refuse) as the test chooses.

#![allow(dead_code)]

use std::{net::SocketAddr, time::Duration};

use devices::{
    link::{BrokerChoice, BrokerConfig, ClientConfig, CommLogConfig, Link, LinkConfig},
    modbus::{self, Request, Response},
    report::{Command, CommandReply, Item, Submission},
};
use rumqttc::{AsyncClient, Event, Incoming, LastWill, MqttOptions, QoS};
use serde_json::{Value, json};
use store::{Store, telemetry::GatewayStatusUpdate};
use tokio::{sync::mpsc, task::JoinHandle};

use crate::common::App;

pub const WAIT: Duration = Duration::from_secs(10);

/// How a fake gateway answers its commands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mode {
    /// Success; a raw Modbus read is answered with register `a` holding `100 + a`.
    Answer,
    /// Never answers: the command times out.
    Silent,
    /// Answers every command with failure code 2.
    Refuse,
}

/// The app of `app`'s backend with a running device link.
pub struct Linked {
    pub app: App,
    pub link: Link,
    pub addr: SocketAddr,
}

fn now_ms() -> i64 {
    domain::time::now_ms()
}

/// Stands in for ingest: commits everything; a gateway's status message sets it online or
/// offline and records its software version and upload cycle, as ingest does.
fn fake_ingest(store: Store) -> devices::report::SubmissionTx {
    let (tx, mut rx) = mpsc::channel::<Submission>(64);
    tokio::spawn(async move {
        while let Some(s) = rx.recv().await {
            if let Item::Status(status) = &s.item
                && let Ok(Some(g)) = store.gateway_by_sn(&s.gateway_sn).await
            {
                let update = GatewayStatusUpdate {
                    online: status.online,
                    soft_ver: status.soft_ver.clone(),
                    upload_cycle: status.upload_cycle,
                    ..GatewayStatusUpdate::default()
                };
                let _ = store.update_gateway_status(g.id, &update, now_ms()).await;
            }
            let _ = s.done.send(Ok(()));
        }
    });
    tx
}

/// Starts a link over `app`'s store and rebuilds the app with its dispatcher.
pub async fn linked(app: App) -> Linked {
    linked_with(app, CommLogConfig::default()).await
}

/// [`linked`] with the communication log configured by the test.
pub async fn linked_with(app: App, comm_log: CommLogConfig) -> Linked {
    let mut client = ClientConfig::new("127.0.0.1", 0, "portal-api-test");
    client.redeliver_after = Duration::from_millis(300);
    let config = LinkConfig {
        broker: BrokerChoice::Embedded(BrokerConfig::new(SocketAddr::from(([127, 0, 0, 1], 0)))),
        client,
        sweep_every: Duration::from_millis(200),
        comm_log,
    };
    let link = Link::start(app.store.clone(), config, fake_ingest(app.store.clone()))
        .await
        .expect("link");
    let addr = link.broker_addr().expect("embedded broker");
    assert!(link.client.ready(WAIT).await, "portal client ready");
    let mut state = app.state.clone();
    state.commands = Some(link.dispatcher.clone());
    let router = api::router(state.clone());
    Linked {
        app: App {
            backend: app.backend,
            store: app.store,
            state,
            router,
            data_dir: app.data_dir,
        },
        link,
        addr,
    }
}

/// A fake gateway connected to the broker; dropped, it disconnects.
pub struct FakeGateway {
    pub client: AsyncClient,
    task: JoinHandle<()>,
    /// Every command it received.
    pub received: mpsc::UnboundedReceiver<Command>,
}

impl Drop for FakeGateway {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The reply frame of a raw Modbus request: reads answer `100 + address`, writes echo.
fn modbus_reply(frame: &str) -> Option<String> {
    let bytes = modbus::parse_hex(frame).ok()?;
    let (unit, request) = modbus::parse_rtu_request(&bytes).ok()?;
    let response = match request {
        Request::ReadHolding { start, count } => Response::Registers {
            function: 3,
            values: (0..count).map(|i| 100 + start + i).collect(),
        },
        Request::ReadInput { start, count } => Response::Registers {
            function: 4,
            values: (0..count).map(|i| 100 + start + i).collect(),
        },
        Request::WriteSingle { address, value } => Response::WriteSingle { address, value },
        Request::WriteMultiple { start, values } => Response::WriteMultiple {
            start,
            count: u16::try_from(values.len()).ok()?,
        },
    };
    Some(modbus::to_hex(&modbus::rtu_frame(
        unit,
        &response.to_pdu().ok()?,
    )))
}

fn answer(cmd: &Command, mode: Mode) -> Option<CommandReply> {
    let (code, msg, data) = match mode {
        Mode::Silent => return None,
        Mode::Refuse => (2, "refused by the device".to_string(), Value::Null),
        Mode::Answer => match cmd.kind.as_str() {
            "modbus_raw" => match modbus_reply(cmd.params["frame"].as_str().unwrap_or_default()) {
                Some(frame) => (0, String::new(), json!({ "frame": frame })),
                None => (2, "bad frame".to_string(), Value::Null),
            },
            "restart" => (0, "restarting".to_string(), json!({})),
            _ => (0, "applied".to_string(), cmd.params.clone()),
        },
    };
    Some(CommandReply {
        v: 1,
        id: cmd.id.clone(),
        code,
        msg,
        data,
    })
}

/// Connects gateway `sn` (key `key`), subscribes to its commands, says it is online, and waits
/// until the portal has it online.
pub async fn gateway(linked: &Linked, sn: &str, key: &str, mode: Mode) -> FakeGateway {
    let mut o = MqttOptions::new(sn, linked.addr.ip().to_string(), linked.addr.port());
    o.set_credentials(sn, key)
        .set_keep_alive(Duration::from_secs(5))
        // Room for payloads above the communication log's 64 KiB cut.
        .set_max_packet_size(1024 * 1024, 1024 * 1024)
        .set_last_will(LastWill::new(
            format!("portal/v1/{sn}/status"),
            r#"{"v":1,"online":false}"#,
            QoS::AtLeastOnce,
            true,
        ));
    let (client, mut eventloop) = AsyncClient::new(o, 64);
    let (tx, received) = mpsc::unbounded_channel();
    let replier = client.clone();
    let reply_topic = format!("portal/v1/{sn}/reply");
    let task = tokio::spawn(async move {
        loop {
            match eventloop.poll().await {
                Ok(Event::Incoming(Incoming::Publish(p))) => {
                    let Ok(cmd) = serde_json::from_slice::<Command>(&p.payload) else {
                        continue;
                    };
                    if let Some(reply) = answer(&cmd, mode) {
                        let payload = serde_json::to_vec(&reply).unwrap_or_default();
                        let _ = replier
                            .publish(reply_topic.clone(), QoS::AtLeastOnce, false, payload)
                            .await;
                    }
                    let _ = tx.send(cmd);
                }
                Ok(_) => {}
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    });
    client
        .subscribe(format!("portal/v1/{sn}/cmd"), QoS::AtLeastOnce)
        .await
        .expect("subscribe");
    client
        .publish(
            format!("portal/v1/{sn}/status"),
            QoS::AtLeastOnce,
            true,
            r#"{"v":1,"online":true,"softVer":"1.0"}"#,
        )
        .await
        .expect("online");
    wait_online(&linked.app.store, sn, WAIT).await;
    // The subscription is in place once the broker has routed the retained status back.
    tokio::time::sleep(Duration::from_millis(200)).await;
    FakeGateway {
        client,
        task,
        received,
    }
}

/// Waits until the portal has gateway `sn` online, at most `within`.
pub async fn wait_online(store: &Store, sn: &str, within: Duration) {
    let until = tokio::time::Instant::now() + within;
    loop {
        let g = store.gateway_by_sn(sn).await.expect("gateway");
        if g.is_some_and(|g| g.online) {
            break;
        }
        assert!(
            tokio::time::Instant::now() < until,
            "{sn} never came online"
        );
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}
