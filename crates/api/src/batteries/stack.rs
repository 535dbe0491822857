//! A stack with the packs registered under it: the slave list and delete, which takes those
//! packs along.

use std::collections::HashSet;

use axum::extract::{Path, State};
use serde::Serialize;
use service::devices::{self, Rule};
use utoipa::ToSchema;

use super::{
    DELETE_KEY, FAMILY, VIEW_KEY,
    packs::{PackItem, PackSource, pack_device, pack_item, packs_in},
    packs_registered,
};
use crate::{
    AppState,
    device_common::device,
    envelope::{Ack, ApiResult, Data, Done, Envelope},
    readings,
    session::CurrentUser,
};

/// The packs of a battery stack: those in the master's report, then packs that report on
/// their own (battery devices whose parent is this master).
#[utoipa::path(get, path = "/api/v1/batteries/{id}/slave", tag = "batteries", params(("id" = String, Path, description = "the master's id or SN")), security(("bearer" = [])),
    responses((status = 200, description = "The stack's packs; 600", body = Envelope<PackList>)))]
pub async fn slaves(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<PackList>> {
    me.actor.require(VIEW_KEY)?;
    let d = device(&app, &me, &id, FAMILY).await?;
    let r = readings::latest(&app, d.id).await?.unwrap_or_default();
    let packs = packs_in(&r);
    let mut infos: Vec<PackItem> = packs
        .iter()
        .map(|p| pack_item(p, d.status, PackSource::Pack))
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
        infos.push(pack_item(
            &pack_device(no, c, latest.as_ref()),
            c.status,
            PackSource::Device,
        ));
    }
    Ok(Data(PackList {
        total: infos.len() as i64,
        infos,
    }))
}

/// The packs of a stack: those in the master's report, then those reporting on their own.
#[derive(Debug, Serialize, ToSchema)]
pub struct PackList {
    pub total: i64,
    pub infos: Vec<PackItem>,
}

/// Removes a battery stack and the packs registered under it (`battery.delete`, on a plant
/// the caller owns or manages). Their history stays.
#[utoipa::path(post, path = "/api/v1/battery/{id}/delete", tag = "batteries", params(("id" = String, Path, description = "id or SN")), security(("bearer" = [])),
    responses((status = 200, description = "Envelope; 2, 600", body = Ack)))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Done> {
    me.actor.require(VIEW_KEY)?;
    let d = device(&app, &me, &id, FAMILY).await?;
    let packs: Vec<_> = packs_registered(&app, &me, &d)
        .await?
        .iter()
        .map(|c| c.id)
        .collect();
    let rule = Rule::Managed(DELETE_KEY);
    devices::delete(&app.store, &me.actor, &d, rule, &packs).await?;
    Ok(Done)
}
