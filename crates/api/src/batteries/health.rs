//! A battery's health over a span of plant-local days (docs/battery-health.md): the BMS's
//! SOH, its cycle count and the equivalent full cycles, the cell spread and its usual highest
//! and lowest cell, and the capacities measured over full swings next to the BMS's claim.
//! Read from the daily rows the battery health job keeps (`battery_health_days`).

use axum::extract::{Path, State};
use chrono::{Duration, NaiveDate};
use chrono_tz::Tz;
use domain::{DomainError, battery_health::compare};
use serde::{Deserialize, Serialize};
use store::battery_health::HealthDayRow;
use utoipa::{IntoParams, ToSchema};

use super::{FAMILY, VIEW_KEY};
use crate::{
    AppState,
    device_common::{device, zone_of},
    envelope::{ApiResult, Data, Envelope},
    extract::{Query, num},
    readings::{self, local_time},
    session::CurrentUser,
};

/// The days one answer may cover (ten years).
const MAX_DAYS: i64 = 3660;
/// The span when none is asked: the year up to today.
const DEFAULT_DAYS: i64 = 365;

#[derive(Debug, Default, Deserialize, IntoParams)]
pub struct HealthQuery {
    /// First plant-local day, `YYYY-MM-DD`; a year before `to` by default.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub from: Option<String>,
    /// Last plant-local day, `YYYY-MM-DD`; today by default. At most 3660 days after `from`.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub to: Option<String>,
}

fn day(field: &str, raw: &str) -> Result<NaiveDate, DomainError> {
    let raw = raw.trim();
    NaiveDate::parse_from_str(raw, "%Y-%m-%d")
        .ok()
        .filter(|_| raw.len() == 10)
        .ok_or_else(|| DomainError::invalid(field))
}

fn span(q: &HealthQuery, today: NaiveDate) -> Result<(NaiveDate, NaiveDate), DomainError> {
    let to = match q.to.as_deref() {
        Some(t) => day("to", t)?,
        None => today,
    };
    let from = match q.from.as_deref() {
        Some(f) => day("from", f)?,
        None => to - Duration::days(DEFAULT_DAYS - 1),
    };
    if from > to || (to - from).num_days() >= MAX_DAYS {
        return Err(DomainError::invalid("to"));
    }
    Ok((from, to))
}

/// A cell of the stack: its pack (null for the stack's own list) and number.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ToSchema)]
pub struct HealthCell {
    pub pack: Option<i64>,
    pub cell: i64,
}

/// One day; null where that day's reports did not give the figure.
#[derive(Debug, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HealthDay {
    /// Plant-local `YYYY-MM-DD`.
    pub day: String,
    /// %, the median of the SOH the BMS reported that day.
    pub soh: Option<f64>,
    /// The BMS's own cycle count (the day's highest report).
    pub bms_cycles: Option<f64>,
    /// Equivalent full cycles of the day: discharged kWh / (full capacity Ah × mean V).
    pub efc_day: Option<f64>,
    /// Equivalent full cycles from the first stored day up to this one.
    pub efc_total: Option<f64>,
    /// kWh.
    pub discharge_kwh: Option<f64>,
    /// kWh.
    pub charge_kwh: Option<f64>,
    /// The day's widest difference between the highest and lowest cell, mV.
    pub spread_mv: Option<f64>,
    /// The cell that was the highest in most reports of the day.
    pub high_cell: Option<HealthCell>,
    /// The cell that was the lowest in most reports of the day.
    pub low_cell: Option<HealthCell>,
    /// Ah, the BMS's full capacity.
    pub capacity_ah: Option<f64>,
}

/// A capacity measured over a full swing (near full to near empty, or back) and the BMS's
/// claim at its end.
#[derive(Debug, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MeasuredCapacity {
    /// The plant-local day the swing ended.
    pub day: String,
    /// `discharge` (full to empty) or `charge` (empty to full).
    pub kind: String,
    /// Plant-local `YYYY-MM-DD HH:MM:SS`.
    pub start: String,
    pub end: String,
    /// %.
    pub soc_from: f64,
    pub soc_to: f64,
    /// Ah moved over the swing (from the current), null without current.
    pub moved_ah: Option<f64>,
    /// kWh moved over the swing (from the power), null without power.
    pub moved_kwh: Option<f64>,
    /// Ah moved / ΔSOC.
    pub measured_ah: f64,
    /// kWh moved / ΔSOC.
    pub measured_kwh: Option<f64>,
    /// The BMS's SOH × full capacity at the swing's end, Ah.
    pub bms_ah: Option<f64>,
    /// measured / BMS, %.
    pub ratio_pct: Option<f64>,
    /// measured - BMS, Ah.
    pub difference_ah: Option<f64>,
}

/// A battery's health over a span of days.
#[derive(Debug, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatteryHealth {
    pub sn: String,
    pub from: String,
    pub to: String,
    /// The newest SOH in the span, %.
    pub soh: Option<f64>,
    /// The newest full capacity the BMS reported in the span, Ah.
    pub capacity_ah: Option<f64>,
    /// What the BMS claims now: the newest SOH × full capacity, Ah.
    pub bms_ah: Option<f64>,
    /// The newest cycle count of the BMS in the span.
    pub bms_cycles: Option<f64>,
    /// Equivalent full cycles up to the span's last stored day.
    pub efc_total: Option<f64>,
    pub days: Vec<HealthDay>,
    /// Oldest first.
    pub cycles: Vec<MeasuredCapacity>,
}

fn r(v: Option<f64>, places: i32) -> Option<f64> {
    let f = 10f64.powi(places);
    v.filter(|x| x.is_finite()).map(|x| (x * f).round() / f)
}

fn cell(pack: Option<i64>, no: Option<i64>) -> Option<HealthCell> {
    no.map(|cell| HealthCell { pack, cell })
}

/// The answer from the stored rows up to `to` (oldest first; those before `from` count only
/// towards the cumulative cycles). Pure, for tests.
pub(crate) fn shape(
    sn: &str,
    rows: &[HealthDayRow],
    from: &str,
    to: &str,
    tz: Tz,
) -> BatteryHealth {
    let mut efc: Option<f64> = None;
    let mut days = Vec::new();
    let mut cycles = Vec::new();
    for row in rows {
        if let Some(e) = row.efc {
            efc = Some(efc.unwrap_or(0.0) + e);
        }
        if row.day.as_str() < from {
            continue;
        }
        days.push(HealthDay {
            day: row.day.clone(),
            soh: r(row.soh, 1),
            bms_cycles: row.bms_cycles,
            efc_day: r(row.efc, 3),
            efc_total: r(efc, 2),
            discharge_kwh: r(row.discharge_kwh, 2),
            charge_kwh: r(row.charge_kwh, 2),
            spread_mv: r(row.spread_mv, 1),
            high_cell: cell(row.high_pack, row.high_cell),
            low_cell: cell(row.low_pack, row.low_cell),
            capacity_ah: r(row.capacity_ah, 1),
        });
        if let (Some(kind), Some(start), Some(end), Some(from_soc), Some(to_soc), Some(m)) = (
            row.cycle_kind.as_ref(),
            row.cycle_start,
            row.cycle_end,
            row.cycle_soc_from,
            row.cycle_soc_to,
            row.measured_ah,
        ) {
            let c = compare(m, row.bms_ah);
            cycles.push(MeasuredCapacity {
                day: row.day.clone(),
                kind: kind.clone(),
                start: local_time(start, tz),
                end: local_time(end, tz),
                soc_from: from_soc,
                soc_to: to_soc,
                moved_ah: r(row.cycle_ah, 2),
                moved_kwh: r(row.cycle_kwh, 3),
                measured_ah: r(Some(m), 1).unwrap_or(m),
                measured_kwh: r(row.measured_kwh, 2),
                bms_ah: r(row.bms_ah, 1),
                ratio_pct: r(c.map(|c| c.ratio_pct), 1),
                difference_ah: r(c.map(|c| c.difference_ah), 1),
            });
        }
    }
    let newest = |f: fn(&HealthDay) -> Option<f64>| days.iter().rev().find_map(f);
    let soh = newest(|d| d.soh);
    let capacity_ah = newest(|d| d.capacity_ah);
    BatteryHealth {
        sn: sn.to_string(),
        from: from.to_string(),
        to: to.to_string(),
        soh,
        capacity_ah,
        bms_ah: r(domain::battery_health::bms_capacity(soh, capacity_ah), 1),
        bms_cycles: newest(|d| d.bms_cycles),
        efc_total: days.last().and_then(|d| d.efc_total),
        days,
        cycles,
    }
}

/// A battery's health over plant-local days `from`..=`to` (the year up to today by
/// default): per day the BMS's SOH and cycle count, equivalent full cycles, energy moved and
/// the cell spread; the capacities measured over full swings with the BMS's claim beside
/// them. Null where the inputs are missing. Days are computed by a job every 15 minutes
/// (today's row follows the day).
#[utoipa::path(get, path = "/api/v1/battery/{sn}/health", tag = "batteries",
    params(("sn" = String, Path), HealthQuery), security(("bearer" = [])),
    responses((status = 200, description = "The battery's health; 600, 4 from, 4 to (before from or more than 3660 days)", body = Envelope<BatteryHealth>)))]
pub async fn health(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<HealthQuery>,
) -> ApiResult<Data<BatteryHealth>> {
    me.actor.require(VIEW_KEY)?;
    let d = device(&app, &me, &sn, FAMILY).await?;
    let tz = zone_of(&app, &me, &d).await?;
    let (from, to) = span(&q, readings::today(tz))?;
    let (from, to) = (
        from.format("%Y-%m-%d").to_string(),
        to.format("%Y-%m-%d").to_string(),
    );
    // From the first day on: the cumulative cycles count every stored day.
    let rows = app
        .store
        .battery_health_days(d.id, "0000-00-00", &to)
        .await?;
    Ok(Data(shape(&d.sn, &rows, &from, &to, tz)))
}

#[cfg(test)]
mod tests;
