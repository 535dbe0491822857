//! The mail worker: a queued mail waits while the SMTP server is down and goes out once.

use super::*;

#[tokio::test]
async fn queued_mail_waits_while_smtp_is_down_and_is_delivered_once_when_it_is_up() {
    let Some(python) = aiosmtpd() else { return };
    for app in common::spawn().await {
        let t0 = domain::time::now_ms();
        let report: Vec<u8> = (0..5000u32).map(|i| (i % 251) as u8).collect();
        let mail = NewMail {
            kind: "report".into(),
            recipient: "ann@example.com".into(),
            subject: "Monthly report".into(),
            body: "The report is attached.".into(),
            attachment: Some(("north-2026-10.xlsx".into(), report.clone())),
        };
        app.store.queue_mail(&mail, t0).await.expect("queued");

        // Without SMTP the mail waits in the outbox.
        let none = Mailer::new(None).expect("mailer");
        assert_eq!(
            deliver_due(&app.store, &none, t0).await.expect("pass").sent,
            0
        );
        assert_eq!(app.store.undelivered_mail().await.expect("count"), 1);

        let port = free_port();
        let mailer = mailer(port);
        let pass = deliver_due(&app.store, &mailer, t0).await.expect("pass");
        assert_eq!(
            (pass.sent, pass.failed),
            (0, 1),
            "[{}] server down",
            app.backend
        );
        let row = &app
            .store
            .outbox(Some("ann@example.com"), 1)
            .await
            .expect("outbox")[0];
        assert_eq!((row.attempts, row.sent_at), (1, None));
        assert!(row.last_error.is_some());
        assert_eq!(
            row.next_attempt_at,
            Some(t0 + 30_000),
            "first retry after 30 s"
        );
        let early = deliver_due(&app.store, &mailer, t0 + 29_000)
            .await
            .expect("pass");
        assert_eq!((early.sent, early.failed), (0, 0), "not due yet");
        let second = deliver_due(&app.store, &mailer, t0 + 30_000)
            .await
            .expect("pass");
        assert_eq!(second.failed, 1);
        let row = &app
            .store
            .outbox(Some("ann@example.com"), 1)
            .await
            .expect("outbox")[0];
        assert_eq!(row.next_attempt_at, Some(t0 + 90_000), "the delay doubles");

        let smtp = Smtp::start(&python, port).await;
        let pass = deliver_due(&app.store, &mailer, t0 + 90_000)
            .await
            .expect("pass");
        assert_eq!(
            (pass.sent, pass.failed),
            (1, 0),
            "[{}] server up",
            app.backend
        );
        let later = deliver_due(&app.store, &mailer, t0 + 3_600_000)
            .await
            .expect("pass");
        assert_eq!(later.sent, 0, "sent once");
        let mails = smtp.mails();
        assert_eq!(mails.len(), 1, "{mails:?}");
        assert_eq!(mails[0]["subject"], "Monthly report");
        assert_eq!(mails[0]["attachments"][0]["name"], "north-2026-10.xlsx");
        assert_eq!(mails[0]["attachments"][0]["size"], report.len());
        let row = &app
            .store
            .outbox(Some("ann@example.com"), 1)
            .await
            .expect("outbox")[0];
        assert_eq!(row.attempts, 3);
        assert!(row.sent_at.is_some());
        assert_eq!(app.store.undelivered_mail().await.expect("count"), 0);
    }
}
