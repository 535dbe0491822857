//! `event_code`: an open fault (or a listed code) opens a case, the event's end closes it;
//! a second tick opens no duplicate.

use super::*;
use serde_json::json;

#[tokio::test]
async fn an_open_fault_opens_one_case_that_its_end_closes() {
    for app in common::spawn().await {
        let w = world(&app).await;
        only(&app, &w, "event_code").await;
        let inv = device(&app, w.gateway, "INV-E1", DeviceFamily::Inverter).await;
        app.store
            .open_event(inv, Some(w.plant), "W02", "warning", NOON)
            .await
            .expect("warning");
        app.store
            .open_event(inv, Some(w.plant), "F13", "fault", NOON + 1000)
            .await
            .expect("fault");
        // Every fault by default; the warning is not listed.
        assert_eq!(
            tick(&app, NOON + 30_000).await.opened,
            1,
            "[{}]",
            app.backend
        );
        for k in 2..5 {
            assert_eq!(tick(&app, NOON + k * 30_000).await.opened, 0);
        }
        let open = cases(&app, &w.admin, "kind=event_code").await;
        assert_eq!(open.len(), 1);
        assert_eq!(open[0]["subject"], "INV-E1/F13");
        assert_eq!(open[0]["detail"]["code"], "F13");

        // List the warning's code too: its case opens.
        let rules = app.get("/api/v1/alarm/rules", Some(&w.admin)).await;
        let id = rules
            .data()
            .as_array()
            .and_then(|all| all.iter().find(|r| r["kind"] == "event_code"))
            .and_then(|r| r["id"].as_i64())
            .expect("rule");
        app.post(
            &format!("/api/v1/alarm/rule/{id}"),
            json!({"params": {"codes": ["w02"], "allFaults": true}}),
            Some(&w.admin),
        )
        .await
        .expect_code(0);
        assert_eq!(tick(&app, NOON + 200_000).await.opened, 1);

        app.store
            .close_event(inv, "F13", NOON + 300_000)
            .await
            .expect("closed");
        app.store
            .close_event(inv, "W02", NOON + 300_000)
            .await
            .expect("closed");
        assert_eq!(tick(&app, NOON + 330_000).await.closed, 2);
        assert!(cases(&app, &w.admin, "state=open").await.is_empty());
        assert_eq!(cases(&app, &w.admin, "state=closed").await.len(), 2);
    }
}
