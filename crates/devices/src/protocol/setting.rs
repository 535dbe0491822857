//! Writable settings: how a value of the portal's settings API (text, as `set_params` carries
//! it) becomes register words, and how a read register becomes that text again. A config's
//! `settings` list is the whole of what may be written to its device: the gateway agent writes
//! no other register, and the device emulators refuse writes anywhere else.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::{DataType, PointDef, ProtocolConfig, RegisterType};
use crate::decode::{RegisterImage, Value, decode_point};

/// One writable setting: the portal's settings key and the config point that holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SettingDef {
    /// The portal's settings key (`batteryMaxCurrentCharge`, `sellTime1`, `time1on`).
    pub param: String,
    /// Key of the point holding the value: a holding register, so every poll reads it back.
    pub point: String,
    #[serde(default, skip_serializing_if = "SettingEncoding::is_number")]
    pub encoding: SettingEncoding,
    /// The smallest value the device takes, in the point's units.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    /// The largest value the device takes, in the point's units.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
}

/// How the settings text maps onto the point's number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SettingEncoding {
    /// The text is the number itself (`"80"`, `"52.5"`).
    #[default]
    Number,
    /// `"HH:MM"` held as the decimal number HHMM (Deye's time-of-use slots: 22:30 is 2230).
    Hhmm,
    /// `"1"`/`"true"` and `"0"`/`"false"`, held as 1 and 0.
    Flag,
}

impl SettingEncoding {
    fn is_number(&self) -> bool {
        *self == SettingEncoding::Number
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SettingError {
    #[error("`{0}` is not a setting of this device")]
    Unknown(String),
    #[error("`{param}`: `{text}` is not a value this setting takes")]
    BadValue { param: String, text: String },
    #[error("`{param}`: {value} is outside {min}..={max}")]
    OutOfRange {
        param: String,
        value: f64,
        min: f64,
        max: f64,
    },
    #[error("`{0}`: its point is missing or is not a writable holding register")]
    BadPoint(String),
}

impl SettingDef {
    /// The point value that `text` stands for, checked against the setting's limits.
    pub fn parse(&self, text: &str) -> Result<Value, SettingError> {
        let bad = || SettingError::BadValue {
            param: self.param.clone(),
            text: text.to_string(),
        };
        let text = text.trim();
        let number = match self.encoding {
            SettingEncoding::Flag => match text {
                "1" | "true" => 1.0,
                "0" | "false" => 0.0,
                _ => return Err(bad()),
            },
            SettingEncoding::Hhmm => {
                let (h, m) = text.split_once(':').ok_or_else(bad)?;
                let (h, m): (u16, u16) =
                    (h.parse().map_err(|_| bad())?, m.parse().map_err(|_| bad())?);
                if h > 23 || m > 59 || text.len() != 5 {
                    return Err(bad());
                }
                f64::from(h * 100 + m)
            }
            SettingEncoding::Number => text
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(bad)?,
        };
        let (min, max) = (
            self.min.unwrap_or(f64::NEG_INFINITY),
            self.max.unwrap_or(f64::INFINITY),
        );
        if !(min..=max).contains(&number) {
            return Err(SettingError::OutOfRange {
                param: self.param.clone(),
                value: number,
                min,
                max,
            });
        }
        Ok(Value::Number(number))
    }

    /// The settings text of a value read from the device (the inverse of [`Self::parse`]).
    pub fn text(&self, value: &Value) -> Option<String> {
        let n = value.as_f64()?;
        Some(match self.encoding {
            SettingEncoding::Flag => if n != 0.0 { "1" } else { "0" }.to_string(),
            SettingEncoding::Hhmm => {
                let hhmm = n.round() as i64;
                format!("{:02}:{:02}", hhmm / 100, hhmm % 100)
            }
            SettingEncoding::Number if n.fract() == 0.0 => format!("{n:.0}"),
            SettingEncoding::Number => n.to_string(),
        })
    }
}

impl ProtocolConfig {
    /// The setting named `param` and the point that holds it.
    pub fn setting(&self, param: &str) -> Result<(&SettingDef, &PointDef), SettingError> {
        let def = self
            .settings
            .iter()
            .find(|s| s.param == param)
            .ok_or_else(|| SettingError::Unknown(param.to_string()))?;
        let point = self
            .point(&def.point)
            .filter(|p| writable_point(p))
            .ok_or_else(|| SettingError::BadPoint(param.to_string()))?;
        Ok((def, point))
    }

    /// Every holding register some setting owns: the only registers ever written.
    pub fn writable_registers(&self) -> BTreeSet<u16> {
        self.settings
            .iter()
            .filter_map(|s| self.setting(&s.param).ok())
            .flat_map(|(_, p)| point_registers(p))
            .collect()
    }

    /// The register words that set `param` to `text`: (address, word) pairs in the point's
    /// order. `current` holds the registers as last read, so that bits and bytes of a register
    /// the setting shares with others keep their value.
    pub fn setting_words(
        &self,
        param: &str,
        text: &str,
        current: &RegisterImage,
    ) -> Result<Vec<(u16, u16)>, SettingError> {
        let (def, point) = self.setting(param)?;
        let value = def.parse(text)?;
        let mut image = current.clone();
        image
            .encode(point, &value)
            .map_err(|_| SettingError::BadValue {
                param: param.to_string(),
                text: text.to_string(),
            })?;
        Ok(point_registers(point)
            .into_iter()
            .map(|a| (a, image.word(RegisterType::Holding, a)))
            .collect())
    }

    /// The settings text of `param` as the registers in `image` hold it.
    pub fn setting_text(&self, param: &str, image: &RegisterImage) -> Option<String> {
        let (def, point) = self.setting(param).ok()?;
        def.text(&decode_point(point, image)?)
    }
}

/// A setting's point must be a numeric (or bit field) holding register.
pub(super) fn writable_point(p: &PointDef) -> bool {
    p.register_kind() == Some(RegisterType::Holding) && !matches!(p.data_type, DataType::String)
}

fn point_registers(p: &PointDef) -> Vec<u16> {
    let count = p.register_count().unwrap_or(0);
    (0..count)
        .filter_map(|i| u16::try_from(p.register_address(i)).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> ProtocolConfig {
        let mut json: serde_json::Value = serde_json::json!({
            "code": "t", "name": "t", "family": "inverter", "version": 1,
            "points": [
                {"key": "charge_amps", "address": 108, "data_type": "u16"},
                {"key": "slot1_time", "address": 148, "data_type": "u16"},
                {"key": "slot1_grid", "address": 172, "data_type": {"bits": {"bit": 0, "width": 1}}},
                {"key": "slot1_gen", "address": 172, "data_type": {"bits": {"bit": 1, "width": 1}}},
                {"key": "export_limit", "address": 143, "data_type": "u32", "word_swap": true, "scale": 0.1}
            ],
            "settings": [
                {"param": "batteryMaxCurrentCharge", "point": "charge_amps", "min": 0, "max": 185},
                {"param": "sellTime1", "point": "slot1_time", "encoding": "hhmm"},
                {"param": "time1on", "point": "slot1_grid", "encoding": "flag"},
                {"param": "zeroExportPower", "point": "export_limit"}
            ]
        });
        json["notes"] = "".into();
        serde_json::from_value(json).expect("config")
    }

    #[test]
    fn values_become_words_and_back() {
        let c = config();
        let mut image = RegisterImage::new();
        image.set_word(RegisterType::Holding, 172, 0b10);
        let w = c.setting_words("time1on", "true", &image).expect("flag");
        assert_eq!(
            w,
            vec![(172, 0b11)],
            "the other bit of the register is kept"
        );
        let w = c.setting_words("sellTime1", "22:30", &image).expect("time");
        assert_eq!(w, vec![(148, 2230)]);
        image.set_word(RegisterType::Holding, 148, 705);
        assert_eq!(
            c.setting_text("sellTime1", &image).as_deref(),
            Some("07:05")
        );
        let w = c
            .setting_words("zeroExportPower", "7000.5", &image)
            .expect("u32");
        assert_eq!(w, vec![(143, 4469), (144, 1)], "70005: low word first");
    }

    #[test]
    fn bad_values_are_refused() {
        let c = config();
        let image = RegisterImage::new();
        for (param, text) in [
            ("batteryMaxCurrentCharge", "186"),
            ("batteryMaxCurrentCharge", "-1"),
            ("batteryMaxCurrentCharge", "ten"),
            ("sellTime1", "24:00"),
            ("sellTime1", "7:5"),
            ("time1on", "yes"),
            ("beep", "1"),
        ] {
            assert!(
                c.setting_words(param, text, &image).is_err(),
                "{param}={text}"
            );
        }
        assert_eq!(
            c.writable_registers().into_iter().collect::<Vec<_>>(),
            vec![108, 143, 144, 148, 172]
        );
    }
}
