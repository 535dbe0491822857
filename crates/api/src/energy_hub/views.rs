//! Rows to JSON: enrollments with their allowed actions, events as a caller sees them.

use domain::energy_hub::{EventKind, allowed_actions};
use domain::ids::{EnrollmentId, VtnId};
use service::energy_hub::events::Standing;
use store::energy_hub::{DeviceRow, EnrollmentRow, EventRow};

use super::{
    is_utility, rfc3339_secs,
    wire::{AddressOut, DeviceOut, Enrollment, EnrollmentState, Event},
};
use crate::{AppState, envelope::ApiResult, plants::update_at, session::CurrentUser};

fn source(vtn: Option<VtnId>) -> &'static str {
    if vtn.is_some() { "vtn" } else { "local" }
}

fn actions(me: &CurrentUser, e: &EnrollmentRow) -> Vec<&'static str> {
    allowed_actions(e.status(), e.opted_out, is_utility(me), e.vtn_id.is_some())
        .into_iter()
        .map(|a| a.as_str())
        .collect()
}

pub(crate) fn enrollment(me: &CurrentUser, e: &EnrollmentRow, devices: &[DeviceRow]) -> Enrollment {
    Enrollment {
        id: e.id.0,
        program_id: e.program_id.0,
        program_name: e.program_name.clone(),
        source: source(e.vtn_id),
        station_id: e.plant_id.0,
        station_name: e.plant_name.clone(),
        status: e.status().as_str(),
        reason: e.reason.clone(),
        unsupported_reports: e
            .unsupported_reports
            .split(',')
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .collect(),
        opted_out: e.opted_out,
        source_account_number: e.source_account.clone(),
        utility_account_number: e.utility_account.clone(),
        first_name: e.first_name.clone(),
        last_name: e.last_name.clone(),
        email: e.email.clone(),
        service_address: AddressOut {
            country: e.service_country.clone(),
            region: e.service_region.clone(),
            locality: e.service_locality.clone(),
            extended_address: e.service_extended.clone(),
            street_address: e.service_street.clone(),
            postal_code: e.service_postal.clone(),
        },
        mailing_address: AddressOut {
            country: e.mailing_country.clone(),
            region: e.mailing_region.clone(),
            locality: e.mailing_locality.clone(),
            extended_address: e.mailing_extended.clone(),
            street_address: e.mailing_street.clone(),
            postal_code: e.mailing_postal.clone(),
        },
        participation_level: e.participation,
        time_zone: e.time_zone.clone(),
        devices: devices
            .iter()
            .filter(|d| d.enrollment_id == e.id)
            .map(|d| DeviceOut {
                sn: d.sn.clone(),
                manufacturer: d.manufacturer.clone(),
                model: d.model.clone(),
                install_date: d.install_date.clone(),
                charge_capacity: d.charge_kw,
                discharge_capacity: d.discharge_kw,
                storage_capacity: d.storage_kwh,
            })
            .collect(),
        allowed_actions: actions(me, e),
        created_at: update_at(e.created_at),
        updated_at: update_at(e.updated_at),
    }
}

pub(crate) fn state(me: &CurrentUser, e: &EnrollmentRow) -> EnrollmentState {
    EnrollmentState {
        id: e.id.0,
        status: e.status().as_str(),
        reason: e.reason.clone(),
        opted_out: e.opted_out,
        allowed_actions: actions(me, e),
        updated_at: update_at(e.updated_at),
    }
}

/// The enrollment (read again after a write) as JSON.
pub(crate) async fn load(
    app: &AppState,
    me: &CurrentUser,
    id: EnrollmentId,
) -> ApiResult<Enrollment> {
    let row = app
        .store
        .enrollment(id)
        .await?
        .ok_or(domain::Code::EnrollmentMissing)?;
    let devices = app.store.enrollment_devices(&[id]).await?;
    Ok(enrollment(me, &row, &devices))
}

pub(crate) fn event(e: &EventRow, standing: &Standing, now: i64) -> Event {
    let kind = e.kind();
    let opted_out = standing.opted_out();
    let status = standing.status(e, now);
    Event {
        id: e.id.0,
        program_id: e.program_id.0,
        program_name: e.program_name.clone(),
        source: source(e.vtn_id),
        name: e.name.clone(),
        priority: e.priority,
        start_date: rfc3339_secs(e.start_at),
        duration: (e.end_at - e.start_at) / 60,
        end_date: rfc3339_secs(e.end_at),
        kind: kind.as_wire(),
        target_kw: e.target_kw,
        power_discharge: if kind == EventKind::Discharge {
            e.target_kw
        } else {
            0.0
        },
        status: status.as_str(),
        opted_out,
        plants: standing.taking_part.len() as i64,
        created_at: rfc3339_secs(e.created_at),
    }
}
