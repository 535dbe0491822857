//! Events over HTTP: the `/events` list of docs/api-conventions.md, a plant's events and counts, a
//! device's events, the last hour, user and overview counts, messages (count, list, read) and
//! the operation-data downloads; another tenant's events are never listed.

use crate::common;

use common::{App, spawn};
use domain::user::BuiltinRole;
use serde_json::{Value, json};

struct Cast {
    admin: String,
    ann_id: i64,
    ann: String,
    bob: String,
    ann_plant: i64,
    bob_plant: i64,
    /// Ann's inverter, battery; Bob's inverter (device ids).
    ann_inv: i64,
    ann_bat: i64,
    bob_inv: i64,
}

async fn plant(app: &App, token: &str, name: &str) -> i64 {
    let r = app
        .post(
            "/api/v1/plant",
            json!({"name": name, "type": 2, "currency": "EUR", "timezone": "Europe/Madrid",
                "lon": -3.7, "lat": 40.4, "totalPower": 5}),
            Some(token),
        )
        .await;
    r.expect_code(0);
    r.data().as_i64().expect("plant id")
}

/// A gateway on `plant` with the given devices behind it; answers the device ids.
async fn gateway(
    app: &App,
    admin: &str,
    owner: &str,
    plant: i64,
    sn: &str,
    devices: &[(&str, &str, i64)],
) -> Vec<i64> {
    app.post(
        "/api/v1/gateway/create",
        json!({"sn": sn, "key": "KEY12345", "protocol": "deye-hybrid-1ph"}),
        Some(admin),
    )
    .await
    .expect_code(0);
    app.post(
        &format!("/api/v1/plant/{plant}/gateway"),
        json!({"sn": sn, "key": "KEY12345"}),
        Some(owner),
    )
    .await
    .expect_code(0);
    let gw = app
        .store
        .gateway_by_sn(sn)
        .await
        .expect("gateway")
        .expect("registered")
        .id;
    let mut ids = Vec::new();
    for (dsn, family, type_code) in devices {
        ids.push(
            app.store
                .upsert_device(dsn, gw, family, *type_code, "p", "M1", None, 1)
                .await
                .expect("device"),
        );
    }
    ids
}

async fn cast(app: &App) -> Cast {
    let (_, admin) = app
        .signed_in("admin@example.com", BuiltinRole::InternalAdmin, None)
        .await;
    let (ann_id, ann) = app
        .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let (_, bob) = app
        .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let ann_plant = plant(app, &ann, "Ann home plant").await;
    let bob_plant = plant(app, &bob, "Bob home plant").await;
    let ann_devices = gateway(
        app,
        &admin,
        &ann,
        ann_plant,
        "GW-ANN01",
        &[("INV-ANN01", "inverter", 2), ("BAT-ANN01", "battery", 0)],
    )
    .await;
    let bob_devices = gateway(
        app,
        &admin,
        &bob,
        bob_plant,
        "GW-BOB01",
        &[("INV-BOB01", "inverter", 2)],
    )
    .await;
    Cast {
        admin,
        ann_id: ann_id.0,
        ann,
        bob,
        ann_plant,
        bob_plant,
        ann_inv: ann_devices[0],
        ann_bat: ann_devices[1],
        bob_inv: bob_devices[0],
    }
}

fn now() -> i64 {
    api::now_ms()
}

/// Ann: an open fault and a closed warning on her inverter, an open battery fault. Bob: one
/// open warning.
async fn events(app: &App, c: &Cast) {
    let t = now();
    let s = &app.store;
    assert!(
        s.open_event(c.ann_inv, Some(c.ann_plant), "F01", "fault", t - 60_000)
            .await
            .expect("event")
    );
    assert!(
        s.open_event(
            c.ann_inv,
            Some(c.ann_plant),
            "W02",
            "warning",
            t - 7_200_000
        )
        .await
        .expect("event")
    );
    assert!(
        s.close_event(c.ann_inv, "W02", t - 3_000_000)
            .await
            .expect("event")
    );
    let battery_code = devices::events::of_family(devices::DeviceFamily::Battery)
        .find(|e| e.severity == devices::events::EventSeverity::Fault)
        .expect("a battery fault")
        .code
        .clone();
    assert!(
        s.open_event(
            c.ann_bat,
            Some(c.ann_plant),
            &battery_code,
            "fault",
            t - 30_000
        )
        .await
        .expect("event")
    );
    assert!(
        s.open_event(c.bob_inv, Some(c.bob_plant), "W02", "warning", t - 10_000)
            .await
            .expect("event")
    );
}

/// Every key of an event item with its JSON type.
#[track_caller]
fn assert_event(e: &Value) {
    for key in [
        "code",
        "sn",
        "deviceType",
        "severity",
        "status",
        "occurTime",
        "updateAt",
    ] {
        assert!(e[key].is_string(), "{key} string: {e}");
    }
    for key in ["meaning", "solution"] {
        assert!(e[key].as_str().is_some_and(|s| !s.is_empty()), "{key}: {e}");
    }
    for key in ["id", "plantId", "type", "level"] {
        assert!(e[key].is_i64(), "{key} int: {e}");
    }
    assert!(e["plantName"].is_string(), "{e}");
    assert!(matches!(
        e["severity"].as_str(),
        Some("info" | "warning" | "fault")
    ));
    assert!(matches!(e["status"].as_str(), Some("open" | "closed")));
    assert!(e["recoverTime"].is_null() || e["recoverTime"].is_string());
    assert_eq!(e["status"] == "open", e["recoverTime"].is_null(), "{e}");
    let occur = e["occurTime"].as_str().unwrap_or_default();
    assert_eq!(occur.len(), 19, "YYYY-MM-DD HH:MM:SS: {occur}");
    let update = e["updateAt"].as_str().unwrap_or_default();
    assert!(update.len() == 20 && update.ends_with('Z'), "{update}");
}

#[tokio::test]
async fn the_events_list_answers_next_token_and_records_of_the_callers_plants_only() {
    for app in spawn().await {
        let c = cast(&app).await;
        events(&app, &c).await;
        let r = app
            .get("/api/v1/events?type=1&page=1&limit=50&lan=en", Some(&c.ann))
            .await;
        r.expect_code(0);
        let record = r.data()["record"].as_array().expect("record array");
        assert_eq!(record.len(), 3, "{}", r.text());
        assert!(r.data()["nextToken"].is_null(), "one page only");
        for e in record {
            assert_event(e);
            assert_eq!(e["plantId"].as_i64(), Some(c.ann_plant));
        }
        // Newest first, with the catalogue's text.
        assert_eq!(record[0]["deviceType"], "battery");
        assert_eq!(record[1]["code"], "F01");
        assert_eq!(record[1]["sn"], "INV-ANN01");
        assert_eq!(record[2]["status"], "closed");

        // Paging: nextToken names the next page, as a string.
        let p1 = app
            .get("/api/v1/events?type=1&page=1&limit=2", Some(&c.ann))
            .await;
        assert_eq!(p1.data()["nextToken"], "2", "{}", p1.text());
        assert_eq!(p1.data()["record"].as_array().map(Vec::len), Some(2));
        let p2 = app
            .get("/api/v1/events?type=1&nextToken=2&limit=2", Some(&c.ann))
            .await;
        assert_eq!(p2.data()["record"].as_array().map(Vec::len), Some(1));
        assert!(p2.data()["nextToken"].is_null());

        // Filters: severity (type 3 or severity=fault), status, device, family, plant, days.
        for (query, n) in [
            ("type=3", 2),
            ("severity=warning", 1),
            ("status=open", 2),
            ("status=0", 1),
            ("sn=inv-ann", 2),
            ("deviceType=battery", 1),
            ("status=-1&severity=-1&sn=&deviceType=", 3),
        ] {
            let r = app
                .get(&format!("/api/v1/events?{query}"), Some(&c.ann))
                .await;
            r.expect_code(0);
            assert_eq!(r.data()["total"].as_i64(), Some(n), "{query}: {}", r.text());
        }
        let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
        let r = app
            .get(
                &format!(
                    "/api/v1/events?sdate=2020-01-01&edate=2020-01-02&plantId={}",
                    c.ann_plant
                ),
                Some(&c.ann),
            )
            .await;
        assert_eq!(r.data()["total"], 0);
        // Events two hours old may fall on yesterday (UTC) right after midnight.
        let r = app
            .get(
                &format!("/api/v1/events?sdate=2020-01-01&edate={today}"),
                Some(&c.ann),
            )
            .await;
        assert_eq!(r.data()["total"], 3);

        // Bob sees only his warning, even when asking for Ann's plant or device.
        let r = app.get("/api/v1/events", Some(&c.bob)).await;
        assert_eq!(r.data()["total"], 1);
        assert_eq!(r.data()["record"][0]["sn"], "INV-BOB01");
        let r = app
            .get(
                &format!("/api/v1/events?plantId={}", c.ann_plant),
                Some(&c.bob),
            )
            .await;
        assert_eq!(r.data()["total"], 0);
        // The administrator sees everything.
        let r = app.get("/api/v1/events", Some(&c.admin)).await;
        assert_eq!(r.data()["total"], 4);
        // Translations follow `lan`.
        let zh = app
            .get("/api/v1/events?sn=INV-ANN01&status=1&lan=zh", Some(&c.ann))
            .await;
        let en = app
            .get("/api/v1/events?sn=INV-ANN01&status=1&lan=en", Some(&c.ann))
            .await;
        assert_ne!(
            zh.data()["record"][0]["meaning"],
            en.data()["record"][0]["meaning"]
        );
        app.get("/api/v1/events", None).await.expect_401();
    }
}

#[tokio::test]
async fn a_plant_answers_its_events_event_count_and_inverter_count() {
    for app in spawn().await {
        let c = cast(&app).await;
        events(&app, &c).await;
        // Status job's view: Ann's inverter in fault, the battery normal.
        app.store
            .apply_statuses(&[(c.ann_inv, 3, true), (c.ann_bat, 1, true)], &[])
            .await
            .expect("statuses");

        let r = app
            .get(
                &format!("/api/v1/plant/{}/events", c.ann_plant),
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        let d = r.data();
        for key in ["pageSize", "pageNumber", "total"] {
            assert!(d[key].is_i64(), "{key}: {d}");
        }
        assert_eq!(d["total"], 3);
        d["infos"]
            .as_array()
            .expect("infos")
            .iter()
            .for_each(assert_event);
        let open = app
            .get(
                &format!("/api/v1/plant/{}/events?status=1", c.ann_plant),
                Some(&c.ann),
            )
            .await;
        assert_eq!(open.data()["total"], 2);

        let r = app
            .get(
                &format!("/api/v1/plant/{}/eventCount", c.ann_plant),
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        let d = r.data();
        assert_eq!(d["warning"].as_i64(), Some(0), "the warning is closed");
        assert_eq!(d["fault"].as_i64(), Some(2));
        assert!(d["updateAt"].as_str().is_some_and(|s| s.ends_with('Z')));

        let r = app
            .get(
                &format!("/api/v1/plant/{}/inverterCount", c.ann_plant),
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        let d = r.data();
        for key in ["warning", "fault", "total", "normal", "offline"] {
            assert!(d[key].is_i64(), "{key}: {d}");
        }
        assert!(d["updateAt"].is_string());
        assert_eq!(
            (d["total"].as_i64(), d["fault"].as_i64()),
            (Some(1), Some(1))
        );
        assert_eq!(d["normal"], 0, "the battery is not an inverter");

        // Another tenant's plant answers 700 like a missing one.
        for path in ["events", "eventCount", "inverterCount"] {
            app.get(
                &format!("/api/v1/plant/{}/{path}", c.ann_plant),
                Some(&c.bob),
            )
            .await
            .expect_code(700);
            app.get(&format!("/api/v1/plant/999999/{path}"), Some(&c.ann))
                .await
                .expect_code(700);
        }
        let _ = c.bob_plant;
    }
}

#[tokio::test]
async fn device_events_overview_counts_and_the_last_hour() {
    for app in spawn().await {
        let c = cast(&app).await;
        events(&app, &c).await;
        let r = app.get("/api/v1/event/INV-ANN01", Some(&c.ann)).await;
        r.expect_code(0);
        assert_eq!(r.data()["total"], 2);
        let r = app
            .get("/api/v1/event/INV-ANN01/realtime", Some(&c.ann))
            .await;
        r.expect_code(0);
        let open = r.data().as_array().expect("array");
        assert_eq!(open.len(), 1);
        assert_event(&open[0]);
        assert_eq!(open[0]["code"], "F01");
        // Another tenant's device answers like a missing one.
        app.get("/api/v1/event/INV-ANN01", Some(&c.bob))
            .await
            .expect_code(600);
        app.get("/api/v1/event/INV-ANN01/realtime", Some(&c.bob))
            .await
            .expect_code(600);
        app.get("/api/v1/event/NOPE-0001/realtime", Some(&c.ann))
            .await
            .expect_code(600);

        let r = app.get("/api/v1/battery/events", Some(&c.ann)).await;
        r.expect_code(0);
        assert_eq!(r.data()["total"], 1);
        assert_eq!(r.data()["infos"][0]["sn"], "BAT-ANN01");

        let r = app.get("/api/v1/event/oneHour", Some(&c.ann)).await;
        r.expect_code(0);
        assert_eq!(r.data()["total"], 2, "the closed warning is two hours old");
        r.data()["infos"]
            .as_array()
            .expect("infos")
            .iter()
            .for_each(assert_event);

        let r = app.get("/api/v1/overview/eventCount", Some(&c.ann)).await;
        r.expect_code(0);
        assert_eq!(
            (r.data()["warning"].as_i64(), r.data()["fault"].as_i64()),
            (Some(0), Some(2))
        );
        let r = app.get("/api/v1/overview/eventCount", Some(&c.admin)).await;
        assert_eq!(
            (r.data()["warning"].as_i64(), r.data()["fault"].as_i64()),
            (Some(1), Some(2))
        );

        let ann_count = format!("/api/v1/user/{}/eventCount", c.ann_id);
        let r = app.get(&ann_count, Some(&c.admin)).await;
        r.expect_code(0);
        assert_eq!(r.data()["fault"], 2);
        app.get(&ann_count, Some(&c.bob)).await.expect_code(105);

        // Detail by id, with the solution; another tenant's id answers 4.
        let id = open[0]["id"].as_i64().expect("id");
        let r = app
            .get(&format!("/api/v1/event/detail/{id}"), Some(&c.ann))
            .await;
        r.expect_code(0);
        assert_event(r.data());
        app.get(&format!("/api/v1/event/detail/{id}"), Some(&c.bob))
            .await
            .expect_code(4);
    }
}

#[tokio::test]
async fn messages_count_what_needs_attention_and_reading_or_recovering_lowers_it() {
    for app in spawn().await {
        let c = cast(&app).await;
        events(&app, &c).await;
        // An event of 40 days ago that recovered long since is history, not a message.
        let old = now() - 40 * 86_400_000;
        app.store
            .open_event(c.ann_inv, Some(c.ann_plant), "W03", "warning", old)
            .await
            .expect("old event");
        app.store
            .close_event(c.ann_inv, "W03", old + 60_000)
            .await
            .expect("old event");
        // A notice needs nobody: it is no message.
        app.store
            .open_event(c.ann_inv, Some(c.ann_plant), "F13", "info", now() - 5_000)
            .await
            .expect("notice");
        let listed = app.get("/api/v1/events", Some(&c.ann)).await;
        assert_eq!(listed.data()["total"], 5);
        let count = |token: String| {
            let app = &app;
            async move {
                let r = app.get("/api/v1/message/count", Some(&token)).await;
                r.expect_code(0);
                r.data().as_i64().expect("a bare number")
            }
        };
        // Ann: the open fault of the inverter and of the battery; the recovered warning is
        // resolved, not unread.
        assert_eq!(count(c.ann.clone()).await, 2);
        assert_eq!(count(c.bob.clone()).await, 1);

        let r = app
            .get(
                "/api/v1/messages?pageSize=10&pageNumber=1&status=-1&lan=en",
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        assert!(r.data()["total"].is_i64());
        assert_eq!(r.data()["total"], 3, "{}", r.text());
        let infos = r.data()["infos"].as_array().expect("infos");
        for m in infos {
            assert!(m["id"].is_i64(), "{m}");
            for key in ["title", "content", "type", "createAt"] {
                assert!(m[key].as_str().is_some_and(|s| !s.is_empty()), "{key}: {m}");
            }
            assert_event(&m["event"]);
            let resolved = m["event"]["status"] == "closed";
            assert_eq!(m["resolved"], resolved, "{m}");
            assert_eq!(
                m["status"],
                i64::from(resolved),
                "unread unless resolved: {m}"
            );
        }
        assert!(infos.iter().all(|m| m["type"] != "info"));
        // The Notification screen's filters: events of one severity, or one source.
        for (query, total) in [
            ("type=fault", 2),
            ("type=warning", 1),
            ("source=event&type=fault", 2),
            ("source=notice", 0),
            ("type=notice", 0),
            ("source=-1&type=", 3),
        ] {
            let r = app
                .get(&format!("/api/v1/messages?status=-1&{query}"), Some(&c.ann))
                .await;
            r.expect_code(0);
            assert_eq!(r.data()["total"], total, "{query}: {}", r.text());
        }
        for (query, field) in [("source=mail", "source"), ("type=info", "type")] {
            let r = app
                .get(&format!("/api/v1/messages?{query}"), Some(&c.ann))
                .await;
            r.expect_code(4);
            assert!(r.msg().contains(field), "{query}: {}", r.msg());
        }
        let first = infos[0]["id"].as_i64().expect("id");
        app.post(
            &format!("/api/v1/message/{first}/read"),
            json!({}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        assert_eq!(count(c.ann.clone()).await, 1);
        let read = app.get("/api/v1/messages?status=1", Some(&c.ann)).await;
        assert_eq!(read.data()["total"], 2, "the read one and the resolved one");
        assert!(
            read.data()["infos"]
                .as_array()
                .expect("infos")
                .iter()
                .all(|m| m["status"] == 1)
        );
        let unread = app.get("/api/v1/messages?status=0", Some(&c.ann)).await;
        assert_eq!(unread.data()["total"], 1);
        // Reading twice is harmless; another tenant's message cannot be marked.
        app.post(
            &format!("/api/v1/message/{first}/read"),
            json!({}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        app.post(
            &format!("/api/v1/message/{first}/read"),
            json!({}),
            Some(&c.bob),
        )
        .await
        .expect_code(4);
        assert_eq!(count(c.bob.clone()).await, 1, "Bob's count is his own");

        app.post("/api/v1/messages/read", json!({}), Some(&c.ann))
            .await
            .expect_code(0);
        assert_eq!(count(c.ann.clone()).await, 0);
        // A new warning is a new unread message; its recovery resolves it and adds nothing.
        app.store
            .open_event(c.ann_inv, Some(c.ann_plant), "W04", "warning", now())
            .await
            .expect("event");
        assert_eq!(count(c.ann.clone()).await, 1);
        app.store
            .close_event(c.ann_inv, "W04", now())
            .await
            .expect("recovery");
        assert_eq!(count(c.ann.clone()).await, 0);
        let all = app.get("/api/v1/messages?status=-1", Some(&c.ann)).await;
        assert_eq!(all.data()["total"], 4);
        assert_eq!(all.data()["infos"][0]["resolved"], true);
        app.get("/api/v1/message/count", None).await.expect_401();
    }
}

#[tokio::test]
async fn an_outage_on_ten_inverters_is_one_event_with_its_devices() {
    for app in spawn().await {
        let c = cast(&app).await;
        let devices: Vec<(String, &str, i64)> = (0..10)
            .map(|i| (format!("ROOF-INV{i:02}"), "inverter", 94))
            .collect();
        let refs: Vec<(&str, &str, i64)> = devices
            .iter()
            .map(|(s, f, t)| (s.as_str(), *f, *t))
            .collect();
        let roof = plant(&app, &c.ann, "Commercial roof").await;
        let ids = gateway(&app, &c.admin, &c.ann, roof, "GW-ROOF01", &refs).await;
        let t = now() - 120_000;
        let code = "F35";
        for id in &ids {
            app.store
                .open_event(*id, Some(roof), code, "warning", t)
                .await
                .expect("event");
        }

        let r = app
            .get(
                &format!("/api/v1/events?plantId={roof}&lan=en"),
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        assert_eq!(r.data()["total"], 1, "{}", r.text());
        let e = &r.data()["record"][0];
        assert_event(e);
        assert_eq!(
            (e["code"].as_str(), e["severity"].as_str()),
            (Some(code), Some("warning"))
        );
        assert_eq!(e["level"], 2);
        assert_eq!(
            (e["deviceCount"].as_i64(), e["openCount"].as_i64()),
            (Some(10), Some(10))
        );
        let sns: Vec<&str> = e["devices"]
            .as_array()
            .expect("devices")
            .iter()
            .filter_map(|d| d["sn"].as_str())
            .collect();
        assert_eq!(sns.len(), 10);
        assert!(sns.contains(&"ROOF-INV09"));
        // Every device's event on request, and on the device's own list.
        let r = app
            .get(
                &format!("/api/v1/events?plantId={roof}&group=0"),
                Some(&c.ann),
            )
            .await;
        assert_eq!(r.data()["total"], 10);
        let member = r.data()["record"][0].clone();
        assert_eq!(member["occurrenceId"], e["id"]);
        let r = app.get("/api/v1/event/ROOF-INV03", Some(&c.ann)).await;
        assert_eq!(r.data()["total"], 1);
        // The plant's list and counts: one occurrence.
        let r = app
            .get(
                &format!("/api/v1/plant/{roof}/events?status=1"),
                Some(&c.ann),
            )
            .await;
        assert_eq!(r.data()["total"], 1);
        let r = app
            .get(&format!("/api/v1/plant/{roof}/eventCount"), Some(&c.ann))
            .await;
        assert_eq!(
            (
                r.data()["warning"].as_i64(),
                r.data()["fault"].as_i64(),
                r.data()["total"].as_i64()
            ),
            (Some(1), Some(0), Some(1))
        );
        // One message; the detail and the read mark accept any of its events' ids.
        let count = app.get("/api/v1/message/count", Some(&c.ann)).await;
        assert_eq!(count.data(), &json!(1));
        let id = member["id"].as_i64().expect("id");
        let d = app
            .get(&format!("/api/v1/event/detail/{id}"), Some(&c.ann))
            .await;
        d.expect_code(0);
        assert_eq!(
            (d.data()["id"].clone(), d.data()["deviceCount"].clone()),
            (e["id"].clone(), json!(10))
        );
        app.post(
            &format!("/api/v1/message/{id}/read"),
            json!({}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        let count = app.get("/api/v1/message/count", Some(&c.ann)).await;
        assert_eq!(count.data(), &json!(0));
        // Nine recover: still open; the tenth: recovered, at its time.
        for id in &ids[..9] {
            app.store
                .close_event(*id, code, t + 30_000)
                .await
                .expect("close");
        }
        let r = app
            .get(&format!("/api/v1/events?plantId={roof}"), Some(&c.ann))
            .await;
        assert_eq!(
            (
                r.data()["record"][0]["status"].as_str(),
                r.data()["record"][0]["openCount"].as_i64()
            ),
            (Some("open"), Some(1))
        );
        app.store
            .close_event(ids[9], code, t + 60_000)
            .await
            .expect("close");
        let r = app
            .get(&format!("/api/v1/events?plantId={roof}"), Some(&c.ann))
            .await;
        let e = &r.data()["record"][0];
        assert_eq!(e["status"], "closed");
        assert_eq!(e["recoverTime"], e["devices"][9]["recoverTime"]);
        // Bob sees none of it.
        let r = app
            .get(&format!("/api/v1/events?plantId={roof}"), Some(&c.bob))
            .await;
        assert_eq!(r.data()["total"], 0);
        app.get(&format!("/api/v1/event/detail/{id}"), Some(&c.bob))
            .await
            .expect_code(4);
    }
}

#[tokio::test]
async fn a_working_mode_change_is_a_notice() {
    for app in spawn().await {
        let c = cast(&app).await;
        // As ingest stores it: with the catalogue's severity.
        let def = devices::events::lookup(devices::DeviceFamily::Inverter, "F13").expect("F13");
        assert_eq!(def.severity.key(), "info");
        app.store
            .open_event(
                c.ann_inv,
                Some(c.ann_plant),
                "F13",
                def.severity.key(),
                now(),
            )
            .await
            .expect("notice");
        let r = app.get("/api/v1/events?lan=es", Some(&c.ann)).await;
        let e = &r.data()["record"][0];
        assert_event(e);
        assert_eq!(
            (e["severity"].as_str(), e["level"].as_i64()),
            (Some("info"), Some(1))
        );
        assert_eq!(e["meaning"], "Modo de trabajo cambiado");
        for (query, n) in [("severity=info", 1), ("severity=fault", 0), ("type=3", 0)] {
            let r = app
                .get(&format!("/api/v1/events?{query}"), Some(&c.ann))
                .await;
            assert_eq!(r.data()["total"].as_i64(), Some(n), "{query}");
        }
        let r = app
            .get(
                &format!("/api/v1/plant/{}/eventCount", c.ann_plant),
                Some(&c.ann),
            )
            .await;
        assert_eq!(
            (
                r.data()["info"].as_i64(),
                r.data()["warning"].as_i64(),
                r.data()["fault"].as_i64(),
                r.data()["total"].as_i64()
            ),
            (Some(1), Some(0), Some(0), Some(0))
        );
        let r = app.get("/api/v1/message/count", Some(&c.ann)).await;
        assert_eq!(r.data(), &json!(0));
    }
}

/// The rows of the first sheet of an xlsx answer, as text.
fn sheet_rows(r: &common::Resp) -> Vec<Vec<String>> {
    use calamine::{Reader, Xlsx};
    assert_eq!(r.status, 200, "{}", r.text());
    let content_type = r.headers["content-type"].to_str().unwrap_or_default();
    assert!(content_type.contains("spreadsheetml"), "{content_type}");
    let mut book = Xlsx::new(std::io::Cursor::new(r.body.to_vec())).expect("a valid xlsx");
    let name = book.sheet_names()[0].clone();
    let range = book.worksheet_range(&name).expect("first sheet");
    range
        .rows()
        .map(|row| row.iter().map(|c| c.to_string()).collect())
        .collect()
}

#[tokio::test]
async fn operation_data_pages_and_downloads_events_and_dynamic_data() {
    for app in spawn().await {
        let c = cast(&app).await;
        events(&app, &c).await;
        let r = app.get("/api/v1/workdata/event", Some(&c.ann)).await;
        r.expect_code(0);
        assert_eq!(r.data()["total"], 2, "inverter events only");
        let r = app
            .get("/api/v1/workdata/battery/event", Some(&c.ann))
            .await;
        assert_eq!(r.data()["total"], 1);

        let inv = app
            .get("/api/v1/workdata/event/download?lan=en", Some(&c.ann))
            .await;
        let rows = sheet_rows(&inv);
        assert_eq!(rows[0][0], "Occurred");
        assert_eq!(rows.len(), 3, "header and two events");
        assert!(rows[1..].iter().all(|r| r[3] == "INV-ANN01"));
        assert!(
            rows.iter()
                .any(|r| r[5] == "F01" && r[6] == "Fault" && r[7] == "Open")
        );
        let bat = app
            .get(
                "/api/v1/workdata/battery/event/download?lan=zh",
                Some(&c.ann),
            )
            .await;
        let rows = sheet_rows(&bat);
        assert_eq!(rows[0][0], "发生时间");
        assert_eq!(rows.len(), 2);
        // Bob downloads only his own (none of them battery events).
        let rows = sheet_rows(
            &app.get("/api/v1/workdata/event/download", Some(&c.bob))
                .await,
        );
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1][3], "INV-BOB01");

        // Dynamic data: two reports of Ann's inverter today.
        let t = now();
        app.store
            .write_telemetry_batch(&store::telemetry::TelemetryBatch {
                samples: vec![
                    store::telemetry::SampleWrite {
                        device_id: c.ann_inv,
                        ts: t - 600_000,
                        payload:
                            r#"{"pv1_power":1200.5,"battery_soc":55,"running_state":"normal"}"#
                                .into(),
                    },
                    store::telemetry::SampleWrite {
                        device_id: c.ann_inv,
                        ts: t - 300_000,
                        payload: r#"{"pv1_power":1300,"battery_soc":56}"#.into(),
                    },
                ],
                energy: vec![],
            })
            .await
            .expect("telemetry");
        let today = chrono::Utc::now()
            .with_timezone(&chrono_tz::Europe::Madrid)
            .format("%Y-%m-%d")
            .to_string();
        let r = app
            .get(
                &format!("/api/v1/workdata/dynamic?sn=INV-ANN01&sdate={today}&edate={today}&column=pv1_power,battery_soc"),
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        let d = r.data();
        assert_eq!(d["total"], 2, "{d}");
        assert_eq!(d["columns"], json!(["pv1_power", "battery_soc"]));
        let newest = &d["infos"][0];
        assert_eq!(newest["pv1_power"], "1300.0");
        assert_eq!(newest["battery_soc"], "56.0");
        assert!(newest["time"].as_str().is_some_and(|s| s.len() == 19));
        // Every reported key when no column is named.
        let r = app
            .get(
                &format!("/api/v1/workdata/dynamic?sn=INV-ANN01&date={today}"),
                Some(&c.ann),
            )
            .await;
        assert_eq!(
            r.data()["columns"],
            json!(["battery_soc", "pv1_power", "running_state"])
        );
        assert!(r.data()["infos"][0]["running_state"].is_null());
        assert_eq!(r.data()["infos"][1]["running_state"], "normal");

        let file = app
            .get(
                &format!(
                    "/api/v1/workdata/dynamic/download?sn=INV-ANN01&sdate={today}&column=pv1_power"
                ),
                Some(&c.ann),
            )
            .await;
        let rows = sheet_rows(&file);
        assert!(rows[0][0].starts_with("Time"));
        assert_eq!(rows[0][1], "pv1_power");
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[1][1], "1200.5");

        // Bad input and other tenants.
        app.get("/api/v1/workdata/dynamic", Some(&c.ann))
            .await
            .expect_code(4);
        app.get(
            "/api/v1/workdata/dynamic?sn=INV-ANN01&sdate=2026-01-01&edate=2026-03-01",
            Some(&c.ann),
        )
        .await
        .expect_code(4);
        app.get("/api/v1/workdata/dynamic?sn=INV-ANN01", Some(&c.bob))
            .await
            .expect_code(600);
        app.get(
            "/api/v1/workdata/dynamic/download?sn=INV-ANN01",
            Some(&c.bob),
        )
        .await
        .expect_code(600);
    }
}

#[tokio::test]
async fn staff_without_the_event_keys_are_refused() {
    for app in spawn().await {
        let acme = app.company("Acme").await;
        let role = app
            .store
            .create_role(acme, "Plants", &["station.view"], api::now_ms(), None)
            .await
            .expect("role");
        let (id, token) = app
            .signed_in("plain@example.com", BuiltinRole::CompanyStaff, Some(acme))
            .await;
        app.store.set_role(id, role).await.expect("set role");
        let t = Some(token.as_str());
        for path in [
            "/api/v1/events",
            "/api/v1/event/detail/1",
            "/api/v1/battery/events",
            "/api/v1/workdata/event",
            "/api/v1/workdata/battery/event",
            "/api/v1/workdata/dynamic?sn=INV-0001",
            "/api/v1/workdata/event/download",
            "/api/v1/workdata/battery/event/download",
            "/api/v1/workdata/dynamic/download?sn=INV-0001",
        ] {
            app.get(path, t).await.expect_code(2);
        }
        // Counts and messages need no key: they only ever cover the caller's own plants.
        let r = app.get("/api/v1/message/count", t).await;
        r.expect_code(0);
        assert_eq!(r.data(), &json!(0));
        app.get("/api/v1/overview/eventCount", t)
            .await
            .expect_code(0);
    }
}

#[tokio::test]
async fn event_queries_are_lenient_and_bad_numbers_answer_4() {
    for app in spawn().await {
        let c = cast(&app).await;
        events(&app, &c).await;
        // Empty values, bare keys, -1 for "any" and unknown keys are ignored.
        for query in [
            "type=-1&page=&limit=&lan&status=&severity=-1&plantId=&sn=&deviceType=-1&id=",
            "type=1&page=1&limit=50&lan=-1&sdate=&edate=&foo=bar",
            "sdate=junk&edate=junk",
        ] {
            let r = app
                .get(&format!("/api/v1/events?{query}"), Some(&c.ann))
                .await;
            r.expect_code(0);
            assert_eq!(r.data()["total"], 3, "{query}");
        }
        // The paging is clamped rather than refused.
        let r = app
            .get("/api/v1/events?page=0&limit=100000", Some(&c.ann))
            .await;
        r.expect_code(0);
        assert_eq!(
            (
                r.data()["pageNumber"].as_i64(),
                r.data()["pageSize"].as_i64()
            ),
            (Some(1), Some(200))
        );
        for path in [
            "/api/v1/events?page=abc",
            "/api/v1/plant/1/events?limit=x",
            "/api/v1/messages?pageSize=ten",
            "/api/v1/event/detail/abc",
            "/api/v1/message/abc/read",
        ] {
            let r = if path.ends_with("/read") {
                app.post(path, json!({}), Some(&c.ann)).await
            } else {
                app.get(path, Some(&c.ann)).await
            };
            r.expect_code(4);
        }
    }
}
