//! Reports for the VTN's events: for each started event that asks for `USAGE`, `DEMAND` or
//! `STORAGE_CHARGE_LEVEL`, one report per payload type with one resource per accepted plant
//! and one point per started interval, from the plants' telemetry (`grid_power` W, import
//! positive; `battery_soc` %). Sent (`POST`, then `PUT`) at every sync while the event runs and
//! once more after it ended; other payload types are not reported.

use domain::ids::VtnId;
use oadr::neutral::Descriptor;
use oadr::report::{self, Point, Resource, SUPPORTED};
use oadr::ven::VtnClient;
use serde::Deserialize;
use store::Store;
use store::energy_hub::vtn::VtnEventRow;

/// Events that ended more than this long ago are not reported any more.
const REPORT_HORIZON_S: i64 = 86_400;
/// Samples read per plant and interval at most.
const MAX_SAMPLES: i64 = 5_000;

#[derive(Debug, Default)]
pub struct Outcome {
    pub sent: usize,
    pub failed: usize,
    /// Reports the VTN found malformed (400): our bug, shown on the connection.
    pub problems: Vec<String>,
}

#[derive(Deserialize)]
struct Span {
    id: i64,
    start: i64,
    end: i64,
}

pub async fn send_due(
    store: &Store,
    client: &VtnClient,
    vtn_id: VtnId,
    ven_name: &str,
) -> Result<Outcome, super::sync::SyncError> {
    let now_s = chrono::Utc::now().timestamp();
    let mut out = Outcome::default();
    for ev in store
        .vtn_events_to_report(vtn_id, now_s, now_s - REPORT_HORIZON_S)
        .await?
    {
        let descriptors: Vec<Descriptor> =
            serde_json::from_str(&ev.report_descriptors).unwrap_or_default();
        for d in descriptors
            .iter()
            .filter(|d| SUPPORTED.contains(&d.payload_type.as_str()))
        {
            let prior = store.vtn_report(ev.id, &d.payload_type).await?;
            let done = prior
                .as_ref()
                .and_then(|p| p.sent_at)
                .is_some_and(|t| t / 1000 >= ev.end_at);
            if done || (ev.cancelled_at.is_some() && prior.is_some()) {
                continue;
            }
            let resources = resources(store, &ev, &d.payload_type, now_s).await?;
            if resources.is_empty() {
                continue;
            }
            let body = report::build(report::Input {
                version: client.version(),
                event_id: &ev.remote_id,
                program_id: &ev.program_remote_id,
                client_name: ven_name,
                descriptor: d,
                resources,
            });
            let remote = prior.as_ref().and_then(|p| p.remote_id.clone());
            let now_ms = domain::time::now_ms();
            match client.send_report(remote.as_deref(), &body).await {
                Ok(id) => {
                    store
                        .record_vtn_report(ev.id, &d.payload_type, Ok(&id), now_ms)
                        .await?;
                    out.sent += 1;
                }
                Err(e) => {
                    let msg: String = e.to_string().chars().take(200).collect();
                    if e.is_our_bad_request() {
                        tracing::error!(event = %ev.id, payload = %d.payload_type, "the VTN found our report malformed: {msg}");
                        out.problems.push(
                            format!("report {}-{}: {msg}", ev.remote_id, d.payload_type)
                                .chars()
                                .take(200)
                                .collect(),
                        );
                    } else {
                        tracing::warn!(event = %ev.id, payload = %d.payload_type, "report refused: {msg}");
                    }
                    store
                        .record_vtn_report(ev.id, &d.payload_type, Err(&msg), now_ms)
                        .await?;
                    out.failed += 1;
                }
            }
        }
    }
    Ok(out)
}

async fn resources(
    store: &Store,
    ev: &VtnEventRow,
    payload: &str,
    now_s: i64,
) -> Result<Vec<Resource>, store::StoreError> {
    let spans: Vec<Span> = serde_json::from_str(&ev.intervals).unwrap_or_default();
    let mut out = Vec::new();
    for (enrollment, _plant, name) in store.reporting_enrollments(ev.program_id).await? {
        let mut points = Vec::new();
        for s in spans.iter().filter(|s| s.start < now_s) {
            let to = s.end.min(now_s);
            // Samples are stamped in milliseconds, event times in seconds.
            let (from_ms, to_ms) = (s.start * 1000, to.max(s.start + 1) * 1000);
            let samples = store
                .enrollment_samples(enrollment, from_ms, to_ms, MAX_SAMPLES)
                .await?;
            let payloads: Vec<serde_json::Value> = samples
                .iter()
                .filter_map(|r| serde_json::from_str(&r.payload).ok())
                .collect();
            if let Some(value) = value_of(payload, &payloads, (to - s.start).max(0)) {
                points.push(Point {
                    interval_id: s.id,
                    start: s.start,
                    end: to,
                    value,
                });
            }
        }
        if !points.is_empty() {
            out.push(Resource { name, points });
        }
    }
    Ok(out)
}

fn mean(payloads: &[serde_json::Value], key: &str) -> Option<f64> {
    let v: Vec<f64> = payloads
        .iter()
        .filter_map(|p| p.get(key)?.as_f64())
        .collect();
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

/// USAGE kWh (mean grid import × hours), DEMAND kW (mean grid import), STORAGE_CHARGE_LEVEL
/// 0..1 (mean state of charge).
pub fn value_of(payload: &str, samples: &[serde_json::Value], seconds: i64) -> Option<f64> {
    match payload {
        "DEMAND" => mean(samples, "grid_power").map(|w| w / 1000.0),
        "USAGE" => mean(samples, "grid_power").map(|w| w / 1000.0 * seconds as f64 / 3600.0),
        "STORAGE_CHARGE_LEVEL" => {
            mean(samples, "battery_soc").map(oadr::normal::charge_level_fraction)
        }
        _ => None,
    }
}
