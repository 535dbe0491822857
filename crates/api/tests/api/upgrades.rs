//! Firmware upgrades over HTTP against simulated gateways on a real embedded broker: the
//! firmware upload rules, a single upgrade reporting progress to its end (the inverter shows
//! Upgrading meanwhile and runs the new version after), cancel where the model supports it and
//! its refusal elsewhere, offline, already-upgrading, wrong-firmware and permission refusals, a
//! timeout, a batch with mixed results and its totals, gateway upgrades, and the audit log.
//! Every test runs on SQLite and, when configured, PostgreSQL.

use crate::common;
use crate::fake_gateway;

use std::{sync::Arc, time::Duration};

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

const WAIT: Duration = Duration::from_secs(20);

fn now() -> i64 {
    domain::time::now_ms()
}

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
        .create_gateway(&spec.sn, &spec.key, inv.protocol, now())
        .await
        .expect("gateway");
    s.bind_gateway(gw, plant, owner, None, now())
        .await
        .expect("bind");
    let dev = s
        .upsert_device(
            &inv.sn,
            gw,
            "inverter",
            inv.type_code,
            inv.protocol,
            &inv.model,
            None,
            now(),
        )
        .await
        .expect("device");
    fixtures::set_status(app, dev, 1).await;
    gw
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
        fixtures::set_status(&app, dev.id, 1).await;
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

/// A multipart upload with a file and text fields.
async fn upload(
    app: &App,
    token: &str,
    file_name: &str,
    bytes: &[u8],
    fields: &[(&str, &str)],
) -> common::Resp {
    let boundary = "----portal-upgrades-boundary-x81";
    let mut body = Vec::new();
    for (k, v) in fields {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n")
                .as_bytes(),
        );
    }
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; \
             filename=\"{file_name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    app.post_raw(
        "/api/v1/firmware/save",
        &format!("multipart/form-data; boundary={boundary}"),
        body,
        Some(token),
    )
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

fn is_update_at(v: &Value) -> bool {
    v.as_str().is_some_and(|s| {
        s.len() == 20
            && s.ends_with('Z')
            && chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%SZ").is_ok()
    })
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
    assert!(u["commandId"].is_i64());
    assert!(
        ["sending", "upgrading", "successful", "failed", "cancelled"]
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
    assert!(is_update_at(&u["updateAt"]), "{u}");
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

#[tokio::test]
async fn firmware_uploads_follow_the_spec_file_and_version_rules() {
    for app in spawn().await {
        let (_, admin) = app
            .signed_in("root@example.com", BuiltinRole::InternalAdmin, None)
            .await;
        let (_, owner) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        // An old client's `type` names no label yet.
        upload(
            &app,
            &admin,
            "INV-94_v1.bin",
            b"\x00\x01",
            &[("version", "V1_5"), ("type", "94")],
        )
        .await
        .expect_code(4);
        let label94 = label_for(&app, &admin, 94).await;
        label_for(&app, &admin, 2).await;
        let ok = upload(
            &app,
            &admin,
            "INV-94_v1.bin",
            b"\x00\x01",
            &[("version", "V1_5"), ("type", "94"), ("changeLog", "first")],
        )
        .await;
        ok.expect_code(0);
        let f = ok.data();
        assert!(f["id"].is_i64());
        assert_eq!(f["fileName"], "INV-94_v1.bin");
        assert_eq!(f["name"], "INV-94_v1.bin");
        assert_eq!(f["size"], 2);
        assert_eq!(f["version"], "V1_5");
        assert_eq!(f["target"], "inverter");
        assert_eq!(f["type"], label94);
        assert_eq!(f["codes"], json!([94]));
        assert_eq!(f["enabled"], true);
        assert_eq!(f["changeLog"], "first");
        assert!(
            f["createAt"]
                .as_str()
                .is_some_and(|s| s.ends_with("+00:00"))
        );
        assert!(is_update_at(&f["updateAt"]));
        let stored = std::fs::read_dir(app.data_dir.join("firmware"))
            .expect("firmware dir")
            .count();
        assert_eq!(stored, 1, "{}", app.backend);

        // Duplicate version (any case), lower than the latest, bad names, types and sizes.
        upload(
            &app,
            &admin,
            "a.bin",
            b"x",
            &[("version", "v1_5"), ("type", "94")],
        )
        .await
        .expect_code(4002);
        upload(
            &app,
            &admin,
            "a.bin",
            b"x",
            &[("version", "V1_4"), ("type", "94")],
        )
        .await
        .expect_code(4);
        upload(
            &app,
            &admin,
            "a.hex",
            b"x",
            &[("version", "V1_10"), ("type", "94")],
        )
        .await
        .expect_code(11);
        upload(
            &app,
            &admin,
            "a.hex",
            b":0100000001FE\r\n:00000001FF\r\n",
            &[("version", "V1_10"), ("type", "94")],
        )
        .await
        .expect_code(0);
        upload(
            &app,
            &admin,
            "a.zip",
            b"x",
            &[("version", "V2"), ("type", "94")],
        )
        .await
        .expect_code(11);
        upload(
            &app,
            &admin,
            "bad name.bin",
            b"x",
            &[("version", "V2"), ("type", "94")],
        )
        .await
        .expect_code(4);
        let long = format!("{}.bin", "n".repeat(37));
        upload(
            &app,
            &admin,
            &long,
            b"x",
            &[("version", "V2"), ("type", "94")],
        )
        .await
        .expect_code(4);
        upload(
            &app,
            &admin,
            "a.bin",
            b"x",
            &[("version", "V2.0"), ("type", "94")],
        )
        .await
        .expect_code(4);
        upload(&app, &admin, "a.bin", b"x", &[("version", "V2")])
            .await
            .expect_code(4);
        let big = vec![0u8; 1024 * 1024 * 3 / 2 + 1];
        upload(
            &app,
            &admin,
            "big.bin",
            &big,
            &[("version", "V3"), ("type", "94")],
        )
        .await
        .expect_code(12);
        let exact = vec![0u8; 1024 * 1024 * 3 / 2];
        upload(
            &app,
            &admin,
            "exact.bin",
            &exact,
            &[("version", "V3"), ("type", "94")],
        )
        .await
        .expect_code(0);
        // Another type keeps its own versions; disabled files are not offered.
        upload(
            &app,
            &admin,
            "a.bin",
            b"x",
            &[("version", "V1_0"), ("type", "2"), ("enabled", "false")],
        )
        .await
        .expect_code(0);
        upload(
            &app,
            &admin,
            "g.bin",
            b"x",
            &[("version", "V1_0"), ("target", "gateway")],
        )
        .await
        .expect_code(0);
        // Only internal administrators upload.
        upload(
            &app,
            &owner,
            "o.bin",
            b"x",
            &[("version", "V9"), ("type", "94")],
        )
        .await
        .expect_code(2);

        let list = app
            .get("/api/v1/firmware?type=94&lan=en&page=", Some(&owner))
            .await;
        list.expect_code(0);
        let d = list.data();
        assert_eq!(d["total"], 3, "{d}");
        assert!(d["pageSize"].is_i64() && d["pageNumber"].is_i64());
        let versions: Vec<&str> = d["infos"]
            .as_array()
            .expect("infos")
            .iter()
            .map(|f| f["version"].as_str().unwrap_or(""))
            .collect();
        assert_eq!(versions, ["V3", "V1_10", "V1_5"]);
        let t2 = app.get("/api/v1/firmware?type=2", Some(&owner)).await;
        assert_eq!(t2.data()["total"], 0);
        let gw = app
            .get("/api/v1/firmware?target=gateway", Some(&owner))
            .await;
        assert_eq!(gw.data()["infos"][0]["target"], "gateway");
        app.get("/api/v1/firmware", Some(&owner))
            .await
            .expect_code(4);
        app.get("/api/v1/firmware?sn=NOPE000001", Some(&owner))
            .await
            .expect_code(305);
    }
}

#[tokio::test]
async fn an_upgrade_reports_progress_to_its_end_and_the_inverter_runs_the_new_version() {
    for app in spawn().await {
        let w = world(app).await;
        let app = &w.app;
        let fw = firmware(app, &w.admin, Some(2), "V2_0").await;
        let other_type = firmware(app, &w.admin, Some(94), "V7").await;
        let sn = &w.fleet[0].devices[0].sn;

        // The firmware must be enabled for the inverter's type.
        app.post(
            &format!("/api/v1/inverter/{sn}/upgrade?firmId={other_type}"),
            json!({}),
            Some(&w.ann),
        )
        .await
        .expect_code(4);
        app.post(
            &format!("/api/v1/inverter/{sn}/upgrade?firmId="),
            json!({}),
            Some(&w.ann),
        )
        .await
        .expect_code(4);
        let none = app
            .get(
                &format!("/api/v1/inverter/{sn}/upgrade/progress"),
                Some(&w.ann),
            )
            .await;
        none.expect_code(0);
        assert!(none.data().is_null());

        let r = app
            .post(
                &format!("/api/v1/inverter/{sn}/upgrade?firmId={fw}"),
                json!({}),
                Some(&w.ann),
            )
            .await;
        r.expect_code(0);
        check_upgrade(r.data(), sn);
        assert_eq!(r.data()["target"], "inverter");
        assert_eq!(r.data()["version"], "V2_0");
        assert_eq!(r.data()["firmId"], fw);
        assert!(r.data()["finishTime"].is_null());
        // Upgrading while it runs; a second start and a cancel are refused.
        assert_eq!(device_status(app, sn).await, 4, "{}", app.backend);
        app.post(
            &format!("/api/v1/inverter/{sn}/upgrade?firmId={fw}"),
            json!({}),
            Some(&w.ann),
        )
        .await
        .expect_code(603);
        app.post(
            &format!("/api/v1/inverter/{sn}/cutUpgrade"),
            json!({}),
            Some(&w.ann),
        )
        .await
        .expect_code(608);
        let list = app
            .get(&format!("/api/v1/inverters?sn={sn}&status=4"), Some(&w.ann))
            .await;
        assert_eq!(list.data()["total"], 1, "{}", list.text());

        let (done, seen) = until_final(
            app,
            &w.ann,
            &format!("/api/v1/inverter/{sn}/upgrade/progress"),
        )
        .await;
        check_upgrade(&done, sn);
        assert!(done["finishTime"].is_string());
        assert!(
            seen.iter()
                .any(|(s, p)| (s == "sending" || s == "upgrading") && *p > 0 && *p < 100),
            "no progress seen: {seen:?}"
        );
        let progress: Vec<i64> = seen.iter().map(|(_, p)| *p).collect();
        assert!(
            progress.windows(2).all(|w| w[0] <= w[1]),
            "progress went back: {seen:?}"
        );
        let device = app
            .store
            .device_by_sn(sn)
            .await
            .expect("device")
            .expect("known");
        assert_ne!(device.status, 4, "still upgrading");
        match done["state"].as_str() {
            Some("successful") => {
                assert_eq!(done["progress"], 100);
                let versions: Value = serde_json::from_str(&device.versions).expect("versions");
                assert_eq!(versions["softVer"], "V2_0");
            }
            // One simulated upgrade in ten fails its checksum.
            Some("failed") => assert_eq!(done["message"], "firmware checksum mismatch"),
            other => panic!("unexpected end {other:?}"),
        }

        // Every step is in the audit log.
        let audit = app
            .get("/api/v1/audit?action=inverter.upgrade", Some(&w.ann))
            .await;
        audit.expect_code(0);
        let entries = audit.data()["infos"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert!(entries.len() >= 2, "{}", audit.text());
    }
}

#[tokio::test]
async fn cancel_stops_upgrades_on_models_that_support_it_only() {
    for app in spawn().await {
        let w = world(app).await;
        let app = &w.app;
        let fw = firmware(app, &w.admin, Some(94), "V5").await;
        let sn = &w.fleet[1].devices[0].sn;
        app.post(
            &format!("/api/v1/inverter/{sn}/cutUpgrade"),
            json!({}),
            Some(&w.ann),
        )
        .await
        .expect_code(4);
        app.post(
            &format!("/api/v1/inverter/{sn}/upgrade?firmId={fw}"),
            json!({}),
            Some(&w.ann),
        )
        .await
        .expect_code(0);
        // The device says it can stop in its first progress report.
        let uri = format!("/api/v1/inverter/{sn}/upgrade/progress");
        let until = tokio::time::Instant::now() + WAIT;
        loop {
            let u = app.get(&uri, Some(&w.ann)).await;
            if u.data()["cancellable"] == true {
                break;
            }
            assert!(
                tokio::time::Instant::now() < until,
                "never cancellable: {}",
                u.text()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let c = app
            .post(
                &format!("/api/v1/inverter/{sn}/cutUpgrade"),
                json!({}),
                Some(&w.ann),
            )
            .await;
        c.expect_code(0);
        assert_eq!(c.data()["cancelRequested"], true);
        check_upgrade(&c.data()["upgrade"], sn);
        let (done, _) = until_final(app, &w.ann, &uri).await;
        assert_eq!(done["state"], "cancelled", "{done}");
        assert_eq!(done["cancellable"], false);
        assert_ne!(device_status(app, sn).await, 4);
    }
}

#[tokio::test]
async fn upgrades_are_refused_offline_without_permission_and_time_out_without_an_answer() {
    for app in spawn().await {
        let w = world(app).await;
        let app = &w.app;
        let fw = firmware(app, &w.admin, Some(2), "V2_0").await;
        let sn = w.fleet[0].devices[0].sn.clone();

        // A visitor of the plant may look but not upgrade; a stranger does not see it.
        let (vid, visitor) = app
            .signed_in("vic@example.com", BuiltinRole::PlantOwner, None)
            .await;
        app.store
            .share_plant(w.plant, vid, ShareRole::Visitor, now())
            .await
            .expect("share");
        app.get(
            &format!("/api/v1/inverter/{sn}/upgrade/progress"),
            Some(&visitor),
        )
        .await
        .expect_code(0);
        app.post(
            &format!("/api/v1/inverter/{sn}/upgrade?firmId={fw}"),
            json!({}),
            Some(&visitor),
        )
        .await
        .expect_code(2);
        let (_, bob) = app
            .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
            .await;
        app.post(
            &format!("/api/v1/inverter/{sn}/upgrade?firmId={fw}"),
            json!({}),
            Some(&bob),
        )
        .await
        .expect_code(600);
        app.get(
            &format!("/api/v1/inverter/{sn}/upgrade/progress"),
            Some(&bob),
        )
        .await
        .expect_code(600);

        // Offline: refused with the spec's message, nothing sent.
        let dev = app
            .store
            .device_by_sn(&sn)
            .await
            .expect("device")
            .expect("known");
        fixtures::set_status(app, dev.id, 0).await;
        app.post(
            &format!("/api/v1/inverter/{sn}/upgrade?firmId={fw}"),
            json!({}),
            Some(&w.ann),
        )
        .await
        .expect_code(602);
        // A maintainer of the plant may upgrade: past the permission check, refused offline.
        let (mid, maintainer) = app
            .signed_in("max@example.com", BuiltinRole::PlantOwner, None)
            .await;
        app.store
            .share_plant(w.plant, mid, ShareRole::Maintainer, now())
            .await
            .expect("share");
        app.post(
            &format!("/api/v1/inverter/{sn}/upgrade?firmId={fw}"),
            json!({}),
            Some(&maintainer),
        )
        .await
        .expect_code(602);
        let p = app
            .get(
                &format!("/api/v1/inverter/{sn}/upgrade/progress"),
                Some(&w.ann),
            )
            .await;
        assert!(p.data().is_null());
        // A device in Fault may not be upgraded.
        fixtures::set_status(app, dev.id, 3).await;
        app.post(
            &format!("/api/v1/inverter/{sn}/upgrade?firmId={fw}"),
            json!({}),
            Some(&w.ann),
        )
        .await
        .expect_code(604);

        // A gateway that never answers: the upgrade fails when its command times out.
        let silent = app
            .store
            .create_gateway("GW-SILENT-01", "KEY12345", "deye-hybrid-1ph", now())
            .await
            .expect("gw");
        app.store
            .bind_gateway(silent, w.plant, w.ann_id, None, now())
            .await
            .expect("bind");
        let quiet = app
            .store
            .upsert_device(
                "INV-SILENT-01",
                silent,
                "inverter",
                2,
                "deye-hybrid-1ph",
                "X",
                None,
                now(),
            )
            .await
            .expect("dev");
        fixtures::set_status(app, quiet, 1).await;
        let online = GatewayStatusUpdate {
            online: true,
            ..GatewayStatusUpdate::default()
        };
        app.store
            .update_gateway_status(silent, &online, now())
            .await
            .expect("online");
        let r = app
            .post(
                &format!("/api/v1/inverter/INV-SILENT-01/upgrade?firmId={fw}"),
                json!({}),
                Some(&w.ann),
            )
            .await;
        r.expect_code(0);
        assert_eq!(r.data()["state"], "sending");
        assert_eq!(device_status(app, "INV-SILENT-01").await, 4);
        // The sweeper, run as if the deadline (15 minutes) had passed: the upgrade fails and the
        // inverter leaves Upgrading before anyone reads the progress.
        app.store
            .time_out_commands(now() + 16 * 60 * 1000)
            .await
            .expect("sweep");
        let ended = devices::link::sync_ended_upgrades(&app.store)
            .await
            .expect("sync");
        assert_eq!(ended, 1);
        assert_eq!(device_status(app, "INV-SILENT-01").await, 1);
        let p = app
            .get(
                "/api/v1/inverter/INV-SILENT-01/upgrade/progress",
                Some(&w.ann),
            )
            .await;
        p.expect_code(0);
        assert_eq!(p.data()["state"], "failed", "{}", p.text());
        assert!(
            p.data()["message"]
                .as_str()
                .is_some_and(|m| m.contains("timed out"))
        );
        assert_eq!(device_status(app, "INV-SILENT-01").await, 1);

        // Without the device link the portal cannot reach anything.
        let mut state = app.state.clone();
        state.commands = None;
        let unlinked = App {
            backend: app.backend,
            store: app.store.clone(),
            router: api::router(state.clone()),
            state,
            data_dir: app.data_dir.clone(),
        };
        fixtures::set_status(app, dev.id, 1).await;
        unlinked
            .post(
                &format!("/api/v1/inverter/{sn}/upgrade?firmId={fw}"),
                json!({}),
                Some(&w.ann),
            )
            .await
            .expect_code(606);
    }
}

#[tokio::test]
async fn a_batch_reports_each_refusal_and_its_totals_until_every_upgrade_ends() {
    for app in spawn().await {
        let w = world(app).await;
        let app = &w.app;
        let fw = firmware(app, &w.admin, Some(2), "V3_1").await;
        let (a, b, c) = (
            &w.fleet[0].devices[0].sn,
            &w.fleet[2].devices[0].sn,
            &w.fleet[1].devices[0].sn,
        );
        let r = app
            .post(
                "/api/v1/inverter/batchUpgrade",
                json!({"sns": [a, b, c, "NOPE000001"], "firmId": fw.to_string()}),
                Some(&w.ann),
            )
            .await;
        r.expect_code(0);
        let d = r.data();
        let batch = d["batchId"].as_str().expect("batch id").to_string();
        assert_eq!(d["total"], 4);
        assert_eq!(d["sent"], 2);
        assert_eq!(d["refused"], 2);
        let results = d["results"].as_array().expect("results");
        for (i, (sn, code)) in [
            (a.as_str(), 0),
            (b.as_str(), 0),
            (c.as_str(), 4),
            ("NOPE000001", 600),
        ]
        .iter()
        .enumerate()
        {
            let item = &results[i];
            assert_eq!(item["sn"], *sn);
            assert_eq!(item["code"], *code, "{item}");
            assert_eq!(item["success"], *code == 0);
            assert!(item["msg"].is_string());
            if *code == 0 {
                check_upgrade(&item["upgrade"], sn);
                assert_eq!(item["upgrade"]["batchId"], batch.as_str());
            } else {
                assert!(item["upgrade"].is_null());
                assert!(!item["msg"].as_str().unwrap_or("").is_empty());
            }
        }
        app.post(
            "/api/v1/inverter/batchUpgrade",
            json!({"sns": [], "firmId": fw}),
            Some(&w.ann),
        )
        .await
        .expect_code(4);

        let uri = format!("/api/v1/upgrade/batch/{batch}");
        let until = tokio::time::Instant::now() + WAIT;
        let mut saw_running = false;
        loop {
            let p = app.get(&uri, Some(&w.ann)).await;
            p.expect_code(0);
            let t = &p.data()["totals"];
            for k in [
                "total",
                "sending",
                "upgrading",
                "successful",
                "failed",
                "cancelled",
                "running",
                "progress",
            ] {
                assert!(t[k].is_i64(), "{k}: {t}");
            }
            assert_eq!(t["total"], 2);
            assert_eq!(p.data()["infos"].as_array().map(Vec::len), Some(2));
            if t["running"] == 0 {
                assert_eq!(
                    t["successful"].as_i64().unwrap_or(0) + t["failed"].as_i64().unwrap_or(0),
                    2,
                    "{t}"
                );
                break;
            }
            saw_running = true;
            assert!(
                tokio::time::Instant::now() < until,
                "batch never ended: {t}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(saw_running);
        // Someone else sees nothing of the batch.
        let (_, bob) = app
            .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let p = app.get(&uri, Some(&bob)).await;
        assert_eq!(p.data()["totals"]["total"], 0);
    }
}

#[tokio::test]
async fn gateways_upgrade_one_or_in_a_batch_and_report_their_new_version() {
    for app in spawn().await {
        let w = world(app).await;
        let app = &w.app;
        let fw = firmware(app, &w.admin, None, "SIM-2_0").await;
        let inverter_fw = firmware(app, &w.admin, Some(2), "V1").await;
        let g0 = app
            .store
            .gateway_by_sn(&w.fleet[0].sn)
            .await
            .expect("gw")
            .expect("known");
        app.post(
            &format!("/api/v1/gateway/{}/upgrade?firmId={inverter_fw}", g0.id),
            json!({}),
            Some(&w.ann),
        )
        .await
        .expect_code(4);
        let r = app
            .post(
                &format!("/api/v1/gateway/{}/upgrade?firmId={fw}", g0.id),
                json!({}),
                Some(&w.ann),
            )
            .await;
        r.expect_code(0);
        check_upgrade(r.data(), &g0.sn);
        assert_eq!(r.data()["target"], "gateway");
        assert_eq!(r.data()["fromVersion"], "SIM-1.4.2");
        let (done, _) = until_final(
            app,
            &w.ann,
            &format!("/api/v1/gateway/{}/upgrade/progress", g0.sn),
        )
        .await;
        if done["state"] == "successful" {
            let g = app.store.gateway(g0.id).await.expect("gw").expect("known");
            assert_eq!(g.soft_ver, "SIM-2_0");
            // Already on this version: a warning, unless forced.
            app.post(
                &format!("/api/v1/gateway/{}/upgrade?firmId={fw}", g0.id),
                json!({}),
                Some(&w.ann),
            )
            .await
            .expect_code(4001);
            let b = app
                .post(
                    "/api/v1/batch/upgrade",
                    json!({"ids": [g0.sn.clone()], "firmId": fw}),
                    Some(&w.ann),
                )
                .await;
            assert_eq!(b.data()["results"][0]["code"], 4001, "{}", b.text());
            let forced = app
                .post(
                    &format!("/api/v1/gateway/{}/upgrade?firmId={fw}&force=true", g0.id),
                    json!({}),
                    Some(&w.ann),
                )
                .await;
            assert_ne!(forced.code(), 4001, "{}", forced.text());
        }
        let (_, bob) = app
            .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
            .await;
        app.post(
            &format!("/api/v1/gateway/{}/upgrade?firmId={fw}", g0.id),
            json!({}),
            Some(&bob),
        )
        .await
        .expect_code(305);

        let b = app
            .post(
                "/api/v1/batch/upgrade",
                json!({"ids": [w.fleet[1].sn.clone(), w.fleet[2].sn.clone(), "GW-NOPE-404"], "firmId": fw}),
                Some(&w.ann),
            )
            .await;
        b.expect_code(0);
        assert_eq!(b.data()["sent"], 2, "{}", b.text());
        assert_eq!(b.data()["results"][2]["code"], 305);
        let batch = b.data()["batchId"].as_str().expect("batch").to_string();
        let until = tokio::time::Instant::now() + WAIT;
        loop {
            let p = app
                .get(&format!("/api/v1/upgrade/batch/{batch}"), Some(&w.ann))
                .await;
            if p.data()["totals"]["running"] == 0 {
                assert_eq!(p.data()["totals"]["total"], 2);
                break;
            }
            assert!(tokio::time::Instant::now() < until);
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// Issue 13: an upgrade whose gateway goes away (here it restarts: silent, no goodbye, as
/// after a power cut) ends as failed with the reason within seconds, not at its 15-minute
/// deadline, and the inverter shows Offline rather than Upgrading.
#[tokio::test]
async fn an_upgrade_whose_gateway_goes_away_fails_within_seconds_with_the_reason() {
    for app in spawn().await {
        let w = world(app).await;
        let app = &w.app;
        // A gateway of its own that reports every second and takes two minutes per upgrade.
        let spec = demo_fleet(8, 11).remove(5);
        register(app, w.plant, w.ann_id, &spec).await;
        let inverter = spec.devices[0].clone();
        let fw = firmware(app, &w.admin, Some(inverter.type_code), "V9_1").await;
        let opts = RunOptions {
            broker: Broker {
                host: "127.0.0.1".into(),
                port: w._link.broker_addr().expect("broker").port(),
            },
            interval: Duration::from_secs(1),
            upload_cycle_secs: 1,
            reboot: Duration::from_secs(120),
        };
        let slow = UpgradeTiming {
            min: Duration::from_secs(120),
            max: Duration::from_secs(120),
            report_every: Duration::from_millis(200),
        };
        let configs = Arc::new(devices::protocol::shipped().expect("configs"));
        let (stop, stop_rx) = watch::channel(false);
        let task = tokio::spawn(run_with(
            SimGateway::new(spec.clone()),
            configs,
            opts,
            slow,
            stop_rx,
        ));
        wait_online(&app.store, &spec.sn, WAIT).await;
        // What ingest records of its status (this test's stand-in for ingest keeps less).
        let gid = app
            .store
            .gateway_by_sn(&spec.sn)
            .await
            .expect("gw")
            .expect("known")
            .id;
        let cycle = GatewayStatusUpdate {
            online: true,
            upload_cycle: Some(1),
            ..GatewayStatusUpdate::default()
        };
        app.store
            .update_gateway_status(gid, &cycle, now())
            .await
            .expect("cycle");
        let dev = app
            .store
            .device_by_sn(&inverter.sn)
            .await
            .expect("device")
            .expect("known");
        fixtures::set_status(app, dev.id, 1).await;

        let progress = format!("/api/v1/inverter/{}/upgrade/progress", inverter.sn);
        app.post(
            &format!("/api/v1/inverter/{}/upgrade?firmId={fw}", inverter.sn),
            json!({}),
            Some(&w.ann),
        )
        .await
        .expect_code(0);
        // Under way: the device reports progress.
        let until = tokio::time::Instant::now() + WAIT;
        loop {
            let r = app.get(&progress, Some(&w.ann)).await;
            if r.data()["progress"].as_i64().unwrap_or(0) > 0 {
                assert_eq!(r.data()["reason"], Value::Null);
                break;
            }
            assert!(tokio::time::Instant::now() < until, "{}", r.text());
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        // The status job, as `portal serve` runs it.
        let job = tokio::spawn(devices::ingest::status::run_refresher(app.store.clone()));
        let r = app
            .post(
                &format!("/api/v1/gateway/{}/restart", spec.sn),
                json!({}),
                Some(&w.ann),
            )
            .await;
        r.expect_code(0);
        assert_eq!(r.data()["succeeded"], 1, "{}", r.text());
        let gone = tokio::time::Instant::now();

        let (done, _) = {
            let until = gone + Duration::from_secs(40);
            loop {
                let r = app.get(&progress, Some(&w.ann)).await;
                let u = r.data().clone();
                if u["state"] != "sending" && u["state"] != "upgrading" {
                    break (u, ());
                }
                assert!(tokio::time::Instant::now() < until, "still running: {u}");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        };
        let took = gone.elapsed();
        check_upgrade(&done, &inverter.sn);
        assert_eq!(done["state"], "failed", "{done}");
        assert_eq!(done["reason"], "gatewayOffline", "{done}");
        assert_eq!(done["message"], devices::link::GATEWAY_GONE);
        assert!(
            done["progress"].as_i64().unwrap_or(0) > 0,
            "where it stopped"
        );
        assert!(took < Duration::from_secs(25), "{took:?}");
        assert!(took >= devices::link::UPGRADE_GATEWAY_GONE_AFTER);
        // The gateway is offline; its inverter shows Offline, not Upgrading.
        let g = app
            .store
            .gateway_by_sn(&spec.sn)
            .await
            .expect("gw")
            .expect("known");
        assert!(!g.online);
        assert_eq!(device_status(app, &inverter.sn).await, 0);
        job.abort();
        let _ = stop.send(true);
        task.abort();
    }
}
