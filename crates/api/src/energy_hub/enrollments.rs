//! Enrollments: create or edit, list, detail, state, devices, unenroll and the actions of
//! the state machine (`domain::energy_hub`).

use axum::extract::{Path, State};
use domain::{
    Code, DomainError,
    energy_hub::{self, Acting, Action, EnrollmentState, EnrollmentStatus, Today},
};
use serde::Deserialize;
use store::energy_hub::{EnrollmentFilter, EnrollmentRow, NewEnrollment};
use utoipa::IntoParams;

use super::{ENROLL, VIEW, is_utility, require, require_write, views, visible_enrollment, wire};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    extract::{Body, Query, num},
    paging::{Page, Paging},
    session::CurrentUser,
};
use domain::time::now_ms;

fn today() -> String {
    chrono::Utc::now().format("%Y-%m-%d").to_string()
}

fn is_zone(z: &str) -> bool {
    z.parse::<chrono_tz::Tz>().is_ok()
}

/// Each SN must be a hybrid inverter of the plant (1006), not held by another live
/// enrollment (1003).
async fn check_devices(
    app: &AppState,
    plant: i64,
    devices: &[energy_hub::Device],
    except: Option<i64>,
) -> ApiResult<()> {
    let hybrids = super::stations::hybrids(app, plant).await?;
    if devices
        .iter()
        .any(|d| !hybrids.iter().any(|h| h.sn == d.sn))
    {
        return Err(Code::InverterSnWrong.into());
    }
    let sns: Vec<String> = devices.iter().map(|d| d.sn.clone()).collect();
    if !app
        .store
        .dr_sns_in_live_enrollments(&sns, except)
        .await?
        .is_empty()
    {
        return Err(Code::HubDeviceUsed.into());
    }
    Ok(())
}

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
    require_write(&me, ENROLL)?;
    let existing = match req.id {
        Some(id) => Some(visible_enrollment(&app, &me, &id.to_string()).await?),
        None => None,
    };
    let (program_id, plant_id) = match &existing {
        Some(e) => (e.program_id, e.plant_id),
        None => {
            let program = req
                .program_id
                .ok_or_else(|| DomainError::invalid("programId"))?;
            let station = req
                .station_id
                .ok_or_else(|| DomainError::invalid("stationId"))?;
            (program, station)
        }
    };
    let program = app
        .store
        .dr_program(program_id)
        .await?
        .ok_or(Code::ProgramMissing)?;
    if existing.is_none() && !program.active {
        return Err(Code::ProgramMissing.into());
    }
    let plant = super::stations::enrollable(&app, &me, &plant_id.to_string()).await?;
    if let Some(e) = &existing
        && !e.status().is_editable()
    {
        return Err(Code::EnrollmentStateForbids.into());
    }
    let date = today();
    let form = req.input().check(&Today {
        date: &date,
        is_time_zone: &is_zone,
    })?;
    let except = existing.as_ref().map(|e| e.id);
    check_devices(&app, plant.id, &form.devices, except).await?;
    if app
        .store
        .dr_utility_account_taken(program.id, &form.utility_account, except)
        .await?
    {
        return Err(Code::AccountBound.into());
    }
    let status = if program.auto_accept && !program.is_vtn() {
        EnrollmentStatus::Accepted
    } else {
        EnrollmentStatus::Pending
    };
    let id = match existing {
        Some(e) => {
            app.store
                .dr_update_enrollment(e.id, &form, status, now_ms())
                .await?;
            e.id
        }
        None => {
            let new = NewEnrollment {
                program: program.id,
                plant: plant.id,
                created_by: Some(me.id().0),
                status,
                form: &form,
            };
            app.store.dr_create_enrollment(&new, now_ms()).await?
        }
    };
    tracing::info!(enrollment = id, plant = plant.id, by = %me.id(), "energy hub enrollment saved");
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
    require(&me, VIEW)?;
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
        program: q.program_id,
        plant: q.station_id,
        status,
        keyword: q.keyword,
        limit: paging.limit(),
        offset: paging.offset(),
    };
    let (rows, total) = app
        .store
        .dr_enrollments_page(me.actor.plant_visibility(), me.id(), &filter)
        .await?;
    let ids: Vec<i64> = rows.iter().map(|e| e.id).collect();
    let devices = app.store.dr_enrollment_devices(&ids).await?;
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
    require(&me, VIEW)?;
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
    require(&me, VIEW)?;
    let e = visible_enrollment(&app, &me, &raw).await?;
    Ok(Data(views::state(&me, &e)))
}

/// Devices change while the enrollment is live or rejected; not once unenrolled (1007).
fn devices_editable(e: &EnrollmentRow) -> ApiResult<()> {
    if e.status() == EnrollmentStatus::Unenrolled {
        return Err(Code::EnrollmentStateForbids.into());
    }
    Ok(())
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
    require_write(&me, ENROLL)?;
    let e = visible_enrollment(&app, &me, &raw).await?;
    devices_editable(&e)?;
    let input: Vec<_> = req
        .devices
        .unwrap_or_default()
        .iter()
        .map(wire::Device::input)
        .collect();
    let devices = energy_hub::devices(Some(&input), &today())?;
    let held = app.store.dr_enrollment_devices(&[e.id]).await?;
    if devices.iter().any(|d| held.iter().any(|h| h.sn == d.sn)) {
        return Err(Code::HubDeviceExists.into());
    }
    if held.len() + devices.len() > energy_hub::MAX_DEVICES {
        return Err(DomainError::invalid("devices").into());
    }
    check_devices(&app, e.plant_id, &devices, Some(e.id)).await?;
    app.store.dr_add_devices(e.id, &devices, now_ms()).await?;
    Ok(Data(views::load(&app, &me, e.id).await?))
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
    require_write(&me, ENROLL)?;
    let e = visible_enrollment(&app, &me, &raw).await?;
    devices_editable(&e)?;
    let held = app.store.dr_enrollment_devices(&[e.id]).await?;
    if !held.iter().any(|d| d.sn == sn) {
        return Err(Code::HubDeviceMissing.into());
    }
    if held.len() == 1 {
        return Err(DomainError::invalid("devices").into());
    }
    app.store.dr_remove_device(e.id, &sn, now_ms()).await?;
    Ok(Data(views::load(&app, &me, e.id).await?))
}

/// Applies an action of the state machine and stores the outcome.
async fn apply(
    app: &AppState,
    me: &CurrentUser,
    e: &EnrollmentRow,
    action: Action,
    reason: Option<&str>,
) -> ApiResult<wire::Enrollment> {
    let who = Acting {
        is_utility: is_utility(me),
        is_vtn: e.vtn_id.is_some(),
    };
    let now = EnrollmentState {
        status: e.status(),
        opted_out: e.opted_out,
    };
    let mut next = now.apply(action, who)?;
    let reason = match action {
        Action::Reject => energy_hub::reject_reason(reason)?,
        _ => String::new(),
    };
    // A built-in programme that auto-accepts takes a participant back at once.
    if next.status == EnrollmentStatus::Pending && e.vtn_id.is_none() {
        let program = app
            .store
            .dr_program(e.program_id)
            .await?
            .ok_or(Code::ProgramMissing)?;
        if program.auto_accept {
            next.status = EnrollmentStatus::Accepted;
        }
    }
    if next.status.is_live() && !e.status().is_live() {
        let devices = app.store.dr_enrollment_devices(&[e.id]).await?;
        let sns: Vec<String> = devices.iter().map(|d| d.sn.clone()).collect();
        if !app
            .store
            .dr_sns_in_live_enrollments(&sns, Some(e.id))
            .await?
            .is_empty()
        {
            return Err(Code::HubDeviceUsed.into());
        }
        if app
            .store
            .dr_utility_account_taken(e.program_id, &e.utility_account, Some(e.id))
            .await?
        {
            return Err(Code::AccountBound.into());
        }
    }
    app.store
        .dr_set_enrollment_state(e.id, next.status, next.opted_out, &reason, now_ms())
        .await?;
    tracing::info!(enrollment = e.id, action = action.as_str(), by = %me.id(), "energy hub enrollment action");
    views::load(app, me, e.id).await
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
    require_write(&me, ENROLL)?;
    let e = visible_enrollment(&app, &me, &raw).await?;
    Ok(Data(apply(&app, &me, &e, Action::Quit, None).await?))
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
    require_write(&me, ENROLL)?;
    let e = visible_enrollment(&app, &me, &raw).await?;
    let action = Action::parse(req.action.as_deref().unwrap_or_default())?;
    Ok(Data(
        apply(&app, &me, &e, action, req.reason.as_deref()).await?,
    ))
}
