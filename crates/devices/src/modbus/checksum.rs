//! CRC-16/MODBUS (RTU) and LRC (ASCII), plus the hex digit helpers ASCII framing needs.

/// CRC-16/MODBUS: reflected polynomial 0xA001, initial value 0xFFFF. On the wire the low byte
/// goes first.
pub fn crc16(data: &[u8]) -> u16 {
    let mut crc: u16 = 0xFFFF;
    for &byte in data {
        crc ^= u16::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xA001
            } else {
                crc >> 1
            };
        }
    }
    crc
}

/// Longitudinal redundancy check: two's complement of the byte sum.
pub fn lrc(data: &[u8]) -> u8 {
    data.iter()
        .fold(0u8, |sum, b| sum.wrapping_add(*b))
        .wrapping_neg()
}

fn hex_digit(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Decodes pairs of hex digits; `None` on an odd length or a non-hex character.
pub(super) fn hex_bytes(text: &[u8]) -> Option<Vec<u8>> {
    let pairs = text.chunks_exact(2);
    if !pairs.remainder().is_empty() {
        return None;
    }
    pairs
        .map(|pair| Some(hex_digit(pair[0])? << 4 | hex_digit(pair[1])?))
        .collect()
}
