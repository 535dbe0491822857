//! Event lists: the events screen and third-party clients (`/events`, one item per occurrence
//! unless `group=0`), one occurrence with its solution and devices, the events of one device
//! (all, or the open ones), battery events and the last hour.

use axum::extract::{Path, State};
use domain::ids::PlantId;
use domain::{Code, DeviceFamily};
use serde::{Deserialize, Serialize};
use store::messages::VisibleEventFilter;
use utoipa::{IntoParams, ToSchema};

use super::{
    EventItem, MAX_PAGE, OccurrenceItem, day_range, item, occurrence_item, occurrence_items,
    open_state, require_view, severity, visible_device,
};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope, current_lang},
    extract::{Query, num},
    paging::Page,
    session::CurrentUser,
    users::path_id,
};
use domain::time::now_ms;

/// The filters of every event list.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct EventQuery {
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub page: Option<i64>,
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub limit: Option<i64>,
    /// The page to read, as `/events` answered it in `nextToken`.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub next_token: Option<i64>,
    /// `/events`: 2 warnings, 3 faults; 1 or -1 every event.
    #[serde(default, rename = "type", deserialize_with = "num::opt_i64")]
    pub kind: Option<i64>,
    /// `info`, `warning` or `fault` (or 1/2/3); anything else means any.
    #[serde(default, alias = "level", deserialize_with = "num::opt_text")]
    pub severity: Option<String>,
    /// `/events`: `0` (or `false`) for one item per device's event instead of one per
    /// occurrence.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub group: Option<String>,
    /// `open`/1 or `closed`/0; -1 any.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub status: Option<String>,
    #[serde(default, alias = "stationId", deserialize_with = "num::opt_i64")]
    pub plant_id: Option<i64>,
    /// Part of the device SN.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub sn: Option<String>,
    /// Device family (`DeviceFamily`): `inverter`, `battery`, `meter`, `weather_station` or
    /// `combiner`; any other value is "any", as for the other filters.
    #[serde(default, alias = "family", deserialize_with = "num::opt_text")]
    pub device_type: Option<String>,
    /// First day (`YYYY-MM-DD`, UTC), inclusive.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub sdate: Option<String>,
    /// Last day (`YYYY-MM-DD`, UTC), inclusive.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub edate: Option<String>,
}

impl EventQuery {
    /// `(page, limit)`: `page` from 1 (or `nextToken`), `limit` 1..=200 (`default` when absent).
    pub fn paging(&self, default: i64) -> (i64, i64) {
        let limit = self.limit.unwrap_or(default).clamp(1, MAX_PAGE);
        let page = self.next_token.or(self.page).unwrap_or(1).max(1);
        (page, limit)
    }

    /// Whether the list answers occurrences (the default) or every device's event.
    pub fn grouped(&self) -> bool {
        !matches!(
            self.group.as_deref().map(str::trim),
            Some("0" | "false" | "no")
        )
    }

    pub fn filter(&self, page: i64, limit: i64) -> VisibleEventFilter {
        let (from, to) = day_range(self.sdate.as_deref(), self.edate.as_deref());
        let text = |s: &Option<String>| {
            s.as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty() && *s != "-1")
                .map(String::from)
        };
        let by_type = match self.kind {
            Some(2) => Some("warning".to_string()),
            Some(3) => Some("fault".to_string()),
            _ => None,
        };
        VisibleEventFilter {
            plant: self.plant_id.filter(|p| *p > 0).map(PlantId),
            sn: text(&self.sn),
            device: None,
            family: text(&self.device_type).and_then(|f| f.parse().ok()),
            type_code: None,
            severity: severity(self.severity.as_deref()).or(by_type),
            open: open_state(self.status.as_deref()),
            from,
            to,
            limit,
            offset: (page - 1) * limit,
        }
    }
}

fn page_of<T>(page: i64, limit: i64, total: i64, infos: Vec<T>) -> Page<T> {
    Page {
        page_size: limit,
        page_number: page,
        total,
        infos,
    }
}

/// A record of the event list: an occurrence, or one device's event with `group=0`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum EventRecord {
    Occurrence(OccurrenceItem),
    Event(EventItem),
}

/// The event list: `nextToken` is the next page as a string, `null` on the last page.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventList {
    pub next_token: Option<String>,
    pub record: Vec<EventRecord>,
    pub total: i64,
    pub page_size: i64,
    pub page_number: i64,
}

/// The occurrences of the last hour.
#[derive(Debug, Serialize, ToSchema)]
pub struct RecentOccurrences {
    pub total: i64,
    pub infos: Vec<OccurrenceItem>,
}

/// Events the caller may see, newest first: `{nextToken, record[]}` (docs/api-conventions.md);
/// `nextToken` is the next page as a string, `null` on the last page. One record per
/// occurrence (with its `devices`), or per device's event with `group=0`.
#[utoipa::path(get, path = "/api/v1/events", tag = "events", params(EventQuery), security(("bearer" = [])),
    responses((status = 200, description = "A page of occurrences (or events with `group=0`)", body = Envelope<EventList>)))]
pub async fn events(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<EventQuery>,
) -> ApiResult<Data<EventList>> {
    require_view(&me)?;
    let (page, limit) = q.paging(50);
    let f = q.filter(page, limit);
    let visibility = me.actor.plant_visibility();
    let lang = current_lang();
    let (record, total) = if q.grouped() {
        let (rows, total) = app
            .store
            .occurrences_visible(visibility, me.id(), &f)
            .await?;
        let items = occurrence_items(&app, &rows, lang).await?;
        (
            items.into_iter().map(EventRecord::Occurrence).collect(),
            total,
        )
    } else {
        let (rows, total) = app.store.events_visible(visibility, me.id(), &f).await?;
        let items = rows.iter().map(|e| EventRecord::Event(item(e, lang)));
        (items.collect(), total)
    };
    let next = (page * limit < total).then(|| (page + 1).to_string());
    Ok(Data(EventList {
        next_token: next,
        record,
        total,
        page_size: limit,
        page_number: page,
    }))
}

/// One occurrence with its meaning, solution and devices: `id` may be the occurrence's or any
/// of its events'; 4 when the caller may not see it.
#[utoipa::path(get, path = "/api/v1/event/detail/{id}", tag = "events", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "The occurrence; 4 (id)", body = Envelope<OccurrenceItem>)))]
pub async fn detail(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<OccurrenceItem>> {
    require_view(&me)?;
    let o = app
        .store
        .occurrence_visible(me.actor.plant_visibility(), me.id(), path_id(&id)?)
        .await?
        .ok_or_else(|| domain::DomainError::invalid("id"))?;
    let members = app.store.occurrence_events(&[o.id]).await?;
    Ok(Data(occurrence_item(&o, &members, current_lang())))
}

/// The events of one device, paged with the list filters; 600 when the caller may not see it.
#[utoipa::path(get, path = "/api/v1/event/{sn}", tag = "events", params(("sn" = String, Path), EventQuery),
    security(("bearer" = [])), responses((status = 200, description = "A page of the device's events; 600", body = Envelope<Page<EventItem>>)))]
pub async fn device_events(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<EventQuery>,
) -> ApiResult<Data<Page<EventItem>>> {
    let device = visible_device(&app, &me, &sn).await?;
    let (page, limit) = q.paging(10);
    let mut f = q.filter(page, limit);
    f.sn = None;
    f.device = Some(device.id);
    let (rows, total) = app
        .store
        .events_visible(me.actor.plant_visibility(), me.id(), &f)
        .await?;
    let lang = current_lang();
    Ok(Data(page_of(
        page,
        limit,
        total,
        rows.iter().map(|e| item(e, lang)).collect(),
    )))
}

/// The open events of one device (at most 200), newest first; 600 when not visible.
#[utoipa::path(get, path = "/api/v1/event/{sn}/realtime", tag = "events", params(("sn" = String, Path)),
    security(("bearer" = [])), responses((status = 200, description = "The device's open events; 600", body = Envelope<Vec<EventItem>>)))]
pub async fn device_realtime(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<Vec<EventItem>>> {
    let device = visible_device(&app, &me, &sn).await?;
    let f = VisibleEventFilter {
        device: Some(device.id),
        open: Some(true),
        limit: MAX_PAGE,
        ..Default::default()
    };
    let (rows, _) = app
        .store
        .events_visible(me.actor.plant_visibility(), me.id(), &f)
        .await?;
    let lang = current_lang();
    Ok(Data(rows.iter().map(|e| item(e, lang)).collect()))
}

/// Battery events the caller may see, paged with the list filters.
#[utoipa::path(get, path = "/api/v1/battery/events", tag = "events", params(EventQuery), security(("bearer" = [])),
    responses((status = 200, description = "A page of battery events", body = Envelope<Page<EventItem>>)))]
pub async fn battery_events(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<EventQuery>,
) -> ApiResult<Data<Page<EventItem>>> {
    if !(me.actor.has(domain::permissions::BATTERY_LIST_VIEW)
        || me.actor.has(domain::permissions::EVENT_VIEW))
    {
        return Err(Code::NoPermission.into());
    }
    let (page, limit) = q.paging(10);
    let mut f = q.filter(page, limit);
    f.family = Some(DeviceFamily::Battery);
    let (rows, total) = app
        .store
        .events_visible(me.actor.plant_visibility(), me.id(), &f)
        .await?;
    let lang = current_lang();
    Ok(Data(page_of(
        page,
        limit,
        total,
        rows.iter().map(|e| item(e, lang)).collect(),
    )))
}

/// Occurrences that began in the last hour on the caller's plants (at most 200), newest first.
#[utoipa::path(get, path = "/api/v1/event/oneHour", tag = "events", security(("bearer" = [])),
    responses((status = 200, description = "The occurrences of the last hour", body = Envelope<RecentOccurrences>)))]
pub async fn one_hour(
    State(app): State<AppState>,
    me: CurrentUser,
) -> ApiResult<Data<RecentOccurrences>> {
    let f = VisibleEventFilter {
        from: Some(now_ms() - 3_600_000),
        limit: MAX_PAGE,
        ..Default::default()
    };
    let (rows, total) = app
        .store
        .occurrences_visible(me.actor.plant_visibility(), me.id(), &f)
        .await?;
    let infos = occurrence_items(&app, &rows, current_lang()).await?;
    Ok(Data(RecentOccurrences { total, infos }))
}
