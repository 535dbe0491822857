//! A case's opening pushed end to end: the owner's browser gets the message through a push
//! service on loopback, decrypted here by Python's http_ece with the browser's keys and its
//! VAPID token verified by PyJWT; someone who cannot see the plant gets nothing, nor does one
//! who lost sight of it before the push went out, nor a browser signed out; a push service
//! saying the subscription is gone deletes it.

use super::*;
use crate::push::{
    Browser, SUBJECT, body, list, push_service, python, settings, spawn_allowed, subscribe,
};
use jobs::push as sender;
use serde_json::json;

/// A fault on a new inverter of the world's gateway, and the engine's tick that opens its
/// case at `at`.
async fn fault(app: &App, w: &World, sn: &str, at: i64) {
    let inv = device(app, w.gateway, sn, DeviceFamily::Inverter).await;
    app.store
        .open_event(inv, Some(w.plant), "F13", "fault", at)
        .await
        .expect("fault");
    assert_eq!(tick(app, at + 30_000).await.opened, 1);
}

#[tokio::test]
async fn an_opened_case_is_pushed_encrypted_and_signed_to_the_owners_browser_only() {
    let Some(python) = python() else { return };
    for app in spawn_allowed().await {
        let w = world(&app).await;
        only(&app, &w, "event_code").await;
        let (url, got) = push_service(&[]).await;
        let ann_browser = Browser::new(&python);
        let ann_endpoint = format!("{url}?d=ann");
        subscribe(&app, &w.ann, body(&ann_endpoint, &ann_browser, json!({}))).await;
        subscribe(
            &app,
            &w.bob,
            body(&format!("{url}?d=bob"), &Browser::new(&python), json!({})),
        )
        .await;
        // Sara (staff of the serving company) only wants device silences.
        subscribe(
            &app,
            &w.staff,
            body(
                &format!("{url}?d=sara"),
                &Browser::new(&python),
                json!({"kinds": ["device_silent"]}),
            ),
        )
        .await;

        fault(&app, &w, "INV-P1", NOON).await;
        let pass = sender::tick(&app.store, &settings(), NOON + 31_000)
            .await
            .expect("push");
        assert_eq!(pass.sent, 1, "[{}] {pass:?}", app.backend);
        let case_id = cases(&app, &w.ann, "kind=event_code").await[0]["id"]
            .as_i64()
            .expect("case");

        let got = got.lock().expect("got").clone();
        assert_eq!(got.len(), 1, "Bob and Sara get nothing");
        let (at, headers, raw) = &got[0];
        assert_eq!(at, "/wp?d=ann");
        let header = |n: &str| {
            headers
                .get(n)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
        };
        assert_eq!(header("content-encoding"), "aes128gcm");
        assert_eq!(header("urgency"), "high");
        assert_eq!(header("ttl"), "86400");
        let opened = ann_browser.open(&python, &ann_endpoint, headers, raw);
        assert_eq!(
            (opened["rs"].clone(), opened["keyidLen"].clone()),
            (json!(4096), json!(65))
        );
        let p = &opened["payload"];
        assert_eq!(p["title"], "Device event: North roof");
        assert_eq!(p["body"], "Alarm: INV-P1/F13");
        assert_eq!(p["url"], format!("/alarms?case={case_id}"));
        assert_eq!(p["tag"], format!("case-{case_id}"));
        assert_eq!(p["plant"], "North roof");
        assert_eq!(p["kind"], "event_code");
        assert_eq!(p["severity"], "alarm");
        assert_eq!(p["at"], "2027-06-21T12:00:30Z", "when the tick opened it");
        let key = app.get("/api/v1/user/push/key", Some(&w.ann)).await;
        assert_eq!(opened["k"], key.data()["publicKey"]);
        assert_eq!(opened["claims"]["sub"], SUBJECT);
        let exp = opened["claims"]["exp"].as_i64().expect("exp");
        let sent_at = (NOON + 31_000) / 1000;
        assert!(exp > sent_at && exp <= sent_at + 24 * 3600, "exp {exp}");
        let mine = list(&app, &w.ann).await;
        assert!(mine[0]["lastSuccessAt"].is_string());

        // Nothing more to send; the same case ticking again pushes nothing.
        tick(&app, NOON + 60_000).await;
        let pass = sender::tick(&app.store, &settings(), NOON + 61_000)
            .await
            .expect("push");
        assert_eq!(pass, sender::Pass::default());
    }
}

#[tokio::test]
async fn a_gone_subscription_is_deleted_and_one_who_lost_sight_of_the_plant_gets_nothing() {
    let Some(python) = python() else { return };
    for app in spawn_allowed().await {
        let w = world(&app).await;
        only(&app, &w, "event_code").await;
        let (url, got) = push_service(&[503, 410]).await;
        let b = Browser::new(&python);
        subscribe(&app, &w.ann, body(&format!("{url}?d=ann"), &b, json!({}))).await;

        fault(&app, &w, "INV-G1", NOON).await;
        let pass = sender::tick(&app.store, &settings(), NOON + 31_000)
            .await
            .expect("push");
        assert_eq!(pass.retried, 1, "[{}] 503: tried again later", app.backend);
        assert!(
            list(&app, &w.ann).await[0]["lastError"]
                .as_str()
                .is_some_and(|e| e.contains("503"))
        );
        let early = sender::tick(&app.store, &settings(), NOON + 40_000)
            .await
            .expect("push");
        assert_eq!(early, sender::Pass::default(), "not before its delay");
        let pass = sender::tick(&app.store, &settings(), NOON + 31_000 + 30_000)
            .await
            .expect("push");
        assert_eq!(pass.gone, 1, "{pass:?}");
        assert!(list(&app, &w.ann).await.is_empty());
        assert_eq!(got.lock().expect("got").len(), 2);

        // Subscribed again; a case opens, then the plant goes to Bob before the push is sent.
        subscribe(&app, &w.ann, body(&format!("{url}?d=ann2"), &b, json!({}))).await;
        fault(&app, &w, "INV-G2", NOON + 120_000).await;
        let ann_id = w.ann_id;
        let bob_id = app
            .store
            .user_by_account("bob@example.com")
            .await
            .expect("read")
            .expect("bob")
            .id();
        app.store
            .transfer_plant(w.plant, bob_id, Some(w.company), NOON + 150_000)
            .await
            .expect("transferred");
        let pass = sender::tick(&app.store, &settings(), NOON + 160_000)
            .await
            .expect("push");
        assert_eq!(pass.unseen, 1, "{pass:?}");
        assert_eq!(pass.sent, 0);
        assert_eq!(
            got.lock().expect("got").len(),
            2,
            "nothing more reached {ann_id}"
        );
    }
}

#[tokio::test]
async fn a_browser_signed_out_gets_no_push() {
    let Some(python) = python() else { return };
    for app in spawn_allowed().await {
        let w = world(&app).await;
        only(&app, &w, "event_code").await;
        let (url, got) = push_service(&[]).await;
        let phone = app.login("ann@example.com", "secret123").await;
        subscribe(
            &app,
            &phone.access,
            body(&format!("{url}?d=phone"), &Browser::new(&python), json!({})),
        )
        .await;
        app.post(
            "/api/v1/user/logout",
            json!({"refresh_token": phone.refresh}),
            Some(&phone.access),
        )
        .await
        .expect_code(0);
        fault(&app, &w, "INV-S1", NOON).await;
        let pass = sender::tick(&app.store, &settings(), NOON + 31_000)
            .await
            .expect("push");
        assert_eq!(pass, sender::Pass::default(), "[{}]", app.backend);
        assert!(got.lock().expect("got").is_empty());
    }
}
