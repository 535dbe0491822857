//! Modbus RTU devices on an RS485 bus, emulated on a pseudo-terminal: the client opens the
//! slave side (`/dev/pts/N`, or a symlink to it) like a USB-RS485 adapter. The bus keeps the
//! configured baud rate's timing although a pty moves bytes at once: a device sees a request
//! when its last byte would have arrived and 3.5 character times of silence have passed (how
//! an RTU device finds the end of a frame), and its reply arrives when its last byte would
//! have. A character is 10 bits (start, 8 data, stop). Units not on the bus stay silent.

use std::{
    io,
    os::fd::{AsRawFd, OwnedFd},
    path::{Path, PathBuf},
    sync::Arc,
    time::Duration,
};

use devices::modbus::{rtu_frame, rtu_split};
use nix::{
    fcntl::{FcntlArg, OFlag, fcntl},
    pty::{Winsize, openpty},
    sys::termios::{SetArg, Termios, cfmakeraw, tcgetattr, tcsetattr},
};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::unix::pipe,
    time::Instant,
};

use super::{
    faults::{Fault, Faults, garbage},
    link::{Outcome, Stats, serve},
    site::SiteHandle,
};

/// An RTU frame is at most 256 bytes; a bus buffer holds one frame and no more.
const MAX_FRAME: usize = 256;

/// The pty of one emulated bus. The slave stays open here too, so that the master side keeps
/// working while no client has the port open.
pub struct Pty {
    master: OwnedFd,
    slave: OwnedFd,
    pub path: PathBuf,
}

/// Opens a pseudo-terminal in raw mode (no echo, no line editing: bytes pass unchanged).
pub fn open_pty() -> io::Result<Pty> {
    let pty = openpty(None::<&Winsize>, None::<&Termios>).map_err(io::Error::from)?;
    let mut termios = tcgetattr(&pty.slave).map_err(io::Error::from)?;
    cfmakeraw(&mut termios);
    tcsetattr(&pty.slave, SetArg::TCSANOW, &termios).map_err(io::Error::from)?;
    let flags = fcntl(&pty.master, FcntlArg::F_GETFL).map_err(io::Error::from)?;
    fcntl(
        &pty.master,
        FcntlArg::F_SETFL(OFlag::from_bits_truncate(flags) | OFlag::O_NONBLOCK),
    )
    .map_err(io::Error::from)?;
    let path = std::fs::read_link(format!("/proc/self/fd/{}", pty.slave.as_raw_fd()))?;
    Ok(Pty {
        master: pty.master,
        slave: pty.slave,
        path,
    })
}

/// Makes `link` a symlink to the pty (replacing an older symlink there, never a file).
pub fn link_to(pty: &Path, link: &Path) -> io::Result<()> {
    if link
        .symlink_metadata()
        .is_ok_and(|m| m.file_type().is_symlink())
    {
        std::fs::remove_file(link)?;
    }
    std::os::unix::fs::symlink(pty, link)
}

/// Time on the wire of `bytes` bytes at `baud`: 10 bits each.
pub fn wire_time(bytes: usize, baud: u32) -> Duration {
    Duration::from_secs_f64(bytes as f64 * 10.0 / f64::from(baud.max(1)))
}

/// The silence that ends a frame: 3.5 characters (1.75 ms above 19200 baud, as the Modbus
/// serial line specification fixes it).
pub fn frame_gap(baud: u32) -> Duration {
    if baud > 19_200 {
        Duration::from_micros(1750)
    } else {
        wire_time(1, baud).mul_f64(3.5)
    }
}

/// The length of the request at the front of `buf` for the functions whose length the header
/// tells; `None` when it cannot be known yet (or at all: such frames end at silence).
fn request_len(buf: &[u8]) -> Option<usize> {
    match buf.get(1)? {
        3 | 4 | 6 => Some(8),
        16 => buf.get(6).map(|n| 9 + usize::from(*n)),
        _ => None,
    }
}

struct Bus {
    reader: pipe::Receiver,
    writer: pipe::Sender,
    baud: u32,
    site: SiteHandle,
    faults: Faults,
    stats: Arc<Stats>,
}

/// Serves the bus until the task is aborted.
pub async fn run(
    pty: Pty,
    baud: u32,
    site: SiteHandle,
    faults: Faults,
    stats: Arc<Stats>,
) -> io::Result<()> {
    // tokio's pipe halves take any non-blocking descriptor they own ("unchecked": not only
    // FIFOs); one duplicate of the master reads, the other writes.
    let writer = pipe::Sender::from_owned_fd_unchecked(pty.master.try_clone()?)?;
    let reader = pipe::Receiver::from_owned_fd_unchecked(pty.master)?;
    let mut bus = Bus {
        reader,
        writer,
        baud,
        site,
        faults,
        stats,
    };
    // Held open for as long as the bus runs.
    let _slave = pty.slave;
    bus.serve().await
}

impl Bus {
    async fn serve(&mut self) -> io::Result<()> {
        let gap = frame_gap(self.baud);
        let mut buf: Vec<u8> = Vec::with_capacity(MAX_FRAME);
        let mut chunk = [0u8; MAX_FRAME];
        // When the first byte of the frame in `buf` arrived, and when the bus is next free.
        let mut started = Instant::now();
        let mut bus_free = Instant::now();
        loop {
            // A frame of known length is taken as soon as it is whole; any other ends at the
            // silence after it, as on the wire.
            let whole = request_len(&buf).filter(|n| buf.len() >= *n);
            if let Some(n) = whole {
                if rtu_split(&buf[..n]).is_err() {
                    // Noise or a damaged frame: slide one byte and look again.
                    self.stats.malformed();
                    buf.remove(0);
                    continue;
                }
                let frame: Vec<u8> = buf.drain(..n).collect();
                bus_free = self.transact(&frame, started.max(bus_free)).await?;
                started = Instant::now();
                continue;
            }
            let read = if buf.is_empty() {
                Ok(self.reader.read(&mut chunk).await)
            } else {
                // The silence that ends a frame, and a millisecond for the timer's grain.
                tokio::time::timeout(gap + Duration::from_millis(1), self.reader.read(&mut chunk))
                    .await
            };
            match read {
                Ok(Ok(0)) => tokio::time::sleep(gap).await,
                Ok(Ok(n)) => {
                    if buf.is_empty() {
                        started = Instant::now();
                    }
                    if buf.len() + n > MAX_FRAME {
                        // Longer than any frame: the device drops what it had, like a UART
                        // overrun, and starts again from these bytes.
                        self.stats.malformed();
                        buf.clear();
                    }
                    buf.extend_from_slice(&chunk[..n.min(MAX_FRAME)]);
                }
                Ok(Err(e)) if e.kind() == io::ErrorKind::Interrupted => {}
                // EIO while no client holds the port open on some kernels: wait for one.
                Ok(Err(_)) => tokio::time::sleep(Duration::from_millis(20)).await,
                Err(_silence) => {
                    // The frame ended: answer it if it is one, or the frame it ends with when
                    // noise came first (a line settling); else it was noise.
                    let frame = std::mem::take(&mut buf);
                    let found = (0..frame.len()).find(|i| rtu_split(&frame[*i..]).is_ok());
                    if found != Some(0) {
                        self.stats.malformed();
                    }
                    if let Some(i) = found {
                        bus_free = self.transact(&frame[i..], started.max(bus_free)).await?;
                    }
                }
            }
        }
    }

    /// Answers one frame whose first byte reached the bus at `start`; returns when the bus is
    /// free again.
    async fn transact(&mut self, frame: &[u8], start: Instant) -> io::Result<Instant> {
        let heard = start + wire_time(frame.len(), self.baud) + frame_gap(self.baud);
        let Ok((unit, pdu)) = rtu_split(frame) else {
            // A frame with a bad CRC is dropped by every device on the bus.
            self.stats.malformed();
            return Ok(heard);
        };
        // Unit 0 is a broadcast: nobody answers it, and these devices take no broadcast writes.
        if unit == 0 {
            self.stats.ignored();
            return Ok(heard);
        }
        let reply = match serve(&self.site, &self.faults, &self.stats, unit, pdu) {
            Outcome::Reply { pdu, fault } => {
                let mut reply = rtu_frame(unit, &pdu);
                match fault {
                    Some(Fault::Delay(d)) => tokio::time::sleep(d).await,
                    Some(Fault::BadCrc) => {
                        if let Some(last) = reply.last_mut() {
                            *last ^= 0xFF;
                        }
                    }
                    Some(Fault::Garbage) => reply = garbage(reply.len()),
                    _ => {}
                }
                reply
            }
            Outcome::Silent | Outcome::Absent | Outcome::Drop => return Ok(heard),
        };
        let done = Instant::now().max(heard) + wire_time(reply.len(), self.baud);
        tokio::time::sleep_until(done).await;
        self.writer.write_all(&reply).await?;
        self.stats.reply();
        Ok(done)
    }
}
