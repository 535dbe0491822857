//! Events: the list and detail as the caller sees them (events of programmes in which they
//! see an enrollment; administrators all), cancelling (for everyone, or opting the caller's
//! enrollments out), and the utility's new built-in events.

use domain::ids::PlantId;
use domain::ids::{EnrollmentId, ProgramId};
use domain::permissions::{ENERGYHUB_EVENT_CANCEL, ENERGYHUB_VIEW, SYS_ENERGYHUB_EDIT};
use std::collections::HashMap;

use axum::extract::{Path, State};
use domain::{
    Code, DomainError,
    energy_hub::{EventInput, EventStatus, Interval},
};
use serde::Deserialize;
use service::energy_hub::events::{self as hub, Sight, Standing};
use store::energy_hub::{EventFilter, EventRow, OptOutRow, VisibleEnrollment};
use utoipa::IntoParams;

use super::{id_or, now_secs, require, require_write, rfc3339_secs, views, wire};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    extract::{Body, Query, num},
    paging::{Page, Paging},
    session::CurrentUser,
};

/// Events one listing considers (newest first): days of a few programmes' events.
const MAX_EVENTS: i64 = 5000;

async fn sight(app: &AppState, me: &CurrentUser, plant: Option<PlantId>) -> ApiResult<Sight> {
    Ok(Sight::of(&app.store, &me.actor, plant).await?)
}

/// The event if the caller sees it; 1009 otherwise.
async fn visible_event(
    app: &AppState,
    me: &CurrentUser,
    raw: &str,
) -> ApiResult<(EventRow, Sight, Vec<OptOutRow>)> {
    let id = id_or(raw, Code::DrEventMissing)?;
    Ok(hub::visible(&app.store, &me.actor, id).await?)
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct EventQuery {
    /// pending, active, completed or cancelled.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub status: Option<String>,
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub program_id: Option<i64>,
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub station_id: Option<i64>,
}

/// The events the caller sees, newest start first.
#[utoipa::path(get, path = "/api/v1/oadr/events", tag = "energy hub",
    params(Paging, EventQuery), security(("bearer" = [])),
    responses((status = 200, description = "A page of events; 2 without energyhub.view, 4 status", body = Envelope<Page<wire::Event>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    paging: Paging,
    Query(q): Query<EventQuery>,
) -> ApiResult<Data<Page<wire::Event>>> {
    require(&me, ENERGYHUB_VIEW)?;
    let status = match q.status.as_deref() {
        None => None,
        Some(s) => Some(EventStatus::parse(s).ok_or_else(|| DomainError::invalid("status"))?),
    };
    let sight = sight(&app, &me, q.station_id.map(PlantId)).await?;
    let programs = match (&sight.programs, q.program_id.map(ProgramId)) {
        (Some(p), Some(one)) => Some(p.iter().copied().filter(|id| *id == one).collect()),
        (Some(p), None) => Some(p.clone()),
        (None, Some(one)) => Some(vec![one]),
        (None, None) => None,
    };
    let events = app
        .store
        .hub_events(&EventFilter {
            programs,
            limit: MAX_EVENTS,
        })
        .await?;
    let ids: Vec<_> = events.iter().map(|e| e.id).collect();
    let opt_outs = app.store.opt_outs_of_events(&ids).await?;
    let now = now_secs();
    let all: Vec<wire::Event> = events
        .iter()
        .map(|e| views::event(e, &Standing::of(e, &sight.mine, &opt_outs), now))
        .filter(|e| status.is_none_or(|s| e.status == s.as_str()))
        .collect();
    let total = all.len() as i64;
    let infos = all
        .into_iter()
        .skip(paging.offset().max(0) as usize)
        .take(paging.limit() as usize)
        .collect();
    Ok(Data(Page::new(paging, total, infos)))
}

fn intervals(e: &EventRow) -> Vec<wire::IntervalOut> {
    let parsed: Vec<Interval> = serde_json::from_str(&e.intervals).unwrap_or_default();
    parsed
        .into_iter()
        .map(|i| wire::IntervalOut {
            id: i.id,
            start_date: rfc3339_secs(i.start),
            end_date: rfc3339_secs(i.end),
            kind: domain::energy_hub::EventKind::parse(&i.kind)
                .unwrap_or(domain::energy_hub::EventKind::Discharge)
                .as_wire(),
            target_kw: i.target_kw,
        })
        .collect()
}

/// The per-device dispatch outcomes of the event, of the caller's visible plants.
async fn dispatch_outcomes(
    app: &AppState,
    event: &EventRow,
    mine: &[VisibleEnrollment],
) -> ApiResult<Vec<wire::DispatchOutcome>> {
    let names: HashMap<_, &str> = mine
        .iter()
        .map(|e| (e.plant_id, e.plant_name.as_str()))
        .collect();
    Ok(app
        .store
        .dispatch_outcomes(event.id)
        .await?
        .into_iter()
        .filter_map(|o| {
            let plant = o.plant_id?;
            let name = names.get(&plant)?;
            Some(wire::DispatchOutcome {
                station_id: plant.0,
                station_name: (*name).to_string(),
                sn: o.device_sn,
                state: o.state,
                error: o.error,
                updated_at: rfc3339_secs(o.updated_at),
            })
        })
        .collect())
}

/// The reports sent to the utility for the event (VTN events; none for built-in ones).
async fn report_outcomes(app: &AppState, event: &EventRow) -> ApiResult<Vec<wire::ReportOutcome>> {
    Ok(app
        .store
        .vtn_reports_of_event(event.id)
        .await?
        .into_iter()
        .map(|r| wire::ReportOutcome {
            payload_type: r.payload_type,
            sent_at: r.sent_at.map(|ms| rfc3339_secs(ms / 1000)),
            error: r.error,
        })
        .collect())
}

#[utoipa::path(get, path = "/api/v1/oadr/event/{id}", tag = "energy hub",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The event with intervals, dispatch outcomes and reports; 2 without energyhub.view, 1009 missing or not visible", body = Envelope<wire::EventDetail>)))]
pub async fn detail(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(raw): Path<String>,
) -> ApiResult<Data<wire::EventDetail>> {
    require(&me, ENERGYHUB_VIEW)?;
    let (event, sight, opt_outs) = visible_event(&app, &me, &raw).await?;
    Ok(Data(wire::EventDetail {
        event: views::event(
            &event,
            &Standing::of(&event, &sight.mine, &opt_outs),
            now_secs(),
        ),
        intervals: intervals(&event),
        dispatches: dispatch_outcomes(&app, &event, &sight.mine).await?,
        reports: report_outcomes(&app, &event).await?,
    }))
}

/// The utility (sys.energyhub.edit) cancels a built-in event for everyone and opts every
/// enrollment out of a VTN's event (a VEN cannot cancel the utility's event); anyone else
/// opts their visible enrollments in the event's programme out (or the one given).
#[utoipa::path(post, path = "/api/v1/oadr/event/{id}/cancel", tag = "energy hub",
    params(("id" = i64, Path)), request_body = wire::CancelRequest, security(("bearer" = [])),
    responses((status = 200, description = "The event as the caller now sees it; 2 without energyhub.event.cancel, 1009, 1010 already over or cancelled, 1002 enrollmentId not the caller's in this programme", body = Envelope<wire::Event>)))]
pub async fn cancel(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(raw): Path<String>,
    Body(req): Body<wire::CancelRequest>,
) -> ApiResult<Data<wire::Event>> {
    require_write(&me, ENERGYHUB_EVENT_CANCEL)?;
    let id = id_or(&raw, Code::DrEventMissing)?;
    let id = hub::cancel(
        &app.store,
        &me.actor,
        id,
        req.enrollment_id.map(EnrollmentId),
        now_secs(),
    )
    .await?;
    let (event, sight, opt_outs) = hub::visible(&app.store, &me.actor, id).await?;
    Ok(Data(views::event(
        &event,
        &Standing::of(&event, &sight.mine, &opt_outs),
        now_secs(),
    )))
}

/// A built-in programme's new event (the utility).
#[utoipa::path(post, path = "/api/v1/oadr/event", tag = "energy hub",
    request_body = wire::EventRequest, security(("bearer" = [])),
    responses((status = 200, description = "The event; 2 without sys.energyhub.edit or for a VTN programme, 1008 programme, 4 name, start, durationMinutes, kind, targetKw, priority", body = Envelope<wire::Event>)))]
pub async fn create(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<wire::EventRequest>,
) -> ApiResult<Data<wire::Event>> {
    require_write(&me, SYS_ENERGYHUB_EDIT)?;
    let now = now_secs();
    let input = EventInput {
        name: req.name,
        start: None,
        duration_minutes: req.duration_minutes,
        kind: req.kind,
        target_kw: req.target_kw,
        priority: req.priority,
    };
    let id = hub::create(
        &app.store,
        &me.actor,
        req.program_id.map(ProgramId),
        req.start.as_deref(),
        input,
        now,
    )
    .await?;
    let event = app.store.hub_event(id).await?.ok_or(Code::DrEventMissing)?;
    let sight = sight(&app, &me, None).await?;
    Ok(Data(views::event(
        &event,
        &Standing::of(&event, &sight.mine, &[]),
        now,
    )))
}
