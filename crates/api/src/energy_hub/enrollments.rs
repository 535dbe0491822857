//! Enrollments: create or edit, list, detail, state, devices, unenroll and the actions of
//! the state machine (`domain::energy_hub`), each write a use case of
//! `service::energy_hub::enrollments`.

use axum::extract::{Path, State};
use domain::ids::{EnrollmentId, PlantId, ProgramId};
use domain::permissions::{ENERGYHUB_ENROLL, ENERGYHUB_VIEW};
use domain::{
    Code, DomainError,
    energy_hub::{Action, EnrollmentStatus},
};
use serde::Deserialize;
use service::energy_hub::enrollments as hub;
use store::energy_hub::EnrollmentFilter;
use utoipa::IntoParams;

use super::{id_or, require, require_write, views, visible_enrollment, wire};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    extract::{Body, Query, num},
    paging::{Page, Paging},
    session::CurrentUser,
};
use domain::time::now_ms;

/// Creates an enrollment (pending; accepted at once when a built-in programme auto-accepts)
/// or, with `id`, edits a pending or rejected one (a rejected one is resubmitted).
#[utoipa::path(post, path = "/api/v1/oadr/enrollment", tag = "energy hub",
    request_body = wire::EnrollmentRequest, security(("bearer" = [])),
    responses((status = 200, description = "The enrollment; 2 without energyhub.enroll, 700 plant, 1008 programme, 1002 id, 1007 not pending/rejected, 4 field, 1003, 1004, 1005, 1006", body = Envelope<wire::Enrollment>)))]
pub async fn save(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<wire::EnrollmentRequest>,
) -> ApiResult<Data<wire::Enrollment>> {
    let input = hub::Save {
        id: req.id.map(EnrollmentId),
        program: req.program_id.map(ProgramId),
        plant: req.station_id.map(PlantId),
        form: req.input(),
    };
    let id = hub::save(&app.store, &me.actor, &input, now_ms()).await?;
    Ok(Data(views::load(&app, &me, id).await?))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct EnrollmentQuery {
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub program_id: Option<i64>,
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub station_id: Option<i64>,
    /// pending, accepted, rejected or unenrolled.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub status: Option<String>,
    #[serde(default, deserialize_with = "num::opt_text")]
    pub keyword: Option<String>,
}

/// The enrollments the caller may see, newest first.
#[utoipa::path(get, path = "/api/v1/oadr/enrollments", tag = "energy hub",
    params(Paging, EnrollmentQuery), security(("bearer" = [])),
    responses((status = 200, description = "A page of enrollments; 2 without energyhub.view, 4 status", body = Envelope<Page<wire::Enrollment>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    paging: Paging,
    Query(q): Query<EnrollmentQuery>,
) -> ApiResult<Data<Page<wire::Enrollment>>> {
    require(&me, ENERGYHUB_VIEW)?;
    let status = match q.status.as_deref() {
        None => None,
        Some(s) => Some(
            EnrollmentStatus::parse(s)
                .ok_or_else(|| DomainError::invalid("status"))?
                .as_str()
                .to_string(),
        ),
    };
    let filter = EnrollmentFilter {
        program: q.program_id.map(ProgramId),
        plant: q.station_id.map(PlantId),
        status,
        keyword: q.keyword,
        limit: paging.limit(),
        offset: paging.offset(),
    };
    let (rows, total) = app
        .store
        .enrollments_page(me.actor.plant_visibility(), me.id(), &filter)
        .await?;
    let ids: Vec<_> = rows.iter().map(|e| e.id).collect();
    let devices = app.store.enrollment_devices(&ids).await?;
    let infos = rows
        .iter()
        .map(|e| views::enrollment(&me, e, &devices))
        .collect();
    Ok(Data(Page::new(paging, total, infos)))
}

#[utoipa::path(get, path = "/api/v1/oadr/enrollment/{id}", tag = "energy hub",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The enrollment; 2 without energyhub.view, 1002 missing or not visible", body = Envelope<wire::Enrollment>)))]
pub async fn detail(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(raw): Path<String>,
) -> ApiResult<Data<wire::Enrollment>> {
    require(&me, ENERGYHUB_VIEW)?;
    let e = visible_enrollment(&app, &me, &raw).await?;
    Ok(Data(views::load(&app, &me, e.id).await?))
}

#[utoipa::path(get, path = "/api/v1/oadr/enrollment/{id}/state", tag = "energy hub",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The state; 2 without energyhub.view, 1002", body = Envelope<wire::EnrollmentState>)))]
pub async fn state(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(raw): Path<String>,
) -> ApiResult<Data<wire::EnrollmentState>> {
    require(&me, ENERGYHUB_VIEW)?;
    let e = visible_enrollment(&app, &me, &raw).await?;
    Ok(Data(views::state(&me, &e)))
}

/// Adds devices (hybrid inverters of the plant) to an enrollment.
#[utoipa::path(post, path = "/api/v1/oadr/enrollment/{id}/devices", tag = "energy hub",
    params(("id" = i64, Path)), request_body = wire::DevicesRequest, security(("bearer" = [])),
    responses((status = 200, description = "The enrollment; 2, 1002, 1007 unenrolled, 4 devices (none, more than 10 in all, bad field), 1000 already in it, 1003, 1005, 1006", body = Envelope<wire::Enrollment>)))]
pub async fn add_devices(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(raw): Path<String>,
    Body(req): Body<wire::DevicesRequest>,
) -> ApiResult<Data<wire::Enrollment>> {
    require_write(&me, ENERGYHUB_ENROLL)?;
    let id = id_or(&raw, Code::EnrollmentMissing)?;
    let input: Vec<_> = req
        .devices
        .unwrap_or_default()
        .iter()
        .map(wire::Device::input)
        .collect();
    let id = hub::add_devices(&app.store, &me.actor, id, &input, now_ms()).await?;
    Ok(Data(views::load(&app, &me, id).await?))
}

/// Removes one device; the last one stays (4 `devices`).
#[utoipa::path(post, path = "/api/v1/oadr/enrollment/{id}/devices/{sn}/remove", tag = "energy hub",
    params(("id" = i64, Path), ("sn" = String, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The enrollment; 2, 1002, 1007 unenrolled, 1001 not in it, 4 devices (the last one)", body = Envelope<wire::Enrollment>)))]
pub async fn remove_device(
    State(app): State<AppState>,
    me: CurrentUser,
    Path((raw, sn)): Path<(String, String)>,
) -> ApiResult<Data<wire::Enrollment>> {
    require_write(&me, ENERGYHUB_ENROLL)?;
    let id = id_or(&raw, Code::EnrollmentMissing)?;
    let id = hub::remove_device(&app.store, &me.actor, id, &sn, now_ms()).await?;
    Ok(Data(views::load(&app, &me, id).await?))
}

/// Applies an action of the state machine and answers the enrollment as it now is.
async fn apply(
    app: &AppState,
    me: &CurrentUser,
    raw: &str,
    action: &str,
    reason: Option<&str>,
) -> ApiResult<wire::Enrollment> {
    let id = id_or(raw, Code::EnrollmentMissing)?;
    let id = hub::act(&app.store, &me.actor, id, action, reason, now_ms()).await?;
    views::load(app, me, id).await
}

/// Leaves the programme (the action `quit`).
#[utoipa::path(post, path = "/api/v1/oadr/enrollment/{id}/unenroll", tag = "energy hub",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The enrollment, unenrolled; 2, 1002, 1007 not pending/accepted", body = Envelope<wire::Enrollment>)))]
pub async fn unenroll(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(raw): Path<String>,
) -> ApiResult<Data<wire::Enrollment>> {
    require_write(&me, ENERGYHUB_ENROLL)?;
    Ok(Data(
        apply(&app, &me, &raw, Action::Quit.as_str(), None).await?,
    ))
}

/// join, resubmit, quit, optOut, optIn; the utility on built-in programmes: accept, reject
/// (with a reason).
#[utoipa::path(post, path = "/api/v1/oadr/enrollment/{id}/action", tag = "energy hub",
    params(("id" = i64, Path)), request_body = wire::ActionRequest, security(("bearer" = [])),
    responses((status = 200, description = "The enrollment; 2, 1002, 1007 (unknown action or not allowed now), 4 reason, 1003/1004 on join or resubmit", body = Envelope<wire::Enrollment>)))]
pub async fn action(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(raw): Path<String>,
    Body(req): Body<wire::ActionRequest>,
) -> ApiResult<Data<wire::Enrollment>> {
    require_write(&me, ENERGYHUB_ENROLL)?;
    let action = req.action.as_deref().unwrap_or_default();
    Ok(Data(
        apply(&app, &me, &raw, action, req.reason.as_deref()).await?,
    ))
}
