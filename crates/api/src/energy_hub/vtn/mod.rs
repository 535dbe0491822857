//! The portal as a VEN toward utilities' OpenADR 3 VTNs: the connections an administrator
//! manages (`sys.energyhub.edit`), and the sync that mirrors programmes and events, keeps one
//! VTN resource per enrolled plant and sends the reports the events ask for.

mod admin;
mod enroll;
mod reporting;
pub mod secrets;
mod sync;
mod webhooks;

use crate::AppState;
use crate::envelope::{ApiError, ApiResult};
use secrets::Sealer;
use std::sync::OnceLock;
use utoipa_axum::{router::OpenApiRouter, routes};

pub use sync::{SyncSummary, run, sync_vtn};

pub const EDIT: &str = domain::permissions::SYS_ENERGYHUB_EDIT;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(admin::list))
        .routes(routes!(admin::save))
        .routes(routes!(admin::sync_now))
        .routes(routes!(admin::remove))
        .routes(routes!(webhooks::echo, webhooks::notify))
        .routes(routes!(webhooks::echo_suffix))
}

/// The process's credential key (see [`secrets`]); loaded once.
pub(crate) fn sealer(app: &AppState) -> ApiResult<&'static Sealer> {
    static SEALER: OnceLock<Result<Sealer, String>> = OnceLock::new();
    SEALER
        .get_or_init(|| Sealer::load(&app.config.data_dir).map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| ApiError::internal("energy hub key", e))
}

/// Unix seconds (the unit of `dr_events` times).
pub(crate) fn now_s() -> i64 {
    chrono::Utc::now().timestamp()
}
