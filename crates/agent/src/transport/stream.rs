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

async fn connect(address: &str, timeout: Duration) -> Result<TcpStream, TransportError> {
    let stream = tokio::time::timeout(timeout, TcpStream::connect(address))
        .await
        .map_err(|_| TransportError::Connection(format!("{address}: connect timed out")))?
        .map_err(|e| TransportError::Connection(format!("{address}: {e}")))?;
    let _ = stream.set_nodelay(true);
    Ok(stream)
}

pub struct TcpLink {
    address: String,
    timeout: Duration,
    stream: Option<TcpStream>,
    transaction: u16,
}

impl TcpLink {
    pub fn new(address: String, timeout: Duration) -> TcpLink {
        TcpLink {
            address,
            timeout,
            stream: None,
            transaction: 0,
        }
    }

    pub async fn exchange(
        &mut self,
        unit: u8,
        pdu: &[u8],
    ) -> Result<(u8, Vec<u8>), TransportError> {
        let reused = self.stream.is_some();
        let mut result = self.try_exchange(unit, pdu).await;
        // A peer that closed an idle connection (sticks do after a minute or so) is only seen
        // when it is used again: once more on a fresh connection.
        if reused && matches!(result, Err(TransportError::Connection(_))) {
            self.stream = None;
            result = self.try_exchange(unit, pdu).await;
        }
        if result.is_err() {
            self.stream = None;
        }
        result
    }

    async fn try_exchange(
        &mut self,
        unit: u8,
        pdu: &[u8],
    ) -> Result<(u8, Vec<u8>), TransportError> {
        let by = deadline(self.timeout);
        if self.stream.is_none() {
            self.stream = Some(connect(&self.address, self.timeout).await?);
        }
        let Some(stream) = self.stream.as_mut() else {
            return Err(TransportError::Connection("not connected".into()));
        };
        self.transaction = self.transaction.wrapping_add(1);
        let frame = tcp_frame(self.transaction, unit, pdu);
        tokio::time::timeout_at(by, stream.write_all(&frame))
            .await
            .map_err(|_| TransportError::Timeout)?
            .map_err(|e| TransportError::Connection(e.to_string()))?;
        for _ in 0..MAX_SKIPPED {
            let mut buf = Vec::with_capacity(260);
            read_exact_by(stream, &mut buf, MBAP_LEN, by).await?;
            let len = tcp_frame_len(&buf)?;
            read_exact_by(stream, &mut buf, len, by).await?;
            let (transaction, from, reply) = tcp_split(&buf)?;
            if transaction == self.transaction {
                return Ok((from, reply.to_vec()));
            }
        }
        Err(TransportError::Malformed(
            "only replies to other transactions".into(),
        ))
    }
}

pub struct V5Link {
    address: String,
    logger: u32,
    timeout: Duration,
    stream: Option<TcpStream>,
    sequence: u16,
}

impl V5Link {
    pub fn new(address: String, logger: u32, timeout: Duration) -> V5Link {
        V5Link {
            address,
            logger,
            timeout,
            stream: None,
            sequence: 0,
        }
    }

    pub async fn exchange(
        &mut self,
        unit: u8,
        pdu: &[u8],
    ) -> Result<(u8, Vec<u8>), TransportError> {
        let reused = self.stream.is_some();
        let mut result = self.try_exchange(unit, pdu).await;
        // A peer that closed an idle connection (sticks do after a minute or so) is only seen
        // when it is used again: once more on a fresh connection.
        if reused && matches!(result, Err(TransportError::Connection(_))) {
            self.stream = None;
            result = self.try_exchange(unit, pdu).await;
        }
        if result.is_err() {
            self.stream = None;
        }
        result
    }

    async fn try_exchange(
        &mut self,
        unit: u8,
        pdu: &[u8],
    ) -> Result<(u8, Vec<u8>), TransportError> {
        let by = deadline(self.timeout);
        if self.stream.is_none() {
            self.stream = Some(connect(&self.address, self.timeout).await?);
        }
        let Some(stream) = self.stream.as_mut() else {
            return Err(TransportError::Connection("not connected".into()));
        };
        self.sequence = self.sequence.wrapping_add(1);
        let frame = v5_request(self.sequence, self.logger, &modbus::rtu_frame(unit, pdu));
        tokio::time::timeout_at(by, stream.write_all(&frame))
            .await
            .map_err(|_| TransportError::Timeout)?
            .map_err(|e| TransportError::Connection(e.to_string()))?;
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
            if split.logger != self.logger {
                return Err(TransportError::WrongLogger {
                    expected: self.logger,
                    found: split.logger,
                });
            }
            // Sticks echo the low byte of the sequence; an older reply (after a timeout) is
            // skipped.
            if split.sequence & 0xFF != self.sequence & 0xFF {
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
