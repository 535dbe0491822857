//! Event and inverter counts for the overview screens, and a plant's event list (used by the
//! plant overview).

use axum::extract::{Path, State};
use domain::{
    Code,
    ids::UserId,
    policy::{PlantVisibility, UserScope},
};
use serde_json::{Value, json};
use store::occurrences::EventCounts;

use super::{list::EventQuery, occurrence_items};
use crate::{
    AppState,
    envelope::{ApiResult, Data, current_lang},
    extract::Query,
    now_ms,
    plants::{self, update_at},
    session::{CurrentUser, actor_of},
    users::path_id,
};

/// Open occurrences per severity: `total` counts what needs attention (warnings and faults);
/// notices (`info`) are counted apart.
fn counts_json(c: EventCounts) -> Value {
    json!({
        "warning": c.warning, "fault": c.fault, "info": c.info, "total": c.warning + c.fault,
        "updateAt": update_at(now_ms()),
    })
}

/// A plant's event occurrences, newest first, with the list filters (`status=1` for the open
/// ones only); 700 when the caller may not see the plant.
#[utoipa::path(get, path = "/api/v1/plant/{id}/events", tag = "events", params(("id" = i64, Path), EventQuery),
    security(("bearer" = [])), responses((status = 200, description = "Envelope with {pageSize, pageNumber, total, infos:[{id, code, sn, deviceType, severity, status, occurTime, recoverTime, meaning, solution, ...}]}; 700")))]
pub async fn plant_events(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<EventQuery>,
) -> ApiResult<Data<Value>> {
    let (plant, _) = plants::visible(&app, &me, &id).await?;
    let (page, limit) = q.paging(10);
    let mut f = q.filter(page, limit);
    f.plant = Some(plant.id);
    let (rows, total) = app
        .store
        .occurrences_visible(me.actor.plant_visibility(), me.id(), &f)
        .await?;
    let infos = occurrence_items(&app, &rows, current_lang()).await?;
    Ok(Data(
        json!({"pageSize": limit, "pageNumber": page, "total": total, "infos": infos}),
    ))
}

/// Open event occurrences of a plant per severity: `{warning, fault, info, total, updateAt}`
/// (docs/api-conventions.md).
#[utoipa::path(get, path = "/api/v1/plant/{id}/eventCount", tag = "events", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Envelope with {warning, fault, info, total, updateAt}; 700")))]
pub async fn plant_count(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<Value>> {
    let (plant, _) = plants::visible(&app, &me, &id).await?;
    let c = app
        .store
        .event_counts_visible(me.actor.plant_visibility(), me.id(), Some(plant.id))
        .await?;
    Ok(Data(counts_json(c)))
}

/// A plant's inverters per status: `{warning, fault, updateAt, total, normal, offline}`.
#[utoipa::path(get, path = "/api/v1/plant/{id}/inverterCount", tag = "events", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Envelope with {warning, fault, updateAt, total, normal, offline, upgrading}; 700")))]
pub async fn inverter_count(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<Value>> {
    let (plant, _) = plants::visible(&app, &me, &id).await?;
    let c = app
        .store
        .device_counts(
            me.actor.plant_visibility(),
            me.id(),
            Some("inverter"),
            Some(plant.id),
        )
        .await?;
    Ok(Data(json!({
        "warning": c.warning, "fault": c.fault, "updateAt": update_at(now_ms()),
        "total": c.total, "normal": c.normal, "offline": c.offline, "upgrading": c.upgrading,
    })))
}

async fn open_counts(
    app: &AppState,
    visibility: PlantVisibility,
    reader: UserId,
) -> ApiResult<Value> {
    let c = app
        .store
        .event_counts_visible(visibility, reader, None)
        .await?;
    Ok(counts_json(c))
}

/// Open event occurrences on every plant the caller may see, per severity.
#[utoipa::path(get, path = "/api/v1/overview/eventCount", tag = "events", security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {warning, fault, info, total, updateAt}")))]
pub async fn overview_count(
    State(app): State<AppState>,
    me: CurrentUser,
) -> ApiResult<Data<Value>> {
    Ok(Data(
        open_counts(&app, me.actor.plant_visibility(), me.id()).await?,
    ))
}

/// Open events on the plants another account may see, when the caller may see that account
/// (105 otherwise).
#[utoipa::path(get, path = "/api/v1/user/{id}/eventCount", tag = "events", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Envelope with {warning, fault, info, total, updateAt}; 105")))]
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
        open_counts(&app, actor.plant_visibility(), target.id()).await?,
    ))
}
