//! A Solarman V5 data-logger stick on TCP (the LAN port 8899 of the Wi-Fi/Ethernet sticks):
//! it takes V5 requests carrying RTU frames for its serial, passes them to the devices (the
//! inverter's RS485 bus behind the stick) and wraps their replies.
//!
//! The stick talks to the devices over the inverter's RS485 port at 9600 baud, so an answer
//! takes the wire time of the request and the reply on that bus. As real sticks do, it echoes the request's first sequence byte and counts the second, stays
//! silent to frames for another logger serial, and answers a request no device replied to
//! with a frame whose RTU part is only `05 00` (captures in pysolarmanv5 issues 6, 12 and 48).

use std::{net::SocketAddr, sync::Arc, time::Duration};

use devices::modbus::{
    V5_HEADER_LEN, V5_MAX_PAYLOAD, V5_REQUEST, rtu_frame, rtu_split, v5_frame_len, v5_request_rtu,
    v5_response, v5_split,
};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
};

use super::{
    faults::{Fault, Faults, garbage},
    link::{Outcome, Stats, accept, serve},
    rtu::{frame_gap, wire_time},
    site::SiteHandle,
};

/// The largest frame: header, the largest payload, checksum and end byte.
const MAX_FRAME: usize = V5_HEADER_LEN + V5_MAX_PAYLOAD + 2;
/// What a stick puts where the RTU reply goes when the device did not answer.
const NO_REPLY_TAIL: [u8; 2] = [0x05, 0x00];
const IDLE: Duration = Duration::from_secs(120);
/// The baud rate between the stick and the inverter (Deye's RS485 default).
const STICK_BAUD: u32 = 9600;
/// How long the stick waits for a device that does not answer before it says so.
const NO_ANSWER_WAIT: Duration = Duration::from_millis(100);

/// Serves clients until the task is aborted.
pub async fn run(
    listener: TcpListener,
    serial: u32,
    site: SiteHandle,
    faults: Faults,
    stats: Arc<Stats>,
    max_clients: usize,
) {
    let counts = stats.clone();
    accept(listener, counts, max_clients, move |stream, peer| {
        let (site, faults, stats) = (site.clone(), faults.clone(), stats.clone());
        async move {
            let mut stick = Stick {
                serial,
                site: &site,
                faults: &faults,
                stats: &stats,
                counter: 0,
            };
            stick.client(stream, peer).await;
        }
    })
    .await;
}

struct Stick<'a> {
    serial: u32,
    site: &'a SiteHandle,
    faults: &'a Faults,
    stats: &'a Stats,
    /// The sequence byte the stick counts (the second of the two).
    counter: u8,
}

/// What to do after looking at the front of the buffer.
enum Step {
    /// Need more bytes.
    More,
    /// Drop this many bytes (junk, or a frame that was taken).
    Skip(usize, Option<Vec<u8>>),
    Close,
}

impl Stick<'_> {
    async fn client(&mut self, mut stream: TcpStream, peer: SocketAddr) {
        let _ = stream.set_nodelay(true);
        // Bounded: a frame is at most MAX_FRAME bytes, and bytes are only read while the
        // front of the buffer is an unfinished frame.
        let mut buf: Vec<u8> = Vec::with_capacity(MAX_FRAME);
        let mut chunk = [0u8; MAX_FRAME];
        loop {
            match self.step(&buf).await {
                Step::More => {
                    let room = MAX_FRAME - buf.len();
                    let read = tokio::time::timeout(IDLE, stream.read(&mut chunk[..room])).await;
                    match read {
                        Ok(Ok(n)) if n > 0 => buf.extend_from_slice(&chunk[..n]),
                        _ => return,
                    }
                }
                Step::Skip(n, reply) => {
                    buf.drain(..n.min(buf.len()));
                    if let Some(reply) = reply {
                        self.stats.reply();
                        if stream.write_all(&reply).await.is_err() {
                            return;
                        }
                    }
                }
                Step::Close => {
                    tracing::debug!(%peer, "v5: connection dropped (fault)");
                    return;
                }
            }
        }
    }

    async fn step(&mut self, buf: &[u8]) -> Step {
        if buf.is_empty() {
            return Step::More;
        }
        if buf[0] != 0xA5 {
            // Junk before a frame: skipped up to the next start byte, counted once.
            self.stats.malformed();
            let next = buf.iter().position(|b| *b == 0xA5).unwrap_or(buf.len());
            return Step::Skip(next, None);
        }
        if buf.len() < 3 {
            return Step::More;
        }
        let Ok(len) = v5_frame_len(buf) else {
            self.stats.malformed();
            return Step::Skip(1, None);
        };
        if buf.len() < len {
            return Step::More;
        }
        let Ok(frame) = v5_split(&buf[..len]) else {
            // Not a frame after all (checksum, end byte): resynchronise on the next A5.
            self.stats.malformed();
            return Step::Skip(1, None);
        };
        if frame.control != V5_REQUEST || frame.logger != self.serial {
            // Another stick's frame, or a kind of frame this one does not answer: silence.
            self.stats.ignored();
            return Step::Skip(len, None);
        }
        let Ok((unit, pdu)) = v5_request_rtu(frame.payload).and_then(rtu_split) else {
            self.stats.malformed();
            return Step::Skip(len, Some(self.wrap(frame.sequence, &NO_REPLY_TAIL, None)));
        };
        // The stick reaches the devices over the inverter's RS485 port: the request and the
        // reply take their time on that wire (clients that send and only then wait for the
        // answer, as pysolarmanv5 does, lose an answer that comes sooner than a real one).
        let request_len = frame.payload.len().saturating_sub(15);
        let reply = match serve(self.site, self.faults, self.stats, unit, pdu) {
            Outcome::Drop => return Step::Close,
            // The missing-reply fault is the stick's own silence; a device that says nothing
            // makes the stick say so.
            Outcome::Silent if self.faults.for_unit(unit) == Some(Fault::NoReply) => {
                return Step::Skip(len, None);
            }
            Outcome::Silent | Outcome::Absent => {
                tokio::time::sleep(wire_time(request_len, STICK_BAUD) + NO_ANSWER_WAIT).await;
                self.wrap(frame.sequence, &NO_REPLY_TAIL, None)
            }
            Outcome::Reply { pdu, fault } => {
                let mut rtu = rtu_frame(unit, &pdu);
                match fault {
                    Some(Fault::Delay(d)) => tokio::time::sleep(d).await,
                    Some(Fault::BadCrc) => {
                        if let Some(last) = rtu.last_mut() {
                            *last ^= 0xFF;
                        }
                    }
                    Some(Fault::Garbage) => return Step::Skip(len, Some(garbage(rtu.len() + 13))),
                    _ => {}
                }
                let wire = wire_time(request_len + rtu.len(), STICK_BAUD) + frame_gap(STICK_BAUD);
                tokio::time::sleep(wire).await;
                self.wrap(frame.sequence, &rtu, fault)
            }
        };
        Step::Skip(len, Some(reply))
    }

    /// The V5 answer: the request's first sequence byte echoed, the second the stick's count.
    fn wrap(&mut self, sequence: u16, rtu: &[u8], fault: Option<Fault>) -> Vec<u8> {
        self.counter = self.counter.wrapping_add(1);
        let sequence = u16::from_le_bytes([sequence.to_le_bytes()[0], self.counter]);
        let serial = if fault == Some(Fault::WrongSerial) {
            self.serial.wrapping_add(1)
        } else {
            self.serial
        };
        v5_response(sequence, serial, rtu)
    }
}
