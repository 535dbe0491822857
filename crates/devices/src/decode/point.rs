//! Decoding one point: gather its registers, apply the byte swap, drop skipped bytes, then
//! read the data type (word swap applies to 32-bit values) and apply scale and base.

use super::{RegisterBlock, Value, lookup};
use crate::protocol::{DataType, MAX_READ_REGISTERS, PointDef};

pub(super) enum Failure {
    Missing,
    Invalid,
}

/// Two bytes per register at most `MAX_READ_REGISTERS` registers: a stack buffer suffices.
const MAX_BYTES: usize = MAX_READ_REGISTERS as usize * 2;

pub(super) fn read(p: &PointDef, blocks: &[RegisterBlock]) -> Result<Value, Failure> {
    let kind = p.register_kind().ok_or(Failure::Invalid)?;
    let count = p.register_count().ok_or(Failure::Invalid)?;
    if count == 0 || count > MAX_READ_REGISTERS {
        return Err(Failure::Invalid);
    }
    let mut buf = [0u8; MAX_BYTES];
    let len = count as usize * 2;
    for (i, pair) in (0..count).zip(buf[..len].chunks_exact_mut(2)) {
        let address = p.register_address(i);
        if address > u32::from(u16::MAX) {
            return Err(Failure::Invalid);
        }
        let [hi, lo] = lookup(blocks, kind, address)
            .ok_or(Failure::Missing)?
            .to_be_bytes();
        if p.byte_swap {
            pair.copy_from_slice(&[lo, hi]);
        } else {
            pair.copy_from_slice(&[hi, lo]);
        }
    }
    let skip = usize::try_from(p.skip_bytes).map_err(|_| Failure::Invalid)?;
    let bytes = buf.get(skip..len).ok_or(Failure::Invalid)?;
    convert(p, bytes)
}

fn convert(p: &PointDef, b: &[u8]) -> Result<Value, Failure> {
    let int = |raw: f64| scaled(p, raw, true);
    match p.data_type {
        DataType::U8 => int(f64::from(first(b)?)),
        DataType::I8 => int(f64::from(i8::from_be_bytes([first(b)?]))),
        DataType::U16 => int(f64::from(u16::from_be_bytes(two(b)?))),
        DataType::I16 => int(f64::from(i16::from_be_bytes(two(b)?))),
        DataType::U32 => int(f64::from(u32::from_be_bytes(four(b, p.word_swap)?))),
        DataType::I32 => int(f64::from(i32::from_be_bytes(four(b, p.word_swap)?))),
        DataType::F32 => {
            let f = f32::from_be_bytes(four(b, p.word_swap)?);
            // Via the shortest decimal form so 230.1f32 reads 230.1, not 230.10000610351562.
            let raw = f.to_string().parse::<f64>().map_err(|_| Failure::Invalid)?;
            scaled(p, raw, false)
        }
        DataType::String => Ok(Value::Text(text(b))),
        DataType::Bits { bit, width } => bits(p, b, bit.into(), width.into()),
    }
}

fn bits(p: &PointDef, b: &[u8], bit: u32, width: u32) -> Result<Value, Failure> {
    let (raw, available) = if b.len() >= 4 {
        (u32::from_be_bytes(four(b, p.word_swap)?), 32)
    } else {
        (u32::from(u16::from_be_bytes(two(b)?)), 16)
    };
    if width == 0 || bit + width > available {
        return Err(Failure::Invalid);
    }
    let field = (u64::from(raw) >> bit) & ((1u64 << width) - 1);
    if width == 1 {
        Ok(Value::Bool(field == 1))
    } else {
        scaled(p, field as f64, true)
    }
}

fn first(b: &[u8]) -> Result<u8, Failure> {
    b.first().copied().ok_or(Failure::Invalid)
}

fn two(b: &[u8]) -> Result<[u8; 2], Failure> {
    match b {
        [x, y, ..] => Ok([*x, *y]),
        _ => Err(Failure::Invalid),
    }
}

/// Four bytes in big-endian order; `word_swap` means the first register is the low word.
fn four(b: &[u8], word_swap: bool) -> Result<[u8; 4], Failure> {
    match b {
        [w, x, y, z, ..] if word_swap => Ok([*y, *z, *w, *x]),
        [w, x, y, z, ..] => Ok([*w, *x, *y, *z]),
        _ => Err(Failure::Invalid),
    }
}

/// ASCII with trailing NUL/space padding removed; other non-printable bytes become U+FFFD so a
/// garbled serial number is visible as such instead of injecting control characters.
fn text(b: &[u8]) -> String {
    let end = b
        .iter()
        .rposition(|c| *c != 0 && *c != b' ')
        .map_or(0, |i| i + 1);
    b[..end]
        .iter()
        .map(|&c| {
            if (0x20..0x7f).contains(&c) {
                char::from(c)
            } else {
                char::REPLACEMENT_CHARACTER
            }
        })
        .collect()
}

/// raw × scale + base. Integer registers are rounded to the decimals of scale and base so that
/// 1234 × 0.1 reads 123.4 rather than 123.40000000000001.
fn scaled(p: &PointDef, raw: f64, integer: bool) -> Result<Value, Failure> {
    let mut v = raw * p.scale + p.base;
    if integer && let (Some(a), Some(b)) = (decimals(p.scale), decimals(p.base)) {
        let factor = 10f64.powi(a.max(b));
        v = (v * factor).round() / factor;
    }
    if v.is_finite() {
        Ok(Value::Number(v))
    } else {
        Err(Failure::Invalid)
    }
}

/// The number of decimals `x` has, if it is a short decimal (0.1, 0.01, 2.5, -100).
fn decimals(x: f64) -> Option<i32> {
    (0..=9).find(|&d| {
        let y = x * 10f64.powi(d);
        y.is_finite() && (y - y.round()).abs() <= 1e-9 * y.abs().max(1.0)
    })
}
