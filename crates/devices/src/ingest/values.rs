//! A reading's values, read once as the gateway sent them: the JSON object text is checked
//! in one pass (no map, no key strings) and stored unchanged, and only the few numbers ingest
//! reads itself (energy counters, status words) are kept. Building a map of ~100 values and
//! writing it back out as text was the largest CPU cost of ingest.

use std::{collections::HashSet, fmt, sync::OnceLock};

use serde::{
    Deserialize, Deserializer,
    de::{self, MapAccess, Visitor},
};

use crate::{events, ingest::metrics, protocol::DeviceFamily};

pub const MAX_VALUES: usize = 2000;
pub const MAX_KEY_LEN: usize = 64;
pub const MAX_TEXT_LEN: usize = 256;

/// The numbers of a reading that ingest acts on, by key (booleans read as 0 and 1).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Watched(Vec<(String, f64)>);

impl Watched {
    pub fn get(&self, key: &str) -> Option<f64> {
        // The last one wins, as when a JSON object repeats a key.
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| *v)
    }

    pub fn contains(&self, key: &str) -> bool {
        self.0.iter().any(|(k, _)| k == key)
    }
}

/// What one pass over a values object found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scan {
    /// Values in the object (data points).
    pub points: usize,
    pub watched: Watched,
}

/// Checks a values object (at most [`MAX_VALUES`] entries; keys of 1 to [`MAX_KEY_LEN`]
/// bytes without control characters; each value a finite number, a boolean or a text of at
/// most [`MAX_TEXT_LEN`] bytes) and keeps the numbers `family` is watched for.
pub fn scan(text: &str, family: DeviceFamily) -> Result<Scan, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    let scan = de
        .deserialize_map(ScanVisitor {
            watch: watched_keys(family),
        })
        .map_err(|e| format!("values: {e}"))?;
    de.end().map_err(|e| format!("values: {e}"))?;
    Ok(scan)
}

/// The keys ingest reads for a family: energy counters and status words.
fn watched_keys(family: DeviceFamily) -> &'static HashSet<&'static str> {
    const FAMILIES: [DeviceFamily; 4] = [
        DeviceFamily::Inverter,
        DeviceFamily::Meter,
        DeviceFamily::Battery,
        DeviceFamily::WeatherStation,
    ];
    static SETS: OnceLock<Vec<HashSet<&'static str>>> = OnceLock::new();
    let sets = SETS.get_or_init(|| {
        FAMILIES
            .iter()
            .map(|&f| {
                metrics::sources(f)
                    .iter()
                    .map(|s| s.key)
                    .chain(events::of_family(f).filter_map(|e| e.word.map(|w| w.key)))
                    .collect()
            })
            .collect()
    });
    let i = FAMILIES.iter().position(|&f| f == family).unwrap_or(0);
    &sets[i]
}

struct ScanVisitor {
    watch: &'static HashSet<&'static str>,
}

impl<'de> Visitor<'de> for ScanVisitor {
    type Value = Scan;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object of values")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Scan, A::Error> {
        let mut scan = Scan::default();
        while let Some(key) = map.next_key::<Key<'de>>()? {
            let key = key.as_str();
            scan.points += 1;
            if scan.points > MAX_VALUES {
                return Err(de::Error::custom("too many values"));
            }
            if key.is_empty() || key.len() > MAX_KEY_LEN || key.chars().any(char::is_control) {
                return Err(de::Error::custom("bad value key"));
            }
            let number = match map.next_value::<Scalar>()? {
                Scalar::Number(n) if !n.is_finite() => {
                    return Err(de::Error::custom(format!("{key} is not finite")));
                }
                Scalar::Number(n) => n,
                Scalar::Bool(b) => f64::from(u8::from(b)),
                Scalar::Text(len) if len > MAX_TEXT_LEN => {
                    return Err(de::Error::custom(format!("{key} too long")));
                }
                Scalar::Text(_) => continue,
            };
            if self.watch.contains(key) {
                scan.watched.0.push((key.to_string(), number));
            }
        }
        Ok(scan)
    }
}

/// A key, borrowed from the text unless it has escapes.
enum Key<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl Key<'_> {
    fn as_str(&self) -> &str {
        match self {
            Key::Borrowed(s) => s,
            Key::Owned(s) => s,
        }
    }
}

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key::Borrowed(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key::Owned(v.to_string()))
            }
            fn visit_string<E>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key::Owned(v))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

/// One value: a number, a boolean, or a text (only its length matters here).
enum Scalar {
    Number(f64),
    Bool(bool),
    Text(usize),
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ScalarVisitor;
        impl Visitor<'_> for ScalarVisitor {
            type Value = Scalar;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number, a string or a boolean")
            }
            fn visit_bool<E>(self, v: bool) -> Result<Scalar, E> {
                Ok(Scalar::Bool(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Scalar, E> {
                Ok(Scalar::Number(v as f64))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Scalar, E> {
                Ok(Scalar::Number(v as f64))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Scalar, E> {
                Ok(Scalar::Number(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Scalar, E> {
                Ok(Scalar::Text(v.len()))
            }
        }
        d.deserialize_any(ScalarVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_values_and_keeps_only_the_watched_numbers() -> Result<(), String> {
        let s = scan(
            r#"{"today_pv_energy":4.5,"pv1_power":900,"serial":"ABC","grid_on":true,
                "total_pv_energy":12}"#,
            DeviceFamily::Inverter,
        )?;
        assert_eq!(s.points, 5);
        assert_eq!(s.watched.get("today_pv_energy"), Some(4.5));
        assert_eq!(s.watched.get("total_pv_energy"), Some(12.0));
        assert_eq!(s.watched.get("pv1_power"), None);
        assert!(!s.watched.contains("serial"));
        Ok(())
    }

    #[test]
    fn escaped_keys_are_read_like_plain_ones() -> Result<(), String> {
        let s = scan(r#"{"today_pv_\u0065nergy":3}"#, DeviceFamily::Inverter)?;
        assert_eq!(s.watched.get("today_pv_energy"), Some(3.0));
        Ok(())
    }

    #[test]
    fn a_repeated_key_reads_as_its_last_value() -> Result<(), String> {
        let s = scan(
            r#"{"today_pv_energy":1,"today_pv_energy":2}"#,
            DeviceFamily::Inverter,
        )?;
        assert_eq!(s.watched.get("today_pv_energy"), Some(2.0));
        Ok(())
    }

    #[test]
    fn bad_values_keys_and_shapes_are_refused() {
        let long_text = format!(r#"{{"serial":"{}"}}"#, "x".repeat(MAX_TEXT_LEN + 1));
        let long_key = format!(r#"{{"{}":1}}"#, "k".repeat(MAX_KEY_LEN + 1));
        let many = format!(
            "{{{}}}",
            (0..=MAX_VALUES)
                .map(|i| format!("\"k{i}\":1"))
                .collect::<Vec<_>>()
                .join(",")
        );
        for bad in [
            "[1,2]",
            r#"{"a":null}"#,
            r#"{"a":[1]}"#,
            r#"{"a":{"b":1}}"#,
            r#"{"":1}"#,
            r#"{"a\u0001":1}"#,
            r#"{"a":1e999}"#,
            r#"{"a":1} x"#,
            long_text.as_str(),
            long_key.as_str(),
            many.as_str(),
        ] {
            assert!(
                scan(bad, DeviceFamily::Inverter).is_err(),
                "{}",
                &bad[..bad.len().min(40)]
            );
        }
        let max_text = format!(r#"{{"serial":"{}"}}"#, "x".repeat(MAX_TEXT_LEN));
        assert!(scan(&max_text, DeviceFamily::Inverter).is_ok());
        assert!(scan("{}", DeviceFamily::Meter).is_ok_and(|s| s.points == 0));
    }

    #[test]
    fn status_words_are_watched() {
        let word = events::of_family(DeviceFamily::Inverter)
            .find_map(|e| e.word.map(|w| w.key))
            .unwrap_or("none");
        let s = scan(&format!(r#"{{"{word}":5}}"#), DeviceFamily::Inverter);
        assert_eq!(s.map(|s| s.watched.get(word)), Ok(Some(5.0)));
    }
}
