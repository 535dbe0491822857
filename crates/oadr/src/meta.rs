//! VTN object metadata read leniently.
//!
//! The Alliance reference VTN 3.0.1 sends `createdDateTime` as a bare time ("02:32:42"), which
//! makes the wire crates' `Event`/`Program` fail; their content types (`EventContent`,
//! `EventRequest`, ...) parse fine. So the content is read with the wire type of the VTN's version
//! (flattened) and the metadata as plain optional strings.

use crate::Error;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::collections::HashSet;

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Lenient<T> {
    pub id: String,
    #[serde(default)]
    pub created_date_time: Option<String>,
    #[serde(default)]
    pub modification_date_time: Option<String>,
    #[serde(flatten)]
    pub content: T,
}

/// A list answer; the same id twice is kept once (the reference VTN 3.1 lists each untargeted
/// event twice to a VEN).
pub fn parse_list<T: DeserializeOwned>(body: &[u8], what: &str) -> Result<Vec<Lenient<T>>, Error> {
    let items: Vec<Lenient<T>> =
        serde_json::from_slice(body).map_err(|e| Error::decode(what, e))?;
    let mut seen = HashSet::new();
    Ok(items
        .into_iter()
        .filter(|i| seen.insert(i.id.clone()))
        .collect())
}

/// A list answer read one object at a time: an object the wire type refuses is kept aside with
/// the reason instead of failing the whole list (one odd event must not hide the others). Only
/// a body that is not a JSON array fails. Ids are kept once, as in [`parse_list`].
pub fn parse_each<T: DeserializeOwned>(
    body: &[u8],
    what: &str,
) -> Result<(Vec<Lenient<T>>, Vec<Refused>), Error> {
    let items: Vec<Box<serde_json::value::RawValue>> =
        serde_json::from_slice(body).map_err(|e| Error::decode(what, e))?;
    let mut seen = HashSet::new();
    let (mut good, mut bad) = (Vec::new(), Vec::new());
    for (n, raw) in items.iter().enumerate() {
        // The wire types borrow while reading, so each object is read from its own text.
        match serde_json::from_str::<Lenient<T>>(raw.get()) {
            Ok(item) => {
                if seen.insert(item.id.clone()) {
                    good.push(item);
                }
            }
            Err(e) => {
                let id = serde_json::from_str::<IdOnly>(raw.get())
                    .ok()
                    .and_then(|i| i.id)
                    .unwrap_or_else(|| format!("#{n}"));
                if seen.insert(id.clone()) {
                    bad.push(Refused::new(id, e.to_string()));
                }
            }
        }
    }
    Ok((good, bad))
}

#[derive(Deserialize)]
struct IdOnly {
    #[serde(default)]
    id: Option<String>,
}

/// An object of a list answer the portal could not read: its id (`#<position>` without one)
/// and why, cut to 200 characters.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Refused {
    pub id: String,
    pub reason: String,
}

impl Refused {
    pub fn new(id: impl Into<String>, reason: impl Into<String>) -> Self {
        let id: String = id.into();
        let reason: String = reason.into();
        Self {
            id: id.chars().take(128).collect(),
            reason: reason.chars().take(200).collect(),
        }
    }
}

/// One object answer.
pub fn parse_one<T: DeserializeOwned>(body: &[u8], what: &str) -> Result<Lenient<T>, Error> {
    serde_json::from_slice(body).map_err(|e| Error::decode(what, e))
}
