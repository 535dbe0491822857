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

/// Splits a frame into unit id and PDU after checking the CRC. Deye loggers sometimes append
/// two zero bytes after the CRC ("double CRC"); such a frame is accepted without them.
pub fn rtu_split(frame: &[u8]) -> Result<(u8, &[u8]), Error> {
    match check(frame) {
        Err(Error::BadCrc { .. }) if frame.len() > 6 && frame.ends_with(&[0, 0]) => {
            check(&frame[..frame.len() - 2]).or_else(|_| check(frame))
        }
        other => other,
    }
}

fn check(frame: &[u8]) -> Result<(u8, &[u8]), Error> {
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
    let (unit, pdu) = rtu_split(frame)?;
    Ok((unit, Request::from_pdu(pdu)?))
}

pub fn parse_rtu_response(frame: &[u8]) -> Result<(u8, Response), Error> {
    let (unit, pdu) = rtu_split(frame)?;
    Ok((unit, Response::from_pdu(pdu)?))
}
