//! Plant energy over time: the realtime figures, the day's power curves (from the samples of
//! the plant's devices, in 5-minute buckets of the plant's zone) and the month, year and total
//! energy bars (from the day rollups only, so their cost does not grow with the samples).

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use axum::extract::{Path, State};
use chrono::NaiveDate;
use chrono_tz::Tz;
use serde::Deserialize;
use store::telemetry::{Bucket, DayRange};
use utoipa::IntoParams;

pub use super::wire::Realtime;
use super::{
    BATTERY, INVERTER, METER, PlantCtx,
    day_cache::{CURVES, Curve, Extract, Means},
    flow, summary,
    wire::{GenerationUse, PlantSeriesList},
};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    extract::{Query, num},
    plants::{currency_json, update_at},
    predicted::figures::Predictions,
    readings::{self, Reading, Record, Series},
    reports::period::days_in_month,
    session::CurrentUser,
};

/// Width of one point of a day curve.
const BUCKET_MS: i64 = 5 * 60 * 1000;

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

/// The local time of each bucket of a day starting at `from`: written once per day and zone
/// and kept ([`DayTimes`]), since every request for a day's curves writes the same ones.
struct BucketTimes {
    from: i64,
    tz: Tz,
    times: Arc<Vec<String>>,
}

impl BucketTimes {
    fn new(app: &AppState, from: i64, to: i64, tz: Tz) -> BucketTimes {
        let times = app.caches.day_times.of(from, tz, || {
            (0..=(to - from) / BUCKET_MS)
                .map(|b| readings::local_time(from + b * BUCKET_MS, tz))
                .collect()
        });
        BucketTimes { from, tz, times }
    }

    fn of(&self, bucket: usize) -> String {
        self.times
            .get(bucket)
            .cloned()
            .unwrap_or_else(|| readings::local_time(self.from + bucket as i64 * BUCKET_MS, self.tz))
    }
}

/// A day's bucket times, keyed by the day's start (ms) and zone.
type TimesByDay = HashMap<(i64, Tz), Arc<Vec<String>>>;

/// The bucket times of recent days, per day start and zone.
#[derive(Debug, Default)]
pub struct DayTimes {
    days: Mutex<TimesByDay>,
}

impl DayTimes {
    /// Days kept; a handful of zones times a few days is what screens ask for.
    const CAPACITY: usize = 512;

    fn of(&self, from: i64, tz: Tz, write: impl FnOnce() -> Vec<String>) -> Arc<Vec<String>> {
        if let Some(times) = self
            .days
            .lock()
            .ok()
            .and_then(|d| d.get(&(from, tz)).cloned())
        {
            return times;
        }
        let times = Arc::new(write());
        if let Ok(mut days) = self.days.lock() {
            if days.len() >= Self::CAPACITY {
                days.clear();
            }
            days.insert((from, tz), times.clone());
        }
        times
    }
}

/// A curve's value per bucket (`None`: no device gave one).
type Points = Vec<Option<f64>>;

fn series(
    label: &str,
    name: &str,
    unit: &'static str,
    points: &Points,
    times: &BucketTimes,
) -> Series {
    Series {
        unit,
        label: label.into(),
        id: None,
        group_code: None,
        name: Some(name.into()),
        records: points
            .iter()
            .enumerate()
            .filter_map(|(b, v)| {
                v.map(|v| Record {
                    time: times.of(b),
                    value: readings::num_text(v),
                    update_time: None,
                })
            })
            .collect(),
    }
}

/// What an inverter gives each curve; one without a battery port gives no battery values.
fn inverter_values(r: &Reading) -> [Option<f64>; CURVES] {
    [
        flow::pv_power(r),
        r.num("load_power"),
        flow::inverter_grid(r),
        r.num("battery_power"),
        r.num("battery_soc"),
        r.num("gen_power"),
    ]
}

fn inverter_without_battery_values(r: &Reading) -> [Option<f64>; CURVES] {
    let [pv, load, grid, _, _, generator] = inverter_values(r);
    [pv, load, grid, None, None, generator]
}

fn meter_values(r: &Reading) -> [Option<f64>; CURVES] {
    [None, None, r.num("power"), None, None, None]
}

fn battery_values(r: &Reading) -> [Option<f64>; CURVES] {
    [None, None, None, r.num("power"), r.num("soc"), None]
}

/// Per bucket, the sum over `devices` of their means of `curve`, and how many had one.
fn combine(devices: &[(&str, Means)], family: &str, curve: Curve) -> Vec<(f64, u32)> {
    let mut points: Vec<(f64, u32)> = Vec::new();
    for (f, means) in devices {
        if *f != family {
            continue;
        }
        if points.len() < means.len() {
            points.resize(means.len(), (0.0, 0));
        }
        for (p, values) in points.iter_mut().zip(means) {
            if let Some(v) = values[curve as usize] {
                p.0 += v;
                p.1 += 1;
            }
        }
    }
    points
}

/// The plant's power curves of one local day: PV, load, grid (+ import), battery (+ discharge)
/// in W, SOC in % and the generator when one ran. Inverters give each value; a meter gives the
/// grid and a BMS the battery only when no inverter reports them. `pv_only` keeps PV alone.
/// Each device's 5-minute means are kept between requests (`monitor::day_cache`).
pub(crate) async fn day_curves(
    app: &AppState,
    ctx: &PlantCtx,
    day: NaiveDate,
    pv_only: bool,
) -> ApiResult<Vec<Series>> {
    let (from, to) = readings::day_bounds(ctx.tz, day);
    let open = to > domain::time::now_ms();
    // (family, its means per bucket) per device.
    let mut by_device: Vec<(&str, Means)> = Vec::new();
    for d in &ctx.devices {
        let family = d.family.as_str();
        if family != INVERTER && (pv_only || (family != METER && family != BATTERY)) {
            continue;
        }
        let extract: Extract = match family {
            INVERTER if flow::battery_port(family, d.type_code) => inverter_values,
            INVERTER => inverter_without_battery_values,
            METER => meter_values,
            _ => battery_values,
        };
        let means = app
            .caches
            .day_curves
            .means(
                d.id,
                from,
                to,
                open,
                BUCKET_MS,
                readings::DAY_BUCKET_MS,
                extract,
                |since| readings::day_samples(app, d.id, since, to),
            )
            .await?;
        by_device.push((family, means));
    }
    let sum = |points: Vec<(f64, u32)>| -> Points {
        points
            .into_iter()
            .map(|(v, n)| (n > 0).then_some(v))
            .collect()
    };
    // SOC is a mean over batteries, not a sum.
    let mean = |points: Vec<(f64, u32)>| -> Points {
        points
            .into_iter()
            .map(|(v, n)| (n > 0).then(|| v / f64::from(n)))
            .collect()
    };
    let none = |points: &Points| points.iter().all(Option::is_none);
    let curve = |family: &str, c: Curve| combine(&by_device, family, c);
    let pv = sum(curve(INVERTER, Curve::Pv));
    let times = BucketTimes::new(app, from, to, ctx.tz);
    if pv_only {
        return Ok(vec![series("pv", "PV", "W", &pv, &times)]);
    }
    let load = sum(curve(INVERTER, Curve::Load));
    let mut grid = sum(curve(INVERTER, Curve::Grid));
    if ctx.has(METER) {
        let meter = sum(curve(METER, Curve::Grid));
        if !none(&meter) {
            grid = meter;
        }
    }
    let mut battery = sum(curve(INVERTER, Curve::Battery));
    if none(&battery) {
        battery = sum(curve(BATTERY, Curve::Battery));
    }
    let mut soc = mean(curve(INVERTER, Curve::Soc));
    if none(&soc) {
        soc = mean(curve(BATTERY, Curve::Soc));
    }
    let generator = sum(curve(INVERTER, Curve::Generator));
    let mut out = vec![
        series("pv", "PV", "W", &pv, &times),
        series("load", "Load", "W", &load, &times),
        series("grid", "Grid", "W", &grid, &times),
    ];
    // The battery's curves only where there is a battery (the flow's rule).
    if ctx.has(BATTERY) || !none(&battery) || !none(&soc) {
        out.push(series("battery", "Battery", "W", &battery, &times));
        out.push(series("soc", "SOC", "%", &soc, &times));
    }
    if generator.iter().flatten().any(|v| *v > 0.0) {
        out.push(series("generator", "Generator", "W", &generator, &times));
    }
    Ok(out)
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
