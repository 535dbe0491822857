//! Event and inverter counts for the overview screens, and a plant's event list (used by the
//! plant overview).

use axum::extract::{Path, State};
use domain::{
    Code, DeviceFamily,
    ids::UserId,
    policy::{PlantVisibility, UserScope},
};
use serde::Serialize;
use store::occurrences::EventCounts;
use utoipa::ToSchema;

use super::{OccurrenceItem, list::EventQuery, occurrence_items};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope, current_lang},
    extract::Query,
    paging::Page,
    plants::{self, update_at},
    session::{CurrentUser, actor_of},
    users::path_id,
};
use domain::time::now_ms;

/// Open occurrences per severity: `total` counts what needs attention (warnings and faults);
/// notices (`info`) are counted apart.
fn counts_of(c: EventCounts) -> OpenEventCounts {
    OpenEventCounts {
        warning: c.warning,
        fault: c.fault,
        info: c.info,
        total: c.warning + c.fault,
        update_at: update_at(now_ms()),
    }
}

/// Open occurrences per severity.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OpenEventCounts {
    pub warning: i64,
    pub fault: i64,
    /// Notices, not counted in `total`.
    pub info: i64,
    /// Warnings and faults: what needs attention.
    pub total: i64,
    /// Now, UTC.
    pub update_at: String,
}

/// A plant's inverters per status, with the open warnings and faults among them.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlantInverterCounts {
    pub warning: i64,
    pub fault: i64,
    /// Now, UTC.
    pub update_at: String,
    pub total: i64,
    pub normal: i64,
    pub offline: i64,
    pub upgrading: i64,
}

/// A plant's event occurrences, newest first, with the list filters (`status=1` for the open
/// ones only); 700 when the caller may not see the plant.
#[utoipa::path(get, path = "/api/v1/plant/{id}/events", tag = "events", params(("id" = i64, Path), EventQuery),
    security(("bearer" = [])), responses((status = 200, description = "A page of the plant's occurrences; 700", body = Envelope<Page<OccurrenceItem>>)))]
pub async fn plant_events(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<EventQuery>,
) -> ApiResult<Data<Page<OccurrenceItem>>> {
    let (plant, _) = plants::visible(&app, &me, &id).await?;
    let (page, limit) = q.paging(10);
    let mut f = q.filter(page, limit);
    f.plant = Some(plant.id);
    let (rows, total) = app
        .store
        .occurrences_visible(me.actor.plant_visibility(), me.id(), &f)
        .await?;
    let infos = occurrence_items(&app, &rows, current_lang()).await?;
    Ok(Data(Page {
        page_size: limit,
        page_number: page,
        total,
        infos,
    }))
}

/// Open event occurrences of a plant per severity: `{warning, fault, info, total, updateAt}`
/// (docs/api-conventions.md).
#[utoipa::path(get, path = "/api/v1/plant/{id}/eventCount", tag = "events", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Open occurrences per severity; 700", body = Envelope<OpenEventCounts>)))]
pub async fn plant_count(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<OpenEventCounts>> {
    let (plant, _) = plants::visible(&app, &me, &id).await?;
    let c = app
        .store
        .event_counts_visible(me.actor.plant_visibility(), me.id(), Some(plant.id))
        .await?;
    Ok(Data(counts_of(c)))
}

/// A plant's inverters per status: `{warning, fault, updateAt, total, normal, offline}`.
#[utoipa::path(get, path = "/api/v1/plant/{id}/inverterCount", tag = "events", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "The plant's inverters per status; 700", body = Envelope<PlantInverterCounts>)))]
pub async fn inverter_count(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<PlantInverterCounts>> {
    let (plant, _) = plants::visible(&app, &me, &id).await?;
    let c = app
        .store
        .device_counts(
            me.actor.plant_visibility(),
            me.id(),
            Some(DeviceFamily::Inverter),
            Some(plant.id),
        )
        .await?;
    Ok(Data(PlantInverterCounts {
        warning: c.warning,
        fault: c.fault,
        update_at: update_at(now_ms()),
        total: c.total,
        normal: c.normal,
        offline: c.offline,
        upgrading: c.upgrading,
    }))
}

async fn open_counts(
    app: &AppState,
    visibility: PlantVisibility,
    reader: UserId,
) -> ApiResult<OpenEventCounts> {
    let c = app
        .store
        .event_counts_visible(visibility, reader, None)
        .await?;
    Ok(counts_of(c))
}

/// Open event occurrences on every plant the caller may see, per severity.
#[utoipa::path(get, path = "/api/v1/overview/eventCount", tag = "events", security(("bearer" = [])),
    responses((status = 200, description = "Open occurrences per severity", body = Envelope<OpenEventCounts>)))]
pub async fn overview_count(
    State(app): State<AppState>,
    me: CurrentUser,
) -> ApiResult<Data<OpenEventCounts>> {
    Ok(Data(
        open_counts(&app, me.actor.plant_visibility(), me.id()).await?,
    ))
}

/// Open events on the plants another account may see, when the caller may see that account
/// (105 otherwise).
#[utoipa::path(get, path = "/api/v1/user/{id}/eventCount", tag = "events", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Open occurrences per severity; 105", body = Envelope<OpenEventCounts>)))]
pub async fn user_count(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<OpenEventCounts>> {
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
        open_counts(&app, actor.plant_visibility(), target.id()).await?,
    ))
}
