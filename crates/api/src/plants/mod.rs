//! Plants: creation, listing and map, detail and edit, income, sharing, transfer and delete.
//! Every handler asks the policy (`domain::policy`) what the caller may see and do; a plant
//! they may not see answers 700 exactly like one that does not exist.

pub(crate) mod edit;
pub(crate) mod list;
pub(crate) mod offers;
pub(crate) mod picture;
pub(crate) mod sharing;

use axum::{
    Router,
    routing::{get, post},
};
use domain::{Code, currency, ids::PlantId, policy::PlantAccess};
use serde_json::{Value, json};
use store::plants::{ChargeRow, PlantRow};

use crate::{AppState, dict, envelope::ApiResult, session::CurrentUser, users::path_id};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/plant", post(edit::create))
        .route("/api/v1/plants", get(list::list))
        .route("/api/v1/plants/map", get(list::map))
        .route("/api/v1/plant/filter", get(list::filter))
        .route("/api/v1/overview/plantCount", get(list::overview_count))
        .route("/api/v1/user/{id}/plantCount", get(list::user_count))
        .route(
            "/api/v1/plant/thumbnail",
            post(picture::upload).layer(crate::limits::upload(domain::plant::PICTURE_MAX_BYTES)),
        )
        .route("/api/v1/plant/offers", get(offers::list))
        .route("/api/v1/plant/{id}/offer/accept", post(offers::accept))
        .route("/api/v1/plant/{id}/offer/decline", post(offers::decline))
        .route("/api/v1/plant/{id}/offer/cancel", post(offers::cancel))
        .route("/api/v1/plant/{id}", get(edit::detail).post(edit::update))
        .route("/api/v1/plant/{id}/info", post(edit::update_info))
        .route("/api/v1/plant/{id}/contacts", post(edit::update_contacts))
        .route("/api/v1/plant/{id}/income", post(edit::update_income))
        .route("/api/v1/plant/{id}/share", post(sharing::share))
        .route(
            "/api/v1/plant/{id}/cancelShare",
            post(sharing::cancel_share),
        )
        .route(
            "/api/v1/plant/{id}/getShareUsers",
            get(sharing::share_users),
        )
        .route("/api/v1/plant/{id}/transfer", post(sharing::transfer))
        .route("/api/v1/plant/{id}/delete", post(sharing::delete))
}

/// The plant with this id if the caller may see it, and why they may.
pub(crate) async fn visible(
    app: &AppState,
    me: &CurrentUser,
    raw_id: &str,
) -> ApiResult<(PlantRow, PlantAccess)> {
    let id = path_id(raw_id).map_err(|_| Code::PlantMissing)?;
    Ok(service::plants::visible(&app.store, &me.actor, PlantId(id)).await?)
}

/// `updateAt` exactly as clients parse it: `YYYY-MM-DDTHH:MM:SSZ`.
pub(crate) fn update_at(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

pub(crate) fn currency_json(code: &str) -> Value {
    match currency::find(code) {
        Some(c) => json!({"id": c.id, "code": c.code, "text": c.symbol}),
        None => json!({"id": null, "code": code, "text": code}),
    }
}

pub(crate) fn timezone_json(code: &str) -> Value {
    match dict::timezone_by_id_or_code(code) {
        Some((id, tz)) => dict::timezone_json(id, tz),
        None => json!({"id": null, "code": code, "text": code}),
    }
}

pub(crate) fn charge_json(c: &ChargeRow) -> Value {
    json!({
        "id": c.id, "startRange": c.start_range, "endRange": c.end_range, "price": c.price,
        "type": c.kind, "stationId": c.plant_id, "createAt": crate::users::create_at(c.created_at),
        "status": c.direction,
    })
}
