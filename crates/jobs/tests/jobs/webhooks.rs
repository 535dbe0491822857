//! The webhook sender against a real HTTP receiver on loopback: signed bodies, retries on the
//! back-off schedule (a test clock, no sleeping) until delivered or out of tries, quiet hours
//! holding a delivery until they end, and the log kept bounded.

use std::{
    collections::VecDeque,
    sync::{Arc, Mutex},
};

use axum::{
    Router,
    body::Bytes,
    extract::State,
    http::{HeaderMap, StatusCode},
    routing::post,
};
use domain::{
    ids::{PlantId, UserId, WebhookId},
    user::UserKind,
    webhook::RETRY_DELAYS_MS,
};
use jobs::webhooks::{Pass, prune, tick};
use service::webhooks::DeliverySettings;
use store::{
    Store,
    audit::NewAudit,
    log_pages::Author,
    users::{NewUser, NotifyChoice, QuietChoice},
    webhook_deliveries::{AlarmEvent, Attempt, Titles},
    webhooks::EndpointFields,
};

use crate::common::stores;

/// What a receiver got: (headers, body).
type Got = Arc<Mutex<Vec<(HeaderMap, Vec<u8>)>>>;

/// An HTTP server on loopback answering the given statuses in turn, then 200.
async fn receiver(statuses: &[u16]) -> (String, Got) {
    let got: Got = Arc::default();
    let answers = Arc::new(Mutex::new(
        statuses.iter().copied().collect::<VecDeque<_>>(),
    ));
    let app = Router::new()
        .route(
            "/hook",
            post(
                |State((got, answers)): State<(Got, Arc<Mutex<VecDeque<u16>>>)>,
                 headers: HeaderMap,
                 body: Bytes| async move {
                    got.lock().expect("got").push((headers, body.to_vec()));
                    let code = answers.lock().expect("answers").pop_front().unwrap_or(200);
                    StatusCode::from_u16(code).unwrap_or(StatusCode::OK)
                },
            ),
        )
        .with_state((got.clone(), answers));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}/hook"), got)
}

const ALLOWED: DeliverySettings = DeliverySettings {
    allow_private: true,
    timeout: None,
};

async fn user(s: &Store, account: &str) -> UserId {
    s.create_user(&NewUser {
        account,
        email: account,
        mobile: "",
        password_hash: "h",
        nickname: "n",
        kind: UserKind::Owner,
        company: None,
        role: None,
        user_src: "web",
        now: 1,
    })
    .await
    .expect("user")
}

async fn endpoint(s: &Store, user: UserId, url: &str, min: &str) -> WebhookId {
    let audit = NewAudit {
        by: Author {
            user_id: Some(user),
            account: "test",
            actor_company_id: None,
            plant_id: None,
            plant_owner_id: None,
            plant_company_id: None,
        },
        action: "webhook.create",
        target: "webhook",
        detail: "{}",
        result: "succeeded",
        command_id: None,
        now: 1,
    };
    let f = EndpointFields {
        url,
        enabled: true,
        kinds: "",
        min_severity: min,
    };
    // Stored in the clear, as before secrets were sealed: the sender signs with it as it is.
    let stored = store::webhooks::StoredSecret {
        sealed: "whsec_test",
        hint: "test",
    };
    s.create_webhook_endpoint(user, &f, stored, 5, 1, &audit)
        .await
        .expect("endpoint")
        .expect("room")
}

fn event(severity: &'static str) -> AlarmEvent<'static> {
    AlarmEvent {
        event: "opened",
        kind: "no_production",
        severity,
        case_id: Some(7),
        plant_id: PlantId(3),
        plant_name: "North roof",
        device_sn: None,
        titles: Titles {
            en: "No production",
            zh: "无发电",
            es: "Sin producción",
        },
        detail: r#"{"expectedKwh":12.5}"#,
        at: 1_000,
        link: "https://portal.example.com/plants/overview/3/1",
    }
}

#[tokio::test]
async fn a_failing_receiver_gets_every_retry_on_schedule_then_the_delivery_fails() {
    for (backend, s) in stores().await {
        let ann = user(&s, "ann@example.com").await;
        let (url, got) = receiver(&[500; 10]).await;
        let hook = endpoint(&s, ann, &url, "warning").await;
        let (quiet_url, quiet_got) = receiver(&[]).await;
        endpoint(&s, ann, &quiet_url, "alarm").await;
        let t0 = 1_800_000_000_000;
        let queued = service::webhooks::enqueue(&s, &event("warning"), &[ann], t0)
            .await
            .expect("queued");
        assert_eq!(
            queued, 1,
            "[{backend}] the alarm-only endpoint skips a warning"
        );

        let mut t = t0;
        for (i, delay) in RETRY_DELAYS_MS.iter().enumerate() {
            let pass = tick(&s, ALLOWED, "http://portal.test", t)
                .await
                .expect("tick");
            assert_eq!(pass.retried, 1, "[{backend}] try {}", i + 1);
            let early = tick(&s, ALLOWED, "http://portal.test", t + delay - 1)
                .await
                .expect("tick");
            assert_eq!(early, Pass::default(), "[{backend}] not before {delay} ms");
            t += delay;
        }
        let last = tick(&s, ALLOWED, "http://portal.test", t)
            .await
            .expect("tick");
        assert_eq!(last.failed, 1, "[{backend}] out of tries");
        assert_eq!(
            tick(&s, ALLOWED, "http://portal.test", t + 86_400_000)
                .await
                .expect("tick"),
            Pass::default()
        );
        assert_eq!(got.lock().expect("got").len(), 6, "[{backend}]");
        assert!(quiet_got.lock().expect("got").is_empty());
        let (log, total) = s.webhook_attempts(hook, 10, 0).await.expect("log");
        assert_eq!(total, 6);
        assert_eq!(log[0].attempt, 6);
        assert!(
            log.iter()
                .all(|a| a.status == Some(500) && a.state == "failed")
        );
    }
}

#[tokio::test]
async fn quiet_hours_hold_a_delivery_until_they_end() {
    for (backend, s) in stores().await {
        let ann = user(&s, "ann@example.com").await;
        let notify = NotifyChoice {
            enabled: false,
            email: "",
            offline_minutes: 30,
            lang: "es",
        };
        let quiet = QuietChoice {
            enabled: true,
            from: 22 * 60,
            to: 7 * 60,
            zone: "Europe/Madrid",
        };
        s.set_notify_and_quiet(ann, &notify, Some(&quiet))
            .await
            .expect("quiet");
        let (url, got) = receiver(&[]).await;
        endpoint(&s, ann, &url, "warning").await;
        // 2026-01-15 23:30 in Madrid; the quiet hours end at 07:00 there (06:00 UTC).
        let night = 1_768_516_200_000;
        let morning = 1_768_543_200_000;
        service::webhooks::enqueue(&s, &event("alarm"), &[ann], night)
            .await
            .expect("queued");
        let held = tick(&s, ALLOWED, "http://portal.test", night)
            .await
            .expect("tick");
        assert_eq!(held.held, 1, "[{backend}]");
        assert_eq!(
            tick(&s, ALLOWED, "http://portal.test", morning - 60_000)
                .await
                .expect("tick"),
            Pass::default()
        );
        assert!(got.lock().expect("got").is_empty());
        let sent = tick(&s, ALLOWED, "http://portal.test", morning)
            .await
            .expect("tick");
        assert_eq!(sent.delivered, 1, "[{backend}]");
        let got = got.lock().expect("got");
        let body: serde_json::Value = serde_json::from_slice(&got[0].1).expect("json");
        assert_eq!(body["title"], "Sin producción", "the user's language");
        assert_eq!(body["caseId"], 7);
        assert_eq!(body["detail"]["expectedKwh"], 12.5);
    }
}

#[tokio::test]
async fn the_log_keeps_the_newest_attempts_of_each_endpoint() {
    for (backend, s) in stores().await {
        let ann = user(&s, "ann@example.com").await;
        let hook = endpoint(&s, ann, "https://hooks.example.com/x", "warning").await;
        let now = 1_800_000_000_000;
        for i in 0..205 {
            s.record_webhook_attempt(&Attempt {
                delivery: domain::ids::DeliveryId(i),
                endpoint: hook,
                event: "opened",
                attempt: 1,
                at: now - 1000 + i,
                status: Some(200),
                error: "",
                duration_ms: 3,
                state: "delivered",
                next_at: now,
            })
            .await
            .expect("attempt");
        }
        prune(&s, now).await.expect("pruned");
        let (_, total) = s.webhook_attempts(hook, 1, 0).await.expect("log");
        assert_eq!(total, 200, "[{backend}]");
        prune(&s, now + 31 * 86_400_000).await.expect("pruned");
        let (_, total) = s.webhook_attempts(hook, 1, 0).await.expect("log");
        assert_eq!(total, 0, "[{backend}] older than 30 days");
    }
}
