//! Plants offered to the caller: company staff who create a plant for someone who is not yet
//! their company's customer keep it in their own name and offer it; the account accepts it (and
//! becomes the company's customer) or declines it, and the maker may withdraw the offer.

use axum::extract::{Path, State};
use domain::{Code, ids::PlantId};
use serde::Serialize;
use store::{offers::OfferRow, plants::PlantRow};
use utoipa::ToSchema;

use crate::{
    AppState,
    envelope::{Ack, ApiResult, Data, Done, Envelope},
    session::CurrentUser,
    users::{create_at, path_id},
};
use domain::time::now_ms;

/// A plant waiting for the caller to accept it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlantOffer {
    pub plant_id: i64,
    pub name: String,
    pub address: String,
    /// Installed capacity, kWp.
    pub total_power: f64,
    #[serde(rename = "type")]
    pub plant_type: i64,
    #[schema(required)]
    pub company_id: Option<i64>,
    #[schema(required)]
    pub company_name: Option<String>,
    /// The account that offers it.
    pub offered_by: String,
    pub offered_by_name: String,
    pub offered_at: String,
}

impl From<OfferRow> for PlantOffer {
    fn from(o: OfferRow) -> Self {
        PlantOffer {
            plant_id: o.plant_id.0,
            name: o.name,
            address: o.address,
            total_power: o.total_power,
            plant_type: o.plant_type,
            company_id: o.company_id.map(|v| v.0),
            company_name: o.company_name,
            offered_by: o.offered_by,
            offered_by_name: o.offered_by_name,
            offered_at: create_at(o.offered_at),
        }
    }
}

/// The offer a plant is under, as those who may see the plant read it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PendingOffer {
    pub account: String,
    pub nickname: String,
    pub offered_at: String,
}

pub(crate) async fn pending(app: &AppState, p: &PlantRow) -> ApiResult<Option<PendingOffer>> {
    let (Some(to), Some(at)) = (p.offered_to, p.offered_at) else {
        return Ok(None);
    };
    Ok(app.store.user(to).await?.map(|u| PendingOffer {
        account: u.account,
        nickname: u.nickname,
        offered_at: create_at(at),
    }))
}

/// The plants offered to the caller, newest first.
#[utoipa::path(get, path = "/api/v1/plant/offers", tag = "plants", security(("bearer" = [])),
    responses((status = 200, description = "The offers", body = Envelope<Vec<PlantOffer>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
) -> ApiResult<Data<Vec<PlantOffer>>> {
    let offers = app.store.plant_offers(me.id()).await?;
    Ok(Data(offers.into_iter().map(PlantOffer::from).collect()))
}

/// Accepts a plant offered to the caller: it becomes theirs, and they become the offering
/// company's customer. 700 when no such offer waits for them.
#[utoipa::path(post, path = "/api/v1/plant/{id}/offer/accept", tag = "plants", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Done; 2 read-only, 700", body = Ack)))]
pub async fn accept(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Done> {
    let id = path_id(&id).map_err(|_| Code::PlantMissing)?;
    service::plants::offers::accept(&app.store, &me.actor, PlantId(id), now_ms()).await?;
    Ok(Done)
}

/// Declines a plant offered to the caller; it stays with whoever offered it. 700 when no such
/// offer waits for them.
#[utoipa::path(post, path = "/api/v1/plant/{id}/offer/decline", tag = "plants", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Done; 700", body = Ack)))]
pub async fn decline(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Done> {
    let id = path_id(&id).map_err(|_| Code::PlantMissing)?;
    service::plants::offers::decline(&app.store, &me.actor, PlantId(id)).await?;
    Ok(Done)
}

/// Withdraws the offer of a plant the caller may edit (`station.edit`); the plant stays theirs.
#[utoipa::path(post, path = "/api/v1/plant/{id}/offer/cancel", tag = "plants", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Done; 2, 700", body = Ack)))]
pub async fn cancel(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Done> {
    let id = path_id(&id).map_err(|_| Code::PlantMissing)?;
    service::plants::offers::cancel(&app.store, &me.actor, PlantId(id)).await?;
    Ok(Done)
}
