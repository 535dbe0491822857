//! Each kind's verdicts over one batch of plants: the reads it needs (newest reports first;
//! a stretch of history only where the newest report cannot decide), then the pure rule of
//! `domain::alarm_rules`.

use std::collections::BTreeMap;

use devices::ingest::status::{is_online, offline_after_ms};
use domain::{
    DeviceFamily,
    alarm_rules::{
        Params, Verdict, cell_spread, device_silent, event_code, no_production, soh_falling,
    },
    ids::{DeviceId, PlantId},
    sun,
};
use serde_json::{Value, json};
use service::{
    alarm_engine::rules::Rule,
    readings::{Reading, pv_power},
};
use store::{
    Store,
    alarm_engine::inputs::{DeviceState, ScopePlant},
};

pub(super) const MIN: i64 = 60_000;
const DAY: i64 = 86_400_000;
/// History is read at most one report a minute.
pub(super) const BUCKET: i64 = MIN;

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

pub(super) fn device_finding(
    d: &DeviceState,
    subject: String,
    verdict: Verdict,
    detail: Value,
) -> Finding {
    Finding {
        plant: d.plant_id,
        subject,
        device: Some((d.id, d.sn.clone())),
        verdict,
        detail,
    }
}

pub(super) fn reading(d: &DeviceState) -> Option<Reading> {
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
            let devices = store.alarm_devices(&ids, true).await?;
            super::strings::batch(store, plants, &devices, (*percent, *minutes), rule, now).await?
        }
        Params::LowYield { percent } => {
            super::yields::yields(store, plants, *percent, rule, now).await?
        }
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
