//! Demand-response dispatch against a simulated hybrid gateway on a real embedded broker: an
//! event active now becomes a `set_params` the inverter confirms (audited as the system), the
//! plant's previous settings come back when the event is cancelled or deleted, an offline
//! inverter is tried three times and left offline, and of overlapping events the lowest
//! priority number wins. Every test runs on SQLite and, when configured, PostgreSQL.

use crate::common;
use crate::fake_gateway;
use domain::DeviceFamily;
use domain::ids::UserId;
use domain::ids::{HubEventId, PlantId};

use std::{sync::Arc, time::Duration};

use common::{App, fixtures, spawn};
use domain::user::BuiltinRole;
use fake_gateway::{Linked, linked, wait_online};
use jobs::dispatch;
use sim::{
    fleet::{GatewaySpec, SimGateway, demo_fleet},
    gateway::{Broker, RunOptions, run},
};
use tokio::sync::watch;

const WAIT: Duration = Duration::from_secs(20);

fn now_s() -> i64 {
    domain::time::now_ms() / 1000
}

struct World {
    app: App,
    _linked: Option<devices::link::Link>,
    stop: watch::Sender<bool>,
    admin: String,
    plant: i64,
    owner: i64,
    /// The simulated hybrid inverter (online, answering commands).
    inverter: String,
}

impl Drop for World {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
    }
}

/// Registers `spec`'s gateway and inverter on `plant`; the inverter shows `status`.
async fn register(app: &App, plant: i64, owner: i64, spec: &GatewaySpec, status: i64) -> String {
    let s = &app.store;
    let inv = &spec.devices[0];
    let t = domain::time::now_ms();
    let gw = s
        .create_gateway(&spec.sn, &spec.key, inv.protocol, t)
        .await
        .expect("gateway");
    s.bind_gateway(gw, PlantId(plant), UserId(owner), None, t)
        .await
        .expect("bind");
    let dev = s
        .upsert_device(
            &inv.sn,
            gw,
            DeviceFamily::Inverter,
            inv.type_code,
            inv.protocol,
            &inv.model,
            None,
            t,
        )
        .await
        .expect("device");
    fixtures::set_status(app, dev.0, status).await;
    inv.sn.clone()
}

/// Ann's plant with one running simulated hybrid gateway, and an administrator.
async fn world(app: App) -> World {
    common::settings_maps::writable_hybrids(&app).await;
    let (_, admin) = app
        .signed_in("root@example.com", BuiltinRole::InternalAdmin, None)
        .await;
    let (ann_id, ann) = app
        .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let plant = fixtures::plant(&app, &ann, fixtures::madrid_plant("Ann DR", 2, 8)).await;
    let spec = demo_fleet(1, 11).remove(0);
    let inverter = register(&app, plant, ann_id.0, &spec, 1).await;
    let Linked { app, link, addr } = linked(app).await;
    let (stop, stop_rx) = watch::channel(false);
    let opts = RunOptions {
        broker: Broker {
            host: "127.0.0.1".into(),
            port: addr.port(),
        },
        interval: Duration::from_secs(3600),
        upload_cycle_secs: 300,
        reboot: sim::gateway::DEFAULT_REBOOT,
    };
    let configs = Arc::new(devices::protocol::shipped().expect("configs"));
    tokio::spawn(run(SimGateway::new(spec.clone()), configs, opts, stop_rx));
    wait_online(&app.store, &spec.sn, WAIT).await;
    let dev = app
        .store
        .device_by_sn(&inverter)
        .await
        .expect("device")
        .expect("known");
    fixtures::set_status(&app, dev.id.0, 1).await;
    World {
        app,
        _linked: Some(link),
        stop,
        admin,
        plant,
        owner: ann_id.0,
        inverter,
    }
}

/// Ticks until `done` holds (the inverter answers within a second or so).
async fn tick_until<F, Fut>(app: &App, what: &str, done: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let until = tokio::time::Instant::now() + WAIT;
    loop {
        dispatch::tick(&app.jobs(), now_s()).await.expect("tick");
        if done().await {
            return;
        }
        assert!(tokio::time::Instant::now() < until, "{what}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn setting(app: &App, sn: &str, key: &str) -> Option<String> {
    let values = app.store.device_settings(sn).await.expect("settings");
    values.into_iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

async fn outcome(app: &App, event: i64, sn: &str) -> Option<(String, String)> {
    let rows = app
        .store
        .dispatch_outcomes(HubEventId(event))
        .await
        .expect("outcomes");
    rows.into_iter()
        .find(|r| r.device_sn == sn)
        .map(|r| (r.state, r.error))
}

/// How many audit entries of `action` there are, and the listing.
async fn audited(app: &App, admin: &str, action: &str) -> (i64, String) {
    let r = app
        .get(&format!("/api/v1/audit?action={action}"), Some(admin))
        .await;
    r.expect_code(0);
    (r.data()["total"].as_i64().unwrap_or(-1), r.text())
}

#[tokio::test]
async fn an_active_event_discharges_the_battery_and_cancelling_it_restores_the_settings() {
    for app in spawn().await {
        let w = world(app).await;
        let (app, sn) = (&w.app, w.inverter.as_str());
        let s = &app.store;
        // 6 kW offered at 50 %: a 2 kW target is what the plant gives.
        let (program, _) = s
            .enroll_for_tests(PlantId(w.plant), &[sn], 6.0, 50)
            .await
            .expect("enroll");
        let t = now_s();
        let event = s
            .hub_event_for_tests(program, t - 60, t + 3600, "discharge", 2.0, 0)
            .await
            .expect("event");
        tick_until(app, "applied", || async {
            outcome(app, event.0, sn).await.map(|o| o.0).as_deref() == Some("applied")
        })
        .await;
        assert_eq!(setting(app, sn, "sysWorkMode").await.as_deref(), Some("0"));
        assert_eq!(
            setting(app, sn, "sellTime5Pac").await.as_deref(),
            Some("2000")
        );
        assert_eq!(setting(app, sn, "cap5").await.as_deref(), Some("20"));
        // A tick with nothing new sends nothing.
        dispatch::tick(&app.jobs(), now_s()).await.expect("tick");
        let (total, text) = audited(app, &w.admin, "energyhub.dispatch").await;
        assert_eq!(total, 1, "{text}");
        assert!(text.contains("\"system\""), "{text}");

        s.end_hub_event_for_tests(event, false, now_s())
            .await
            .expect("cancel");
        tick_until(app, "restored", || async {
            s.dispatch_states().await.expect("states").is_empty()
        })
        .await;
        assert_eq!(setting(app, sn, "sysWorkMode").await.as_deref(), Some("2"));
        assert_eq!(
            setting(app, sn, "peakAndVallery").await.as_deref(),
            Some("0")
        );
        assert_eq!(
            outcome(app, event.0, sn).await,
            Some(("restored".into(), String::new()))
        );
        assert_eq!(audited(app, &w.admin, "energyhub.restore").await.0, 1);
    }
}

#[tokio::test]
async fn a_deleted_event_still_restores_and_the_lowest_priority_number_wins() {
    for app in spawn().await {
        let w = world(app).await;
        let (app, sn) = (&w.app, w.inverter.as_str());
        let s = &app.store;
        let (program, _) = s
            .enroll_for_tests(PlantId(w.plant), &[sn], 10.0, 100)
            .await
            .expect("enroll");
        let t = now_s();
        let low = s
            .hub_event_for_tests(program, t - 60, t + 3600, "exportLimit", 1.5, 5)
            .await
            .expect("event");
        let high = s
            .hub_event_for_tests(program, t - 120, t + 3600, "discharge", 3.0, 1)
            .await
            .expect("event");
        tick_until(app, "the priority 1 event applied", || async {
            outcome(app, high.0, sn).await.map(|o| o.0).as_deref() == Some("applied")
        })
        .await;
        assert_eq!(outcome(app, low.0, sn).await, None);
        assert_eq!(
            setting(app, sn, "sellTime1Pac").await.as_deref(),
            Some("3000")
        );
        // The winner goes: the other event takes over, then its deletion restores.
        s.end_hub_event_for_tests(high, true, now_s())
            .await
            .expect("delete");
        tick_until(app, "the export limit applied", || async {
            outcome(app, low.0, sn).await.map(|o| o.0).as_deref() == Some("applied")
        })
        .await;
        assert_eq!(
            setting(app, sn, "solarMaxSellPower").await.as_deref(),
            Some("1500")
        );
        assert_eq!(
            setting(app, sn, "peakAndVallery").await.as_deref(),
            Some("0")
        );
        s.end_hub_event_for_tests(low, true, now_s())
            .await
            .expect("delete");
        tick_until(app, "restored", || async {
            s.dispatch_states().await.expect("states").is_empty()
        })
        .await;
        assert_eq!(
            setting(app, sn, "solarMaxSellPower").await.as_deref(),
            Some("5000")
        );
        assert_eq!(setting(app, sn, "sysWorkMode").await.as_deref(), Some("2"));
    }
}

#[tokio::test]
async fn an_offline_inverter_is_tried_three_times_then_left_offline() {
    for app in spawn().await {
        let w = world(app).await;
        let app = &w.app;
        let s = &app.store;
        let mut spec = demo_fleet(1, 11).remove(0);
        spec.sn = "GW-DR-OFF".into();
        spec.devices[0].sn = "INV-DR-OFF".into();
        let sn = register(app, w.plant, w.owner, &spec, 0).await;
        let (program, _) = s
            .enroll_for_tests(PlantId(w.plant), &[&sn], 5.0, 100)
            .await
            .expect("enroll");
        let t = now_s();
        let event = s
            .hub_event_for_tests(program, t - 60, t + 3600, "discharge", 3.0, 0)
            .await
            .expect("event");
        for _ in 0..6 {
            dispatch::tick(&app.jobs(), now_s()).await.expect("tick");
        }
        let (state, error) = outcome(app, event.0, &sn).await.expect("outcome");
        assert_eq!(state, "offline");
        assert!(error.contains("602"), "{error}");
        let states = s.dispatch_states().await.expect("states");
        assert_eq!(states[0].attempts, dispatch::MAX_ATTEMPTS);
        let r = app
            .get("/api/v1/audit?action=energyhub.dispatch", Some(&w.admin))
            .await;
        assert_eq!(r.data()["total"], 3, "{}", r.text());
    }
}
