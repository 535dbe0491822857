//! The battery stacks a caller may see: the paged list with each stack's latest values, and
//! the counts per status.

use axum::extract::State;
use serde_json::{Map, Value, json};
use store::devices::DeviceListRow;

use super::{FAMILY, VIEW_KEY, counts, packs::packs_in, visible_masters};
use crate::{
    AppState,
    device_common::{DeviceListQuery, counts_json, items, opt_num, page_json},
    envelope::{ApiResult, Data},
    extract::Query,
    readings::{Reading, opt_text},
    session::CurrentUser,
};

/// The battery fields of a list item (and of `info`), from the latest report.
pub(super) fn battery_item(_: &DeviceListRow, r: Option<&Reading>, item: &mut Map<String, Value>) {
    let num = |k: &str| r.and_then(|r| r.num(k));
    item.insert("soc".into(), opt_text(num("soc")));
    item.insert("soh".into(), opt_text(num("soh")));
    item.insert("voltage".into(), opt_text(num("voltage")));
    item.insert("current".into(), opt_text(num("current")));
    item.insert("power".into(), opt_num(num("power")));
    item.insert("temp".into(), opt_text(num("temperature_max")));
    item.insert("capacity".into(), opt_text(num("capacity_full")));
    item.insert("cycles".into(), json!(num("cycles").map(|c| c as i64)));
    let packs = r.map_or(0, |r| packs_in(r).len());
    item.insert("packCount".into(), json!(packs));
}

/// The battery stacks (masters) the caller may see, paged, with their latest values.
#[utoipa::path(get, path = "/api/v1/batteries", tag = "batteries", params(DeviceListQuery), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {pageSize, pageNumber, total, infos:[{id, sn, alias, devName, status, online, model, parentSn (the inverter), versions, plantId, plantName, plant, gsn, gatewayVO, updateAt, createAt, soc, soh, voltage, current, temp, capacity (numeric strings), power (W, number), cycles, packCount (integers)}]}; 2")))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<DeviceListQuery>,
) -> ApiResult<Data<Value>> {
    me.actor.require(VIEW_KEY)?;
    let (limit, page) = q.paging();
    let sn = q.sn().map(|s| s.to_uppercase());
    let status = q.status();
    let gsn = q.filter(FAMILY).gateway_sn;
    let rows: Vec<DeviceListRow> = visible_masters(&app, &me, q.plant_id.filter(|p| *p > 0))
        .await?
        .into_iter()
        .filter(|d| status.is_none_or(|s| d.status == s))
        .filter(|d| sn.as_ref().is_none_or(|s| d.sn.to_uppercase().contains(s)))
        .filter(|d| gsn.is_none() || d.gateway_sn == gsn)
        .collect();
    let total = rows.len();
    let shown = rows
        .iter()
        .skip(((page - 1) * limit) as usize)
        .take(limit as usize);
    let infos = items(&app, &me, shown, battery_item).await?;
    Ok(Data(page_json(limit, page, total, infos)))
}

/// How many battery stacks the caller may see, per status.
#[utoipa::path(get, path = "/api/v1/batteries/count", tag = "batteries", security(("bearer" = [])),
    params(("plantId" = Option<i64>, Query, description = "only this plant's batteries")),
    responses((status = 200, description = "Envelope with {total, normal, offline, warning, fault, upgrading} (integers); 2")))]
pub async fn count(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<DeviceListQuery>,
) -> ApiResult<Data<Value>> {
    me.actor.require(VIEW_KEY)?;
    let rows = visible_masters(&app, &me, q.plant_id.filter(|p| *p > 0)).await?;
    Ok(Data(counts_json(&counts(&rows))))
}
