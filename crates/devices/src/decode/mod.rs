//! Register decoding: raw blocks as read by Modbus function 3/4 in, named scaled values out.
//!
//! The decoder accepts any config and any blocks, validated or not, and never panics: a point
//! whose registers were not read is reported as missing (never as zero), a point that cannot
//! be decoded (bad shape, NaN, out-of-range bits) as invalid, and a number outside the point's
//! valid range (`min`/`max`) as out of range, with the value read.

mod image;
mod plan;
mod point;
mod preview;

use serde::{Deserialize, Serialize};

use crate::protocol::{ProtocolConfig, RegisterType};

pub use image::RegisterImage;
pub use plan::{ReadRequest, plan_reads};
pub use preview::{FrameFormat, PointPreview, frame_block, preview};

/// A run of consecutive registers of one kind, starting at `start`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegisterBlock {
    pub kind: RegisterType,
    pub start: u16,
    pub words: Vec<u16>,
}

impl RegisterBlock {
    pub fn holding(start: u16, words: Vec<u16>) -> Self {
        RegisterBlock {
            kind: RegisterType::Holding,
            start,
            words,
        }
    }

    pub fn input(start: u16, words: Vec<u16>) -> Self {
        RegisterBlock {
            kind: RegisterType::Input,
            start,
            words,
        }
    }

    fn get(&self, kind: RegisterType, address: u32) -> Option<u16> {
        if kind != self.kind {
            return None;
        }
        let offset = address.checked_sub(u32::from(self.start))?;
        self.words.get(usize::try_from(offset).ok()?).copied()
    }
}

/// Looks a register up in the first block that holds it.
pub(crate) fn lookup(blocks: &[RegisterBlock], kind: RegisterType, address: u32) -> Option<u16> {
    blocks.iter().find_map(|b| b.get(kind, address))
}

/// A decoded value. Serialised untagged so telemetry JSON reads `12.5`, `"SN123"`, `true`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Value {
    Bool(bool),
    Number(f64),
    Text(String),
}

/// Read straight from the token: serde's `untagged` derive buffers each value and builds an
/// error for every variant that does not match, which was the costliest step of ingest.
impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = Value;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number, a string or a boolean")
            }
            fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
                Ok(Value::Bool(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
                Ok(Value::Number(v as f64))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
                Ok(Value::Number(v as f64))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
                Ok(Value::Number(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Value, E> {
                Ok(Value::Text(v.to_string()))
            }
            fn visit_string<E>(self, v: String) -> Result<Value, E> {
                Ok(Value::Text(v))
            }
        }
        d.deserialize_any(Visit)
    }
}

impl Value {
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => Some(*n),
            Value::Bool(b) => Some(f64::from(u8::from(*b))),
            Value::Text(_) => None,
        }
    }
}

/// The outcome of decoding one set of blocks; keys borrow from the config.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Decoded<'a> {
    pub values: Vec<(&'a str, Value)>,
    /// Points with at least one register absent from the blocks.
    pub missing: Vec<&'a str>,
    /// Points the config cannot decode (bad shape) or whose value is not finite.
    pub invalid: Vec<&'a str>,
    /// Points whose number lies outside their valid range, with that number: not in `values`.
    pub out_of_range: Vec<(&'a str, f64)>,
}

impl Decoded<'_> {
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.values.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    pub fn number(&self, key: &str) -> Option<f64> {
        self.get(key).and_then(Value::as_f64)
    }
}

/// Decodes every point of `config` from `blocks`.
pub fn decode<'a>(config: &'a ProtocolConfig, blocks: &[RegisterBlock]) -> Decoded<'a> {
    let mut out = Decoded {
        values: Vec::with_capacity(config.points.len()),
        ..Decoded::default()
    };
    for point in &config.points {
        match point::read(point, blocks) {
            Ok(Value::Number(n)) if !point.in_range(n) => {
                out.out_of_range.push((point.key.as_str(), n));
            }
            Ok(value) => out.values.push((point.key.as_str(), value)),
            Err(point::Failure::Missing) => out.missing.push(point.key.as_str()),
            Err(point::Failure::Invalid) => out.invalid.push(point.key.as_str()),
        }
    }
    out
}

/// Decodes one point from the registers an image holds (registers never set read as 0).
pub fn decode_point(point: &crate::protocol::PointDef, image: &RegisterImage) -> Option<Value> {
    let kind = point.register_kind()?;
    let blocks: Vec<RegisterBlock> = (0..point.register_count()?)
        .filter_map(|i| u16::try_from(point.register_address(i)).ok())
        .map(|a| RegisterBlock {
            kind,
            start: a,
            words: vec![image.word(kind, a)],
        })
        .collect();
    point::read(point, &blocks).ok()
}
