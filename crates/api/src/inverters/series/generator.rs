//! The generator port's series: its day curve, and its curve or bars chosen by the date's
//! length.

use axum::extract::{Path, State};

use super::{Col, DateQuery, Span, bars, day_curve};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    extract::Query,
    inverters::visible,
    inverters::wire::SeriesAnswer,
    session::CurrentUser,
};

fn gen_columns() -> Vec<Col> {
    vec![Col::key("gen_power", "Generator power", "W", "gen_power")]
}

/// The generator's power over a day.
#[utoipa::path(get, path = "/api/v1/inverter/genMi/{sn}/day", tag = "inverters", params(("sn" = String, Path), DateQuery),
    security(("bearer" = [])), responses((status = 200, description = "The day curve of gen_power (W); 600", body = Envelope<SeriesAnswer>)))]
pub async fn gen_day(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<SeriesAnswer>> {
    let inv = visible(&app, &me, &sn).await?;
    Ok(Data(
        day_curve(&app, &inv, q.date.as_deref(), &gen_columns(), 1).await?,
    ))
}

/// The generator by the length of `date`: a day's power curve (`YYYY-MM-DD`), a month's daily
/// energy (`YYYY-MM`), a year's monthly energy (`YYYY`), or yearly energy (no date).
#[utoipa::path(get, path = "/api/v1/inverter/gen/{sn}/byDate", tag = "inverters", params(("sn" = String, Path), DateQuery),
    security(("bearer" = [])), responses((status = 200, description = "A day curve or energy bars (kWh); 600", body = Envelope<SeriesAnswer>)))]
pub async fn gen_by_date(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<SeriesAnswer>> {
    let inv = visible(&app, &me, &sn).await?;
    let date = q.date.as_deref().map(str::trim).filter(|d| !d.is_empty());
    const GEN: [(&str, &str); 1] = [("generator", "Generator")];
    Ok(Data(match date.map(str::len) {
        Some(10..) => day_curve(&app, &inv, date, &gen_columns(), 1).await?,
        Some(7..=9) => bars(&app, &inv, Span::Month, date, &GEN).await?,
        Some(_) => bars(&app, &inv, Span::Year, date, &GEN).await?,
        None => bars(&app, &inv, Span::Total, None, &GEN).await?,
    }))
}
