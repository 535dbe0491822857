//! The two OpenADR 3 versions in the field; they are not compatible on the wire.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// 3.0.1 (openleadr-wire 0.1.4): resources under `/vens/{venID}/resources`, reports carry
    /// `programID`, the token URL is `{vtn}/auth/token`.
    V301,
    /// 3.1.0 (openleadr-wire 0.2.8): top-level `/resources`, no `programID` in reports, the token
    /// URL comes from `GET {vtn}/auth/server`.
    V310,
}

impl Version {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "3.0.1" => Some(Self::V301),
            "3.1.0" => Some(Self::V310),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::V301 => "3.0.1",
            Self::V310 => "3.1.0",
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
