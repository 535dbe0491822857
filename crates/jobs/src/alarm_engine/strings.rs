//! `string_low` over the inverters of a batch: what each PV input reads now, which inputs are
//! strings (those with a panel voltage, and those without one that produced within the
//! look-back: dead strings; `domain::alarm_rules::string_low`), and a stretch of history only
//! when a string may be low in full daylight.
//!
//! When each input last produced is kept per inverter (`alarm_string_inputs`), read for the
//! whole batch at once and written at most hourly. An inverter first seen with an input giving
//! nothing while another produces has its history read once, day by day over the look-back,
//! so that a string that died before the engine watched it is still told from an unused
//! input.

use std::collections::HashMap;

use devices::ingest::status::{is_online, offline_after_ms};
use domain::{
    DeviceFamily,
    alarm_rules::{Verdict, median, string_low},
    ids::{DeviceId, PlantId},
    sun,
};
use serde_json::json;
use service::{
    alarm_engine::rules::Rule,
    readings::{PV_KEYS, Reading},
};
use store::{
    Store,
    alarm_engine::{
        inputs::{DeviceState, ScopePlant},
        string_inputs::StringInputs,
    },
};

use super::evaluate::{BUCKET, Finding, MIN, device_finding, reading};

const DAY: i64 = 24 * 60 * MIN;
/// The look-back reads at most one report per this (ms): a string produces for hours.
const LOOK_BACK_BUCKET: i64 = 15 * MIN;

/// (power W, voltage V) of one PV input of a report.
type Input = (Option<f64>, Option<f64>);

/// Each PV input of a report, pv1 first, up to the last one with a power.
fn inputs_of(r: &Reading) -> Vec<Input> {
    let mut inputs: Vec<Input> = PV_KEYS
        .iter()
        .enumerate()
        .map(|(k, key)| (r.num(key), r.num(&format!("pv{}_voltage", k + 1))))
        .collect();
    while inputs.last().is_some_and(|(p, _)| p.is_none()) {
        inputs.pop();
    }
    inputs
}

/// Each input's power as the rule compares it (`None`: no string), given when each last
/// produced.
fn judged(inputs: &[Input], produced: &[Option<i64>], now: i64) -> Vec<Option<f64>> {
    inputs
        .iter()
        .enumerate()
        .map(|(i, (p, v))| {
            string_low::judged_power(*p, *v, produced.get(i).copied().flatten(), now)
        })
        .collect()
}

/// The findings of the rule over the inverters among `devices` of the plants of the batch.
pub(super) async fn batch(
    store: &Store,
    plants: &[ScopePlant],
    devices: &[DeviceState],
    (percent, minutes): (f64, i64),
    rule: &Rule,
    now: i64,
) -> store::Result<Vec<Finding>> {
    let by_plant: HashMap<PlantId, &ScopePlant> = plants.iter().map(|p| (p.id, p)).collect();
    let inverters: Vec<(&DeviceState, &ScopePlant)> = devices
        .iter()
        .filter(|d| d.family == DeviceFamily::Inverter)
        .filter_map(|d| by_plant.get(&d.plant_id).map(|p| (d, *p)))
        .collect();
    let ids: Vec<DeviceId> = inverters.iter().map(|(d, _)| d.id).collect();
    let mut known: HashMap<DeviceId, Vec<Option<i64>>> = store
        .alarm_string_inputs(&ids)
        .await?
        .into_iter()
        .map(|r| (r.device_id, r.produced))
        .collect();
    let mut out = Vec::new();
    for (d, p) in inverters {
        let row = known.remove(&d.id);
        out.extend(inverter(store, p, d, row, (percent, minutes), rule, now).await?);
    }
    Ok(out)
}

async fn inverter(
    store: &Store,
    p: &ScopePlant,
    d: &DeviceState,
    row: Option<Vec<Option<i64>>>,
    (percent, minutes): (f64, i64),
    rule: &Rule,
    now: i64,
) -> store::Result<Vec<Finding>> {
    let had_row = row.is_some();
    let before = row.unwrap_or_default();
    let Some(newest) = reading(d).filter(|_| is_online(d.last_seen, d.upload_cycle, now)) else {
        // No fresh report (the inverter or its gateway is away, device_silent's business): the
        // strings it has stay as they are.
        return Ok(unknown(d, &before, now));
    };
    let inputs = inputs_of(&newest);
    let mut produced = string_low::remember(&before, &inputs, newest.ts);
    let idle = inputs
        .iter()
        .any(|(w, v)| w.is_some() && !string_low::produced(*w, *v));
    let producing = inputs.iter().any(|(w, v)| string_low::produced(*w, *v));
    let look_back = !had_row && idle && producing;
    if look_back {
        produced = looked_back(store, d.id, &inputs, produced, now).await?;
    }
    if look_back || string_low::worth_writing(&before, &produced) {
        let row = StringInputs {
            device_id: d.id,
            produced: produced.clone(),
        };
        store.put_alarm_string_inputs(&row, now).await?;
    }
    let powers = judged(&inputs, &produced, now);
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
                let elevation = sun::elevation_deg(p.lat, p.lon, s.ts);
                (elevation, judged(&inputs_of(&r), &produced, now))
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
            let voltage = inputs.get(i).and_then(|(_, v)| *v);
            let detail = json!({"input": i + 1, "powerW": powers[i], "voltageV": voltage,
                "dead": voltage.is_some_and(|v| v < string_low::STRING_VOLTAGE),
                "lastProduced": produced.get(i).copied().flatten(),
                "siblingsMedianW": median(&siblings), "percent": percent, "minutes": minutes});
            device_finding(d, format!("{}/pv{}", d.sn, i + 1), v, detail)
        })
        .collect())
}

/// "Cannot tell" for each input of `d` that produced within the look-back.
fn unknown(d: &DeviceState, produced: &[Option<i64>], now: i64) -> Vec<Finding> {
    produced
        .iter()
        .enumerate()
        .filter(|(_, t)| t.is_some_and(|t| now - t <= string_low::LOOKBACK_MS))
        .map(|(i, _)| {
            let detail = json!({"input": i + 1, "fresh": false});
            device_finding(d, format!("{}/pv{}", d.sn, i + 1), Verdict::Unknown, detail)
        })
        .collect()
}

/// `produced` with what the inverter's history of the look-back says, read a day at a time
/// from now backwards, until every input that reports a power has been seen producing.
async fn looked_back(
    store: &Store,
    device: DeviceId,
    inputs: &[Input],
    mut produced: Vec<Option<i64>>,
    now: i64,
) -> store::Result<Vec<Option<i64>>> {
    let wanted: Vec<usize> = (0..inputs.len())
        .filter(|i| inputs[*i].0.is_some())
        .collect();
    let mut to = now;
    while now - to < string_low::LOOKBACK_MS {
        if wanted
            .iter()
            .all(|i| produced.get(*i).copied().flatten().is_some())
        {
            break;
        }
        let from = to - DAY;
        for s in store
            .samples_thinned(device, from, to, LOOK_BACK_BUCKET)
            .await?
        {
            let r = Reading::from_sample(s.ts, &s.payload);
            produced = string_low::remember(&produced, &inputs_of(&r), s.ts);
        }
        to = from;
    }
    Ok(produced)
}
