//! The HTTP API: one router module per domain, thin handlers, the envelope of
//! docs/api-conventions.md. Rules live in `domain` (validation, policy) and in the services here.

pub mod config;
pub mod energy_hub;
pub mod envelope;
pub mod extract;
pub mod openapi;
pub mod paging;
pub mod session;

mod accounts;
mod agent_offers;
mod agents;
mod alarm_engine;
mod audit;
mod auth;
mod batch;
mod batteries;
mod combiners;
mod comm_log;
mod commands;
mod companies;
mod company;
mod customer_offers;
mod customer_types;
mod customers;
mod debug;
mod device_common;
mod dict;
mod events;
mod files;
pub mod firmware;
mod fleet;
mod gateways;
mod headers;
mod inverters;
mod limits;
mod manifest;
mod manuals;
pub use manuals::key as manual_file_key;
mod messages;
mod meters;
mod monitor;
mod owners;
pub use monitor::ReadCaches;
mod permissions;
pub mod plants;
mod predicted;
mod products;
mod protocols;
mod push;
mod readings;
pub mod reports;
mod settings;
mod shares;
mod sheet_read;
mod staff;
mod system;
mod text_enums;
mod upgrades;
mod users;
mod versions;
mod weather_stations;
mod web;
mod webhooks;
pub mod xlsx;

use std::sync::Arc;

use axum::{Router, extract::DefaultBodyLimit, middleware};
use metrics_exporter_prometheus::PrometheusHandle;
use store::Store;
use tower_http::trace::TraceLayer;

pub use config::ApiConfig;
pub use service::files::{FileError, FileStore, FilesBackend, Staged};
pub use service::sessions::REUSE_GRACE_MS;
pub use session::Keys;
pub use system::metrics_router;

#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub config: Arc<ApiConfig>,
    pub keys: Arc<Keys>,
    pub mailer: Arc<service::mailer::Mailer>,
    pub metrics: Option<PrometheusHandle>,
    /// Sends commands to devices through their gateways; `None` where the device link is not
    /// running (commands then answer "connection failed").
    pub commands: Option<devices::link::Dispatcher>,
    /// Every device's newest values as ingest committed them, when this process ingests every
    /// report (the embedded broker); realtime reads try it before the database. `None` with an
    /// external broker, where a replica sees only its share of the reports.
    pub latest: Option<devices::ingest::LatestCache>,
    /// What monitoring reads keep between requests: the plant day curves' per-device means and
    /// the plants' energy of closed days.
    pub caches: Arc<ReadCaches>,
    /// Hands a VTN's webhook notifications to this process's VTN sync job (`jobs::vtn_sync`).
    pub vtn_nudges: service::energy_hub::vtn::Nudges,
}

impl AppState {
    /// Where this request's uploaded files are written and read.
    pub fn files(&self) -> FileStore<'_> {
        FileStore::new(self.config.files, &self.config.data_dir, &self.store)
    }
}

/// The whole HTTP surface of the portal.
pub fn router(state: AppState) -> Router {
    // Where the credential key that seals stored secrets is read from (webhook secrets).
    service::sealing::use_data_dir(&state.config.data_dir);
    let body_limit = state.config.body_limit;
    let csp = headers::policy_header(&state.config.map_tile_url);
    let web = web::router(&state.config);
    let (api, _) = openapi::routes().split_for_parts();
    api.merge(files::router(&state))
        .method_not_allowed_fallback(web::wrong_method)
        .with_state(state)
        .merge(web)
        .layer(middleware::from_fn(system::track))
        .layer(middleware::from_fn(envelope::language))
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(middleware::from_fn_with_state(
            csp,
            headers::security_headers,
        ))
        .layer(TraceLayer::new_for_http())
}
