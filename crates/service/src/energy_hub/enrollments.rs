//! Enrollments: create or edit one with its devices, add and remove devices, and the actions
//! of the state machine (`domain::energy_hub`). Each answers the enrollment's id; the caller
//! reads it back as the actor sees it.

use domain::ids::{EnrollmentId, ProgramId};
use domain::permissions::{ENERGYHUB_ENROLL, SYS_ENERGYHUB_EDIT};
use domain::{
    Code, DomainError,
    device::InverterKind,
    energy_hub::{
        self, Acting, Action, DeviceInput, EnrollmentInput, EnrollmentState, EnrollmentStatus,
        Today,
    },
    ids::PlantId,
    policy::{Actor, PlantAccess},
};
use serde_json::json;
use store::{
    Store,
    energy_hub::{EnrollmentRow, NewEnrollment},
    plants::PlantRow,
};

use super::{on_enrollment, require_write, visible_enrollment};
use crate::{Result, audit};

/// What the enrollment form sends: a new enrollment names its programme and plant; an edit
/// names the enrollment (`id`) and keeps both.
#[derive(Debug, Clone, Default)]
pub struct Save {
    pub id: Option<EnrollmentId>,
    pub program: Option<ProgramId>,
    pub plant: Option<PlantId>,
    pub form: EnrollmentInput,
}

/// `YYYY-MM-DD` of `now` (milliseconds), the day device install dates are checked against.
fn today(now: i64) -> String {
    chrono::DateTime::from_timestamp_millis(now)
        .unwrap_or_default()
        .format("%Y-%m-%d")
        .to_string()
}

fn is_zone(z: &str) -> bool {
    z.parse::<chrono_tz::Tz>().is_ok()
}

/// The plant if the actor may enroll it (owner, serving company, internal); 700 otherwise.
pub async fn enrollable(store: &Store, actor: &Actor, plant: PlantId) -> Result<PlantRow> {
    let (plant, access) = crate::plants::visible(store, actor, plant).await?;
    match access {
        PlantAccess::Owner | PlantAccess::Company | PlantAccess::Internal => Ok(plant),
        PlantAccess::Maintainer | PlantAccess::Visitor => Err(Code::PlantMissing.into()),
    }
}

/// Each SN must be a hybrid inverter of the plant (1006), not held by another live
/// enrollment (1003).
async fn check_devices(
    store: &Store,
    plant: PlantId,
    devices: &[energy_hub::Device],
    except: Option<EnrollmentId>,
) -> Result<()> {
    let hybrids: Vec<String> = store
        .enrollable_inverters(plant)
        .await?
        .into_iter()
        .filter(|d| InverterKind::from_code(d.type_code).is_hybrid())
        .map(|d| d.sn)
        .collect();
    if devices.iter().any(|d| !hybrids.contains(&d.sn)) {
        return Err(Code::InverterSnWrong.into());
    }
    let sns: Vec<String> = devices.iter().map(|d| d.sn.clone()).collect();
    if !store
        .sns_in_live_enrollments(&sns, except)
        .await?
        .is_empty()
    {
        return Err(Code::HubDeviceUsed.into());
    }
    Ok(())
}

/// Creates an enrollment (pending; accepted at once when a built-in programme auto-accepts)
/// or, with `id`, edits a pending or rejected one (a rejected one is resubmitted), with its
/// devices and its audit entry in one transaction.
pub async fn save(store: &Store, actor: &Actor, input: &Save, now: i64) -> Result<EnrollmentId> {
    require_write(actor, ENERGYHUB_ENROLL)?;
    let existing = match input.id {
        Some(id) => Some(visible_enrollment(store, actor, id).await?),
        None => None,
    };
    let (program_id, plant_id) = match &existing {
        Some(e) => (e.program_id, e.plant_id),
        None => {
            let program = input
                .program
                .ok_or_else(|| DomainError::invalid("programId"))?;
            let plant = input
                .plant
                .ok_or_else(|| DomainError::invalid("stationId"))?;
            (program, plant)
        }
    };
    let program = store
        .program(program_id)
        .await?
        .ok_or(Code::ProgramMissing)?;
    if existing.is_none() && !program.active {
        return Err(Code::ProgramMissing.into());
    }
    let plant = enrollable(store, actor, plant_id).await?;
    if let Some(e) = &existing
        && !e.status().is_editable()
    {
        return Err(Code::EnrollmentStateForbids.into());
    }
    let date = today(now);
    let form = input.form.check(&Today {
        date: &date,
        is_time_zone: &is_zone,
    })?;
    let except = existing.as_ref().map(|e| e.id);
    check_devices(store, plant.id, &form.devices, except).await?;
    if store
        .utility_account_taken(program.id, &form.utility_account, except)
        .await?
    {
        return Err(Code::AccountBound.into());
    }
    let status = if program.auto_accept && !program.is_vtn() {
        EnrollmentStatus::Accepted
    } else {
        EnrollmentStatus::Pending
    };
    let sns: Vec<&str> = form.devices.iter().map(|d| d.sn.as_str()).collect();
    let detail =
        json!({"program": program.id, "status": status.as_str(), "devices": sns}).to_string();
    let id = match existing {
        Some(e) => {
            let target = format!("enrollment:{}", e.id);
            let entry = audit::admin_entry(
                on_enrollment(actor, &e),
                domain::audit_action::ENERGYHUB_ENROLLMENT_EDIT,
                &target,
                &detail,
                now,
            );
            store
                .update_enrollment(e.id, &form, status, now, &entry)
                .await?;
            e.id
        }
        None => {
            let entry = audit::admin_entry(
                audit::author(actor, Some(&plant)),
                domain::audit_action::ENERGYHUB_ENROLLMENT_CREATE,
                "enrollment",
                &detail,
                now,
            );
            let new = NewEnrollment {
                program: program.id,
                plant: plant.id,
                created_by: Some(actor.id),
                status,
                form: &form,
            };
            store.create_enrollment(&new, now, Some(&entry)).await?
        }
    };
    tracing::info!(enrollment = %id, plant = %plant.id, by = %actor.id, "energy hub enrollment saved");
    Ok(id)
}

/// Devices change while the enrollment is live or rejected; not once unenrolled (1007).
fn devices_editable(e: &EnrollmentRow) -> Result<()> {
    if e.status() == EnrollmentStatus::Unenrolled {
        return Err(Code::EnrollmentStateForbids.into());
    }
    Ok(())
}

/// Adds devices (hybrid inverters of the plant) to an enrollment, with the audit entry.
pub async fn add_devices(
    store: &Store,
    actor: &Actor,
    id: EnrollmentId,
    input: &[DeviceInput],
    now: i64,
) -> Result<EnrollmentId> {
    require_write(actor, ENERGYHUB_ENROLL)?;
    let e = visible_enrollment(store, actor, id).await?;
    devices_editable(&e)?;
    let devices = energy_hub::devices(Some(input), &today(now))?;
    let held = store.enrollment_devices(&[e.id]).await?;
    if devices.iter().any(|d| held.iter().any(|h| h.sn == d.sn)) {
        return Err(Code::HubDeviceExists.into());
    }
    if held.len() + devices.len() > energy_hub::MAX_DEVICES {
        return Err(DomainError::invalid("devices").into());
    }
    check_devices(store, e.plant_id, &devices, Some(e.id)).await?;
    let sns: Vec<&str> = devices.iter().map(|d| d.sn.as_str()).collect();
    let detail = json!({"devices": sns}).to_string();
    let target = format!("enrollment:{}", e.id);
    let entry = audit::admin_entry(
        on_enrollment(actor, &e),
        domain::audit_action::ENERGYHUB_ENROLLMENT_DEVICES_ADD,
        &target,
        &detail,
        now,
    );
    store
        .add_enrollment_devices(e.id, &devices, now, &entry)
        .await?;
    Ok(e.id)
}

/// Removes one device; the last one stays (4 `devices`).
pub async fn remove_device(
    store: &Store,
    actor: &Actor,
    id: EnrollmentId,
    sn: &str,
    now: i64,
) -> Result<EnrollmentId> {
    require_write(actor, ENERGYHUB_ENROLL)?;
    let e = visible_enrollment(store, actor, id).await?;
    devices_editable(&e)?;
    let held = store.enrollment_devices(&[e.id]).await?;
    if !held.iter().any(|d| d.sn == sn) {
        return Err(Code::HubDeviceMissing.into());
    }
    if held.len() == 1 {
        return Err(DomainError::invalid("devices").into());
    }
    let detail = json!({"sn": sn}).to_string();
    let target = format!("enrollment:{}", e.id);
    let entry = audit::admin_entry(
        on_enrollment(actor, &e),
        domain::audit_action::ENERGYHUB_ENROLLMENT_DEVICES_REMOVE,
        &target,
        &detail,
        now,
    );
    store
        .remove_enrollment_device(e.id, sn, now, &entry)
        .await?;
    Ok(e.id)
}

/// Applies an action of the state machine (join, resubmit, quit, optOut, optIn; the utility
/// on built-in programmes: accept, reject with a reason) and stores the outcome with its
/// audit entry. An unknown action: 1007, once the enrollment is found.
pub async fn act(
    store: &Store,
    actor: &Actor,
    id: EnrollmentId,
    action: &str,
    reason: Option<&str>,
    now: i64,
) -> Result<EnrollmentId> {
    require_write(actor, ENERGYHUB_ENROLL)?;
    let e = visible_enrollment(store, actor, id).await?;
    let action = Action::parse(action)?;
    let who = Acting {
        is_utility: actor.has(SYS_ENERGYHUB_EDIT),
        is_vtn: e.vtn_id.is_some(),
    };
    let state = EnrollmentState {
        status: e.status(),
        opted_out: e.opted_out,
    };
    let mut next = state.apply(action, who)?;
    let reason = match action {
        Action::Reject => energy_hub::reject_reason(reason)?,
        _ => String::new(),
    };
    // A built-in programme that auto-accepts takes a participant back at once.
    if next.status == EnrollmentStatus::Pending && e.vtn_id.is_none() {
        let program = store
            .program(e.program_id)
            .await?
            .ok_or(Code::ProgramMissing)?;
        if program.auto_accept {
            next.status = EnrollmentStatus::Accepted;
        }
    }
    if next.status.is_live() && !e.status().is_live() {
        let devices = store.enrollment_devices(&[e.id]).await?;
        let sns: Vec<String> = devices.iter().map(|d| d.sn.clone()).collect();
        if !store
            .sns_in_live_enrollments(&sns, Some(e.id))
            .await?
            .is_empty()
        {
            return Err(Code::HubDeviceUsed.into());
        }
        if store
            .utility_account_taken(e.program_id, &e.utility_account, Some(e.id))
            .await?
        {
            return Err(Code::AccountBound.into());
        }
    }
    let detail = json!({
        "action": action.as_str(),
        "status": next.status.as_str(),
        "optedOut": next.opted_out,
        "reason": reason,
    })
    .to_string();
    let target = format!("enrollment:{}", e.id);
    let entry = audit::admin_entry(
        on_enrollment(actor, &e),
        domain::audit_action::ENERGYHUB_ENROLLMENT_ACTION,
        &target,
        &detail,
        now,
    );
    store
        .set_enrollment_state(e.id, next.status, next.opted_out, &reason, now, &entry)
        .await?;
    tracing::info!(enrollment = %e.id, action = action.as_str(), by = %actor.id, "energy hub enrollment action");
    Ok(e.id)
}
