//! `low_yield` over one batch of plants: each plant's last finished local day against the
//! median of the batch's plants of the same day.

use std::collections::{BTreeMap, HashMap};

use chrono::{Duration as Days, Utc};
use domain::{alarm_rules::low_yield, ids::PlantId};
use serde_json::json;
use service::alarm_engine::rules::Rule;
use store::{Store, alarm_engine::inputs::ScopePlant};

use super::evaluate::Finding;

/// The energy metric that counts as a plant's generation.
const PV: &str = "pv";

/// Yesterday (each plant's own) against the median of the batch's plants of the same day.
pub(super) async fn yields(
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
