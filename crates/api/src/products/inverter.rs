//! The catalogue as inverters and the plant wizard read it: the inverter products, telling an
//! inverter which product it is, and the hardware versions.

use axum::extract::State;
use domain::{Code, DomainError, ids::ProductId, product::Category};
use serde::Deserialize;
use utoipa::IntoParams;

use super::wire::{Hardware, InverterProductRequest, Product};
use crate::{
    AppState,
    envelope::{Ack, ApiResult, Data, Done, Envelope},
    extract::{Body, Query, num},
    session::CurrentUser,
};
use domain::time::now_ms;

/// The inverter products, by name: for anyone who reads inverters (`inverter.view`) or creates
/// plants (`station.create`), since the inverter detail and the plant wizard offer them.
#[utoipa::path(get, path = "/api/v1/inverter/products", tag = "products",
    security(("bearer" = [])), responses((status = 200, description = "The inverter products; 2", body = Envelope<Vec<Product>>)))]
pub async fn products(
    State(app): State<AppState>,
    me: CurrentUser,
) -> ApiResult<Data<Vec<Product>>> {
    if !(me.actor.has(domain::permissions::INVERTER_VIEW)
        || me.actor.has(domain::permissions::STATION_CREATE))
    {
        return Err(Code::NoPermission.into());
    }
    let rows = app.store.products_of(Category::Inverter).await?;
    let hardware = app.store.hardware(None).await?;
    Ok(Data(
        rows.iter().map(|p| Product::of(p, &hardware)).collect(),
    ))
}

/// Tells a visible inverter which product it is (`inverter.setting` on it; null clears). The
/// product must be an inverter product whose label holds the inverter's type code, or one
/// without a label (4 `productId`). Another tenant's inverter answers 600 like a missing one.
#[utoipa::path(post, path = "/api/v1/inverter/product", tag = "products", request_body = InverterProductRequest,
    security(("bearer" = [])), responses((status = 200, description = "Saved; 2, 4 productId, 600", body = Ack)))]
pub async fn assign(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<InverterProductRequest>,
) -> ApiResult<Done> {
    let sn = req.sn.as_deref().map(str::trim).unwrap_or_default();
    if sn.is_empty() {
        return Err(DomainError::invalid("sn").into());
    }
    let inv = crate::inverters::visible(&app, &me, sn).await?;
    crate::inverters::list::require_on(&me, &inv, domain::permissions::INVERTER_SETTING)?;
    service::products::assign(
        &app.store,
        &me.actor,
        &inv.row,
        inv.plant.as_ref(),
        req.product_id.map(ProductId),
        now_ms(),
    )
    .await?;
    Ok(Done)
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct HardwareQuery {
    /// Only this product's versions.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub product_id: Option<i64>,
}

/// Hardware versions with their product (`sys.product.view`, or firmware editors choosing a
/// firmware's hardware version).
#[utoipa::path(get, path = "/api/v1/hardware", tag = "products", params(HardwareQuery),
    security(("bearer" = [])), responses((status = 200, description = "The hardware versions; 2", body = Envelope<Vec<Hardware>>)))]
pub async fn hardware(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<HardwareQuery>,
) -> ApiResult<Data<Vec<Hardware>>> {
    let readers = [
        domain::permissions::SYS_PRODUCT_VIEW,
        domain::permissions::FIRMWARE_INVERTER_VIEW,
        domain::permissions::FIRMWARE_GATEWAY_VIEW,
    ];
    if !(me.actor.is_internal() && readers.iter().any(|k| me.actor.has(k))) {
        return Err(Code::NoPermission.into());
    }
    let rows = app
        .store
        .hardware(q.product_id.filter(|p| *p > 0).map(ProductId))
        .await?;
    Ok(Data(rows.iter().map(Hardware::from).collect()))
}
