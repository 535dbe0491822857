//! The inverter's own energy bars: a month per day, a year per month, all time per year, one
//! series per metric, from the day rollups.

use axum::extract::{Path, State};

use super::{DateQuery, Span, bars};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    extract::Query,
    inverters::visible,
    inverters::wire::SeriesAnswer,
    session::CurrentUser,
};

/// Every energy metric of the inverter's own bars; PV first (`infos[0]`).
const INVERTER_METRICS: [(&str, &str); 7] = [
    ("pv", "PV"),
    ("load", "Load"),
    ("grid_import", "Import"),
    ("grid_export", "Export"),
    ("charge", "Charge"),
    ("discharge", "Discharge"),
    ("generator", "Generator"),
];

async fn inverter_bars(
    span: Span,
    app: AppState,
    me: CurrentUser,
    sn: String,
    q: DateQuery,
) -> ApiResult<Data<SeriesAnswer>> {
    let inv = visible(&app, &me, &sn).await?;
    Ok(Data(
        bars(&app, &inv, span, q.date.as_deref(), &INVERTER_METRICS).await?,
    ))
}

/// Energy per day of a month (`date=YYYY-MM`), one series per metric, `infos[0]` PV (kWh).
#[utoipa::path(get, path = "/api/v1/inverter/{sn}/month", tag = "inverters", params(("sn" = String, Path), DateQuery),
    security(("bearer" = [])), responses((status = 200, description = "Energy bars (kWh, from day rollups); 600", body = Envelope<SeriesAnswer>)))]
pub async fn month(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<SeriesAnswer>> {
    inverter_bars(Span::Month, app, me, sn, q).await
}

/// Energy per month of a year (`date=YYYY`).
#[utoipa::path(get, path = "/api/v1/inverter/{sn}/year", tag = "inverters", params(("sn" = String, Path), DateQuery),
    security(("bearer" = [])), responses((status = 200, description = "Energy bars (kWh, from day rollups); 600", body = Envelope<SeriesAnswer>)))]
pub async fn year(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<SeriesAnswer>> {
    inverter_bars(Span::Year, app, me, sn, q).await
}

/// Energy per year since the inverter first reported.
#[utoipa::path(get, path = "/api/v1/inverter/{sn}/total", tag = "inverters", params(("sn" = String, Path), DateQuery),
    security(("bearer" = [])), responses((status = 200, description = "Energy bars (kWh per year, from day rollups); 600", body = Envelope<SeriesAnswer>)))]
pub async fn total(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<SeriesAnswer>> {
    inverter_bars(Span::Total, app, me, sn, q).await
}
