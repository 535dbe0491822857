//! Webhooks from a VTN: where the VTN offers them (3.1 `GET /notifiers` says `WEBHOOK: true`;
//! 3.0 has subscriptions), each sync keeps a subscription to event changes pointing at
//! `{PORTAL_PUBLIC_URL}/api/v1/oadr/vtn/{id}/notify` with a random bearer token (sealed at
//! rest). The VTN checks that URL with `GET ?echo=` (the reference VTN: `GET {url}/echo?echo=`),
//! which the API answers; each `POST` with the token asks the sync job for a sync of the
//! connection at once ([`notified`]). Polling goes on either way: without a public URL,
//! without webhooks on the VTN, or while a subscription fails, the connection says "polling"
//! and why.

use super::sync::SyncError;
use super::{Nudges, Ven};
use domain::ids::ProgramId;
use domain::ids::VtnId;
use oadr::Version;
use oadr::notify::Callback;
use oadr::ven::VtnClient;
use rand::{Rng, distributions::Alphanumeric};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use store::Store;
use store::energy_hub::vtn::VtnRow;

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
    store: &Store,
    ven: &Ven,
    client: &VtnClient,
    vtn: &VtnRow,
    programs: &[(String, ProgramId)],
) -> Result<(), SyncError> {
    let old = Webhook::read(&vtn.webhook);
    let w = match ven.public_url.as_deref() {
        None => polling(old, NO_PUBLIC_URL),
        Some(public) => subscribe(ven, client, vtn, programs, old, public).await,
    };
    let json = serde_json::to_string(&w).unwrap_or_else(|_| "{}".into());
    if json != vtn.webhook {
        store.set_vtn_webhook(vtn.id, &json).await?;
    }
    Ok(())
}

async fn subscribe(
    ven: &Ven,
    client: &VtnClient,
    vtn: &VtnRow,
    programs: &[(String, ProgramId)],
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
    let Ok(sealer) = ven.sealer() else {
        return polling(w, "energy hub key unavailable");
    };
    if w.callback != callback || w.token_enc.is_empty() {
        // A new address (or a first start): new token, new subscriptions.
        for id in std::mem::take(&mut w.subscriptions).values() {
            if let Err(e) = client.unsubscribe(id).await {
                tracing::info!(vtn = %vtn.id, "old subscription {id} not removed: {e}");
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
            tracing::info!(vtn = %vtn.id, "subscription {id} not removed: {e}");
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
                tracing::warn!(vtn = %vtn.id, "webhook subscription failed: {e}");
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

/// Why a call to a connection's callback is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// No such connection, or one that expects no webhooks (it has no token).
    Unknown,
    /// The database or the credential key cannot be read now.
    Unavailable,
    /// Not the subscription's token.
    WrongToken,
}

/// A connection that expects webhooks (it has a token).
pub async fn expecting(store: &Store, id: VtnId) -> Result<(VtnRow, Webhook), Refusal> {
    let vtn = store
        .vtn(id)
        .await
        .map_err(|e| {
            tracing::warn!("webhook: reading VTN {id}: {e}");
            Refusal::Unavailable
        })?
        .ok_or(Refusal::Unknown)?;
    let w = Webhook::read(&vtn.webhook);
    if w.token_enc.is_empty() {
        return Err(Refusal::Unknown);
    }
    Ok((vtn, w))
}

/// A notification from the VTN with `bearer`, the token it sent: its body is not read
/// (polling is the source of truth); an enabled connection is handed to the sync job now.
pub async fn notified(
    store: &Store,
    ven: &Ven,
    nudges: &Nudges,
    id: VtnId,
    bearer: &str,
) -> Result<(), Refusal> {
    let (vtn, w) = expecting(store, id).await?;
    let token = match ven.sealer().map(|s| s.open(&w.token_enc)) {
        Ok(Ok(t)) => t,
        _ => return Err(Refusal::Unavailable),
    };
    if !same(bearer.as_bytes(), token.as_bytes()) {
        return Err(Refusal::WrongToken);
    }
    if vtn.enabled != 0 {
        nudges.nudge(vtn.id);
    }
    Ok(())
}

/// Compares in time independent of where the first difference is.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The connection's notifications for its view: mode (`webhook`/`polling`), why it polls only
/// (`noPublicUrl`, `notOffered`, `failed`, or '' with webhooks) and the note.
pub fn mode(json: &str) -> (String, &'static str, String) {
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
