//! What the enrollment form reads about plants: the plants a user has that the caller may
//! enroll, a plant's hybrid inverters, and its time zone. Enrolling a plant belongs to its
//! owner, the staff of a company serving it and administrators: a plant merely shared with
//! the caller is not offered (and answers 700 like a missing one).

use axum::extract::{Path, State};
use domain::ids::PlantId;
use domain::ids::UserId;
use domain::permissions::ENERGYHUB_VIEW;
use domain::{Code, device::InverterKind, policy::PlantAccess};
use store::plants::{PlantFilter, PlantRow};

use super::{require, wire};
use crate::{
    AppState,
    envelope::ApiResult,
    envelope::{Data, Envelope},
    session::CurrentUser,
};

/// Plants a user may have at most in this list.
const MAX_PLANTS: i64 = 1000;

/// The plant if the caller may enroll it (owner, serving company, internal); 700 otherwise.
pub(crate) async fn enrollable(app: &AppState, me: &CurrentUser, raw: &str) -> ApiResult<PlantRow> {
    let (plant, access) = crate::plants::visible(app, me, raw).await?;
    match access {
        PlantAccess::Owner | PlantAccess::Company | PlantAccess::Internal => Ok(plant),
        PlantAccess::Maintainer | PlantAccess::Visitor => Err(Code::PlantMissing.into()),
    }
}

/// The plants of user `id` the caller may enroll: their own (own id), a customer's (company
/// staff), anyone's (administrators). A user the caller may not act for: an empty list.
#[utoipa::path(get, path = "/api/v1/oadr/userStationList/{id}", tag = "energy hub",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Plants; 2 without energyhub.view", body = Envelope<Vec<wire::Station>>)))]
pub async fn user_stations(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(raw): Path<String>,
) -> ApiResult<Data<Vec<wire::Station>>> {
    require(&me, ENERGYHUB_VIEW)?;
    let Ok(user) = raw.trim().parse::<i64>().map(UserId) else {
        return Ok(Data(Vec::new()));
    };
    let filter = PlantFilter {
        owner: Some(user),
        limit: MAX_PLANTS,
        ..PlantFilter::default()
    };
    let (plants, _) = app
        .store
        .plants(me.actor.plant_visibility(), me.id(), &filter)
        .await?;
    let plants: Vec<PlantRow> = plants
        .into_iter()
        .filter(|p| {
            matches!(
                me.actor.plant_access(&p.scope()),
                Some(PlantAccess::Owner | PlantAccess::Company | PlantAccess::Internal)
            )
        })
        .collect();
    let ids: Vec<_> = plants.iter().map(|p| p.id).collect();
    let enrolled = app.store.enrolled_plants(&ids).await?;
    Ok(Data(
        plants
            .into_iter()
            .map(|p| wire::Station {
                enrolled: enrolled.contains(&p.id),
                id: p.id.0,
                name: p.name,
                time_zone: p.timezone,
                address: p.address,
            })
            .collect(),
    ))
}

/// Hybrid inverters the form offers, with default capacities from their rating.
pub(crate) async fn hybrids(app: &AppState, plant: PlantId) -> ApiResult<Vec<wire::MasterDevice>> {
    let rows = app.store.enrollable_inverters(plant).await?;
    Ok(rows
        .into_iter()
        .filter(|d| InverterKind::from_code(d.type_code).is_hybrid())
        .map(|d| {
            let manufacturer = d.protocol.split('-').next().unwrap_or_default();
            let mut manufacturer: Vec<char> = manufacturer.chars().collect();
            if let Some(first) = manufacturer.first_mut() {
                *first = first.to_ascii_uppercase();
            }
            wire::MasterDevice {
                sn: d.sn,
                manufacturer: manufacturer.into_iter().collect(),
                model: d.product_name.unwrap_or(d.model),
                install_date: crate::plants::update_at(d.created_at)
                    .get(..10)
                    .unwrap_or_default()
                    .to_string(),
                rated_power: d.rated_power,
                charge_capacity: d.rated_power,
                discharge_capacity: d.rated_power,
                storage_capacity: 0.0,
                has_battery: d.has_battery,
            }
        })
        .collect())
}

/// The plant's hybrid inverters (the devices an enrollment may hold: those with a battery).
#[utoipa::path(get, path = "/api/v1/oadr/stationMasterDevice/{stationId}", tag = "energy hub",
    params(("stationId" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Hybrid inverters; 2 without energyhub.view, 700 plant missing or not the caller's to enroll", body = Envelope<Vec<wire::MasterDevice>>)))]
pub async fn master_devices(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(raw): Path<String>,
) -> ApiResult<Data<Vec<wire::MasterDevice>>> {
    require(&me, ENERGYHUB_VIEW)?;
    let plant = enrollable(&app, &me, &raw).await?;
    Ok(Data(hybrids(&app, plant.id).await?))
}

/// The plant's time zone (IANA name).
#[utoipa::path(get, path = "/api/v1/oadr/stationTimezoneId/{stationId}", tag = "energy hub",
    params(("stationId" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The zone; 2 without energyhub.view, 700 plant missing or not the caller's to enroll", body = Envelope<String>)))]
pub async fn time_zone(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(raw): Path<String>,
) -> ApiResult<Data<String>> {
    require(&me, ENERGYHUB_VIEW)?;
    let plant = enrollable(&app, &me, &raw).await?;
    Ok(Data(plant.timezone))
}
