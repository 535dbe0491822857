//! Which settings an inverter offers (`service::setting_offers`), for an inverter a request
//! named.

use domain::settings::Offer;

use crate::{AppState, envelope::ApiResult, inverters::Inverter};

/// The settings the inverter offers (601 when its map writes nothing, 605 when it writes none
/// of its family's fields).
pub(crate) async fn offer_of(app: &AppState, inv: &Inverter) -> ApiResult<Offer> {
    Ok(
        service::setting_offers::offer_for(&app.store, inv.row.type_code, &inv.row.protocol)
            .await?,
    )
}
