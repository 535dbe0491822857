//! The devices of one plant with their statuses, for the overview's device list (every family
//! in one answer; the device screens have their own paged lists).

use axum::extract::{Path, State};
use serde_json::{Value, json};

use super::PlantCtx;
use crate::{
    AppState,
    envelope::{ApiResult, Data},
    plants::update_at,
    session::CurrentUser,
};

/// Every device of a plant: `[{id, sn, family, alias, model, type, status, parentSn,
/// updateAt}]`, inverters first; `updateAt` is when it last reported (null if never).
#[utoipa::path(get, path = "/api/v1/plant/{id}/devices", tag = "monitoring",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with [{id, sn, family, alias, model, type, status, parentSn, updateAt}]; 700")))]
pub async fn plant_devices(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<Value>> {
    let ctx = PlantCtx::load(&app, &me, &id).await?;
    let order = |family: &str| match family {
        super::INVERTER => 0,
        super::BATTERY => 1,
        super::METER => 2,
        _ => 3,
    };
    let mut devices: Vec<_> = ctx.devices.iter().collect();
    devices.sort_by(|a, b| {
        order(&a.family)
            .cmp(&order(&b.family))
            .then_with(|| a.sn.cmp(&b.sn))
    });
    Ok(Data(Value::Array(
        devices
            .iter()
            .map(|d| {
                json!({
                    "id": d.id, "sn": d.sn, "family": d.family, "alias": d.alias,
                    "model": d.model, "type": d.type_code, "status": d.status,
                    "parentSn": d.parent_sn, "updateAt": d.last_seen.map(update_at),
                })
            })
            .collect(),
    )))
}
