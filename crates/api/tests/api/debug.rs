//! Remote debug over HTTP with a real device link: a raw Modbus frame goes to an inverter (or a
//! gateway), a fake gateway answers over the embedded broker, and the reply is read back
//! decoded-ready; refusals (offline, upgrading, no link, bad frame, permissions), a timeout and a
//! device failure; every exchange lands in the debug log and the audit log.

use crate::common;
use crate::fake_gateway;
use domain::DeviceFamily;
use domain::ids::GatewayId;

use std::time::Duration;

use common::{
    App,
    fixtures::{self, set_status},
    spawn,
};
use domain::user::BuiltinRole;
use fake_gateway::{Mode, gateway, linked};
use serde_json::{Value, json};

/// Read holding registers 0-1 of unit 1 (the textbook frame).
const READ_2: &str = "01 03 00 00 00 02 C4 0B";

struct DebugPlant {
    admin: String,
    ann: String,
    max: String,
    vic: String,
    bob: String,
    plant: i64,
    inverter: i64,
}

/// Ann owns a plant with gateway GW-DBG01 (key KEY12345) and inverter INV-DBG01 behind it, and
/// shares it with Max (maintainer) and Vic (visitor); Bob is a stranger with his own plant.
async fn debug_plant(app: &App) -> DebugPlant {
    let admin = fixtures::admin(app).await;
    let [ann, max, vic, bob] = fixtures::owners(app, ["ann", "max", "vic", "bob"]).await;
    let body = fixtures::madrid_plant("Ann plant", 1, 5);
    let plant = fixtures::plant(app, &ann, body).await;
    let gw = fixtures::hybrid_gateway(app, &admin, &ann, plant, "GW-DBG01").await;
    fixtures::hybrid_gateway(app, &admin, &ann, plant, "GW-DBG02").await;
    let inverter = app
        .store
        .upsert_device(
            "INV-DBG01",
            GatewayId(gw),
            DeviceFamily::Inverter,
            2,
            "p",
            "SUN-5K",
            None,
            1,
        )
        .await
        .expect("device");
    set_status(app, inverter.0, 1).await;
    fixtures::share(app, &ann, plant, &fixtures::MAX_AND_VIC).await;
    DebugPlant {
        admin,
        ann,
        max,
        vic,
        bob,
        plant,
        inverter: inverter.0,
    }
}

/// The debug log entry of API answers, key by key with its JSON type.
#[track_caller]
fn assert_entry(e: &Value) {
    let keys = [
        "id",
        "commandId",
        "sn",
        "gatewaySn",
        "targetKind",
        "account",
        "plantId",
        "plantName",
        "request",
        "reply",
        "status",
        "message",
        "createAt",
        "replyAt",
    ];
    let obj = e.as_object().expect("entry object");
    for k in keys {
        assert!(obj.contains_key(k), "{k} missing: {e}");
    }
    assert_eq!(obj.len(), keys.len(), "no other keys: {e}");
    assert!(e["id"].is_i64(), "{e}");
    assert!(e["commandId"].is_i64() || e["commandId"].is_null(), "{e}");
    assert!(e["plantId"].is_i64() || e["plantId"].is_null(), "{e}");
    for k in [
        "sn",
        "gatewaySn",
        "targetKind",
        "account",
        "request",
        "status",
        "message",
        "createAt",
    ] {
        assert!(e[k].is_string(), "{k} string: {e}");
    }
    for k in ["plantName", "reply", "replyAt"] {
        assert!(
            e[k].is_string() || e[k].is_null(),
            "{k} string or null: {e}"
        );
    }
}

/// Polls the reply of command `id` until it is final.
async fn final_reply(app: &App, token: &str, id: i64) -> Value {
    let until = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let r = app
            .get(&format!("/api/v1/debug/reply?id={id}"), Some(token))
            .await;
        r.expect_code(0);
        let e = r.data().clone();
        assert_entry(&e);
        if !matches!(e["status"].as_str(), Some("sent" | "acknowledged")) {
            return e;
        }
        assert!(tokio::time::Instant::now() < until, "no final reply: {e}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_raw_read_goes_to_the_inverter_and_its_reply_comes_back() {
    for app in spawn().await {
        let l = linked(app).await;
        let app = &l.app;
        let c = debug_plant(app).await;
        let mut gw = gateway(&l, "GW-DBG01", "KEY12345", Mode::Answer).await;

        let r = app
            .post(
                "/api/v1/inverter/INV-DBG01/debug",
                json!({"code": "01030000 0002c40b"}),
                Some(&c.max),
            )
            .await;
        r.expect_code(0);
        let sent = r.data().clone();
        assert_entry(&sent);
        assert_eq!(sent["request"], READ_2, "{}", l.app.backend);
        assert_eq!(sent["sn"], "INV-DBG01");
        assert_eq!(sent["gatewaySn"], "GW-DBG01");
        assert_eq!(sent["targetKind"], "inverter");
        assert_eq!(sent["account"], "max@example.com");
        assert_eq!(sent["plantId"], c.plant);
        assert_eq!(sent["plantName"], "Ann plant");
        let id = sent["commandId"].as_i64().expect("command id");

        // The gateway got a modbus_raw command for the inverter with the frame.
        let cmd = tokio::time::timeout(fake_gateway::WAIT, gw.received.recv())
            .await
            .expect("command in time")
            .expect("command");
        assert_eq!(
            (cmd.kind.as_str(), cmd.sn.as_str()),
            ("modbus_raw", "INV-DBG01")
        );
        assert_eq!(cmd.params["frame"], READ_2);

        // Registers 0 and 1 hold 100 and 101 (0x64, 0x65).
        let e = final_reply(app, &c.max, id).await;
        assert_eq!(e["status"], "succeeded", "{e}");
        let reply = e["reply"].as_str().expect("reply frame");
        assert!(reply.starts_with("01 03 04 00 64 00 65 "), "{reply}");
        assert!(e["replyAt"].is_string());

        // The newest exchange by SN is the same; the owner reads it, a stranger does not.
        let by_sn = app
            .get("/api/v1/debug/reply?sn=INV-DBG01", Some(&c.ann))
            .await;
        by_sn.expect_code(0);
        assert_eq!(by_sn.data()["commandId"], id);
        let hidden = app
            .get(&format!("/api/v1/debug/reply?id={id}"), Some(&c.bob))
            .await;
        hidden.expect_code(0);
        assert!(hidden.data().is_null());
        app.get("/api/v1/debug/reply", Some(&c.max))
            .await
            .expect_code(4);

        // The debug log lists it for the plant's owner and for staff with logger.management.
        for token in [&c.ann, &c.admin, &c.max] {
            let r = app
                .get("/api/v1/logger/debug?page=1&limit=10", Some(token))
                .await;
            r.expect_code(0);
            let d = r.data();
            assert_eq!(d["total"], 1, "{d}");
            assert!(d["pageSize"].is_i64() && d["pageNumber"].is_i64());
            assert_entry(&d["infos"][0]);
            assert_eq!(d["infos"][0]["reply"], e["reply"]);
        }
        let r = app.get("/api/v1/logger/debug", Some(&c.bob)).await;
        r.expect_code(0);
        assert_eq!(r.data()["total"], 0);
        let r = app
            .get("/api/v1/logger/debug?sn=nothing", Some(&c.admin))
            .await;
        assert_eq!(r.data()["total"], 0);
        app.get("/api/v1/logger/debug?targetKind=meter", Some(&c.admin))
            .await
            .expect_code(4);

        // The audit log has the action with its command.
        let r = app
            .get("/api/v1/audit?action=inverter.debug", Some(&c.admin))
            .await;
        r.expect_code(0);
        let a = &r.data()["infos"][0];
        assert_eq!(a["target"], "INV-DBG01");
        assert_eq!(a["commandId"], id);
        assert_eq!(a["account"], "max@example.com");
        let _ = c.inverter;
    }
}

#[tokio::test]
async fn a_raw_frame_goes_to_a_gateway_and_the_gate_reply_route_reads_it() {
    for app in spawn().await {
        let l = linked(app).await;
        let app = &l.app;
        let c = debug_plant(app).await;
        let _gw = gateway(&l, "GW-DBG02", "KEY12345", Mode::Answer).await;

        let r = app
            .post(
                "/api/v1/gateway/GW-DBG02/debug",
                json!({"code": "11 03 00 6B 00 03 76 87"}),
                Some(&c.admin),
            )
            .await;
        r.expect_code(0);
        assert_eq!(r.data()["targetKind"], "gateway");
        let id = r.data()["commandId"].as_i64().expect("id");
        let e = final_reply(app, &c.admin, id).await;
        assert_eq!(e["status"], "succeeded");
        // Registers 0x6B.. hold 0xCF, 0xD0, 0xD1.
        assert!(
            e["reply"]
                .as_str()
                .is_some_and(|s| s.starts_with("11 03 06 00 CF 00 D0 00 D1 ")),
            "{e}"
        );
        let r = app
            .get("/api/gate/GW-DBG02/debug/reply", Some(&c.admin))
            .await;
        r.expect_code(0);
        assert_entry(r.data());
        assert_eq!(r.data()["commandId"], id);
        // A gateway nobody sent anything to answers null; a stranger's view is 305.
        let r = app
            .get("/api/gate/GW-DBG01/debug/reply", Some(&c.ann))
            .await;
        r.expect_code(0);
        assert!(r.data().is_null());
        app.get("/api/gate/GW-DBG02/debug/reply", Some(&c.bob))
            .await
            .expect_code(305);
        let r = app
            .get("/api/v1/logger/debug?targetKind=gateway", Some(&c.admin))
            .await;
        assert_eq!(r.data()["total"], 1);
    }
}

#[tokio::test]
async fn refusals_are_answered_with_the_spec_messages_and_logged() {
    for app in spawn().await {
        let l = linked(app).await;
        let app = &l.app;
        let c = debug_plant(app).await;
        let url = "/api/v1/inverter/INV-DBG01/debug";
        let body = json!({"code": READ_2});

        // Permissions: a visitor and the owner (whose role has no inverter.debug) may not; a
        // stranger does not even see the inverter.
        app.post(url, body.clone(), Some(&c.vic))
            .await
            .expect_code(2);
        app.post(url, body.clone(), Some(&c.ann))
            .await
            .expect_code(2);
        app.post(url, body.clone(), Some(&c.bob))
            .await
            .expect_code(600);
        app.post(
            "/api/v1/inverter/NOPE-0001/debug",
            body.clone(),
            Some(&c.max),
        )
        .await
        .expect_code(600);
        app.post("/api/v1/gateway/GW-DBG01/debug", body.clone(), Some(&c.vic))
            .await
            .expect_code(2);
        app.post("/api/v1/gateway/GW-DBG01/debug", body.clone(), Some(&c.bob))
            .await
            .expect_code(305);

        // Frames must be hex with a good CRC.
        for bad in ["01 03 00 00 00 02 C4 0C", "xyz", ""] {
            let r = app.post(url, json!({"code": bad}), Some(&c.max)).await;
            r.expect_code(4);
            assert!(r.msg().contains("code"), "{}", r.msg());
        }

        // The gateway has never connected: the device is offline (602).
        let r = app.post(url, body.clone(), Some(&c.max)).await;
        r.expect_code(602);
        app.post("/api/v1/gateway/GW-DBG01/debug", body.clone(), Some(&c.max))
            .await
            .expect_code(602);
        // An upgrading inverter refuses remote debug (603); an offline one too (602).
        let _gw = gateway(&l, "GW-DBG01", "KEY12345", Mode::Answer).await;
        set_status(app, c.inverter, 4).await;
        app.post(url, body.clone(), Some(&c.max))
            .await
            .expect_code(603);
        set_status(app, c.inverter, 0).await;
        app.post(url, body.clone(), Some(&c.max))
            .await
            .expect_code(602);

        // Refusals are in the debug log with their reason, and in the audit log.
        let r = app
            .get("/api/v1/logger/debug?sn=INV-DBG01&limit=20", Some(&c.admin))
            .await;
        let d = r.data();
        let refused: Vec<&Value> = d["infos"]
            .as_array()
            .expect("infos")
            .iter()
            .filter(|e| e["status"] == "refused")
            .collect();
        assert_eq!(refused.len(), 3, "{d}");
        assert!(
            refused
                .iter()
                .all(|e| e["commandId"].is_null() && e["reply"].is_null())
        );
        assert!(
            refused.iter().any(|e| e["message"]
                .as_str()
                .is_some_and(|m| m.contains("upgrading"))),
            "{d}"
        );
        let r = app
            .get("/api/v1/audit?action=inverter.debug", Some(&c.admin))
            .await;
        assert!(
            r.data()["infos"]
                .as_array()
                .expect("infos")
                .iter()
                .any(|a| a["result"] == "refused")
        );
    }
}

#[tokio::test]
async fn without_a_device_link_the_connection_fails() {
    for app in spawn().await {
        let c = debug_plant(&app).await;
        app.post(
            "/api/v1/inverter/INV-DBG01/debug",
            json!({"code": READ_2}),
            Some(&c.max),
        )
        .await
        .expect_code(606);
    }
}

#[tokio::test]
async fn a_silent_device_times_out_and_a_refusing_one_fails() {
    for app in spawn().await {
        let l = linked(app).await;
        let app = &l.app;
        let c = debug_plant(app).await;
        let _silent = gateway(&l, "GW-DBG01", "KEY12345", Mode::Silent).await;
        let _refusing = gateway(&l, "GW-DBG02", "KEY12345", Mode::Refuse).await;
        let r = app
            .post(
                "/api/v1/inverter/INV-DBG01/debug",
                json!({"code": READ_2}),
                Some(&c.max),
            )
            .await;
        r.expect_code(0);
        let silent_id = r.data()["commandId"].as_i64().expect("id");
        let r = app
            .post(
                "/api/v1/gateway/GW-DBG02/debug",
                json!({"code": READ_2}),
                Some(&c.max),
            )
            .await;
        r.expect_code(0);
        let refused_id = r.data()["commandId"].as_i64().expect("id");

        let e = final_reply(app, &c.max, refused_id).await;
        assert_eq!(e["status"], "failed");
        assert_eq!(e["message"], "refused by the device");
        assert!(e["reply"].is_null());
        let e = final_reply(app, &c.max, silent_id).await;
        assert_eq!(e["status"], "timed_out", "{e}");
        assert!(e["reply"].is_null());
    }
}

#[tokio::test]
async fn company_staff_read_their_companys_exchanges_and_nobody_elses() {
    for app in spawn().await {
        let l = linked(app).await;
        let app = &l.app;
        let c = debug_plant(app).await;
        let acme = app.company("Acme").await;
        let (_, boss) = app
            .signed_in("boss@acme.example", BuiltinRole::CompanyAdmin, Some(acme))
            .await;
        let (_, clerk) = app
            .signed_in("clerk@acme.example", BuiltinRole::CompanyStaff, Some(acme))
            .await;
        let r = app
            .post(
                "/api/v1/plant",
                json!({"name": "Acme plant", "type": 1, "currency": "EUR", "timezone": "Europe/Madrid",
                    "lon": -3.7, "lat": 40.4, "totalPower": 5}),
                Some(&boss),
            )
            .await;
        r.expect_code(0);
        let plant = r.data().as_i64().expect("plant");
        app.post(
            "/api/v1/gateway/create",
            json!({"sn": "GW-ACME01", "key": "KEY12345"}),
            Some(&c.admin),
        )
        .await
        .expect_code(0);
        app.post(
            &format!("/api/v1/plant/{plant}/gateway"),
            json!({"sn": "GW-ACME01", "key": "KEY12345"}),
            Some(&boss),
        )
        .await
        .expect_code(0);
        let _gw = gateway(&l, "GW-ACME01", "KEY12345", Mode::Answer).await;
        let r = app
            .post(
                "/api/v1/gateway/GW-ACME01/debug",
                json!({"code": READ_2}),
                Some(&boss),
            )
            .await;
        r.expect_code(0);
        let id = r.data()["commandId"].as_i64().expect("id");
        assert_eq!(final_reply(app, &boss, id).await["status"], "succeeded");

        // The colleague reads it (company plant), Ann does not; Ann's own list stays hers.
        let r = app.get("/api/v1/logger/debug", Some(&clerk)).await;
        assert_eq!(r.data()["total"], 1);
        assert_eq!(r.data()["infos"][0]["sn"], "GW-ACME01");
        let r = app
            .get(&format!("/api/v1/debug/reply?id={id}"), Some(&clerk))
            .await;
        assert_eq!(r.data()["commandId"], id);
        let r = app.get("/api/v1/logger/debug", Some(&c.ann)).await;
        assert_eq!(r.data()["total"], 0);
        let r = app
            .get(&format!("/api/v1/debug/reply?id={id}"), Some(&c.ann))
            .await;
        assert!(r.data().is_null());
        // Company staff hold no inverter.debug: they read but may not send.
        app.post(
            "/api/v1/gateway/GW-ACME01/debug",
            json!({"code": READ_2}),
            Some(&clerk),
        )
        .await
        .expect_code(2);
    }
}
