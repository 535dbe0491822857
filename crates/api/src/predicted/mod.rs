//! Predicted generation: what a plant is expected to produce per month (or per day), imported
//! from a spreadsheet, read back per year, and shown beside the actual energy in the plant's
//! month and year charts and in reports.

pub(crate) mod import;

use axum::extract::{Path, State};
use domain::DomainError;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{
    router::{OpenApiRouter, UtoipaMethodRouterExt},
    routes,
};

use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    extract::{Query, num},
    gateways::sheet::IMPORT_MAX_BYTES,
    monitor::PlantCtx,
    readings,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(import::import).layer(crate::limits::upload(IMPORT_MAX_BYTES)))
        .routes(routes!(import::template))
        .routes(routes!(list))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
pub struct YearQuery {
    /// `YYYY`; this year (plant-local) by default.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub year: Option<String>,
}

/// One stored prediction: a whole month when `day` is 0.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PredictionItem {
    pub year: i64,
    pub month: i64,
    /// 0 for the whole month.
    pub day: i64,
    pub kwh: f64,
}

/// A plant's predicted generation of one year, month rows (day 0) and day rows, in order.
#[utoipa::path(get, path = "/api/v1/plant/{id}/predicted", tag = "predicted",
    params(("id" = i64, Path), YearQuery), security(("bearer" = [])),
    responses((status = 200, description = "The year's predictions; 4 year, 700", body = Envelope<Vec<PredictionItem>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: crate::session::CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<YearQuery>,
) -> ApiResult<Data<Vec<PredictionItem>>> {
    let ctx = PlantCtx::load(&app, &me, &id).await?;
    let year = match q.year.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => i64::from(chrono::Datelike::year(&readings::today(ctx.tz))),
        Some(s) => s
            .parse::<i64>()
            .ok()
            .filter(|y| s.len() == 4 && (1970..=9999).contains(y))
            .ok_or_else(|| DomainError::invalid("year"))?,
    };
    let rows = app.store.plant_predictions(ctx.plant.id, year).await?;
    Ok(Data(
        rows.into_iter()
            .map(|p| PredictionItem {
                year: p.year,
                month: p.month,
                day: p.day,
                kwh: p.kwh,
            })
            .collect(),
    ))
}
