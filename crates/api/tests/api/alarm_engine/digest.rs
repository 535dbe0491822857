//! Cases in the alarm e-mails: a case's opening and its closing reach the owner's digest in
//! their language, through a real SMTP server; an `event_code` case on a fault is not told
//! twice (the fault is mailed as a fault).

use super::*;
use crate::alarm_mail::{Smtp, aiosmtpd, free_port, mailer, notify, settings};
use jobs::{alarms, mail_queue::deliver_due};
use serde_json::json;

#[tokio::test]
async fn a_case_and_its_recovery_are_mailed_once_beside_the_fault() {
    let Some(python) = aiosmtpd() else { return };
    for app in common::spawn().await {
        let w = world(&app).await;
        only(&app, &w, "event_code").await;
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
        notify(&app, w.ann_id, "ann@example.com", 30, "en").await;
        let inv = device(&app, w.gateway, "INV-M1", DeviceFamily::Inverter).await;
        app.store
            .open_event(inv, Some(w.plant), "W02", "warning", NOON)
            .await
            .expect("warning");
        app.store
            .open_event(inv, Some(w.plant), "F13", "fault", NOON + 1000)
            .await
            .expect("fault");
        assert_eq!(tick(&app, NOON + 30_000).await.opened, 2);
        let s = settings();
        let opened = alarms::tick(&app.store, &s, NOON + 40_000)
            .await
            .expect("alarms");
        assert_eq!(
            (opened.mails, opened.alarms),
            (1, 2),
            "[{}] one digest: the fault and the W02 case",
            app.backend
        );
        let again = alarms::tick(&app.store, &s, NOON + 50_000)
            .await
            .expect("alarms");
        assert_eq!(again.mails, 0, "[{}] never twice", app.backend);

        for code in ["W02", "F13"] {
            app.store
                .close_event(inv, code, NOON + 60_000)
                .await
                .expect("closed");
        }
        assert_eq!(tick(&app, NOON + 90_000).await.closed, 2);
        let cleared = alarms::tick(&app.store, &s, NOON + 100_000)
            .await
            .expect("alarms");
        assert_eq!(
            (cleared.mails, cleared.recoveries),
            (1, 2),
            "[{}]",
            app.backend
        );

        let port = free_port();
        let smtp = Smtp::start(&python, port).await;
        deliver_due(&app.store, &mailer(port), NOON + 100_000)
            .await
            .expect("pass");
        let mut bodies: Vec<String> = smtp
            .mails_to("ann@example.com")
            .iter()
            .filter_map(|m| m["body"].as_str().map(str::to_string))
            .collect();
        // Two mails sent in the same second come out of the maildir in the order of their
        // file names' random part: the opening's digest first, the recovery's second.
        bodies.sort_by_key(|b| b.contains("Recovered:"));
        assert_eq!(bodies.len(), 2, "{bodies:?}");
        assert!(
            bodies[0].contains("Device event: INV-M1/W02, since"),
            "{bodies:?}"
        );
        assert!(bodies[0].contains("Fault: INV-M1 F13"), "{bodies:?}");
        assert!(
            !bodies.iter().any(|b| b.contains("INV-M1/F13")),
            "{bodies:?}"
        );
        assert!(
            bodies[1].contains("Recovered: Device event: INV-M1/W02, at"),
            "{bodies:?}"
        );
        assert!(
            bodies[1].contains("Fault cleared: INV-M1 F13"),
            "{bodies:?}"
        );
    }
}
