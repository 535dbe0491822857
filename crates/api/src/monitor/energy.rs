//! Plant energy over time: the realtime figures, the day's power curves (from the samples of
//! the plant's devices, in 5-minute buckets of the plant's zone) and the month, year and total
//! energy bars (from the day rollups only, so their cost does not grow with the samples).

use axum::extract::{Path, State};
use chrono::NaiveDate;
use serde::Deserialize;
use service::{local_time::days_in_month, predictions::Predictions};
use store::telemetry::{Bucket, DayRange};
use utoipa::IntoParams;

pub use super::wire::Realtime;
use super::{
    PlantCtx, summary,
    wire::{GenerationUse, PlantSeriesList},
};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    extract::{Query, num},
    plants::{currency_json, update_at},
    readings::{self, Record, Series},
    session::CurrentUser,
};

/// The energy metrics of the bars, with the label clients show.
pub(crate) const METRICS: [(&str, &str); 7] = [
    ("pv", "PV"),
    ("load", "Load"),
    ("grid_import", "Grid import"),
    ("grid_export", "Grid export"),
    ("charge", "Charge"),
    ("discharge", "Discharge"),
    ("generator", "Generator"),
];

#[derive(Debug, Default, Deserialize, IntoParams)]
pub struct PeriodQuery {
    /// `YYYY-MM-DD` for a day, `YYYY-MM` for a month, `YYYY` for a year; now by default.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub date: Option<String>,
}

/// The realtime figures of `GET /plant/{id}/realtime` (and of the detail's `realtime`).
pub(crate) fn realtime_json(p: &store::plants::PlantRow, s: &summary::Summary) -> Realtime {
    Realtime {
        pac: s.pac,
        etoday: s.etoday,
        emonth: s.emonth,
        eyear: s.eyear,
        etotal: s.etotal,
        income: s.income,
        efficiency: s.efficiency,
        update_at: update_at(s.update_at),
        stale: s.stale,
        switched_off: s.switched_off,
        currency: currency_json(&p.currency),
        total_power: p.total_power,
        invest: p.invest,
    }
}

/// Current power, energy of today/month/year/all time (kWh), today's income and efficiency.
#[utoipa::path(get, path = "/api/v1/plant/{id}/realtime", tag = "monitoring",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The figures; 700", body = Envelope<Realtime>)))]
pub async fn realtime(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<Realtime>> {
    let ctx = PlantCtx::load(&app, &me, &id).await?;
    let s = summary::plant(&app, &ctx.plant, &ctx.devices).await?;
    Ok(Data(realtime_json(&ctx.plant, &s)))
}

/// The plant's power curves of one local day (`service::curves::day_curves`), as series.
pub(crate) async fn day_curves(
    app: &AppState,
    ctx: &PlantCtx,
    day: NaiveDate,
    pv_only: bool,
) -> ApiResult<Vec<Series>> {
    let curves = &app.caches.curves;
    let found = service::curves::day_curves(&app.store, curves, ctx.view(), day, pv_only).await?;
    Ok(found.into_iter().map(Series::from).collect())
}

/// Energy bars of a month (per day), a year (per month) or all time (per year).
async fn bars(
    app: &AppState,
    ctx: &PlantCtx,
    period: &str,
    date: Option<&str>,
    metrics: &[(&str, &str)],
) -> ApiResult<Vec<Series>> {
    let (range, bucket) = match period {
        "month" => {
            let (y, m) = readings::month_param(date, ctx.tz);
            (DayRange::month(y, m), Bucket::Day)
        }
        "year" => (
            DayRange::year(readings::year_param(date, ctx.tz)),
            Bucket::Month,
        ),
        _ => (DayRange::total(), Bucket::Year),
    };
    let points = app
        .store
        .plant_energy_series(ctx.plant.id, &range, bucket)
        .await?;
    // Labels are the metric keys (stable for clients and the web app); names are for people.
    let keys: Vec<(&str, &str)> = metrics.iter().map(|(m, _)| (*m, *m)).collect();
    let mut out = readings::energy_series(&points, &keys);
    for (s, (_, name)) in out.iter_mut().zip(metrics) {
        s.name = Some((*name).to_string());
    }
    Ok(out)
}

/// The `predicted` series (kWh) beside month bars (per day) and year bars (per month), when
/// the plant has predictions for the year; the rule is [`Predictions`].
async fn predicted_series(
    app: &AppState,
    ctx: &PlantCtx,
    period: &str,
    date: Option<&str>,
) -> ApiResult<Option<Series>> {
    let (year, month) = if period == "month" {
        let (y, m) = readings::month_param(date, ctx.tz);
        (y, Some(m))
    } else {
        (readings::year_param(date, ctx.tz), None)
    };
    let rows = app
        .store
        .plant_predictions(ctx.plant.id, i64::from(year))
        .await?;
    if rows.is_empty() {
        return Ok(None);
    }
    let p = Predictions(&rows);
    let records: Vec<(String, f64)> = match month {
        Some(m) => (1..=days_in_month(year, m))
            .filter_map(|d| Some((format!("{year:04}-{m:02}-{d:02}"), p.day(year, m, d)?)))
            .collect(),
        None => (1..=12)
            .filter_map(|m| Some((format!("{year:04}-{m:02}"), p.month(year, m)?)))
            .collect(),
    };
    Ok(Some(Series {
        unit: "kWh",
        label: "predicted".into(),
        id: None,
        group_code: None,
        name: Some("Predicted".into()),
        records: records
            .into_iter()
            .map(|(time, v)| Record {
                time,
                value: readings::num_text(v),
                update_time: None,
            })
            .collect(),
    }))
}

async fn period_answer(
    app: &AppState,
    ctx: &PlantCtx,
    period: &str,
    date: Option<&str>,
    pv_only: bool,
) -> ApiResult<Data<PlantSeriesList>> {
    let infos = match period {
        "day" => {
            let day = readings::day_param(date, ctx.tz);
            day_curves(app, ctx, day, pv_only).await?
        }
        "month" | "year" | "total" => {
            let metrics = if pv_only { &METRICS[..1] } else { &METRICS[..] };
            let mut out = bars(app, ctx, period, date, metrics).await?;
            if !pv_only && period != "total" {
                out.extend(predicted_series(app, ctx, period, date).await?);
            }
            out
        }
        _ => return Err(domain::DomainError::invalid("period").into()),
    };
    Ok(Data(PlantSeriesList {
        infos: infos.into_iter().map(Into::into).collect(),
    }))
}

/// Generation only: the PV power curve of a day, or PV energy bars of a month, year or all time.
#[utoipa::path(get, path = "/api/v1/plant/{id}/power/{period}", tag = "monitoring",
    params(("id" = i64, Path), ("period" = String, Path, description = "day, month, year or total"), PeriodQuery),
    security(("bearer" = [])),
    responses((status = 200, description = "The series; 700", body = Envelope<PlantSeriesList>)))]
pub async fn power(
    State(app): State<AppState>,
    me: CurrentUser,
    Path((id, period)): Path<(String, String)>,
    Query(q): Query<PeriodQuery>,
) -> ApiResult<Data<PlantSeriesList>> {
    let ctx = PlantCtx::load(&app, &me, &id).await?;
    period_answer(&app, &ctx, &period, q.date.as_deref(), true).await
}

/// Every flow: the day's power curves (PV, load, grid, battery, SOC, generator), or energy bars
/// of every metric for a month (per day), a year (per month) or all time (per year).
#[utoipa::path(get, path = "/api/v1/plant/energy/{id}/{period}", tag = "monitoring",
    params(("id" = i64, Path), ("period" = String, Path, description = "day, month, year or total"), PeriodQuery),
    security(("bearer" = [])),
    responses((status = 200, description = "The series; 700", body = Envelope<PlantSeriesList>)))]
pub async fn energy(
    State(app): State<AppState>,
    me: CurrentUser,
    Path((id, period)): Path<(String, String)>,
    Query(q): Query<PeriodQuery>,
) -> ApiResult<Data<PlantSeriesList>> {
    let ctx = PlantCtx::load(&app, &me, &id).await?;
    period_answer(&app, &ctx, &period, q.date.as_deref(), false).await
}

/// Where today's energy came from and went, kWh.
#[utoipa::path(get, path = "/api/v1/plant/energy/{id}/generation/use", tag = "monitoring",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Today's energy by flow, kWh; 700", body = Envelope<GenerationUse>)))]
pub async fn generation_use(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<GenerationUse>> {
    let ctx = PlantCtx::load(&app, &me, &id).await?;
    let day = readings::today(ctx.tz).format("%Y-%m-%d").to_string();
    let totals = app
        .store
        .plant_energy(ctx.plant.id, &DayRange::day(&day))
        .await?;
    let get = |metric: &str| {
        readings::round2(
            totals
                .iter()
                .filter(|t| t.metric == metric)
                .map(|t| t.kwh)
                .sum(),
        )
    };
    Ok(Data(GenerationUse {
        load: get("load"),
        pv: get("pv"),
        battery_charge: get("charge"),
        grid_sell: get("grid_export"),
        grid_buy: get("grid_import"),
        battery_discharge: get("discharge"),
        generator: get("generator"),
    }))
}
