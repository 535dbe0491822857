//! Webhooks from a utility's VTN, against a scripted VTN on loopback, for both versions: the
//! portal subscribes where the VTN offers webhooks (3.1 `GET /notifiers`; 3.0 subscriptions,
//! one per programme) with its public URL and a token; the callback answers the VTN's echo
//! checks; a notification with the token has the sync job (`jobs::vtn_sync`, running here
//! as `portal serve` runs it) sync the connection at once; without the token it is refused. Without a public URL, or without webhooks on the VTN, the connection polls and
//! says why. The reference VTN 3.0.1's HTTP-verb operations are used after its 400.

use crate::common;
use domain::ids::VtnId;

use common::App;
use common::fake_vtn::{Shared, fake_vtn, lock, save_for_the_validator, schema_errors};
use common::fixtures::{People, people};
use serde_json::{Value, json};
use std::time::Duration;

const PUBLIC: &str = "https://portal.example.com";

async fn connect(app: &App, p: &People, vtn: &Shared, version: &str, name: &str) -> i64 {
    let base = lock(vtn).base.clone();
    let body = json!({"name": name, "url": base, "version": version, "clientId": "ven-client",
        "clientSecret": "ven-secret", "venName": format!("portal-{name}"), "enabled": true,
        "pollSeconds": 3600});
    let r = app.post("/api/v1/oadr/vtn", body, Some(&p.admin)).await;
    r.expect_code(0);
    r.data()["id"].as_i64().expect("vtn id")
}

async fn sync(app: &App, p: &People, id: i64) {
    app.post(
        &format!("/api/v1/oadr/vtn/{id}/sync"),
        json!({}),
        Some(&p.admin),
    )
    .await
    .expect_code(0);
}

async fn view(app: &App, p: &People, id: i64) -> Value {
    let list = app.get("/api/v1/oadr/vtns", Some(&p.admin)).await;
    list.data()
        .as_array()
        .and_then(|l| l.iter().find(|v| v["id"] == id).cloned())
        .unwrap_or_default()
}

fn subscriptions(vtn: &Shared) -> Vec<Value> {
    lock(vtn)
        .sent
        .iter()
        .filter(|(m, t, _)| m == "POST" && t == "/subscriptions")
        .map(|(_, _, b)| b.clone())
        .collect()
}

fn good_event() -> Value {
    json!([{"id": "later", "createdDateTime": "2026-11-22T09:00:00Z",
        "modificationDateTime": "2026-11-22T09:00:00Z", "objectType": "EVENT", "programID": "prog-1",
        "reportDescriptors": [{"payloadType": "USAGE"}],
        "intervalPeriod": {"start": "2030-01-01T17:00:00Z", "duration": "PT1H"},
        "intervals": [{"id": 0, "payloads": [{"type": "EXPORT_CAPACITY_LIMIT", "values": [2.0]}]}]}])
}

#[tokio::test]
async fn the_portal_subscribes_where_offered_and_a_notification_syncs_at_once() {
    let apps = common::spawn_with(|c| c.public_url = Some(PUBLIC.into())).await;
    for app in apps {
        let p = people(&app).await;
        for version in ["3.1.0", "3.0.1"] {
            subscribed(&app, &p, version).await;
        }
        polling_when_not_offered(&app, &p).await;
    }
}

async fn subscribed(app: &App, p: &People, version: &'static str) {
    let b = format!("{} {version}", app.backend);
    let vtn = fake_vtn().await;
    // The reference VTN 3.0.1 refuses CREATE/UPDATE/DELETE with a 400.
    lock(&vtn).verbs_only = version == "3.0.1";
    let id = connect(
        app,
        p,
        &vtn,
        version,
        &format!("hook{}", version.replace('.', "")),
    )
    .await;
    sync(app, p, id).await;

    let subs = subscriptions(&vtn);
    let last = subs.last().cloned().unwrap_or_default();
    let op = &last["objectOperations"][0];
    let callback = format!("{PUBLIC}/api/v1/oadr/vtn/{id}/notify");
    assert_eq!(op["callbackUrl"], callback, "{b}: {last}");
    let token = op["bearerToken"].as_str().unwrap_or_default().to_owned();
    assert!(token.len() >= 32, "{b}: a random token: {last}");
    match version {
        "3.1.0" => {
            assert_eq!(subs.len(), 1, "{b}");
            assert!(
                last.get("programID").is_none(),
                "{b}: all programmes: {last}"
            );
            assert_eq!(op["objects"], json!(["PROGRAM", "EVENT"]), "{b}");
            assert_eq!(
                op["operations"],
                json!(["CREATE", "UPDATE", "DELETE"]),
                "{b}"
            );
        }
        _ => {
            assert_eq!(subs.len(), 2, "{b}: CRUD refused, then verbs");
            assert_eq!(
                subs[0]["objectOperations"][0]["operations"][0], "CREATE",
                "{b}"
            );
            assert_eq!(op["operations"], json!(["POST", "PUT", "DELETE"]), "{b}");
            assert_eq!(last["programID"], "prog-1", "{b}: one per programme");
        }
    }
    // The schema-conformant request is the first one sent, in both versions.
    let errors = schema_errors(version, "POST", "/subscriptions", &subs[0]);
    assert!(errors.is_empty(), "{b}: {errors:?}");
    let sent: Vec<_> = lock(&vtn)
        .sent
        .iter()
        .filter(|(_, t, _)| t == "/subscriptions")
        .take(1)
        .cloned()
        .collect();
    save_for_the_validator("webhooks", version, &sent);
    let v = view(app, p, id).await;
    assert_eq!(v["notifications"], "webhook", "{b}: {v}");
    assert_eq!(v["notificationsReason"], "", "{b}: {v}");
    assert!(
        !v.to_string().contains(&token),
        "{b}: the token is never answered"
    );

    // A second sync keeps the subscription.
    sync(app, p, id).await;
    assert_eq!(
        subscriptions(&vtn).len(),
        subs.len(),
        "{b}: not subscribed twice"
    );

    // The VTN's echo checks, both forms; a stranger's connection id is not found.
    for path in ["notify", "notify/echo"] {
        let r = app
            .get(&format!("/api/v1/oadr/vtn/{id}/{path}?echo=x7-echo"), None)
            .await;
        assert_eq!(r.status, 200, "{b}: {path}");
        assert_eq!(r.body.as_ref(), b"x7-echo", "{b}: {path}");
    }
    let long = "e".repeat(300);
    let r = app
        .get(&format!("/api/v1/oadr/vtn/{id}/notify?echo={long}"), None)
        .await;
    assert_eq!(r.status, 400, "{b}: bounded echo");
    let r = app.get("/api/v1/oadr/vtn/999999/notify?echo=x", None).await;
    assert_eq!(r.status, 404, "{b}");

    // The sync job, started now that the connection is synced (not due for an hour): within
    // the test only a notification makes it sync.
    let jobs = app.jobs();
    tokio::spawn(jobs::vtn_sync::run(
        jobs.store,
        jobs.ven,
        jobs.vtn_nudges,
        Duration::from_secs(3600),
    ));

    // A notification without the token is refused and syncs nothing.
    lock(&vtn).events = good_event();
    let r = app
        .post(&format!("/api/v1/oadr/vtn/{id}/notify"), json!({}), None)
        .await;
    assert_eq!(r.status, 401, "{b}");
    let r = app
        .post(
            &format!("/api/v1/oadr/vtn/{id}/notify"),
            json!({}),
            Some("not-the-token"),
        )
        .await;
    assert_eq!(r.status, 401, "{b}");
    assert!(mirrored(app, id).await.is_empty(), "{b}");

    // With the token (the reference VTN double-encodes the body: it is not read), the new
    // event arrives without waiting for the next poll (pollSeconds is an hour here).
    let r = app
        .post_raw(
            &format!("/api/v1/oadr/vtn/{id}/notify"),
            "application/json",
            br#""{\"objectType\":\"EVENT\",\"operation\":\"POST\"}""#.to_vec(),
            Some(&token),
        )
        .await;
    assert_eq!(r.status, 200, "{b}: {}", r.text());
    let mut seen = Vec::new();
    for _ in 0..100 {
        seen = mirrored(app, id).await;
        if !seen.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(seen, ["later"], "{b}: synced on notification");

    // Removing the connection removes its subscriptions on the VTN.
    app.post(
        &format!("/api/v1/oadr/vtn/{id}/remove"),
        json!({}),
        Some(&p.admin),
    )
    .await
    .expect_code(0);
    assert_eq!(lock(&vtn).unsubscribed.len(), 1, "{b}");
    let r = app
        .get(&format!("/api/v1/oadr/vtn/{id}/notify?echo=x"), None)
        .await;
    assert_eq!(r.status, 404, "{b}: gone");
}

/// The mirrored events' remote ids of a connection (events that ask for reports).
async fn mirrored(app: &App, id: i64) -> Vec<String> {
    let rows = app
        .store
        .vtn_events_to_report(VtnId(id), i64::MAX / 2, 0)
        .await
        .unwrap_or_default();
    rows.into_iter().map(|r| r.remote_id).collect()
}

async fn polling_when_not_offered(app: &App, p: &People) {
    let b = app.backend;
    let vtn = fake_vtn().await;
    lock(&vtn).no_webhooks = true;
    let id = connect(app, p, &vtn, "3.1.0", "nohooks").await;
    sync(app, p, id).await;
    assert!(subscriptions(&vtn).is_empty(), "{b}");
    let v = view(app, p, id).await;
    assert_eq!(v["notifications"], "polling", "{b}: {v}");
    assert_eq!(v["notificationsReason"], "notOffered", "{b}");
    assert_eq!(v["notificationsNote"], "the VTN offers no webhooks", "{b}");
    // The callback of a connection without webhooks is not there.
    let r = app
        .get(&format!("/api/v1/oadr/vtn/{id}/notify?echo=x"), None)
        .await;
    assert_eq!(r.status, 404, "{b}");
}

#[tokio::test]
async fn without_a_public_url_the_portal_polls_and_says_why() {
    for app in common::spawn().await {
        let p = people(&app).await;
        let vtn = fake_vtn().await;
        let id = connect(&app, &p, &vtn, "3.1.0", "private").await;
        sync(&app, &p, id).await;
        assert!(subscriptions(&vtn).is_empty(), "{}", app.backend);
        let v = view(&app, &p, id).await;
        assert_eq!(v["notifications"], "polling", "{v}");
        assert_eq!(v["notificationsReason"], "noPublicUrl");
        assert_eq!(v["notificationsNote"], "PORTAL_PUBLIC_URL is not set");
        // Connections are for administrators only.
        app.get("/api/v1/oadr/vtns", Some(&p.ann))
            .await
            .expect_code(2);
    }
}
