//! An OpenADR event (either version) as the portal's event: one time window, what the plants do
//! in it (discharge or an export limit, in kW), its intervals and the reports asked for.
//!
//! Rules (OpenADR 3 User Guide; docs/energy-hub.md):
//! - an interval without its own `intervalPeriod` starts where the previous one ended (the
//!   first at the event's `intervalPeriod.start`); its duration is its own, else the event's,
//!   else `PT0S`;
//! - a start of `0001-01-01` means "now" ([`NormalEvent::starts_now`]);
//! - `P9999Y` is open-ended: the end is clamped to 9999-12-31T23:59:59Z;
//! - 3.1's `event.duration` sets the end (truncates, or extends the last interval);
//! - an event that lasts no time (the `0001-01-01` + `PT0S` rewrite) is cancelled;
//! - a negative duration (the schema's pattern allows `-PT1H`) makes the event unreadable: it is
//!   refused with the reason, the other events still apply;
//! - payloads: `EXPORT_CAPACITY_LIMIT` → export limit of the value in kW; `DISPATCH_SETPOINT`
//!   is "the absolute amount of consumption by a resource" (3.1.0), and our resource is the
//!   plant's battery (its `MAX_POWER_CONSUMPTION` is the charge power): a value v > 0 → charge
//!   at v kW, 0 → hold (no grid charge, no discharge), v < 0 (consumption below zero, which
//!   3.0.1 VTNs send) → discharge of |v| kW; `CONTROL_SETPOINT` → discharge of |value| kW;
//!   `SIMPLE` level 1..3 → discharge of level/3 × [`Options::simple_full_kw`] (level 0: normal
//!   operation). Other types are not acted on; an event with none of these is
//!   [`Normalised::Ignored`].

use crate::Error;
use crate::neutral::{Descriptor, Doc, Event, Interval, Payload, Period};
use chrono::{DateTime, Datelike, TimeDelta, Utc};
use serde::Serialize;

/// 9999-12-31T23:59:59Z: the latest time the portal writes (open-ended events end there).
pub const MAX_TS: i64 = 253_402_300_799;
/// Priority of an event that gives none (OpenADR: unspecified is the lowest priority).
pub const UNSPECIFIED_PRIORITY: i64 = 100;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Discharge,
    ExportLimit,
    /// Charge at `target_kw` (0: hold the charge).
    Charge,
}

impl Kind {
    /// The value of `dr_events.kind`.
    pub fn as_db(self) -> &'static str {
        match self {
            Self::Discharge => "discharge",
            Self::ExportLimit => "export_limit",
            Self::Charge => "charge",
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// The discharge (kW) a `SIMPLE` level 3 asks of a plant.
    pub simple_full_kw: f64,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            simple_full_kw: 10.0,
        }
    }
}

/// One interval: unix seconds, what to do and how much.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NormalInterval {
    pub id: i64,
    pub start: i64,
    pub end: i64,
    pub kind: Kind,
    pub target_kw: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct NormalEvent {
    pub remote_id: String,
    pub remote_modified: Option<String>,
    pub program_remote_id: String,
    pub name: String,
    pub priority: i64,
    pub start: i64,
    pub end: i64,
    /// The VTN said "start now" (`0001-01-01`): keep the start first seen.
    pub starts_now: bool,
    pub cancelled: bool,
    /// The first acted-on interval's kind and target stand for the event.
    pub kind: Kind,
    pub target_kw: f64,
    pub intervals: Vec<NormalInterval>,
    pub report_descriptors: Vec<Descriptor>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Normalised {
    Event(Box<NormalEvent>),
    /// Nothing the portal acts on (prices, alerts...): the remote id, for the record.
    Ignored(String),
}

pub fn normalise(doc: &Doc, now: DateTime<Utc>, opts: Options) -> Result<Normalised, Error> {
    let ev: Event = doc.read("event")?;
    let mut starts_now = false;
    let mut cursor: Option<DateTime<Utc>> = None;
    let mut spans = Vec::new();
    for iv in ev.intervals.as_deref().unwrap_or_default() {
        let own = iv.interval_period.as_ref();
        let start = match (own, cursor, ev.interval_period.as_ref()) {
            (Some(p), _, _) => p.start,
            (None, Some(c), _) => c,
            (None, None, Some(p)) => p.start,
            (None, None, None) => return Err(Error::Decode("interval without a start".into())),
        };
        let start = if start.year() <= 1 {
            starts_now = true;
            now
        } else {
            start
        };
        let period = own.or(ev.interval_period.as_ref());
        let end = add(start, period);
        if end < start {
            return Err(Error::Decode(format!(
                "interval {} has a negative duration",
                iv.id
            )));
        }
        cursor = Some(end);
        spans.push((iv, start, end));
    }
    let Some(first) = spans.iter().map(|s| s.1).min() else {
        return Ok(Normalised::Ignored(doc.id.clone()));
    };
    let mut last = spans.iter().map(|s| s.2).max().unwrap_or(first);
    if let Some(d) = &ev.duration {
        let d = d.to_chrono_at_datetime(first);
        if d < TimeDelta::zero() {
            return Err(Error::Decode("the event has a negative duration".into()));
        }
        last = first.checked_add_signed(d).unwrap_or(last);
    }
    let (start, end) = (first.timestamp(), last.timestamp().min(MAX_TS));
    let intervals: Vec<NormalInterval> = spans
        .iter()
        .filter_map(|(iv, s, e)| interval(iv, s.timestamp(), e.timestamp().min(end), opts))
        .collect();
    let Some(lead) = intervals.first().cloned() else {
        return Ok(Normalised::Ignored(doc.id.clone()));
    };
    Ok(Normalised::Event(Box::new(NormalEvent {
        remote_id: doc.id.clone(),
        remote_modified: doc.modified.clone(),
        program_remote_id: ev.program_id.clone(),
        name: ev
            .event_name
            .clone()
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| doc.id.clone()),
        priority: ev.priority.unwrap_or(UNSPECIFIED_PRIORITY),
        start,
        end: end.max(start),
        starts_now,
        cancelled: end <= start,
        kind: lead.kind,
        target_kw: lead.target_kw,
        intervals,
        report_descriptors: ev.report_descriptors.clone().unwrap_or_default(),
    })))
}

fn add(start: DateTime<Utc>, period: Option<&Period>) -> DateTime<Utc> {
    let d = period
        .and_then(|p| p.duration.as_ref())
        .map(|d| d.to_chrono_at_datetime(start))
        .unwrap_or(TimeDelta::zero());
    start
        .checked_add_signed(d)
        .unwrap_or(DateTime::<Utc>::MAX_UTC)
}

fn interval(iv: &Interval, start: i64, end: i64, opts: Options) -> Option<NormalInterval> {
    let (kind, target_kw) = iv.payloads.iter().find_map(|p| action(p, opts))?;
    Some(NormalInterval {
        id: iv.id,
        start,
        end: end.max(start),
        kind,
        target_kw,
    })
}

/// What a payload asks of a battery plant (multi-valued payloads: the first value).
fn action(p: &Payload, opts: Options) -> Option<(Kind, f64)> {
    let v = p.values.iter().find_map(serde_json::Value::as_f64)?;
    if !v.is_finite() {
        return None;
    }
    match p.kind.as_str() {
        "EXPORT_CAPACITY_LIMIT" => Some((Kind::ExportLimit, v.max(0.0))),
        "DISPATCH_SETPOINT" if v >= 0.0 => Some((Kind::Charge, v)),
        "DISPATCH_SETPOINT" => Some((Kind::Discharge, -v)),
        "CONTROL_SETPOINT" => Some((Kind::Discharge, v.abs())),
        "SIMPLE" if (1.0..=3.0).contains(&v) => {
            Some((Kind::Discharge, v.round() / 3.0 * opts.simple_full_kw))
        }
        _ => None,
    }
}

/// A `STORAGE_CHARGE_LEVEL` value as a fraction 0..1: the spec says PERCENT is -1..1, the User
/// Guide's example sends 33; values above 1 are read as 0..100.
pub fn charge_level_fraction(v: f64) -> f64 {
    let f = if v > 1.0 { v / 100.0 } else { v };
    f.clamp(0.0, 1.0)
}
