//! A minimal MQTT 3.1.1 publisher for the benchmark's simulated gateways: CONNECT, PUBLISH with
//! QoS 1, PINGREQ out; CONNACK, PUBACK and anything else (skipped) in. Real gateways are other
//! machines, so the load generator should take as little CPU from the portal as it can: a
//! general client (rumqttc: channels, an event loop and a state table per client) cost about
//! 21 us per message here, this one (one write per message, acks decoded in place) about 12 us,
//! most of it the kernel's loopback TCP work.

use std::{
    io,
    net::{IpAddr, SocketAddr},
    time::Duration,
};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{
        TcpSocket, TcpStream,
        tcp::{OwnedReadHalf, OwnedWriteHalf},
    },
    time::Instant,
};

const CONNECT: u8 = 1;
const CONNACK: u8 = 2;
const PUBLISH: u8 = 3;
const PUBACK: u8 = 4;
const PINGREQ: [u8; 2] = [0xC0, 0x00];
/// The largest remaining length a 4-byte variable-length integer holds.
const MAX_REMAINING: usize = 268_435_455;
/// Enough for a batch of acks; a fixed header (at most 5 bytes) always fits, so decoding
/// always makes progress, and longer packets are skipped as they stream past.
const READ_BUFFER: usize = 512;

/// Who the client signs in as.
#[derive(Clone, Copy)]
pub struct Login<'a> {
    pub client_id: &'a str,
    pub username: &'a str,
    pub password: &'a str,
    pub keep_alive: Duration,
}

impl std::fmt::Debug for Login<'_> {
    // The password stays out of logs and error messages.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Login")
            .field("client_id", &self.client_id)
            .field("username", &self.username)
            .field("keep_alive", &self.keep_alive)
            .finish_non_exhaustive()
    }
}

/// What the broker sent, as far as a publisher cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Incoming {
    ConnAck {
        return_code: u8,
    },
    PubAck {
        packet_id: u16,
    },
    /// Any other packet (e.g. PINGRESP), identified by its type; its body is skipped.
    Other {
        kind: u8,
    },
}

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg)
}

/// Appends `len` as an MQTT variable-length integer (7 bits per byte, low first).
pub fn put_remaining_length(buf: &mut Vec<u8>, mut len: usize) -> io::Result<()> {
    if len > MAX_REMAINING {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("MQTT packet too large: remaining length {len} > {MAX_REMAINING}"),
        ));
    }
    loop {
        let byte = (len % 128) as u8;
        len /= 128;
        if len == 0 {
            buf.push(byte);
            return Ok(());
        }
        buf.push(byte | 0x80);
    }
}

fn put_string(buf: &mut Vec<u8>, s: &[u8]) -> io::Result<()> {
    let len = u16::try_from(s.len()).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("MQTT string of {} bytes is longer than 65535", s.len()),
        )
    })?;
    buf.extend_from_slice(&len.to_be_bytes());
    buf.extend_from_slice(s);
    Ok(())
}

/// Writes a CONNECT (protocol level 4, clean session, user name and password) into `buf`.
pub fn encode_connect(buf: &mut Vec<u8>, login: &Login<'_>) -> io::Result<()> {
    const CLEAN_SESSION: u8 = 0x02;
    const PASSWORD: u8 = 0x40;
    const USERNAME: u8 = 0x80;
    buf.clear();
    let keep_alive = u16::try_from(login.keep_alive.as_secs()).unwrap_or(u16::MAX);
    // Protocol name (6) + level (1) + flags (1) + keep-alive (2), then three strings.
    let remaining = 10 + 6 + login.client_id.len() + login.username.len() + login.password.len();
    buf.push(CONNECT << 4);
    put_remaining_length(buf, remaining)?;
    put_string(buf, b"MQTT")?;
    buf.push(4);
    buf.push(USERNAME | PASSWORD | CLEAN_SESSION);
    buf.extend_from_slice(&keep_alive.to_be_bytes());
    put_string(buf, login.client_id.as_bytes())?;
    put_string(buf, login.username.as_bytes())?;
    put_string(buf, login.password.as_bytes())
}

/// Writes a QoS 1 PUBLISH (not retained, not a duplicate) into `buf`.
pub fn encode_publish(
    buf: &mut Vec<u8>,
    topic: &str,
    packet_id: u16,
    payload: &[u8],
) -> io::Result<()> {
    const QOS_1: u8 = 1 << 1;
    buf.clear();
    buf.push(PUBLISH << 4 | QOS_1);
    put_remaining_length(buf, 2 + topic.len() + 2 + payload.len())?;
    put_string(buf, topic.as_bytes())?;
    buf.extend_from_slice(&packet_id.to_be_bytes());
    buf.extend_from_slice(payload);
    Ok(())
}

/// A fixed header at the start of `bytes`: (first byte, remaining length, header length), or
/// `None` while it is incomplete.
pub fn decode_fixed_header(bytes: &[u8]) -> io::Result<Option<(u8, usize, usize)>> {
    let Some(&first) = bytes.first() else {
        return Ok(None);
    };
    let mut len = 0usize;
    for (i, &b) in bytes[1..].iter().enumerate().take(4) {
        len |= usize::from(b & 0x7F) << (7 * i);
        if b & 0x80 == 0 {
            return Ok(Some((first, len, i + 2)));
        }
    }
    if bytes.len() >= 5 {
        return Err(invalid(
            "malformed MQTT remaining length (more than 4 bytes)".into(),
        ));
    }
    Ok(None)
}

/// Splits the bytes read from the broker into packets, keeping a partial packet for the next
/// read.
pub struct Decoder {
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    /// Body bytes still to come of a packet that is being skipped.
    skip: usize,
}

impl Default for Decoder {
    fn default() -> Self {
        Decoder {
            buf: vec![0; READ_BUFFER].into_boxed_slice(),
            start: 0,
            end: 0,
            skip: 0,
        }
    }
}

impl Decoder {
    /// Room to read into, after moving what is still undecoded to the front.
    pub fn spare(&mut self) -> &mut [u8] {
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        &mut self.buf[self.end..]
    }

    /// `n` bytes were read into `spare()`.
    pub fn filled(&mut self, n: usize) {
        self.end = (self.end + n).min(self.buf.len());
    }

    /// The next complete packet in what was read so far.
    pub fn next_packet(&mut self) -> io::Result<Option<Incoming>> {
        if self.skip > 0 {
            let n = self.skip.min(self.end - self.start);
            self.start += n;
            self.skip -= n;
            if self.skip > 0 {
                return Ok(None);
            }
        }
        let bytes = &self.buf[self.start..self.end];
        let Some((first, remaining, header)) = decode_fixed_header(bytes)? else {
            return Ok(None);
        };
        let kind = first >> 4;
        if kind != CONNACK && kind != PUBACK {
            self.start += header;
            self.skip = remaining;
            // Consume whatever of the body is already here, so `spare` gets the room back.
            let n = self.skip.min(self.end - self.start);
            self.start += n;
            self.skip -= n;
            return Ok(Some(Incoming::Other { kind }));
        }
        if remaining != 2 {
            return Err(invalid(format!(
                "MQTT packet type {kind} with remaining length {remaining}, expected 2"
            )));
        }
        let Some(body) = bytes.get(header..header + 2) else {
            return Ok(None);
        };
        let packet = if kind == CONNACK {
            Incoming::ConnAck {
                return_code: body[1],
            }
        } else {
            Incoming::PubAck {
                packet_id: u16::from_be_bytes([body[0], body[1]]),
            }
        };
        self.start += header + 2;
        Ok(Some(packet))
    }
}

/// The receiving half of a connection.
pub struct Reader {
    read: OwnedReadHalf,
    decoder: Decoder,
}

impl Reader {
    /// Waits for the next packet; the broker closing the connection is an error. Cancel safe
    /// (for `select!`): bytes read stay in the decoder.
    pub async fn next(&mut self) -> io::Result<Incoming> {
        loop {
            if let Some(p) = self.decoder.next_packet()? {
                return Ok(p);
            }
            let n = self.read.read(self.decoder.spare()).await?;
            if n == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the broker closed the connection",
                ));
            }
            self.decoder.filled(n);
        }
    }
}

/// The sending half of a connection: numbers the publishes and knows when a ping is due.
pub struct Publisher {
    write: OwnedWriteHalf,
    /// One packet at a time, reused.
    buf: Vec<u8>,
    last_id: u16,
    last_write: Instant,
    ping_every: Duration,
}

impl Publisher {
    /// Publishes `payload` with QoS 1 in one write; returns its packet id.
    pub async fn publish(&mut self, topic: &str, payload: &[u8]) -> io::Result<u16> {
        // 1..=65535, never 0 (reserved). The caller keeps at most 65535 in flight, so an id is
        // not reused while its message is unacknowledged.
        self.last_id = self.last_id.checked_add(1).unwrap_or(1);
        encode_publish(&mut self.buf, topic, self.last_id, payload)?;
        self.write.write_all(&self.buf).await?;
        self.last_write = Instant::now();
        Ok(self.last_id)
    }

    /// When a PINGREQ is due unless something else is written first: half the keep-alive
    /// after the last write, well inside the broker's 1.5 x keep-alive.
    pub fn ping_due(&self) -> Instant {
        self.last_write + self.ping_every
    }

    /// Sends a PINGREQ if nothing was written for half the keep-alive.
    pub async fn ping_if_idle(&mut self) -> io::Result<()> {
        if Instant::now() >= self.ping_due() {
            self.write.write_all(&PINGREQ).await?;
            self.last_write = Instant::now();
        }
        Ok(())
    }
}

/// Connects (from the local address `source` when given), signs in and waits for the
/// CONNACK; a refusal is an error naming the reason.
pub async fn connect(
    addr: SocketAddr,
    source: Option<IpAddr>,
    login: &Login<'_>,
) -> io::Result<(Publisher, Reader)> {
    let stream = match source {
        Some(ip) => {
            let socket = match ip {
                IpAddr::V4(_) => TcpSocket::new_v4()?,
                IpAddr::V6(_) => TcpSocket::new_v6()?,
            };
            socket.bind(SocketAddr::new(ip, 0))?;
            socket.connect(addr).await?
        }
        None => TcpStream::connect(addr).await?,
    };
    // Small packets must not wait for Nagle's algorithm; each write is a whole packet anyway.
    stream.set_nodelay(true)?;
    let (read, mut write) = stream.into_split();
    let mut buf = Vec::with_capacity(256);
    encode_connect(&mut buf, login)?;
    write.write_all(&buf).await?;
    let mut reader = Reader {
        read,
        decoder: Decoder::default(),
    };
    match reader.next().await? {
        Incoming::ConnAck { return_code: 0 } => {}
        Incoming::ConnAck { return_code } => {
            return Err(io::Error::new(
                io::ErrorKind::ConnectionRefused,
                format!(
                    "the broker refused {}: CONNACK return code {return_code} ({})",
                    login.client_id,
                    connack_reason(return_code)
                ),
            ));
        }
        other => {
            return Err(invalid(format!("expected CONNACK, got {other:?}")));
        }
    }
    let publisher = Publisher {
        write,
        buf,
        last_id: 0,
        last_write: Instant::now(),
        ping_every: (login.keep_alive / 2).max(Duration::from_secs(1)),
    };
    Ok((publisher, reader))
}

fn connack_reason(code: u8) -> &'static str {
    match code {
        1 => "unacceptable protocol version",
        2 => "identifier rejected",
        3 => "server unavailable",
        4 => "bad user name or password",
        5 => "not authorized",
        _ => "unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn remaining(len: usize) -> Vec<u8> {
        let mut buf = Vec::new();
        assert!(put_remaining_length(&mut buf, len).is_ok());
        buf
    }

    #[test]
    fn remaining_length_uses_one_more_byte_past_each_seven_bit_boundary() {
        assert_eq!(remaining(0), [0x00]);
        assert_eq!(remaining(127), [0x7F]);
        assert_eq!(remaining(128), [0x80, 0x01]);
        assert_eq!(remaining(16_383), [0xFF, 0x7F]);
        assert_eq!(remaining(16_384), [0x80, 0x80, 0x01]);
        assert_eq!(remaining(2_097_151), [0xFF, 0xFF, 0x7F]);
        assert_eq!(remaining(2_097_152), [0x80, 0x80, 0x80, 0x01]);
        assert_eq!(remaining(MAX_REMAINING), [0xFF, 0xFF, 0xFF, 0x7F]);
        assert!(put_remaining_length(&mut Vec::new(), MAX_REMAINING + 1).is_err());
    }

    #[test]
    fn remaining_length_decodes_what_it_encodes() -> io::Result<()> {
        for len in [0, 127, 128, 16_383, 16_384, MAX_REMAINING] {
            let mut bytes = vec![0x40];
            bytes.extend(remaining(len));
            assert_eq!(decode_fixed_header(&bytes)?, Some((0x40, len, bytes.len())));
            assert_eq!(decode_fixed_header(&bytes[..bytes.len() - 1])?, None);
        }
        assert!(decode_fixed_header(&[0x40, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]).is_err());
        Ok(())
    }

    #[test]
    fn connect_is_level_4_clean_session_with_user_name_and_password() -> io::Result<()> {
        let mut buf = Vec::new();
        let login = Login {
            client_id: "GW1",
            username: "GW1",
            password: "k",
            keep_alive: Duration::from_secs(30),
        };
        encode_connect(&mut buf, &login)?;
        #[rustfmt::skip]
        let expected = [
            0x10, 23,                               // CONNECT, remaining length
            0x00, 4, b'M', b'Q', b'T', b'T', 4,     // protocol name and level
            0xC2,                                   // user name, password, clean session
            0x00, 30,                               // keep-alive (s)
            0x00, 3, b'G', b'W', b'1',              // client id
            0x00, 3, b'G', b'W', b'1',              // user name
            0x00, 1, b'k',                          // password
        ];
        assert_eq!(buf, expected);
        Ok(())
    }

    #[test]
    fn publish_has_qos_1_header_topic_packet_id_and_payload() -> io::Result<()> {
        let mut buf = Vec::new();
        encode_publish(&mut buf, "a/b", 0x0102, b"xyz")?;
        assert_eq!(
            buf,
            [
                0x32, 10, 0x00, 3, b'a', b'/', b'b', 0x01, 0x02, b'x', b'y', b'z'
            ]
        );
        // A 200-byte payload needs a two-byte remaining length: 2 + 3 + 2 + 200 = 207.
        encode_publish(&mut buf, "a/b", 7, &[0u8; 200])?;
        assert_eq!(&buf[..3], [0x32, 0xCF, 0x01]);
        assert_eq!(buf.len(), 3 + 207);
        Ok(())
    }

    /// Feeds `chunk` to the decoder as one read and returns the packets it completes.
    fn feed(d: &mut Decoder, chunk: &[u8]) -> io::Result<Vec<Incoming>> {
        let spare = d.spare();
        spare[..chunk.len()].copy_from_slice(chunk);
        d.filled(chunk.len());
        let mut out = Vec::new();
        while let Some(p) = d.next_packet()? {
            out.push(p);
        }
        Ok(out)
    }

    #[test]
    fn decoder_reads_acks_split_across_reads_and_skips_other_packets() -> io::Result<()> {
        let mut d = Decoder::default();
        assert_eq!(feed(&mut d, &[0x20, 0x02, 0x00])?, []);
        assert_eq!(
            feed(&mut d, &[0x00, 0x40, 0x02, 0x00, 0x01, 0xD0, 0x00, 0x40])?,
            [
                Incoming::ConnAck { return_code: 0 },
                Incoming::PubAck { packet_id: 1 },
                Incoming::Other { kind: 0xD },
            ]
        );
        // A packet longer than the read buffer (a PUBLISH of 1000 bytes) streams past.
        assert_eq!(
            feed(&mut d, &[0x02, 0xFF, 0xFE, 0x30, 0xE8, 0x07])?,
            [
                Incoming::PubAck { packet_id: 0xFFFE },
                Incoming::Other { kind: 3 },
            ]
        );
        for _ in 0..3 {
            assert_eq!(feed(&mut d, &[0u8; 300])?, []);
        }
        assert_eq!(
            feed(
                &mut d,
                &[0u8; 100]
                    .iter()
                    .chain(&[0x40, 0x02, 0x00, 0x09])
                    .copied()
                    .collect::<Vec<_>>()
            )?,
            [Incoming::PubAck { packet_id: 9 }]
        );
        Ok(())
    }

    /// A one-connection broker on loopback: answers the CONNECT with `return_code` and, if it
    /// accepted, acknowledges one PUBLISH after a PINGRESP; returns the CONNECT it received.
    async fn fake_broker(
        return_code: u8,
    ) -> io::Result<(SocketAddr, tokio::task::JoinHandle<io::Result<Vec<u8>>>)> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let served = tokio::spawn(async move {
            let (mut s, _) = listener.accept().await?;
            let mut connect = vec![0u8; 2 + 23];
            s.read_exact(&mut connect).await?;
            s.write_all(&[0x20, 0x02, 0x00, return_code]).await?;
            if return_code == 0 {
                let mut publish = [0u8; 2 + 10];
                s.read_exact(&mut publish).await?;
                s.write_all(&[0xD0, 0x00, 0x40, 0x02, publish[7], publish[8]])
                    .await?;
            }
            Ok(connect)
        });
        Ok((addr, served))
    }

    const LOGIN: Login<'static> = Login {
        client_id: "GW1",
        username: "GW1",
        password: "k",
        keep_alive: Duration::from_secs(30),
    };

    #[tokio::test]
    async fn a_client_signs_in_publishes_and_reads_the_ack_past_a_pingresp() -> io::Result<()> {
        let (addr, served) = fake_broker(0).await?;
        let (mut publisher, mut reader) = connect(addr, None, &LOGIN).await?;
        assert_eq!(publisher.publish("a/b", b"xyz").await?, 1);
        assert_eq!(reader.next().await?, Incoming::Other { kind: 0xD });
        assert_eq!(reader.next().await?, Incoming::PubAck { packet_id: 1 });
        let mut expected = Vec::new();
        encode_connect(&mut expected, &LOGIN)?;
        assert_eq!(served.await??, expected);
        // The broker task is gone and its socket closed: the reader says so.
        assert!(reader.next().await.is_err());
        Ok(())
    }

    #[tokio::test]
    async fn a_refused_connect_is_an_error_naming_the_reason() -> io::Result<()> {
        let (addr, _served) = fake_broker(4).await?;
        let Err(e) = connect(addr, None, &LOGIN).await else {
            panic!("a refused CONNECT must fail");
        };
        assert_eq!(e.kind(), io::ErrorKind::ConnectionRefused);
        assert!(e.to_string().contains("bad user name or password"), "{e}");
        Ok(())
    }

    #[test]
    fn an_ack_with_the_wrong_length_is_an_error() {
        let mut d = Decoder::default();
        assert!(feed(&mut d, &[0x40, 0x03, 0x00, 0x01, 0x00]).is_err());
    }
}
