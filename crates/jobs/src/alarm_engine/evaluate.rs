//! Each kind's verdicts over one batch of plants: the reads it needs (newest reports first;
//! a stretch of history only where the newest report cannot decide), then the pure rule of
//! `domain::alarm_rules`.

use std::collections::{BTreeMap, HashMap};

use chrono::{Duration as Days, Utc};
use devices::ingest::status::{is_online, offline_after_ms};
use domain::{
    DeviceFamily,
    alarm_rules::{
        Params, Verdict, cell_spread, device_silent, event_code, low_yield, no_production,
        soh_falling, string_low,
    },
    ids::{DeviceId, PlantId},
    sun,
};
use serde_json::{Value, json};
use service::{
    alarm_engine::rules::Rule,
    readings::{PV_KEYS, Reading, pv_power},
};
use store::{
    Store,
    alarm_engine::inputs::{DeviceState, ScopePlant},
};

const MIN: i64 = 60_000;
const DAY: i64 = 86_400_000;
/// History is read at most one report a minute.
const BUCKET: i64 = MIN;
/// A PV input with less than this voltage (V) has no string on it.
const STRING_VOLTAGE: f64 = 50.0;
/// The energy metric that counts as a plant's generation.
const PV: &str = "pv";

/// One subject's verdict.
#[derive(Debug, Clone)]
pub struct Finding {
    pub plant: PlantId,
    /// `''` the plant, a device SN, `SN/pv2` a string, `SN/F13` an event code.
    pub subject: String,
    pub device: Option<(DeviceId, String)>,
    pub verdict: Verdict,
    /// What the verdict was computed from.
    pub detail: Value,
}

fn device_finding(d: &DeviceState, subject: String, verdict: Verdict, detail: Value) -> Finding {
    Finding {
        plant: d.plant_id,
        subject,
        device: Some((d.id, d.sn.clone())),
        verdict,
        detail,
    }
}

fn reading(d: &DeviceState) -> Option<Reading> {
    Some(Reading::from_sample(d.last_seen?, d.payload.as_deref()?))
}

pub async fn batch(
    store: &Store,
    rule: &Rule,
    plants: &[ScopePlant],
    now: i64,
) -> store::Result<Vec<Finding>> {
    let ids: Vec<PlantId> = plants.iter().map(|p| p.id).collect();
    let sev = rule.severity;
    Ok(match &rule.params {
        Params::DeviceSilent {
            warning_cycles,
            alarm_cycles,
        } => store
            .alarm_devices(&ids, false)
            .await?
            .iter()
            .filter(|d| d.family != DeviceFamily::WeatherStation)
            .map(|d| {
                let gateway_online = d.gateway_online.unwrap_or(false)
                    && is_online(d.gateway_last_online, d.upload_cycle, now);
                let input = device_silent::Input {
                    last_seen: d.last_seen,
                    gateway_online,
                    upload_cycle_s: d.upload_cycle,
                    now,
                };
                let v = device_silent::evaluate(&input, *warning_cycles, *alarm_cycles);
                let detail = json!({"lastSeen": d.last_seen, "uploadCycle": d.upload_cycle,
                    "gatewayOnline": gateway_online, "family": d.family.as_str()});
                device_finding(d, d.sn.clone(), v, detail)
            })
            .collect(),
        Params::CellSpread { spread_mv } => store
            .alarm_devices(&ids, true)
            .await?
            .iter()
            .filter(|d| d.family == DeviceFamily::Battery)
            .map(|d| {
                let r = reading(d).unwrap_or_default();
                let (max_v, min_v) = cell_extremes(&r);
                let input = cell_spread::Input {
                    max_v,
                    min_v,
                    fresh: is_online(d.last_seen, d.upload_cycle, now),
                };
                let v = cell_spread::evaluate(&input, *spread_mv, sev);
                let detail = json!({"maxV": max_v, "minV": min_v, "thresholdMv": spread_mv});
                device_finding(d, d.sn.clone(), v, detail)
            })
            .collect(),
        Params::SohFalling {
            drop_points,
            days,
            floor,
        } => {
            let mut out = Vec::new();
            for d in store.alarm_devices(&ids, true).await? {
                if d.family != DeviceFamily::Battery {
                    continue;
                }
                let soh_now = reading(&d).and_then(|r| r.num("soh"));
                let then_at = now - days * DAY;
                let soh_then = match soh_now {
                    Some(_) => store
                        .samples_thinned(d.id, then_at - DAY, then_at, DAY)
                        .await?
                        .last()
                        .and_then(|s| Reading::from_sample(s.ts, &s.payload).num("soh")),
                    None => None,
                };
                let input = soh_falling::Input {
                    now: soh_now,
                    then: soh_then,
                };
                let v = soh_falling::evaluate(&input, *drop_points, *floor, sev);
                let detail = json!({"soh": soh_now, "sohBefore": soh_then, "days": days,
                    "floor": floor});
                out.push(device_finding(&d, d.sn.clone(), v, detail));
            }
            out
        }
        Params::EventCode { codes, all_faults } => store
            .alarm_open_events(&ids)
            .await?
            .into_iter()
            .filter(|e| event_code::matches(&e.code, &e.severity, codes, *all_faults))
            .map(|e| Finding {
                plant: e.plant_id,
                subject: format!("{}/{}", e.sn, e.code),
                device: Some((e.device_id, e.sn.clone())),
                verdict: Verdict::Firing {
                    severity: sev,
                    value: 0.0,
                },
                detail: json!({"code": e.code, "eventSeverity": e.severity,
                    "openedAt": e.opened_at, "eventId": e.id.0}),
            })
            .collect(),
        Params::NoProduction {
            threshold_w,
            minutes,
            min_elevation_deg,
        } => {
            let devices = store.alarm_devices(&ids, true).await?;
            let mut out = Vec::new();
            for p in plants {
                let inverters: Vec<&DeviceState> = devices
                    .iter()
                    .filter(|d| d.plant_id == p.id && d.family == DeviceFamily::Inverter)
                    .collect();
                if inverters.is_empty() {
                    continue;
                }
                // The station's newest fresh irradiance, when the plant has one.
                let irradiance = devices
                    .iter()
                    .filter(|d| d.plant_id == p.id && d.family == DeviceFamily::WeatherStation)
                    .filter(|d| is_online(d.last_seen, d.upload_cycle, now))
                    .filter_map(|d| reading(d).and_then(|r| r.num("irradiance")))
                    .reduce(f64::max);
                let v = plant_production(
                    store,
                    p,
                    (&inverters, irradiance),
                    (*threshold_w, *minutes, *min_elevation_deg),
                    rule,
                    now,
                )
                .await?;
                out.push(v);
            }
            out
        }
        Params::StringLow { percent, minutes } => {
            let mut out = Vec::new();
            let by_plant: HashMap<PlantId, &ScopePlant> =
                plants.iter().map(|p| (p.id, p)).collect();
            for d in store.alarm_devices(&ids, true).await? {
                if d.family != DeviceFamily::Inverter {
                    continue;
                }
                let Some(p) = by_plant.get(&d.plant_id) else {
                    continue;
                };
                out.extend(strings(store, p, &d, *percent, *minutes, rule, now).await?);
            }
            out
        }
        Params::LowYield { percent } => yields(store, plants, *percent, rule, now).await?,
    })
}

/// The highest and lowest cell voltage of a battery report: the stack's summary, else the
/// extremes over its packs' (`packN_cell_voltage_max`).
fn cell_extremes(r: &Reading) -> (Option<f64>, Option<f64>) {
    let summary = (r.num("cell_voltage_max"), r.num("cell_voltage_min"));
    if summary.0.is_some() && summary.1.is_some() {
        return summary;
    }
    let packs = |suffix: &str| -> Vec<f64> {
        (1..=16)
            .filter_map(|n| r.num(&format!("pack{n}_cell_voltage_{suffix}")))
            .collect()
    };
    let max = packs("max").into_iter().reduce(f64::max);
    let min = packs("min").into_iter().reduce(f64::min);
    (max, min)
}

/// `(threshold_w, minutes, min_elevation_deg)` of a no_production rule.
type Production = (f64, i64, f64);

async fn plant_production(
    store: &Store,
    p: &ScopePlant,
    (inverters, irradiance): (&[&DeviceState], Option<f64>),
    (threshold_w, minutes, min_elevation_deg): Production,
    rule: &Rule,
    now: i64,
) -> store::Result<Finding> {
    let stale = inverters
        .iter()
        .map(|d| offline_after_ms(d.upload_cycle))
        .max()
        .unwrap_or(MIN);
    let from = now - minutes * MIN;
    let elevation = sun::elevation_deg(p.lat, p.lon, now);
    let newest: f64 = inverters
        .iter()
        .filter(|d| is_online(d.last_seen, d.upload_cycle, now))
        .filter_map(|d| reading(d).and_then(|r| pv_power(&r)))
        .sum();
    let detail = json!({"pvW": newest, "thresholdW": threshold_w, "minutes": minutes,
        "sunElevation": (elevation * 10.0).round() / 10.0, "irradiance": irradiance});
    let finding = |verdict| Finding {
        plant: p.id,
        subject: String::new(),
        device: None,
        verdict,
        detail: detail.clone(),
    };
    // The newest reports decide most ticks without reading any history.
    if newest >= threshold_w {
        return Ok(finding(Verdict::Clear));
    }
    let bright = irradiance.is_some_and(|w| w >= no_production::IRRADIANCE_W_M2);
    let floor = if bright {
        min_elevation_deg.min(sun::DAYLIGHT_ELEVATION_DEG)
    } else {
        min_elevation_deg
    };
    if elevation < floor || sun::elevation_deg(p.lat, p.lon, from) < floor {
        return Ok(finding(Verdict::Unknown));
    }
    // The plant's PV per minute, summed over its inverters.
    let mut per_minute: BTreeMap<i64, f64> = BTreeMap::new();
    for d in inverters {
        for s in store
            .samples_thinned(d.id, from - stale, now + 1, BUCKET)
            .await?
        {
            let w = pv_power(&Reading::from_sample(s.ts, &s.payload)).unwrap_or(0.0);
            *per_minute.entry(s.ts / BUCKET * BUCKET).or_insert(0.0) += w;
        }
    }
    let samples: Vec<(i64, f64)> = per_minute.into_iter().collect();
    let input = no_production::Input {
        lat: p.lat,
        lon: p.lon,
        from,
        now,
        samples: &samples,
        stale_after_ms: stale,
        irradiance,
    };
    Ok(finding(no_production::evaluate(
        &input,
        threshold_w,
        min_elevation_deg,
        rule.severity,
    )))
}

/// Each PV input's power of a report, `None` for an input without a string.
fn string_powers(r: &Reading) -> Vec<Option<f64>> {
    PV_KEYS
        .iter()
        .enumerate()
        .map(|(k, key)| {
            let power = r.num(key)?;
            let volts = r.num(&format!("pv{}_voltage", k + 1));
            volts.is_none_or(|v| v >= STRING_VOLTAGE).then_some(power)
        })
        .collect()
}

async fn strings(
    store: &Store,
    p: &ScopePlant,
    d: &DeviceState,
    percent: f64,
    minutes: i64,
    rule: &Rule,
    now: i64,
) -> store::Result<Vec<Finding>> {
    let Some(newest) = reading(d).filter(|_| is_online(d.last_seen, d.upload_cycle, now)) else {
        return Ok(Vec::new());
    };
    let powers = string_powers(&newest);
    let present: Vec<usize> = (0..powers.len()).filter(|i| powers[*i].is_some()).collect();
    if present.len() < 2 {
        return Ok(Vec::new());
    }
    let from = now - minutes * MIN;
    let stale = offline_after_ms(d.upload_cycle);
    let maybe_low = present
        .iter()
        .any(|i| string_low::low_in(&powers, *i, percent) != Some(false));
    let sun_high = |t| sun::elevation_deg(p.lat, p.lon, t) >= string_low::MIN_ELEVATION_DEG;
    // History only when the newest report cannot clear every string in full daylight.
    let (reports, covered) = if maybe_low && sun_high(from) && sun_high(now) {
        let rows = store.samples_thinned(d.id, from, now + 1, BUCKET).await?;
        let covered = rows.len() > 1 && rows.first().is_some_and(|s| s.ts <= from + stale);
        let reports: Vec<(f64, Vec<Option<f64>>)> = rows
            .iter()
            .map(|s| {
                let r = Reading::from_sample(s.ts, &s.payload);
                (sun::elevation_deg(p.lat, p.lon, s.ts), string_powers(&r))
            })
            .collect();
        (reports, covered)
    } else {
        let elevation = sun::elevation_deg(p.lat, p.lon, now);
        (vec![(elevation, powers.clone())], false)
    };
    Ok(present
        .into_iter()
        .map(|i| {
            let v = string_low::evaluate(&reports, i, percent, covered, rule.severity);
            let siblings: Vec<f64> = powers
                .iter()
                .enumerate()
                .filter(|(k, _)| *k != i)
                .filter_map(|(_, p)| *p)
                .collect();
            let detail = json!({"input": i + 1, "powerW": powers[i],
                "siblingsMedianW": domain::alarm_rules::median(&siblings), "percent": percent,
                "minutes": minutes});
            device_finding(d, format!("{}/pv{}", d.sn, i + 1), v, detail)
        })
        .collect())
}

/// Yesterday (each plant's own) against the median of the batch's plants of the same day.
async fn yields(
    store: &Store,
    plants: &[ScopePlant],
    percent: f64,
    rule: &Rule,
    now: i64,
) -> store::Result<Vec<Finding>> {
    let at = chrono::DateTime::from_timestamp_millis(now).unwrap_or_else(Utc::now);
    let mut by_day: BTreeMap<(String, String), Vec<&ScopePlant>> = BTreeMap::new();
    for p in plants.iter().filter(|p| p.total_power > 0.0) {
        let today = at
            .with_timezone(&service::local_time::zone(&p.timezone))
            .date_naive();
        let yesterday = today - Days::days(1);
        by_day
            .entry((yesterday.to_string(), today.to_string()))
            .or_default()
            .push(p);
    }
    let mut out = Vec::new();
    for ((yesterday, today), group) in by_day {
        let ids: Vec<PlantId> = group.iter().map(|p| p.id).collect();
        let energy: HashMap<PlantId, f64> = store
            .plants_energy_between(&ids, PV, &yesterday, &today)
            .await?
            .into_iter()
            .map(|e| (e.plant_id, e.kwh))
            .collect();
        let yields: HashMap<PlantId, f64> = group
            .iter()
            .filter_map(|p| energy.get(&p.id).map(|kwh| (p.id, kwh / p.total_power)))
            .collect();
        for p in &group {
            let own = yields.get(&p.id).copied();
            let peers: Vec<f64> = yields
                .iter()
                .filter(|(id, _)| **id != p.id)
                .map(|(_, y)| *y)
                .collect();
            let v = low_yield::evaluate(own, &peers, percent, rule.severity);
            let detail = json!({"day": yesterday, "specificYield": own,
                "peersMedian": domain::alarm_rules::median(&peers), "peers": peers.len(),
                "basis": "peers", "percent": percent});
            out.push(Finding {
                plant: p.id,
                subject: String::new(),
                device: None,
                verdict: v,
                detail,
            });
        }
    }
    Ok(out)
}
