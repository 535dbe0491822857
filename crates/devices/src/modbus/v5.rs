//! Solarman V5: the frame the Wi-Fi/Ethernet data-logger sticks speak on their LAN port (TCP
//! 8899). It wraps a Modbus RTU frame with the stick's serial number, so a client must know the
//! serial printed on the stick. Layout (little-endian fields):
//!
//! `A5 | length (2) | control (2) | sequence (2) | logger serial (4) | payload | checksum | 15`
//!
//! where length counts the payload and the checksum is the low byte of the sum of every byte
//! between the start and the checksum. A request's payload is frame type 02, sensor type (2),
//! three 4-byte times and the RTU frame; a response's is 02, a status byte, three times and the
//! RTU frame. The stick echoes the request's first sequence byte in the response.

use crate::error::Error;

pub const V5_START: u8 = 0xA5;
pub const V5_END: u8 = 0x15;
/// Control code of a request to the stick, and of its answer.
pub const V5_REQUEST: u16 = 0x4510;
pub const V5_RESPONSE: u16 = 0x1510;
/// Header bytes before the payload, and the two after it.
pub const V5_HEADER_LEN: usize = 11;
const TRAILER_LEN: usize = 2;
/// Payload bytes before the RTU frame in a request and in a response.
const REQUEST_PREFIX: usize = 15;
const RESPONSE_PREFIX: usize = 14;
/// The largest payload a frame may announce: the prefix and a 256-byte RTU frame, with room
/// to spare. Anything larger is refused before it is buffered.
pub const V5_MAX_PAYLOAD: usize = 512;
const FRAME_TYPE_INVERTER: u8 = 0x02;

/// One frame, its payload borrowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct V5Frame<'a> {
    pub control: u16,
    pub sequence: u16,
    pub logger: u32,
    pub payload: &'a [u8],
}

fn checksum(bytes: &[u8]) -> u8 {
    bytes.iter().fold(0u8, |sum, b| sum.wrapping_add(*b))
}

pub fn v5_frame(control: u16, sequence: u16, logger: u32, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(V5_HEADER_LEN + payload.len() + TRAILER_LEN);
    out.push(V5_START);
    out.extend_from_slice(&(payload.len().min(usize::from(u16::MAX)) as u16).to_le_bytes());
    out.extend_from_slice(&control.to_le_bytes());
    out.extend_from_slice(&sequence.to_le_bytes());
    out.extend_from_slice(&logger.to_le_bytes());
    out.extend_from_slice(payload);
    out.push(checksum(&out[1..]));
    out.push(V5_END);
    out
}

/// A request to the stick carrying an RTU frame.
pub fn v5_request(sequence: u16, logger: u32, rtu: &[u8]) -> Vec<u8> {
    let mut payload = vec![0u8; REQUEST_PREFIX];
    payload[0] = FRAME_TYPE_INVERTER;
    payload.extend_from_slice(rtu);
    v5_frame(V5_REQUEST, sequence, logger, &payload)
}

/// The stick's answer carrying the device's RTU reply.
pub fn v5_response(sequence: u16, logger: u32, rtu: &[u8]) -> Vec<u8> {
    let mut payload = vec![0u8; RESPONSE_PREFIX];
    payload[0] = FRAME_TYPE_INVERTER;
    payload[1] = 0x01;
    payload.extend_from_slice(rtu);
    v5_frame(V5_RESPONSE, sequence, logger, &payload)
}

/// The whole frame's length from its first 3 bytes, refused when it announces too much.
pub fn v5_frame_len(head: &[u8]) -> Result<usize, Error> {
    let [start, l0, l1, ..] = head else {
        return Err(Error::FrameTooShort(head.len()));
    };
    if *start != V5_START {
        return Err(Error::BadFrame("V5 frame does not start with A5"));
    }
    let payload = usize::from(u16::from_le_bytes([*l0, *l1]));
    if payload > V5_MAX_PAYLOAD {
        return Err(Error::BadFrame("V5 payload longer than 512 bytes"));
    }
    Ok(V5_HEADER_LEN + payload + TRAILER_LEN)
}

/// Checks a whole frame (start, length, checksum, end) and splits it.
pub fn v5_split(frame: &[u8]) -> Result<V5Frame<'_>, Error> {
    let expected = v5_frame_len(frame)?;
    if frame.len() != expected {
        return Err(Error::BadFrame("V5 length does not match the frame"));
    }
    let body = &frame[1..expected - TRAILER_LEN];
    if frame[expected - 1] != V5_END {
        return Err(Error::BadFrame("V5 frame does not end with 15"));
    }
    if checksum(body) != frame[expected - 2] {
        return Err(Error::BadFrame("V5 checksum does not match"));
    }
    let le16 = |i: usize| u16::from_le_bytes([frame[i], frame[i + 1]]);
    Ok(V5Frame {
        control: le16(3),
        sequence: le16(5),
        logger: u32::from_le_bytes([frame[7], frame[8], frame[9], frame[10]]),
        payload: &frame[V5_HEADER_LEN..expected - TRAILER_LEN],
    })
}

/// The RTU frame inside a request's payload.
pub fn v5_request_rtu(payload: &[u8]) -> Result<&[u8], Error> {
    rtu_after(payload, REQUEST_PREFIX)
}

/// The RTU frame inside a response's payload.
pub fn v5_response_rtu(payload: &[u8]) -> Result<&[u8], Error> {
    rtu_after(payload, RESPONSE_PREFIX)
}

fn rtu_after(payload: &[u8], prefix: usize) -> Result<&[u8], Error> {
    match payload.split_at_checked(prefix) {
        Some((head, rtu)) if head[0] == FRAME_TYPE_INVERTER && rtu.len() >= 4 => Ok(rtu),
        Some(_) => Err(Error::BadFrame(
            "V5 payload is not an inverter frame with an RTU frame",
        )),
        None => Err(Error::FrameTooShort(payload.len())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modbus::read_holding_frame;

    #[test]
    fn request_matches_a_published_capture() {
        // A read of one holding register through logger 2612749371.
        let rtu = read_holding_frame(1, 0x20, 1).expect("rtu");
        let f = v5_request(0x0001, 2_612_749_371, &rtu);
        assert_eq!(f[0], V5_START);
        assert_eq!(&f[1..3], &[23, 0], "15-byte prefix + 8-byte RTU frame");
        assert_eq!(&f[3..5], &[0x10, 0x45]);
        assert_eq!(&f[7..11], &2_612_749_371u32.to_le_bytes());
        let split = v5_split(&f).expect("split");
        assert_eq!(split.control, V5_REQUEST);
        assert_eq!(v5_request_rtu(split.payload).ok(), Some(&rtu[..]));
    }

    #[test]
    fn response_round_trips_and_damage_is_refused() {
        let rtu = [1, 3, 2, 0, 42, 0x38, 0x5B];
        let f = v5_response(0x0107, 99, &rtu);
        let split = v5_split(&f).expect("split");
        assert_eq!(
            (split.control, split.sequence, split.logger),
            (V5_RESPONSE, 0x0107, 99)
        );
        assert_eq!(v5_response_rtu(split.payload).ok(), Some(&rtu[..]));
        let mut bad = f.clone();
        bad[12] ^= 1;
        assert!(v5_split(&bad).is_err(), "checksum");
        assert!(v5_split(&f[..f.len() - 1]).is_err(), "short");
        assert!(
            v5_frame_len(&[0xA5, 0xFF, 0xFF]).is_err(),
            "announces 65535 bytes"
        );
        assert!(v5_frame_len(&[0x5A, 0, 0]).is_err(), "start byte");
    }
}
