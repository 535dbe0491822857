//! Config validation: everything the decoder would otherwise have to report per sample is
//! caught once, when an administrator saves the config. The decoder still copes with invalid
//! configs (it never panics), but a validated config decodes every point it has data for.

use std::collections::HashSet;

use super::setting::writable_point;
use super::{CODE_MAX, DataType, MAX_READ_REGISTERS, NAME_MAX, PointDef, ProtocolConfig, UNIT_MAX};
use crate::error::{Error, Problem, Problems};

impl ProtocolConfig {
    /// Checks the whole config and returns every problem found.
    pub fn validate(&self) -> Result<(), Error> {
        let problems = self.problems();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(Error::InvalidConfig {
                code: self.code.clone(),
                problems: Problems(problems),
            })
        }
    }

    pub fn problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        if self.code.trim().is_empty() {
            out.push(Problem::EmptyCode);
        }
        if self.name.trim().is_empty() {
            out.push(Problem::EmptyName);
        }
        if self.code.chars().count() > CODE_MAX {
            out.push(Problem::LongCode { max: CODE_MAX });
        }
        if self.name.chars().count() > NAME_MAX {
            out.push(Problem::LongName { max: NAME_MAX });
        }
        if self.points.is_empty() {
            out.push(Problem::NoPoints);
        }
        let mut seen = HashSet::new();
        for (index, point) in self.points.iter().enumerate() {
            if point.key.is_empty() {
                out.push(Problem::EmptyKey { index });
            } else if !point
                .key
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
            {
                out.push(Problem::BadKey {
                    key: point.key.clone(),
                });
            } else if !seen.insert(point.key.as_str()) {
                out.push(Problem::DuplicateKey {
                    key: point.key.clone(),
                });
            }
            point_problems(point, &mut out);
        }
        self.setting_problems(&mut out);
        out
    }

    /// Each setting names a numeric holding-register point, once.
    fn setting_problems(&self, out: &mut Vec<Problem>) {
        let mut params = HashSet::new();
        for setting in &self.settings {
            if setting.param.is_empty() || !params.insert(setting.param.as_str()) {
                out.push(Problem::SettingParam {
                    param: setting.param.clone(),
                });
            }
            if !self.point(&setting.point).is_some_and(writable_point) {
                out.push(Problem::SettingPoint {
                    param: setting.param.clone(),
                    point: setting.point.clone(),
                });
            }
        }
    }
}

/// Bounds that keep every integer register's scaled value finite and meaningful (a u32 times
/// 1e9 is still far below f64's range); real maps use 0.001 to 10.
const MIN_SCALE: f64 = 1e-9;
const MAX_SCALE: f64 = 1e9;
const MAX_BASE: f64 = 1e15;

fn point_problems(p: &PointDef, out: &mut Vec<Problem>) {
    let key = || p.key.clone();
    if p.unit.chars().count() > UNIT_MAX {
        out.push(Problem::LongUnit {
            key: key(),
            max: UNIT_MAX,
        });
    }
    match (p.register_kind(), p.register_type) {
        (None, _) => out.push(Problem::FunctionCode {
            key: key(),
            code: p.function_code,
        }),
        (Some(kind), Some(stated)) if kind != stated => out.push(Problem::RegisterTypeMismatch {
            key: key(),
            code: p.function_code,
            expected: kind.name(),
            found: stated.name(),
        }),
        _ => {}
    }
    if !(MIN_SCALE..=MAX_SCALE).contains(&p.scale.abs()) {
        out.push(Problem::Scale { key: key() });
    }
    if !(-MAX_BASE..=MAX_BASE).contains(&p.base) {
        out.push(Problem::Base { key: key() });
    }
    range_problems(p, out);
    let Some(count) = p.register_count() else {
        out.push(Problem::StringWithoutCount { key: key() });
        return;
    };
    if count == 0 {
        out.push(Problem::ZeroLength { key: key() });
        return;
    }
    if count > MAX_READ_REGISTERS {
        out.push(Problem::TooLong {
            key: key(),
            count,
            max: MAX_READ_REGISTERS,
        });
        return;
    }
    address_problems(p, count, out);
    if p.second_address.is_some() && count < 2 {
        out.push(Problem::SecondAddressAlone { key: key() });
    }
    shape_problems(p, count, out);
}

/// A valid range has finite bounds with `min <= max`; a text has none.
fn range_problems(p: &PointDef, out: &mut Vec<Problem>) {
    let (min, max) = (p.min, p.max);
    if min.is_none() && max.is_none() {
        return;
    }
    let finite = min.is_none_or(f64::is_finite) && max.is_none_or(f64::is_finite);
    let ordered = match (min, max) {
        (Some(lo), Some(hi)) => lo <= hi,
        _ => true,
    };
    if !finite || !ordered || matches!(p.data_type, DataType::String) {
        out.push(Problem::Range { key: p.key.clone() });
    }
}

/// Both runs of registers (before and after `second_address`) must lie inside 0..=65535.
fn address_problems(p: &PointDef, count: u32, out: &mut Vec<Problem>) {
    let runs = match p.second_address {
        Some(second) if count >= 2 => [(p.address, 1), (second, count - 1)],
        _ => [(p.address, count), (p.address, 1)],
    };
    for (first, len) in runs {
        let last = u64::from(first) + u64::from(len) - 1;
        if last > u64::from(u16::MAX) {
            out.push(Problem::AddressRange {
                key: p.key.clone(),
                first,
                last: u32::try_from(last).unwrap_or(u32::MAX),
            });
            return;
        }
    }
}

/// The register count must match what the data type (plus skipped bytes) occupies.
fn shape_problems(p: &PointDef, count: u32, out: &mut Vec<Problem>) {
    let key = || p.key.clone();
    match p.data_type {
        DataType::String => {
            if p.skip_bytes >= count * 2 {
                out.push(Problem::SkipTooLarge {
                    key: key(),
                    skip: p.skip_bytes,
                    count,
                });
            }
        }
        DataType::Bits { bit, width } => {
            if p.skip_bytes != 0 {
                out.push(Problem::BitsWithSkip { key: key() });
            }
            if count > 2 {
                out.push(Problem::CountMismatch {
                    key: key(),
                    data_type: "bits",
                    skip: p.skip_bytes,
                    expected: 2,
                    count,
                });
            }
            let available = 16 * count.min(2);
            let end = u32::from(bit) + u32::from(width);
            if width == 0 || end > available {
                out.push(Problem::BitsOutOfRange {
                    key: key(),
                    bit: bit.into(),
                    end,
                    available,
                });
            }
        }
        fixed => {
            let len = fixed.byte_len().unwrap_or(0);
            let expected = p.skip_bytes.saturating_add(len).div_ceil(2);
            if expected != count {
                out.push(Problem::CountMismatch {
                    key: key(),
                    data_type: fixed.name(),
                    skip: p.skip_bytes,
                    expected,
                    count,
                });
            }
        }
    }
}
