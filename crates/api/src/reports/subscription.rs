//! The caller's monthly report e-mail of a plant: any user who can see the plant may
//! subscribe; the mail goes to the account's e-mail address, in the language of the request
//! that subscribed.

use axum::extract::{Path, State};
use domain::DomainError;
use domain::ids::PlantId;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::plant;
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope, current_lang},
    extract::{Body, num},
    session::CurrentUser,
};
use domain::time::now_ms;
use service::reports::{self, address};

/// The caller's monthly e-mail of a plant's report.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionState {
    pub enabled: bool,
    /// Where it goes: the account's e-mail address (null without one).
    pub email: Option<String>,
    /// The last month sent, `YYYY-MM`.
    pub last_sent: Option<String>,
}

async fn answer(app: &AppState, me: &CurrentUser, plant: PlantId) -> ApiResult<SubscriptionState> {
    let sub = app.store.report_subscription(me.id(), plant).await?;
    Ok(SubscriptionState {
        enabled: sub.is_some(),
        email: address(&me.user),
        last_sent: sub.and_then(|s| s.last_period),
    })
}

/// Whether the caller receives the plant's monthly report by e-mail.
#[utoipa::path(get, path = "/api/v1/report/plant/{id}/subscription", tag = "reports",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The subscription; 4 id (missing or not visible)", body = Envelope<SubscriptionState>)))]
pub async fn state(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<SubscriptionState>> {
    let ctx = plant(&app, &me, &id).await?;
    Ok(Data(answer(&app, &me, ctx.plant.id).await?))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct SubscriptionRequest {
    /// Subscribe (true) or stop (false).
    #[serde(default, deserialize_with = "num::opt_bool")]
    #[schema(value_type = bool)]
    pub enabled: Option<bool>,
}

/// Subscribes the caller to the plant's monthly report e-mail (sent on the 1st of each month
/// in the plant's time zone with the month's workbook), or stops it.
#[utoipa::path(post, path = "/api/v1/report/plant/{id}/subscription", tag = "reports",
    params(("id" = i64, Path)), request_body = SubscriptionRequest, security(("bearer" = [])),
    responses((status = 200, description = "The subscription now; 4 id, 4 enabled, 4 email (the account has no e-mail address)", body = Envelope<SubscriptionState>)))]
pub async fn set(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Body(req): Body<SubscriptionRequest>,
) -> ApiResult<Data<SubscriptionState>> {
    let ctx = plant(&app, &me, &id).await?;
    let enabled = req.enabled.ok_or_else(|| DomainError::invalid("enabled"))?;
    let lang = current_lang();
    reports::subscribe(&app.store, &me.actor, &ctx.plant, enabled, lang, now_ms()).await?;
    Ok(Data(answer(&app, &me, ctx.plant.id).await?))
}
