//! Modbus TCP (MBAP) and Solarman V5 over a TCP connection, opened on the first request and
//! again on the next request after any failure (a half-read reply leaves the stream out of
//! step, so it is never reused after an error).

use std::time::Duration;

use devices::modbus::{
    self, MBAP_LEN, V5_RESPONSE, tcp_frame, tcp_frame_len, tcp_split, v5_frame_len, v5_request,
    v5_response_rtu, v5_split,
};
use tokio::{io::AsyncWriteExt, net::TcpStream};

use super::{TransportError, deadline, read_exact_by, split_rtu};

/// Replies of an earlier request (after a timeout) or unsolicited frames skipped before giving
/// up: a peer that sends only those still ends in a timeout, never a loop.
const MAX_SKIPPED: usize = 8;

/// The TCP connection of a link: opened when a request needs it, dropped after any failure.
struct Connection {
    address: String,
    timeout: Duration,
    stream: Option<TcpStream>,
}

impl Connection {
    fn new(address: String, timeout: Duration) -> Connection {
        Connection {
            address,
            timeout,
            stream: None,
        }
    }

    async fn open(&mut self) -> Result<&mut TcpStream, TransportError> {
        if self.stream.is_none() {
            let address = &self.address;
            let stream = tokio::time::timeout(self.timeout, TcpStream::connect(address))
                .await
                .map_err(|_| TransportError::Connection(format!("{address}: connect timed out")))?
                .map_err(|e| TransportError::Connection(format!("{address}: {e}")))?;
            let _ = stream.set_nodelay(true);
            self.stream = Some(stream);
        }
        self.stream
            .as_mut()
            .ok_or_else(|| TransportError::Connection("not connected".into()))
    }

    /// Sends `frame` by `by` (opening the connection if needed); the stream then carries the
    /// reply.
    async fn send(
        &mut self,
        frame: &[u8],
        by: tokio::time::Instant,
    ) -> Result<&mut TcpStream, TransportError> {
        let stream = self.open().await?;
        tokio::time::timeout_at(by, stream.write_all(frame))
            .await
            .map_err(|_| TransportError::Timeout)?
            .map_err(|e| TransportError::Connection(e.to_string()))?;
        Ok(stream)
    }
}

/// One request and its reply over a link's connection.
trait Exchange {
    fn connection(&mut self) -> &mut Connection;
    async fn try_exchange(&mut self, unit: u8, pdu: &[u8])
    -> Result<(u8, Vec<u8>), TransportError>;
}

/// A request on `link`, sent once more on a fresh connection when a reused one turns out to be
/// closed: a peer that closed an idle connection (sticks do after a minute or so) is only seen
/// when it is used again.
async fn exchange<L: Exchange>(
    link: &mut L,
    unit: u8,
    pdu: &[u8],
) -> Result<(u8, Vec<u8>), TransportError> {
    let reused = link.connection().stream.is_some();
    let mut result = link.try_exchange(unit, pdu).await;
    if reused && matches!(result, Err(TransportError::Connection(_))) {
        link.connection().stream = None;
        result = link.try_exchange(unit, pdu).await;
    }
    if result.is_err() {
        link.connection().stream = None;
    }
    result
}

pub struct TcpLink {
    connection: Connection,
    transaction: u16,
}

impl TcpLink {
    pub fn new(address: String, timeout: Duration) -> TcpLink {
        TcpLink {
            connection: Connection::new(address, timeout),
            transaction: 0,
        }
    }

    pub async fn exchange(
        &mut self,
        unit: u8,
        pdu: &[u8],
    ) -> Result<(u8, Vec<u8>), TransportError> {
        exchange(self, unit, pdu).await
    }
}

impl Exchange for TcpLink {
    fn connection(&mut self) -> &mut Connection {
        &mut self.connection
    }

    async fn try_exchange(
        &mut self,
        unit: u8,
        pdu: &[u8],
    ) -> Result<(u8, Vec<u8>), TransportError> {
        let by = deadline(self.connection.timeout);
        self.transaction = self.transaction.wrapping_add(1);
        let sent = self.transaction;
        let frame = tcp_frame(sent, unit, pdu);
        let stream = self.connection.send(&frame, by).await?;
        for _ in 0..MAX_SKIPPED {
            let mut buf = Vec::with_capacity(260);
            read_exact_by(stream, &mut buf, MBAP_LEN, by).await?;
            let len = tcp_frame_len(&buf)?;
            read_exact_by(stream, &mut buf, len, by).await?;
            let (transaction, from, reply) = tcp_split(&buf)?;
            if transaction == sent {
                return Ok((from, reply.to_vec()));
            }
        }
        Err(TransportError::Malformed(
            "only replies to other transactions".into(),
        ))
    }
}

pub struct V5Link {
    connection: Connection,
    logger: u32,
    sequence: u16,
}

impl V5Link {
    pub fn new(address: String, logger: u32, timeout: Duration) -> V5Link {
        V5Link {
            connection: Connection::new(address, timeout),
            logger,
            sequence: 0,
        }
    }

    pub async fn exchange(
        &mut self,
        unit: u8,
        pdu: &[u8],
    ) -> Result<(u8, Vec<u8>), TransportError> {
        exchange(self, unit, pdu).await
    }
}

impl Exchange for V5Link {
    fn connection(&mut self) -> &mut Connection {
        &mut self.connection
    }

    async fn try_exchange(
        &mut self,
        unit: u8,
        pdu: &[u8],
    ) -> Result<(u8, Vec<u8>), TransportError> {
        let by = deadline(self.connection.timeout);
        self.sequence = self.sequence.wrapping_add(1);
        let frame = v5_request(self.sequence, self.logger, &modbus::rtu_frame(unit, pdu));
        let logger = self.logger;
        let sequence = self.sequence;
        let stream = self.connection.send(&frame, by).await?;
        for _ in 0..MAX_SKIPPED {
            let mut buf = Vec::with_capacity(300);
            read_exact_by(stream, &mut buf, 3, by).await?;
            let len = v5_frame_len(&buf)?;
            read_exact_by(stream, &mut buf, len, by).await?;
            let split = v5_split(&buf)?;
            // Sticks also send heartbeats and other frames of their own: skip them.
            if split.control != V5_RESPONSE {
                continue;
            }
            if split.logger != logger {
                return Err(TransportError::WrongLogger {
                    expected: logger,
                    found: split.logger,
                });
            }
            // Sticks echo the low byte of the sequence; an older reply (after a timeout) is
            // skipped.
            if split.sequence & 0xFF != sequence & 0xFF {
                continue;
            }
            let rtu = v5_response_rtu(split.payload)?;
            return split_rtu(rtu);
        }
        Err(TransportError::Malformed(
            "only frames of other requests".into(),
        ))
    }
}
