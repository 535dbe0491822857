//! The signed-in user's Web Push subscriptions (personal settings): the server's VAPID key to
//! subscribe with, list, subscribe (one per browser: the same endpoint again updates it),
//! change, delete, send a test. Only the owner sees or touches a subscription; another
//! user's id answers 1102 like a missing one. The keys are never answered, nor the endpoint:
//! only its host. docs/push.md has the payload, the delivery and what signing out does.

use axum::extract::State;
use domain::{Lang, ids::PushSubscriptionId, push::endpoint_host, webhook::kinds_of_column};
use serde::{Deserialize, Serialize};
use service::push::{self as push, SubscriptionInput, Vapid, Verdict};
use store::push::SubscriptionRow;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    envelope::{Ack, ApiResult, Data, Done, Envelope, current_lang},
    extract::{Body, PathId},
    session::CurrentUser,
    users::create_at,
};
use domain::time::now_ms;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(key))
        .routes(routes!(list, subscribe))
        .routes(routes!(update))
        .routes(routes!(delete))
        .routes(routes!(test))
}

/// The server's VAPID public key.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PushKey {
    /// Base64url (no padding) of the 65-byte uncompressed P-256 point: the
    /// `applicationServerKey` to subscribe with.
    pub public_key: String,
}

/// A subscription as its owner sees it (never its keys, nor its endpoint beyond the host).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PushSubscription {
    pub id: i64,
    pub device_name: String,
    /// The push service's host (`fcm.googleapis.com`).
    pub endpoint_host: String,
    /// Alarm kinds pushed; empty: every kind.
    #[schema(value_type = Vec<crate::text_enums::AlarmKind>)]
    pub kinds: Vec<String>,
    #[schema(value_type = crate::text_enums::AlarmSeverity)]
    pub min_severity: String,
    /// ISO 8601 (`2026-11-30T07:20:00.000+00:00`).
    pub created_at: String,
    /// When the push service last took a message for it (ISO 8601), or null.
    pub last_success_at: Option<String>,
    /// Why the last message was not taken (empty after a success).
    pub last_error: String,
}

impl PushSubscription {
    fn of(r: &SubscriptionRow) -> PushSubscription {
        PushSubscription {
            id: r.id.0,
            device_name: r.device_name.clone(),
            endpoint_host: endpoint_host(&r.endpoint),
            kinds: kinds_of_column(&r.kinds),
            min_severity: r.min_severity.clone(),
            created_at: create_at(r.created_at),
            last_success_at: r.last_success_at.map(create_at),
            last_error: r.last_error.clone(),
        }
    }
}

/// A browser's subscription (`PushSubscription.toJSON()`'s endpoint and keys) and what it
/// asks for. On change, only `deviceName`, `kinds` and `minSeverity` are read; those left
/// out stay.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PushSubscriptionRequest {
    /// The push service's URL for this browser: `https://`, at most 2048 characters
    /// (required to subscribe).
    #[serde(default)]
    #[schema(max_length = 2048)]
    pub endpoint: Option<String>,
    /// The browser's P-256 public key, base64url of 65 bytes (required to subscribe).
    #[serde(default)]
    pub p256dh: Option<String>,
    /// The browser's authentication secret, base64url of 16 bytes (required to subscribe).
    #[serde(default)]
    pub auth: Option<String>,
    /// A name to tell devices apart (at most 64 characters kept).
    #[serde(default)]
    #[schema(max_length = 64)]
    pub device_name: Option<String>,
    /// Alarm kinds to push (as for webhooks); empty: every kind.
    #[serde(default)]
    #[schema(value_type = Option<Vec<crate::text_enums::AlarmKind>>)]
    pub kinds: Option<Vec<String>>,
    /// `warning` (everything) or `alarm`.
    #[serde(default)]
    #[schema(value_type = Option<crate::text_enums::AlarmSeverity>)]
    pub min_severity: Option<String>,
}

impl PushSubscriptionRequest {
    fn input(&self) -> SubscriptionInput<'_> {
        SubscriptionInput {
            endpoint: self.endpoint.as_deref(),
            p256dh: self.p256dh.as_deref(),
            auth: self.auth.as_deref(),
            device_name: self.device_name.as_deref(),
            kinds: self.kinds.as_deref(),
            min_severity: self.min_severity.as_deref(),
        }
    }
}

/// What a test message came to.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PushTestResult {
    /// Whether the push service took the message (2xx).
    pub accepted: bool,
    /// The push service's HTTP status, when it answered.
    pub status: Option<u16>,
    /// Why it was not taken (or an empty string).
    pub error: String,
    /// The push service said the subscription is gone (404, 410): it has been deleted.
    pub removed: bool,
    pub duration_ms: i64,
}

/// The server's VAPID public key, to subscribe a browser with.
#[utoipa::path(get, path = "/api/v1/user/push/key", tag = "users", security(("bearer" = [])),
    responses((status = 200, description = "The key", body = Envelope<PushKey>)))]
pub async fn key(State(app): State<AppState>, _me: CurrentUser) -> ApiResult<Data<PushKey>> {
    let vapid = Vapid::load_or_create(&app.store).await?;
    Ok(Data(PushKey {
        public_key: vapid.public_key(),
    }))
}

/// The caller's push subscriptions, oldest first.
#[utoipa::path(get, path = "/api/v1/user/pushSubscriptions", tag = "users", security(("bearer" = [])),
    responses((status = 200, description = "The subscriptions", body = Envelope<Vec<PushSubscription>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
) -> ApiResult<Data<Vec<PushSubscription>>> {
    let rows = push::list(&app.store, &me.actor).await?;
    Ok(Data(rows.iter().map(PushSubscription::of).collect()))
}

/// Subscribes the caller's browser, tied to this sign-in (signing out deletes it). The same
/// endpoint again updates its subscription (one of another user moves to the caller). At
/// most 10 per user: 1103. 4 `endpoint`, `p256dh`, `auth`, `kinds` or `minSeverity`.
#[utoipa::path(post, path = "/api/v1/user/pushSubscriptions", tag = "users",
    request_body = PushSubscriptionRequest, security(("bearer" = [])),
    responses((status = 200, description = "Subscribed; 4, 1103", body = Envelope<PushSubscription>)))]
pub async fn subscribe(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<PushSubscriptionRequest>,
) -> ApiResult<Data<PushSubscription>> {
    let row = push::subscribe(
        &app.store,
        &me.actor,
        &me.session,
        &req.input(),
        app.config.push.allow_private,
        now_ms(),
    )
    .await?;
    Ok(Data(PushSubscription::of(&row)))
}

/// Changes what a subscription asks for (`deviceName`, `kinds`, `minSeverity`). 4, 1102.
#[utoipa::path(post, path = "/api/v1/user/pushSubscriptions/{id}", tag = "users",
    params(("id" = i64, Path)), request_body = PushSubscriptionRequest, security(("bearer" = [])),
    responses((status = 200, description = "Saved; 4, 1102", body = Envelope<PushSubscription>)))]
pub async fn update(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<PushSubscriptionId>,
    Body(req): Body<PushSubscriptionRequest>,
) -> ApiResult<Data<PushSubscription>> {
    let row = push::update(&app.store, &me.actor, id, &req.input(), now_ms()).await?;
    Ok(Data(PushSubscription::of(&row)))
}

/// Deletes a subscription with what waits for it. 1102.
#[utoipa::path(post, path = "/api/v1/user/pushSubscriptions/{id}/delete", tag = "users",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Deleted; 1102", body = Ack)))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<PushSubscriptionId>,
) -> ApiResult<Done> {
    push::delete(&app.store, &me.actor, id, now_ms()).await?;
    Ok(Done)
}

/// Sends a test notification to the subscription now, once (quiet hours do not hold it), in
/// the caller's alarm language, and answers what the push service made of it. 1102.
#[utoipa::path(post, path = "/api/v1/user/pushSubscriptions/{id}/test", tag = "users",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Tried; 1102", body = Envelope<PushTestResult>)))]
pub async fn test(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<PushSubscriptionId>,
) -> ApiResult<Data<PushTestResult>> {
    let lang = Lang::parse(&me.user.notify_lang).unwrap_or_else(current_lang);
    let o = push::send_test(&app.store, &app.config.push, &me.actor, id, lang, now_ms()).await?;
    Ok(Data(PushTestResult {
        accepted: o.verdict == Verdict::Accepted,
        status: o.status,
        error: o.error,
        removed: o.verdict == Verdict::Gone,
        duration_ms: o.duration_ms,
    }))
}
