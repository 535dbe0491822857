//! Plants: creation, listing and map, detail and edit, income, sharing, transfer and delete.
//! Every handler asks the policy (`domain::policy`) what the caller may see and do; a plant
//! they may not see answers 700 exactly like one that does not exist.

pub(crate) mod edit;
pub(crate) mod list;
pub(crate) mod offers;
pub(crate) mod picture;
pub(crate) mod sharing;

use domain::{Code, currency, ids::PlantId, policy::PlantAccess};
use serde::Serialize;
use store::plants::{PlantRow, TariffSegmentRow};
use utoipa::ToSchema;
use utoipa_axum::{
    router::{OpenApiRouter, UtoipaMethodRouterExt},
    routes,
};

use crate::{AppState, dict, envelope::ApiResult, session::CurrentUser, users::path_id};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(edit::create))
        .routes(routes!(list::list))
        .routes(routes!(list::map))
        .routes(routes!(list::filter))
        .routes(routes!(list::overview_count))
        .routes(routes!(list::user_count))
        .routes(
            routes!(picture::upload).layer(crate::limits::upload(domain::plant::PICTURE_MAX_BYTES)),
        )
        .routes(routes!(offers::list))
        .routes(routes!(offers::accept))
        .routes(routes!(offers::decline))
        .routes(routes!(offers::cancel))
        .routes(routes!(edit::detail, edit::update))
        .routes(routes!(edit::update_info))
        .routes(routes!(edit::update_contacts))
        .routes(routes!(edit::update_tariff))
        .routes(routes!(sharing::share))
        .routes(routes!(sharing::cancel_share))
        .routes(routes!(sharing::share_users))
        .routes(routes!(sharing::transfer))
        .routes(routes!(sharing::delete))
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
    service::local_time::utc_time(ms)
}

/// A dictionary entry as plants carry it (currency, time zone): `id` is null when the stored
/// code is not in the dictionary, then `code` and `text` are that code.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DictEntry {
    #[schema(required)]
    pub id: Option<i64>,
    pub code: String,
    /// The currency's symbol, or the zone as `(UTC+01:00) Europe/Madrid`.
    pub text: String,
}

impl DictEntry {
    fn unknown(code: &str) -> Self {
        DictEntry {
            id: None,
            code: code.into(),
            text: code.into(),
        }
    }
}

pub(crate) fn currency_json(code: &str) -> DictEntry {
    match currency::find(code) {
        Some(c) => DictEntry {
            id: Some(c.id),
            code: c.code.into(),
            text: c.symbol.into(),
        },
        None => DictEntry::unknown(code),
    }
}

pub(crate) fn timezone_json(code: &str) -> DictEntry {
    match dict::timezone_by_id_or_code(code) {
        Some((id, tz)) => {
            // The dictionary's own entry, so the text reads the same as in `/dict/timezones`.
            let entry = dict::timezone_json(id, tz);
            DictEntry {
                id: Some(id),
                code: tz.name().into(),
                text: entry["text"].as_str().unwrap_or_default().into(),
            }
        }
        None => DictEntry::unknown(code),
    }
}

/// One row of a plant's tariff.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TariffRow {
    pub id: i64,
    /// `HH:MM` for a time of use, a volume for a volume price, else empty.
    pub start_range: String,
    pub end_range: String,
    /// Price per kWh in the plant's currency.
    pub price: f64,
    /// 1 constant, 2 time of use, 3 by generation/volume.
    #[serde(rename = "type")]
    pub kind: i64,
    pub station_id: i64,
    pub create_at: String,
    /// `import`, `export` or null.
    #[schema(required)]
    pub status: Option<String>,
}

pub(crate) fn tariff_row(c: &TariffSegmentRow) -> TariffRow {
    TariffRow {
        id: c.id,
        start_range: c.start_range.clone(),
        end_range: c.end_range.clone(),
        price: c.price,
        kind: c.kind,
        station_id: c.plant_id.0,
        create_at: crate::users::create_at(c.created_at),
        status: c.direction.clone(),
    }
}
