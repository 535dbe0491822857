//! Fault and recovery mails in the recipient's language, and who is (not) mailed.

use super::*;
use domain::ids::{GatewayId, PlantId};

#[tokio::test]
async fn a_fault_and_its_recovery_are_mailed_in_the_recipients_language() {
    let Some(python) = aiosmtpd() else { return };
    for app in common::spawn().await {
        let ours = app.company("Sunny Installers").await;
        let theirs = app.company("Other Installers").await;
        let ann = app
            .user(
                "ann@example.com",
                "secret123",
                BuiltinRole::PlantOwner,
                None,
            )
            .await;
        let ivan = app
            .user(
                "ivan@example.com",
                "secret123",
                BuiltinRole::CompanyStaff,
                Some(ours),
            )
            .await;
        let zoe = app
            .user(
                "zoe@example.com",
                "secret123",
                BuiltinRole::CompanyAdmin,
                Some(theirs),
            )
            .await;
        let off = app
            .user(
                "otto@example.com",
                "secret123",
                BuiltinRole::CompanyStaff,
                Some(ours),
            )
            .await;
        notify(&app, ann, "ann@example.com", 30, "zh").await;
        notify(&app, ivan, "ivan@example.com", 30, "en").await;
        notify(&app, zoe, "zoe@example.com", 30, "en").await;
        let choice = NotifyChoice {
            enabled: false,
            email: "otto@example.com",
            offline_minutes: 30,
            lang: "en",
        };
        app.store.set_notify(off, &choice).await.expect("off");
        let roof = plant(&app, ann, ours, "North roof").await;
        let gw = gateway(&app, roof, ann, ours, "GWF01").await;
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
        assert_eq!(tick(&app.store, &s, t0).await.expect("tick").mails, 0);
        app.store
            .open_event(inverter, Some(PlantId(roof)), "W02", "warning", t0 + 1000)
            .await
            .expect("warning");
        app.store
            .open_event(inverter, Some(PlantId(roof)), "F13", "fault", t0 + 2000)
            .await
            .expect("fault");
        let opened = tick(&app.store, &s, t0 + 30_000).await.expect("tick");
        assert_eq!(
            (opened.mails, opened.alarms),
            (2, 2),
            "[{}] Ann and Ivan",
            app.backend
        );
        assert_eq!(
            tick(&app.store, &s, t0 + 60_000).await.expect("tick").mails,
            0
        );
        app.store
            .close_event(inverter, "F13", t0 + 90_000)
            .await
            .expect("closed");
        let cleared = tick(&app.store, &s, t0 + 120_000).await.expect("tick");
        assert_eq!(
            (cleared.mails, cleared.recoveries),
            (2, 2),
            "[{}]",
            app.backend
        );
        assert_eq!(
            tick(&app.store, &s, t0 + 150_000)
                .await
                .expect("tick")
                .mails,
            0
        );

        let port = free_port();
        let smtp = Smtp::start(&python, port).await;
        deliver_due(&app.store, &mailer(port), t0 + 150_000)
            .await
            .expect("pass");
        let to_ann = smtp.mails_to("ann@example.com");
        assert_eq!(to_ann.len(), 2, "{to_ann:?}");
        let bodies: Vec<&str> = to_ann.iter().filter_map(|m| m["body"].as_str()).collect();
        assert!(to_ann.iter().all(|m| {
            m["subject"]
                .as_str()
                .is_some_and(|s| s.starts_with("电站告警"))
        }));
        assert!(
            bodies.iter().any(|b| b.contains("设备故障: INV0001 F13")),
            "{bodies:?}"
        );
        assert!(
            bodies.iter().any(|b| b.contains("故障已恢复: INV0001 F13")),
            "{bodies:?}"
        );
        assert!(
            bodies.iter().all(|b| !b.contains("W02")),
            "warnings are not mailed"
        );
        let link = format!("https://portal.example.com/plants/overview/{roof}/1");
        assert!(bodies.iter().all(|b| b.contains(&link)));
        let to_ivan = smtp.mails_to("ivan@example.com");
        assert_eq!(to_ivan.len(), 2);
        assert!(to_ivan.iter().any(|m| {
            m["body"]
                .as_str()
                .is_some_and(|b| b.contains("Fault cleared: INV0001 F13"))
        }));
        assert!(
            smtp.mails_to("zoe@example.com").is_empty(),
            "another company"
        );
        assert!(smtp.mails_to("otto@example.com").is_empty(), "e-mails off");
    }
}
