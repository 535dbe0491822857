//! The communication log over HTTP with a real device link: a fake gateway's status and
//! telemetry, and a command with its reply, are captured and listed; who may read which
//! gateway's log; the retention window and the per-gateway cap prune it; switched off, nothing
//! is captured.

use crate::common;
use crate::fake_gateway;
use domain::DeviceFamily;
use domain::ids::GatewayId;

use std::time::Duration;

use common::{App, fixtures, spawn};
use devices::link::{CommLog, CommLogConfig};
use domain::user::BuiltinRole;
use fake_gateway::{Mode, gateway, linked, linked_with};
use rumqttc::QoS;
use serde_json::{Value, json};
use store::comm_log::NewCommEntry;

const TELEMETRY: &str = r#"{"v":1,"ts":1700000000000,"devices":[{"sn":"INV-COM01","family":"inverter","values":{"p":1.5,"e_today":12.25,"v_grid":230.1,"i_grid":6.5,"temp":41.2}}]}"#;

struct CompanyGateways {
    admin: String,
    staff_a: String,
    staff_b: String,
    owner: String,
    plant: i64,
}

/// Staff of Alpha run a plant with gateway GW-COM01 (inverter INV-COM01 behind it) and
/// GW-COM02; staff of Beta and a plant owner look on; the internal admin sees everything.
async fn company_gateways(app: &App) -> CompanyGateways {
    let admin = fixtures::admin(app).await;
    let alpha = app.company("Alpha Solar").await;
    let beta = app.company("Beta Energy").await;
    let (_, staff_a) = app
        .signed_in(
            "staff@alpha.example",
            BuiltinRole::CompanyStaff,
            Some(alpha),
        )
        .await;
    let (_, staff_b) = app
        .signed_in("staff@beta.example", BuiltinRole::CompanyStaff, Some(beta))
        .await;
    let [owner] = fixtures::owners(app, ["olga"]).await;
    let plant = fixtures::plant(app, &staff_a, fixtures::madrid_plant("Alpha roof", 1, 5)).await;
    let gw = fixtures::bound_gateway(app, &admin, &staff_a, plant, "GW-COM01").await;
    fixtures::bound_gateway(app, &admin, &staff_a, plant, "GW-COM02").await;
    app.store
        .upsert_device(
            "INV-COM01",
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
    CompanyGateways {
        admin,
        staff_a,
        staff_b,
        owner,
        plant,
    }
}

/// Writes what the link noted until `sn`'s page holds at least `n` messages (the broker takes
/// a message in after the publish returns), and answers the page.
async fn page_of(app: &App, log: &CommLog, token: &str, sn: &str, n: i64) -> Value {
    let until = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        log.flush(&app.store).await;
        let r = app
            .get(
                &format!("/api/v1/logger/page?sn={sn}&limit=100"),
                Some(token),
            )
            .await;
        r.expect_code(0);
        let d = r.data().clone();
        if d["total"].as_i64() >= Some(n) {
            return d;
        }
        assert!(tokio::time::Instant::now() < until, "fewer than {n}: {d}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn of_kind<'a>(page: &'a Value, kind: &str) -> Vec<&'a Value> {
    page["infos"]
        .as_array()
        .expect("infos")
        .iter()
        .filter(|m| m["kind"] == kind)
        .collect()
}

#[tokio::test]
async fn a_gateways_telemetry_and_a_command_with_its_reply_appear_in_the_log() {
    for app in spawn().await {
        let l = linked(app).await;
        let app = &l.app;
        let log = l.link.comm_log.clone();
        let c = company_gateways(app).await;
        let gw = gateway(&l, "GW-COM01", "KEY12345", Mode::Answer).await;
        gw.client
            .publish(
                "portal/v1/GW-COM01/telemetry",
                QoS::AtLeastOnce,
                false,
                TELEMETRY,
            )
            .await
            .expect("telemetry");
        // Larger than what is stored, and not JSON: dropped by the link, kept by the log.
        let big = "x".repeat(70_000);
        gw.client
            .publish("portal/v1/GW-COM01/telemetry", QoS::AtLeastOnce, false, big)
            .await
            .expect("big");
        app.post(
            "/api/v1/gateway/GW-COM01/restart",
            json!({}),
            Some(&c.admin),
        )
        .await
        .expect_code(0);

        // status (online), 2 x telemetry, command, reply.
        let page = page_of(app, &log, &c.staff_a, "GW-COM01", 5).await;
        assert_eq!(page["pageSize"], 100);
        assert_eq!(page["pageNumber"], 1);
        let infos = page["infos"].as_array().expect("infos");
        let ids: Vec<i64> = infos.iter().filter_map(|m| m["id"].as_i64()).collect();
        assert!(ids.windows(2).all(|w| w[0] > w[1]), "newest first: {ids:?}");
        for m in infos {
            let keys = [
                "id",
                "sn",
                "direction",
                "kind",
                "topic",
                "size",
                "summary",
                "commandId",
                "time",
                "at",
            ];
            assert_eq!(m.as_object().map(|o| o.len()), Some(keys.len()), "{m}");
            for k in keys {
                assert!(m.get(k).is_some(), "{k}: {m}");
            }
            assert_eq!(m["sn"], "GW-COM01");
            assert_eq!(m["time"].as_str().map(str::len), Some(19), "{m}");
        }
        let status = of_kind(&page, "status");
        assert_eq!(status[0]["direction"], "up");
        assert!(
            status[0]["summary"]
                .as_str()
                .unwrap_or_default()
                .contains("online")
        );
        let telemetry = of_kind(&page, "telemetry");
        assert_eq!(telemetry.len(), 2, "{page}");
        let small = telemetry
            .iter()
            .find(|m| m["size"] == TELEMETRY.len())
            .expect("the small telemetry");
        assert_eq!(small["topic"], "portal/v1/GW-COM01/telemetry");
        assert_eq!(small["summary"], &TELEMETRY[..120]);
        let command = of_kind(&page, "command");
        let reply = of_kind(&page, "reply");
        assert_eq!((command.len(), reply.len()), (1, 1), "{page}");
        assert_eq!(command[0]["direction"], "down");
        assert_eq!(command[0]["topic"], "portal/v1/GW-COM01/cmd");
        assert!(command[0]["commandId"].is_i64(), "{}", command[0]);
        assert_eq!(reply[0]["commandId"], command[0]["commandId"]);
        assert!(
            command[0]["summary"]
                .as_str()
                .unwrap_or_default()
                .contains("restart")
        );

        // The whole payload, and the cut one.
        let r = app
            .get(
                &format!("/api/v1/logger/content?id={}", small["id"]),
                Some(&c.staff_a),
            )
            .await;
        r.expect_code(0);
        let d = r.data();
        assert_eq!(d["payload"], TELEMETRY);
        assert_eq!(
            (d["truncated"].as_bool(), d["direction"].as_str()),
            (Some(false), Some("up"))
        );
        let big = telemetry.iter().find(|m| m["size"] == 70_000).expect("big");
        let r = app
            .get(
                &format!("/api/v1/logger/content?id={}", big["id"]),
                Some(&c.admin),
            )
            .await;
        r.expect_code(0);
        assert_eq!(r.data()["truncated"], true);
        assert_eq!(r.data()["payload"].as_str().map(str::len), Some(64 * 1024));

        // Filters.
        let get = |q: &str| {
            let uri = format!("/api/v1/logger/page?sn=GW-COM01&{q}");
            let token = c.staff_a.clone();
            async move { app.get(&uri, Some(&token)).await }
        };
        let r = get("direction=down").await;
        r.expect_code(0);
        assert_eq!(r.data()["total"], 1);
        let r = get("kind=telemetry&limit=1&page=2").await;
        r.expect_code(0);
        assert_eq!(
            (
                r.data()["total"].as_i64(),
                r.data()["infos"].as_array().map(Vec::len)
            ),
            (Some(2), Some(1))
        );
        let r = get("sdate=2000-01-01&edate=2000-01-02%2000:00:00").await;
        r.expect_code(0);
        assert_eq!(r.data()["total"], 0);
        for (q, field) in [
            ("direction=sideways", "direction"),
            ("sdate=yesterday", "sdate"),
            ("edate=2026-13-01", "edate"),
        ] {
            let r = get(q).await;
            r.expect_code(4);
            assert!(r.msg().contains(field), "{q}: {}", r.msg());
        }
        app.get("/api/v1/logger/page", Some(&c.staff_a))
            .await
            .expect_code(4);

        // The gateway lists: everything, the plant's, the inverter's gateway.
        let r = app
            .get("/api/v1/logger?keyword=com01", Some(&c.staff_a))
            .await;
        r.expect_code(0);
        let d = r.data();
        assert_eq!(d["total"], 1, "{d}");
        let item = &d["infos"][0];
        assert_eq!(item["sn"], "GW-COM01");
        assert_eq!(item["plantId"], c.plant);
        assert_eq!(item["plantName"], "Alpha roof");
        assert_eq!(item["online"], true);
        assert_eq!(
            (item["uplinks"].as_i64(), item["downlinks"].as_i64()),
            (Some(4), Some(1)),
            "{item}"
        );
        assert!(
            item["lastLogAt"].is_string() && item["lastMessageAt"].is_string(),
            "{item}"
        );
        assert!(item.get("alias").is_some());
        let r = app
            .get(
                &format!("/api/v1/logger/plant?plantId={}", c.plant),
                Some(&c.staff_a),
            )
            .await;
        r.expect_code(0);
        let sns: Vec<&str> = r
            .data()
            .as_array()
            .expect("list")
            .iter()
            .filter_map(|i| i["sn"].as_str())
            .collect();
        assert_eq!(sns, ["GW-COM01", "GW-COM02"]);
        assert_eq!(r.data()[1]["uplinks"], 0);
        let r = app
            .get("/api/v1/logger/getInverterLogger/INV-COM01", Some(&c.admin))
            .await;
        r.expect_code(0);
        assert_eq!(r.data()["sn"], "GW-COM01");
        assert_eq!(r.data()["uplinks"], item["uplinks"]);
    }
}

#[tokio::test]
async fn another_company_reads_the_log_as_missing_and_owners_have_no_log() {
    for app in spawn().await {
        let l = linked(app).await;
        let app = &l.app;
        let log = l.link.comm_log.clone();
        let c = company_gateways(app).await;
        let _gw = gateway(&l, "GW-COM01", "KEY12345", Mode::Answer).await;
        let page = page_of(app, &log, &c.admin, "GW-COM01", 1).await;
        let id = &page["infos"][0]["id"];

        let r = app.get("/api/v1/logger", Some(&c.staff_b)).await;
        r.expect_code(0);
        assert_eq!(r.data()["total"], 0);
        for (path, field) in [
            ("/api/v1/logger/page?sn=GW-COM01".to_string(), "sn"),
            ("/api/v1/logger/page?sn=GW-NONE01".to_string(), "sn"),
            (format!("/api/v1/logger/content?id={id}"), "id"),
            ("/api/v1/logger/content?id=999999".to_string(), "id"),
            (
                format!("/api/v1/logger/plant?plantId={}", c.plant),
                "plantId",
            ),
            ("/api/v1/logger/plant?plantId=999999".to_string(), "plantId"),
            (
                "/api/v1/logger/getInverterLogger/INV-COM01".to_string(),
                "sn",
            ),
            (
                "/api/v1/logger/getInverterLogger/INV-NONE01".to_string(),
                "sn",
            ),
        ] {
            let r = app.get(&path, Some(&c.staff_b)).await;
            r.expect_code(4);
            assert!(r.msg().contains(field), "{path}: {}", r.msg());
        }
        // Owners hold no logger.communication.
        for path in [
            "/api/v1/logger".to_string(),
            "/api/v1/logger/page?sn=GW-COM01".to_string(),
            format!("/api/v1/logger/content?id={id}"),
        ] {
            app.get(&path, Some(&c.owner)).await.expect_code(2);
        }
        app.get("/api/v1/logger", None).await.expect_401();
        // The internal admin reads every gateway.
        let r = app.get("/api/v1/logger?limit=100", Some(&c.admin)).await;
        r.expect_code(0);
        assert_eq!(r.data()["total"], 2);
    }
}

fn entry(sn: &str, kind: &str, at: i64) -> NewCommEntry {
    NewCommEntry {
        gateway_sn: sn.into(),
        direction: "up",
        kind: kind.into(),
        topic: format!("portal/v1/{sn}/{kind}"),
        payload: "{}".into(),
        truncated: false,
        size: 2,
        command_id: None,
        correlation: None,
        at,
    }
}

#[tokio::test]
async fn the_retention_window_and_the_per_gateway_cap_prune_the_log() {
    for app in spawn().await {
        let c = company_gateways(&app).await;
        let now = domain::time::now_ms();
        let hour = 3_600_000;
        // GW-COM01: 2 messages past a 1-hour window, then 5 recent; GW-COM02: 2 recent.
        let mut batch = vec![
            entry("GW-COM01", "telemetry", now - 3 * hour),
            entry("GW-COM01", "telemetry", now - 2 * hour),
        ];
        batch.extend((0..5).map(|i| entry("GW-COM01", "telemetry", now - 50_000 + i)));
        batch.extend((0..2).map(|i| entry("GW-COM02", "status", now - 10_000 + i)));
        // An unknown gateway's message is skipped.
        batch.push(entry("GW-GONE01", "status", now));
        assert_eq!(app.store.insert_comm_log(&batch).await.expect("insert"), 9);
        let log = CommLog::new(CommLogConfig {
            retention: Duration::from_secs(3600),
            per_gateway: 3,
            ..CommLogConfig::default()
        });
        let removed = log.prune(&app.store, now, true).await.expect("prune");
        assert_eq!(removed, 2 + 2, "{}", app.backend);
        let total = |sn: &'static str| {
            let app = &app;
            let token = c.admin.clone();
            async move {
                let r = app
                    .get(
                        &format!("/api/v1/logger/page?sn={sn}&limit=100"),
                        Some(&token),
                    )
                    .await;
                r.expect_code(0);
                r.data().clone()
            }
        };
        let one = total("GW-COM01").await;
        assert_eq!(one["total"], 3);
        // The newest three stay.
        let ats: Vec<i64> = one["infos"]
            .as_array()
            .expect("infos")
            .iter()
            .filter_map(|m| m["at"].as_i64())
            .collect();
        assert_eq!(ats, [now - 49_996, now - 49_997, now - 49_998]);
        assert_eq!(total("GW-COM02").await["total"], 2);
        // Pruning again removes nothing.
        assert_eq!(log.prune(&app.store, now, true).await.expect("prune"), 0);
    }
}

#[tokio::test]
async fn switched_off_the_log_captures_nothing() {
    for app in spawn().await {
        let off = CommLogConfig {
            enabled: false,
            ..CommLogConfig::default()
        };
        let l = linked_with(app, off).await;
        let app = &l.app;
        let c = company_gateways(app).await;
        let gw = gateway(&l, "GW-COM01", "KEY12345", Mode::Answer).await;
        gw.client
            .publish(
                "portal/v1/GW-COM01/telemetry",
                QoS::AtLeastOnce,
                false,
                TELEMETRY,
            )
            .await
            .expect("telemetry");
        app.post(
            "/api/v1/gateway/GW-COM01/restart",
            json!({}),
            Some(&c.admin),
        )
        .await
        .expect_code(0);
        tokio::time::sleep(Duration::from_millis(300)).await;
        l.link.comm_log.flush(&app.store).await;
        assert!(!l.link.comm_log.enabled());
        assert_eq!(l.link.comm_log.written(), 0);
        let r = app
            .get("/api/v1/logger/page?sn=GW-COM01", Some(&c.admin))
            .await;
        r.expect_code(0);
        assert_eq!(r.data()["total"], 0);
    }
}
