//! The plant's daily energy as a spreadsheet: one row per local day of the range, every
//! energy metric in kWh, the day's income under the tariff and the day's plant figures
//! (`service::figures`, docs/figures.md; a missing figure is an empty cell), with a second
//! sheet saying what each figure was computed from. Read from the day rollups.

use axum::{extract::State, response::Response};
use chrono::{Datelike, Duration, NaiveDate};
use domain::{
    DomainError, Lang,
    income::{DayGeneration, income},
};
use serde::Deserialize;
use service::figures;
use store::telemetry::{Bucket, DayRange};
use utoipa::IntoParams;

use super::{PlantCtx, energy::METRICS, summary};
use crate::{
    AppState,
    envelope::{ApiResult, current_lang},
    extract::{Query, num},
    readings,
    session::CurrentUser,
    xlsx::{Cell, Sheet, download},
};

/// At most about a year and a half of days in one file.
const MAX_DAYS: i64 = figures::MAX_DAYS_BY_DAY;

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct DownloadQuery {
    /// The plant (`id`, `plantId` or `stationId`).
    #[serde(
        default,
        alias = "plantId",
        alias = "stationId",
        deserialize_with = "num::opt_text"
    )]
    pub id: Option<String>,
    /// First day, `YYYY-MM-DD` (`startDate`, `sdate` or `start`); 30 days before the end by default.
    #[serde(
        default,
        alias = "sdate",
        alias = "start",
        deserialize_with = "num::opt_text"
    )]
    pub start_date: Option<String>,
    /// Last day, `YYYY-MM-DD` (`endDate`, `edate` or `end`); today by default.
    #[serde(
        default,
        alias = "edate",
        alias = "end",
        deserialize_with = "num::opt_text"
    )]
    pub end_date: Option<String>,
}

fn date(raw: Option<&str>, field: &str) -> Result<Option<NaiveDate>, DomainError> {
    match raw.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(None),
        Some(s) => NaiveDate::parse_from_str(s.get(..10).unwrap_or(s), "%Y-%m-%d")
            .map(Some)
            .map_err(|_| DomainError::invalid(field)),
    }
}

fn headers(lang: Lang, currency: &str) -> Vec<String> {
    let names: [&str; 9] = match lang {
        Lang::En => [
            "Date",
            "PV (kWh)",
            "Load (kWh)",
            "Grid import (kWh)",
            "Grid export (kWh)",
            "Charge (kWh)",
            "Discharge (kWh)",
            "Generator (kWh)",
            "Income",
        ],
        Lang::Zh => [
            "日期",
            "发电量 (kWh)",
            "用电量 (kWh)",
            "电网购电 (kWh)",
            "电网售电 (kWh)",
            "充电量 (kWh)",
            "放电量 (kWh)",
            "发电机 (kWh)",
            "收益",
        ],
        Lang::Es => [
            "Fecha",
            "FV (kWh)",
            "Consumo (kWh)",
            "Importación de red (kWh)",
            "Exportación a red (kWh)",
            "Carga (kWh)",
            "Descarga (kWh)",
            "Generador (kWh)",
            "Ingresos",
        ],
    };
    let mut out: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    if let Some(last) = out.last_mut() {
        *last = format!("{last} ({currency})");
    }
    out.extend(figures::sheet::headers(lang));
    out
}

/// The plant's daily energy and figures from `startDate` to `endDate` (at most 550 days) as
/// `.xlsx`.
#[utoipa::path(get, path = "/api/v1/plant/generation/download", tag = "monitoring",
    params(DownloadQuery), security(("bearer" = [])),
    responses((status = 200, content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", body = Vec<u8>, description = "An .xlsx file: one row per day (date, PV, load, grid import, grid export, charge, discharge, generator in kWh, income, then the day's plant figures: specific yield, reference yield, performance ratio, irradiation reference, availability, self-consumption, self-sufficiency, CO2 avoided; a missing figure is an empty cell) and a sheet saying what each figure is computed from; 4 for bad dates, 700")))]
pub async fn generation(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<DownloadQuery>,
) -> ApiResult<Response> {
    let ctx = PlantCtx::load(&app, &me, q.id.as_deref().unwrap_or_default()).await?;
    let end = date(q.end_date.as_deref(), "endDate")?.unwrap_or_else(|| readings::today(ctx.tz));
    let start = date(q.start_date.as_deref(), "startDate")?.unwrap_or(end - Duration::days(29));
    if start > end || (end - start).num_days() >= MAX_DAYS {
        return Err(DomainError::invalid("startDate").into());
    }
    let range = DayRange {
        from: start.format("%Y-%m-%d").to_string(),
        to: end.format("%Y-%m-%d").to_string(),
    };
    // Volume tiers need the month's energy before the range's first day.
    let month_start = DayRange {
        from: format!("{:04}-{:02}-01", start.year(), start.month()),
        to: (start - Duration::days(1)).format("%Y-%m-%d").to_string(),
    };
    let store = &app.store;
    let points = store
        .plant_energy_series(ctx.plant.id, &range, Bucket::Day)
        .await?;
    let mut month_before: f64 = store
        .plant_energy(ctx.plant.id, &month_start)
        .await?
        .iter()
        .filter(|t| t.metric == summary::PV)
        .map(|t| t.kwh)
        .sum();
    let tariff = service::plants::stored_tariff(&store.tariff(ctx.plant.id).await?);
    let config = &app.config.figures;
    let day_figures =
        figures::plant_figures_by_day(store, ctx.view(), (start, end), config).await?;

    let lang = current_lang();
    let mut sheet = Sheet::new(ctx.plant.name.clone(), headers(lang, &ctx.plant.currency));
    let mut day = start;
    while day <= end {
        let key = day.format("%Y-%m-%d").to_string();
        if day.day() == 1 {
            month_before = 0.0;
        }
        let kwh = |metric: &str| {
            points
                .iter()
                .find(|p| p.bucket == key && p.metric == metric)
                .map(|p| readings::round2(p.kwh))
        };
        let pv = kwh(summary::PV).unwrap_or(0.0);
        // Without the day's power curve, time-of-use prices spread the energy over the day.
        let earned = income(
            &tariff,
            &DayGeneration {
                kwh: pv,
                profile: &[],
                month_before_kwh: month_before,
            },
        );
        month_before += pv;
        let mut row: Vec<Cell> = vec![key.clone().into()];
        row.extend(METRICS.iter().map(|(m, _)| Cell::from(kwh(m))));
        row.push(earned.into());
        if let Some(f) = day_figures.iter().find(|f| f.from == key) {
            row.extend(figures::sheet::cells(f, lang));
        }
        sheet.push(row);
        day += Duration::days(1);
    }
    let file = format!("{}_{}_{}.xlsx", ctx.plant.name, range.from, range.to);
    download(
        &file,
        &[sheet, figures::sheet::notes(lang, config.co2_kg_per_kwh)],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_name_the_currency_in_every_language() {
        assert_eq!(headers(Lang::En, "GBP")[8], "Income (GBP)");
        assert_eq!(headers(Lang::Zh, "CNY")[0], "日期");
        assert_eq!(headers(Lang::Es, "EUR").len(), 17);
        assert_eq!(headers(Lang::En, "EUR")[9], "Specific yield (kWh/kWp)");
    }
}
