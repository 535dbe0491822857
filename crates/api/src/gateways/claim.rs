//! Claiming a gateway with its SN and registration key: the check, the import of one gateway
//! (into the caller's stock or onto a plant) and the plant wizard's gateway step, each a call
//! of `service::gateways`. An unknown SN and a wrong key answer the same 300, so the answer
//! never tells which SNs exist.

use axum::extract::{Path, State};
use domain::{Code, ids::PlantId};
use serde::Deserialize;
use store::plants::PlantRow;
use utoipa::ToSchema;

use super::{parse_key, parse_sn, require_any};
use crate::{
    AppState,
    envelope::{Ack, ApiResult, Done},
    extract::{Body, num},
    session::CurrentUser,
    users::path_id,
};
use domain::time::now_ms;

/// The role keys that let a caller claim gateways one at a time.
pub(crate) const CLAIM_KEYS: [&str; 2] = [
    domain::permissions::GATEWAY_ADD,
    domain::permissions::GATEWAY_IMPORT,
];

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClaimRequest {
    #[serde(default, alias = "gsn", deserialize_with = "num::opt_text")]
    pub sn: Option<String>,
    /// Registration key printed on the gateway.
    #[serde(default, alias = "regKey", deserialize_with = "num::opt_text")]
    pub key: Option<String>,
    /// Plant to bind the gateway to; without it the gateway goes to the caller's stock.
    #[serde(default, alias = "stationId", deserialize_with = "num::opt_i64")]
    pub plant_id: Option<i64>,
}

/// A plant the caller may put gateways on: 700 when they cannot see it (or the id is not a
/// number), 2 when they may not change it.
pub(crate) async fn target_plant(
    app: &AppState,
    me: &CurrentUser,
    id: &str,
) -> ApiResult<PlantRow> {
    let id = path_id(id).map_err(|_| Code::PlantMissing)?;
    Ok(service::gateways::target_plant(&app.store, &me.actor, PlantId(id)).await?)
}

/// Whether an SN and key may be imported: 0 yes, 300 SN or key wrong, 301 already in use.
#[utoipa::path(post, path = "/api/v1/gateway/import/one/check", tag = "gateways", request_body = ClaimRequest,
    security(("bearer" = [])), responses((status = 200, description = "May be imported; 2, 4, 300, 301, 700", body = Ack)))]
pub async fn check_one(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<ClaimRequest>,
) -> ApiResult<Done> {
    require_any(&me, &CLAIM_KEYS)?;
    let sn = parse_sn(req.sn.as_deref())?;
    let key = parse_key(req.key.as_deref())?;
    let plant = match req.plant_id {
        Some(id) => Some(target_plant(&app, &me, &id.to_string()).await?),
        None => None,
    };
    service::gateways::checked_claim(&app.store, &me.actor, &sn, &key, plant.as_ref()).await?;
    Ok(Done)
}

/// Imports (claims) one gateway: onto `plantId` when given, otherwise into the caller's stock.
#[utoipa::path(post, path = "/api/v1/gateway/import/one", tag = "gateways", request_body = ClaimRequest,
    security(("bearer" = [])), responses((status = 200, description = "Imported; 2, 4, 300, 301, 700", body = Ack)))]
pub async fn import_one(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<ClaimRequest>,
) -> ApiResult<Done> {
    require_any(&me, &CLAIM_KEYS)?;
    me.actor.require_writable()?;
    let sn = parse_sn(req.sn.as_deref())?;
    let key = parse_key(req.key.as_deref())?;
    let plant = match req.plant_id {
        Some(id) => Some(target_plant(&app, &me, &id.to_string()).await?),
        None => None,
    };
    service::gateways::claim(&app.store, &me.actor, &sn, &key, plant.as_ref(), now_ms()).await?;
    Ok(Done)
}

/// The plant wizard's gateway step (and the edit screen's): binds a gateway to the plant.
#[utoipa::path(post, path = "/api/v1/plant/{id}/gateway", tag = "gateways", request_body = ClaimRequest,
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Bound; 2, 4, 300, 301, 700", body = Ack)))]
pub async fn bind_to_plant(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Body(req): Body<ClaimRequest>,
) -> ApiResult<Done> {
    me.actor.require_writable()?;
    let plant = target_plant(&app, &me, &id).await?;
    let sn = parse_sn(req.sn.as_deref())?;
    let key = parse_key(req.key.as_deref())?;
    service::gateways::claim(&app.store, &me.actor, &sn, &key, Some(&plant), now_ms()).await?;
    Ok(Done)
}
