//! The fleet dashboard (docs/overview.md, "Fleet dashboard"): for someone who looks after many
//! plants, which of them need attention and why, in one read. The plants are exactly those of
//! the plant list with the same filters (`store::plants::Matching`); every figure here is over
//! them: plants per status, open warnings and faults per plant, plants silent while the sun is
//! up over them, today's energy, and the ranking by specific yield (`domain::kpi`).

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, PoisonError},
    time::{Duration as Elapsed, Instant},
};

use chrono::{DateTime, Datelike, Duration, NaiveDate, Timelike};
use domain::{
    DeviceFamily,
    ids::{DeviceId, PlantId},
    kpi::{self, Outlier, Spread},
    plant::Status,
    policy::{Actor, PlantVisibility},
    sun,
};
use store::{
    Store,
    fleet::{EnergyDays, FleetEnergyRow, FleetPlantRow, OpenAlarmRow},
    plants::PlantFilter,
};

use crate::{Result, local_time};

/// The energy metric that counts as a plant's generation.
const PV: &str = "pv";

/// A plant silent longer than this (minutes) is listed when no other bound is asked for.
pub const SILENT_MINUTES_DEFAULT: i64 = 60;
/// The bounds of the silence asked for: at least two upload cycles of 5 minutes, at most
/// half a day (the daylight check looks at both ends of the stretch, which holds up to that).
pub const SILENT_MINUTES_RANGE: (i64, i64) = (10, 360);

/// The period the ranking sums.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Period {
    #[default]
    Today,
    Days7,
    Days30,
}

impl Period {
    pub const ALL: [Period; 3] = [Period::Today, Period::Days7, Period::Days30];

    /// How the wire names it: `today`, `7d`, `30d`.
    pub fn key(self) -> &'static str {
        match self {
            Period::Today => "today",
            Period::Days7 => "7d",
            Period::Days30 => "30d",
        }
    }

    pub fn parse(raw: &str) -> Option<Period> {
        Period::ALL.into_iter().find(|p| p.key() == raw.trim())
    }

    /// The plant-local days it covers, today included.
    pub fn days(self) -> i64 {
        match self {
            Period::Today => 1,
            Period::Days7 => 7,
            Period::Days30 => 30,
        }
    }
}

/// What the dashboard is asked for beside the plant list's filters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FleetAsk {
    pub period: Period,
    /// A plant counts as silent after this many minutes without a message
    /// ([`SILENT_MINUTES_RANGE`]).
    pub silent_minutes: i64,
}

/// How many plants are in each status; `no_devices` counts the plants (offline) that have no
/// gateway nor device bound.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StatusCounts {
    pub total: i64,
    pub normal: i64,
    pub warning: i64,
    pub fault: i64,
    pub offline: i64,
    pub upgrading: i64,
    pub no_devices: i64,
}

/// A plant as the dashboard's lists name it.
#[derive(Debug, Clone, PartialEq)]
pub struct PlantRef {
    pub id: PlantId,
    pub name: String,
    pub plant_type: i64,
    pub status: i64,
}

impl PlantRef {
    fn of(p: &FleetPlantRow) -> PlantRef {
        PlantRef {
            id: p.id,
            name: p.name.clone(),
            plant_type: p.plant_type,
            status: p.status,
        }
    }
}

/// A plant with open warnings or faults, and the oldest of its worst ones (the why).
#[derive(Debug, Clone, PartialEq)]
pub struct PlantAlarms {
    pub plant: PlantRef,
    /// `fault` when any fault is open, else `warning`.
    pub severity: &'static str,
    /// Open occurrences (an event on several devices at once is one) per severity.
    pub faults: i64,
    pub warnings: i64,
    /// When the oldest open occurrence of the worst severity opened (ms), its code and the
    /// family of its device.
    pub since: i64,
    pub code: String,
    pub family: Option<DeviceFamily>,
}

/// How a plant's daylight was told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DaylightBy {
    /// From the sun's height over the plant's location.
    Sun,
    /// The plant has no location: the local clock's day, 07:00 to 19:00.
    Clock,
}

impl DaylightBy {
    pub fn key(self) -> &'static str {
        match self {
            DaylightBy::Sun => "sun",
            DaylightBy::Clock => "clock",
        }
    }
}

/// A plant whose gateways and devices sent nothing for longer than asked, all of it in
/// daylight.
#[derive(Debug, Clone, PartialEq)]
pub struct SilentPlant {
    pub plant: PlantRef,
    /// Its last message (ms); `None`: never.
    pub last_heard: Option<i64>,
    pub daylight_by: DaylightBy,
    /// The sun's height over it now (degrees), when it has a location.
    pub sun_elevation: Option<f64>,
}

/// A plant's place in the ranking.
#[derive(Debug, Clone, PartialEq)]
pub struct PlantYield {
    pub plant: PlantRef,
    /// Installed capacity, kWp; `None` when not given.
    pub capacity_kwp: Option<f64>,
    /// PV energy over the period, kWh.
    pub energy_kwh: f64,
    /// kWh/kWp over the period; `None` without capacity.
    pub specific_yield: Option<f64>,
    pub outlier: Option<Outlier>,
}

/// Everything the dashboard shows, over the matching plants.
#[derive(Debug, Clone, PartialEq)]
pub struct FleetSummary {
    pub ask: FleetAsk,
    /// When it was read (ms): the figures describe this moment.
    pub at: i64,
    pub counts: StatusCounts,
    /// Every plant with open warnings or faults: faults first, then the longest open.
    pub alarms: Vec<PlantAlarms>,
    /// Every plant silent in daylight: the longest silent first.
    pub silent: Vec<SilentPlant>,
    /// PV energy of each plant's own today, and over the period, kWh.
    pub today_kwh: f64,
    pub period_kwh: f64,
    /// Installed capacity of the plants, kWp.
    pub capacity_kwp: f64,
    /// Plants with a yield, best first, then those without capacity (by name).
    pub ranking: Vec<PlantYield>,
    /// How many plants have a yield, and its median and spread (none without any).
    pub ranked: usize,
    pub spread: Option<Spread>,
    /// The outlier bounds (low, high) when outliers are marked.
    pub outlier_bounds: Option<(f64, f64)>,
    /// Inverters whose newest values are fresh, with their newest sample's time: what current
    /// power is summed from.
    pub fresh_inverters: Vec<(DeviceId, i64)>,
}

/// The fleet dashboard over the plants `actor` sees that match `filter` (its sort and page
/// are ignored); `station.view` (the plant list's key) is needed. The closed days of the
/// period come from `closed` (read for the plants it does not hold yet).
pub async fn summary(
    store: &Store,
    closed: &ClosedDays,
    actor: &Actor,
    filter: &PlantFilter,
    ask: FleetAsk,
    now: i64,
) -> Result<FleetSummary> {
    actor.require(domain::permissions::STATION_VIEW)?;
    let ask = clamped(ask);
    let visibility = actor.plant_visibility();
    let plants = store.fleet_plants(visibility, actor.id, filter).await?;
    if plants.is_empty() {
        return Ok(empty_summary(ask, now));
    }
    // Today's energy from the day rows; the period's closed days from what is kept.
    let days = energy_days(now, Period::Today);
    let todays = plant_todays(&plants, &days, now);
    let alarms = store
        .fleet_open_alarms(visibility, actor.id, filter)
        .await?;
    let energy = store
        .fleet_energy(visibility, actor.id, filter, PV, &days)
        .await?;
    let before = closed.sums(store, &todays, ask.period.days()).await?;
    let stamps = store
        .fleet_inverter_stamps(visibility, actor.id, filter)
        .await?;
    let fresh_inverters = stamps
        .iter()
        .filter(|s| devices::ingest::status::is_online(Some(s.ts), s.upload_cycle, now))
        .map(|s| (s.device_id, s.ts))
        .collect();

    let energy = plant_energy(&todays, &energy, &before);
    let (ranking, ranked, spread) = ranking(&plants, &energy);
    Ok(FleetSummary {
        ask,
        at: now,
        counts: counts(&plants),
        alarms: plant_alarms(&plants, &alarms),
        silent: silent(&plants, ask.silent_minutes, now),
        today_kwh: energy.values().map(|e| e.0).sum(),
        period_kwh: energy.values().map(|e| e.1).sum(),
        capacity_kwp: plants.iter().map(|p| p.total_power.max(0.0)).sum(),
        outlier_bounds: spread
            .filter(|s| ranked >= kpi::OUTLIER_MIN_PLANTS && s.median > 0.0)
            .map(kpi::outlier_bounds),
        ranking,
        ranked,
        spread,
        fresh_inverters,
    })
}

/// How long a plant's closed days are kept: a late report for a past day shows after this.
pub const CLOSED_KEPT_FOR: Elapsed = Elapsed::from_secs(600);
/// Most (plant, period) sums kept; beyond this the map starts again.
const CLOSED_KEPT_MAX: usize = 200_000;
/// Plants per read of closed days (the ids are bound one by one).
const CLOSED_READ_CHUNK: usize = 1_000;

/// Each plant's PV energy over a period's closed days (before its own today): they change only
/// when a late report arrives, and summing 30 days of thousands of plants was most of a
/// summary's cost. Kept per plant and period length, for every reader alike (a plant's energy
/// is the same whoever looks), read again after [`CLOSED_KEPT_FOR`] and at once when the
/// plant's day changes. Each replica keeps its own.
#[derive(Default)]
pub struct ClosedDays {
    entries: Mutex<HashMap<(PlantId, i64), ClosedSum>>,
}

/// For (plant, days of the period): the plant's today it was read on, kWh, when.
type ClosedSum = (String, f64, Instant);

impl ClosedDays {
    /// The closed days' energy of a period of `days` days for each plant (`todays`: its own
    /// today), kWh; none for a period of one day.
    async fn sums(
        &self,
        store: &Store,
        todays: &HashMap<PlantId, (usize, String)>,
        days: i64,
    ) -> Result<HashMap<PlantId, f64>> {
        let mut out = HashMap::with_capacity(todays.len());
        if days <= 1 {
            return Ok(out);
        }
        let now = Instant::now();
        // Plants to read, by their today.
        let mut missing: HashMap<&str, Vec<PlantId>> = HashMap::new();
        {
            let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
            for (plant, (_, today)) in todays {
                match entries.get(&(*plant, days)) {
                    Some((day, kwh, at))
                        if day == today && now.duration_since(*at) < CLOSED_KEPT_FOR =>
                    {
                        out.insert(*plant, *kwh);
                    }
                    _ => missing.entry(today.as_str()).or_default().push(*plant),
                }
            }
        }
        for (today, ids) in missing {
            let Ok(t) = NaiveDate::parse_from_str(today, "%Y-%m-%d") else {
                continue;
            };
            let from = (t - Duration::days(days - 1))
                .format("%Y-%m-%d")
                .to_string();
            let mut sums: HashMap<PlantId, f64> = ids.iter().map(|id| (*id, 0.0)).collect();
            for chunk in ids.chunks(CLOSED_READ_CHUNK) {
                for r in store.plants_energy_between(chunk, PV, &from, today).await? {
                    sums.insert(r.plant_id, r.kwh);
                }
            }
            let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
            if entries.len() + sums.len() > CLOSED_KEPT_MAX {
                entries.clear();
            }
            for (plant, kwh) in &sums {
                entries.insert((*plant, days), (today.to_string(), *kwh, now));
            }
            out.extend(sums);
        }
        Ok(out)
    }
}

impl std::fmt::Debug for ClosedDays {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClosedDays").finish_non_exhaustive()
    }
}

/// How long a summary is kept: half the screens' live interval, so a dashboard reading every
/// 10 s sees figures at most this much older than a fresh read.
pub const KEPT_FOR: Elapsed = Elapsed::from_secs(5);
/// Most summaries kept; beyond this the cache starts again.
const KEPT_MAX: usize = 1_000;

/// What one summary was read for: the reader (visibility is per account: what it owns and is
/// shared with it), the filters and what is asked. Two readers never share a summary.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct CacheKey {
    reader: domain::ids::UserId,
    visibility: (Option<domain::ids::UserId>, Option<domain::ids::CompanyId>),
    all: bool,
    name: Option<String>,
    status: Option<i64>,
    plant_type: Option<i64>,
    company: Option<domain::ids::CompanyId>,
    owner: Option<domain::ids::UserId>,
    shared: bool,
    period: Period,
    silent_minutes: i64,
}

#[derive(Default)]
struct Slot {
    kept: Option<(Instant, Arc<FleetSummary>)>,
    /// Held while one request reads the summary; the others wait for its result.
    reading: Arc<tokio::sync::Mutex<()>>,
}

/// Summaries kept for [`KEPT_FOR`] per reader and filters: the dashboard is one heavy read over
/// thousands of plants that every open screen repeats at the live interval, and a company's
/// staff (or one person's tabs) ask the same. A summary missing is read once however many ask
/// at the same moment. Each replica keeps its own.
#[derive(Default)]
pub struct SummaryCache {
    slots: Mutex<HashMap<CacheKey, Slot>>,
    /// The plants' closed days, which every summary shares.
    pub closed: ClosedDays,
}

impl std::fmt::Debug for SummaryCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SummaryCache").finish_non_exhaustive()
    }
}

impl SummaryCache {
    fn kept(
        &self,
        key: &CacheKey,
    ) -> std::result::Result<Arc<FleetSummary>, Arc<tokio::sync::Mutex<()>>> {
        let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        if slots.len() > KEPT_MAX && !slots.contains_key(key) {
            slots.clear();
        }
        let slot = slots.entry(key.clone()).or_default();
        match &slot.kept {
            Some((at, summary)) if at.elapsed() < KEPT_FOR => Ok(summary.clone()),
            _ => Err(slot.reading.clone()),
        }
    }

    fn keep(&self, key: CacheKey, summary: Arc<FleetSummary>) {
        let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        slots.entry(key).or_default().kept = Some((Instant::now(), summary));
    }
}

/// [`summary`] through the cache: a summary of the same reader, filters and ask read less than
/// [`KEPT_FOR`] ago is answered as it was (its [`FleetSummary::at`] tells when). The permission
/// is checked on every call.
pub async fn kept_summary(
    cache: &SummaryCache,
    store: &Store,
    actor: &Actor,
    filter: &PlantFilter,
    ask: FleetAsk,
    now: i64,
) -> Result<Arc<FleetSummary>> {
    actor.require(domain::permissions::STATION_VIEW)?;
    let ask = clamped(ask);
    let (visibility, all) = match actor.plant_visibility() {
        PlantVisibility::All => ((None, None), true),
        PlantVisibility::Of { user, company } => ((Some(user), company), false),
    };
    let key = CacheKey {
        reader: actor.id,
        visibility,
        all,
        name: filter.name.clone(),
        status: filter.status,
        plant_type: filter.plant_type,
        company: filter.company,
        owner: filter.owner,
        shared: filter.shared,
        period: ask.period,
        silent_minutes: ask.silent_minutes,
    };
    let reading = match cache.kept(&key) {
        Ok(summary) => return Ok(summary),
        Err(reading) => reading,
    };
    let _turn = reading.lock().await;
    // Whoever held the turn before may have read it meanwhile.
    if let Ok(summary) = cache.kept(&key) {
        return Ok(summary);
    }
    let now = now.max(domain::time::now_ms());
    let fresh = Arc::new(summary(store, &cache.closed, actor, filter, ask, now).await?);
    cache.keep(key, fresh.clone());
    Ok(fresh)
}

fn clamped(ask: FleetAsk) -> FleetAsk {
    FleetAsk {
        silent_minutes: ask
            .silent_minutes
            .clamp(SILENT_MINUTES_RANGE.0, SILENT_MINUTES_RANGE.1),
        ..ask
    }
}

/// The dashboard of no plants (a filter nothing can match).
pub fn empty_summary(ask: FleetAsk, now: i64) -> FleetSummary {
    FleetSummary {
        ask: clamped(ask),
        at: now,
        counts: StatusCounts::default(),
        alarms: Vec::new(),
        silent: Vec::new(),
        today_kwh: 0.0,
        period_kwh: 0.0,
        capacity_kwp: 0.0,
        ranking: Vec::new(),
        ranked: 0,
        spread: None,
        outlier_bounds: None,
        fresh_inverters: Vec::new(),
    }
}

fn counts(plants: &[FleetPlantRow]) -> StatusCounts {
    let mut c = StatusCounts {
        total: plants.len() as i64,
        ..Default::default()
    };
    for p in plants {
        match Status::from_wire(p.status) {
            Some(Status::Normal) => c.normal += 1,
            Some(Status::Warning) => c.warning += 1,
            Some(Status::Fault) => c.fault += 1,
            Some(Status::Upgrading) => c.upgrading += 1,
            Some(Status::Offline) | None => c.offline += 1,
        }
        if p.devices == 0 && p.gateways == 0 {
            c.no_devices += 1;
        }
    }
    c
}

/// The three candidate todays around UTC's (a plant's zone puts its today on one of them) and
/// the periods ending on each.
fn energy_days(now: i64, period: Period) -> EnergyDays {
    let utc = DateTime::from_timestamp_millis(now)
        .unwrap_or_default()
        .date_naive();
    let day = |d: NaiveDate| d.format("%Y-%m-%d").to_string();
    let todays = [utc - Duration::days(1), utc, utc + Duration::days(1)];
    EnergyDays {
        todays: todays.map(day),
        period_starts: todays.map(|t| day(t - Duration::days(period.days() - 1))),
    }
}

/// Each plant's own today: which of the candidates of `days` it is, and the date.
fn plant_todays(
    plants: &[FleetPlantRow],
    days: &EnergyDays,
    now: i64,
) -> HashMap<PlantId, (usize, String)> {
    let at = DateTime::from_timestamp_millis(now).unwrap_or_default();
    // Zones repeat across a fleet: each is converted once.
    let mut by_zone: HashMap<&str, Option<(usize, String)>> = HashMap::new();
    let mut out = HashMap::with_capacity(plants.len());
    for p in plants {
        let today = by_zone.entry(p.timezone.as_str()).or_insert_with(|| {
            let today = at
                .with_timezone(&local_time::zone(&p.timezone))
                .format("%Y-%m-%d")
                .to_string();
            let k = days.todays.iter().position(|d| *d == today)?;
            Some((k, today))
        });
        if let Some(t) = today {
            out.insert(p.id, t.clone());
        }
    }
    out
}

/// Each plant's (today, period) energy, kWh: today's row of its own today, and the period's
/// closed days before it.
fn plant_energy(
    todays: &HashMap<PlantId, (usize, String)>,
    rows: &[FleetEnergyRow],
    closed: &HashMap<PlantId, f64>,
) -> HashMap<PlantId, (f64, f64)> {
    let today_of: HashMap<PlantId, &FleetEnergyRow> =
        rows.iter().map(|r| (r.plant_id, r)).collect();
    todays
        .iter()
        .map(|(plant, (k, _))| {
            let today = today_of.get(plant).map_or(0.0, |r| match k {
                0 => r.today0,
                1 => r.today1,
                _ => r.today2,
            });
            let before = closed.get(plant).copied().unwrap_or(0.0);
            (*plant, (today, today + before))
        })
        .collect()
}

fn ranking(
    plants: &[FleetPlantRow],
    energy: &HashMap<PlantId, (f64, f64)>,
) -> (Vec<PlantYield>, usize, Option<Spread>) {
    let mut rows: Vec<PlantYield> = plants
        .iter()
        .map(|p| {
            let energy_kwh = energy.get(&p.id).map_or(0.0, |e| e.1);
            PlantYield {
                plant: PlantRef::of(p),
                capacity_kwp: (p.total_power > 0.0).then_some(p.total_power),
                energy_kwh,
                specific_yield: kpi::specific_yield(energy_kwh, p.total_power),
                outlier: None,
            }
        })
        .collect();
    let yields: Vec<f64> = rows.iter().filter_map(|r| r.specific_yield).collect();
    let ranked = yields.len();
    let spread = kpi::spread(&yields);
    if let Some(s) = spread {
        for r in &mut rows {
            r.outlier = r.specific_yield.and_then(|y| kpi::outlier(y, s, ranked));
        }
    }
    // Best first; plants without a yield after every ranked one, by name.
    rows.sort_by(|a, b| match (a.specific_yield, b.specific_yield) {
        (Some(x), Some(y)) => y.total_cmp(&x).then(a.plant.id.cmp(&b.plant.id)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.plant.name.cmp(&b.plant.name),
    });
    (rows, ranked, spread)
}

fn plant_alarms(plants: &[FleetPlantRow], open: &[OpenAlarmRow]) -> Vec<PlantAlarms> {
    let by_id: HashMap<PlantId, &FleetPlantRow> = plants.iter().map(|p| (p.id, p)).collect();
    // Rows come oldest first: the first row of a severity is its oldest.
    let mut per: HashMap<PlantId, PlantAlarms> = HashMap::new();
    let mut seen: std::collections::HashSet<(PlantId, i64)> = std::collections::HashSet::new();
    for e in open {
        let Some(p) = by_id.get(&e.plant_id) else {
            continue;
        };
        let fault = e.severity == "fault";
        let entry = per.entry(p.id).or_insert_with(|| PlantAlarms {
            plant: PlantRef::of(p),
            severity: if fault { "fault" } else { "warning" },
            faults: 0,
            warnings: 0,
            since: e.opened_at,
            code: e.code.clone(),
            family: e.family,
        });
        if fault && entry.severity != "fault" {
            // The first fault outranks the warnings seen before it.
            entry.severity = "fault";
            entry.since = e.opened_at;
            entry.code = e.code.clone();
            entry.family = e.family;
        }
        if seen.insert((p.id, e.occurrence_id)) {
            if fault {
                entry.faults += 1;
            } else {
                entry.warnings += 1;
            }
        }
    }
    let mut out: Vec<PlantAlarms> = per.into_values().collect();
    out.sort_by(|a, b| {
        (b.severity == "fault")
            .cmp(&(a.severity == "fault"))
            .then(a.since.cmp(&b.since))
            .then(a.plant.id.cmp(&b.plant.id))
    });
    out
}

fn silent(plants: &[FleetPlantRow], minutes: i64, now: i64) -> Vec<SilentPlant> {
    let from = now - minutes * 60_000;
    let mut out: Vec<SilentPlant> = plants
        .iter()
        .filter(|p| p.gateways + p.devices > 0)
        .filter(|p| p.last_heard().is_none_or(|t| t < from))
        .filter_map(|p| {
            let located = sun::has_location(p.lat, p.lon);
            let (day, by) = if located {
                (
                    sun::sun_up_throughout(p.lat, p.lon, from, now),
                    DaylightBy::Sun,
                )
            } else {
                let tz = local_time::zone(&p.timezone);
                let local = |ms: i64| {
                    let t = DateTime::from_timestamp_millis(ms)
                        .unwrap_or_default()
                        .with_timezone(&tz);
                    (
                        i64::from(t.date_naive().num_days_from_ce()),
                        t.hour() * 60 + t.minute(),
                    )
                };
                (
                    sun::clock_day_throughout(local(from), local(now)),
                    DaylightBy::Clock,
                )
            };
            day.then(|| SilentPlant {
                plant: PlantRef::of(p),
                last_heard: p.last_heard(),
                daylight_by: by,
                sun_elevation: located.then(|| sun::elevation_deg(p.lat, p.lon, now)),
            })
        })
        .collect();
    // Never heard first, then the longest silent.
    out.sort_by(|a, b| {
        a.last_heard
            .cmp(&b.last_heard)
            .then(a.plant.id.cmp(&b.plant.id))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: i64, status: i64, kwp: f64) -> FleetPlantRow {
        FleetPlantRow {
            id: PlantId(id),
            name: format!("Plant {id}"),
            plant_type: 1,
            status,
            total_power: kwp,
            timezone: "Europe/Madrid".into(),
            lon: -3.7,
            lat: 40.4,
            gateways: 1,
            devices: 1,
            gateway_heard: None,
            device_heard: None,
        }
    }

    /// 2024-06-21T10:00Z: mid-morning in Madrid, night in Sydney.
    const MORNING: i64 = 1_718_964_000_000;

    #[test]
    fn the_candidate_todays_surround_utc_and_periods_end_on_them() {
        let d = energy_days(MORNING, Period::Days7);
        assert_eq!(d.todays, ["2024-06-20", "2024-06-21", "2024-06-22"]);
        assert_eq!(d.period_starts, ["2024-06-14", "2024-06-15", "2024-06-16"]);
        let t = energy_days(MORNING, Period::Today);
        assert_eq!(t.period_starts, t.todays);
    }

    #[test]
    fn a_plant_reads_the_energy_of_its_own_today() {
        let mut sydney = row(2, 1, 5.0);
        sydney.timezone = "Australia/Sydney".into();
        let plants = [row(1, 1, 5.0), sydney];
        let days = energy_days(MORNING, Period::Today);
        let e = |id: i64| FleetEnergyRow {
            plant_id: PlantId(id),
            today0: 1.0,
            today1: 2.0,
            today2: 3.0,
            period0: 1.0,
            period1: 2.0,
            period2: 3.0,
        };
        let closed = HashMap::from([(PlantId(1), 10.0)]);
        // 10:00Z is 20:00 in Sydney, still the 21st there.
        let todays = plant_todays(&plants, &days, MORNING);
        assert_eq!(todays[&PlantId(2)], (1, "2024-06-21".to_string()));
        let out = plant_energy(&todays, &[e(1), e(2)], &closed);
        assert_eq!(out[&PlantId(1)], (2.0, 12.0));
        assert_eq!(out[&PlantId(2)], (2.0, 2.0));
        // 15:00Z is 01:00 on the 22nd in Sydney.
        let later = MORNING + 5 * 3_600_000;
        let todays = plant_todays(&plants, &days, later);
        let out = plant_energy(&todays, &[e(1), e(2)], &closed);
        assert_eq!(out[&PlantId(2)], (3.0, 3.0));
        // A plant without a row today has produced nothing today.
        let out = plant_energy(&todays, &[], &closed);
        assert_eq!(out[&PlantId(1)], (0.0, 10.0));
    }

    #[test]
    fn a_plant_without_capacity_is_ranked_after_the_others_without_a_yield() {
        let plants = [row(1, 1, 5.0), row(2, 1, 0.0), row(3, 1, 10.0)];
        let energy = HashMap::from([
            (PlantId(1), (0.0, 20.0)),
            (PlantId(2), (0.0, 50.0)),
            (PlantId(3), (0.0, 60.0)),
        ]);
        let (rows, ranked, _) = ranking(&plants, &energy);
        assert_eq!(ranked, 2);
        let order: Vec<_> = rows.iter().map(|r| r.plant.id.0).collect();
        assert_eq!(order, [3, 1, 2]);
        assert_eq!(rows[0].specific_yield, Some(6.0));
        assert_eq!(rows[2].specific_yield, None);
        assert_eq!(rows[2].capacity_kwp, None);
    }

    #[test]
    fn the_worst_alarm_and_its_oldest_occurrence_explain_a_plant() {
        let plants = [row(1, 3, 5.0), row(2, 2, 5.0), row(3, 2, 5.0)];
        let alarm = |plant: i64, occ: i64, severity: &str, at: i64| OpenAlarmRow {
            plant_id: PlantId(plant),
            occurrence_id: occ,
            code: format!("C{occ}"),
            severity: severity.into(),
            opened_at: at,
            family: Some(DeviceFamily::Inverter),
        };
        let open = [
            alarm(1, 10, "warning", 100),
            alarm(2, 20, "warning", 150),
            alarm(3, 30, "warning", 120),
            alarm(1, 11, "fault", 200),
            alarm(1, 11, "fault", 200),
            alarm(1, 12, "fault", 300),
        ];
        let out = plant_alarms(&plants, &open);
        let order: Vec<_> = out.iter().map(|a| a.plant.id.0).collect();
        assert_eq!(order, [1, 3, 2], "faults first, then the oldest");
        assert_eq!(out[0].severity, "fault");
        assert_eq!((out[0].faults, out[0].warnings), (2, 1));
        assert_eq!((out[0].since, out[0].code.as_str()), (200, "C11"));
    }

    #[test]
    fn a_plant_silent_in_daylight_is_listed_and_one_silent_at_night_is_not() {
        let hour = 3_600_000;
        let mut silent_madrid = row(1, 0, 5.0);
        silent_madrid.device_heard = Some(MORNING - 3 * hour);
        let mut fresh = row(2, 1, 5.0);
        fresh.gateway_heard = Some(MORNING - 60_000);
        let mut night = row(3, 0, 5.0);
        night.lat = -33.87;
        night.lon = 151.2;
        let mut no_devices = row(4, 0, 5.0);
        no_devices.gateways = 0;
        no_devices.devices = 0;
        let mut nowhere = row(5, 0, 5.0);
        nowhere.lat = 0.0;
        nowhere.lon = 0.0;
        let plants = [silent_madrid, fresh, night, no_devices, nowhere];
        let out = silent(&plants, 60, MORNING);
        let ids: Vec<_> = out.iter().map(|s| s.plant.id.0).collect();
        // Never heard first (the plant without a location, by the clock: 12:00 in Madrid).
        assert_eq!(ids, [5, 1]);
        assert_eq!(out[0].daylight_by, DaylightBy::Clock);
        assert_eq!(out[0].sun_elevation, None);
        assert_eq!(out[1].daylight_by, DaylightBy::Sun);
        assert!(out[1].sun_elevation.is_some_and(|e| e > 40.0));
        // At 22:00 in Madrid nobody is listed.
        assert!(silent(&plants, 60, MORNING + 10 * hour).is_empty());
    }

    #[test]
    fn periods_read_and_name_themselves() {
        for p in Period::ALL {
            assert_eq!(Period::parse(p.key()), Some(p));
        }
        assert_eq!(Period::parse("week"), None);
        assert_eq!(Period::Days30.days(), 30);
    }
}
