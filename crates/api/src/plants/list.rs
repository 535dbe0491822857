//! Plant listings: the paged list, the map markers, filter options and status counts.

use axum::extract::{Path, State};
use domain::{
    Code, Lang,
    ids::UserId,
    plant::{PlantType, Status},
    policy::{PlantVisibility, UserScope},
};
use serde::Deserialize;
use serde_json::{Value, json};
use store::plants::{PlantFilter, PlantRow, PlantSort};
use utoipa::IntoParams;

use super::update_at;
use crate::{
    AppState,
    envelope::{ApiResult, Data, current_lang},
    extract::{Query, num},
    monitor::summary::{self, ListSummary},
    session::{CurrentUser, actor_of},
    users::{create_at, path_id},
};

const MAX_PAGE: i64 = 100;
const MAX_MARKERS: i64 = 5000;

#[derive(Debug, Deserialize, IntoParams)]
pub struct ListQuery {
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub page: Option<i64>,
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub limit: Option<i64>,
    /// Part of the plant name, any case.
    #[serde(default)]
    pub name: Option<String>,
    /// 0 offline, 1 normal, 2 warning, 3 fault, 4 upgrading; -1 any.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub status: Option<i64>,
    /// 1 grid-tied, 2 storage AC coupled, 3 storage DC coupled; -1 or -2 any.
    #[serde(default, rename = "type", deserialize_with = "num::opt_i64")]
    pub kind: Option<i64>,
    /// `createAt` (default), `name`, `totalPower` or `status`.
    #[serde(default)]
    pub sort: Option<String>,
    /// `asc` or `desc` (default `desc` for createAt, `asc` otherwise).
    #[serde(default)]
    pub order: Option<String>,
}

impl ListQuery {
    fn filter(&self, limit: i64, offset: i64) -> PlantFilter {
        let sort = match self.sort.as_deref() {
            Some("name") => PlantSort::Name,
            Some("totalPower" | "capacity") => PlantSort::Capacity,
            Some("status") => PlantSort::Status,
            _ => PlantSort::Created,
        };
        let descending = match self.order.as_deref() {
            Some("asc" | "ascend") => false,
            Some("desc" | "descend") => true,
            _ => sort == PlantSort::Created,
        };
        PlantFilter {
            name: self
                .name
                .as_deref()
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(str::to_lowercase),
            status: self.status.filter(|s| *s >= 0),
            plant_type: self.kind.filter(|t| *t > 0),
            sort,
            descending,
            limit,
            offset,
        }
    }
}

fn item(me: &CurrentUser, p: &PlantRow, live: Option<&ListSummary>) -> Value {
    let live = live.cloned().unwrap_or(ListSummary {
        update_at: p.updated_at,
        stale: true,
        ..Default::default()
    });
    let access = me.actor.plant_access(&p.scope());
    let permissions = access
        .map(|a| me.actor.plant_permissions(a))
        .unwrap_or_default();
    json!({
        "id": p.id, "name": p.name, "masterId": p.owner_id, "status": p.status,
        "thumbUrl": p.thumb_url, "address": p.address, "pac": live.pac,
        "efficiency": live.efficiency, "etoday": live.etoday, "etotal": live.etotal,
        "updateAt": update_at(live.update_at), "stale": live.stale,
        "createAt": create_at(p.created_at), "type": p.plant_type, "totalPower": p.total_power,
        "lon": p.lon, "lat": p.lat,
        "share": p.shared_as.is_some() && p.owner_id != me.user.id,
        "plantPermission": permissions, "existCamera": false,
        "offered": p.offered_to.is_some(),
    })
}

/// The caller's plants, paged (`page` from 1, `limit` up to 100).
#[utoipa::path(get, path = "/api/v1/plants", tag = "plants", params(ListQuery), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {pageSize, pageNumber, total, infos}")))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<Data<Value>> {
    me.actor.require("station.view")?;
    let limit = q.limit.unwrap_or(10).clamp(1, MAX_PAGE);
    let page = q.page.unwrap_or(1).max(1);
    let (rows, total) = app
        .store
        .plants(
            me.actor.plant_visibility(),
            me.id(),
            &q.filter(limit, (page - 1) * limit),
        )
        .await?;
    // Live figures for the whole page in a few set-based queries.
    let live = summary::plants(&app, &rows).await?;
    let infos: Vec<Value> = rows.iter().map(|p| item(&me, p, live.get(&p.id))).collect();
    Ok(Data(
        json!({"pageSize": limit, "pageNumber": page, "total": total, "infos": infos}),
    ))
}

/// Every visible plant that matches, as map markers (at most 5000).
#[utoipa::path(get, path = "/api/v1/plants/map", tag = "plants", params(ListQuery), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with [{id, name, lon, lat, status, type, totalPower, address, thumbUrl}]")))]
pub async fn map(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<Data<Vec<Value>>> {
    me.actor.require("station.view")?;
    let (rows, _) = app
        .store
        .plants(
            me.actor.plant_visibility(),
            me.id(),
            &q.filter(MAX_MARKERS, 0),
        )
        .await?;
    Ok(Data(
        rows.iter()
            .map(|p| {
                json!({"id": p.id, "name": p.name, "lon": p.lon, "lat": p.lat, "status": p.status,
                            "type": p.plant_type, "totalPower": p.total_power, "address": p.address,
                            "thumbUrl": p.thumb_url})
            })
            .collect(),
    ))
}

fn status_label(s: Status, lang: Lang) -> &'static str {
    match (s, lang) {
        (Status::Normal, Lang::En) => "Normal",
        (Status::Normal, Lang::Zh) => "正常",
        (Status::Normal, Lang::Es) => "Normal",
        (Status::Offline, Lang::En) => "Offline",
        (Status::Offline, Lang::Zh) => "离线",
        (Status::Offline, Lang::Es) => "Desconectada",
        (Status::Warning, Lang::En) => "Warning",
        (Status::Warning, Lang::Zh) => "告警",
        (Status::Warning, Lang::Es) => "Advertencia",
        (Status::Fault, Lang::En) => "Fault",
        (Status::Fault, Lang::Zh) => "故障",
        (Status::Fault, Lang::Es) => "Fallo",
        (Status::Upgrading, Lang::En) => "Upgrading",
        (Status::Upgrading, Lang::Zh) => "升级中",
        (Status::Upgrading, Lang::Es) => "Actualizando",
    }
}

async fn counts(app: &AppState, visibility: PlantVisibility, reader: UserId) -> ApiResult<Value> {
    let rows = app.store.plant_status_counts(visibility, reader).await?;
    let count = |s: Status| {
        rows.iter()
            .filter(|(st, _)| *st == s as i64)
            .map(|(_, n)| *n)
            .sum::<i64>()
    };
    Ok(json!({
        "total": rows.iter().map(|(_, n)| n).sum::<i64>(),
        "normal": count(Status::Normal), "offline": count(Status::Offline),
        "warning": count(Status::Warning), "fault": count(Status::Fault),
        "upgrading": count(Status::Upgrading),
    }))
}

/// The filter choices of the plant list, with how many visible plants are in each status.
#[utoipa::path(get, path = "/api/v1/plant/filter", tag = "plants", security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {status:[{value,label,count}], type:[{value,label}]}")))]
pub async fn filter(State(app): State<AppState>, me: CurrentUser) -> ApiResult<Data<Value>> {
    me.actor.require("station.view")?;
    let lang = current_lang();
    let rows = app
        .store
        .plant_status_counts(me.actor.plant_visibility(), me.id())
        .await?;
    let status: Vec<Value> = Status::ALL
        .iter()
        .map(|s| {
            let count: i64 = rows.iter().filter(|(st, _)| *st == *s as i64).map(|(_, n)| *n).sum();
            json!({"value": *s as i64, "key": s.key(), "label": status_label(*s, lang), "count": count})
        })
        .collect();
    let types: Vec<Value> = PlantType::ALL
        .iter()
        .map(|t| json!({"value": *t as i64, "label": t.name(lang)}))
        .collect();
    Ok(Data(json!({"status": status, "type": types})))
}

/// Plants visible to the caller, by status.
#[utoipa::path(get, path = "/api/v1/overview/plantCount", tag = "plants", security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {total, normal, offline, warning, fault, upgrading}")))]
pub async fn overview_count(
    State(app): State<AppState>,
    me: CurrentUser,
) -> ApiResult<Data<Value>> {
    me.actor.require("station.view")?;
    Ok(Data(
        counts(&app, me.actor.plant_visibility(), me.id()).await?,
    ))
}

/// Plants visible to another account the caller may see (105 otherwise), by status.
#[utoipa::path(get, path = "/api/v1/user/{id}/plantCount", tag = "plants", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Envelope with counts; 105")))]
pub async fn user_count(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<Value>> {
    let target = app
        .store
        .user(UserId(path_id(&id)?))
        .await?
        .ok_or(Code::NotRegistered)?;
    let scope = UserScope {
        id: target.id(),
        kind: target.kind(),
        company: target.company(),
    };
    if !me.actor.can_see_user(&scope) {
        return Err(Code::NotRegistered.into());
    }
    let actor = actor_of(&app.store, &target).await?;
    Ok(Data(
        counts(&app, actor.plant_visibility(), target.id()).await?,
    ))
}
