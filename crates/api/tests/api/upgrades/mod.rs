//! Firmware upgrades over HTTP against simulated gateways on a real embedded broker: the
//! firmware upload rules, a single upgrade reporting progress to its end (the inverter shows
//! Upgrading meanwhile and runs the new version after), cancel where the model supports it and
//! its refusal elsewhere, offline, already-upgrading, wrong-firmware and permission refusals, a
//! timeout, a batch with mixed results and its totals, gateway upgrades, the audit log, and the
//! queue of a gateway that flashes one device at a time (`queue.rs`).
//! Every test runs on SQLite and, when configured, PostgreSQL.

use crate::common;
use crate::fake_gateway;
use domain::DeviceFamily;
use domain::ids::{PlantId, UserId};

use std::{sync::Arc, time::Duration};

use common::multipart::FilePart;
use common::{App, fixtures, spawn};
use devices::link::Link;
use domain::{policy::ShareRole, user::BuiltinRole};
use fake_gateway::{Linked, linked, wait_online};
use serde_json::{Value, json};
use sim::{
    commands::UpgradeTiming,
    fleet::{GatewaySpec, SimGateway, demo_fleet},
    gateway::{Broker, RunOptions, run_with},
};
use store::telemetry::GatewayStatusUpdate;
use tokio::sync::watch;

mod batch;
mod firmware_upload;
mod gateway;
mod gateway_cancel;
mod inverter;
mod queue;
mod refusals;

const WAIT: Duration = Duration::from_secs(20);

struct World {
    app: App,
    _link: Link,
    stop: watch::Sender<bool>,
    admin: String,
    ann: String,
    ann_id: i64,
    plant: i64,
    /// Running simulated gateways: type 2 (SIMINV000001), 94 (SIMINV000003, can cancel),
    /// type 2 again (SIMINV000008).
    fleet: Vec<GatewaySpec>,
}

impl Drop for World {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
    }
}

/// Registers a gateway with its inverter on `plant`, the inverter shown Normal.
async fn register(app: &App, plant: i64, owner: i64, spec: &GatewaySpec) -> i64 {
    let s = &app.store;
    let inv = &spec.devices[0];
    let gw = s
        .create_gateway(&spec.sn, &spec.key, inv.protocol, domain::time::now_ms())
        .await
        .expect("gateway");
    s.bind_gateway(
        gw,
        PlantId(plant),
        UserId(owner),
        None,
        domain::time::now_ms(),
    )
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
            domain::time::now_ms(),
        )
        .await
        .expect("device");
    fixtures::set_status(app, dev.0, 1).await;
    gw.0
}

/// Ann's plant with three simulated gateways running against an embedded broker, an app whose
/// dispatcher is that link's, and an administrator.
async fn world(app: App) -> World {
    let (_, admin) = app
        .signed_in("root@example.com", BuiltinRole::InternalAdmin, None)
        .await;
    // Upgrades belong to installers: Ann administers the company that runs the plant.
    let company = app.company("Acme Solar").await;
    let (ann_id, ann) = app
        .signed_in("ann@example.com", BuiltinRole::CompanyAdmin, Some(company))
        .await;
    let body = fixtures::madrid_plant("Ann upgrade plant", 2, 8);
    let plant = fixtures::plant(&app, &ann, body).await;
    let all = demo_fleet(8, 11);
    let fleet: Vec<GatewaySpec> = [0, 2, 7].iter().map(|&i| all[i].clone()).collect();
    for spec in &fleet {
        register(&app, plant, ann_id.0, spec).await;
    }
    let Linked { app, link, addr } = linked(app).await;
    let configs = Arc::new(devices::protocol::shipped().expect("configs"));
    let (stop, stop_rx) = watch::channel(false);
    let timing = UpgradeTiming {
        min: Duration::from_millis(1500),
        max: Duration::from_millis(1500),
        report_every: Duration::from_millis(100),
    };
    for spec in &fleet {
        let opts = RunOptions {
            broker: Broker {
                host: "127.0.0.1".into(),
                port: addr.port(),
            },
            interval: Duration::from_secs(3600),
            upload_cycle_secs: 300,
            reboot: sim::gateway::DEFAULT_REBOOT,
        };
        tokio::spawn(run_with(
            SimGateway::new(spec.clone()),
            configs.clone(),
            opts,
            timing,
            stop_rx.clone(),
        ));
    }
    for spec in &fleet {
        wait_online(&app.store, &spec.sn, WAIT).await;
    }
    // A gateway's first status may find its devices offline; the status job would then show
    // them Normal from their reports. Here there are no reports: show them Normal directly.
    for spec in &fleet {
        let dev = app
            .store
            .device_by_sn(&spec.devices[0].sn)
            .await
            .expect("device")
            .expect("known");
        fixtures::set_status(&app, dev.id.0, 1).await;
    }
    World {
        app,
        _link: link,
        stop,
        admin,
        ann,
        ann_id: ann_id.0,
        plant,
        fleet,
    }
}

/// Posts firmware `file_name` with `fields` to the firmware upload.
async fn upload(
    app: &App,
    token: &str,
    file_name: &str,
    bytes: &[u8],
    fields: &[(&str, &str)],
) -> common::Resp {
    let file = FilePart::octets(file_name, bytes);
    app.post_multipart("/api/v1/firmware/save", fields, Some(file), Some(token))
        .await
}

/// Files inverter type `code` under a label of its own (created once, through the API), as
/// firmware is filed under labels of the inverter-type tree; answers the label's id.
async fn label_for(app: &App, admin: &str, code: i64) -> i64 {
    let tree = app.get("/api/v1/firmware/inverterTypes", Some(admin)).await;
    tree.expect_code(0);
    let titles = tree.data().as_array().cloned().unwrap_or_default();
    for title in &titles {
        for label in title["children"].as_array().into_iter().flatten() {
            if label["codes"]
                .as_array()
                .is_some_and(|c| c.contains(&json!(code)))
            {
                return label["id"].as_i64().expect("label id");
            }
        }
    }
    let title = match titles.iter().find(|t| t["name"] == "Inverters") {
        Some(t) => t["id"].as_i64().expect("title id"),
        None => {
            let r = app
                .post(
                    "/api/v1/firmware/inverterType/add",
                    json!({"name": "Inverters"}),
                    Some(admin),
                )
                .await;
            r.expect_code(0);
            r.data().as_i64().expect("title id")
        }
    };
    let r = app
        .post(
            "/api/v1/firmware/inverterType/add",
            json!({"name": format!("Type {code}"), "parentId": title, "codes": [code]}),
            Some(admin),
        )
        .await;
    r.expect_code(0);
    r.data().as_i64().expect("label id")
}

/// Uploads firmware `version` for inverter type `type_code` (or gateways with `None`).
async fn firmware(app: &App, admin: &str, type_code: Option<i64>, version: &str) -> i64 {
    if let Some(code) = type_code {
        label_for(app, admin, code).await;
    }
    let type_text = type_code.map(|t| t.to_string()).unwrap_or_default();
    // Names are unique per target (4000).
    let name = format!("fw {type_text} {version}");
    let fields: Vec<(&str, &str)> = match type_code {
        Some(_) => vec![("version", version), ("type", &type_text), ("name", &name)],
        None => vec![("version", version), ("target", "gateway"), ("name", &name)],
    };
    let r = upload(app, admin, "fw_image.bin", b"\x01\x02firmware", &fields).await;
    r.expect_code(0);
    r.data()["id"].as_i64().expect("firmware id")
}

/// Checks every field of an upgrade as the screens read it.
fn check_upgrade(u: &Value, sn: &str) {
    assert!(u["id"].is_i64(), "{u}");
    assert!(u["batchId"].as_str().is_some_and(|b| b.len() == 24), "{u}");
    assert_eq!(u["sn"], sn);
    assert!(u["target"].is_string());
    assert!(u["firmId"].is_i64());
    assert!(u["version"].is_string());
    assert!(u["fromVersion"].is_string());
    let queued = u["state"] == "queued";
    // A queued upgrade has no command yet, and a place in its gateway's queue.
    assert_eq!(u["commandId"].is_null(), queued, "{u}");
    assert!(u["commandId"].is_null() || u["commandId"].is_i64(), "{u}");
    assert_eq!(
        u["queuePosition"].as_i64().is_some_and(|p| p >= 1),
        queued,
        "{u}"
    );
    assert!(u.get("queuePosition").is_some(), "{u}");
    assert!(
        [
            "queued",
            "sending",
            "upgrading",
            "successful",
            "failed",
            "cancelled"
        ]
        .contains(&u["state"].as_str().unwrap_or("")),
        "{u}"
    );
    assert!(
        u["progress"]
            .as_i64()
            .is_some_and(|p| (0..=100).contains(&p)),
        "{u}"
    );
    assert!(u["message"].is_string());
    assert!(u["cancellable"].is_boolean());
    assert!(
        u["startTime"]
            .as_str()
            .is_some_and(|s| s.ends_with("+00:00")),
        "{u}"
    );
    assert!(u["finishTime"].is_null() || u["finishTime"].is_string());
    assert!(fixtures::is_update_at(&u["updateAt"]), "{u}");
}

/// Polls a progress URL until the upgrade is final; answers it and every state seen.
async fn until_final(app: &App, token: &str, uri: &str) -> (Value, Vec<(String, i64)>) {
    let until = tokio::time::Instant::now() + WAIT;
    let mut seen = Vec::new();
    loop {
        let r = app.get(uri, Some(token)).await;
        r.expect_code(0);
        let u = r.data().clone();
        let state = u["state"].as_str().unwrap_or("").to_string();
        seen.push((state.clone(), u["progress"].as_i64().unwrap_or(-1)));
        if ["successful", "failed", "cancelled"].contains(&state.as_str()) {
            return (u, seen);
        }
        assert!(
            tokio::time::Instant::now() < until,
            "{uri} never ended: {seen:?}"
        );
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

async fn device_status(app: &App, sn: &str) -> i64 {
    app.store
        .device_by_sn(sn)
        .await
        .expect("device")
        .expect("known")
        .status
}
