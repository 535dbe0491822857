//! A case's changes reach the webhooks of those told of the plant's alarms: its owner's
//! endpoint gets the opening and the closing, signed, with the case's screen; someone who
//! cannot see the plant gets nothing.

use super::*;
use crate::webhooks::{add, hook, receiver, spawn_allowed, verified};
use jobs::webhooks;
use service::webhooks::DeliverySettings;

const ALLOWED: DeliverySettings = DeliverySettings {
    allow_private: true,
    timeout: None,
};

#[tokio::test]
async fn a_case_opening_and_closing_is_delivered_to_the_owners_webhook_only() {
    for app in spawn_allowed().await {
        let w = world(&app).await;
        only(&app, &w, "event_code").await;
        let (url, got) = receiver(&[]).await;
        let (_, secret) = add(&app, &w.ann, hook(&url)).await;
        let (bob_url, bob_got) = receiver(&[]).await;
        add(&app, &w.bob, hook(&bob_url)).await;

        let inv = device(&app, w.gateway, "INV-H1", DeviceFamily::Inverter).await;
        app.store
            .open_event(inv, Some(w.plant), "F13", "fault", NOON)
            .await
            .expect("fault");
        assert_eq!(tick(&app, NOON + 30_000).await.opened, 1);
        let sent = webhooks::tick(&app.store, ALLOWED, "http://portal.test/", NOON + 31_000)
            .await
            .expect("send");
        assert_eq!(sent.delivered, 1, "[{}] {sent:?}", app.backend);
        let case = cases(&app, &w.ann, "kind=event_code").await;
        let case_id = case[0]["id"].as_i64().expect("case id");

        app.store
            .close_event(inv, "F13", NOON + 60_000)
            .await
            .expect("closed");
        assert_eq!(tick(&app, NOON + 90_000).await.closed, 1);
        webhooks::tick(&app.store, ALLOWED, "http://portal.test/", NOON + 91_000)
            .await
            .expect("send");

        let got = got.lock().expect("got").clone();
        let bodies: Vec<Value> = got.iter().map(|(h, b)| verified(&secret, h, b)).collect();
        let events: Vec<&str> = bodies.iter().filter_map(|b| b["event"].as_str()).collect();
        assert_eq!(events, ["opened", "closed"], "[{}]", app.backend);
        let opened = &bodies[0];
        assert_eq!(opened["kind"], "event_code");
        assert_eq!(opened["severity"], "alarm");
        assert_eq!(opened["caseId"], case_id);
        assert_eq!(opened["plantId"], w.plant.0);
        assert_eq!(opened["deviceSn"], "INV-H1");
        assert_eq!(opened["title"], "Device event: INV-H1/F13");
        assert_eq!(
            opened["url"],
            format!("http://portal.test/alarms?case={case_id}")
        );
        assert!(bob_got.lock().expect("bob").is_empty());
    }
}
