//! Buses: one Modbus request at a time to a device and its checked reply, over a serial port
//! (RTU), Modbus TCP (MBAP) or a Solarman V5 stick. Frames come from `devices::modbus`, the one
//! codec of the project. A TCP or V5 connection that failed is opened again on the next request.

pub mod rtu;
mod stream;

use std::time::Duration;

use devices::modbus::{self, Request, Response, exception_text};
use tokio::sync::Mutex;

use crate::config::{BusConfig, BusKind};

/// Why a request got no usable reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TransportError {
    /// No (complete) reply within the bus's timeout.
    Timeout,
    /// The reply's CRC does not match.
    Crc,
    /// The device answered with a Modbus exception.
    Exception { function: u8, code: u8 },
    /// A V5 reply carried another logger serial than the bus's.
    WrongLogger { expected: u32, found: u32 },
    /// The connection could not be opened or was closed by the peer.
    Connection(String),
    /// The reply is not a valid frame, or does not answer the request.
    Malformed(String),
}

impl TransportError {
    /// A short name per kind, for logs limited to one line per kind per device per minute.
    pub fn kind(&self) -> &'static str {
        match self {
            TransportError::Timeout => "timeout",
            TransportError::Crc => "crc",
            TransportError::Exception { .. } => "exception",
            TransportError::WrongLogger { .. } => "wrong_logger",
            TransportError::Connection(_) => "connection",
            TransportError::Malformed(_) => "malformed",
        }
    }
}

impl std::fmt::Display for TransportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TransportError::Timeout => f.write_str("no reply (timeout)"),
            TransportError::Crc => f.write_str("reply with a bad CRC"),
            TransportError::Exception { function, code } => write!(
                f,
                "Modbus exception {code} ({}) to function {function}",
                exception_text(*code)
            ),
            TransportError::WrongLogger { expected, found } => write!(
                f,
                "the stick answered as logger {found}, not {expected}: check logger_serial"
            ),
            TransportError::Connection(e) => write!(f, "connection: {e}"),
            TransportError::Malformed(e) => write!(f, "malformed reply: {e}"),
        }
    }
}

impl std::error::Error for TransportError {}

impl From<devices::Error> for TransportError {
    fn from(e: devices::Error) -> Self {
        match e {
            devices::Error::BadCrc { .. } => TransportError::Crc,
            other => TransportError::Malformed(other.to_string()),
        }
    }
}

/// How a bus carries frames.
enum Link {
    Rtu(rtu::SerialLink),
    Tcp(stream::TcpLink),
    V5(stream::V5Link),
}

/// One bus: requests are serialised (one at a time on the wire).
pub struct Bus {
    pub name: String,
    link: Mutex<Link>,
}

impl Bus {
    /// The bus as configured; nothing is opened until the first request.
    pub fn new(config: &BusConfig) -> Bus {
        let link = match &config.kind {
            BusKind::Rtu {
                port,
                baud,
                parity,
                stop_bits,
            } => Link::Rtu(rtu::SerialLink::new(
                port.clone(),
                *baud,
                *parity,
                *stop_bits,
                config.timeout,
            )),
            BusKind::Tcp { address } => {
                Link::Tcp(stream::TcpLink::new(address.clone(), config.timeout))
            }
            BusKind::Solarman {
                address,
                logger_serial,
            } => Link::V5(stream::V5Link::new(
                address.clone(),
                *logger_serial,
                config.timeout,
            )),
        };
        Bus {
            name: config.name.clone(),
            link: Mutex::new(link),
        }
    }

    /// Sends `request` to `unit` and answers its reply, checked to answer the request; a
    /// Modbus exception is an error.
    pub async fn request(&self, unit: u8, request: &Request) -> Result<Response, TransportError> {
        match self.exchange(unit, request).await? {
            Response::Exception { function, code } => {
                Err(TransportError::Exception { function, code })
            }
            r => Ok(r),
        }
    }

    /// Sends `request` and answers the device's reply as it came (an exception included).
    pub async fn exchange(&self, unit: u8, request: &Request) -> Result<Response, TransportError> {
        let pdu = request.to_pdu()?;
        let expect = reply_len(request);
        let (from, reply) = {
            let mut link = self.link.lock().await;
            match &mut *link {
                Link::Rtu(l) => l.exchange(unit, &pdu, expect).await?,
                Link::Tcp(l) => l.exchange(unit, &pdu).await?,
                Link::V5(l) => l.exchange(unit, &pdu).await?,
            }
        };
        if from != unit {
            return Err(TransportError::Malformed(format!(
                "reply from unit {from}, asked unit {unit}"
            )));
        }
        let response = Response::from_pdu(&reply)?;
        if !response.answers(request) {
            return Err(TransportError::Malformed(
                "the reply does not answer the request".into(),
            ));
        }
        Ok(response)
    }

    /// Reads `count` registers of `kind` from `start`.
    pub async fn read(
        &self,
        unit: u8,
        kind: devices::RegisterType,
        start: u16,
        count: u16,
    ) -> Result<Vec<u16>, TransportError> {
        let request = match kind {
            devices::RegisterType::Holding => Request::ReadHolding { start, count },
            devices::RegisterType::Input => Request::ReadInput { start, count },
        };
        match self.request(unit, &request).await? {
            Response::Registers { values, .. } => Ok(values),
            _ => Err(TransportError::Malformed("not a register reply".into())),
        }
    }
}

/// Length of the RTU reply frame `request` implies (an exception reply is 5 bytes).
pub fn reply_len(request: &Request) -> usize {
    match request {
        Request::ReadHolding { count, .. } | Request::ReadInput { count, .. } => {
            5 + 2 * usize::from(*count)
        }
        Request::WriteSingle { .. } | Request::WriteMultiple { .. } => 8,
    }
}

/// An RTU frame's unit and PDU, accepting the two trailing zero bytes some Deye loggers add.
pub(crate) fn split_rtu(frame: &[u8]) -> Result<(u8, Vec<u8>), TransportError> {
    match modbus::rtu_split(frame) {
        Ok((unit, pdu)) => Ok((unit, pdu.to_vec())),
        Err(e) => match frame.strip_suffix(&[0, 0]) {
            Some(trimmed) => match modbus::rtu_split(trimmed) {
                Ok((unit, pdu)) => Ok((unit, pdu.to_vec())),
                Err(_) => Err(e.into()),
            },
            None => Err(e.into()),
        },
    }
}

/// Reads into `buf` until it holds `want` bytes, within `deadline`.
pub(crate) async fn read_exact_by<R: tokio::io::AsyncRead + Unpin>(
    r: &mut R,
    buf: &mut Vec<u8>,
    want: usize,
    deadline: tokio::time::Instant,
) -> Result<(), TransportError> {
    use tokio::io::AsyncReadExt;
    while buf.len() < want {
        let mut chunk = vec![0u8; want - buf.len()];
        let n = tokio::time::timeout_at(deadline, r.read(&mut chunk))
            .await
            .map_err(|_| TransportError::Timeout)?
            .map_err(|e| TransportError::Connection(e.to_string()))?;
        if n == 0 {
            return Err(TransportError::Connection("closed by the peer".into()));
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    Ok(())
}

/// The time one request may take.
pub(crate) fn deadline(timeout: Duration) -> tokio::time::Instant {
    tokio::time::Instant::now() + timeout
}
