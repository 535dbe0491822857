//! Events as ingest raises them: an outage on many inverters, a working-mode change.

use super::*;
use domain::ids::{DeviceId, PlantId};

#[tokio::test]
async fn an_outage_on_ten_inverters_is_one_event_with_its_devices() {
    for app in spawn().await {
        let c = event_plants(&app).await;
        let devices: Vec<(String, DeviceFamily, i64)> = (0..10)
            .map(|i| (format!("ROOF-INV{i:02}"), DeviceFamily::Inverter, 94))
            .collect();
        let refs: Vec<(&str, DeviceFamily, i64)> = devices
            .iter()
            .map(|(s, f, t)| (s.as_str(), *f, *t))
            .collect();
        let roof = fixtures::storage_plant(&app, &c.ann, "Commercial roof").await;
        let ids = gateway(&app, &c.admin, &c.ann, roof, "GW-ROOF01", &refs).await;
        let t = domain::time::now_ms() - 120_000;
        let code = "F35";
        for id in &ids {
            app.store
                .open_event(DeviceId(*id), Some(PlantId(roof)), code, "warning", t)
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
                .close_event(DeviceId(*id), code, t + 30_000)
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
            .close_event(DeviceId(ids[9]), code, t + 60_000)
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
        let c = event_plants(&app).await;
        // As ingest stores it: with the catalogue's severity.
        let def = devices::events::lookup(devices::DeviceFamily::Inverter, "F13").expect("F13");
        assert_eq!(def.severity.key(), "info");
        app.store
            .open_event(
                DeviceId(c.ann_inv),
                Some(PlantId(c.ann_plant)),
                "F13",
                def.severity.key(),
                domain::time::now_ms(),
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
