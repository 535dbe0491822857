//! Modbus ASCII: `:` + hex(unit, PDU, LRC) + CR LF.

use super::checksum::{hex_bytes, lrc};
use crate::error::Error;

pub fn ascii_frame(unit: u8, pdu: &[u8]) -> String {
    let mut body = Vec::with_capacity(pdu.len() + 2);
    body.push(unit);
    body.extend_from_slice(pdu);
    body.push(lrc(&body));
    let mut out = String::with_capacity(body.len() * 2 + 3);
    out.push(':');
    for b in body {
        out.push_str(&format!("{b:02X}"));
    }
    out.push_str("\r\n");
    out
}

/// Splits an ASCII frame into unit and PDU after checking the LRC. The trailing CR LF is
/// optional because a person pasting a frame into the toolbox rarely types it.
pub fn ascii_split(frame: &[u8]) -> Result<(u8, Vec<u8>), Error> {
    let body = frame
        .strip_prefix(b":")
        .ok_or(Error::BadAscii("missing leading ':'"))?;
    let body = body.strip_suffix(b"\r\n").unwrap_or(body);
    let bytes = hex_bytes(body).ok_or(Error::BadAscii("not an even run of hex digits"))?;
    let Some((&found, rest)) = bytes.split_last() else {
        return Err(Error::FrameTooShort(0));
    };
    if rest.len() < 2 {
        return Err(Error::FrameTooShort(bytes.len()));
    }
    let computed = lrc(rest);
    if computed != found {
        return Err(Error::BadLrc { found, computed });
    }
    Ok((rest[0], rest[1..].to_vec()))
}
