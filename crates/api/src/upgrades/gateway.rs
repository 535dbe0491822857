//! Gateway upgrades: one (`/gateway/{id}/upgrade?firmId=`) or a batch (`/batch/upgrade`),
//! progress, and cancel. Each change needs `gateway.upgrade` on the gateway's plant, or the role
//! key for a gateway in the caller's stock.

use axum::extract::{Path, State};
use serde::Deserialize;
use serde_json::Value;
use store::upgrades::UpgradeRow;
use utoipa::ToSchema;

use super::{
    CancelTarget, Target, batch_json, new_batch_id, outcome_json, progress_json,
    wire::{Upgrade, UpgradeBatch, UpgradeCancel},
};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    extract::{Body, Query, num},
    gateways,
    session::CurrentUser,
    upgrades::inverter::sn_list,
};

/// The gateway `id` (or SN), when the caller may upgrade it: `gateway.upgrade` on its plant,
/// or the role key for one in the caller's stock.
async fn upgradable(
    app: &AppState,
    me: &CurrentUser,
    id: &str,
) -> ApiResult<store::gateways::GatewayRow> {
    me.actor.require_writable()?;
    let (g, scope, _) = gateways::visible(app, me, id).await?;
    match &scope.plant {
        Some(plant) => {
            me.actor
                .require_on_plant(plant, domain::permissions::GATEWAY_UPGRADE)?;
        }
        None => me.actor.require(domain::permissions::GATEWAY_UPGRADE)?,
    }
    Ok(g)
}

async fn start_one(
    app: &AppState,
    me: &CurrentUser,
    batch_id: &str,
    id: &str,
    firm_id: Option<i64>,
    force: bool,
) -> ApiResult<UpgradeRow> {
    let g = upgradable(app, me, id).await?;
    super::start(app, me, batch_id, Target::Gateway(&g), firm_id, force).await
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ForceQuery {
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub firm_id: Option<i64>,
    /// `true`: upgrade even when the device already runs this version or a newer one.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub force: Option<String>,
}

impl ForceQuery {
    pub(crate) fn force(&self) -> bool {
        matches!(self.force.as_deref(), Some("true" | "1"))
    }
}

/// Upgrades one gateway (by id or SN) with gateway firmware `firmId`; `queued` while an
/// upgrade of one of its devices runs.
#[utoipa::path(post, path = "/api/v1/gateway/{id}/upgrade", tag = "upgrades",
    params(("id" = String, Path, description = "id or SN"), ("firmId" = i64, Query),
        ("force" = Option<bool>, Query, description = "true: skip the 4001 warning")),
    security(("bearer" = [])),
    responses((status = 200, description = "The upgrade (state queued while it upgrades one of its devices); 2, 4 firmId, 305, 602 offline, 603 upgrading or queued, 606, 4001 already on this version or newer (a warning: repeat with force=true)", body = Envelope<Upgrade>)))]
pub async fn upgrade(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<ForceQuery>,
) -> ApiResult<Data<Upgrade>> {
    let row = start_one(&app, &me, &new_batch_id(), &id, q.firm_id, q.force()).await?;
    Ok(Data(progress_json(&row)))
}

/// The body of a gateway batch upgrade.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GatewayBatch {
    /// Gateway ids or SNs, 1 to 200 (a comma-separated string is read too); `gsns` when absent.
    #[serde(default)]
    #[schema(value_type = Option<Vec<String>>, min_items = 1, max_items = 200)]
    pub ids: Option<Value>,
    /// As `ids`, read when `ids` is absent.
    #[serde(default)]
    #[schema(value_type = Option<Vec<String>>, min_items = 1, max_items = 200)]
    pub gsns: Option<Value>,
    /// The gateway firmware to install.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub firm_id: Option<i64>,
}

/// Upgrades several gateways with one firmware; totals and each one's outcome.
#[utoipa::path(post, path = "/api/v1/batch/upgrade", tag = "upgrades",
    security(("bearer" = [])), request_body = GatewayBatch,
    params(("force" = Option<bool>, Query, description = "true: skip the per-gateway 4001 warning")),
    responses((status = 200, description = "Totals and each gateway's outcome (4001 for one already on this version or newer); 4 ids", body = Envelope<UpgradeBatch>)))]
pub async fn batch(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ForceQuery>,
    Body(body): Body<GatewayBatch>,
) -> ApiResult<Data<UpgradeBatch>> {
    let ids = sn_list(body.ids.as_ref().or(body.gsns.as_ref()))
        .map_err(|_| domain::DomainError::invalid("ids"))?;
    let batch_id = new_batch_id();
    let mut results = Vec::with_capacity(ids.len());
    for id in &ids {
        let outcome = start_one(&app, &me, &batch_id, id, body.firm_id, q.force()).await;
        let sn = outcome
            .as_ref()
            .map_or(id.as_str(), |u| u.device_sn.as_str());
        results.push(outcome_json(sn, &outcome));
    }
    Ok(Data(batch_json(&batch_id, results)))
}

/// The gateway's latest upgrade (`null` when it never had one).
#[utoipa::path(get, path = "/api/v1/gateway/{id}/upgrade/progress", tag = "upgrades",
    params(("id" = String, Path, description = "id or SN")), security(("bearer" = [])),
    responses((status = 200, description = "The upgrade or null; 305", body = Envelope<Option<Upgrade>>)))]
pub async fn progress(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<Option<Upgrade>>> {
    let (g, _, _) = gateways::visible(&app, &me, &id).await?;
    Ok(Data(match app.store.latest_upgrade(&g.sn).await? {
        Some(row) => Some(progress_json(&super::refresh(&app, row).await?)),
        None => None,
    }))
}

/// Takes the gateway's queued upgrade of its own firmware out of its queue (it ends cancelled
/// at once), or asks the gateway to stop its running upgrade; refused (608) where it cannot.
/// The rights of starting one (`gateway.upgrade`).
#[utoipa::path(post, path = "/api/v1/gateway/{id}/cutUpgrade", tag = "upgrades",
    params(("id" = String, Path, description = "id or SN")), security(("bearer" = [])),
    responses((status = 200, description = "The upgrade (cancelled when it was queued) and the request sent; 2, 4 no upgrade in progress, 305, 602, 606, 608 cancel not supported", body = Envelope<UpgradeCancel>)))]
pub async fn cancel(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<UpgradeCancel>> {
    let g = upgradable(&app, &me, &id).await?;
    let row = super::cancel(&app, &me, CancelTarget::gateway(&g.sn)).await?;
    Ok(Data(UpgradeCancel {
        upgrade: progress_json(&row),
        cancel_requested: true,
    }))
}
