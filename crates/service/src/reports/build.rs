//! Builds a plant report from the same reads as the plant screens: energy from the day
//! rollups (`plant_energy`, `plant_energy_series`), the day's curves from
//! [`crate::curves::day_curves`], income from the tariff rule, events through the visibility
//! rule. The endpoint, the xlsx download and the monthly e-mail all go through [`build`].

use chrono::{Datelike, Duration, Timelike};
use domain::{
    Lang,
    income::{DayGeneration, income},
    policy::Actor,
};
use store::{
    Store,
    messages::VisibleEventFilter,
    telemetry::{Bucket, DayRange, EnergyPoint},
};

use super::{
    day::{self, DayTotals},
    model::{EnergyRow, EventCounts, PlantReport, ReportEvent, ReportPlant, ReportSummary},
    period::Period,
};
use crate::{
    Result,
    curves::{CurveCaches, PlantDevices, day_curves},
    event_catalogue,
    figures::{self, FiguresConfig},
    local_time::{days_in_month, local_time, today, utc_time},
    plants::stored_tariff,
    predictions::Predictions,
    readings::round2,
};

/// The energy metric that counts as the plant's generation.
const PV: &str = "pv";

/// Most events a report lists.
const MAX_EVENTS: i64 = 200;

fn kwh(points: &[EnergyPoint], bucket: &str, metric: &str) -> Option<f64> {
    let mut found = points
        .iter()
        .filter(|p| p.bucket == bucket && p.metric == metric);
    let first = found.next()?;
    Some(first.kwh + found.map(|p| p.kwh).sum::<f64>())
}

fn row(points: &[EnergyPoint], bucket: &str, label: String, predicted: Option<f64>) -> EnergyRow {
    let get = |m: &str| round2(kwh(points, bucket, m).unwrap_or(0.0));
    EnergyRow {
        label,
        produced: get("pv"),
        consumed: get("load"),
        imported: get("grid_import"),
        exported: get("grid_export"),
        charged: get("charge"),
        discharged: get("discharge"),
        predicted: predicted.map(round2),
    }
}

async fn header(store: &Store, ctx: PlantDevices<'_>) -> Result<ReportPlant> {
    let p = ctx.plant;
    let owner = store.user(p.owner_id).await?;
    let company = match p.company_id {
        Some(c) => store.company(c).await?,
        None => None,
    };
    Ok(ReportPlant {
        id: p.id.0,
        name: p.name.clone(),
        capacity: p.total_power,
        address: p.address.clone(),
        timezone: p.timezone.clone(),
        currency: p.currency.clone(),
        kind: p.plant_type,
        owner_name: owner.map(|u| {
            [u.name, u.nickname, u.account]
                .into_iter()
                .find(|n| !n.trim().is_empty())
                .unwrap_or_default()
        }),
        company_name: company.as_ref().map(|c| c.name.clone()),
        company_logo_url: company.map(|c| c.logo_url).filter(|u| !u.is_empty()),
    })
}

/// The events of the period (newest first, at most 200) and the counts per severity.
async fn events(
    store: &Store,
    actor: &Actor,
    ctx: PlantDevices<'_>,
    (from, to): (i64, i64),
    lang: Lang,
) -> Result<(Vec<ReportEvent>, EventCounts)> {
    let filter = |severity: Option<&str>, limit: i64| VisibleEventFilter {
        plant: Some(ctx.plant.id),
        severity: severity.map(Into::into),
        from: Some(from),
        to: Some(to),
        limit,
        ..Default::default()
    };
    let vis = actor.plant_visibility();
    let (rows, _) = store
        .events_visible(vis, actor.id, &filter(None, MAX_EVENTS))
        .await?;
    let count = |s: &'static str| async move {
        store
            .events_visible(vis, actor.id, &filter(Some(s), 0))
            .await
            .map(|(_, n)| n)
    };
    let counts = EventCounts {
        fault: count("fault").await?,
        warning: count("warning").await?,
        info: count("info").await?,
    };
    let list = rows
        .iter()
        .map(|e| {
            let f = &e.facts;
            ReportEvent {
                id: e.id.0,
                sn: f.device_sn.clone(),
                code: f.code.clone(),
                content: event_catalogue::definition(f.family, &f.code)
                    .map(|d| d.meaning(lang).to_string()),
                severity: f.severity.clone(),
                opened_at: local_time(f.opened_at, ctx.tz),
                closed_at: f.closed_at.map(|t| local_time(t, ctx.tz)),
            }
        })
        .collect();
    Ok((list, counts))
}

/// The report of `period` for a plant `actor` may see (the caller checked), in `lang`, with
/// the plant figures of the period (`config`: the operator's CO2 factor).
pub async fn build(
    store: &Store,
    curves: &CurveCaches,
    actor: &Actor,
    ctx: PlantDevices<'_>,
    (period, config): (Period, &FiguresConfig),
    lang: Lang,
) -> Result<PlantReport> {
    let id = ctx.plant.id;
    let days = period.days();
    let totals = store.plant_energy(id, &days).await?;
    let total = |m: &str| {
        let mut it = totals.iter().filter(|t| t.metric == m).peekable();
        it.peek()?;
        Some(it.map(|t| t.kwh).sum::<f64>())
    };
    let first = period.first();
    let predictions = store.plant_predictions(id, i64::from(first.year())).await?;
    let predicted = Predictions(&predictions);
    let (from_ms, _) = devices::history::day_bounds(ctx.tz, first);
    let (_, to_ms) = devices::history::day_bounds(ctx.tz, period.last());
    let daily = store.plant_energy_series(id, &days, Bucket::Day).await?;
    let tariff = stored_tariff(&store.tariff(id).await?);

    let (energy, power, predicted_total, peak_at, earned) = match period {
        Period::Day(d) => {
            let curves = day_curves(store, curves, ctx, d, false).await?;
            let points = day::power_points(&curves);
            let rollup = DayTotals {
                produced: total("pv"),
                consumed: total("load"),
                imported: total("grid_import"),
                exported: total("grid_export"),
                charged: total("charge"),
                discharged: total("discharge"),
            };
            let rows = day::hourly(&points, &rollup);
            // The day's PV curve tells time-of-use prices when the energy was made.
            let profile: Vec<(u32, f64)> = points
                .iter()
                .filter_map(|p| {
                    let t = chrono::NaiveTime::parse_from_str(&p.time, "%H:%M").ok()?;
                    Some((t.hour() * 60 + t.minute(), p.pv?))
                })
                .collect();
            let month_start = DayRange {
                from: d.with_day(1).unwrap_or(d).format("%Y-%m-%d").to_string(),
                to: (d - Duration::days(1)).format("%Y-%m-%d").to_string(),
            };
            let before: f64 = store
                .plant_energy(id, &month_start)
                .await?
                .iter()
                .filter(|t| t.metric == PV)
                .map(|t| t.kwh)
                .sum();
            let earned = income(
                &tariff,
                &DayGeneration {
                    kwh: round2(total("pv").unwrap_or(0.0)),
                    profile: &profile,
                    month_before_kwh: before,
                },
            );
            let peak = points
                .iter()
                .filter_map(|p| Some((p.pv?, p.time.clone())))
                .max_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(w, t)| (w, format!("{} {t}:00", d.format("%Y-%m-%d"))));
            let pred = predicted.day(d.year(), d.month(), d.day());
            (rows, points, pred, peak, earned)
        }
        Period::Month(y, m) => {
            let rows = (1..=days_in_month(y, m))
                .map(|day| {
                    let key = format!("{y:04}-{m:02}-{day:02}");
                    row(&daily, &key, format!("{day:02}"), predicted.day(y, m, day))
                })
                .collect();
            let peak = super::peak::peak(store, ctx, from_ms, to_ms).await?;
            let peak = peak.map(|(w, at)| (w, local_time(at, ctx.tz)));
            (
                rows,
                Vec::new(),
                predicted.month(y, m),
                peak,
                month_income(&tariff, &daily, &days),
            )
        }
        Period::Year(y) => {
            let monthly = store.plant_energy_series(id, &days, Bucket::Month).await?;
            let rows: Vec<EnergyRow> = (1..=12)
                .map(|m| {
                    row(
                        &monthly,
                        &format!("{y:04}-{m:02}"),
                        format!("{m:02}"),
                        predicted.month(y, m),
                    )
                })
                .collect();
            let months: Vec<f64> = (1..=12).filter_map(|m| predicted.month(y, m)).collect();
            let pred = (!months.is_empty()).then(|| months.iter().sum());
            let peak = super::peak::peak(store, ctx, from_ms, to_ms).await?;
            let peak = peak.map(|(w, at)| (w, local_time(at, ctx.tz)));
            (
                rows,
                Vec::new(),
                pred,
                peak,
                month_income(&tariff, &daily, &days),
            )
        }
    };
    // Produced so far against expected so far: a month still running is not a shortfall.
    let today = today(ctx.tz);
    let expected_so_far = if first <= today {
        predicted.between(first, period.last().min(today))
    } else {
        None
    };
    let (events, counts) = events(store, actor, ctx, (from_ms, to_ms), lang).await?;
    let get = |m: &str| round2(total(m).unwrap_or(0.0));
    let produced = get("pv");
    let figures = figures::plant_figures(store, ctx, (first, period.last()), config).await?;
    let day_figures = match period {
        Period::Month(..) => {
            figures::plant_figures_by_day(store, ctx, (first, period.last()), config).await?
        }
        _ => Vec::new(),
    };
    let summary = ReportSummary {
        produced,
        consumed: get("load"),
        imported: get("grid_import"),
        exported: get("grid_export"),
        charged: get("charge"),
        discharged: get("discharge"),
        generator: get("generator"),
        self_consumption: figures.self_consumption.value,
        self_sufficiency: figures.self_sufficiency.value,
        income: earned,
        peak_power: peak_at.as_ref().map_or(0.0, |(w, _)| w.round()),
        peak_power_at: peak_at.map(|(_, t)| t),
        predicted: predicted_total.map(round2),
        predicted_ratio: expected_so_far
            .filter(|p| *p > 0.0)
            .map(|p| round2(produced / p * 100.0)),
        events: counts,
    };
    Ok(PlantReport {
        plant: header(store, ctx).await?,
        kind: period.report_type(),
        date: period.label(),
        from: days.from,
        to: days.to,
        generated_at: utc_time(domain::time::now_ms()),
        summary,
        energy,
        power,
        events,
        figures,
        day_figures,
    })
}

/// The income of every day of `days` as the generation download values it (volume tiers
/// restart each month), summed.
fn month_income(
    tariff: &[domain::plant::TariffSegment],
    daily: &[EnergyPoint],
    days: &DayRange,
) -> f64 {
    let (Ok(mut day), Ok(last)) = (
        chrono::NaiveDate::parse_from_str(&days.from, "%Y-%m-%d"),
        chrono::NaiveDate::parse_from_str(&days.to, "%Y-%m-%d"),
    ) else {
        return 0.0;
    };
    let (mut sum, mut month_before) = (0.0, 0.0);
    while day <= last {
        if day.day() == 1 {
            month_before = 0.0;
        }
        let pv = round2(kwh(daily, &day.format("%Y-%m-%d").to_string(), PV).unwrap_or(0.0));
        sum += income(
            tariff,
            &DayGeneration {
                kwh: pv,
                profile: &[],
                month_before_kwh: month_before,
            },
        );
        month_before += pv;
        day += Duration::days(1);
    }
    round2(sum)
}
