//! Claiming a gateway with its SN and registration key: the check, the import of one gateway
//! (into the caller's stock or onto a plant) and the plant wizard's gateway step. An unknown SN
//! and a wrong key answer the same 300, so the answer never tells which SNs exist.

use axum::extract::{Path, State};
use domain::Code;
use serde::Deserialize;
use store::{
    gateways::{GatewayRow, Holder},
    plants::PlantRow,
};
use utoipa::ToSchema;

use super::{own_company, parse_key, parse_sn, require_any, same_key, scope_of};
use crate::{
    AppState,
    envelope::{ApiResult, Done},
    extract::{Body, num},
    now_ms,
    session::CurrentUser,
};

/// The role keys that let a caller claim gateways one at a time.
pub(crate) const CLAIM_KEYS: [&str; 2] = ["gateway.add", "gateway.import"];
/// The plant keys that let a caller put a gateway on a plant.
pub(crate) const PLANT_KEYS: [&str; 2] = ["station.edit", "gateway.add"];

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

/// A plant the caller may put gateways on: 700 when they cannot see it, 2 when they may not
/// change it.
pub(crate) async fn target_plant(
    app: &AppState,
    me: &CurrentUser,
    id: &str,
) -> ApiResult<PlantRow> {
    let (plant, _) = crate::plants::visible(app, me, id).await?;
    me.actor.require_any_on_plant(&plant.scope(), &PLANT_KEYS)?;
    Ok(plant)
}

/// The gateway an SN and key name, if the caller may take it to `plant` (or to their stock):
/// 300 for an unknown SN or a wrong key alike, 301 when it is in use.
pub(crate) async fn checked(
    app: &AppState,
    me: &CurrentUser,
    sn: &str,
    key: &str,
    plant: Option<&PlantRow>,
) -> ApiResult<GatewayRow> {
    let g = match app.store.gateway_by_sn(sn).await? {
        Some(g) if same_key(&g.reg_key, key) => g,
        _ => return Err(Code::GatewayKeyWrong.into()),
    };
    if plant.is_some_and(|p| g.plant_id == Some(p.id)) {
        return Ok(g);
    }
    let (scope, _) = scope_of(app, me, &g).await?;
    if !me.actor.can_take_gateway(&scope) {
        return Err(Code::GatewayUsed.into());
    }
    Ok(g)
}

/// Gives a checked gateway (and its devices) to the plant, or to the caller's stock. Binding a
/// gateway to the plant it is already on changes nothing.
pub(crate) async fn take(
    app: &AppState,
    me: &CurrentUser,
    g: &GatewayRow,
    plant: Option<&PlantRow>,
) -> ApiResult<()> {
    if plant.is_some_and(|p| g.plant_id == Some(p.id)) {
        return Ok(());
    }
    let company = own_company(me).map(|c| c.0);
    let holder = match plant {
        Some(p) => Holder {
            plant: Some(p.id),
            owner: p.owner_id,
            company: p.company_id,
        },
        None => Holder {
            plant: None,
            owner: me.user.id,
            company,
        },
    };
    if !app
        .store
        .take_gateway(g.id, &holder, (me.user.id, company), now_ms())
        .await?
    {
        return Err(Code::GatewayUsed.into());
    }
    tracing::info!(gateway = g.id, sn = %g.sn, plant = ?holder.plant, by = %me.id(), "gateway claimed");
    Ok(())
}

/// Whether an SN and key may be imported: 0 yes, 300 SN or key wrong, 301 already in use.
#[utoipa::path(post, path = "/api/v1/gateway/import/one/check", tag = "gateways", request_body = ClaimRequest,
    security(("bearer" = [])), responses((status = 200, description = "Envelope; 0, 2, 4, 300, 301, 700")))]
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
    checked(&app, &me, &sn, &key, plant.as_ref()).await?;
    Ok(Done)
}

/// Imports (claims) one gateway: onto `plantId` when given, otherwise into the caller's stock.
#[utoipa::path(post, path = "/api/v1/gateway/import/one", tag = "gateways", request_body = ClaimRequest,
    security(("bearer" = [])), responses((status = 200, description = "Envelope; 0, 2, 4, 300, 301, 700")))]
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
    let g = checked(&app, &me, &sn, &key, plant.as_ref()).await?;
    take(&app, &me, &g, plant.as_ref()).await?;
    Ok(Done)
}

/// The plant wizard's gateway step (and the edit screen's): binds a gateway to the plant.
#[utoipa::path(post, path = "/api/v1/plant/{id}/gateway", tag = "gateways", request_body = ClaimRequest,
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Envelope; 0, 2, 4, 300, 301, 700")))]
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
    let g = checked(&app, &me, &sn, &key, Some(&plant)).await?;
    take(&app, &me, &g, Some(&plant)).await?;
    Ok(Done)
}
