//! The simulated gateway's runtime against the portal's embedded broker (real sockets, a real
//! database for sign-in), the regressions of issue 13: a batch of upgrades after a long idle
//! spell, or while the broker stops acknowledging for a while, runs to its end and the gateway
//! stays connected; a gateway whose connection drops comes back with a back-off; a restarted
//! gateway falls silent, then signs in again over the session the broker still holds.

use std::{net::SocketAddr, sync::Arc, time::Duration};

use domain::ids::CommandId;

use devices::{
    link::{BrokerChoice, BrokerConfig, ClientConfig, Link, LinkConfig},
    report::{Item, Submission, SubmissionTx},
};
use sim::{
    commands::UpgradeTiming,
    fleet::{COMMERCIAL_INVERTERS, GatewaySpec, SimGateway, commercial_plant},
    gateway::{Broker, RunOptions, run_with},
};
use store::{Store, commands::CommandStatus, telemetry::GatewayStatusUpdate};
use tokio::{
    io::copy_bidirectional,
    net::{TcpListener, TcpStream},
    sync::{mpsc, watch},
    task::JoinHandle,
};

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// Stands in for ingest: commits everything (status messages set the gateway online or
/// offline, as ingest does), except while `hold` is true: then it waits, as a stalled database
/// would, and the broker acknowledges nothing of what waits. Every telemetry message's gateway
/// goes to `telemetry`.
fn ingest(
    store: Store,
    hold: watch::Receiver<bool>,
    telemetry: mpsc::UnboundedSender<String>,
) -> SubmissionTx {
    let (tx, mut rx) = mpsc::channel::<Submission>(64);
    tokio::spawn(async move {
        while let Some(s) = rx.recv().await {
            let mut hold = hold.clone();
            let _ = hold.wait_for(|h| !*h).await;
            match &s.item {
                Item::Status(status) => {
                    if let Ok(Some(g)) = store.gateway_by_sn(&s.gateway_sn).await {
                        let update = GatewayStatusUpdate {
                            online: status.online,
                            ..GatewayStatusUpdate::default()
                        };
                        let _ = store.update_gateway_status(g.id, &update, now_ms()).await;
                    }
                }
                Item::Telemetry(_) => {
                    let _ = telemetry.send(s.gateway_sn.clone());
                }
                _ => {}
            }
            let _ = s.done.send(Ok(()));
        }
    });
    tx
}

struct World {
    store: Store,
    link: Link,
    hold: watch::Sender<bool>,
    telemetry: mpsc::UnboundedReceiver<String>,
    stop: watch::Sender<bool>,
    task: Option<JoinHandle<()>>,
    spec: GatewaySpec,
    /// Between the gateway and the broker when the test asked for one.
    proxy: Option<Proxy>,
}

/// A database with the commercial roof's gateway, a link, and the gateway running against the
/// broker, directly or through a proxy the test can cut.
async fn world(
    timing: UpgradeTiming,
    reboot: Duration,
    with_proxy: bool,
) -> Result<World, Box<dyn std::error::Error>> {
    let store = store::testing::sqlite().await?;
    let spec = commercial_plant(7, 3);
    store
        .create_gateway(&spec.sn, &spec.key, "", now_ms())
        .await?;
    let (hold, hold_rx) = watch::channel(false);
    let (seen, telemetry) = mpsc::unbounded_channel();
    let mut client = ClientConfig::new("127.0.0.1", 0, "portal-sim-test");
    client.redeliver_after = Duration::from_millis(300);
    let config = LinkConfig {
        broker: BrokerChoice::Embedded(BrokerConfig::new(SocketAddr::from(([127, 0, 0, 1], 0)))),
        client,
        sweep_every: Duration::from_millis(200),
        comm_log: devices::link::CommLogConfig::default(),
    };
    let link = Link::start(store.clone(), config, ingest(store.clone(), hold_rx, seen)).await?;
    assert!(link.client.ready(Duration::from_secs(10)).await);
    let addr = link.broker_addr().ok_or("no broker")?;
    let proxy = match with_proxy {
        true => Some(proxy(addr).await?),
        false => None,
    };
    let configs = Arc::new(devices::protocol::shipped()?);
    let (stop, stop_rx) = watch::channel(false);
    let opts = RunOptions {
        broker: Broker {
            host: "127.0.0.1".into(),
            port: proxy.as_ref().map_or(addr.port(), |p| p.port),
        },
        interval: Duration::from_millis(500),
        upload_cycle_secs: 1,
        reboot,
    };
    let task = tokio::spawn(run_with(
        SimGateway::new(spec.clone()),
        configs,
        opts,
        timing,
        stop_rx,
    ));
    let world = World {
        store,
        link,
        hold,
        telemetry,
        stop,
        task: Some(task),
        spec,
        proxy,
    };
    assert!(world.online_within(true, Duration::from_secs(10)).await);
    Ok(world)
}

impl World {
    fn sn(&self) -> &str {
        &self.spec.sn
    }

    fn inverters(&self) -> Vec<String> {
        self.spec
            .devices
            .iter()
            .take(COMMERCIAL_INVERTERS)
            .map(|d| d.sn.clone())
            .collect()
    }

    async fn online_within(&self, online: bool, within: Duration) -> bool {
        let until = tokio::time::Instant::now() + within;
        while tokio::time::Instant::now() < until {
            if let Ok(Some(g)) = self.store.gateway_by_sn(self.sn()).await
                && g.online == online
            {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        false
    }

    /// Sends `kind` and waits for its end; answers the final status.
    async fn ask(&self, device: &str, kind: &str, within: Duration) -> Option<CommandStatus> {
        let id = self
            .link
            .dispatcher
            .send(self.sn(), device, kind, serde_json::Value::Null, within)
            .await
            .ok()?;
        let row = self.link.dispatcher.wait(id, within).await.ok()??;
        Some(row.status())
    }

    /// Upgrades every inverter at once; answers the command ids.
    async fn upgrade_all(&self) -> Result<Vec<CommandId>, Box<dyn std::error::Error>> {
        let mut ids = Vec::new();
        for inv in self.inverters() {
            let params = serde_json::json!({"version": "V9", "firmId": 1, "size": 300_000});
            ids.push(
                self.link
                    .dispatcher
                    .send(self.sn(), &inv, "upgrade", params, Duration::from_secs(60))
                    .await?,
            );
        }
        Ok(ids)
    }

    /// Every command ended with the device's own answer (success or its failure), none timed
    /// out or stuck.
    async fn all_answered(&self, ids: &[CommandId], within: Duration) -> TestResult {
        for &id in ids {
            let row = self
                .link
                .dispatcher
                .wait(id, within)
                .await?
                .ok_or("command missing")?;
            assert!(
                matches!(
                    row.status(),
                    CommandStatus::Succeeded | CommandStatus::Failed
                ),
                "command {id} is {:?} ({}: {})",
                row.status(),
                row.result_msg,
                row.result_data
            );
            assert!(
                row.result_code.is_some(),
                "a device's answer, not a timeout"
            );
        }
        Ok(())
    }

    /// Telemetry messages of this gateway that arrived since the last call.
    fn reports(&mut self) -> usize {
        let mut n = 0;
        while let Ok(sn) = self.telemetry.try_recv() {
            n += usize::from(sn == self.spec.sn);
        }
        n
    }

    async fn stop(mut self) {
        let _ = self.stop.send(true);
        if let Some(task) = self.task.take() {
            let _ = tokio::time::timeout(Duration::from_secs(5), task).await;
        }
    }
}

fn quick(report_every: Duration) -> UpgradeTiming {
    UpgradeTiming {
        min: Duration::from_millis(1500),
        max: Duration::from_millis(2500),
        report_every,
    }
}

/// Before the fix, the progress timer of an idle gateway piled up one missed tick per
/// `report_every` of idle time and fired them all when an upgrade started; the runtime
/// published their replies from the task that also polled its MQTT connection, filled the
/// client's request queue and blocked for good: the upgrades stayed at "sending 0 %" and the
/// broker dropped the silent gateway, which never signed in again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_of_upgrades_after_an_idle_spell_ends_and_the_gateway_stays_online() -> TestResult {
    let world = world(
        quick(Duration::from_millis(5)),
        Duration::from_secs(3),
        false,
    )
    .await?;
    // Idle: a thousand progress periods go by with no upgrade running.
    tokio::time::sleep(Duration::from_secs(5)).await;
    let ids = world.upgrade_all().await?;
    world.all_answered(&ids, Duration::from_secs(20)).await?;
    assert_eq!(
        world
            .ask(world.sn(), "read_params", Duration::from_secs(10))
            .await,
        Some(CommandStatus::Succeeded),
        "still connected and answering"
    );
    world.stop().await;
    Ok(())
}

/// The same deadlock without the burst: a broker that stops acknowledging for a while (here a
/// stalled commit) must not freeze the gateway once the queue of unacknowledged messages is
/// full; when the broker catches up, the upgrades run to their end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_broker_that_stops_acknowledging_for_a_while_does_not_freeze_the_gateway() -> TestResult {
    let mut world = world(
        quick(Duration::from_millis(10)),
        Duration::from_secs(3),
        false,
    )
    .await?;
    let ids = world.upgrade_all().await?;
    // The next telemetry message waits for its commit; the broker reads nothing more from the
    // gateway meanwhile, so its replies pile up unacknowledged.
    world.hold.send_replace(true);
    tokio::time::sleep(Duration::from_secs(4)).await;
    world.hold.send_replace(false);
    world.all_answered(&ids, Duration::from_secs(20)).await?;
    world.reports();
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert!(world.reports() >= 2, "reporting again");
    assert_eq!(
        world
            .ask(world.sn(), "read_params", Duration::from_secs(10))
            .await,
        Some(CommandStatus::Succeeded)
    );
    world.stop().await;
    Ok(())
}

/// A TCP proxy in front of the broker whose connections the test can cut.
struct Proxy {
    port: u16,
    cut: watch::Sender<u64>,
}

async fn proxy(broker: SocketAddr) -> std::io::Result<Proxy> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let port = listener.local_addr()?.port();
    let (cut, cut_rx) = watch::channel(0u64);
    tokio::spawn(async move {
        while let Ok((mut inbound, _)) = listener.accept().await {
            let mut cut = cut_rx.clone();
            cut.mark_unchanged();
            tokio::spawn(async move {
                let Ok(mut outbound) = TcpStream::connect(broker).await else {
                    return;
                };
                tokio::select! {
                    _ = copy_bidirectional(&mut inbound, &mut outbound) => {}
                    _ = cut.changed() => {}
                }
            });
        }
    });
    Ok(Proxy { port, cut })
}

/// A connection cut in the network: the broker publishes the gateway's last will (offline),
/// the gateway reconnects after its back-off and is accepted again, and reports.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gateway_whose_connection_is_cut_signs_in_again_and_reports() -> TestResult {
    let mut world = world(
        quick(Duration::from_millis(100)),
        Duration::from_secs(3),
        true,
    )
    .await?;
    let cut = world.proxy.as_ref().ok_or("no proxy")?.cut.clone();
    for round in 1..=3u64 {
        cut.send_replace(round);
        assert!(
            world.online_within(false, Duration::from_secs(5)).await,
            "the last will marks it offline (round {round})"
        );
        let cut_at = tokio::time::Instant::now();
        assert!(
            world.online_within(true, Duration::from_secs(10)).await,
            "back online (round {round})"
        );
        let away = cut_at.elapsed();
        assert!(away < Duration::from_secs(8), "{away:?}");
        world.reports();
        tokio::time::sleep(Duration::from_secs(2)).await;
        assert!(world.reports() >= 2, "reporting again (round {round})");
    }
    assert_eq!(
        world
            .ask(world.sn(), "read_params", Duration::from_secs(10))
            .await,
        Some(CommandStatus::Succeeded)
    );
    world.stop().await;
    Ok(())
}

/// A restart: the gateway answers, then falls silent without a goodbye (its socket open, as
/// after a power cut the broker does not see), and its next connection, a few seconds later,
/// takes over the session the broker still holds: accepted, online, reporting, and only one
/// connection left at the broker.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_gateway_falls_silent_then_takes_over_its_stale_session() -> TestResult {
    let mut world = world(
        quick(Duration::from_millis(100)),
        Duration::from_secs(4),
        false,
    )
    .await?;
    // An upgrade running when the gateway restarts is lost with it.
    let upgrade = world.upgrade_all().await?[0];
    assert_eq!(
        world
            .ask(world.sn(), "restart", Duration::from_secs(5))
            .await,
        Some(CommandStatus::Succeeded)
    );
    tokio::time::sleep(Duration::from_millis(800)).await;
    world.reports();
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(world.reports(), 0, "silent while it restarts");
    let g = world.store.gateway_by_sn(world.sn()).await?.ok_or("gone")?;
    assert!(
        g.online,
        "no goodbye and no last will: the broker still holds the session"
    );
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert!(world.online_within(true, Duration::from_secs(5)).await);
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(world.reports() >= 1, "reporting after the restart");
    let broker = world.link.broker.as_ref().ok_or("no broker")?;
    // The gateway's new connection and the portal's own client.
    assert_eq!(broker.connections().established, 2);
    let row = world.link.dispatcher.get(upgrade).await?.ok_or("missing")?;
    assert!(
        !row.status().is_final(),
        "the portal has not heard of its end"
    );
    assert_eq!(
        world
            .ask(world.sn(), "read_params", Duration::from_secs(10))
            .await,
        Some(CommandStatus::Succeeded)
    );
    world.stop().await;
    Ok(())
}
