//! The signed-in user's webhook endpoints (personal settings): list, add, change, delete,
//! rotate the secret, send a test, read the delivery log. Only the owner sees or touches an
//! endpoint; another user's id answers 1100 like a missing one. The secret is answered only
//! by add and rotate; lists show its last four characters (the rows read here do not carry
//! the secret, which is stored sealed). docs/webhooks.md has the payload.

use axum::extract::State;
use domain::{ids::WebhookId, webhook::kinds_of_column};
use serde::{Deserialize, Serialize};
use service::webhooks::{self as hooks, EndpointInput};
use store::{webhook_deliveries::AttemptRow, webhooks::EndpointRow};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    envelope::{Ack, ApiResult, Data, Done, Envelope},
    extract::{Body, PathId, num},
    paging::{Page, Paging},
    session::CurrentUser,
    users::create_at,
};
use domain::time::now_ms;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(update))
        .routes(routes!(delete))
        .routes(routes!(rotate))
        .routes(routes!(test))
        .routes(routes!(deliveries))
}

/// An endpoint as its owner sees it (never its secret).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Webhook {
    pub id: i64,
    pub url: String,
    pub enabled: bool,
    /// Alarm kinds delivered; empty: every kind.
    #[schema(value_type = Vec<crate::text_enums::AlarmKind>)]
    pub kinds: Vec<String>,
    #[schema(value_type = crate::text_enums::AlarmSeverity)]
    pub min_severity: String,
    /// The secret's last four characters, to tell secrets apart (`…a1b2`).
    pub secret_hint: String,
    pub create_at: String,
}

impl Webhook {
    fn of(r: &EndpointRow) -> Webhook {
        Webhook {
            id: r.id.0,
            url: r.url.clone(),
            enabled: r.enabled,
            kinds: kinds_of_column(&r.kinds),
            min_severity: r.min_severity.clone(),
            secret_hint: format!("…{}", r.secret_hint),
            create_at: create_at(r.created_at),
        }
    }
}

/// An endpoint to add, or the fields to change (those left out stay).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookRequest {
    /// `https://` or `http://`, at most 2048 characters (required to add).
    #[serde(default)]
    #[schema(max_length = 2048)]
    pub url: Option<String>,
    #[serde(default, deserialize_with = "num::opt_bool")]
    pub enabled: Option<bool>,
    /// Alarm kinds to deliver (docs/webhooks.md); empty: every kind.
    #[serde(default)]
    #[schema(value_type = Option<Vec<crate::text_enums::AlarmKind>>)]
    pub kinds: Option<Vec<String>>,
    /// `warning` (everything) or `alarm`.
    #[serde(default)]
    #[schema(value_type = Option<crate::text_enums::AlarmSeverity>)]
    pub min_severity: Option<String>,
}

impl WebhookRequest {
    fn input(&self) -> EndpointInput<'_> {
        EndpointInput {
            url: self.url.as_deref(),
            enabled: self.enabled,
            kinds: self.kinds.as_deref(),
            min_severity: self.min_severity.as_deref(),
        }
    }
}

/// A new endpoint with its secret, shown this once.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedWebhook {
    pub webhook: Webhook,
    pub secret: String,
}

/// A new secret, shown this once.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookSecret {
    pub secret: String,
}

/// What a test delivery came to.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestResult {
    /// `delivered` or `failed`.
    #[schema(value_type = crate::text_enums::DeliveryState)]
    pub state: String,
    /// The receiver's HTTP status, when it answered.
    pub status: Option<u16>,
    /// Why there was no answer (or an empty string).
    pub error: String,
    pub duration_ms: i64,
}

/// One attempt of the delivery log.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryAttempt {
    pub delivery_id: i64,
    #[schema(value_type = crate::text_enums::WebhookEvent)]
    pub event: String,
    /// 1 for the first try.
    pub attempt: i64,
    /// When it was made (epoch ms).
    pub at: i64,
    pub status: Option<i64>,
    pub error: String,
    pub duration_ms: i64,
    /// The delivery's state now.
    #[schema(value_type = crate::text_enums::DeliveryState)]
    pub state: String,
}

impl DeliveryAttempt {
    fn of(a: AttemptRow) -> DeliveryAttempt {
        DeliveryAttempt {
            delivery_id: a.delivery_id.0,
            event: a.event,
            attempt: a.attempt,
            at: a.at,
            status: a.status,
            error: a.error,
            duration_ms: a.duration_ms,
            state: a.state,
        }
    }
}

/// The caller's webhook endpoints, oldest first.
#[utoipa::path(get, path = "/api/v1/user/webhooks", tag = "users", security(("bearer" = [])),
    responses((status = 200, description = "The endpoints", body = Envelope<Vec<Webhook>>)))]
pub async fn list(State(app): State<AppState>, me: CurrentUser) -> ApiResult<Data<Vec<Webhook>>> {
    let rows = hooks::list(&app.store, &me.actor).await?;
    Ok(Data(rows.iter().map(Webhook::of).collect()))
}

/// Adds an endpoint (at most 5: 1101) with a secret made by the server, answered this once.
/// 4 `url`, `kinds` or `minSeverity`.
#[utoipa::path(post, path = "/api/v1/user/webhooks", tag = "users", request_body = WebhookRequest,
    security(("bearer" = [])), responses((status = 200, description = "Added; 4, 1101", body = Envelope<CreatedWebhook>)))]
pub async fn create(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<WebhookRequest>,
) -> ApiResult<Data<CreatedWebhook>> {
    let (row, secret) = hooks::create(&app.store, &me.actor, &req.input(), now_ms()).await?;
    Ok(Data(CreatedWebhook {
        webhook: Webhook::of(&row),
        secret,
    }))
}

/// Changes an endpoint; switched off, what waits for it is dropped. 4, 1100.
#[utoipa::path(post, path = "/api/v1/user/webhooks/{id}", tag = "users", params(("id" = i64, Path)),
    request_body = WebhookRequest, security(("bearer" = [])),
    responses((status = 200, description = "Saved; 4, 1100", body = Envelope<Webhook>)))]
pub async fn update(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<WebhookId>,
    Body(req): Body<WebhookRequest>,
) -> ApiResult<Data<Webhook>> {
    let row = hooks::update(&app.store, &me.actor, id, &req.input(), now_ms()).await?;
    Ok(Data(Webhook::of(&row)))
}

/// Deletes an endpoint with its queue and log. 1100.
#[utoipa::path(post, path = "/api/v1/user/webhooks/{id}/delete", tag = "users", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Deleted; 1100", body = Ack)))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<WebhookId>,
) -> ApiResult<Done> {
    hooks::delete(&app.store, &me.actor, id, now_ms()).await?;
    Ok(Done)
}

/// A new secret, answered this once; the old one signs nothing more. 1100.
#[utoipa::path(post, path = "/api/v1/user/webhooks/{id}/secret", tag = "users", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "The new secret; 1100", body = Envelope<WebhookSecret>)))]
pub async fn rotate(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<WebhookId>,
) -> ApiResult<Data<WebhookSecret>> {
    let secret = hooks::rotate_secret(&app.store, &me.actor, id, now_ms()).await?;
    Ok(Data(WebhookSecret { secret }))
}

/// Sends a signed test delivery (`event: "test"`) now, once, and answers what came of it; it
/// is logged like the others. 1100.
#[utoipa::path(post, path = "/api/v1/user/webhooks/{id}/test", tag = "users", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Tried; 1100", body = Envelope<TestResult>)))]
pub async fn test(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<WebhookId>,
) -> ApiResult<Data<TestResult>> {
    let link = format!(
        "{}/edit",
        app.config.public_url.as_deref().unwrap_or_default()
    );
    let o = hooks::send_test(
        &app.store,
        app.config.webhooks,
        &me.actor,
        id,
        &link,
        now_ms(),
    )
    .await?;
    Ok(Data(TestResult {
        state: o.state.to_string(),
        status: o.status,
        error: o.error,
        duration_ms: o.duration_ms,
    }))
}

/// A page of an endpoint's delivery log, newest first (the newest 200 attempts of the last 30
/// days are kept). 1100.
#[utoipa::path(get, path = "/api/v1/user/webhooks/{id}/deliveries", tag = "users",
    params(("id" = i64, Path), Paging), security(("bearer" = [])),
    responses((status = 200, description = "A page of attempts; 1100", body = Envelope<Page<DeliveryAttempt>>)))]
pub async fn deliveries(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<WebhookId>,
    paging: Paging,
) -> ApiResult<Data<Page<DeliveryAttempt>>> {
    let (rows, total) =
        hooks::attempts(&app.store, &me.actor, id, paging.limit(), paging.offset()).await?;
    let infos = rows.into_iter().map(DeliveryAttempt::of).collect();
    Ok(Data(Page::new(paging, total, infos)))
}
