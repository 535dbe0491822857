//! What every transport shares: the counters of a server and the step from a request PDU to
//! the device's reply PDU, with the fault a request meets.

use std::{
    future::Future,
    net::SocketAddr,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use devices::{Error, modbus::Request};

use tokio::{
    net::{TcpListener, TcpStream},
    task::JoinSet,
};

use super::{
    faults::{Fault, Faults},
    site::{Answer, ILLEGAL_ADDRESS, ILLEGAL_FUNCTION, ILLEGAL_VALUE, SiteHandle},
};

/// A server's counters (all since it started).
#[derive(Debug, Default)]
pub struct Stats {
    requests: AtomicU64,
    replies: AtomicU64,
    malformed: AtomicU64,
    ignored: AtomicU64,
    connections: AtomicU64,
}

/// The counters at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Well-formed requests taken.
    pub requests: u64,
    /// Frames sent back (faulty ones included).
    pub replies: u64,
    /// Bytes or frames that were no valid request, skipped.
    pub malformed: u64,
    /// Valid frames not for this server (another logger serial, another V5 control code).
    pub ignored: u64,
    /// TCP connections accepted (and, past the limit, refused).
    pub connections: u64,
}

impl Stats {
    pub fn counts(&self) -> Counts {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        Counts {
            requests: get(&self.requests),
            replies: get(&self.replies),
            malformed: get(&self.malformed),
            ignored: get(&self.ignored),
            connections: get(&self.connections),
        }
    }

    pub(super) fn request(&self) {
        self.requests.fetch_add(1, Ordering::Relaxed);
    }
    pub(super) fn reply(&self) {
        self.replies.fetch_add(1, Ordering::Relaxed);
    }
    pub(super) fn malformed(&self) {
        self.malformed.fetch_add(1, Ordering::Relaxed);
    }
    pub(super) fn ignored(&self) {
        self.ignored.fetch_add(1, Ordering::Relaxed);
    }
    pub(super) fn connection(&self) {
        self.connections.fetch_add(1, Ordering::Relaxed);
    }
}

/// The device's side of one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Outcome {
    /// The reply PDU, to be framed by the transport; `fault` still applies to the frame.
    Reply { pdu: Vec<u8>, fault: Option<Fault> },
    /// No device has the unit id.
    Absent,
    /// Nothing goes back (a no-reply fault, or a PDU too broken to answer).
    Silent,
    /// The transport closes the connection.
    Drop,
}

fn exception(function: u8, code: u8) -> Vec<u8> {
    vec![function | 0x80, code]
}

/// Runs a request PDU for `unit` through its fault and the site. The device does not see a
/// request that meets no-reply, an exception or a dropped connection; with the other faults it
/// carries the request out and only the reply is harmed on its way back.
pub(super) fn serve(
    site: &SiteHandle,
    faults: &Faults,
    stats: &Stats,
    unit: u8,
    pdu: &[u8],
) -> Outcome {
    let fault = faults.for_unit(unit);
    let function = pdu.first().copied().unwrap_or(0) & 0x7F;
    match fault {
        Some(Fault::NoReply) => return Outcome::Silent,
        Some(Fault::DropConnection) => return Outcome::Drop,
        Some(Fault::Exception(code)) => {
            return Outcome::Reply {
                pdu: exception(function, code),
                fault: None,
            };
        }
        Some(Fault::RefuseWrites(code)) if matches!(function, 6 | 16) => {
            stats.request();
            return Outcome::Reply {
                pdu: exception(function, code),
                fault: None,
            };
        }
        _ => {}
    }
    let request = match Request::from_pdu(pdu) {
        Ok(r) => r,
        Err(e) => {
            let code = match e {
                Error::UnsupportedFunction(_) => ILLEGAL_FUNCTION,
                Error::BadQuantity { .. } => ILLEGAL_VALUE,
                Error::AddressOverflow { .. } => ILLEGAL_ADDRESS,
                _ => {
                    stats.malformed();
                    return Outcome::Silent;
                }
            };
            if !site.has_unit(unit) {
                return Outcome::Absent;
            }
            stats.request();
            return Outcome::Reply {
                pdu: exception(function, code),
                fault,
            };
        }
    };
    stats.request();
    match site.answer(unit, &request) {
        Answer::Absent => Outcome::Absent,
        Answer::Reply(response) => match response.to_pdu() {
            Ok(pdu) => Outcome::Reply { pdu, fault },
            // Not reachable for replies the site builds; a device failure if it ever is.
            Err(_) => Outcome::Reply {
                pdu: exception(function, 4),
                fault,
            },
        },
    }
}

/// Accepts TCP clients until the task is aborted, which ends every client with it. Past
/// `max_clients` at once, a new client is closed at once (as a device with few sockets does).
pub(super) async fn accept<F, Fut>(
    listener: TcpListener,
    stats: Arc<Stats>,
    max_clients: usize,
    mut client: F,
) where
    F: FnMut(TcpStream, SocketAddr) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let mut clients = JoinSet::new();
    loop {
        let Ok((stream, peer)) = listener.accept().await else {
            // Out of descriptors and the like: wait rather than spin.
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        stats.connection();
        while clients.try_join_next().is_some() {}
        if clients.len() >= max_clients {
            tracing::debug!(%peer, "emulator: too many clients, closed");
            continue;
        }
        clients.spawn(client(stream, peer));
    }
}
