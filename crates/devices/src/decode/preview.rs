//! Previewing a protocol config against a captured frame: the frame becomes one register block
//! and is decoded with the same `decode` ingest uses, so the preview shows exactly what ingest
//! would store.
//!
//! A frame is either a Modbus RTU response to function 3 or 4 (unit id, function, byte count,
//! data, CRC-16 low byte first) or the bare register data (two bytes per register, high byte
//! first, as the response's data field carries it). It is read as RTU when its second byte is
//! 3 or 4 and its third byte is the length of the data that follows (frame length - 5); an RTU
//! frame's CRC must then check. Anything else is bare register data.

use super::{RegisterBlock, decode, lookup, plan_reads};
use crate::modbus::{Response, parse_hex, rtu_split, to_hex};
use crate::protocol::{MAX_READ_REGISTERS, PointDef, ProtocolConfig, RegisterType};

/// How a frame was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameFormat {
    Rtu,
    Registers,
}

/// One point's preview: its value (`None` when the frame does not hold all its registers or it
/// cannot be decoded) and its registers' bytes as they were in the frame.
#[derive(Debug, Clone, PartialEq)]
pub struct PointPreview<'a> {
    pub point: &'a PointDef,
    pub value: Option<super::Value>,
    /// Spaced hex of the registers found; empty when none is in the frame.
    pub raw: String,
    pub missing: bool,
    pub invalid: bool,
    /// The value lies outside the point's valid range: shown here, dropped at ingest.
    pub out_of_range: bool,
}

/// The frame's register block: `start` is where the data begins (the config's first read of
/// that register kind when `None`); the kind is the RTU function's, or for bare data that of
/// the config's read holding `start` (else its first read).
pub fn frame_block(
    config: &ProtocolConfig,
    text: &str,
    start: Option<u16>,
) -> Result<(RegisterBlock, FrameFormat), String> {
    let bytes = parse_hex(text).map_err(|_| "frame: not an even run of hex digits".to_string())?;
    if bytes.is_empty() {
        return Err("frame: empty".into());
    }
    let plan = plan_reads(config, MAX_READ_REGISTERS as u16, 0);
    let looks_rtu =
        bytes.len() >= 5 && matches!(bytes[1], 3 | 4) && usize::from(bytes[2]) == bytes.len() - 5;
    let (kind, words, format) = if looks_rtu {
        let (_, pdu) = rtu_split(&bytes).map_err(|e| format!("frame: {e}"))?;
        match Response::from_pdu(pdu).map_err(|e| format!("frame: {e}"))? {
            Response::Registers { function, values } => {
                let kind = RegisterType::from_function_code(function)
                    .ok_or("frame: not a register read")?;
                (kind, values, FrameFormat::Rtu)
            }
            _ => return Err("frame: not a register read".into()),
        }
    } else {
        if bytes.len() % 2 != 0 {
            return Err("frame: register data needs two bytes per register".into());
        }
        let kind = start
            .and_then(|s| {
                plan.iter()
                    .find(|r| (r.start..r.start.saturating_add(r.count)).contains(&s))
            })
            .or(plan.first())
            .map_or(RegisterType::Holding, |r| r.kind);
        let words = bytes
            .chunks_exact(2)
            .map(|p| u16::from_be_bytes([p[0], p[1]]))
            .collect();
        (kind, words, FrameFormat::Registers)
    };
    let start = start
        .or_else(|| plan.iter().find(|r| r.kind == kind).map(|r| r.start))
        .unwrap_or(0);
    if usize::from(start) + words.len() > usize::from(u16::MAX) + 1 {
        return Err("frame: runs past register 65535".into());
    }
    Ok((RegisterBlock { kind, start, words }, format))
}

/// Every point of `config` decoded from `blocks`, in the config's order.
pub fn preview<'a>(config: &'a ProtocolConfig, blocks: &[RegisterBlock]) -> Vec<PointPreview<'a>> {
    let decoded = decode(config, blocks);
    config
        .points
        .iter()
        .map(|p| {
            let key = p.key.as_str();
            let words: Vec<u16> = match (p.register_kind(), p.register_count()) {
                (Some(kind), Some(count)) if count <= MAX_READ_REGISTERS => (0..count)
                    .filter_map(|i| lookup(blocks, kind, p.register_address(i)))
                    .collect(),
                _ => Vec::new(),
            };
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_be_bytes()).collect();
            let outside = decoded.out_of_range.iter().find(|(k, _)| *k == key);
            PointPreview {
                point: p,
                value: decoded
                    .get(key)
                    .cloned()
                    .or(outside.map(|(_, n)| super::Value::Number(*n))),
                raw: to_hex(&bytes),
                missing: decoded.missing.contains(&key),
                invalid: decoded.invalid.contains(&key),
                out_of_range: outside.is_some(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modbus::rtu_frame;
    use crate::protocol::{DataType, DeviceFamily};

    fn config() -> ProtocolConfig {
        let mut volts = PointDef::new("grid_voltage", 100, DataType::U16);
        volts.scale = 0.1;
        volts.unit = "V".into();
        let mut power = PointDef::new("power", 101, DataType::I32);
        power.unit = "W".into();
        let far = PointDef::new("far", 300, DataType::U16);
        ProtocolConfig {
            code: "t".into(),
            name: "t".into(),
            family: DeviceFamily::Inverter,
            inverter_type: None,
            version: 1,
            unit_id: 1,
            notes: String::new(),
            points: vec![volts, power, far],
            settings: Vec::new(),
        }
    }

    #[test]
    fn an_rtu_response_decodes_from_the_configs_first_read() {
        // 230.5 V, then -1200 W as a 32-bit signed value.
        let pdu = [3, 6, 0x09, 0x01, 0xFF, 0xFF, 0xFB, 0x50];
        let frame = to_hex(&rtu_frame(1, &pdu));
        let c = config();
        let (block, format) = frame_block(&c, &frame, None).expect("frame");
        assert_eq!(
            (format, block.start, block.words.len()),
            (FrameFormat::Rtu, 100, 3)
        );
        let values = preview(&c, &[block]);
        assert_eq!(values[0].value, Some(super::super::Value::Number(230.5)));
        assert_eq!(values[0].raw, "09 01");
        assert_eq!(values[1].value, Some(super::super::Value::Number(-1200.0)));
        assert!(values[2].missing && values[2].raw.is_empty());
    }

    #[test]
    fn a_bad_crc_is_refused_and_bare_data_starts_where_asked() {
        let c = config();
        let err = frame_block(&c, "01 03 02 09 01 00 00", None).unwrap_err();
        assert!(err.contains("CRC"), "{err}");
        let (block, format) = frame_block(&c, "0x00 0x2A", Some(300)).expect("frame");
        assert_eq!((format, block.start), (FrameFormat::Registers, 300));
        assert_eq!(
            preview(&c, &[block])[2].value,
            Some(super::super::Value::Number(42.0))
        );
        assert!(frame_block(&c, "012", None).is_err());
    }
}
