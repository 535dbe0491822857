//! The fleet dashboard in one call (`service::fleet`): over the plants the plant list would
//! show with the same filters, the plants per status, the plants with open warnings and faults,
//! the plants silent in daylight, today's energy and current power, and the ranking by
//! specific yield.

use axum::extract::State;
use domain::{DomainError, Lang, kpi::Outlier};
use serde::{Deserialize, Serialize};
use service::fleet::{self, DaylightBy, FleetAsk, Period, PlantRef, PlantYield};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope, current_lang},
    events::Severity,
    extract::{Query, num},
    plants::{list::ListQuery, update_at},
    readings::round2,
    session::CurrentUser,
};

/// Rows of each list the answer carries at most (the totals count them all).
const ALARM_ROWS: usize = 20;
const SILENT_ROWS: usize = 20;
const RANK_ROWS: usize = 10;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(summary))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct FleetQuery {
    /// 0 offline, 1 normal, 2 warning, 3 fault, 4 upgrading; -1 any.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub status: Option<i64>,
    /// 1 grid-tied, 2 storage AC coupled, 3 storage DC coupled; -1 or -2 any.
    #[serde(default, rename = "type", deserialize_with = "num::opt_i64")]
    pub kind: Option<i64>,
    /// Only the plants of this agent company (as the plant list); -1 any.
    #[serde(default, rename = "agentCompanyId", deserialize_with = "num::opt_i64")]
    pub agent_company_id: Option<i64>,
    /// Only the plants this account owns (as the plant list); -1 any.
    #[serde(default, rename = "customerId", deserialize_with = "num::opt_i64")]
    pub customer_id: Option<i64>,
    /// The ranking's period: `today` (default), `7d` or `30d`, each ending with the plant's
    /// own today.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub period: Option<String>,
    /// A plant is silent after this many minutes without a message (10 to 360; default 60).
    #[serde(default, rename = "silentMinutes", deserialize_with = "num::opt_i64")]
    pub silent_minutes: Option<i64>,
}

impl FleetQuery {
    /// The plant list's query with these filters: one rule for both.
    fn as_list(&self) -> ListQuery {
        ListQuery {
            name: None,
            status: self.status,
            kind: self.kind,
            sort: None,
            order: None,
            agent_company_id: self.agent_company_id,
            customer_id: self.customer_id,
            share: None,
        }
    }
}

/// The ranking's period.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub enum FleetPeriod {
    #[serde(rename = "today")]
    Today,
    #[serde(rename = "7d")]
    Days7,
    #[serde(rename = "30d")]
    Days30,
}

impl From<Period> for FleetPeriod {
    fn from(p: Period) -> Self {
        match p {
            Period::Today => FleetPeriod::Today,
            Period::Days7 => FleetPeriod::Days7,
            Period::Days30 => FleetPeriod::Days30,
        }
    }
}

/// Plants per status (the plant list's statuses); `noDevices` counts the offline plants that
/// have no gateway nor device at all.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FleetCounts {
    pub total: i64,
    pub normal: i64,
    pub warning: i64,
    pub fault: i64,
    pub offline: i64,
    pub upgrading: i64,
    pub no_devices: i64,
}

/// A plant with open warnings or faults.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FleetAlarm {
    pub plant_id: i64,
    pub plant_name: String,
    /// 1 grid-tied, 2 storage AC coupled, 3 storage DC coupled.
    pub plant_type: i64,
    /// `fault` when any fault is open, else `warning`.
    pub severity: Severity,
    /// Open occurrences per severity.
    pub faults: i64,
    pub warnings: i64,
    /// When the oldest open occurrence of `severity` opened, UTC `YYYY-MM-DDTHH:MM:SSZ`.
    pub since: String,
    /// That occurrence's code and what it means, in the caller's language (null for a code the
    /// catalogue does not know).
    pub code: String,
    pub meaning: Option<String>,
}

/// The plants with open warnings or faults: faults first, then the longest open.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FleetAlarms {
    /// Plants with any open, and the open occurrences over all of them.
    pub plants: i64,
    pub faults: i64,
    pub warnings: i64,
    /// The first 20.
    pub infos: Vec<FleetAlarm>,
}

/// How a plant's daylight was told: `sun` from its location, `clock` (no location) from its
/// local time, 07:00 to 19:00.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum DaylightRule {
    Sun,
    Clock,
}

/// A plant silent in daylight.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FleetSilentPlant {
    pub plant_id: i64,
    pub plant_name: String,
    pub plant_type: i64,
    /// 0 offline, 1 normal, 2 warning, 3 fault, 4 upgrading.
    pub status: i64,
    /// Its gateways' and devices' newest message, UTC; null: never.
    pub last_heard: Option<String>,
    pub daylight_by: DaylightRule,
    /// The sun's height over it now, degrees (null without a location).
    pub sun_elevation: Option<f64>,
}

/// Plants with gateways or devices that sent nothing for more than `minutes`, all of it in
/// daylight (the sun at least 5 degrees up at the plant's location, or 07:00 to 19:00 local
/// time for a plant without one): never heard first, then the longest silent.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FleetSilent {
    pub minutes: i64,
    pub total: i64,
    /// The first 20.
    pub infos: Vec<FleetSilentPlant>,
}

/// Energy and power over the plants.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FleetEnergy {
    /// PV energy of each plant's own today, summed, kWh.
    pub today_kwh: f64,
    /// PV energy over the ranking's period, summed, kWh.
    pub period_kwh: f64,
    /// Current PV power of the inverters with fresh data, W.
    pub power_w: f64,
    /// Installed capacity, kWp.
    pub capacity_kwp: f64,
}

/// Which side of the fleet a plant's yield stands out on.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum YieldOutlier {
    Low,
    High,
}

/// A plant in the ranking.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FleetYield {
    pub plant_id: i64,
    pub plant_name: String,
    pub plant_type: i64,
    /// Installed capacity, kWp; null when the plant has none.
    pub capacity_kwp: Option<f64>,
    /// PV energy over the period, kWh.
    pub energy_kwh: f64,
    /// Specific yield over the period, kWh/kWp (energy / capacity); null without capacity.
    pub specific_yield: Option<f64>,
    /// Far from the median (see `lowBelow`, `highAbove`); null otherwise.
    pub outlier: Option<YieldOutlier>,
}

/// The plants by specific yield over the period. Outliers: below 70 % of the median, or more than
/// 2 MAD (median absolute deviation, counted as at least 5 % of the median) below it, is `low`;
/// above 130 % of the median, or more than 2 MAD above it, is `high`; marked only with 5 ranked
/// plants or more.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FleetRanking {
    /// Plants with a yield, and those without capacity (not ranked).
    pub ranked: i64,
    pub unrated: i64,
    /// Of the ranked plants' yields, kWh/kWp.
    pub median: Option<f64>,
    pub mad: Option<f64>,
    /// The outlier bounds, kWh/kWp; null when outliers are not marked.
    pub low_below: Option<f64>,
    pub high_above: Option<f64>,
    /// The 10 best, best first.
    pub best: Vec<FleetYield>,
    /// The 10 worst not already among the best, worst first.
    pub worst: Vec<FleetYield>,
    /// Up to 10 plants without capacity (yield null).
    pub unrated_infos: Vec<FleetYield>,
}

/// The fleet dashboard.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FleetSummary {
    pub period: FleetPeriod,
    /// When the figures were read, UTC (a summary is kept for up to 5 s per caller and
    /// filters).
    pub update_at: String,
    pub plants: FleetCounts,
    pub alarms: FleetAlarms,
    pub silent: FleetSilent,
    pub energy: FleetEnergy,
    pub ranking: FleetRanking,
}

fn plant_fields(p: &PlantRef) -> (i64, String, i64) {
    (p.id.0, p.name.clone(), p.plant_type)
}

fn yield_row(y: &PlantYield) -> FleetYield {
    let (plant_id, plant_name, plant_type) = plant_fields(&y.plant);
    FleetYield {
        plant_id,
        plant_name,
        plant_type,
        capacity_kwp: y.capacity_kwp,
        energy_kwh: round2(y.energy_kwh),
        specific_yield: y.specific_yield.map(round2),
        outlier: y.outlier.map(|o| match o {
            Outlier::Low => YieldOutlier::Low,
            Outlier::High => YieldOutlier::High,
        }),
    }
}

fn ranking(s: &fleet::FleetSummary) -> FleetRanking {
    let (rated, unrated): (Vec<&PlantYield>, Vec<&PlantYield>) =
        s.ranking.iter().partition(|y| y.specific_yield.is_some());
    let best: Vec<FleetYield> = rated.iter().take(RANK_ROWS).map(|y| yield_row(y)).collect();
    let worst = rated
        .iter()
        .rev()
        .take(RANK_ROWS.min(rated.len().saturating_sub(best.len())))
        .map(|y| yield_row(y))
        .collect();
    FleetRanking {
        ranked: s.ranked as i64,
        unrated: unrated.len() as i64,
        median: s.spread.map(|x| round2(x.median)),
        mad: s.spread.map(|x| round2(x.mad)),
        low_below: s.outlier_bounds.map(|b| round2(b.0)),
        high_above: s.outlier_bounds.map(|b| round2(b.1)),
        best,
        worst,
        unrated_infos: unrated
            .iter()
            .take(RANK_ROWS)
            .map(|y| yield_row(y))
            .collect(),
    }
}

fn alarms(s: &fleet::FleetSummary, lang: Lang) -> FleetAlarms {
    FleetAlarms {
        plants: s.alarms.len() as i64,
        faults: s.alarms.iter().map(|a| a.faults).sum(),
        warnings: s.alarms.iter().map(|a| a.warnings).sum(),
        infos: s
            .alarms
            .iter()
            .take(ALARM_ROWS)
            .map(|a| {
                let (plant_id, plant_name, plant_type) = plant_fields(&a.plant);
                FleetAlarm {
                    plant_id,
                    plant_name,
                    plant_type,
                    severity: Severity::of(a.severity),
                    faults: a.faults,
                    warnings: a.warnings,
                    since: update_at(a.since),
                    code: a.code.clone(),
                    meaning: service::event_catalogue::definition(a.family, &a.code)
                        .map(|d| d.meaning(lang).to_string()),
                }
            })
            .collect(),
    }
}

fn silent(s: &fleet::FleetSummary) -> FleetSilent {
    FleetSilent {
        minutes: s.ask.silent_minutes,
        total: s.silent.len() as i64,
        infos: s
            .silent
            .iter()
            .take(SILENT_ROWS)
            .map(|p| {
                let (plant_id, plant_name, plant_type) = plant_fields(&p.plant);
                FleetSilentPlant {
                    plant_id,
                    plant_name,
                    plant_type,
                    status: p.plant.status,
                    last_heard: p.last_heard.map(update_at),
                    daylight_by: match p.daylight_by {
                        DaylightBy::Sun => DaylightRule::Sun,
                        DaylightBy::Clock => DaylightRule::Clock,
                    },
                    sun_elevation: p.sun_elevation.map(|e| (e * 10.0).round() / 10.0),
                }
            })
            .collect(),
    }
}

/// The fleet dashboard over the plants the plant list shows with the same filters
/// (`customerId`, `agentCompanyId`, `type`, `status`); `station.view` (code 2 without it).
/// Code 4 (`period`) for a period other than `today`, `7d`, `30d`.
#[utoipa::path(get, path = "/api/v1/fleet/summary", tag = "plants", params(FleetQuery), security(("bearer" = [])),
    responses((status = 200, description = "The fleet dashboard; 2, 4", body = Envelope<FleetSummary>)))]
pub async fn summary(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<FleetQuery>,
) -> ApiResult<Data<FleetSummary>> {
    me.actor.require(domain::permissions::STATION_VIEW)?;
    let period = match q.period.as_deref().map(str::trim) {
        None | Some("") => Period::Today,
        Some(raw) => Period::parse(raw).ok_or_else(|| DomainError::invalid("period"))?,
    };
    let ask = FleetAsk {
        period,
        silent_minutes: q.silent_minutes.unwrap_or(fleet::SILENT_MINUTES_DEFAULT),
    };
    let now = domain::time::now_ms();
    let s = match q.as_list().resolved(&app, &me, 0, 0).await? {
        Some(filter) => {
            fleet::kept_summary(&app.caches.fleet, &app.store, &me.actor, &filter, ask, now).await?
        }
        // An agent company the caller may not narrow to: nothing matches.
        None => std::sync::Arc::new(fleet::empty_summary(ask, now)),
    };
    let power = app.caches.latest_pv.power(&app, &s.fresh_inverters).await?;
    let power_w: f64 = power.values().filter_map(|l| l.pv).sum();
    let c = s.counts;
    Ok(Data(FleetSummary {
        period: s.ask.period.into(),
        update_at: update_at(s.at),
        plants: FleetCounts {
            total: c.total,
            normal: c.normal,
            warning: c.warning,
            fault: c.fault,
            offline: c.offline,
            upgrading: c.upgrading,
            no_devices: c.no_devices,
        },
        alarms: alarms(&s, current_lang()),
        silent: silent(&s),
        energy: FleetEnergy {
            today_kwh: round2(s.today_kwh),
            period_kwh: round2(s.period_kwh),
            power_w: power_w.round(),
            capacity_kwp: round2(s.capacity_kwp),
        },
        ranking: ranking(&s),
    }))
}
