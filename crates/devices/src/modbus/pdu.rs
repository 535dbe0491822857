//! Protocol data units for the four register functions and exception replies, in both
//! directions: a gateway builds requests and parses responses, the simulator the reverse.

use crate::error::Error;

/// Most registers one read may return (function 3/4): 125 × 2 bytes fit a 253-byte PDU.
pub const MAX_READ: usize = 125;
/// Most registers one write-multiple (function 16) may carry.
pub const MAX_WRITE: usize = 123;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    ReadHolding { start: u16, count: u16 },
    ReadInput { start: u16, count: u16 },
    WriteSingle { address: u16, value: u16 },
    WriteMultiple { start: u16, values: Vec<u16> },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Response {
    /// Reply to function 3 or 4.
    Registers {
        function: u8,
        values: Vec<u16>,
    },
    WriteSingle {
        address: u16,
        value: u16,
    },
    WriteMultiple {
        start: u16,
        count: u16,
    },
    Exception {
        function: u8,
        code: u8,
    },
}

/// Meaning of a Modbus exception code, for logs and the debug toolbox.
pub fn exception_text(code: u8) -> &'static str {
    match code {
        1 => "illegal function",
        2 => "illegal data address",
        3 => "illegal data value",
        4 => "server device failure",
        5 => "acknowledge",
        6 => "server device busy",
        8 => "memory parity error",
        10 => "gateway path unavailable",
        11 => "gateway target device failed to respond",
        _ => "unknown exception",
    }
}

fn check_range(start: u16, count: usize, max: usize) -> Result<(), Error> {
    if count == 0 || count > max {
        return Err(Error::BadQuantity { count, max });
    }
    if usize::from(start) + count > 0x1_0000 {
        return Err(Error::AddressOverflow { start, count });
    }
    Ok(())
}

fn word(b: &[u8], at: usize) -> Result<u16, Error> {
    match b.get(at..at + 2) {
        Some([hi, lo]) => Ok(u16::from_be_bytes([*hi, *lo])),
        _ => Err(Error::BadPdu("truncated")),
    }
}

fn words(data: &[u8]) -> Vec<u16> {
    data.chunks_exact(2)
        .map(|p| u16::from_be_bytes([p[0], p[1]]))
        .collect()
}

fn push_words(out: &mut Vec<u8>, values: &[u16]) {
    for v in values {
        out.extend_from_slice(&v.to_be_bytes());
    }
}

impl Request {
    pub fn function_code(&self) -> u8 {
        match self {
            Request::ReadHolding { .. } => 3,
            Request::ReadInput { .. } => 4,
            Request::WriteSingle { .. } => 6,
            Request::WriteMultiple { .. } => 16,
        }
    }

    pub fn to_pdu(&self) -> Result<Vec<u8>, Error> {
        let mut out = vec![self.function_code()];
        match self {
            Request::ReadHolding { start, count } | Request::ReadInput { start, count } => {
                check_range(*start, usize::from(*count), MAX_READ)?;
                push_words(&mut out, &[*start, *count]);
            }
            Request::WriteSingle { address, value } => push_words(&mut out, &[*address, *value]),
            Request::WriteMultiple { start, values } => {
                check_range(*start, values.len(), MAX_WRITE)?;
                // Both casts are bounded by MAX_WRITE (123 registers, 246 bytes).
                push_words(&mut out, &[*start, values.len() as u16]);
                out.push((values.len() * 2) as u8);
                push_words(&mut out, values);
            }
        }
        Ok(out)
    }

    pub fn from_pdu(pdu: &[u8]) -> Result<Self, Error> {
        let (&function, body) = pdu.split_first().ok_or(Error::BadPdu("empty"))?;
        let (a, b) = (word(body, 0)?, word(body, 2)?);
        let request = match function {
            3 | 4 if body.len() == 4 => {
                check_range(a, usize::from(b), MAX_READ)?;
                if function == 3 {
                    Request::ReadHolding { start: a, count: b }
                } else {
                    Request::ReadInput { start: a, count: b }
                }
            }
            6 if body.len() == 4 => Request::WriteSingle {
                address: a,
                value: b,
            },
            16 => {
                let byte_count = usize::from(*body.get(4).ok_or(Error::BadPdu("truncated"))?);
                let data = &body[5..];
                if byte_count != usize::from(b) * 2 || data.len() != byte_count {
                    return Err(Error::BadPdu("byte count does not match quantity"));
                }
                check_range(a, usize::from(b), MAX_WRITE)?;
                Request::WriteMultiple {
                    start: a,
                    values: words(data),
                }
            }
            3 | 4 | 6 => return Err(Error::BadPdu("wrong length")),
            other => return Err(Error::UnsupportedFunction(other)),
        };
        Ok(request)
    }
}

impl Response {
    pub fn to_pdu(&self) -> Result<Vec<u8>, Error> {
        Ok(match self {
            Response::Registers { function, values } => {
                if values.is_empty() || values.len() > MAX_READ {
                    return Err(Error::BadQuantity {
                        count: values.len(),
                        max: MAX_READ,
                    });
                }
                // Bounded by MAX_READ: at most 250 bytes.
                let mut out = vec![*function, (values.len() * 2) as u8];
                push_words(&mut out, values);
                out
            }
            Response::WriteSingle { address, value } => {
                let mut out = vec![6];
                push_words(&mut out, &[*address, *value]);
                out
            }
            Response::WriteMultiple { start, count } => {
                let mut out = vec![16];
                push_words(&mut out, &[*start, *count]);
                out
            }
            Response::Exception { function, code } => vec![function | 0x80, *code],
        })
    }

    pub fn from_pdu(pdu: &[u8]) -> Result<Self, Error> {
        let (&function, body) = pdu.split_first().ok_or(Error::BadPdu("empty"))?;
        match function {
            f if f & 0x80 != 0 => match body {
                [code] => Ok(Response::Exception {
                    function: f & 0x7F,
                    code: *code,
                }),
                _ => Err(Error::BadPdu("exception reply must carry one code byte")),
            },
            3 | 4 => {
                let (&count, data) = body.split_first().ok_or(Error::BadPdu("truncated"))?;
                if usize::from(count) != data.len() || count % 2 != 0 || count == 0 {
                    return Err(Error::BadPdu("byte count does not match data"));
                }
                Ok(Response::Registers {
                    function,
                    values: words(data),
                })
            }
            6 | 16 if body.len() == 4 => {
                let (a, b) = (word(body, 0)?, word(body, 2)?);
                Ok(if function == 6 {
                    Response::WriteSingle {
                        address: a,
                        value: b,
                    }
                } else {
                    Response::WriteMultiple { start: a, count: b }
                })
            }
            6 | 16 => Err(Error::BadPdu("wrong length")),
            other => Err(Error::UnsupportedFunction(other)),
        }
    }

    /// Whether this reply fits `request` (function, and size or echo where the reply has one).
    pub fn answers(&self, request: &Request) -> bool {
        match (self, request) {
            (Response::Exception { function, .. }, r) => *function == r.function_code(),
            (Response::Registers { function, values }, r) => match r {
                Request::ReadHolding { count, .. } | Request::ReadInput { count, .. } => {
                    *function == r.function_code() && values.len() == usize::from(*count)
                }
                _ => false,
            },
            (
                Response::WriteSingle { address, value },
                Request::WriteSingle {
                    address: a,
                    value: v,
                },
            ) => address == a && value == v,
            (
                Response::WriteMultiple { start, count },
                Request::WriteMultiple { start: s, values },
            ) => start == s && usize::from(*count) == values.len(),
            _ => false,
        }
    }
}
