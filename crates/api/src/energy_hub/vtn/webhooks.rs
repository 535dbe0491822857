//! Webhooks from a VTN: where the VTN offers them (3.1 `GET /notifiers` says `WEBHOOK: true`;
//! 3.0 has subscriptions), each sync keeps a subscription to event changes pointing at
//! `{PORTAL_PUBLIC_URL}/api/v1/oadr/vtn/{id}/notify` with a random bearer token (sealed at
//! rest). The VTN checks that URL with `GET ?echo=` (the reference VTN: `GET {url}/echo?echo=`),
//! which answers the echo; each `POST` with the token triggers a sync of the connection at
//! once. Polling goes on either way: without a public URL, without webhooks on the VTN, or
//! while a subscription fails, the connection says "polling" and why.

use super::sealer;
use super::sync::{SyncError, sync_vtn};
use crate::AppState;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use domain::time::now_ms;
use oadr::Version;
use oadr::notify::Callback;
use oadr::ven::VtnClient;
use rand::{Rng, distributions::Alphanumeric};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::sync::Mutex;
use store::dr_vtn::VtnRow;

/// The longest echo answered (the VTN sends a short random string).
const MAX_ECHO: usize = 256;
/// The key of the one 3.1 subscription that covers every programme.
const ALL: &str = "*";
/// Why a connection polls only (the screens translate the first two; the third carries the
/// VTN's problem).
const NO_PUBLIC_URL: &str = "PORTAL_PUBLIC_URL is not set";
const NOT_OFFERED: &str = "the VTN offers no webhooks";

/// What the connection keeps about its webhook (`dr_vtns.webhook`, JSON).
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Webhook {
    #[serde(default)]
    pub callback: String,
    /// The bearer token the VTN sends, sealed.
    #[serde(default)]
    pub token_enc: String,
    /// Subscription id per programme's remote id (3.1: `*`).
    #[serde(default)]
    pub subscriptions: BTreeMap<String, String>,
    /// `webhook` when every subscription is in place, else `polling`.
    #[serde(default)]
    pub mode: String,
    /// Why the connection polls only ('' when webhooks work).
    #[serde(default)]
    pub note: String,
}

impl Webhook {
    pub fn read(json: &str) -> Self {
        serde_json::from_str(json).unwrap_or_default()
    }
}

fn polling(mut w: Webhook, note: &str) -> Webhook {
    w.mode = "polling".into();
    w.note = note.chars().take(200).collect();
    w
}

/// Keeps the subscriptions of one connection in step with its programmes; never fails the
/// sync (a failure leaves the connection polling, with the reason).
pub(crate) async fn ensure(
    app: &AppState,
    client: &VtnClient,
    vtn: &VtnRow,
    programs: &[(String, i64)],
) -> Result<(), SyncError> {
    let old = Webhook::read(&vtn.webhook);
    let w = match app.config.public_url.as_deref() {
        None => polling(old, NO_PUBLIC_URL),
        Some(public) => subscribe(app, client, vtn, programs, old, public).await,
    };
    let json = serde_json::to_string(&w).unwrap_or_else(|_| "{}".into());
    if json != vtn.webhook {
        app.store.set_vtn_webhook(vtn.id, &json).await?;
    }
    Ok(())
}

async fn subscribe(
    app: &AppState,
    client: &VtnClient,
    vtn: &VtnRow,
    programs: &[(String, i64)],
    mut w: Webhook,
    public: &str,
) -> Webhook {
    let callback = format!(
        "{}/api/v1/oadr/vtn/{}/notify",
        public.trim_end_matches('/'),
        vtn.id
    );
    match client.offers_webhooks().await {
        Ok(true) => {}
        Ok(false) => return polling(w, NOT_OFFERED),
        Err(e) => return polling(w, &format!("webhooks: {e}")),
    }
    let Ok(sealer) = sealer(app) else {
        return polling(w, "energy hub key unavailable");
    };
    if w.callback != callback || w.token_enc.is_empty() {
        // A new address (or a first start): new token, new subscriptions.
        for id in std::mem::take(&mut w.subscriptions).values() {
            if let Err(e) = client.unsubscribe(id).await {
                tracing::info!(vtn = vtn.id, "old subscription {id} not removed: {e}");
            }
        }
        let token: String = rand::rngs::OsRng
            .sample_iter(&Alphanumeric)
            .take(40)
            .map(char::from)
            .collect();
        match sealer.seal(&token) {
            Ok(enc) => w.token_enc = enc,
            Err(_) => return polling(w, "energy hub key unavailable"),
        }
        w.callback = callback.clone();
    }
    let Ok(token) = sealer.open(&w.token_enc) else {
        return polling(w, "energy hub key unavailable");
    };
    let wanted: Vec<&str> = match client.version() {
        Version::V310 => vec![ALL],
        Version::V301 => programs.iter().map(|(r, _)| r.as_str()).collect(),
    };
    let stale: Vec<String> = w
        .subscriptions
        .keys()
        .filter(|k| !wanted.contains(&k.as_str()))
        .cloned()
        .collect();
    for key in stale {
        if let Some(id) = w.subscriptions.remove(&key)
            && let Err(e) = client.unsubscribe(&id).await
        {
            tracing::info!(vtn = vtn.id, "subscription {id} not removed: {e}");
        }
    }
    let cb = Callback {
        url: &callback,
        bearer: &token,
    };
    let mut failure = None;
    for key in wanted {
        if w.subscriptions.contains_key(key) {
            continue;
        }
        let program = (key != ALL).then_some(key);
        match client.subscribe(&vtn.ven_name, program, &cb).await {
            Ok(id) => {
                w.subscriptions.insert(key.to_owned(), id);
            }
            Err(e) => {
                tracing::warn!(vtn = vtn.id, "webhook subscription failed: {e}");
                failure = Some(format!("subscription: {e}"));
            }
        }
    }
    match failure {
        Some(note) => polling(w, &note),
        None => {
            w.mode = "webhook".into();
            w.note.clear();
            w
        }
    }
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct Echo {
    /// The string to send back.
    #[serde(default)]
    echo: Option<String>,
}

/// A connection that expects webhooks (it has a token), by the id in the path.
async fn expecting(app: &AppState, id: &str) -> Result<(VtnRow, Webhook), StatusCode> {
    let id: i64 = id.parse().map_err(|_| StatusCode::NOT_FOUND)?;
    let vtn = app
        .store
        .vtn(id)
        .await
        .map_err(|e| {
            tracing::warn!("webhook: reading VTN {id}: {e}");
            StatusCode::SERVICE_UNAVAILABLE
        })?
        .ok_or(StatusCode::NOT_FOUND)?;
    let w = Webhook::read(&vtn.webhook);
    if w.token_enc.is_empty() {
        return Err(StatusCode::NOT_FOUND);
    }
    Ok((vtn, w))
}

fn echo_answer(q: Echo) -> Response {
    match q.echo {
        Some(e) if e.chars().count() <= MAX_ECHO => {
            ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], e).into_response()
        }
        _ => StatusCode::BAD_REQUEST.into_response(),
    }
}

/// The VTN's check of the callback: answers the `echo` (at most 256 characters) as plain
/// text. 404 for a connection that expects no webhooks.
#[utoipa::path(get, path = "/api/v1/oadr/vtn/{id}/notify", tag = "energy hub",
    params(("id" = i64, Path), Echo),
    responses((status = 200, description = "The echo, as text/plain", body = String),
        (status = 404, description = "No such connection expecting webhooks")))]
pub async fn echo(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<Echo>,
) -> Response {
    match expecting(&app, &id).await {
        Ok(_) => echo_answer(q),
        Err(s) => s.into_response(),
    }
}

/// The reference VTN's form of the echo check (`{callback}/echo?echo=`).
#[utoipa::path(get, path = "/api/v1/oadr/vtn/{id}/notify/echo", tag = "energy hub",
    params(("id" = i64, Path), Echo),
    responses((status = 200, description = "The echo, as text/plain", body = String),
        (status = 404, description = "No such connection expecting webhooks")))]
pub async fn echo_suffix(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<Echo>,
) -> Response {
    echo(State(app), Path(id), Query(q)).await
}

/// Connections whose webhook-triggered sync is queued or running (one at a time each).
static QUEUED: Mutex<Option<HashSet<i64>>> = Mutex::new(None);

fn queue(id: i64) -> bool {
    let mut q = QUEUED.lock().unwrap_or_else(|e| e.into_inner());
    q.get_or_insert_with(HashSet::new).insert(id)
}

fn done(id: i64) {
    let mut q = QUEUED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(set) = q.as_mut() {
        set.remove(&id);
    }
}

/// A notification from the VTN (`Authorization: Bearer <the subscription's token>`): its body
/// is not read (polling is the source of truth); the connection is synced now. 401 without
/// the token.
#[utoipa::path(post, path = "/api/v1/oadr/vtn/{id}/notify", tag = "energy hub",
    params(("id" = i64, Path)),
    responses((status = 200, description = "A sync is under way or queued (an empty text body)",
            body = String, content_type = "text/plain"),
        (status = 401, description = "Not the subscription's token"),
        (status = 404, description = "No such connection expecting webhooks")))]
pub async fn notify(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let (vtn, w) = match expecting(&app, &id).await {
        Ok(x) => x,
        Err(s) => return s.into_response(),
    };
    let token = match sealer(&app).map(|s| s.open(&w.token_enc)) {
        Ok(Ok(t)) => t,
        _ => return StatusCode::SERVICE_UNAVAILABLE.into_response(),
    };
    let sent = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default();
    if !same(sent.as_bytes(), token.as_bytes()) {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    if vtn.enabled != 0 && queue(vtn.id) {
        tokio::spawn(async move {
            // Another replica (or the job) may be syncing it: the database decides.
            match app
                .store
                .claim_vtn_sync(vtn.id, vtn.last_sync_at, now_ms())
                .await
            {
                Ok(true) => {
                    if let Err(e) = sync_vtn(&app, &vtn).await {
                        tracing::warn!(vtn = vtn.id, "notified sync failed: {e}");
                    }
                }
                Ok(false) => {}
                Err(e) => tracing::warn!(vtn = vtn.id, "claiming a notified sync failed: {e}"),
            }
            done(vtn.id);
        });
    }
    (StatusCode::OK, "").into_response()
}

/// Compares in time independent of where the first difference is.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The connection's notifications for its view: mode (`webhook`/`polling`), why it polls only
/// (`noPublicUrl`, `notOffered`, `failed`, or '' with webhooks) and the note.
pub(crate) fn mode(json: &str) -> (String, &'static str, String) {
    let w = Webhook::read(json);
    let reason = match w.note.as_str() {
        "" => "",
        NO_PUBLIC_URL => "noPublicUrl",
        NOT_OFFERED => "notOffered",
        _ => "failed",
    };
    let mode = if w.mode == "webhook" {
        "webhook"
    } else {
        "polling"
    };
    (mode.to_owned(), reason, w.note)
}

/// Best effort on removal: the VTN stops calling a connection that is gone.
pub(crate) async fn unsubscribe_all(client: &VtnClient, json: &str) {
    for id in Webhook::read(json).subscriptions.values() {
        if let Err(e) = client.unsubscribe(id).await {
            tracing::info!("subscription {id} not removed: {e}");
        }
    }
}
