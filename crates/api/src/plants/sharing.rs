//! Sharing a plant with visitors and maintainers, transferring it, and deleting it.

use axum::extract::{Path, State};
use domain::{
    Code, DomainError,
    account::Account,
    ids::UserId,
    policy::{PlantAccess, ShareRole},
    user::UserKind,
};
use serde::Deserialize;
use serde_json::{Value, json};
use store::users::UserRow;
use utoipa::{IntoParams, ToSchema};

use super::visible;
use crate::{
    AppState,
    envelope::{ApiResult, Data, Done},
    extract::{Body, Query, num},
    files, now_ms,
    session::CurrentUser,
    users::create_at,
};

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

async fn account_user(app: &AppState, raw: Option<&str>) -> ApiResult<UserRow> {
    let account = Account::parse(raw.unwrap_or("")).map_err(|_| DomainError::invalid("account"))?;
    Ok(app
        .store
        .user_by_account(account.as_str())
        .await?
        .ok_or(Code::NotRegistered)?)
}

/// Shares a plant. Only its creator may (2); not with oneself (701), not with company or
/// internal accounts (702), never a company's plant (703); unknown accounts answer 105.
#[utoipa::path(post, path = "/api/v1/plant/{id}/share", tag = "plants", request_body = ShareRequest,
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Envelope; 2, 4, 105, 700, 701, 702, 703")))]
pub async fn share(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Body(req): Body<ShareRequest>,
) -> ApiResult<Done> {
    let (plant, _) = visible(&app, &me, &id).await?;
    me.actor.require_on_plant(&plant.scope(), "station.share")?;
    if plant.company_id.is_some() {
        return Err(Code::ShareCompanyPlant.into());
    }
    let role = ShareRole::parse(req.role.as_deref().unwrap_or("visitor"))
        .ok_or_else(|| DomainError::invalid("role"))?;
    let target = account_user(&app, req.account.as_deref()).await?;
    if target.id == me.user.id {
        return Err(Code::ShareSelf.into());
    }
    if target.kind() != UserKind::Owner {
        return Err(Code::ShareCompanyUser.into());
    }
    app.store
        .share_plant(plant.id, target.id(), role, now_ms())
        .await?;
    tracing::info!(
        plant = plant.id,
        with = target.id,
        role = role.as_str(),
        "plant shared"
    );
    Ok(Done)
}

/// Ends a share: the creator ends anyone's, a sharee ends their own.
#[utoipa::path(post, path = "/api/v1/plant/{id}/cancelShare", tag = "plants", request_body = ShareRequest,
    params(("id" = i64, Path)), security(("bearer" = [])), responses((status = 200, description = "Envelope; 2, 4, 700")))]
pub async fn cancel_share(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Body(req): Body<ShareRequest>,
) -> ApiResult<Done> {
    let (plant, access) = visible(&app, &me, &id).await?;
    let target = match (
        req.user_id,
        req.account.as_deref().filter(|a| !a.trim().is_empty()),
    ) {
        (Some(user), _) => UserId(user),
        (None, Some(account)) => account_user(&app, Some(account)).await?.id(),
        (None, None) => me.id(),
    };
    let own_share =
        target == me.id() && matches!(access, PlantAccess::Visitor | PlantAccess::Maintainer);
    if !own_share {
        me.actor.require_on_plant(&plant.scope(), "station.share")?;
    }
    if !app.store.unshare_plant(plant.id, target).await? {
        return Err(DomainError::invalid("userId").into());
    }
    Ok(Done)
}

/// Who the plant is shared with (its creator only).
#[utoipa::path(get, path = "/api/v1/plant/{id}/getShareUsers", tag = "plants", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Envelope with [{userId, account, nickname, role, createAt}]; 2, 700")))]
pub async fn share_users(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<Vec<Value>>> {
    let (plant, _) = visible(&app, &me, &id).await?;
    me.actor.require_on_plant(&plant.scope(), "station.share")?;
    let shares = app.store.plant_shares(plant.id).await?;
    Ok(Data(
        shares
            .iter()
            .map(|s| json!({"userId": s.user_id, "account": s.account, "nickname": s.nickname, "role": s.role, "createAt": create_at(s.created_at)}))
            .collect(),
    ))
}

/// Gives the plant to another account (`?account=` or in the body). The previous owner loses
/// access; not to oneself (704), unknown accounts 105.
#[utoipa::path(post, path = "/api/v1/plant/{id}/transfer", tag = "plants", params(("id" = i64, Path), ShareRequest),
    security(("bearer" = [])), responses((status = 200, description = "Envelope; 2, 105, 700, 704")))]
pub async fn transfer(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<ShareRequest>,
    Body(body): Body<ShareRequest>,
) -> ApiResult<Done> {
    let (plant, _) = visible(&app, &me, &id).await?;
    me.actor
        .require_on_plant(&plant.scope(), "station.transfer")?;
    let target = account_user(&app, q.account.as_deref().or(body.account.as_deref())).await?;
    if target.id == plant.owner_id {
        return Err(Code::TransferSelf.into());
    }
    let company = if target.kind() == UserKind::Company {
        target.company()
    } else {
        None
    };
    app.store
        .transfer_plant(plant.id, target.id(), company, now_ms())
        .await?;
    tracing::info!(
        plant = plant.id,
        from = plant.owner_id,
        to = target.id,
        "plant transferred"
    );
    Ok(Done)
}

/// Deletes the plant with its tariff, shares and pictures.
#[utoipa::path(post, path = "/api/v1/plant/{id}/delete", tag = "plants", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Envelope; 2, 700")))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Done> {
    let (plant, _) = visible(&app, &me, &id).await?;
    me.actor
        .require_on_plant(&plant.scope(), "station.delete")?;
    app.store.delete_plant(plant.id).await?;
    files::remove(&app, &plant.image_url).await;
    files::remove(&app, &plant.thumb_url).await;
    tracing::info!(plant = plant.id, by = %me.id(), "plant deleted");
    Ok(Done)
}
