//! Acknowledging a case: who, when and the comment kept, with a history line and an audit
//! entry; someone who cannot see the plant neither sees nor acknowledges it.

use super::*;
use serde_json::json;

/// A world with one open fault case; its id.
async fn fault_case(app: &App, w: &World) -> i64 {
    only(app, w, "event_code").await;
    let inv = device(app, w.gateway, "INV-K1", DeviceFamily::Inverter).await;
    app.store
        .open_event(inv, Some(w.plant), "F13", "fault", NOON)
        .await
        .expect("fault");
    assert_eq!(tick(app, NOON + 30_000).await.opened, 1);
    cases(app, &w.admin, "").await[0]["id"]
        .as_i64()
        .expect("case id")
}

#[tokio::test]
async fn the_owner_acknowledges_a_case_with_a_comment() {
    for app in common::spawn().await {
        let w = world(&app).await;
        let id = fault_case(&app, &w).await;
        let long = "x".repeat(501);
        app.post(
            &format!("/api/v1/alarm/case/{id}/acknowledge"),
            json!({"comment": long}),
            Some(&w.ann),
        )
        .await
        .expect_code(4);
        let r = app
            .post(
                &format!("/api/v1/alarm/case/{id}/acknowledge"),
                json!({"comment": "Technician booked for Monday"}),
                Some(&w.ann),
            )
            .await;
        r.expect_code(0);
        assert_eq!(r.data()["state"], "acknowledged");
        assert_eq!(r.data()["acknowledgedBy"], "ann@example.com");
        assert_eq!(r.data()["ackComment"], "Technician booked for Monday");
        // Again: nothing changes (the first acknowledgement counts).
        let again = app
            .post(
                &format!("/api/v1/alarm/case/{id}/acknowledge"),
                json!({"comment": "me too"}),
                Some(&w.staff),
            )
            .await;
        again.expect_code(0);
        assert_eq!(again.data()["acknowledgedBy"], "ann@example.com");

        // The engine keeps an acknowledged case open; it still closes on recovery.
        assert_eq!(tick(&app, NOON + 60_000).await.closed, 0);
        let detail = app
            .get(&format!("/api/v1/alarm/case/{id}"), Some(&w.admin))
            .await;
        let history = detail.data()["history"]
            .as_array()
            .expect("history")
            .clone();
        assert_eq!(history.len(), 2, "[{}]", app.backend);
        assert_eq!(history[1]["action"], "acknowledged");
        assert_eq!(history[1]["account"], "ann@example.com");
        assert_eq!(history[1]["comment"], "Technician booked for Monday");
        let audit = app
            .get("/api/v1/audit?action=alarmCase.acknowledge", Some(&w.ann))
            .await;
        audit.expect_code(0);
        assert_eq!(audit.data()["total"], 1, "{}", audit.text());
        assert_eq!(cases(&app, &w.admin, "state=acknowledged").await.len(), 1);
    }
}

#[tokio::test]
async fn someone_who_cannot_see_the_plant_neither_sees_nor_acknowledges_its_case() {
    for app in common::spawn().await {
        let w = world(&app).await;
        let id = fault_case(&app, &w).await;
        assert!(
            cases(&app, &w.bob, "").await.is_empty(),
            "[{}]",
            app.backend
        );
        app.get(&format!("/api/v1/alarm/case/{id}"), Some(&w.bob))
            .await
            .expect_code(4);
        app.post(
            &format!("/api/v1/alarm/case/{id}/acknowledge"),
            json!({}),
            Some(&w.bob),
        )
        .await
        .expect_code(4);
        let still = app
            .get(&format!("/api/v1/alarm/case/{id}"), Some(&w.ann))
            .await;
        assert_eq!(still.data()["case"]["state"], "open");
        // The company's staff see it (the company serves the plant), as does its owner.
        assert_eq!(cases(&app, &w.staff, "").await.len(), 1);
        assert_eq!(cases(&app, &w.ann, "").await.len(), 1);
    }
}
