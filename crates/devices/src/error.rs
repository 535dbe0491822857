//! The crate's one error type. Config validation collects every problem at once (an
//! administrator fixing a config wants the whole list, not one error per save).

use std::fmt;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("protocol config `{code}` is invalid: {problems}")]
    InvalidConfig { code: String, problems: Problems },
    #[error("protocol config is not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("frame too short ({0} bytes)")]
    FrameTooShort(usize),
    #[error("CRC mismatch: frame says {found:#06x}, computed {computed:#06x}")]
    BadCrc { found: u16, computed: u16 },
    #[error("LRC mismatch: frame says {found:#04x}, computed {computed:#04x}")]
    BadLrc { found: u8, computed: u8 },
    #[error("malformed ASCII frame: {0}")]
    BadAscii(&'static str),
    #[error("malformed frame: {0}")]
    BadFrame(&'static str),
    #[error("malformed PDU: {0}")]
    BadPdu(&'static str),
    #[error("unsupported function code {0:#04x}")]
    UnsupportedFunction(u8),
    #[error("register count {count} is outside 1..={max}")]
    BadQuantity { count: usize, max: usize },
    #[error("address range {start}+{count} runs past register 65535")]
    AddressOverflow { start: u16, count: usize },
    #[error("cannot encode point `{key}`: {reason}")]
    Encode { key: String, reason: &'static str },
}

/// One thing wrong with a protocol config, naming the point when there is one.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Problem {
    #[error("the config code is empty")]
    EmptyCode,
    #[error("the config name is empty")]
    EmptyName,
    #[error("the config code is longer than {max} characters")]
    LongCode { max: usize },
    #[error("the config name is longer than {max} characters")]
    LongName { max: usize },
    #[error("`{key}`: the unit is longer than {max} characters")]
    LongUnit { key: String, max: usize },
    #[error("the config has no points")]
    NoPoints,
    #[error("point #{index} has an empty key")]
    EmptyKey { index: usize },
    #[error("point key `{key}` may only use a-z, 0-9 and _")]
    BadKey { key: String },
    #[error("point key `{key}` is used more than once")]
    DuplicateKey { key: String },
    #[error("`{key}`: function code {code} is not a register read (use 3 or 4)")]
    FunctionCode { key: String, code: u8 },
    #[error("`{key}`: function code {code} reads {expected} registers, not {found}")]
    RegisterTypeMismatch {
        key: String,
        code: u8,
        expected: &'static str,
        found: &'static str,
    },
    #[error("`{key}`: register count is zero")]
    ZeroLength { key: String },
    #[error("`{key}`: register count {count} exceeds {max}, the most one read can return")]
    TooLong { key: String, count: u32, max: u32 },
    #[error("`{key}`: registers {first}..={last} are outside 0..=65535")]
    AddressRange { key: String, first: u32, last: u32 },
    #[error(
        "`{key}`: {data_type} with {skip} skipped bytes needs {expected} registers, not {count}"
    )]
    CountMismatch {
        key: String,
        data_type: &'static str,
        skip: u32,
        expected: u32,
        count: u32,
    },
    #[error("`{key}`: a string needs an explicit register count")]
    StringWithoutCount { key: String },
    #[error("`{key}`: skipping {skip} bytes leaves nothing of {count} registers")]
    SkipTooLarge { key: String, skip: u32, count: u32 },
    #[error("`{key}`: bit fields read one or two whole registers and cannot skip bytes")]
    BitsWithSkip { key: String },
    #[error("`{key}`: bits {bit}..{end} do not fit in {available} bits")]
    BitsOutOfRange {
        key: String,
        bit: u32,
        end: u32,
        available: u32,
    },
    #[error("`{key}`: a second address only makes sense for two or more registers")]
    SecondAddressAlone { key: String },
    #[error("`{key}`: scale must be a number whose size is between 1e-9 and 1e9")]
    Scale { key: String },
    #[error("`{key}`: base must be a number between -1e15 and 1e15")]
    Base { key: String },
    #[error("`{key}`: min and max must be finite numbers with min <= max, on a numeric point")]
    Range { key: String },
    #[error("setting `{param}` is empty or listed twice")]
    SettingParam { param: String },
    #[error("setting `{param}`: point `{point}` is missing or not a numeric holding register")]
    SettingPoint { param: String, point: String },
}

/// The problems found in one config, printed as a `; `-separated list.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Problems(pub Vec<Problem>);

impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, problem) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{problem}")?;
        }
        Ok(())
    }
}
