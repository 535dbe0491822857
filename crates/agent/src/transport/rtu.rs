//! Modbus RTU over a serial port (an RS485 adapter): the port in raw mode at the bus's baud rate,
//! parity and stop bits, through termios (nix, no `unsafe`). A reply ends when it holds the
//! length its request implies (5 bytes for an exception), or the request times out; between two
//! requests the bus stays silent for the 3.5 characters RTU needs to tell frames apart.
//!
//! The port is non-blocking and polled every millisecond while a reply is awaited (tokio's
//! readiness API for raw descriptors now needs `unsafe`, which the workspace forbids); a
//! character takes 1.1 ms at 9600 baud, so the poll adds at most about one character per reply.

use std::{
    io::{Read, Write},
    os::unix::fs::OpenOptionsExt,
    path::PathBuf,
    time::Duration,
};

use devices::modbus;
use nix::{
    fcntl::OFlag,
    sys::termios::{self, BaudRate, ControlFlags, FlushArg, SetArg},
};

/// How often a waiting request looks at the port.
const POLL: Duration = Duration::from_millis(1);

use super::{TransportError, split_rtu};
use crate::config::Parity;

/// The termios constant of a standard baud rate.
pub fn baud_rate(baud: u32) -> Option<BaudRate> {
    Some(match baud {
        1200 => BaudRate::B1200,
        2400 => BaudRate::B2400,
        4800 => BaudRate::B4800,
        9600 => BaudRate::B9600,
        19200 => BaudRate::B19200,
        38400 => BaudRate::B38400,
        57600 => BaudRate::B57600,
        115_200 => BaudRate::B115200,
        _ => return None,
    })
}

/// Time on the wire of `bytes` characters: 11 bits each (start, 8 data, parity or a second
/// stop bit, stop), the RTU character.
pub fn wire_time(bytes: usize, baud: u32) -> Duration {
    Duration::from_secs_f64(bytes as f64 * 11.0 / f64::from(baud.max(1)))
}

pub struct SerialLink {
    path: PathBuf,
    baud: u32,
    parity: Parity,
    stop_bits: u8,
    timeout: Duration,
    port: Option<std::fs::File>,
    /// When the last reply ended: the next request waits 3.5 characters after it.
    quiet_from: Option<tokio::time::Instant>,
}

impl SerialLink {
    pub fn new(
        path: PathBuf,
        baud: u32,
        parity: Parity,
        stop_bits: u8,
        timeout: Duration,
    ) -> SerialLink {
        SerialLink {
            path,
            baud,
            parity,
            stop_bits,
            timeout,
            port: None,
            quiet_from: None,
        }
    }

    fn open(&self) -> Result<std::fs::File, TransportError> {
        let fail = |e: String| TransportError::Connection(format!("{}: {e}", self.path.display()));
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags((OFlag::O_NONBLOCK | OFlag::O_NOCTTY).bits())
            .open(&self.path)
            .map_err(|e| fail(e.to_string()))?;
        let mut t = termios::tcgetattr(&file).map_err(|e| fail(e.to_string()))?;
        termios::cfmakeraw(&mut t);
        let speed = baud_rate(self.baud).ok_or_else(|| fail(format!("baud {}", self.baud)))?;
        let flags = &mut t.control_flags;
        // The speed goes into the control flags' CBAUD bits, as cfsetspeed(3) does: the C
        // library's cfsetspeed is a versioned symbol that a static link does not find.
        flags.remove(ControlFlags::CBAUD | ControlFlags::CIBAUD);
        flags.insert(ControlFlags::from_bits_retain(speed as u32));
        flags.insert(ControlFlags::CLOCAL | ControlFlags::CREAD);
        flags.remove(ControlFlags::PARENB | ControlFlags::PARODD | ControlFlags::CSTOPB);
        match self.parity {
            Parity::None => {}
            Parity::Even => flags.insert(ControlFlags::PARENB),
            Parity::Odd => flags.insert(ControlFlags::PARENB | ControlFlags::PARODD),
        }
        if self.stop_bits == 2 {
            flags.insert(ControlFlags::CSTOPB);
        }
        termios::tcsetattr(&file, SetArg::TCSANOW, &t).map_err(|e| fail(e.to_string()))?;
        Ok(file)
    }

    pub async fn exchange(
        &mut self,
        unit: u8,
        pdu: &[u8],
        expect: usize,
    ) -> Result<(u8, Vec<u8>), TransportError> {
        let result = self.try_exchange(unit, pdu, expect).await;
        self.quiet_from = Some(tokio::time::Instant::now());
        if matches!(result, Err(TransportError::Connection(_))) {
            self.port = None;
        }
        result
    }

    async fn try_exchange(
        &mut self,
        unit: u8,
        pdu: &[u8],
        expect: usize,
    ) -> Result<(u8, Vec<u8>), TransportError> {
        if self.port.is_none() {
            self.port = Some(self.open()?);
        }
        // 3.5 characters, and at least 1.75 ms above 19200 baud (the Modbus serial line spec).
        let silence = wire_time(4, self.baud)
            .mul_f64(3.5 / 4.0)
            .max(Duration::from_micros(1750));
        if let Some(at) = self.quiet_from {
            tokio::time::sleep_until(at + silence).await;
        }
        let Some(port) = self.port.as_ref() else {
            return Err(TransportError::Connection("not open".into()));
        };
        // Whatever arrived since the last reply (a late answer, line noise) is not ours.
        let _ = termios::tcflush(port, FlushArg::TCIFLUSH);
        let frame = modbus::rtu_frame(unit, pdu);
        let by =
            tokio::time::Instant::now() + self.timeout + wire_time(frame.len() + expect, self.baud);
        write_all(port, &frame, by).await?;
        let mut buf = Vec::with_capacity(expect);
        let mut want = expect;
        while buf.len() < want {
            let mut chunk = [0u8; 256];
            let room = (want - buf.len()).min(chunk.len());
            let n = read_some(port, &mut chunk[..room], by).await?;
            buf.extend_from_slice(&chunk[..n]);
            // An exception reply (function | 0x80) is 5 bytes whatever was asked.
            if buf.len() >= 2 && buf[1] & 0x80 != 0 {
                want = 5;
            }
        }
        split_rtu(&buf)
    }
}

async fn write_all(
    mut port: &std::fs::File,
    mut data: &[u8],
    by: tokio::time::Instant,
) -> Result<(), TransportError> {
    while !data.is_empty() {
        match port.write(data) {
            Ok(n) => data = &data[n..],
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if tokio::time::Instant::now() >= by {
                    return Err(TransportError::Timeout);
                }
                tokio::time::sleep(POLL).await;
            }
            Err(e) => return Err(TransportError::Connection(e.to_string())),
        }
    }
    Ok(())
}

async fn read_some(
    mut port: &std::fs::File,
    into: &mut [u8],
    by: tokio::time::Instant,
) -> Result<usize, TransportError> {
    loop {
        match port.read(into) {
            Ok(0) => return Err(TransportError::Connection("the port closed".into())),
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if tokio::time::Instant::now() >= by {
                    return Err(TransportError::Timeout);
                }
                tokio::time::sleep(POLL).await;
            }
            Err(e) => return Err(TransportError::Connection(e.to_string())),
        }
    }
}
