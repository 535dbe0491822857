//! The battery stacks a caller may see: the paged list with each stack's latest values, and
//! the counts per status.

use axum::extract::State;
use domain::ids::PlantId;
use serde::Serialize;
use store::devices::DeviceListRow;
use utoipa::ToSchema;

use super::{FAMILY, VIEW_KEY, counts, packs::packs_in, visible_masters};
use crate::{
    AppState,
    device_common::{DeviceCounts, DeviceItem, DeviceListQuery, Live, items, opt_round},
    envelope::{ApiResult, Data, Envelope},
    extract::Query,
    paging::{Page, Paging},
    readings::{Reading, opt_string},
    session::CurrentUser,
};

/// A battery stack of the list (and the base of `info`): the common device fields and its
/// latest values (numeric strings unless said otherwise, `null` when not reported).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatteryItem {
    #[serde(flatten)]
    pub device: DeviceItem,
    #[serde(flatten)]
    pub live: Live,
    /// %.
    pub soc: Option<String>,
    /// %.
    pub soh: Option<String>,
    /// V.
    pub voltage: Option<String>,
    /// A.
    pub current: Option<String>,
    /// W, a number.
    pub power: Option<f64>,
    /// The highest temperature, °C.
    pub temp: Option<String>,
    /// Ah.
    pub capacity: Option<String>,
    pub cycles: Option<i64>,
    pub pack_count: i64,
}

/// The battery fields of a list item (and of `info`), from the latest report.
pub(super) fn battery_item(
    _: &DeviceListRow,
    r: Option<&Reading>,
    device: DeviceItem,
    live: Live,
) -> BatteryItem {
    let num = |k: &str| r.and_then(|r| r.num(k));
    BatteryItem {
        device,
        live,
        soc: opt_string(num("soc")),
        soh: opt_string(num("soh")),
        voltage: opt_string(num("voltage")),
        current: opt_string(num("current")),
        power: opt_round(num("power")),
        temp: opt_string(num("temperature_max")),
        capacity: opt_string(num("capacity_full")),
        cycles: num("cycles").map(|c| c as i64),
        pack_count: r.map_or(0, |r| packs_in(r).len()) as i64,
    }
}

/// The battery stacks (masters) the caller may see, paged, with their latest values.
#[utoipa::path(get, path = "/api/v1/batteries", tag = "batteries", params(DeviceListQuery), security(("bearer" = [])),
    responses((status = 200, description = "A page of battery stacks (`parentSn` the inverter); 2", body = Envelope<Page<BatteryItem>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<DeviceListQuery>,
) -> ApiResult<Data<Page<BatteryItem>>> {
    me.actor.require(VIEW_KEY)?;
    let (limit, page) = q.paging();
    let sn = q.sn().map(|s| s.to_uppercase());
    let status = q.status();
    let gsn = q.filter(FAMILY).gateway_sn;
    let rows: Vec<DeviceListRow> =
        visible_masters(&app, &me, q.plant_id.filter(|p| *p > 0).map(PlantId))
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
    Ok(Data(Page::new(
        Paging::new(page, limit),
        total as i64,
        infos,
    )))
}

/// How many battery stacks the caller may see, per status.
#[utoipa::path(get, path = "/api/v1/batteries/count", tag = "batteries", security(("bearer" = [])),
    params(("plantId" = Option<i64>, Query, description = "only this plant's batteries")),
    responses((status = 200, description = "Battery stacks per status; 2", body = Envelope<DeviceCounts>)))]
pub async fn count(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<DeviceListQuery>,
) -> ApiResult<Data<DeviceCounts>> {
    me.actor.require(VIEW_KEY)?;
    let rows = visible_masters(&app, &me, q.plant_id.filter(|p| *p > 0).map(PlantId)).await?;
    Ok(Data(DeviceCounts::from(&counts(&rows))))
}
