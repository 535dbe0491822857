//! The mail worker without an SMTP server: queued mail waits, untouched, for one.

use jobs::mail_queue::{RETRY_MAX_MS, deliver_due};
use service::mailer::Mailer;
use store::outbox::NewMail;

use crate::common::stores;

#[tokio::test]
async fn without_smtp_queued_mail_waits_in_the_outbox() {
    for (backend, store) in stores().await {
        let t0 = domain::time::now_ms();
        let mail = NewMail {
            kind: "alarm".into(),
            recipient: "ann@example.com".into(),
            subject: "Gateway offline".into(),
            body: "GW1 is offline.".into(),
            attachment: None,
        };
        store.queue_mail(&mail, t0).await.expect("queued");
        let none = Mailer::new(None).expect("mailer");
        let pass = deliver_due(&store, &none, t0 + RETRY_MAX_MS)
            .await
            .expect("pass");
        assert_eq!((pass.sent, pass.failed), (0, 0), "[{backend}]");
        assert_eq!(
            store.undelivered_mail().await.expect("count"),
            1,
            "[{backend}]"
        );
    }
}
