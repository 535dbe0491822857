//! A register image: the inverse of decoding. The simulator writes named values into it with
//! the same config a gateway would decode with, then serves Modbus reads or raw blocks from it.

use std::collections::BTreeMap;

use super::{ReadRequest, RegisterBlock, Value};
use crate::error::Error;
use crate::protocol::{DataType, MAX_READ_REGISTERS, PointDef, RegisterType};

/// Sparse register contents; registers never written read as 0, like an idle device.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RegisterImage {
    words: BTreeMap<(u8, u16), u16>,
}

fn slot(kind: RegisterType, address: u16) -> (u8, u16) {
    (kind.function_code(), address)
}

impl RegisterImage {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn word(&self, kind: RegisterType, address: u16) -> u16 {
        self.words.get(&slot(kind, address)).copied().unwrap_or(0)
    }

    pub fn set_word(&mut self, kind: RegisterType, address: u16, word: u16) {
        self.words.insert(slot(kind, address), word);
    }

    /// The blocks a gateway following `plan` would read.
    pub fn blocks(&self, plan: &[ReadRequest]) -> Vec<RegisterBlock> {
        plan.iter()
            .map(|r| RegisterBlock {
                kind: r.kind,
                start: r.start,
                words: (0..r.count)
                    .map(|i| self.word(r.kind, r.start.saturating_add(i)))
                    .collect(),
            })
            .collect()
    }

    /// Writes `value` into the point's registers, keeping bits and skipped bytes it does not
    /// own (read-modify-write, as a device's firmware would lay them out).
    pub fn encode(&mut self, p: &PointDef, value: &Value) -> Result<(), Error> {
        let fail = |reason| Error::Encode {
            key: p.key.clone(),
            reason,
        };
        let kind = p.register_kind().ok_or(fail("unsupported function code"))?;
        let count = p
            .register_count()
            .filter(|c| (1..=MAX_READ_REGISTERS).contains(c))
            .ok_or(fail("bad register count"))?;
        let mut addresses = Vec::with_capacity(count as usize);
        for i in 0..count {
            let a = u16::try_from(p.register_address(i)).map_err(|_| fail("address > 65535"))?;
            addresses.push(a);
        }
        let mut bytes: Vec<u8> = addresses
            .iter()
            .flat_map(|&a| swap(self.word(kind, a), p.byte_swap))
            .collect();
        let skip = usize::try_from(p.skip_bytes).map_err(|_| fail("skip too large"))?;
        let tail = bytes.get_mut(skip..).ok_or(fail("skip too large"))?;
        write_value(p, value, tail).map_err(fail)?;
        for (a, pair) in addresses.iter().zip(bytes.chunks_exact(2)) {
            let word = u16::from_be_bytes([pair[0], pair[1]]);
            self.set_word(kind, *a, u16::from_be_bytes(swap(word, p.byte_swap)));
        }
        Ok(())
    }
}

fn swap(word: u16, byte_swap: bool) -> [u8; 2] {
    let [hi, lo] = word.to_be_bytes();
    if byte_swap { [lo, hi] } else { [hi, lo] }
}

fn write_value(p: &PointDef, value: &Value, out: &mut [u8]) -> Result<(), &'static str> {
    let raw = || -> Result<f64, &'static str> {
        let v = value.as_f64().ok_or("expected a number")?;
        let raw = (v - p.base) / p.scale;
        if raw.is_finite() {
            Ok(raw)
        } else {
            Err("value not finite")
        }
    };
    let int = |min: f64, max: f64| -> Result<i64, &'static str> {
        let r = raw()?.round();
        if (min..=max).contains(&r) {
            Ok(r as i64)
        } else {
            Err("value out of range")
        }
    };
    let placed: Vec<u8> = match p.data_type {
        DataType::U8 => vec![int(0.0, 255.0)? as u8],
        DataType::I8 => (int(-128.0, 127.0)? as i8).to_be_bytes().to_vec(),
        DataType::U16 => (int(0.0, 65535.0)? as u16).to_be_bytes().to_vec(),
        DataType::I16 => (int(-32768.0, 32767.0)? as i16).to_be_bytes().to_vec(),
        DataType::U32 => words(
            (int(0.0, f64::from(u32::MAX))? as u32).to_be_bytes(),
            p.word_swap,
        ),
        DataType::I32 => words(
            (int(f64::from(i32::MIN), f64::from(i32::MAX))? as i32).to_be_bytes(),
            p.word_swap,
        ),
        DataType::F32 => words((raw()? as f32).to_be_bytes(), p.word_swap),
        DataType::String => {
            let Value::Text(s) = value else {
                return Err("expected text");
            };
            if !s.is_ascii() || s.len() > out.len() {
                return Err("text not ASCII or too long");
            }
            let mut v = s.as_bytes().to_vec();
            v.resize(out.len(), 0);
            v
        }
        DataType::Bits { bit, width } => bits(p, value, out, bit.into(), width.into())?,
    };
    out.get_mut(..placed.len())
        .ok_or("value wider than its registers")?
        .copy_from_slice(&placed);
    Ok(())
}

fn words(b: [u8; 4], word_swap: bool) -> Vec<u8> {
    if word_swap {
        vec![b[2], b[3], b[0], b[1]]
    } else {
        b.to_vec()
    }
}

fn bits(
    p: &PointDef,
    value: &Value,
    cur: &[u8],
    bit: u32,
    width: u32,
) -> Result<Vec<u8>, &'static str> {
    let wide = cur.len() >= 4;
    let (container, available) = match cur {
        [a, b, c, d, ..] => (
            u32::from_be_bytes(words_arr([*a, *b, *c, *d], p.word_swap)),
            32,
        ),
        [a, b, ..] => (u32::from(u16::from_be_bytes([*a, *b])), 16),
        _ => return Err("bit field needs a register"),
    };
    if width == 0 || bit + width > available {
        return Err("bits outside the register");
    }
    let field = match value {
        Value::Bool(b) => u64::from(*b),
        other => {
            let v = other.as_f64().ok_or("expected a number")?;
            let raw = ((v - p.base) / p.scale).round();
            if raw < 0.0 || raw >= (1u64 << width) as f64 {
                return Err("value out of range");
            }
            raw as u64
        }
    };
    let mask = ((1u64 << width) - 1) << bit;
    let updated = ((u64::from(container) & !mask) | (field << bit)) as u32;
    Ok(if wide {
        words(updated.to_be_bytes(), p.word_swap)
    } else {
        (updated as u16).to_be_bytes().to_vec()
    })
}

fn words_arr(b: [u8; 4], word_swap: bool) -> [u8; 4] {
    if word_swap {
        [b[2], b[3], b[0], b[1]]
    } else {
        b
    }
}
