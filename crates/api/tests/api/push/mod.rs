//! Web Push: subscriptions in personal settings (validation, the limit, another user's ids,
//! no keys in answers, the same browser moving between accounts, signing out), the test
//! message, and a case's push end to end (in `alarm_engine::push`): a push service on
//! loopback receives the message, which Python's http_ece decrypts with the browser's keys
//! and PyJWT verifies the VAPID token of (the venv `harness/push/venv.sh` makes; `make
//! test-rust` exports `PORTAL_TEST_PUSH_PYTHON`).

mod mail_alarms;
mod sessions;
mod subscriptions;

use std::{
    collections::VecDeque,
    io::Write,
    process::{Command, Stdio},
    sync::{Arc, Mutex},
};

use axum::{
    Router,
    body::Bytes,
    extract::State,
    http::{HeaderMap, StatusCode},
    routing::post,
};
use base64::Engine;
use serde_json::{Value, json};
use service::push::PushSettings;

use crate::common::{self, App};

/// The VAPID subject the tests configure.
pub const SUBJECT: &str = "mailto:ops@example.com";

/// How the tests send: to loopback, with [`SUBJECT`].
pub fn settings() -> PushSettings {
    PushSettings {
        allow_private: true,
        timeout: None,
        subject: SUBJECT.into(),
    }
}

/// Apps that may push to loopback (`PORTAL_WEBHOOK_ALLOW_PRIVATE=1`).
pub async fn spawn_allowed() -> Vec<App> {
    common::spawn_with(|c| c.push = settings()).await
}

/// The venv's python with http_ece, PyJWT and cryptography, or `None` (said why). Under CI
/// the venv must be there.
pub fn python() -> Option<String> {
    let python = std::env::var("PORTAL_TEST_PUSH_PYTHON")
        .ok()
        .filter(|p| !p.is_empty());
    if python.is_none() {
        assert!(
            std::env::var("CI").is_err(),
            "PORTAL_TEST_PUSH_PYTHON must be set under CI (make test-rust sets it)"
        );
        eprintln!(
            "skipped: PORTAL_TEST_PUSH_PYTHON is not set (make test-rust sets it to the python \
             of harness/push/venv.sh)"
        );
    }
    python
}

fn script() -> String {
    format!(
        "{}/../../harness/push/webpush.py",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// A browser's subscription keys, with the private key that opens what is sent to it.
#[derive(Debug, Clone)]
pub struct Browser {
    pub p256dh: String,
    pub auth: String,
    pub private: String,
}

impl Browser {
    /// Keys made by Python's `cryptography`.
    pub fn new(python: &str) -> Browser {
        let out = Command::new(python)
            .arg(script())
            .arg("keys")
            .output()
            .expect("webpush.py keys");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).expect("keys json");
        let s = |k: &str| v[k].as_str().expect("key").to_string();
        Browser {
            p256dh: s("p256dh"),
            auth: s("auth"),
            private: s("private"),
        }
    }

    /// Fixed keys for tests that never decrypt: the P-256 base point and 16 bytes.
    pub fn fixed() -> Browser {
        Browser {
            p256dh: G.into(),
            auth: "AAECAwQFBgcICQoLDA0ODw".into(),
            private: String::new(),
        }
    }

    /// A message received, decrypted and its VAPID token verified: `{payload, claims, k, rs,
    /// keyidLen}`.
    pub fn open(&self, python: &str, endpoint: &str, headers: &HeaderMap, body: &[u8]) -> Value {
        let authorization = headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        let input = json!({
            "private": self.private,
            "auth": self.auth,
            "body": base64::engine::general_purpose::STANDARD.encode(body),
            "authorization": authorization,
            "endpoint": endpoint,
        });
        let mut child = Command::new(python)
            .arg(script())
            .arg("open")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("webpush.py open");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.to_string().as_bytes())
            .expect("write");
        let out = child.wait_with_output().expect("open");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("open json")
    }
}

/// The P-256 base point, uncompressed, base64url: a valid browser key.
const G: &str =
    "BGsX0fLhLEJH-Lzm5WOkQPJ3A32BLeszoPShOUXYmMKWT-NC4v4af5uO5-tKfA-eFivOM1drMV7Oy7ZAaDe_UfU";

/// What the push service got: (path and query, headers, raw body), in order.
pub type Got = Arc<Mutex<Vec<(String, HeaderMap, Vec<u8>)>>>;

/// A push service on loopback answering the given statuses in turn, then 201; its base URL
/// (`http://127.0.0.1:port/wp`: endpoints add `?d=<device>`).
pub async fn push_service(statuses: &[u16]) -> (String, Got) {
    let got: Got = Arc::default();
    let answers = Arc::new(Mutex::new(
        statuses.iter().copied().collect::<VecDeque<_>>(),
    ));
    let app = Router::new()
        .route(
            "/wp",
            post(
                |State((got, answers)): State<(Got, Arc<Mutex<VecDeque<u16>>>)>,
                 uri: axum::http::Uri,
                 headers: HeaderMap,
                 body: Bytes| async move {
                    let at = uri
                        .path_and_query()
                        .map(|p| p.to_string())
                        .unwrap_or_default();
                    got.lock().expect("got").push((at, headers, body.to_vec()));
                    let code = answers.lock().expect("answers").pop_front().unwrap_or(201);
                    StatusCode::from_u16(code).unwrap_or(StatusCode::CREATED)
                },
            ),
        )
        .with_state((got.clone(), answers));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}/wp"), got)
}

/// The body of a subscription of `browser` at `endpoint`, with `extra` fields.
pub fn body(endpoint: &str, browser: &Browser, extra: Value) -> Value {
    let mut v = json!({
        "endpoint": endpoint,
        "p256dh": browser.p256dh,
        "auth": browser.auth,
        "deviceName": "Pixel 8",
    });
    if let (Some(o), Some(e)) = (v.as_object_mut(), extra.as_object()) {
        o.extend(e.clone());
    }
    v
}

/// Subscribes over the API; answers the item.
pub async fn subscribe(app: &App, token: &str, body: Value) -> Value {
    let r = app
        .post("/api/v1/user/pushSubscriptions", body, Some(token))
        .await;
    r.expect_code(0);
    r.data().clone()
}

/// The caller's subscriptions.
pub async fn list(app: &App, token: &str) -> Vec<Value> {
    let r = app.get("/api/v1/user/pushSubscriptions", Some(token)).await;
    r.expect_code(0);
    r.data().as_array().cloned().unwrap_or_default()
}
