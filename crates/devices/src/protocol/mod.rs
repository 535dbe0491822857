//! Protocol configs as data: which registers a device exposes and how each becomes a named,
//! scaled value. Configs are plain serde structs so they can live in the database as JSON and
//! be edited by administrators; `validate` is the gate before one is saved or used.

mod setting;
mod shipped;
pub mod stored;
mod validate;

use serde::{Deserialize, Serialize};

pub use domain::DeviceFamily;
pub use setting::{SettingDef, SettingEncoding, SettingError};
pub use shipped::{shipped, shipped_json};

/// The most registers one Modbus read (function 3 or 4) may return.
pub const MAX_READ_REGISTERS: u32 = 125;

/// The longest config code, name and point unit (characters) a config may be saved with.
pub const CODE_MAX: usize = 64;
pub const NAME_MAX: usize = 100;
pub const UNIT_MAX: usize = 16;

/// A device family's register map: the spec's "logger function / protocol config".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProtocolConfig {
    /// Stable identifier, referenced by gateways and devices (e.g. `deye-hybrid-1ph`).
    pub code: String,
    pub name: String,
    pub family: DeviceFamily,
    /// The spec's inverter type code (2, 93, 94 ...) when the config is for an inverter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inverter_type: Option<u16>,
    /// Revision, bumped on every edit so stored samples can name the map that decoded them.
    pub version: u32,
    /// Modbus unit (slave) id the device answers on by default.
    #[serde(default = "default_unit_id")]
    pub unit_id: u8,
    /// Where the map comes from and what is unverified; free text for administrators.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
    pub points: Vec<PointDef>,
    /// The device's writable settings: which point holds each of the portal's settings keys.
    /// Only these registers are ever written (docs/device-protocol.md, "Settings").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub settings: Vec<SettingDef>,
}

/// One named value and where it sits in the register space.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PointDef {
    /// Column-like name, `a-z0-9_` (e.g. `pv1_voltage`).
    pub key: String,
    /// Engineering unit of the decoded value (the spec's "register unit"): V, A, W, kWh, %...
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub unit: String,
    /// 3 = read holding registers, 4 = read input registers.
    #[serde(default = "default_function_code")]
    pub function_code: u8,
    /// Optional, for configs that spell it out; must agree with `function_code`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub register_type: Option<RegisterType>,
    /// First register (0-based PDU address). Wider than u16 so that validation, not the JSON
    /// parser, reports an out-of-range address with the point's name.
    pub address: u32,
    /// Address of the second and later registers when they do not follow `address` (Deye
    /// keeps the high word of some 32-bit values tens of registers away from the low word).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second_address: Option<u32>,
    /// Register number; derived from the data type and skipped bytes when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
    pub data_type: DataType,
    /// Swap the two bytes inside every register (low byte first on the wire).
    #[serde(default, skip_serializing_if = "is_false")]
    pub byte_swap: bool,
    /// The first register holds the low word of a 32-bit value (Deye/Sunsynk order).
    #[serde(default, skip_serializing_if = "is_false")]
    pub word_swap: bool,
    /// Offset added after scaling: value = raw × scale + base.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub base: f64,
    #[serde(default = "default_scale", skip_serializing_if = "is_one")]
    pub scale: f64,
    /// Bytes dropped from the front of the point's registers before decoding (e.g. 1 to read
    /// the low byte of a register as `u8`).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub skip_bytes: u32,
    /// The smallest plausible value, in engineering units: a decoded value below it is a read
    /// or wiring fault, dropped at ingest and reported (docs/device-protocol.md, "Valid ranges").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    /// The largest plausible value, in engineering units (see `min`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RegisterType {
    Holding,
    Input,
}

impl RegisterType {
    pub fn function_code(self) -> u8 {
        match self {
            RegisterType::Holding => 3,
            RegisterType::Input => 4,
        }
    }

    pub fn from_function_code(code: u8) -> Option<Self> {
        match code {
            3 => Some(RegisterType::Holding),
            4 => Some(RegisterType::Input),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            RegisterType::Holding => "holding",
            RegisterType::Input => "input",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DataType {
    U8,
    I8,
    U16,
    I16,
    U32,
    I32,
    F32,
    /// ASCII, two characters per register, high byte first; trailing NUL and spaces trimmed.
    String,
    /// `width` bits starting at `bit` (0 = least significant) of one register, or of a 32-bit
    /// value when the point has two registers. Width 1 decodes as a bool.
    Bits {
        bit: u8,
        width: u8,
    },
}

impl DataType {
    pub fn name(self) -> &'static str {
        match self {
            DataType::U8 => "u8",
            DataType::I8 => "i8",
            DataType::U16 => "u16",
            DataType::I16 => "i16",
            DataType::U32 => "u32",
            DataType::I32 => "i32",
            DataType::F32 => "f32",
            DataType::String => "string",
            DataType::Bits { .. } => "bits",
        }
    }

    /// Bytes the value occupies, for fixed-size types.
    pub fn byte_len(self) -> Option<u32> {
        match self {
            DataType::U8 | DataType::I8 => Some(1),
            DataType::U16 | DataType::I16 => Some(2),
            DataType::U32 | DataType::I32 | DataType::F32 => Some(4),
            DataType::String | DataType::Bits { .. } => None,
        }
    }
}

impl PointDef {
    /// A holding-register point with no swaps, scale 1 and base 0; set other fields directly.
    pub fn new(key: impl Into<String>, address: u32, data_type: DataType) -> Self {
        PointDef {
            key: key.into(),
            unit: String::new(),
            function_code: 3,
            register_type: None,
            address,
            second_address: None,
            count: None,
            data_type,
            byte_swap: false,
            word_swap: false,
            base: 0.0,
            scale: 1.0,
            skip_bytes: 0,
            min: None,
            max: None,
        }
    }

    /// Whether a decoded number lies inside the point's valid range (no bounds: always).
    /// Texts and booleans have no range.
    pub fn in_range(&self, value: f64) -> bool {
        self.min.is_none_or(|min| value >= min) && self.max.is_none_or(|max| value <= max)
    }

    /// The register kind this point reads, or `None` for a function code that reads none.
    pub fn register_kind(&self) -> Option<RegisterType> {
        RegisterType::from_function_code(self.function_code)
    }

    /// Registers the point covers: the explicit count, else what the data type needs.
    pub fn register_count(&self) -> Option<u32> {
        if let Some(count) = self.count {
            return Some(count);
        }
        match self.data_type {
            DataType::String => None,
            DataType::Bits { .. } => Some(1),
            fixed => fixed
                .byte_len()
                .map(|len| (self.skip_bytes.saturating_add(len)).div_ceil(2)),
        }
    }

    /// Address of the point's `index`-th register (`second_address` re-bases index 1 onward).
    pub fn register_address(&self, index: u32) -> u32 {
        match (index, self.second_address) {
            (0, _) | (_, None) => self.address.saturating_add(index),
            (i, Some(second)) => second.saturating_add(i - 1),
        }
    }
}

impl ProtocolConfig {
    pub fn from_json(json: &str) -> Result<Self, crate::Error> {
        Ok(serde_json::from_str(json)?)
    }

    pub fn to_json_pretty(&self) -> Result<String, crate::Error> {
        Ok(serde_json::to_string_pretty(self)?)
    }

    pub fn point(&self, key: &str) -> Option<&PointDef> {
        self.points.iter().find(|p| p.key == key)
    }
}

fn default_unit_id() -> u8 {
    1
}
fn default_function_code() -> u8 {
    3
}
fn default_scale() -> f64 {
    1.0
}
fn is_false(v: &bool) -> bool {
    !*v
}
fn is_zero(v: &f64) -> bool {
    *v == 0.0
}
fn is_one(v: &f64) -> bool {
    *v == 1.0
}
fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}
