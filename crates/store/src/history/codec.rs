//! The columnar block of one device-day of samples. Samples arrive as JSON object texts of
//! about a hundred values each; a closed day of them becomes one block:
//!
//! - timestamps: the first, then delta-of-delta (regular uploads make those zeros);
//! - per value key, in order of first appearance: which samples hold it (all, or a bitmap),
//!   then the values. A column of plain decimals (`230.1`, `-4`, `0.05`) keeps each as an
//!   integer mantissa and a count of decimals, mantissas as differences from the previous one,
//!   so the number's text comes back exactly. Booleans are bits. Anything else (texts, numbers
//!   with exponents, a key whose values change type) keeps each value's JSON text.
//!
//! Integers are LEB128, signed ones zigzag first; the whole is then deflated. A decoded sample
//! is its values as a JSON object with the keys in the block's column order: the values are
//! those sent, byte for byte for decimals, booleans and texts; spacing and key order are not.

use std::io::{Read, Write};

use flate2::{Compression, read::DeflateDecoder, write::DeflateEncoder};
use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

/// First byte of every block: the layout of what follows.
const FORMAT: u8 = 1;
/// Most digits a decimal mantissa keeps (an `i64` holds 18 decimal digits whatever they are).
const MAX_DIGITS: usize = 18;

#[derive(Debug, thiserror::Error)]
pub enum CodecError {
    #[error("sample values are not a JSON object: {0}")]
    Values(String),
    #[error("block is damaged: {0}")]
    Damaged(&'static str),
    #[error("block format {0} is unknown")]
    Format(u8),
}

/// One sample as stored in rows: when, and its values as a JSON object text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    pub ts: i64,
    pub payload: String,
}

/// A value as it sits in a column.
#[derive(Debug, Clone, PartialEq)]
enum Cell {
    /// `mantissa / 10^scale`, written with exactly `scale` decimals.
    Decimal {
        mantissa: i64,
        scale: u8,
    },
    Bool(bool),
    /// Any other JSON value, as its text.
    Raw(String),
}

impl Cell {
    fn of(raw: &str) -> Cell {
        match raw {
            "true" => Cell::Bool(true),
            "false" => Cell::Bool(false),
            _ => decimal(raw).unwrap_or_else(|| Cell::Raw(raw.to_string())),
        }
    }

    fn write_json(&self, out: &mut String) {
        match self {
            Cell::Decimal { mantissa, scale } => write_decimal(*mantissa, *scale, out),
            Cell::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Cell::Raw(s) => out.push_str(s),
        }
    }
}

/// A JSON number without exponent whose text a mantissa and a count of decimals give back
/// exactly: `-?digits(.digits)?`, at most [`MAX_DIGITS`] digits, and not `-0`.
fn decimal(raw: &str) -> Option<Cell> {
    let (negative, body) = match raw.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, raw),
    };
    let (int, frac) = match body.split_once('.') {
        Some((i, f)) => (i, f),
        None => (body, ""),
    };
    let digits_ok = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty()
        || !digits_ok(int)
        || !digits_ok(frac)
        || (body.contains('.') && frac.is_empty())
        || (int.len() > 1 && int.starts_with('0'))
        || int.len() + frac.len() > MAX_DIGITS
    {
        return None;
    }
    let mut mantissa: i64 = 0;
    for b in int.bytes().chain(frac.bytes()) {
        mantissa = mantissa * 10 + i64::from(b - b'0');
    }
    if negative {
        if mantissa == 0 {
            return None;
        }
        mantissa = -mantissa;
    }
    // An integer part of "0" with decimals ("0.05") comes back from the mantissa alone, so a
    // leading zero is only kept when there are no decimals ("0").
    let scale = u8::try_from(frac.len()).ok()?;
    Some(Cell::Decimal { mantissa, scale })
}

fn write_decimal(mantissa: i64, scale: u8, out: &mut String) {
    let digits = mantissa.unsigned_abs().to_string();
    if mantissa < 0 {
        out.push('-');
    }
    let scale = usize::from(scale);
    if scale == 0 {
        out.push_str(&digits);
        return;
    }
    if digits.len() <= scale {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', scale - digits.len()));
        out.push_str(&digits);
    } else {
        let (int, frac) = digits.split_at(digits.len() - scale);
        out.push_str(int);
        out.push('.');
        out.push_str(frac);
    }
}

/// The values of one JSON object text, in order, a repeated key keeping its last value.
fn entries(payload: &str) -> Result<Vec<(String, Cell)>, CodecError> {
    struct Entries;
    impl<'de> Visitor<'de> for Entries {
        type Value = Vec<(String, Cell)>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out: Vec<(String, Cell)> = Vec::new();
            while let Some((key, value)) = map.next_entry::<String, &RawValue>()? {
                let cell = Cell::of(value.get());
                match out.iter_mut().find(|(k, _)| *k == key) {
                    Some(slot) => slot.1 = cell,
                    None => out.push((key, cell)),
                }
            }
            Ok(out)
        }
    }
    let mut de = serde_json::Deserializer::from_str(payload);
    de.deserialize_map(Entries)
        .and_then(|v| de.end().map(|()| v))
        .map_err(|e| CodecError::Values(e.to_string()))
}

/// A block made by [`encode`], with what it holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub data: Vec<u8>,
    pub samples: usize,
    /// Values over all samples (data points).
    pub points: usize,
    /// First and last timestamp (0 when empty).
    pub first_ts: i64,
    pub last_ts: i64,
}

/// Samples (any order) as one block. Of two samples with one timestamp the first given is
/// kept, as the samples table keeps the first report of a timestamp.
pub fn encode(samples: &[Sample]) -> Result<Block, CodecError> {
    let mut sorted: Vec<&Sample> = samples.iter().collect();
    sorted.sort_by_key(|s| s.ts);
    sorted.dedup_by_key(|s| s.ts);
    let n = sorted.len();

    let mut keys: Vec<String> = Vec::new();
    let mut columns: Vec<Vec<Option<Cell>>> = Vec::new();
    let mut points = 0;
    for (i, s) in sorted.iter().enumerate() {
        let values = entries(&s.payload)?;
        points += values.len();
        for (key, cell) in values {
            let c = match keys.iter().position(|k| *k == key) {
                Some(c) => c,
                None => {
                    keys.push(key);
                    columns.push(vec![None; n]);
                    keys.len() - 1
                }
            };
            columns[c][i] = Some(cell);
        }
    }

    let mut out = Vec::new();
    put_u(&mut out, n as u64);
    let mut prev_ts = 0i64;
    let mut prev_delta = 0i64;
    for (i, s) in sorted.iter().enumerate() {
        if i == 0 {
            put_i(&mut out, s.ts);
        } else {
            let delta = s.ts - prev_ts;
            put_i(&mut out, delta - prev_delta);
            prev_delta = delta;
        }
        prev_ts = s.ts;
    }
    put_u(&mut out, keys.len() as u64);
    for (key, column) in keys.iter().zip(&columns) {
        put_u(&mut out, key.len() as u64);
        out.extend_from_slice(key.as_bytes());
        put_column(&mut out, column);
    }

    let mut block = vec![FORMAT];
    let mut z = DeflateEncoder::new(&mut block, Compression::best());
    z.write_all(&out)
        .and_then(|()| z.finish().map(drop))
        .map_err(|_| CodecError::Damaged("deflate"))?;
    Ok(Block {
        data: block,
        samples: n,
        points,
        first_ts: sorted.first().map_or(0, |s| s.ts),
        last_ts: sorted.last().map_or(0, |s| s.ts),
    })
}

const ALL_PRESENT: u8 = 1;
const SOME_PRESENT: u8 = 0;
const KIND_DECIMAL: u8 = 0;
const KIND_BOOL: u8 = 1;
const KIND_RAW: u8 = 2;
const ONE_SCALE: u8 = 0;
const EACH_SCALE: u8 = 1;

fn put_column(out: &mut Vec<u8>, column: &[Option<Cell>]) {
    let present: Vec<&Cell> = column.iter().flatten().collect();
    if present.len() == column.len() {
        out.push(ALL_PRESENT);
    } else {
        out.push(SOME_PRESENT);
        let mut bits = vec![0u8; column.len().div_ceil(8)];
        for (i, c) in column.iter().enumerate() {
            if c.is_some() {
                bits[i / 8] |= 1 << (i % 8);
            }
        }
        out.extend_from_slice(&bits);
    }
    if present.iter().all(|c| matches!(c, Cell::Decimal { .. })) {
        out.push(KIND_DECIMAL);
        let scales: Vec<u8> = present
            .iter()
            .map(|c| match c {
                Cell::Decimal { scale, .. } => *scale,
                _ => 0,
            })
            .collect();
        if scales.windows(2).all(|w| w[0] == w[1]) {
            out.push(ONE_SCALE);
            out.push(scales.first().copied().unwrap_or(0));
        } else {
            out.push(EACH_SCALE);
            out.extend_from_slice(&scales);
        }
        let mut prev = 0i64;
        for c in &present {
            if let Cell::Decimal { mantissa, .. } = c {
                put_i(out, mantissa.wrapping_sub(prev));
                prev = *mantissa;
            }
        }
    } else if present.iter().all(|c| matches!(c, Cell::Bool(_))) {
        out.push(KIND_BOOL);
        let mut bits = vec![0u8; present.len().div_ceil(8)];
        for (i, c) in present.iter().enumerate() {
            if matches!(c, Cell::Bool(true)) {
                bits[i / 8] |= 1 << (i % 8);
            }
        }
        out.extend_from_slice(&bits);
    } else {
        out.push(KIND_RAW);
        for c in &present {
            let mut text = String::new();
            c.write_json(&mut text);
            put_u(out, text.len() as u64);
            out.extend_from_slice(text.as_bytes());
        }
    }
}

/// A block back as samples, oldest first.
pub fn decode(block: &[u8]) -> Result<Vec<Sample>, CodecError> {
    let (&format, deflated) = block.split_first().ok_or(CodecError::Damaged("empty"))?;
    if format != FORMAT {
        return Err(CodecError::Format(format));
    }
    let mut raw = Vec::new();
    DeflateDecoder::new(deflated)
        .read_to_end(&mut raw)
        .map_err(|_| CodecError::Damaged("deflate"))?;
    let mut r = Reader { buf: &raw, at: 0 };

    let n = r.len()?;
    let mut ts = Vec::with_capacity(n);
    let mut delta = 0i64;
    for i in 0..n {
        if i == 0 {
            ts.push(r.i()?);
        } else {
            delta = delta.wrapping_add(r.i()?);
            ts.push(ts[i - 1].wrapping_add(delta));
        }
    }
    let mut payloads: Vec<String> = vec![String::from("{"); n];
    for _ in 0..r.len()? {
        let key_len = r.len()?;
        let key = std::str::from_utf8(r.take(key_len)?).map_err(|_| CodecError::Damaged("key"))?;
        let prefix = format!("{}:", serde_json::Value::String(key.to_string()));
        let rows = r.presence(n)?;
        let cells = r.cells(rows.len())?;
        for (row, cell) in rows.into_iter().zip(cells) {
            let p = &mut payloads[row];
            if p.len() > 1 {
                p.push(',');
            }
            p.push_str(&prefix);
            cell.write_json(p);
        }
    }
    Ok(ts
        .into_iter()
        .zip(payloads)
        .map(|(ts, mut payload)| {
            payload.push('}');
            Sample { ts, payload }
        })
        .collect())
}

struct Reader<'a> {
    buf: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn byte(&mut self) -> Result<u8, CodecError> {
        let b = *self.buf.get(self.at).ok_or(CodecError::Damaged("short"))?;
        self.at += 1;
        Ok(b)
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], CodecError> {
        let end = self
            .at
            .checked_add(n)
            .ok_or(CodecError::Damaged("length"))?;
        let s = self
            .buf
            .get(self.at..end)
            .ok_or(CodecError::Damaged("short"))?;
        self.at = end;
        Ok(s)
    }

    fn u(&mut self) -> Result<u64, CodecError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(CodecError::Damaged("varint"))
    }

    fn i(&mut self) -> Result<i64, CodecError> {
        let z = self.u()?;
        Ok(((z >> 1) as i64) ^ -((z & 1) as i64))
    }

    /// A count, bounded by what is left (each counted thing takes at least a bit).
    fn len(&mut self) -> Result<usize, CodecError> {
        let v = usize::try_from(self.u()?).map_err(|_| CodecError::Damaged("length"))?;
        if v > (self.buf.len() - self.at).saturating_mul(8).max(1 << 20) {
            return Err(CodecError::Damaged("length"));
        }
        Ok(v)
    }

    /// The samples (by index) that hold the column.
    fn presence(&mut self, n: usize) -> Result<Vec<usize>, CodecError> {
        match self.byte()? {
            ALL_PRESENT => Ok((0..n).collect()),
            SOME_PRESENT => {
                let bits = self.take(n.div_ceil(8))?;
                Ok((0..n)
                    .filter(|i| bits[i / 8] & (1 << (i % 8)) != 0)
                    .collect())
            }
            _ => Err(CodecError::Damaged("presence")),
        }
    }

    fn cells(&mut self, count: usize) -> Result<Vec<Cell>, CodecError> {
        match self.byte()? {
            KIND_DECIMAL => {
                let scales: Vec<u8> = match self.byte()? {
                    ONE_SCALE => vec![self.byte()?; count],
                    EACH_SCALE => self.take(count)?.to_vec(),
                    _ => return Err(CodecError::Damaged("scale")),
                };
                let mut prev = 0i64;
                scales
                    .into_iter()
                    .map(|scale| {
                        prev = prev.wrapping_add(self.i()?);
                        Ok(Cell::Decimal {
                            mantissa: prev,
                            scale,
                        })
                    })
                    .collect()
            }
            KIND_BOOL => {
                let bits = self.take(count.div_ceil(8))?;
                Ok((0..count)
                    .map(|i| Cell::Bool(bits[i / 8] & (1 << (i % 8)) != 0))
                    .collect())
            }
            KIND_RAW => (0..count)
                .map(|_| {
                    let len = self.len()?;
                    let text = std::str::from_utf8(self.take(len)?)
                        .map_err(|_| CodecError::Damaged("text"))?;
                    Ok(Cell::Raw(text.to_string()))
                })
                .collect(),
            _ => Err(CodecError::Damaged("kind")),
        }
    }
}

fn put_u(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn put_i(out: &mut Vec<u8>, v: i64) {
    put_u(out, ((v << 1) ^ (v >> 63)) as u64);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(ts: i64, payload: &str) -> Sample {
        Sample {
            ts,
            payload: payload.into(),
        }
    }

    fn values(payload: &str) -> serde_json::Value {
        serde_json::from_str(payload).unwrap_or_default()
    }

    #[test]
    fn decimals_come_back_as_the_same_text() {
        for text in [
            "0",
            "7",
            "-7",
            "230.1",
            "0.05",
            "-0.5",
            "1.50",
            "12345678.123456789",
            "100",
        ] {
            let mut out = String::new();
            match decimal(text) {
                Some(cell) => cell.write_json(&mut out),
                None => panic!("{text} is a plain decimal"),
            }
            assert_eq!(out, text);
        }
        for text in [
            "-0",
            "1e3",
            "1.5E-2",
            "01",
            "1.",
            ".5",
            "1234567890123456789",
        ] {
            assert!(decimal(text).is_none(), "{text}");
        }
    }

    #[test]
    fn a_day_of_samples_comes_back_with_the_same_values() -> Result<(), CodecError> {
        let samples = vec![
            sample(
                1_000,
                r#"{"p":230.1,"on":true,"mode":"grid","e":1e3,"x":1}"#,
            ),
            sample(
                301_000,
                r#"{"p":230.4, "on":false,"mode":"off-grid","x":"a\"b"}"#,
            ),
            sample(601_002, r#"{"p":229.95,"late":-0,"p":231}"#),
            sample(901_002, r#"{}"#),
        ];
        let back = decode(&encode(&samples)?.data)?;
        assert_eq!(back.len(), samples.len());
        for (a, b) in samples.iter().zip(&back) {
            assert_eq!(a.ts, b.ts);
            assert_eq!(values(&a.payload), values(&b.payload), "{}", b.payload);
        }
        assert_eq!(back[2].payload, r#"{"p":231,"late":-0}"#);
        Ok(())
    }

    #[test]
    fn samples_are_ordered_and_a_repeated_timestamp_kept_once() -> Result<(), CodecError> {
        let block = encode(&[
            sample(5, r#"{"a":2}"#),
            sample(1, r#"{"a":1}"#),
            sample(5, r#"{"a":3}"#),
        ])?;
        assert_eq!((block.samples, block.points), (2, 2));
        assert_eq!((block.first_ts, block.last_ts), (1, 5));
        let back = decode(&block.data)?;
        assert_eq!(back, vec![sample(1, r#"{"a":1}"#), sample(5, r#"{"a":2}"#)]);
        Ok(())
    }

    #[test]
    fn regular_uploads_of_slow_values_take_well_under_two_bytes_a_value() -> Result<(), CodecError>
    {
        let samples: Vec<Sample> = (0..288)
            .map(|i| {
                let values: Vec<String> = (0..100)
                    .map(|k| {
                        format!(
                            "\"v{k}\":{:.1}",
                            200.0 + f64::from((i * (k + 1)) % 50) / 10.0
                        )
                    })
                    .collect();
                sample(i64::from(i) * 300_000, &format!("{{{}}}", values.join(",")))
            })
            .collect();
        let block = encode(&samples)?;
        assert_eq!(block.points, 28_800);
        let per_point = block.data.len() as f64 / 28_800.0;
        assert!(per_point < 2.0, "{per_point} bytes a value");
        Ok(())
    }

    #[test]
    fn noisy_measurements_stay_under_two_bytes_a_value() -> Result<(), CodecError> {
        // Sensor noise on every value: a random walk per key, half of them powers in whole
        // watts moving up to 60 W a report, half voltages and currents with one or two
        // decimals moving a few tenths. Nothing repeats, unlike the simulator's smooth curves.
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |range: i64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((seed >> 33) as i64).rem_euclid(2 * range + 1) - range
        };
        let mut level: Vec<i64> = (0..100).map(|k| 2300 + k * 7).collect();
        let samples: Vec<Sample> = (0..288)
            .map(|i| {
                let values: Vec<String> = level
                    .iter_mut()
                    .enumerate()
                    .map(|(k, v)| match k % 3 {
                        0 => {
                            *v += next(60);
                            format!("\"p{k}\":{}", *v)
                        }
                        1 => {
                            *v += next(3);
                            format!("\"u{k}\":{:.1}", *v as f64 / 10.0)
                        }
                        _ => {
                            *v += next(5);
                            format!("\"i{k}\":{:.2}", *v as f64 / 100.0)
                        }
                    })
                    .collect();
                sample(i64::from(i) * 300_000, &format!("{{{}}}", values.join(",")))
            })
            .collect();
        let block = encode(&samples)?;
        let per_point = block.data.len() as f64 / block.points as f64;
        assert!(per_point < 2.0, "{per_point} bytes a value");
        Ok(())
    }

    #[test]
    fn damaged_blocks_are_errors_not_panics() {
        assert!(decode(&[]).is_err());
        assert!(matches!(decode(&[9, 1, 2]), Err(CodecError::Format(9))));
        assert!(decode(&[FORMAT, 1, 2, 3]).is_err());
        if let Ok(block) = encode(&[sample(1, r#"{"a":1.5,"b":"x"}"#)]) {
            for cut in 1..block.data.len() {
                let _ = decode(&block.data[..cut]);
            }
        }
    }

    #[test]
    fn what_is_not_an_object_is_refused() {
        assert!(encode(&[sample(1, "[1,2]")]).is_err());
        assert!(encode(&[sample(1, "{\"a\":1} x")]).is_err());
    }
}
