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

/// One object answer.
pub fn parse_one<T: DeserializeOwned>(body: &[u8], what: &str) -> Result<Lenient<T>, Error> {
    serde_json::from_slice(body).map_err(|e| Error::decode(what, e))
}
