//! Deliveries: a signed test, the SSRF rule, and an alarm job's fault and recovery delivered
//! through a 500 and its retries, with the log.

use super::*;
use crate::alarm_mail::{gateway, plant, settings};
use domain::{
    DeviceFamily,
    ids::{GatewayId, PlantId},
    user::BuiltinRole,
};
use jobs::{alarms, webhooks::tick};
use service::webhooks::DeliverySettings;

const ALLOWED: DeliverySettings = DeliverySettings {
    allow_private: true,
    timeout: None,
};

#[tokio::test]
async fn a_test_delivery_is_signed_with_the_endpoints_secret_and_logged() {
    for app in spawn_allowed().await {
        let (_, ann) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let (url, got) = receiver(&[]).await;
        let (id, secret) = add(&app, &ann, hook(&url)).await;
        let r = app
            .post(
                &format!("/api/v1/user/webhooks/{id}/test"),
                json!({}),
                Some(&ann),
            )
            .await;
        r.expect_code(0);
        assert_eq!(
            r.data()["state"],
            "delivered",
            "[{}] {:?}",
            app.backend,
            r.data()
        );
        assert_eq!(r.data()["status"], 200);
        let got = got.lock().expect("got").clone();
        assert_eq!(got.len(), 1);
        let body = verified(&secret, &got[0].0, &got[0].1);
        assert_eq!(body["event"], "test");
        assert_eq!(body["caseId"], Value::Null);
        let r = app
            .get(
                &format!("/api/v1/user/webhooks/{id}/deliveries"),
                Some(&ann),
            )
            .await;
        assert_eq!(r.data()["total"], 1);
        let row = &r.data()["infos"][0];
        assert_eq!(
            (row["event"].clone(), row["status"].clone()),
            (json!("test"), json!(200))
        );
        assert_eq!(row["state"], "delivered");
    }
}

#[tokio::test]
async fn without_the_operators_leave_loopback_receivers_are_refused() {
    for app in common::spawn().await {
        let (_, ann) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let (url, got) = receiver(&[]).await;
        // A name that resolves to loopback is refused like the address itself.
        let named = url.replace("127.0.0.1", "localhost");
        for target in [url.clone(), named] {
            let (id, _) = add(&app, &ann, hook(&target)).await;
            let r = app
                .post(
                    &format!("/api/v1/user/webhooks/{id}/test"),
                    json!({}),
                    Some(&ann),
                )
                .await;
            assert_eq!(r.data()["state"], "failed", "[{}] {target}", app.backend);
            assert_eq!(r.data()["status"], Value::Null);
            let error = r.data()["error"].as_str().unwrap_or_default();
            assert!(error.contains("PORTAL_WEBHOOK_ALLOW_PRIVATE"), "{error}");
        }
        assert!(got.lock().expect("got").is_empty(), "nothing was sent");
    }
}

#[tokio::test]
async fn a_fault_and_its_recovery_reach_the_endpoint_through_a_500_and_its_retry() {
    for app in spawn_allowed().await {
        let ours = app.company("Sunny Installers").await;
        let (ann_id, ann) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        // Ann gets no e-mails: webhooks alone make her a recipient.
        let (url, got) = receiver(&[500]).await;
        let (hook_id, secret) = add(&app, &ann, hook(&url)).await;
        let (offline_url, offline_got) = receiver(&[]).await;
        add(
            &app,
            &ann,
            json!({"url": offline_url, "kinds": ["offline"]}),
        )
        .await;
        let (off_url, off_got) = receiver(&[]).await;
        add(&app, &ann, json!({"url": off_url, "enabled": false})).await;

        let roof = plant(&app, ann_id, ours, "North roof").await;
        let gw = gateway(&app, roof, ann_id, ours, "GWF01").await;
        let inverter = app
            .store
            .upsert_device(
                "INV0001",
                GatewayId(gw),
                DeviceFamily::Inverter,
                1,
                "p",
                "M1",
                None,
                1,
            )
            .await
            .expect("inverter");
        let s = settings();
        let t0 = domain::time::now_ms();
        alarms::tick(&app.store, &s, t0).await.expect("tick");
        app.store
            .open_event(inverter, Some(PlantId(roof)), "F13", "fault", t0 + 1000)
            .await
            .expect("fault");
        let opened = alarms::tick(&app.store, &s, t0 + 30_000)
            .await
            .expect("tick");
        assert_eq!((opened.alarms, opened.mails), (1, 0), "[{}]", app.backend);

        let first = tick(&app.store, ALLOWED, "http://portal.test", t0 + 40_000)
            .await
            .expect("send");
        assert_eq!(first.retried, 1, "[{}] the 500", app.backend);
        let early = tick(&app.store, ALLOWED, "http://portal.test", t0 + 69_000)
            .await
            .expect("send");
        assert_eq!(early.retried + early.delivered, 0, "30 s back-off");
        let second = tick(&app.store, ALLOWED, "http://portal.test", t0 + 70_000)
            .await
            .expect("send");
        assert_eq!(second.delivered, 1, "[{}]", app.backend);

        app.store
            .close_event(inverter, "F13", t0 + 90_000)
            .await
            .expect("closed");
        let closed = alarms::tick(&app.store, &s, t0 + 120_000)
            .await
            .expect("tick");
        assert_eq!(closed.recoveries, 1);
        let third = tick(&app.store, ALLOWED, "http://portal.test", t0 + 130_000)
            .await
            .expect("send");
        assert_eq!(third.delivered, 1);

        let got = got.lock().expect("got").clone();
        assert_eq!(got.len(), 3, "500, retry, recovery");
        let bodies: Vec<Value> = got.iter().map(|(h, b)| verified(&secret, h, b)).collect();
        assert_eq!(bodies[0], bodies[1], "the retry carries the same delivery");
        let opened = &bodies[1];
        assert_eq!(opened["event"], "opened");
        assert_eq!(opened["kind"], "fault");
        assert_eq!(opened["severity"], "alarm");
        assert_eq!(opened["plantId"], roof);
        assert_eq!(opened["plantName"], "North roof");
        assert_eq!(opened["deviceSn"], "INV0001");
        assert_eq!(opened["detail"]["code"], "F13");
        assert_eq!(opened["at"], t0 + 1000);
        assert!(
            opened["title"]
                .as_str()
                .is_some_and(|t| t.starts_with("Fault: INV0001 F13"))
        );
        assert_eq!(
            opened["url"],
            format!("https://portal.example.com/plants/overview/{roof}/1")
        );
        assert_eq!(bodies[2]["event"], "closed");
        assert!(offline_got.lock().expect("got").is_empty(), "filtered out");
        assert!(off_got.lock().expect("got").is_empty(), "switched off");

        let r = app
            .get(
                &format!("/api/v1/user/webhooks/{hook_id}/deliveries?page=1&limit=2"),
                Some(&ann),
            )
            .await;
        r.expect_code(0);
        assert_eq!(r.data()["total"], 3);
        let rows = r.data()["infos"].as_array().expect("rows");
        assert_eq!(rows.len(), 2, "paged");
        assert_eq!(rows[0]["event"], "closed");
        assert_eq!(
            (rows[1]["attempt"].clone(), rows[1]["status"].clone()),
            (json!(2), json!(200))
        );
        let r = app
            .get(
                &format!("/api/v1/user/webhooks/{hook_id}/deliveries?page=2&limit=2"),
                Some(&ann),
            )
            .await;
        let first = &r.data()["infos"][0];
        assert_eq!(
            (first["attempt"].clone(), first["status"].clone()),
            (json!(1), json!(500))
        );
        assert_eq!(first["state"], "delivered", "the delivery's state now");
    }
}
