//! The plant figures of a span of days: `GET /api/v1/plant/{id}/figures`, read by the
//! overview's Performance card. The computation is `service::figures` (docs/figures.md).

use axum::extract::{Path, State};
use chrono::{Datelike, NaiveDate};
use domain::DomainError;
use serde::Deserialize;
use service::{figures::PlantFigures, local_time::days_in_month};
use utoipa::IntoParams;

use super::PlantCtx;
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    extract::{Query, num},
    readings,
    session::CurrentUser,
};

#[derive(Debug, Default, Deserialize, IntoParams)]
pub struct FiguresQuery {
    /// First plant-local day, `YYYY-MM-DD` (with `to`).
    #[serde(default, deserialize_with = "num::opt_text")]
    pub from: Option<String>,
    /// Last plant-local day, `YYYY-MM-DD`, at most 366 days after `from`.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub to: Option<String>,
    /// Instead of `from`/`to`: a day `YYYY-MM-DD`, a month `YYYY-MM` or a year `YYYY`; today
    /// when neither is given.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub date: Option<String>,
}

fn day(field: &str, raw: &str) -> Result<NaiveDate, DomainError> {
    let raw = raw.trim();
    NaiveDate::parse_from_str(raw, "%Y-%m-%d")
        .ok()
        .filter(|_| raw.len() == 10)
        .ok_or_else(|| DomainError::invalid(field))
}

/// The days a query names: `from`..=`to`, or the day, month or year of `date`, or `today`.
fn span(q: &FiguresQuery, today: NaiveDate) -> Result<(NaiveDate, NaiveDate), DomainError> {
    match (q.from.as_deref(), q.to.as_deref()) {
        (Some(from), Some(to)) => return Ok((day("from", from)?, day("to", to)?)),
        (Some(_), None) => return Err(DomainError::invalid("to")),
        (None, Some(_)) => return Err(DomainError::invalid("from")),
        (None, None) => {}
    }
    let Some(date) = q.date.as_deref().map(str::trim) else {
        return Ok((today, today));
    };
    let bad = || DomainError::invalid("date");
    match date.len() {
        10 => day("date", date).map(|d| (d, d)),
        7 => {
            let first =
                NaiveDate::parse_from_str(&format!("{date}-01"), "%Y-%m-%d").map_err(|_| bad())?;
            let last = first
                .with_day(days_in_month(first.year(), first.month()))
                .ok_or_else(bad)?;
            Ok((first, last))
        }
        4 => {
            let year: i32 = date.parse().map_err(|_| bad())?;
            let first = NaiveDate::from_ymd_opt(year, 1, 1).filter(|_| year >= 1970);
            let last = NaiveDate::from_ymd_opt(year, 12, 31);
            first.zip(last).ok_or_else(bad)
        }
        _ => Err(bad()),
    }
}

/// A plant's figures over a span of plant-local days (a day, month or year, or `from`..`to`
/// up to 366 days): specific yield, reference yield and performance ratio (IEC 61724-1),
/// availability, self-consumption, self-sufficiency and CO2 avoided, each with its value
/// (null when its inputs are missing) and its basis. A performance ratio against the
/// clear-sky model is an upper-bound reference. Scoped like the plant overview.
#[utoipa::path(get, path = "/api/v1/plant/{id}/figures", tag = "monitoring",
    params(("id" = i64, Path), FiguresQuery), security(("bearer" = [])),
    responses((status = 200, description = "The figures; 700, 4 from, 4 to (before from or more than 366 days), 4 date", body = Envelope<PlantFigures>)))]
pub async fn figures(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<FiguresQuery>,
) -> ApiResult<Data<PlantFigures>> {
    let ctx = PlantCtx::load(&app, &me, &id).await?;
    let span = span(&q, readings::today(ctx.tz))?;
    let config = &app.config.figures;
    Ok(Data(
        service::figures::plant_figures(&app.store, ctx.view(), span, config).await?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(from: Option<&str>, to: Option<&str>, date: Option<&str>) -> FiguresQuery {
        FiguresQuery {
            from: from.map(Into::into),
            to: to.map(Into::into),
            date: date.map(Into::into),
        }
    }

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap_or_default()
    }

    #[test]
    fn a_span_is_named_by_from_and_to_or_by_a_date_of_any_length() {
        let today = d("2026-02-10");
        assert_eq!(span(&q(None, None, None), today), Ok((today, today)));
        let days = span(&q(Some("2026-01-05"), Some("2026-02-04"), None), today);
        assert_eq!(days, Ok((d("2026-01-05"), d("2026-02-04"))));
        assert_eq!(
            span(&q(None, None, Some("2024-02")), today),
            Ok((d("2024-02-01"), d("2024-02-29")))
        );
        assert_eq!(
            span(&q(None, None, Some("2025")), today),
            Ok((d("2025-01-01"), d("2025-12-31")))
        );
        let field = |r: Result<(NaiveDate, NaiveDate), DomainError>| r.unwrap_err().detail;
        assert_eq!(
            field(span(&q(Some("2026-01-05"), None, None), today)).as_deref(),
            Some("to")
        );
        assert_eq!(
            field(span(
                &q(Some("05/01/2026"), Some("2026-01-06"), None),
                today
            ))
            .as_deref(),
            Some("from")
        );
        assert_eq!(
            field(span(&q(None, None, Some("2026-13"),), today)).as_deref(),
            Some("date")
        );
        assert_eq!(
            field(span(&q(None, None, Some("26")), today)).as_deref(),
            Some("date")
        );
    }
}
