//! Reports the portal sends for an event's report descriptors (`POST` once, then `PUT`).
//!
//! One report per (event, payload type), named `<eventID>-<payloadType>`; one resource entry per
//! enrolled plant (or one `AGGREGATED_REPORT` when the descriptor asks `aggregate`); interval ids
//! echo the event's. 3.0.1 reports carry `programID`, 3.1.0 reports must not.

use crate::Version;
use crate::neutral::Descriptor;
use chrono::DateTime;
use serde_json::{Value, json};

/// The report payload types the portal can fill from plant telemetry.
pub const SUPPORTED: [&str; 3] = ["USAGE", "DEMAND", "STORAGE_CHARGE_LEVEL"];

#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    pub interval_id: i64,
    pub start: i64,
    pub end: i64,
    /// USAGE kWh, DEMAND kW (mean), STORAGE_CHARGE_LEVEL fraction 0..1.
    pub value: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Resource {
    pub name: String,
    pub points: Vec<Point>,
}

pub struct Input<'a> {
    pub version: Version,
    pub event_id: &'a str,
    pub program_id: &'a str,
    pub client_name: &'a str,
    pub descriptor: &'a Descriptor,
    pub resources: Vec<Resource>,
}

/// The payload types asked for that the portal cannot produce, each once, in the order asked.
pub fn unsupported(descriptors: &[Descriptor]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for d in descriptors {
        if !SUPPORTED.contains(&d.payload_type.as_str()) && !out.contains(&d.payload_type) {
            out.push(d.payload_type.clone());
        }
    }
    out
}

pub fn report_name(event_id: &str, payload_type: &str) -> String {
    format!("{event_id}-{payload_type}")
}

fn defaults(payload_type: &str) -> (&'static str, &'static str) {
    match payload_type {
        "DEMAND" => ("MEAN", "KW"),
        "STORAGE_CHARGE_LEVEL" => ("DIRECT_READ", "PERCENT"),
        _ => ("DIRECT_READ", "KWH"),
    }
}

pub fn build(input: Input<'_>) -> Value {
    let d = input.descriptor;
    let (reading, units) = defaults(&d.payload_type);
    let resources = if d.aggregate {
        vec![aggregate(&d.payload_type, &input.resources)]
    } else {
        input.resources
    };
    let mut report = json!({
        "objectType": "REPORT",
        "eventID": input.event_id,
        "clientName": input.client_name,
        "reportName": report_name(input.event_id, &d.payload_type),
        // objectType is required by 3.1.0 (optional in 3.0.1, where the value is the same).
        "payloadDescriptors": [{
            "objectType": "REPORT_PAYLOAD_DESCRIPTOR",
            "payloadType": d.payload_type,
            "readingType": d.reading_type.as_deref().unwrap_or(reading),
            "units": d.units.as_deref().unwrap_or(units),
        }],
        "resources": resources.iter().map(|r| resource(&d.payload_type, r)).collect::<Vec<_>>(),
    });
    if input.version == Version::V301 {
        report["programID"] = json!(input.program_id);
    }
    report
}

fn resource(payload_type: &str, r: &Resource) -> Value {
    let intervals: Vec<Value> = r
        .points
        .iter()
        .map(|p| {
            json!({
                "id": p.interval_id,
                "intervalPeriod": {"start": rfc3339(p.start), "duration": format!("PT{}S", (p.end - p.start).max(0))},
                "payloads": [{"type": payload_type, "values": [round3(p.value)]}],
            })
        })
        .collect();
    json!({"resourceName": r.name, "intervals": intervals})
}

/// One `AGGREGATED_REPORT` resource: energies and powers add up, charge levels average.
pub fn aggregate(payload_type: &str, resources: &[Resource]) -> Resource {
    let mut points: Vec<Point> = Vec::new();
    let mut counts: Vec<usize> = Vec::new();
    for p in resources.iter().flat_map(|r| &r.points) {
        match points.iter().position(|q| q.interval_id == p.interval_id) {
            Some(i) => {
                points[i].value += p.value;
                counts[i] += 1;
            }
            None => {
                points.push(p.clone());
                counts.push(1);
            }
        }
    }
    if payload_type == "STORAGE_CHARGE_LEVEL" {
        for (p, n) in points.iter_mut().zip(&counts) {
            p.value /= *n as f64;
        }
    }
    Resource {
        name: "AGGREGATED_REPORT".into(),
        points,
    }
}

fn rfc3339(t: i64) -> String {
    DateTime::from_timestamp(t, 0)
        .unwrap_or_default()
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}
