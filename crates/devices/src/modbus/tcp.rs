//! Modbus TCP: the MBAP header (transaction id, protocol 0, length, unit id) before the PDU.

use crate::error::Error;

/// Bytes of the MBAP header, unit id included.
pub const MBAP_LEN: usize = 7;
/// Largest MBAP length field: the unit id and a 253-byte PDU.
const MAX_LENGTH: usize = 254;

pub fn tcp_frame(transaction: u16, unit: u8, pdu: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(MBAP_LEN + pdu.len());
    out.extend_from_slice(&transaction.to_be_bytes());
    out.extend_from_slice(&[0, 0]);
    // A PDU is at most 253 bytes; a longer one is the caller's bug and is refused by the peer.
    out.extend_from_slice(&((pdu.len() + 1).min(usize::from(u16::MAX)) as u16).to_be_bytes());
    out.push(unit);
    out.extend_from_slice(pdu);
    out
}

/// The whole frame's length from its first [`MBAP_LEN`] bytes, so a reader knows how much
/// more to take from the stream; an impossible header is refused before anything is buffered.
pub fn tcp_frame_len(header: &[u8]) -> Result<usize, Error> {
    let [_, _, p0, p1, l0, l1, ..] = header else {
        return Err(Error::FrameTooShort(header.len()));
    };
    if [*p0, *p1] != [0, 0] {
        return Err(Error::BadFrame("MBAP protocol id is not 0"));
    }
    let length = usize::from(u16::from_be_bytes([*l0, *l1]));
    if !(2..=MAX_LENGTH).contains(&length) {
        return Err(Error::BadFrame("MBAP length outside 2..=254"));
    }
    Ok(6 + length)
}

/// Splits a whole frame into transaction id, unit id and PDU.
pub fn tcp_split(frame: &[u8]) -> Result<(u16, u8, &[u8]), Error> {
    let expected = tcp_frame_len(frame)?;
    if frame.len() != expected {
        return Err(Error::BadFrame("MBAP length does not match the frame"));
    }
    Ok((
        u16::from_be_bytes([frame[0], frame[1]]),
        frame[6],
        &frame[MBAP_LEN..],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip() {
        let f = tcp_frame(0x1234, 1, &[3, 0, 0, 0, 10]);
        assert_eq!(f, [0x12, 0x34, 0, 0, 0, 6, 1, 3, 0, 0, 0, 10]);
        assert_eq!(tcp_frame_len(&f[..7]).ok(), Some(12));
        assert_eq!(
            tcp_split(&f).ok(),
            Some((0x1234, 1, &[3u8, 0, 0, 0, 10][..]))
        );
        assert!(
            tcp_frame_len(&[0, 1, 0, 1, 0, 6, 1]).is_err(),
            "protocol id"
        );
        assert!(tcp_frame_len(&[0, 1, 0, 0, 1, 0, 1]).is_err(), "length 256");
        assert!(tcp_split(&f[..11]).is_err());
    }
}
