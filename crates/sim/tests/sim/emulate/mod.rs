//! The Modbus TCP and Solarman V5 emulators, read and written over real sockets with the
//! project's own codec: reads decode to the model's values, writes land only on writable
//! settings (and the plant follows them), every fault does what it says, and garbage does not
//! stop a server.

#![allow(clippy::unwrap_used)] // a test: a missing value is a failure

use crate::emulate_support;

use std::time::{Duration, Instant};

use devices::{
    decode::RegisterBlock,
    modbus::{
        Request, Response, V5_RESPONSE, rtu_frame, rtu_split, tcp_frame, tcp_frame_len, tcp_split,
        v5_request, v5_response_rtu, v5_split,
    },
    protocol::RegisterType,
};
use emulate_support::{SERIAL, address_of, assert_decodes_to, plan, start};
use sim::emulate::{Emulation, Fault};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

mod faults;
mod tcp;
mod v5;

const WAIT: Duration = Duration::from_secs(2);

/// A Modbus TCP client on one connection.
struct Tcp {
    stream: TcpStream,
    transaction: u16,
}

impl Tcp {
    async fn connect(e: &Emulation) -> Tcp {
        let addr = e.tcp.as_ref().unwrap().addr;
        Tcp {
            stream: TcpStream::connect(addr).await.unwrap(),
            transaction: 0,
        }
    }

    /// The raw reply frame, or None when nothing comes within `WAIT` or the server closed.
    async fn exchange(&mut self, unit: u8, pdu: &[u8]) -> Option<Vec<u8>> {
        self.transaction = self.transaction.wrapping_add(1);
        let frame = tcp_frame(self.transaction, unit, pdu);
        self.stream.write_all(&frame).await.ok()?;
        let mut head = [0u8; 7];
        let read = tokio::time::timeout(WAIT, self.stream.read_exact(&mut head)).await;
        if !matches!(read, Ok(Ok(_))) {
            return None;
        }
        let Ok(len) = tcp_frame_len(&head) else {
            return Some(head.to_vec());
        };
        let mut out = head.to_vec();
        out.resize(len, 0);
        self.stream.read_exact(&mut out[7..]).await.ok()?;
        Some(out)
    }

    async fn request(&mut self, unit: u8, request: &Request) -> Option<Response> {
        let reply = self.exchange(unit, &request.to_pdu().unwrap()).await?;
        let (transaction, u, pdu) = tcp_split(&reply).ok()?;
        assert_eq!((transaction, u), (self.transaction, unit));
        Response::from_pdu(pdu).ok()
    }

    async fn read(&mut self, unit: u8, kind: RegisterType, start: u16, count: u16) -> Response {
        let request = match kind {
            RegisterType::Holding => Request::ReadHolding { start, count },
            RegisterType::Input => Request::ReadInput { start, count },
        };
        self.request(unit, &request).await.expect("a reply")
    }
}

fn words(r: Response) -> Vec<u16> {
    match r {
        Response::Registers { values, .. } => values,
        other => panic!("not registers: {other:?}"),
    }
}

fn exception(r: Option<Response>) -> Option<u8> {
    match r {
        Some(Response::Exception { code, .. }) => Some(code),
        _ => None,
    }
}
