//! Quiet hours hold an alarm e-mail and a webhook delivery, and release both when they end:
//! a fault that opened and recovered during the night is told, with its recovery, at 07:00.

use super::*;
use crate::alarm_mail::{Smtp, aiosmtpd, free_port, gateway, mailer, plant, settings};
use domain::{
    DeviceFamily,
    ids::{GatewayId, PlantId},
    user::BuiltinRole,
};
use jobs::{alarms, mail_queue::deliver_due, webhooks::tick};
use service::webhooks::DeliverySettings;

const ALLOWED: DeliverySettings = DeliverySettings {
    allow_private: true,
    timeout: None,
};
const HOUR: i64 = 3_600_000;

#[tokio::test]
async fn quiet_hours_hold_the_mail_and_the_delivery_until_they_end() {
    let python = aiosmtpd();
    for app in spawn_allowed().await {
        let ours = app.company("Sunny Installers").await;
        let (ann_id, ann) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let quiet = json!({"enabled": true, "email": "ann@example.com", "quietEnabled": true,
            "quietFrom": "22:00", "quietTo": "07:00", "quietZone": "UTC"});
        app.post("/api/v1/user/notify", quiet, Some(&ann))
            .await
            .expect_code(0);
        let (url, got) = receiver(&[]).await;
        let (_, secret) = add(&app, &ann, hook(&url)).await;
        let roof = plant(&app, ann_id, ours, "North roof").await;
        let gw = gateway(&app, roof, ann_id, ours, "GWQ01").await;
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

        // 2026-01-15 23:00 UTC: quiet.
        let t0 = 1_768_518_000_000;
        let morning = t0 + 8 * HOUR;
        let s = settings();
        alarms::tick(&app.store, &s, t0).await.expect("tick");
        app.store
            .open_event(inverter, Some(PlantId(roof)), "F13", "fault", t0 + 1000)
            .await
            .expect("fault");
        let night = alarms::tick(&app.store, &s, t0 + 30_000)
            .await
            .expect("tick");
        assert_eq!(
            (night.mails, night.held, night.alarms),
            (0, 1, 1),
            "[{}]",
            app.backend
        );
        assert_eq!(
            tick(&app.store, ALLOWED, "http://portal.test", t0 + 40_000)
                .await
                .expect("send")
                .held,
            1
        );
        app.store
            .close_event(inverter, "F13", t0 + 60_000)
            .await
            .expect("closed");
        let later = alarms::tick(&app.store, &s, t0 + 90_000)
            .await
            .expect("tick");
        assert_eq!((later.mails, later.recoveries), (0, 1));
        assert_eq!(
            tick(&app.store, ALLOWED, "http://portal.test", t0 + 100_000)
                .await
                .expect("send")
                .held,
            1
        );
        let before = alarms::tick(&app.store, &s, morning - 60_000)
            .await
            .expect("tick");
        assert_eq!(before.mails, 0, "still quiet at 06:59");
        assert!(
            got.lock().expect("got").is_empty(),
            "nothing posted at night"
        );
        assert!(
            app.store
                .outbox(Some("ann@example.com"), 10)
                .await
                .expect("outbox")
                .is_empty()
        );

        let released = alarms::tick(&app.store, &s, morning).await.expect("tick");
        assert_eq!(released.mails, 1, "[{}] one digest at 07:00", app.backend);
        let sent = tick(&app.store, ALLOWED, "http://portal.test", morning)
            .await
            .expect("send");
        assert_eq!(sent.delivered, 2, "[{}]", app.backend);
        let got = got.lock().expect("got").clone();
        let events: Vec<Value> = got
            .iter()
            .map(|(h, b)| verified(&secret, h, b)["event"].clone())
            .collect();
        assert_eq!(events, vec![json!("opened"), json!("closed")], "in order");

        let mails = app
            .store
            .outbox(Some("ann@example.com"), 10)
            .await
            .expect("outbox");
        assert_eq!(mails.len(), 1);
        let body = &mails[0].body;
        assert!(body.contains("Fault: INV0001 F13"), "{body}");
        assert!(body.contains("Fault cleared: INV0001 F13"), "{body}");
        assert_eq!(
            mails[0].subject,
            "Plant alarms: 1 new, 1 recovered (1 plants)"
        );
        assert_eq!(
            alarms::tick(&app.store, &s, morning + 60_000)
                .await
                .expect("tick")
                .mails,
            0,
            "released once"
        );

        // The e-mail goes out through a real SMTP server when one is at hand.
        if let Some(python) = &python {
            let port = free_port();
            let smtp = Smtp::start(python, port).await;
            deliver_due(&app.store, &mailer(port), morning + 60_000)
                .await
                .expect("pass");
            let to_ann = smtp.mails_to("ann@example.com");
            assert_eq!(to_ann.len(), 1, "{to_ann:?}");
            assert!(
                to_ann[0]["body"]
                    .as_str()
                    .is_some_and(|b| b.contains("Fault cleared: INV0001 F13"))
            );
        }
    }
}
