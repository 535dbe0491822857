//! A reading's values, read once as the gateway sent them: the JSON object text is checked
//! in one pass (no map, no key strings) and stored unchanged, and only the few numbers ingest
//! reads itself (energy counters, status words) are kept. Building a map of ~100 values and
//! writing it back out as text was the largest CPU cost of ingest.
//!
//! A value that breaks the rules (a key or a text too long, `null`, an array or an object, one
//! value too many) is left out alone and reported to [`Skipped`]; only then is the object
//! written again, without those entries, so a good reading is still stored byte for byte as
//! sent. Values that are not an object, or not readable JSON, make the reading unusable.

use std::{collections::HashSet, fmt, sync::OnceLock};

use serde::{
    Deserialize, Deserializer,
    de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor},
};
use serde_json::value::RawValue;

use super::skipped::{Reason, Skipped};
use crate::{
    events,
    ingest::{intervals, metrics},
    protocol::DeviceFamily,
};

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

    /// Adds a value ingest derives from the others (it wins over one sent with the same key).
    pub fn derive(&mut self, key: &str, value: f64) {
        self.0.push((key.to_string(), value));
    }
}

/// What one pass over a values object found in the values it keeps.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scan {
    /// Values kept (data points).
    pub points: usize,
    pub watched: Watched,
    /// Values left out (each also reported to [`Skipped`]).
    pub left_out: usize,
}

/// A reading's values as they are stored: the text as sent, or without the values left out.
#[derive(Debug, Clone, PartialEq)]
pub struct Values {
    pub text: String,
    pub scan: Scan,
}

/// Checks the values object `text` of device `sn` (see [`judge`] for the rules), keeps the
/// numbers `family` is watched for, and leaves out (reporting each to `skipped`) the values
/// that break the rules. `Err` when the text is no object of values at all.
pub fn check(
    text: String,
    family: DeviceFamily,
    sn: &str,
    skipped: &mut Skipped,
) -> Result<Values, Reason> {
    let scan = scan(&text, family, sn, skipped)?;
    if scan.left_out == 0 {
        return Ok(Values { text, scan });
    }
    let text = without_left_out(&text).map_err(|_| Reason::UnreadableValues)?;
    Ok(Values { text, scan })
}

/// One pass over a values object; see [`check`].
pub fn scan(
    text: &str,
    family: DeviceFamily,
    sn: &str,
    skipped: &mut Skipped,
) -> Result<Scan, Reason> {
    let mut de = serde_json::Deserializer::from_str(text);
    let scan = de
        .deserialize_map(ScanVisitor {
            watch: watched_keys(family),
            sn,
            skipped,
        })
        .map_err(|_| Reason::UnreadableValues)?;
    de.end().map_err(|_| Reason::UnreadableValues)?;
    Ok(scan)
}

/// Whether a value is kept, with `kept` values kept before it: keys of 1 to [`MAX_KEY_LEN`]
/// bytes without control characters; a number, a boolean or a text of at most
/// [`MAX_TEXT_LEN`] bytes; at most [`MAX_VALUES`] values. `Ok` carries the value as a number
/// (booleans as 0 and 1), `None` for a text.
fn judge(key: &str, value: &Scalar, kept: usize) -> Result<Option<f64>, Reason> {
    if key.is_empty() || key.len() > MAX_KEY_LEN || key.chars().any(char::is_control) {
        return Err(Reason::BadKey);
    }
    let number = match *value {
        Scalar::Number(n) => Some(n),
        Scalar::Bool(b) => Some(f64::from(u8::from(b))),
        Scalar::Text(len) if len > MAX_TEXT_LEN => return Err(Reason::TextTooLong),
        Scalar::Text(_) => None,
        Scalar::Other => return Err(Reason::NotAScalar),
    };
    if kept >= MAX_VALUES {
        return Err(Reason::TooManyValues);
    }
    Ok(number)
}

/// The object `text` again with only the values [`judge`] keeps, each key and value as sent.
/// Only readings with a value left out come here, so the second pass costs nothing otherwise.
fn without_left_out(text: &str) -> Result<String, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let kept = de.deserialize_map(KeepVisitor {
        out: String::with_capacity(text.len()),
    })?;
    de.end()?;
    Ok(kept)
}

/// The keys ingest reads for a family: energy counters, status words and the powers it
/// integrates ([`intervals::keys`]).
fn watched_keys(family: DeviceFamily) -> &'static HashSet<&'static str> {
    static SETS: OnceLock<Vec<HashSet<&'static str>>> = OnceLock::new();
    let sets = SETS.get_or_init(|| {
        DeviceFamily::ALL
            .iter()
            .map(|&f| {
                metrics::sources(f)
                    .iter()
                    .map(|s| s.key)
                    .chain(events::of_family(f).filter_map(|e| e.word.map(|w| w.key)))
                    .chain(intervals::keys(f).iter().copied())
                    // The weak-string rule reads every string current of a combiner.
                    .chain(
                        (f == DeviceFamily::Combiner)
                            .then_some(domain::combiner::CURRENT_KEYS)
                            .into_iter()
                            .flatten(),
                    )
                    .collect()
            })
            .collect()
    });
    let i = DeviceFamily::ALL
        .iter()
        .position(|&f| f == family)
        .unwrap_or(0);
    &sets[i]
}

struct ScanVisitor<'a> {
    watch: &'static HashSet<&'static str>,
    sn: &'a str,
    skipped: &'a mut Skipped,
}

impl<'de> Visitor<'de> for ScanVisitor<'_> {
    type Value = Scan;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object of values")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Scan, A::Error> {
        let mut scan = Scan::default();
        while let Some(key) = map.next_key::<Key<'de>>()? {
            let key = key.as_str();
            let value = map.next_value::<Scalar>()?;
            match judge(key, &value, scan.points) {
                Ok(number) => {
                    scan.points += 1;
                    if let Some(number) = number
                        && self.watch.contains(key)
                    {
                        scan.watched.0.push((key.to_string(), number));
                    }
                }
                Err(reason) => {
                    scan.left_out += 1;
                    self.skipped.value(self.sn, key, reason);
                }
            }
        }
        Ok(scan)
    }
}

/// Writes the entries [`judge`] keeps, keys re-quoted and values as sent.
struct KeepVisitor {
    out: String,
}

impl<'de> Visitor<'de> for KeepVisitor {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object of values")
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<String, A::Error> {
        let mut kept = 0;
        self.out.push('{');
        while let Some(key) = map.next_key::<Key<'de>>()? {
            let raw = map.next_value::<&'de RawValue>()?;
            let value: Scalar = serde_json::from_str(raw.get()).map_err(de::Error::custom)?;
            if judge(key.as_str(), &value, kept).is_err() {
                continue;
            }
            if kept > 0 {
                self.out.push(',');
            }
            kept += 1;
            let quoted = serde_json::to_string(key.as_str()).map_err(de::Error::custom)?;
            self.out.push_str(&quoted);
            self.out.push(':');
            self.out.push_str(raw.get());
        }
        self.out.push('}');
        Ok(self.out)
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

/// One value: a number, a boolean, a text (only its length matters here), or anything else
/// (`null`, an array, an object), read past so the values after it can still be checked.
enum Scalar {
    Number(f64),
    Bool(bool),
    Text(usize),
    Other,
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ScalarVisitor;
        impl<'de> Visitor<'de> for ScalarVisitor {
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
            fn visit_unit<E>(self) -> Result<Scalar, E> {
                Ok(Scalar::Other)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Scalar, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Scalar::Other)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Scalar, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Scalar::Other)
            }
        }
        d.deserialize_any(ScalarVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INV: DeviceFamily = DeviceFamily::Inverter;

    fn checked(text: &str) -> (Result<Values, Reason>, Skipped) {
        let mut skipped = Skipped::default();
        let values = check(text.to_string(), INV, "INV1", &mut skipped);
        (values, skipped)
    }

    #[test]
    fn counts_values_and_keeps_only_the_watched_numbers() -> Result<(), Reason> {
        let (values, skipped) = checked(
            r#"{"today_pv_energy":4.5,"pv1_power":900,"serial":"ABC","grid_on":true,
                "total_pv_energy":12,"pv1_voltage":91.5}"#,
        );
        let s = values?.scan;
        assert_eq!((s.points, s.left_out), (6, 0));
        assert!(skipped.is_empty());
        assert_eq!(s.watched.get("today_pv_energy"), Some(4.5));
        assert_eq!(s.watched.get("total_pv_energy"), Some(12.0));
        // Powers the intervals integrate are watched; other values are not.
        assert_eq!(s.watched.get("pv1_power"), Some(900.0));
        assert_eq!(s.watched.get("pv1_voltage"), None);
        assert!(!s.watched.contains("serial"));
        Ok(())
    }

    #[test]
    fn a_good_reading_is_stored_byte_for_byte_as_sent() -> Result<(), Reason> {
        let sent = "{ \"z\" : 1.50e2,\n\"a\":-0, \"t\\u00e9xt\":\"line\\nnext \\\"q\\\"\",\"b\":false ,\"n\":12345678901234567890}";
        let (values, skipped) = checked(sent);
        let values = values?;
        assert_eq!(values.text, sent);
        assert_eq!(values.scan.points, 5);
        assert!(skipped.is_empty());
        Ok(())
    }

    #[test]
    fn escaped_keys_are_read_like_plain_ones() -> Result<(), Reason> {
        let (values, _) = checked(r#"{"today_pv_\u0065nergy":3}"#);
        assert_eq!(values?.scan.watched.get("today_pv_energy"), Some(3.0));
        Ok(())
    }

    #[test]
    fn a_repeated_key_reads_as_its_last_value() -> Result<(), Reason> {
        let (values, _) = checked(r#"{"today_pv_energy":1,"today_pv_energy":2}"#);
        assert_eq!(values?.scan.watched.get("today_pv_energy"), Some(2.0));
        Ok(())
    }

    /// The three values of the security review (a 300-byte text, a 65-byte key, a nested
    /// object) and the other kinds: each is left out alone and the rest is kept as sent.
    #[test]
    fn a_bad_value_is_left_out_alone_and_the_others_are_kept_as_sent() -> Result<(), Reason> {
        let long_text = format!(r#""serial":"{}""#, "x".repeat(300));
        let long_key = format!(r#""{}":1"#, "k".repeat(MAX_KEY_LEN + 1));
        let cases = [
            (long_text.as_str(), Reason::TextTooLong),
            (long_key.as_str(), Reason::BadKey),
            (r#""nested":{"b":[1,{"c":2}]}"#, Reason::NotAScalar),
            (r#""list":[1,2]"#, Reason::NotAScalar),
            (r#""none":null"#, Reason::NotAScalar),
            (r#""":1"#, Reason::BadKey),
            (r#""a\u0001":1"#, Reason::BadKey),
        ];
        for (bad, reason) in cases {
            let sent = format!(r#"{{"pv1_power": 900,{bad}, "today_pv_energy":4.5}}"#);
            let (values, skipped) = checked(&sent);
            let values = values?;
            assert_eq!(
                values.text, r#"{"pv1_power":900,"today_pv_energy":4.5}"#,
                "{reason:?}"
            );
            assert_eq!((values.scan.points, values.scan.left_out), (2, 1));
            assert_eq!(values.scan.watched.get("today_pv_energy"), Some(4.5));
            assert_eq!(skipped.count(reason), 1, "{reason:?}");
            assert_eq!(skipped.total("value"), 1);
            assert_eq!(skipped.examples()[0].sn, "INV1");
        }
        Ok(())
    }

    #[test]
    fn keys_and_texts_at_the_limits_are_kept() -> Result<(), Reason> {
        let sent = format!(
            r#"{{"{}":"{}"}}"#,
            "k".repeat(MAX_KEY_LEN),
            "x".repeat(MAX_TEXT_LEN)
        );
        let (values, skipped) = checked(&sent);
        assert_eq!(values?.text, sent);
        assert!(skipped.is_empty());
        Ok(())
    }

    #[test]
    fn values_beyond_the_most_a_reading_holds_are_left_out() -> Result<(), Reason> {
        let sent = format!(
            "{{{}}}",
            (0..MAX_VALUES + 3)
                .map(|i| format!("\"k{i}\":1"))
                .collect::<Vec<_>>()
                .join(",")
        );
        let (values, skipped) = checked(&sent);
        let values = values?;
        assert_eq!(values.scan.points, MAX_VALUES);
        assert_eq!(skipped.count(Reason::TooManyValues), 3);
        let kept: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&values.text).map_err(|_| Reason::UnreadableValues)?;
        assert_eq!(kept.len(), MAX_VALUES);
        assert!(kept.contains_key(&format!("k{}", MAX_VALUES - 1)));
        assert!(!kept.contains_key(&format!("k{MAX_VALUES}")));
        Ok(())
    }

    #[test]
    fn a_rewritten_reading_keeps_escapes_and_reads_back() -> Result<(), Reason> {
        let sent = r#"{"t\u00e9xt":"a\"b","bad":null,"n":1e3}"#;
        let (values, _) = checked(sent);
        let values = values?;
        assert_eq!(values.text, r#"{"téxt":"a\"b","n":1e3}"#);
        let back: serde_json::Value =
            serde_json::from_str(&values.text).map_err(|_| Reason::UnreadableValues)?;
        assert_eq!(back["téxt"], "a\"b");
        Ok(())
    }

    #[test]
    fn values_that_are_not_an_object_of_readable_json_make_the_reading_unusable() {
        for bad in ["[1,2]", "5", r#""text""#, r#"{"a":1e999}"#, r#"{"a":1} x"#] {
            let (values, _) = checked(bad);
            assert_eq!(values, Err(Reason::UnreadableValues), "{bad}");
        }
        let (values, skipped) = checked("{}");
        assert!(values.is_ok_and(|v| v.scan.points == 0 && v.text == "{}"));
        assert!(skipped.is_empty());
    }

    #[test]
    fn status_words_are_watched() {
        let word = events::of_family(INV)
            .find_map(|e| e.word.map(|w| w.key))
            .unwrap_or("none");
        let (values, _) = checked(&format!(r#"{{"{word}":5}}"#));
        assert_eq!(values.map(|v| v.scan.watched.get(word)), Ok(Some(5.0)));
    }
}
