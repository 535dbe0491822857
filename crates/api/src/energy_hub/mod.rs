//! The energy hub (demand response, docs/energy-hub.md): programmes, enrollments of plants
//! with their devices, events and cancelling them. Reading needs `energyhub.view`, enrolling
//! `energyhub.enroll`, cancelling `energyhub.event.cancel`; acting as the utility (built-in
//! programmes and events, accepting and rejecting enrollments) `sys.energyhub.edit`.
//! An enrollment, event or device of another tenant answers as missing (1002, 1009, 1001).

pub(crate) mod enrollments;
pub(crate) mod events;
pub(crate) mod programs;
pub(crate) mod stations;
pub(crate) mod views;
pub mod vtn;
pub(crate) mod wire;

use domain::permissions::SYS_ENERGYHUB_EDIT;
use domain::{Code, DomainError};
use store::energy_hub::EnrollmentRow;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{AppState, envelope::ApiResult, session::CurrentUser};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(programs::list))
        .routes(routes!(programs::save))
        .routes(routes!(programs::timezones))
        .routes(routes!(stations::user_stations))
        .routes(routes!(stations::master_devices))
        .routes(routes!(stations::time_zone))
        .routes(routes!(enrollments::save))
        .routes(routes!(enrollments::list))
        .routes(routes!(enrollments::detail))
        .routes(routes!(enrollments::state))
        .routes(routes!(enrollments::add_devices))
        .routes(routes!(enrollments::remove_device))
        .routes(routes!(enrollments::unenroll))
        .routes(routes!(enrollments::action))
        .routes(routes!(events::list))
        .routes(routes!(events::detail))
        .routes(routes!(events::cancel))
        .routes(routes!(events::create))
}

pub(crate) fn require(me: &CurrentUser, key: &str) -> ApiResult<()> {
    Ok(me.actor.require(key)?)
}

/// Writes also need a writable account.
pub(crate) fn require_write(me: &CurrentUser, key: &str) -> ApiResult<()> {
    me.actor.require(key)?;
    Ok(me.actor.require_writable()?)
}

pub(crate) fn is_utility(me: &CurrentUser) -> bool {
    me.actor.has(SYS_ENERGYHUB_EDIT)
}

/// An id from the path; anything else is missing like an unknown id.
pub(crate) fn id_or<T: From<i64>>(raw: &str, missing: Code) -> ApiResult<T> {
    raw.trim()
        .parse::<i64>()
        .map(T::from)
        .map_err(|_| DomainError::from(missing).into())
}

/// The enrollment if the caller may see it; 1002 otherwise.
pub(crate) async fn visible_enrollment(
    app: &AppState,
    me: &CurrentUser,
    raw_id: &str,
) -> ApiResult<EnrollmentRow> {
    let id = id_or(raw_id, Code::EnrollmentMissing)?;
    app.store
        .enrollment_visible(id, me.actor.plant_visibility(), me.id())
        .await?
        .ok_or_else(|| Code::EnrollmentMissing.into())
}

/// `YYYY-MM-DDTHH:MM:SSZ` of unix seconds.
pub(crate) fn rfc3339_secs(secs: i64) -> String {
    crate::plants::update_at(secs.saturating_mul(1000))
}

pub(crate) fn now_secs() -> i64 {
    domain::time::now_ms() / 1000
}
