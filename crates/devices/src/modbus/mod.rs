//! Modbus framing: CRC-16 and LRC, RTU, ASCII and TCP (MBAP) frames, the Solarman V5 frames
//! of the data-logger sticks, and the PDUs the portal uses (read holding/input registers, write
//! single/multiple registers, exceptions). Pure functions over bytes, no I/O, so the simulator,
//! the gateway agent, the emulators, the remote-debug toolbox and tests share one codec. Every
//! parser returns an error instead of panicking on any input.

mod ascii;
mod checksum;
mod pdu;
mod rtu;
mod tcp;
mod v5;

pub use ascii::{ascii_frame, ascii_split};
pub use checksum::{crc16, lrc};
pub use pdu::{MAX_READ, MAX_WRITE, Request, Response, exception_text};
pub use rtu::{
    parse_rtu_request, parse_rtu_response, read_holding_frame, read_input_frame, rtu_frame,
    rtu_split, write_multiple_frame, write_single_frame,
};
pub use tcp::{MBAP_LEN, tcp_frame, tcp_frame_len, tcp_split};
pub use v5::{
    V5_HEADER_LEN, V5_MAX_PAYLOAD, V5_REQUEST, V5_RESPONSE, V5Frame, v5_frame, v5_frame_len,
    v5_request, v5_request_rtu, v5_response, v5_response_rtu, v5_split,
};

use crate::error::Error;

/// Bytes as spaced upper-case hex (`01 03 00 00`), the toolbox's display form.
pub fn to_hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 3);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&format!("{b:02X}"));
    }
    out
}

/// Parses hex typed by a person: any whitespace, commas or `0x` prefixes between bytes.
pub fn parse_hex(text: &str) -> Result<Vec<u8>, Error> {
    let cleaned: String = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .map(|t| {
            t.strip_prefix("0x")
                .or_else(|| t.strip_prefix("0X"))
                .unwrap_or(t)
        })
        .collect();
    checksum::hex_bytes(cleaned.as_bytes()).ok_or(Error::BadAscii("not an even run of hex digits"))
}
