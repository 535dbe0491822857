//! Sharing a plant with visitors and maintainers, transferring it, and deleting it.

use axum::extract::{Path, State};
use domain::{
    Code, DomainError,
    ids::{PlantId, UserId},
};
use serde::{Deserialize, Serialize};
use service::plants::ShareTarget;
use utoipa::{IntoParams, ToSchema};

use super::visible;
use crate::{
    AppState,
    envelope::{Ack, ApiResult, Data, Done, Envelope},
    extract::{Body, Query, num},
    files,
    session::CurrentUser,
    users::{create_at, path_id},
};
use domain::time::now_ms;

#[derive(Debug, Deserialize, IntoParams, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShareRequest {
    /// The other account (email or phone).
    #[serde(default, alias = "email", alias = "username", alias = "mobile")]
    pub account: Option<String>,
    /// `visitor` (read-only) or `maintainer` (may act on devices); also `1`/`2`.
    #[serde(
        default,
        alias = "type",
        alias = "permission",
        deserialize_with = "num::opt_text"
    )]
    pub role: Option<String>,
    /// For cancelling: the user whose share ends (default: the caller's own).
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub user_id: Option<i64>,
}

/// The plant id of a path segment; one that is not a number is a plant nobody can see (700).
fn plant_id(raw: &str) -> Result<PlantId, DomainError> {
    path_id(raw)
        .map(PlantId)
        .map_err(|_| Code::PlantMissing.into())
}

/// Shares a plant. Only its creator may (2); not with oneself (701), not with company or
/// internal accounts (702), never a company's plant (703); unknown accounts answer 105.
#[utoipa::path(post, path = "/api/v1/plant/{id}/share", tag = "plants", request_body = ShareRequest,
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Done; 2, 4, 105, 700, 701, 702, 703", body = Ack)))]
pub async fn share(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Body(req): Body<ShareRequest>,
) -> ApiResult<Done> {
    let account = req.account.as_deref().unwrap_or("");
    let role = req.role.as_deref().unwrap_or("visitor");
    service::plants::share(
        &app.store,
        &me.actor,
        plant_id(&id)?,
        account,
        role,
        now_ms(),
    )
    .await?;
    Ok(Done)
}

/// Ends a share: the creator ends anyone's, a sharee ends their own. The plant's picture links
/// change, so one copied during the share stops working.
#[utoipa::path(post, path = "/api/v1/plant/{id}/cancelShare", tag = "plants", request_body = ShareRequest,
    params(("id" = i64, Path)), security(("bearer" = [])), responses((status = 200, description = "Done; 2, 4, 700", body = Ack)))]
pub async fn cancel_share(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Body(req): Body<ShareRequest>,
) -> ApiResult<Done> {
    let whose = match (
        req.user_id,
        req.account.as_deref().filter(|a| !a.trim().is_empty()),
    ) {
        (Some(user), _) => ShareTarget::User(UserId(user)),
        (None, Some(account)) => ShareTarget::Account(account),
        (None, None) => ShareTarget::Own,
    };
    let files = app.files();
    service::plants::cancel_share(&app.store, files, &me.actor, plant_id(&id)?, whose).await?;
    Ok(Done)
}

/// Someone a plant is shared with.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShareUser {
    pub user_id: i64,
    pub account: String,
    pub nickname: String,
    /// `visitor` or `maintainer`.
    pub role: String,
    pub create_at: String,
}

/// Who the plant is shared with (its creator only).
#[utoipa::path(get, path = "/api/v1/plant/{id}/getShareUsers", tag = "plants", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "The sharees; 2, 700", body = Envelope<Vec<ShareUser>>)))]
pub async fn share_users(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<Vec<ShareUser>>> {
    let (plant, _) = visible(&app, &me, &id).await?;
    me.actor
        .require_on_plant(&plant.scope(), domain::permissions::STATION_SHARE)?;
    let shares = app.store.plant_shares(plant.id).await?;
    Ok(Data(
        shares
            .iter()
            .map(|s| ShareUser {
                user_id: s.user_id.0,
                account: s.account.clone(),
                nickname: s.nickname.clone(),
                role: s.role.clone(),
                create_at: create_at(s.created_at),
            })
            .collect(),
    ))
}

/// Gives the plant to another account (`?account=` or in the body). The previous owner loses
/// access; not to oneself (704), unknown accounts 105.
#[utoipa::path(post, path = "/api/v1/plant/{id}/transfer", tag = "plants", params(("id" = i64, Path), ShareRequest),
    request_body = Option<ShareRequest>, security(("bearer" = [])), responses((status = 200, description = "Done; 2, 105, 700, 704", body = Ack)))]
pub async fn transfer(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<ShareRequest>,
    Body(body): Body<ShareRequest>,
) -> ApiResult<Done> {
    let account = q
        .account
        .as_deref()
        .or(body.account.as_deref())
        .unwrap_or("");
    service::plants::transfer(&app.store, &me.actor, plant_id(&id)?, account, now_ms()).await?;
    Ok(Done)
}

/// Deletes the plant with its tariff, shares and pictures.
#[utoipa::path(post, path = "/api/v1/plant/{id}/delete", tag = "plants", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Done; 2, 700", body = Ack)))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Done> {
    let plant = service::plants::delete(&app.store, &me.actor, plant_id(&id)?).await?;
    files::remove(&app, &plant.image_url).await;
    files::remove(&app, &plant.thumb_url).await;
    Ok(Done)
}
