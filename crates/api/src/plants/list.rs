//! Plant listings: the paged list, the map markers, filter options and status counts.

use axum::extract::{Path, State};
use domain::{
    Code, Lang,
    ids::UserId,
    plant::{PlantType, Status},
    policy::{PlantVisibility, UserScope},
};
use serde::{Deserialize, Serialize};
use service::agent_filter::CompanyFilter;
use store::plants::{PlantFilter, PlantRow, PlantSort};
use utoipa::{IntoParams, ToSchema};

use super::update_at;
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope, current_lang},
    extract::{Query, num},
    monitor::summary::{self, ListSummary},
    paging::{Page, Paging},
    session::{CurrentUser, actor_of},
    users::{create_at, path_id},
};

const MAX_MARKERS: i64 = 5000;

#[derive(Debug, Deserialize, IntoParams)]
pub struct ListQuery {
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
    /// Only the plants of this agent company (one of the caller's agents; internal staff any
    /// company); -1 any.
    #[serde(default, rename = "agentCompanyId", deserialize_with = "num::opt_i64")]
    pub agent_company_id: Option<i64>,
    /// Only the plants this account (a user id) owns, within what the caller may see; -1 any.
    #[serde(default, rename = "customerId", deserialize_with = "num::opt_i64")]
    pub customer_id: Option<i64>,
    /// `1` (or `true`): only the plants others shared with the caller. Anything else, or
    /// nothing, lists every plant the caller sees.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub share: Option<String>,
}

impl ListQuery {
    /// The filter with `agentCompanyId` resolved; `None` when it names a company the caller
    /// may not narrow to, whose answer is an empty list.
    pub(crate) async fn resolved(
        &self,
        app: &AppState,
        me: &CurrentUser,
        limit: i64,
        offset: i64,
    ) -> ApiResult<Option<PlantFilter>> {
        let company =
            service::agent_filter::agent_company(&app.store, &me.actor, self.agent_company_id)
                .await?;
        let mut f = self.filter(limit, offset);
        match company {
            CompanyFilter::Any => {}
            CompanyFilter::Only(c) => f.company = Some(c),
            CompanyFilter::Nothing => return Ok(None),
        }
        Ok(Some(f))
    }

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
            company: None,
            owner: self.customer_id.filter(|c| *c > 0).map(UserId),
            shared: matches!(self.share.as_deref().map(str::trim), Some("1" | "true")),
            sort,
            descending,
            limit,
            offset,
        }
    }
}

/// A plant as the list shows it, with its live headline figures.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlantItem {
    pub id: i64,
    pub name: String,
    /// The owner's user id.
    pub master_id: i64,
    /// 0 offline, 1 normal, 2 warning, 3 fault, 4 upgrading.
    pub status: i64,
    pub thumb_url: String,
    pub address: String,
    /// Current PV power, W (fresh data only).
    pub pac: f64,
    /// `pac` over the installed capacity (0..1).
    pub efficiency: f64,
    /// Energy today and all time, kWh.
    pub etoday: f64,
    pub etotal: f64,
    /// The newest data, `YYYY-MM-DDTHH:MM:SSZ`.
    pub update_at: String,
    /// No fresh data: the figures are the last known.
    pub stale: bool,
    /// Every inverter with fresh data reports itself switched off (and at least one has
    /// fresh data): screens show the plant as Off, not Normal. `status` is unchanged.
    pub switched_off: bool,
    pub create_at: String,
    /// 1 grid-tied, 2 storage AC coupled, 3 storage DC coupled.
    #[serde(rename = "type")]
    pub plant_type: i64,
    /// Installed capacity, kWp.
    pub total_power: f64,
    pub lon: f64,
    pub lat: f64,
    /// Shared with the caller by someone else.
    pub share: bool,
    /// What the caller may do on this plant (permission keys).
    pub plant_permission: Vec<String>,
    /// Always false.
    pub exist_camera: bool,
    /// Waiting for an account to accept it.
    pub offered: bool,
}

fn item(me: &CurrentUser, p: &PlantRow, live: Option<&ListSummary>) -> PlantItem {
    let live = live.cloned().unwrap_or(ListSummary {
        update_at: p.updated_at,
        stale: true,
        ..Default::default()
    });
    let access = me.actor.plant_access(&p.scope());
    let permissions = access
        .map(|a| me.actor.plant_permissions(a))
        .unwrap_or_default();
    PlantItem {
        id: p.id.0,
        name: p.name.clone(),
        master_id: p.owner_id.0,
        status: p.status,
        thumb_url: p.thumb_url.clone(),
        address: p.address.clone(),
        pac: live.pac,
        efficiency: live.efficiency,
        etoday: live.etoday,
        etotal: live.etotal,
        update_at: update_at(live.update_at),
        stale: live.stale,
        switched_off: live.switched_off,
        create_at: create_at(p.created_at),
        plant_type: p.plant_type,
        total_power: p.total_power,
        lon: p.lon,
        lat: p.lat,
        share: p.shared_as.is_some() && p.owner_id != me.user.id,
        plant_permission: permissions,
        exist_camera: false,
        offered: p.offered_to.is_some(),
    }
}

/// A plant on the map.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlantMarker {
    pub id: i64,
    pub name: String,
    pub lon: f64,
    pub lat: f64,
    pub status: i64,
    #[serde(rename = "type")]
    pub plant_type: i64,
    /// Installed capacity, kWp.
    pub total_power: f64,
    pub address: String,
    pub thumb_url: String,
    /// Every inverter with fresh data reports itself switched off (as the list's item says).
    pub switched_off: bool,
}

/// The caller's plants, paged (`page` from 1, `limit` up to 100).
#[utoipa::path(get, path = "/api/v1/plants", tag = "plants", params(ListQuery, Paging), security(("bearer" = [])),
    responses((status = 200, description = "A page of plants", body = Envelope<Page<PlantItem>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ListQuery>,
    paging: Paging,
) -> ApiResult<Data<Page<PlantItem>>> {
    me.actor.require(domain::permissions::STATION_VIEW)?;
    let Some(filter) = q
        .resolved(&app, &me, paging.limit(), paging.offset())
        .await?
    else {
        return Ok(Data(Page::new(paging, 0, Vec::new())));
    };
    let (rows, total) = app
        .store
        .plants(me.actor.plant_visibility(), me.id(), &filter)
        .await?;
    // Live figures for the whole page in a few set-based queries.
    let live = summary::plants(&app, &rows).await?;
    let infos = rows.iter().map(|p| item(&me, p, live.get(&p.id))).collect();
    Ok(Data(Page::new(paging, total, infos)))
}

/// Every visible plant that matches, as map markers (at most 5000).
#[utoipa::path(get, path = "/api/v1/plants/map", tag = "plants", params(ListQuery), security(("bearer" = [])),
    responses((status = 200, description = "The markers", body = Envelope<Vec<PlantMarker>>)))]
pub async fn map(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<Data<Vec<PlantMarker>>> {
    me.actor.require(domain::permissions::STATION_VIEW)?;
    let Some(filter) = q.resolved(&app, &me, MAX_MARKERS, 0).await? else {
        return Ok(Data(Vec::new()));
    };
    let (rows, _) = app
        .store
        .plants(me.actor.plant_visibility(), me.id(), &filter)
        .await?;
    let ids: Vec<_> = rows.iter().map(|p| p.id).collect();
    let off = summary::switched_off(&app, &ids).await?;
    Ok(Data(
        rows.iter()
            .map(|p| PlantMarker {
                switched_off: off.contains(&p.id),
                id: p.id.0,
                name: p.name.clone(),
                lon: p.lon,
                lat: p.lat,
                status: p.status,
                plant_type: p.plant_type,
                total_power: p.total_power,
                address: p.address.clone(),
                thumb_url: p.thumb_url.clone(),
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

/// Plants by status.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlantCounts {
    pub total: i64,
    pub normal: i64,
    pub offline: i64,
    pub warning: i64,
    pub fault: i64,
    pub upgrading: i64,
}

async fn counts(
    app: &AppState,
    visibility: PlantVisibility,
    reader: UserId,
) -> ApiResult<PlantCounts> {
    let rows = app.store.plant_status_counts(visibility, reader).await?;
    let count = |s: Status| {
        rows.iter()
            .filter(|(st, _)| *st == s as i64)
            .map(|(_, n)| *n)
            .sum::<i64>()
    };
    Ok(PlantCounts {
        total: rows.iter().map(|(_, n)| n).sum::<i64>(),
        normal: count(Status::Normal),
        offline: count(Status::Offline),
        warning: count(Status::Warning),
        fault: count(Status::Fault),
        upgrading: count(Status::Upgrading),
    })
}

/// A status the plant list can be filtered by.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatusChoice {
    /// 0 offline, 1 normal, 2 warning, 3 fault, 4 upgrading.
    pub value: i64,
    pub key: String,
    /// In the caller's language.
    pub label: String,
    /// Visible plants in this status.
    pub count: i64,
}

/// A plant type the plant list can be filtered by.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TypeChoice {
    /// 1 grid-tied, 2 storage AC coupled, 3 storage DC coupled.
    pub value: i64,
    /// In the caller's language.
    pub label: String,
}

/// The filter choices of the plant list.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FilterChoices {
    pub status: Vec<StatusChoice>,
    #[serde(rename = "type")]
    pub types: Vec<TypeChoice>,
}

/// The filter choices of the plant list, with how many visible plants are in each status.
#[utoipa::path(get, path = "/api/v1/plant/filter", tag = "plants", security(("bearer" = [])),
    responses((status = 200, description = "Statuses with counts and types", body = Envelope<FilterChoices>)))]
pub async fn filter(
    State(app): State<AppState>,
    me: CurrentUser,
) -> ApiResult<Data<FilterChoices>> {
    me.actor.require(domain::permissions::STATION_VIEW)?;
    let lang = current_lang();
    let rows = app
        .store
        .plant_status_counts(me.actor.plant_visibility(), me.id())
        .await?;
    let status = Status::ALL
        .iter()
        .map(|s| {
            let count: i64 = rows
                .iter()
                .filter(|(st, _)| *st == *s as i64)
                .map(|(_, n)| *n)
                .sum();
            StatusChoice {
                value: *s as i64,
                key: s.key().into(),
                label: status_label(*s, lang).into(),
                count,
            }
        })
        .collect();
    let types = PlantType::ALL
        .iter()
        .map(|t| TypeChoice {
            value: *t as i64,
            label: t.name(lang).into(),
        })
        .collect();
    Ok(Data(FilterChoices { status, types }))
}

/// Plants visible to the caller, by status.
#[utoipa::path(get, path = "/api/v1/overview/plantCount", tag = "plants", security(("bearer" = [])),
    responses((status = 200, description = "Plants by status", body = Envelope<PlantCounts>)))]
pub async fn overview_count(
    State(app): State<AppState>,
    me: CurrentUser,
) -> ApiResult<Data<PlantCounts>> {
    me.actor.require(domain::permissions::STATION_VIEW)?;
    Ok(Data(
        counts(&app, me.actor.plant_visibility(), me.id()).await?,
    ))
}

/// Plants visible to another account the caller may see (105 otherwise), by status.
#[utoipa::path(get, path = "/api/v1/user/{id}/plantCount", tag = "plants", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Plants by status; 105", body = Envelope<PlantCounts>)))]
pub async fn user_count(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<PlantCounts>> {
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
