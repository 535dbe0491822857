//! The devices of one plant with their statuses, for the overview's device list (every family
//! in one answer; the device screens have their own paged lists).

use super::{PlantCtx, wire::PlantDevice};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    inverters::values::switched_on,
    plants::update_at,
    readings::Reading,
    session::CurrentUser,
};
use axum::extract::{Path, State};
use domain::DeviceFamily;
use domain::ids::DeviceId;

/// Every device of a plant: `[{id, sn, family, alias, model, type, status, parentSn,
/// updateAt, stale, powerOn}]`, inverters first; `updateAt` is when it last reported (null if
/// never), `stale` whether that is past its offline bound (or it never reported), `powerOn`
/// whether an inverter reports itself switched on (null for other devices and before the
/// first report).
#[utoipa::path(get, path = "/api/v1/plant/{id}/devices", tag = "monitoring",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The devices; 700", body = Envelope<Vec<PlantDevice>>)))]
pub async fn plant_devices(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<Vec<PlantDevice>>> {
    let ctx = PlantCtx::load(&app, &me, &id).await?;
    let cycles = super::live::Cycles::of_plant(&app, ctx.plant.id).await?;
    let now = domain::time::now_ms();
    let order = |family: DeviceFamily| match family {
        DeviceFamily::Inverter => 0,
        DeviceFamily::Battery => 1,
        DeviceFamily::Meter => 2,
        _ => 3,
    };
    // An inverter's power state as it last reported it (null before its first report).
    let samples = app.store.plant_latest_samples(ctx.plant.id).await?;
    let power_on = |id: DeviceId| {
        samples
            .iter()
            .find(|s| s.device_id == id)
            .map(|s| switched_on(&Reading::from_sample(s.ts, &s.payload)))
    };
    let mut devices: Vec<_> = ctx.devices.iter().collect();
    devices.sort_by(|a, b| {
        order(a.family)
            .cmp(&order(b.family))
            .then_with(|| a.sn.cmp(&b.sn))
    });
    Ok(Data(
        devices
            .iter()
            .map(|d| PlantDevice {
                id: d.id.0,
                sn: d.sn.clone(),
                family: d.family,
                alias: d.alias.clone(),
                model: d.model.clone(),
                kind: d.type_code,
                status: d.status,
                parent_sn: d.parent_sn.clone(),
                update_at: d.last_seen.map(update_at),
                stale: cycles.stale(d.gateway_id, d.last_seen, now),
                power_on: (d.family == DeviceFamily::Inverter)
                    .then(|| power_on(d.id))
                    .flatten(),
            })
            .collect(),
    ))
}
