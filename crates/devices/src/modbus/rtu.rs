//! Modbus RTU: unit id + PDU + CRC-16 (low byte first).

use super::checksum::crc16;
use super::pdu::{Request, Response};
use crate::error::Error;

pub fn rtu_frame(unit: u8, pdu: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(pdu.len() + 3);
    out.push(unit);
    out.extend_from_slice(pdu);
    out.extend_from_slice(&crc16(&out).to_le_bytes());
    out
}

/// Splits a frame into unit id and PDU after checking the CRC.
pub fn rtu_split(frame: &[u8]) -> Result<(u8, &[u8]), Error> {
    if frame.len() < 4 {
        return Err(Error::FrameTooShort(frame.len()));
    }
    let (body, tail) = frame.split_at(frame.len() - 2);
    let found = u16::from_le_bytes([tail[0], tail[1]]);
    let computed = crc16(body);
    if found != computed {
        return Err(Error::BadCrc { found, computed });
    }
    Ok((body[0], &body[1..]))
}

/// Parses a frame, falling back to the frame without two trailing zero bytes: Deye loggers
/// sometimes append 00 00 after the CRC ("double CRC"). The CRC cannot tell the two readings
/// apart (a valid frame followed by 00 00 still checks, since the CRC of a frame with its CRC
/// is 0), so the full frame is tried first and the PDU's own structure decides.
fn parse_lenient<T>(frame: &[u8], parse: fn(&[u8]) -> Result<T, Error>) -> Result<(u8, T), Error> {
    let full = rtu_split(frame).and_then(|(unit, pdu)| Ok((unit, parse(pdu)?)));
    match (full, frame.strip_suffix(&[0, 0])) {
        (Err(e), Some(trimmed)) => rtu_split(trimmed)
            .and_then(|(unit, pdu)| Ok((unit, parse(pdu)?)))
            .map_err(|_| e),
        (result, _) => result,
    }
}

pub fn read_holding_frame(unit: u8, start: u16, count: u16) -> Result<Vec<u8>, Error> {
    Ok(rtu_frame(
        unit,
        &Request::ReadHolding { start, count }.to_pdu()?,
    ))
}

pub fn read_input_frame(unit: u8, start: u16, count: u16) -> Result<Vec<u8>, Error> {
    Ok(rtu_frame(
        unit,
        &Request::ReadInput { start, count }.to_pdu()?,
    ))
}

pub fn write_single_frame(unit: u8, address: u16, value: u16) -> Result<Vec<u8>, Error> {
    Ok(rtu_frame(
        unit,
        &Request::WriteSingle { address, value }.to_pdu()?,
    ))
}

pub fn write_multiple_frame(unit: u8, start: u16, values: &[u16]) -> Result<Vec<u8>, Error> {
    let request = Request::WriteMultiple {
        start,
        values: values.to_vec(),
    };
    Ok(rtu_frame(unit, &request.to_pdu()?))
}

pub fn parse_rtu_request(frame: &[u8]) -> Result<(u8, Request), Error> {
    parse_lenient(frame, Request::from_pdu)
}

pub fn parse_rtu_response(frame: &[u8]) -> Result<(u8, Response), Error> {
    parse_lenient(frame, Response::from_pdu)
}
