//! Inverter upgrades: one (`/inverter/{sn}/upgrade?firmId=`), a batch
//! (`/inverter/batchUpgrade`), progress and cancel (`cutUpgrade`). Each needs
//! `inverter.upgrade` on the inverter's plant (maintainers have it, visitors do not).

use axum::extract::{Path, State};
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::{
    BATCH_MAX, Target, batch_json,
    gateway::ForceQuery,
    new_batch_id, outcome_json, progress_json,
    wire::{Upgrade, UpgradeBatch, UpgradeCancel},
};
use crate::{
    AppState,
    commands::require_on,
    envelope::{ApiResult, Data, Envelope},
    extract::{Body, Query, num},
    inverters,
    session::CurrentUser,
};
use domain::DomainError;

async fn start_one(
    app: &AppState,
    me: &CurrentUser,
    batch_id: &str,
    sn: &str,
    firm_id: Option<i64>,
    force: bool,
) -> ApiResult<store::upgrades::UpgradeRow> {
    let inv = inverters::visible(app, me, sn).await?;
    require_on(me, &inv, domain::permissions::INVERTER_UPGRADE)?;
    super::start(
        app,
        me,
        batch_id,
        Target::Inverter(&inv.row),
        firm_id,
        force,
    )
    .await
}

/// Upgrades one inverter with firmware `firmId` (enabled for its type). Answers the upgrade,
/// `queued` when its gateway is busy with another upgrade; poll `/upgrade/progress`.
#[utoipa::path(post, path = "/api/v1/inverter/{sn}/upgrade", tag = "upgrades",
    params(("sn" = String, Path), ("firmId" = i64, Query),
        ("force" = Option<bool>, Query, description = "true: skip the 4001 warning")),
    security(("bearer" = [])),
    responses((status = 200, description = "The upgrade (state queued while its gateway upgrades another device); 2, 4 firmId, 600, 602 offline, 603 upgrading or queued, 604 state forbids, 606 connection failed, 4001 already on this version or newer (a warning: repeat with force=true)", body = Envelope<Upgrade>)))]
pub async fn upgrade(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<ForceQuery>,
) -> ApiResult<Data<Upgrade>> {
    let row = start_one(&app, &me, &new_batch_id(), &sn, q.firm_id, q.force()).await?;
    Ok(Data(progress_json(&row)))
}

/// The body of an inverter batch upgrade.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InverterBatch {
    /// Inverter SNs, 1 to 200 (one comma-separated string is read too).
    #[serde(default)]
    #[schema(value_type = Option<Vec<String>>, min_items = 1, max_items = 200)]
    pub sns: Option<Value>,
    /// The inverter firmware to install.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub firm_id: Option<i64>,
}

/// The SNs of a batch body: a list of strings or a comma-separated string; duplicates dropped.
pub(crate) fn sn_list(raw: Option<&Value>) -> Result<Vec<String>, DomainError> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |s: &str| {
        let s = s.trim();
        if !s.is_empty() && !out.iter().any(|o| o == s) {
            out.push(s.to_string());
        }
    };
    match raw {
        Some(Value::Array(items)) => {
            for item in items {
                match item {
                    Value::String(s) => push(s),
                    Value::Number(n) => push(&n.to_string()),
                    _ => return Err(DomainError::invalid("sns")),
                }
            }
        }
        Some(Value::String(s)) => s.split(',').for_each(&mut push),
        _ => return Err(DomainError::invalid("sns")),
    }
    if out.is_empty() || out.len() > BATCH_MAX {
        return Err(DomainError::invalid("sns"));
    }
    Ok(out)
}

/// Upgrades several inverters with one firmware. Each is checked on its own; the answer gives
/// totals (sent, refused) and each one's outcome with the reason of a refusal. Inverters behind
/// one gateway are upgraded one at a time: the first is sent, the others wait `queued`. Follow
/// the run with `GET /api/v1/upgrade/batch/{batchId}`.
#[utoipa::path(post, path = "/api/v1/inverter/batchUpgrade", tag = "upgrades",
    security(("bearer" = [])), request_body = InverterBatch,
    params(("force" = Option<bool>, Query, description = "true: skip the per-inverter 4001 warning")),
    responses((status = 200, description = "Totals and each inverter's outcome (4001 for one already on this version or newer); 4 sns", body = Envelope<UpgradeBatch>)))]
pub async fn batch(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ForceQuery>,
    Body(body): Body<InverterBatch>,
) -> ApiResult<Data<UpgradeBatch>> {
    me.actor.require(domain::permissions::INVERTER_VIEW)?;
    let sns = sn_list(body.sns.as_ref())?;
    let batch_id = new_batch_id();
    let mut results = Vec::with_capacity(sns.len());
    for sn in &sns {
        let outcome = start_one(&app, &me, &batch_id, sn, body.firm_id, q.force()).await;
        results.push(outcome_json(sn, &outcome));
    }
    Ok(Data(batch_json(&batch_id, results)))
}

/// The inverter's latest upgrade (`null` when it never had one).
#[utoipa::path(get, path = "/api/v1/inverter/{sn}/upgrade/progress", tag = "upgrades",
    params(("sn" = String, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The upgrade or null; 600", body = Envelope<Option<Upgrade>>)))]
pub async fn progress(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<Option<Upgrade>>> {
    let inv = inverters::visible(&app, &me, &sn).await?;
    Ok(Data(match app.store.latest_upgrade(&inv.row.sn).await? {
        Some(row) => Some(progress_json(&super::refresh(&app, row).await?)),
        None => None,
    }))
}

/// Takes the inverter's queued upgrade out of its gateway's queue (it ends cancelled at once),
/// or asks the inverter to stop its running upgrade; refused (608) where the device cannot.
#[utoipa::path(post, path = "/api/v1/inverter/{sn}/cutUpgrade", tag = "upgrades",
    params(("sn" = String, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The upgrade (cancelled when it was queued) and the request sent; 2, 4 no upgrade in progress, 600, 602, 606, 608 cancel not supported", body = Envelope<UpgradeCancel>)))]
pub async fn cancel(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<UpgradeCancel>> {
    let inv = inverters::visible(&app, &me, &sn).await?;
    require_on(&me, &inv, domain::permissions::INVERTER_UPGRADE)?;
    let row = super::cancel(&app, &me, super::CancelTarget::inverter(&inv.row)).await?;
    Ok(Data(UpgradeCancel {
        upgrade: progress_json(&row),
        cancel_requested: true,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn batch_sns_come_as_a_list_or_a_comma_separated_string() {
        assert_eq!(
            sn_list(Some(&json!(["A1", " A2", "A1"]))).unwrap(),
            ["A1", "A2"]
        );
        assert_eq!(sn_list(Some(&json!("A1,A2,,"))).unwrap(), ["A1", "A2"]);
        assert!(sn_list(Some(&json!([]))).is_err());
        assert!(sn_list(None).is_err());
        assert!(sn_list(Some(&json!([{"sn": 1}]))).is_err());
    }
}
