//! Internal administrators disabling or enabling an owner account (the rules are in
//! `service::owners`).

use axum::extract::State;
use domain::{DomainError, ids::UserId};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    envelope::{Ack, ApiResult, Done},
    extract::{Body, PathId, num},
    session::CurrentUser,
};
use domain::time::now_ms;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(disable))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct OwnerDisableRequest {
    #[serde(deserialize_with = "num::opt_bool")]
    pub disabled: Option<bool>,
}

/// Disables or enables an owner account (internal staff with `customer.edit`): a disabled
/// account gets 101 at sign-in and its sessions end at once; enabling revives none. Audited.
#[utoipa::path(post, path = "/api/v1/owner/{id}/disable", tag = "users", request_body = OwnerDisableRequest,
    params(("id" = i64, Path, description = "the owner's user id")), security(("bearer" = [])),
    responses((status = 200, description = "Saved; 2, 4", body = Ack)))]
pub async fn disable(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<UserId>,
    Body(req): Body<OwnerDisableRequest>,
) -> ApiResult<Done> {
    let disabled = req.disabled.ok_or(DomainError::invalid("disabled"))?;
    service::owners::set_disabled(&app.store, &me.actor, id, disabled, now_ms()).await?;
    Ok(Done)
}
