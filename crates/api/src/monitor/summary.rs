//! A plant's headline figures: current power, energy of today, this month, this year and all
//! time, today's income and efficiency (current power over the installed capacity), and
//! whether they are live or the last known (`stale`). One rule for the realtime endpoint, the plant detail
//! and (set-based, one query per kind for a whole page) the plant list.

use domain::ids::DeviceId;
use domain::ids::PlantId;
use std::collections::{HashMap, HashSet};

use chrono::{Datelike, Timelike};
use domain::{
    DeviceFamily,
    income::{DayGeneration, income},
    plant::Valuation,
};
use store::{
    energy_reads::PlantDeviceStamp, gateways::DeviceRow, plants::PlantRow, telemetry::DayRange,
};

use super::{flow, latest_pv::Latest, live};
use crate::{
    AppState,
    envelope::ApiResult,
    inverters::values::switched_on,
    readings::{self, Reading},
};

/// The energy metric that counts as the plant's generation.
pub(crate) const PV: &str = "pv";

#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Summary {
    /// Current PV power, W.
    pub pac: f64,
    pub etoday: f64,
    pub emonth: f64,
    pub eyear: f64,
    pub etotal: f64,
    pub income: f64,
    /// `pac` over the installed capacity (0..1).
    pub efficiency: f64,
    /// The newest reading of any device of the plant, else the plant's own last change (ms).
    pub update_at: i64,
    /// No device has fresh data ([`live`]): the figures are the last known, not live.
    pub stale: bool,
    /// Every inverter with fresh data reports itself switched off ([`live::switched_off`]).
    pub switched_off: bool,
}

/// `pac / capacity`, 0 for a plant without capacity; 4 decimals like the clients show.
pub(crate) fn efficiency(pac_w: f64, capacity_kwp: f64) -> f64 {
    if capacity_kwp <= 0.0 {
        return 0.0;
    }
    (pac_w / (capacity_kwp * 1000.0) * 10_000.0).round() / 10_000.0
}

fn pv_of(totals: &[store::telemetry::EnergyTotal]) -> f64 {
    totals
        .iter()
        .filter(|t| t.metric == PV)
        .map(|t| t.kwh)
        .sum()
}

/// The headline figures of one plant.
pub(crate) async fn plant(
    app: &AppState,
    plant: &PlantRow,
    devices: &[DeviceRow],
) -> ApiResult<Summary> {
    let tz = readings::zone(&plant.timezone);
    let today = readings::today(tz);
    let store = &app.store;
    let day = today.format("%Y-%m-%d").to_string();
    let etoday = pv_of(&store.plant_energy(plant.id, &DayRange::day(&day)).await?);
    let emonth = pv_of(
        &store
            .plant_energy(plant.id, &DayRange::month(today.year(), today.month()))
            .await?,
    );
    let eyear = pv_of(
        &store
            .plant_energy(plant.id, &DayRange::year(today.year()))
            .await?,
    );
    let etotal = pv_of(&store.plant_energy(plant.id, &DayRange::total()).await?);

    let latest = store.plant_latest_samples(plant.id).await?;
    let cycles = live::Cycles::of_plant(app, plant.id).await?;
    let now = domain::time::now_ms();
    // Current power counts fresh readings only: a silent plant produces nothing we know of.
    let (mut pac, mut stale, mut switches) = (0.0, true, Vec::new());
    for s in &latest {
        let Some(d) = devices.iter().find(|d| d.id == s.device_id) else {
            continue;
        };
        if cycles.stale(d.gateway_id, Some(s.ts), now) {
            continue;
        }
        stale = false;
        if d.family == DeviceFamily::Inverter {
            let r = Reading::from_sample(s.ts, &s.payload);
            pac += flow::pv_power(&r).unwrap_or(0.0);
            switches.push(switched_on(&r));
        }
    }
    let update_at = latest
        .iter()
        .map(|s| s.ts)
        .max()
        .unwrap_or(plant.updated_at);

    // Today's PV power over the day tells time-of-use prices when the energy was made.
    let tariff = service::plants::stored_tariff(&store.tariff(plant.id).await?);
    let mut profile = Vec::new();
    if tariff
        .first()
        .is_some_and(|c| c.kind == Valuation::TimeOfUse)
    {
        let (from, to) = readings::day_bounds(tz, today);
        for d in devices
            .iter()
            .filter(|d| d.family == DeviceFamily::Inverter)
        {
            for s in readings::day_samples(app, d.id, from, to).await? {
                let r = Reading::from_sample(s.ts, &s.payload);
                if let (Some(p), Some(t)) = (
                    flow::pv_power(&r),
                    chrono::DateTime::from_timestamp_millis(s.ts),
                ) {
                    let local = t.with_timezone(&tz);
                    profile.push((local.hour() * 60 + local.minute(), p));
                }
            }
        }
    }
    let income = income(
        &tariff,
        &DayGeneration {
            kwh: etoday,
            profile: &profile,
            month_before_kwh: (emonth - etoday).max(0.0),
        },
    );
    Ok(Summary {
        pac: pac.round(),
        etoday: readings::round2(etoday),
        emonth: readings::round2(emonth),
        eyear: readings::round2(eyear),
        etotal: readings::round2(etotal),
        income,
        efficiency: efficiency(pac, plant.total_power),
        update_at,
        stale,
        switched_off: live::switched_off(switches),
    })
}

/// The plants whose fresh inverters are all switched off ([`live::switched_off`]), given the
/// fresh stamps of their devices and their inverters' kept samples.
fn off_among(fresh: &[&PlantDeviceStamp], latest: &HashMap<DeviceId, Latest>) -> Vec<PlantId> {
    let mut switches: HashMap<PlantId, Vec<bool>> = HashMap::new();
    for s in fresh.iter().filter(|s| s.family == DeviceFamily::Inverter) {
        // An inverter whose sample is gone meanwhile counts as on: nothing says off.
        let on = latest.get(&s.device_id).is_none_or(|l| l.on);
        switches.entry(s.plant_id).or_default().push(on);
    }
    switches
        .into_iter()
        .filter(|(_, on)| live::switched_off(on.iter().copied()))
        .map(|(plant, _)| plant)
        .collect()
}

/// The plants of `plants` whose fresh inverters are all switched off, for the map (the list
/// has them in its [`ListSummary`]): one query of when devices last reported, and the samples
/// not kept yet.
pub(crate) async fn switched_off(
    app: &AppState,
    plants: &[PlantId],
) -> ApiResult<HashSet<PlantId>> {
    let stamps = app.store.plants_latest_stamps(plants).await?;
    let now = domain::time::now_ms();
    let fresh: Vec<_> = stamps
        .iter()
        .filter(|s| s.family == DeviceFamily::Inverter)
        .filter(|s| !live::is_stale(Some(s.ts), s.upload_cycle, now))
        .collect();
    let inverters: Vec<(DeviceId, i64)> = fresh.iter().map(|s| (s.device_id, s.ts)).collect();
    let latest = app.caches.latest_pv.power(app, &inverters).await?;
    Ok(off_among(&fresh, &latest).into_iter().collect())
}

/// What the plant list shows per plant.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ListSummary {
    pub pac: f64,
    pub etoday: f64,
    pub etotal: f64,
    pub efficiency: f64,
    pub update_at: i64,
    /// As [`Summary::stale`].
    pub stale: bool,
    /// As [`Summary::switched_off`].
    pub switched_off: bool,
}

/// The list figures of a page of plants: three queries whatever the page size.
pub(crate) async fn plants(
    app: &AppState,
    plants: &[PlantRow],
) -> ApiResult<HashMap<PlantId, ListSummary>> {
    let ids: Vec<_> = plants.iter().map(|p| p.id).collect();
    let todays: HashMap<_, String> = plants
        .iter()
        .map(|p| {
            let day = readings::today(readings::zone(&p.timezone));
            (p.id, day.format("%Y-%m-%d").to_string())
        })
        .collect();
    let Some(since) = todays.values().min().cloned() else {
        return Ok(HashMap::new());
    };
    let stamps = app.store.plants_latest_stamps(&ids).await?;
    let days = app.store.plants_energy_since(&ids, PV, &since).await?;
    let plant_todays: Vec<(PlantId, String)> =
        todays.iter().map(|(p, d)| (*p, d.clone())).collect();
    let closed = app
        .caches
        .energy_totals
        .closed_days(app, &plant_todays, PV)
        .await?;
    let now = domain::time::now_ms();
    let mut out: HashMap<_, ListSummary> = plants
        .iter()
        .map(|p| {
            (
                p.id,
                ListSummary {
                    update_at: p.updated_at,
                    stale: true,
                    ..Default::default()
                },
            )
        })
        .collect();
    let fresh: Vec<_> = stamps
        .iter()
        .filter(|s| !live::is_stale(Some(s.ts), s.upload_cycle, now))
        .collect();
    let inverters: Vec<(DeviceId, i64)> = fresh
        .iter()
        .filter(|s| s.family == DeviceFamily::Inverter)
        .map(|s| (s.device_id, s.ts))
        .collect();
    let latest = app.caches.latest_pv.power(app, &inverters).await?;
    let mut newest: HashMap<_, i64> = HashMap::new();
    for s in &stamps {
        let n = newest.entry(s.plant_id).or_insert(s.ts);
        *n = (*n).max(s.ts);
    }
    for s in &fresh {
        if let Some(e) = out.get_mut(&s.plant_id) {
            e.stale = false;
            if s.family == DeviceFamily::Inverter {
                e.pac += latest.get(&s.device_id).and_then(|l| l.pv).unwrap_or(0.0);
            }
        }
    }
    for plant in off_among(&fresh, &latest) {
        if let Some(e) = out.get_mut(&plant) {
            e.switched_off = true;
        }
    }
    // All-time energy: the closed days' sum, then today's (and any later day's) rows.
    for (plant, kwh) in &closed {
        if let Some(e) = out.get_mut(plant) {
            e.etotal = *kwh;
        }
    }
    for d in &days {
        let Some(today) = todays.get(&d.plant_id) else {
            continue;
        };
        if let Some(e) = out.get_mut(&d.plant_id) {
            if *today == d.day {
                e.etoday += d.kwh;
            }
            if d.day >= *today {
                e.etotal += d.kwh;
            }
        }
    }
    for p in plants {
        if let Some(e) = out.get_mut(&p.id) {
            e.pac = e.pac.round();
            e.etoday = readings::round2(e.etoday);
            e.etotal = readings::round2(e.etotal);
            e.efficiency = efficiency(e.pac, p.total_power);
            if let Some(ts) = newest.get(&p.id) {
                e.update_at = *ts;
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn efficiency_is_power_over_capacity() {
        assert_eq!(efficiency(38.0, 3.68), 0.0103);
        assert_eq!(efficiency(1000.0, 0.0), 0.0);
    }
}
