//! Gateway actions over HTTP with a real device link: restart one, a comma list and a batch
//! (mixed results with totals and reasons, a timeout), the batch check, replace (the plant keeps
//! its devices and history), protocol change and the settings switch; refusals for offline,
//! upgrading, permissions; every action in the audit log.

use crate::common;
use crate::fake_gateway;
use domain::DeviceFamily;
use domain::ids::{DeviceId, PlantId};

use common::{App, fixtures, spawn};
use fake_gateway::{Mode, gateway, linked};
use serde_json::{Value, json};
use store::{
    commands::NewCommand,
    telemetry::{DayRange, TelemetryBatch},
};

struct ActionGateways {
    admin: String,
    ann: String,
    max: String,
    vic: String,
    bob: String,
    plant: i64,
    inverter: i64,
}

/// Ann's plant holds GW-ACT01 (answers; inverter INV-ACT01 with history behind it), GW-ACT02
/// (silent), GW-ACT03 (never connects); GW-NEW01 is free stock; Bob holds GW-BOB01. Max
/// maintains Ann's plant, Vic visits it.
async fn action_gateways(app: &App) -> ActionGateways {
    let admin = fixtures::admin(app).await;
    let [ann, max, vic, bob] = fixtures::owners(app, ["ann", "max", "vic", "bob"]).await;
    let mut plants = Vec::new();
    for (token, name) in [(&ann, "Ann plant"), (&bob, "Bob plant")] {
        plants.push(fixtures::plant(app, token, fixtures::madrid_plant(name, 1, 5)).await);
    }
    for sn in ["GW-ACT01", "GW-ACT02", "GW-ACT03", "GW-NEW01", "GW-BOB01"] {
        fixtures::register_hybrid_gateway(app, &admin, sn).await;
    }
    for (token, plant, sn) in [
        (&ann, plants[0], "GW-ACT01"),
        (&ann, plants[0], "GW-ACT02"),
        (&ann, plants[0], "GW-ACT03"),
        (&bob, plants[1], "GW-BOB01"),
    ] {
        fixtures::bind_gateway(app, token, plant, sn).await;
    }
    let gw = app
        .store
        .gateway_by_sn("GW-ACT01")
        .await
        .expect("gateway")
        .expect("registered");
    let inverter = app
        .store
        .upsert_device(
            "INV-ACT01",
            gw.id,
            DeviceFamily::Inverter,
            2,
            "p",
            "SUN-5K",
            None,
            1,
        )
        .await
        .expect("device");
    let mut batch = TelemetryBatch::default();
    let pv = json!({"pv1_power": 1200.0});
    batch.samples.push(fixtures::sample(
        inverter.0,
        domain::time::now_ms() - 60_000,
        &pv,
    ));
    let day = "2026-01-15";
    batch
        .energy
        .push(fixtures::energy(inverter.0, plants[0], day, "pv", 12.5));
    app.store
        .write_telemetry_batch(&batch)
        .await
        .expect("telemetry");
    fixtures::share(app, &ann, plants[0], &fixtures::MAX_AND_VIC).await;
    ActionGateways {
        admin,
        ann,
        max,
        vic,
        bob,
        plant: plants[0],
        inverter: inverter.0,
    }
}

/// A batch answer: totals and items, key by key with JSON types.
#[track_caller]
fn assert_batch(d: &Value) {
    assert_totals(d, ["total", "succeeded", "failed"]);
}

/// A check's answer: ready and refused, never "succeeded" (nothing was done yet).
#[track_caller]
fn assert_check(d: &Value) {
    assert_totals(d, ["total", "ready", "refused"]);
}

#[track_caller]
fn assert_totals(d: &Value, keys: [&str; 3]) {
    let obj = d.as_object().expect("batch object");
    assert_eq!(obj.len(), 4, "{d}");
    for k in keys {
        assert!(d[k].is_u64(), "{k} int: {d}");
    }
    let items = d["items"].as_array().expect("items");
    assert_eq!(d["total"].as_u64(), Some(items.len() as u64));
    for i in items {
        let o = i.as_object().expect("item");
        assert_eq!(o.len(), 8, "{i}");
        assert!(
            i["sn"].is_string() && i["status"].is_string() && i["msg"].is_string(),
            "{i}"
        );
        assert!(i["success"].is_boolean() && i["code"].is_i64(), "{i}");
        assert!(i["commandId"].is_i64() || i["commandId"].is_null(), "{i}");
        assert!(i["gatewayId"].is_i64() || i["gatewayId"].is_null(), "{i}");
        // Only an accepted restart has a time of acceptance.
        assert_eq!(i["acceptedAt"].is_i64(), i["status"] == "succeeded", "{i}");
        assert!(i["acceptedAt"].is_i64() || i["acceptedAt"].is_null(), "{i}");
    }
}

fn item<'a>(d: &'a Value, sn: &str) -> &'a Value {
    d["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|i| i["sn"] == sn)
        .unwrap_or_else(|| panic!("{sn} not in {d}"))
}

async fn audit_results(app: &App, admin: &str, action: &str) -> Vec<String> {
    let r = app
        .get(
            &format!("/api/v1/audit?action={action}&limit=100"),
            Some(admin),
        )
        .await;
    r.expect_code(0);
    r.data()["infos"]
        .as_array()
        .expect("infos")
        .iter()
        .map(|a| {
            format!(
                "{}:{}",
                a["target"].as_str().unwrap_or(""),
                a["result"].as_str().unwrap_or("")
            )
        })
        .collect()
}

#[tokio::test]
async fn restarts_report_totals_with_reasons_and_a_timeout() {
    for app in spawn().await {
        let l = linked(app).await;
        let app = &l.app;
        let c = action_gateways(app).await;
        let mut answering = gateway(&l, "GW-ACT01", "KEY12345", Mode::Answer).await;
        let _silent = gateway(&l, "GW-ACT02", "KEY12345", Mode::Silent).await;

        // One gateway, by a maintainer of the shared plant.
        let r = app
            .post("/api/v1/gateway/GW-ACT01/restart", json!({}), Some(&c.max))
            .await;
        r.expect_code(0);
        let d = r.data();
        assert_batch(d);
        assert_eq!(
            (d["total"].as_u64(), d["succeeded"].as_u64()),
            (Some(1), Some(1)),
            "{d}"
        );
        let i = item(d, "GW-ACT01");
        assert_eq!(
            (i["status"].as_str(), i["success"].as_bool()),
            (Some("succeeded"), Some(true))
        );
        let cmd = answering.received.recv().await.expect("restart command");
        assert_eq!(
            (cmd.kind.as_str(), cmd.sn.as_str()),
            ("restart", "GW-ACT01")
        );

        // A comma list with every outcome: applied, timed out, offline, unknown.
        let r = app
            .post(
                "/api/v1/gateway/GW-ACT01,GW-ACT02,GW-ACT03,GW-NONE01/restart",
                json!({}),
                Some(&c.admin),
            )
            .await;
        r.expect_code(0);
        let d = r.data();
        assert_batch(d);
        assert_eq!(
            (
                d["total"].as_u64(),
                d["succeeded"].as_u64(),
                d["failed"].as_u64()
            ),
            (Some(4), Some(1), Some(3)),
            "{d}"
        );
        assert_eq!(item(d, "GW-ACT01")["status"], "succeeded");
        assert_eq!(item(d, "GW-ACT02")["status"], "timed_out");
        assert_eq!(
            (
                item(d, "GW-ACT03")["status"].as_str(),
                item(d, "GW-ACT03")["code"].as_i64()
            ),
            (Some("refused"), Some(602))
        );
        assert_eq!(item(d, "GW-NONE01")["code"], 305);

        // The batch route: a visitor is refused per item (2), a stranger sees nothing (305).
        let r = app
            .post(
                "/api/v1/batch/restart",
                json!({"sns": ["GW-ACT01"]}),
                Some(&c.vic),
            )
            .await;
        r.expect_code(0);
        assert_eq!(item(r.data(), "GW-ACT01")["code"], 2);
        assert_eq!(r.data()["failed"], 1);
        let r = app
            .post(
                "/api/v1/batch/restart",
                json!({"sns": "GW-ACT01, GW-BOB01"}),
                Some(&c.bob),
            )
            .await;
        assert_eq!(item(r.data(), "GW-ACT01")["code"], 305);
        assert_eq!(
            item(r.data(), "GW-BOB01")["code"],
            2,
            "owners hold no gateway.restart"
        );
        app.post("/api/v1/batch/restart", json!({"sns": []}), Some(&c.admin))
            .await
            .expect_code(4);

        // Every restart is audited with its result.
        let results = audit_results(app, &c.admin, "gateway.restart").await;
        for expected in ["GW-ACT01:sent", "GW-ACT03:refused", "GW-NONE01:refused"] {
            assert!(
                results.iter().any(|r| r == expected),
                "{expected} in {results:?}"
            );
        }
    }
}

#[tokio::test]
async fn the_batch_check_tells_what_would_fail_and_upgrading_gateways_are_refused() {
    for app in spawn().await {
        let l = linked(app).await;
        let app = &l.app;
        let c = action_gateways(app).await;
        let _a = gateway(&l, "GW-ACT01", "KEY12345", Mode::Answer).await;
        let _b = gateway(&l, "GW-ACT02", "KEY12345", Mode::Answer).await;
        // GW-ACT02 has an upgrade running.
        let now = domain::time::now_ms();
        app.store
            .insert_command(&NewCommand {
                correlation_id: "upgrade-in-progress",
                gateway_sn: "GW-ACT02",
                device_sn: "GW-ACT02",
                kind: "upgrade",
                params: "{}",
                now,
                deadline: now + 600_000,
            })
            .await
            .expect("open upgrade");

        let r = app
            .post(
                "/api/v1/gateways/batch/check",
                json!({"sns": "GW-ACT01,GW-ACT02,GW-ACT03,GW-BOB01", "action": "restart"}),
                Some(&c.max),
            )
            .await;
        r.expect_code(0);
        let d = r.data();
        assert_check(d);
        assert_eq!(
            (d["ready"].as_u64(), d["refused"].as_u64()),
            (Some(1), Some(3)),
            "{d}"
        );
        assert_eq!(
            (
                item(d, "GW-ACT01")["status"].as_str(),
                item(d, "GW-ACT01")["success"].as_bool()
            ),
            (Some("ok"), Some(true))
        );
        assert_eq!(item(d, "GW-ACT02")["code"], 603);
        assert_eq!(item(d, "GW-ACT03")["code"], 602);
        assert_eq!(item(d, "GW-BOB01")["code"], 305);
        // Maintainers may not upgrade gateways; nothing was sent by the check.
        let r = app
            .post(
                "/api/v1/gateways/batch/check",
                json!({"sns": ["GW-ACT01"], "action": "upgrade"}),
                Some(&c.max),
            )
            .await;
        assert_eq!(item(r.data(), "GW-ACT01")["code"], 2);
        app.post(
            "/api/v1/gateways/batch/check",
            json!({"sns": ["GW-ACT01"], "action": "explode"}),
            Some(&c.max),
        )
        .await
        .expect_code(4);
        assert!(
            app.store
                .device_commands("GW-ACT01", 10)
                .await
                .expect("commands")
                .is_empty()
        );

        // Restarting the upgrading gateway is refused with "device is upgrading".
        let r = app
            .post(
                "/api/v1/gateway/GW-ACT02/restart",
                json!({}),
                Some(&c.admin),
            )
            .await;
        assert_eq!(item(r.data(), "GW-ACT02")["code"], 603);
    }
}

#[tokio::test]
async fn replacing_a_gateway_keeps_the_plants_devices_and_history() {
    for app in spawn().await {
        let c = action_gateways(&app).await;
        let url = "/api/v1/gateway/replace";
        let body = json!({"oldSn": "GW-ACT01", "newSn": "GW-NEW01", "key": "KEY12345"});
        // Refusals: owner and maintainer lack gateway.replace, a stranger sees nothing, a wrong
        // key, a gateway in use, the same gateway, a missing SN.
        app.post(url, body.clone(), Some(&c.ann))
            .await
            .expect_code(2);
        app.post(url, body.clone(), Some(&c.max))
            .await
            .expect_code(2);
        app.post(url, body.clone(), Some(&c.bob))
            .await
            .expect_code(305);
        app.post(
            url,
            json!({"oldSn": "GW-ACT01", "newSn": "GW-NEW01", "key": "WRONG1"}),
            Some(&c.admin),
        )
        .await
        .expect_code(300);
        app.post(
            url,
            json!({"oldSn": "GW-ACT01", "newSn": "GW-BOB01", "key": "KEY12345"}),
            Some(&c.admin),
        )
        .await
        .expect_code(301);
        app.post(
            url,
            json!({"oldSn": "GW-ACT01", "newSn": "GW-ACT01", "key": "KEY12345"}),
            Some(&c.admin),
        )
        .await
        .expect_code(4);
        app.post(
            url,
            json!({"newSn": "GW-NEW01", "key": "KEY12345"}),
            Some(&c.admin),
        )
        .await
        .expect_code(4);

        let r = app.post(url, body.clone(), Some(&c.admin)).await;
        r.expect_code(0);
        let d = r.data();
        assert_eq!(d.as_object().map(|o| o.len()), Some(4), "{d}");
        assert_eq!(d["oldSn"], "GW-ACT01");
        assert_eq!(d["newSn"], "GW-NEW01");
        assert_eq!(d["plantId"], c.plant);
        assert_eq!(d["devices"], 1);

        // The plant has the new gateway, the old one is unbound and free.
        let new = app
            .store
            .gateway_by_sn("GW-NEW01")
            .await
            .expect("db")
            .expect("new");
        let old = app
            .store
            .gateway_by_sn("GW-ACT01")
            .await
            .expect("db")
            .expect("old");
        assert_eq!(new.plant_id, Some(PlantId(c.plant)));
        assert_eq!((old.plant_id, old.owner_id), (None, None));
        // The inverter is the same row, now behind the new gateway, still on the plant, with
        // its samples and the plant's energy.
        let devices = app
            .store
            .plant_devices(PlantId(c.plant))
            .await
            .expect("devices");
        let inv = devices
            .iter()
            .find(|d| d.sn == "INV-ACT01")
            .expect("inverter stays");
        assert_eq!((inv.id.0, inv.gateway_id), (c.inverter, Some(new.id)));
        let samples = app
            .store
            .samples(DeviceId(c.inverter), 0, i64::MAX, 10)
            .await
            .expect("samples");
        assert_eq!(samples.len(), 1);
        let energy = app
            .store
            .plant_energy(PlantId(c.plant), &DayRange::total())
            .await
            .expect("energy");
        assert!(
            energy
                .iter()
                .any(|e| e.metric == "pv" && (e.kwh - 12.5).abs() < 1e-9)
        );
        // The owner's gateway list shows the new one, not the old.
        let r = app.get("/api/v1/gateways?limit=50", Some(&c.ann)).await;
        let sns: Vec<&str> = r.data()["infos"]
            .as_array()
            .expect("infos")
            .iter()
            .filter_map(|g| g["sn"].as_str())
            .collect();
        assert!(
            sns.contains(&"GW-NEW01") && !sns.contains(&"GW-ACT01"),
            "{sns:?}"
        );

        let results = audit_results(&app, &c.admin, "gateway.replace").await;
        assert!(
            results.iter().any(|r| r == "GW-ACT01:succeeded"),
            "{results:?}"
        );
        assert!(
            results.iter().any(|r| r == "GW-ACT01:refused"),
            "{results:?}"
        );
    }
}

#[tokio::test]
async fn protocol_changes_need_a_known_protocol_and_the_key() {
    for app in spawn().await {
        let c = action_gateways(&app).await;
        devices::protocol::stored::seed(&app.store, 1)
            .await
            .expect("seed protocols");
        let codes: Vec<String> = app
            .store
            .protocols()
            .await
            .expect("protocols")
            .into_iter()
            .map(|p| p.code)
            .collect();
        let target = codes.last().expect("a shipped protocol").clone();
        let url = "/api/v1/gateway/updateGatewayProtocol";
        let r = app
            .post(
                url,
                json!({"sn": "GW-ACT01", "protocol": target}),
                Some(&c.admin),
            )
            .await;
        r.expect_code(0);
        assert_eq!(r.data(), &json!({"sn": "GW-ACT01", "protocol": target}));
        let g = app
            .store
            .gateway_by_sn("GW-ACT01")
            .await
            .expect("db")
            .expect("gw");
        assert_eq!(g.protocol, target);
        app.post(
            url,
            json!({"sn": "GW-ACT01", "protocol": "no-such"}),
            Some(&c.admin),
        )
        .await
        .expect_code(4);
        app.post(url, json!({"protocol": target}), Some(&c.admin))
            .await
            .expect_code(4);
        for token in [&c.ann, &c.max, &c.vic] {
            app.post(
                url,
                json!({"sn": "GW-ACT01", "protocol": target}),
                Some(token),
            )
            .await
            .expect_code(2);
        }
        app.post(
            url,
            json!({"sn": "GW-ACT01", "protocol": target}),
            Some(&c.bob),
        )
        .await
        .expect_code(305);
        let results = audit_results(&app, &c.admin, "gateway.protocol").await;
        assert_eq!(results, vec!["GW-ACT01:succeeded".to_string()]);
    }
}

#[tokio::test]
async fn the_settings_switch_waits_for_the_gateway() {
    for app in spawn().await {
        let l = linked(app).await;
        let app = &l.app;
        let c = action_gateways(app).await;
        let mut gw = gateway(&l, "GW-ACT01", "KEY12345", Mode::Answer).await;
        let url = "/api/v1/gateway/GW-ACT01/settings/switch";
        let r = app.post(url, json!({"enable": true}), Some(&c.max)).await;
        r.expect_code(0);
        let d = r.data();
        for k in [
            "kind",
            "deviceSn",
            "gatewaySn",
            "status",
            "message",
            "createAt",
            "updateAt",
        ] {
            assert!(d[k].is_string(), "{k}: {d}");
        }
        assert!(d["id"].is_i64());
        assert_eq!(
            (d["kind"].as_str(), d["status"].as_str()),
            (Some("set_params"), Some("succeeded"))
        );
        let cmd = gw.received.recv().await.expect("command");
        assert_eq!(cmd.params, json!({"remoteSettings": "1"}));
        let r = app.post(url, json!({"enable": "0"}), Some(&c.admin)).await;
        r.expect_code(0);
        assert_eq!(r.data()["result"], json!({"remoteSettings": "0"}));

        app.post(url, json!({}), Some(&c.max)).await.expect_code(4);
        app.post(url, json!({"enable": true}), Some(&c.vic))
            .await
            .expect_code(2);
        app.post(
            "/api/v1/gateway/GW-ACT03/settings/switch",
            json!({"enable": true}),
            Some(&c.max),
        )
        .await
        .expect_code(602);
        let results = audit_results(app, &c.admin, "gateway.settings").await;
        assert!(results.iter().any(|r| r == "GW-ACT01:sent"), "{results:?}");
        assert!(
            results.iter().any(|r| r == "GW-ACT03:refused"),
            "{results:?}"
        );
    }
}

#[tokio::test]
async fn unbinding_and_deleting_a_gateway_are_audited() {
    for app in spawn().await {
        let c = action_gateways(&app).await;
        app.post("/api/v1/gateway/GW-ACT03/unbind", json!({}), Some(&c.ann))
            .await
            .expect_code(0);
        app.get("/api/v1/gateway/GW-ACT03/delete", Some(&c.admin))
            .await
            .expect_code(0);
        assert_eq!(
            audit_results(&app, &c.admin, "gateway.unbind").await,
            vec!["GW-ACT03:succeeded".to_string()]
        );
        assert_eq!(
            audit_results(&app, &c.admin, "gateway.delete").await,
            vec!["GW-ACT03:succeeded".to_string()]
        );
        // The unbind is filed under the plant it left: its owner reads it.
        let r = app
            .get("/api/v1/audit?action=gateway.unbind", Some(&c.ann))
            .await;
        assert_eq!(r.data()["infos"][0]["plantId"], c.plant);
    }
}

/// The gateway list row of gateway `id` as `token` sees it (through the `ids` filter, as the
/// restart dialog follows a batch).
async fn listed(app: &common::App, token: &str, id: i64) -> Value {
    let r = app
        .get(&format!("/api/v1/gateways?ids={id}&limit=100"), Some(token))
        .await;
    r.expect_code(0);
    r.data()["infos"][0].clone()
}

#[tokio::test]
async fn a_restarted_gateway_is_back_once_it_signs_in_after_the_acceptance() {
    for app in spawn().await {
        let l = linked(app).await;
        let app = &l.app;
        let c = action_gateways(app).await;
        let answering = gateway(&l, "GW-ACT01", "KEY12345", Mode::Answer).await;

        let r = app
            .post(
                "/api/v1/batch/restart",
                json!({"sns": ["GW-ACT01", "GW-ACT03"]}),
                Some(&c.max),
            )
            .await;
        r.expect_code(0);
        let d = r.data();
        assert_batch(d);
        let accepted = item(d, "GW-ACT01");
        let id = accepted["gatewayId"].as_i64().expect("gateway id");
        let at = accepted["acceptedAt"].as_i64().expect("accepted at");
        let offline = item(d, "GW-ACT03");
        assert_eq!(
            (offline["code"].as_i64(), &offline["gatewayId"]),
            (Some(602), &Value::Null),
            "refused before anything was sent"
        );

        // Signed in before the restart: not back yet, whatever else it sends.
        let before = listed(app, &c.max, id).await;
        let signed_in = before["signedInAt"].as_i64().expect("signed in");
        assert!(signed_in < at, "{before}");
        answering
            .client
            .publish(
                "portal/v1/GW-ACT01/status",
                rumqttc::QoS::AtLeastOnce,
                true,
                r#"{"v":1,"online":true,"softVer":"1.0"}"#,
            )
            .await
            .expect("status");
        tokio::time::sleep(2 * devices::link::HEARD_FLUSH_EVERY).await;
        assert_eq!(listed(app, &c.max, id).await["signedInAt"], signed_in);

        // The gateway goes away and signs in again: back, after the acceptance.
        drop(answering);
        let _back = gateway(&l, "GW-ACT01", "KEY12345", Mode::Answer).await;
        let until = tokio::time::Instant::now() + 3 * devices::link::HEARD_FLUSH_EVERY;
        loop {
            let row = listed(app, &c.max, id).await;
            if row["signedInAt"].as_i64().is_some_and(|t| t > at) {
                assert_eq!(row["online"], true);
                break;
            }
            assert!(tokio::time::Instant::now() < until, "not back: {row}");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        // The detail says the same; another tenant sees nothing of it.
        let detail = app
            .get(&format!("/api/v1/gateway/{id}"), Some(&c.max))
            .await;
        assert!(detail.data()["signedInAt"].as_i64().is_some_and(|t| t > at));
        let theirs = app
            .get(&format!("/api/v1/gateways?ids={id}"), Some(&c.bob))
            .await;
        assert_eq!(theirs.data()["total"], 0);
    }
}
