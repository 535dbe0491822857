//! A stack with the packs registered under it: the slave list and delete, which takes those
//! packs along.

use std::collections::HashSet;

use axum::extract::{Path, State};
use serde_json::{Value, json};

use super::{
    DELETE_KEY, FAMILY, VIEW_KEY,
    packs::{pack_device, pack_json, packs_in},
    packs_registered,
};
use crate::{
    AppState,
    device_common::{device, require_device_write},
    envelope::{ApiResult, Data, Done},
    readings,
    session::CurrentUser,
};

/// The packs of a battery stack: those in the master's report, then packs that report on
/// their own (battery devices whose parent is this master).
#[utoipa::path(get, path = "/api/v1/batteries/{id}/slave", tag = "batteries", params(("id" = String, Path, description = "the master's id or SN")), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {total, infos:[{no, sn, status, source (pack|device), soc, soh, voltage, current, temp, cellVoltMax, cellVoltMin (numeric strings or null), cycles (integer or null)}]}; 600")))]
pub async fn slaves(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<Value>> {
    me.actor.require(VIEW_KEY)?;
    let d = device(&app, &me, &id, FAMILY).await?;
    let r = readings::latest(&app, d.id).await?.unwrap_or_default();
    let packs = packs_in(&r);
    let mut infos: Vec<Value> = packs
        .iter()
        .map(|p| pack_json(p, d.status, "pack"))
        .collect();
    let listed: HashSet<&str> = packs.iter().map(|p| p.sn.as_str()).collect();
    let children = packs_registered(&app, &me, &d).await?;
    let mut no = packs.iter().map(|p| p.no).max().unwrap_or(0);
    for c in children
        .iter()
        .rev()
        .filter(|c| !listed.contains(c.sn.as_str()))
    {
        no += 1;
        let latest = readings::latest(&app, c.id).await?;
        infos.push(pack_json(
            &pack_device(no, c, latest.as_ref()),
            c.status,
            "device",
        ));
    }
    Ok(Data(json!({"total": infos.len(), "infos": infos})))
}

/// Removes a battery stack and the packs registered under it (`battery.delete`, on a plant
/// the caller owns or manages). Their history stays.
#[utoipa::path(post, path = "/api/v1/battery/{id}/delete", tag = "batteries", params(("id" = String, Path, description = "id or SN")), security(("bearer" = [])),
    responses((status = 200, description = "Envelope; 2, 600")))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Done> {
    me.actor.require(VIEW_KEY)?;
    let d = device(&app, &me, &id, FAMILY).await?;
    require_device_write(&app, &me, &d, DELETE_KEY).await?;
    let children = packs_registered(&app, &me, &d).await?;
    for c in &children {
        app.store.delete_device(c.id).await?;
    }
    app.store.delete_device(d.id).await?;
    Ok(Done)
}
