//! Version-neutral views of VTN objects.
//!
//! Each object is first read with the wire type of the VTN's version (so malformed content is
//! refused the same way the reference libraries refuse it), then serialised back and read into
//! the small shapes below: one code path for both versions from there on.

use crate::meta::{self, Lenient, Refused};
use crate::{Error, Version};
use chrono::{DateTime, Utc};
use openleadr_wire::Duration;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// An object as the VTN keeps it: id, modification stamp (kept as sent) and checked content.
#[derive(Debug, Clone)]
pub struct Doc {
    pub id: String,
    pub modified: Option<String>,
    pub content: Value,
}

impl Doc {
    pub fn read<T: DeserializeOwned>(&self, what: &str) -> Result<T, Error> {
        T::deserialize(&self.content).map_err(|e| Error::decode(what, e))
    }
}

/// The readable objects of a list answer and the ones refused (see [`meta::parse_each`]).
#[derive(Debug, Default)]
pub struct Docs {
    pub docs: Vec<Doc>,
    pub refused: Vec<Refused>,
}

fn docs<T: DeserializeOwned + Serialize>(body: &[u8], what: &str) -> Result<Docs, Error> {
    let (good, mut refused) = meta::parse_each::<T>(body, what)?;
    let mut docs = Vec::with_capacity(good.len());
    for l in good {
        let id = l.id.clone();
        match doc(l, what) {
            Ok(d) => docs.push(d),
            Err(e) => refused.push(Refused::new(id, e.to_string())),
        }
    }
    Ok(Docs { docs, refused })
}

fn doc<T: Serialize>(l: Lenient<T>, what: &str) -> Result<Doc, Error> {
    let content = serde_json::to_value(&l.content).map_err(|e| Error::decode(what, e))?;
    Ok(Doc {
        id: l.id,
        modified: l.modification_date_time,
        content,
    })
}

pub fn event_docs(v: Version, body: &[u8]) -> Result<Docs, Error> {
    match v {
        Version::V301 => docs::<oadr30_wire::event::EventContent>(body, "event"),
        Version::V310 => docs::<openleadr_wire::event::EventRequest>(body, "event"),
    }
}

pub fn program_docs(v: Version, body: &[u8]) -> Result<Docs, Error> {
    match v {
        Version::V301 => docs::<oadr30_wire::program::ProgramContent>(body, "program"),
        Version::V310 => docs::<openleadr_wire::program::ProgramRequest>(body, "program"),
    }
}

/// The ids of a list of vens, resources or reports with their names (`venName`,
/// `resourceName`, `reportName`): these are matched by name only, so their content is not
/// checked beyond that.
pub fn named_ids(body: &[u8], name_key: &str) -> Result<Vec<(String, String)>, Error> {
    let items: Vec<Value> = serde_json::from_slice(body).map_err(|e| Error::decode(name_key, e))?;
    Ok(items
        .iter()
        .filter_map(|i| {
            let id = i.get("id")?.as_str()?;
            let name = i.get(name_key).and_then(Value::as_str).unwrap_or_default();
            Some((id.to_owned(), name.to_owned()))
        })
        .collect())
}

/// The id of an object the VTN answered a create with.
pub fn created_id(body: &[u8]) -> Result<String, Error> {
    let v: Value = serde_json::from_slice(body).map_err(|e| Error::decode("created", e))?;
    v.get("id")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| Error::Decode("created object without id".into()))
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Program {
    pub program_name: String,
    #[serde(default)]
    pub program_long_name: Option<String>,
    #[serde(default)]
    pub retailer_name: Option<String>,
    #[serde(default)]
    pub program_descriptions: Option<Vec<ProgramDescription>>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ProgramDescription {
    #[serde(rename = "URL")]
    pub url: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    #[serde(rename = "programID")]
    pub program_id: String,
    #[serde(default)]
    pub event_name: Option<String>,
    #[serde(default)]
    pub priority: Option<i64>,
    /// 3.1 only: truncates (or, when longer, extends) the interval set.
    #[serde(default)]
    pub duration: Option<Duration>,
    #[serde(default)]
    pub interval_period: Option<Period>,
    #[serde(default)]
    pub intervals: Option<Vec<Interval>>,
    #[serde(default)]
    pub report_descriptors: Option<Vec<Descriptor>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Period {
    /// Optional in 3.1.0, but the wire types refuse a period without it, so such an event is
    /// refused (and reported) before it gets here.
    pub start: DateTime<Utc>,
    #[serde(default)]
    pub duration: Option<Duration>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Interval {
    pub id: i64,
    #[serde(default)]
    pub interval_period: Option<Period>,
    #[serde(default)]
    pub payloads: Vec<Payload>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Payload {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub values: Vec<Value>,
}

/// What the utility asks to be reported (an event's `reportDescriptors[]` entry), kept as JSON
/// in the portal's event row.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Descriptor {
    pub payload_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub units: Option<String>,
    #[serde(default)]
    pub aggregate: bool,
}
