//! Webhook endpoints in personal settings, their signed deliveries to a real receiver on
//! loopback (the signature checked here with an HMAC computed independently), retries on a
//! test clock, the delivery log, who may see an endpoint, and quiet hours holding and then
//! releasing a delivery and an alarm e-mail.

mod delivery;
mod endpoints;
mod quiet;

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
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::common::{self, App};

/// What the receiver got: (headers, raw body), in order.
pub type Got = Arc<Mutex<Vec<(HeaderMap, Vec<u8>)>>>;

/// An HTTP server on loopback answering the given statuses in turn, then 200.
pub async fn receiver(statuses: &[u16]) -> (String, Got) {
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

/// HMAC-SHA256 in lowercase hex, written out from RFC 2104 over SHA-256 (not the portal's
/// code), so a wrong signature cannot agree with itself.
pub fn hmac_hex(key: &[u8], message: &[u8]) -> String {
    let mut block = [0u8; 64];
    if key.len() > 64 {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let pad = |x: u8| block.iter().map(|b| b ^ x).collect::<Vec<u8>>();
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    let outer = Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize();
    hex::encode(outer)
}

/// Checks a received request's signature headers with `secret`; answers its JSON body.
pub fn verified(secret: &str, headers: &HeaderMap, body: &[u8]) -> Value {
    let header = |n: &str| {
        headers
            .get(n)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string()
    };
    let ts = header("x-portal-timestamp");
    assert!(ts.parse::<i64>().is_ok(), "timestamp {ts:?}");
    let mut signed = format!("{ts}.").into_bytes();
    signed.extend_from_slice(body);
    assert_eq!(
        header("x-portal-signature"),
        format!("sha256={}", hmac_hex(secret.as_bytes(), &signed)),
        "signature"
    );
    assert_eq!(header("content-type"), "application/json");
    let v: Value = serde_json::from_slice(body).expect("json body");
    assert_eq!(v["id"].as_str(), Some(header("x-portal-delivery").as_str()));
    v
}

/// Adds an endpoint over the API: (id, secret).
pub async fn add(app: &App, token: &str, body: Value) -> (i64, String) {
    let r = app.post("/api/v1/user/webhooks", body, Some(token)).await;
    r.expect_code(0);
    let id = r.data()["webhook"]["id"].as_i64().expect("id");
    let secret = r.data()["secret"].as_str().expect("secret").to_string();
    (id, secret)
}

/// Apps that may deliver to loopback (`PORTAL_WEBHOOK_ALLOW_PRIVATE=1`).
pub async fn spawn_allowed() -> Vec<App> {
    common::spawn_with(|c| c.webhooks.allow_private = true).await
}

pub fn hook(url: &str) -> Value {
    json!({"url": url})
}
