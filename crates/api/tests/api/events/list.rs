//! The `/events` list: paging, the caller's plants only, lenient queries and the event keys.

use super::*;

#[tokio::test]
async fn the_events_list_answers_next_token_and_records_of_the_callers_plants_only() {
    for app in spawn().await {
        let c = event_plants(&app).await;
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
async fn staff_without_the_event_keys_are_refused() {
    for app in spawn().await {
        let acme = app.company("Acme").await;
        let role = app
            .store
            .create_role(
                acme,
                "Plants",
                &["station.view"],
                domain::time::now_ms(),
                None,
            )
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
        let c = event_plants(&app).await;
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
