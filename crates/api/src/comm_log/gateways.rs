//! The communication log's gateways: every gateway the caller may see with how many messages
//! are stored for it, one plant's gateways, and the gateway a device reports through.

use domain::ids::PlantId;
use std::collections::HashMap;

use axum::extract::{Path, State};
use domain::DomainError;
use serde::{Deserialize, Serialize};
use service::ServiceError;
use store::{
    comm_log::CommCounts,
    gateways::{GatewayFilter, GatewayRow},
};
use utoipa::{IntoParams, ToSchema};

use super::{require_reader, visible_gateway_id};
use crate::{
    AppState,
    envelope::{ApiError, ApiResult, Data, Envelope},
    extract::{Query, num},
    paging::{Page, Paging},
    plants::update_at,
    session::CurrentUser,
};

/// The most gateways one plant's listing answers (a plant has a handful).
const PLANT_MAX: i64 = 1000;

/// A gateway as the communication log lists it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoggerItem {
    pub id: i64,
    pub sn: String,
    pub alias: String,
    pub plant_id: Option<i64>,
    pub plant_name: Option<String>,
    pub online: bool,
    /// When the gateway last sent anything (`YYYY-MM-DDTHH:MM:SSZ`); null if never.
    pub last_message_at: Option<String>,
    /// Uplink messages stored for it.
    pub uplinks: i64,
    /// Downlink messages (commands) stored for it.
    pub downlinks: i64,
    /// The newest stored message's time (`YYYY-MM-DDTHH:MM:SSZ`); null when none is stored.
    pub last_log_at: Option<String>,
}

fn item(g: &GatewayRow, plant_name: Option<String>, counts: Option<&CommCounts>) -> LoggerItem {
    LoggerItem {
        id: g.id.0,
        sn: g.sn.clone(),
        alias: g.alias.clone(),
        plant_id: g.plant_id.map(|v| v.0),
        plant_name,
        online: g.online,
        last_message_at: g.last_online.map(update_at),
        uplinks: counts.map_or(0, |c| c.uplinks),
        downlinks: counts.map_or(0, |c| c.downlinks),
        last_log_at: counts.and_then(|c| c.last_at).map(update_at),
    }
}

/// The items of `rows` (gateway, plant name) with their stored counts, read in one query.
async fn items(
    app: &AppState,
    rows: Vec<(GatewayRow, Option<String>)>,
) -> ApiResult<Vec<LoggerItem>> {
    let ids: Vec<_> = rows.iter().map(|(g, _)| g.id).collect();
    let counts: HashMap<_, CommCounts> = app
        .store
        .comm_log_counts(&ids)
        .await?
        .into_iter()
        .map(|c| (c.gateway_id, c))
        .collect();
    Ok(rows
        .into_iter()
        .map(|(g, plant)| {
            let c = counts.get(&g.id);
            item(&g, plant, c)
        })
        .collect())
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct ListQuery {
    /// Part of the SN, alias or model, any case.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub keyword: Option<String>,
    /// Only the gateways of this plant.
    #[serde(default, alias = "stationId", deserialize_with = "num::opt_i64")]
    pub plant_id: Option<i64>,
}

/// The gateways the caller may see, with their stored message counts, paged (`page` from 1,
/// `limit` up to 100).
#[utoipa::path(get, path = "/api/v1/logger", tag = "logger", params(ListQuery, Paging), security(("bearer" = [])),
    responses((status = 200, description = "A page of gateways; 2 without logger.communication", body = Envelope<Page<LoggerItem>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    paging: Paging,
    Query(q): Query<ListQuery>,
) -> ApiResult<Data<Page<LoggerItem>>> {
    require_reader(&me.actor)?;
    let filter = GatewayFilter {
        keyword: q
            .keyword
            .as_deref()
            .map(str::trim)
            .filter(|k| !k.is_empty())
            .map(String::from),
        plant: q.plant_id.filter(|p| *p > 0).map(PlantId),
        limit: paging.limit(),
        offset: paging.offset(),
        ..GatewayFilter::default()
    };
    let (rows, total) = app
        .store
        .gateways_visible(me.actor.plant_visibility(), me.id(), &filter)
        .await?;
    let rows = rows
        .into_iter()
        .map(|r| (r.gateway, r.plant_name))
        .collect();
    Ok(Data(Page::new(paging, total, items(&app, rows).await?)))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct PlantQuery {
    #[serde(default, alias = "stationId", deserialize_with = "num::opt_i64")]
    pub plant_id: Option<i64>,
}

/// One plant's gateways with their stored message counts, by SN; 4 `plantId` when the plant
/// is missing or not visible.
#[utoipa::path(get, path = "/api/v1/logger/plant", tag = "logger", params(PlantQuery), security(("bearer" = [])),
    responses((status = 200, description = "The plant's gateways; 2, 4 plantId", body = Envelope<Vec<LoggerItem>>)))]
pub async fn of_plant(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<PlantQuery>,
) -> ApiResult<Data<Vec<LoggerItem>>> {
    require_reader(&me.actor)?;
    let id = q.plant_id.ok_or_else(|| DomainError::invalid("plantId"))?;
    let plant = service::plants::visible(&app.store, &me.actor, domain::ids::PlantId(id))
        .await
        .map_err(|e| match e {
            ServiceError::Refused(_) => DomainError::invalid("plantId").into(),
            other => ApiError::from(other),
        })?
        .0;
    let filter = GatewayFilter {
        plant: Some(plant.id),
        limit: PLANT_MAX,
        ..GatewayFilter::default()
    };
    let (rows, _) = app
        .store
        .gateways_visible(me.actor.plant_visibility(), me.id(), &filter)
        .await?;
    let mut rows: Vec<_> = rows
        .into_iter()
        .map(|r| (r.gateway, r.plant_name))
        .collect();
    rows.sort_by(|a, b| a.0.sn.cmp(&b.0.sn));
    Ok(Data(items(&app, rows).await?))
}

/// The gateway a device (inverter, meter, battery...) reports through, as the communication
/// log lists it; 4 `sn` when the device is missing, not visible or behind no gateway.
#[utoipa::path(get, path = "/api/v1/logger/getInverterLogger/{sn}", tag = "logger", params(("sn" = String, Path, description = "The device's SN")),
    security(("bearer" = [])), responses((status = 200, description = "The gateway; 2, 4 sn", body = Envelope<LoggerItem>)))]
pub async fn of_device(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<LoggerItem>> {
    require_reader(&me.actor)?;
    let gateway_id = app
        .store
        .device_visible(me.actor.plant_visibility(), me.id(), sn.trim())
        .await?
        .and_then(|d| d.gateway_id)
        .ok_or_else(|| DomainError::invalid("sn"))?;
    let (gateway, plant) = visible_gateway_id(&app, &me, gateway_id, "sn").await?;
    let plant_name = plant.map(|p| p.name);
    let mut one = items(&app, vec![(gateway, plant_name)]).await?;
    Ok(Data(one.pop().ok_or_else(|| DomainError::invalid("sn"))?))
}
