//! The portal as a VEN toward utilities' OpenADR 3 VTNs, over HTTP: the connections an
//! administrator manages (`sys.energyhub.edit`) and the callback a VTN's webhooks call. The
//! sync itself is a use case (`service::energy_hub::vtn`), run by the job `jobs::vtn_sync`.

mod admin;
mod webhooks;

use crate::AppState;
use service::energy_hub::vtn::Ven;
use utoipa_axum::{router::OpenApiRouter, routes};

pub use admin::SyncSummary;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(admin::list))
        .routes(routes!(admin::save))
        .routes(routes!(admin::sync_now))
        .routes(routes!(admin::remove))
        .routes(routes!(webhooks::echo, webhooks::notify))
        .routes(routes!(webhooks::echo_suffix))
}

/// What the VTN use cases need of this process: its public URL and data directory.
pub(crate) fn ven(app: &AppState) -> Ven {
    Ven {
        public_url: app.config.public_url.clone(),
        data_dir: app.config.data_dir.clone(),
    }
}
