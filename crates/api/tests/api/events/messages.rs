//! Messages: what needs attention, counted, read and recovered.

use super::*;
use domain::ids::{DeviceId, PlantId};

#[tokio::test]
async fn messages_count_what_needs_attention_and_reading_or_recovering_lowers_it() {
    for app in spawn().await {
        let c = event_plants(&app).await;
        events(&app, &c).await;
        // An event of 40 days ago that recovered long since is history, not a message.
        let old = domain::time::now_ms() - 40 * 86_400_000;
        app.store
            .open_event(
                DeviceId(c.ann_inv),
                Some(PlantId(c.ann_plant)),
                "W03",
                "warning",
                old,
            )
            .await
            .expect("old event");
        app.store
            .close_event(DeviceId(c.ann_inv), "W03", old + 60_000)
            .await
            .expect("old event");
        // A notice needs nobody: it is no message.
        app.store
            .open_event(
                DeviceId(c.ann_inv),
                Some(PlantId(c.ann_plant)),
                "F13",
                "info",
                domain::time::now_ms() - 5_000,
            )
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
            .open_event(
                DeviceId(c.ann_inv),
                Some(PlantId(c.ann_plant)),
                "W04",
                "warning",
                domain::time::now_ms(),
            )
            .await
            .expect("event");
        assert_eq!(count(c.ann.clone()).await, 1);
        app.store
            .close_event(DeviceId(c.ann_inv), "W04", domain::time::now_ms())
            .await
            .expect("recovery");
        assert_eq!(count(c.ann.clone()).await, 0);
        let all = app.get("/api/v1/messages?status=-1", Some(&c.ann)).await;
        assert_eq!(all.data()["total"], 4);
        assert_eq!(all.data()["infos"][0]["resolved"], true);
        app.get("/api/v1/message/count", None).await.expect_401();
    }
}
