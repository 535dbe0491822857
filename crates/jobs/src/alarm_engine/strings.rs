//! `string_low` over one inverter: the newest report first, a stretch of history only when a
//! string may be low in full daylight.

use devices::ingest::status::{is_online, offline_after_ms};
use domain::{alarm_rules::string_low, sun};
use serde_json::json;
use service::{
    alarm_engine::rules::Rule,
    readings::{PV_KEYS, Reading},
};
use store::{
    Store,
    alarm_engine::inputs::{DeviceState, ScopePlant},
};

use super::evaluate::{BUCKET, Finding, MIN, device_finding, reading};

/// A PV input with less than this voltage (V) has no string on it.
const STRING_VOLTAGE: f64 = 50.0;

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

pub(super) async fn strings(
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
