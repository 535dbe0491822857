//! The public HTTP server: an accept loop of our own around hyper's HTTP/1.1 connections, in
//! place of `axum::serve`, which neither bounds connections nor closes idle ones (twenty
//! thousand idle sockets from one address once took every descriptor, and `/healthz` and
//! ingest with them). Each connection is admitted by the [`gate`] (per source address and in
//! all) and watched by [`conn`] (idle and header timeouts). Shutdown works as with
//! `axum::serve`: no new connections, requests being answered finish, then every connection
//! closes.

mod body;
pub mod conn;
pub mod gate;

use std::{future::Future, io, net::SocketAddr, pin::pin, time::Duration};

use axum::Router;
use tokio::{
    net::{TcpListener, TcpSocket},
    sync::watch,
};

pub use conn::Timeouts;

/// The HTTP server's bounds (`PORTAL_HTTP_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub timeouts: Timeouts,
    pub per_address: u32,
    pub total: u32,
}

/// HTTP may hold at most this share of the process's open-file limit: the database, uploaded
/// files and the device broker need the rest.
const SHARE_OF_DESCRIPTORS: u64 = 2;

impl Limits {
    /// These limits with `total` lowered to half the open-file limit `nofile` (when known), so
    /// that connections can never take the descriptors the database and ingest need.
    pub fn within(self, nofile: Option<u64>) -> Limits {
        let Some(nofile) = nofile else { return self };
        let cap = u32::try_from(nofile / SHARE_OF_DESCRIPTORS)
            .unwrap_or(u32::MAX)
            .max(1);
        Limits {
            total: self.total.min(cap),
            per_address: self.per_address.min(cap),
            ..self
        }
    }
}

/// Connections the kernel completes and queues for accept: 1024, not the 128 of a plain bind,
/// so that a burst of connections refused at accept (each takes a moment) does not overflow
/// the queue and stall genuine clients' connects for a second (a dropped SYN is retried after
/// one). The kernel caps it at `net.core.somaxconn`.
const BACKLOG: u32 = 1024;

/// Listens on `addr` (reusing the address, as a plain bind does on Unix).
pub fn listen(addr: SocketAddr) -> io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

/// Serves `app` on `listener` until `shutdown` completes, then waits for the connections to
/// finish. `name` labels its metrics (`public`, `metrics`).
pub async fn serve(
    name: &'static str,
    listener: TcpListener,
    app: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) {
    let gate = gate::Gate::new(name, limits.per_address, limits.total);
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut shutdown = pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                accept_failed(e).await;
                continue;
            }
        };
        // Refused: closed before anything is read from it, with a reset (zero linger) so that
        // it leaves no socket behind in TIME_WAIT, where the peer's next connect from the same
        // port would stall for a second.
        let Ok(permit) = gate.admit(peer.ip()) else {
            let _ = stream.set_zero_linger();
            continue;
        };
        let _ = stream.set_nodelay(true);
        tokio::spawn(conn::serve(
            stream,
            peer,
            app.clone(),
            limits.timeouts,
            stop_rx.clone(),
            permit,
        ));
    }
    drop(listener);
    drop(stop_rx);
    let _ = stop_tx.send(true);
    // Every connection holds a receiver until it has closed.
    stop_tx.closed().await;
}

/// A connection that failed between the peer's connect and our accept is its own business;
/// anything else (out of descriptors, above all) is logged, and accepting pauses a moment
/// rather than spinning on the same error.
async fn accept_failed(e: io::Error) {
    if matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    ) {
        return;
    }
    tracing::error!(%e, "HTTP accept failed");
    tokio::time::sleep(Duration::from_millis(500)).await;
}

/// The process's soft open-file limit, on Linux (`/proc/self/limits`); `None` when unknown or
/// unlimited. Read, not raised: raising it needs a system call the workspace would have to
/// make through `unsafe` or a new dependency, and the service manager sets it anyway
/// (`LimitNOFILE=` in deploy/portal.service).
pub fn open_file_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    soft_nofile(&text)
}

fn soft_nofile(limits: &str) -> Option<u64> {
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.trim_start_matches("Max open files")
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: &str = "Limit                     Soft Limit           Hard Limit           Units     \n\
        Max cpu time              unlimited            unlimited            seconds   \n\
        Max open files            1024                 524288               files     \n";

    #[test]
    fn the_soft_open_file_limit_is_read_from_proc() {
        assert_eq!(soft_nofile(LIMITS), Some(1024));
        assert_eq!(
            soft_nofile(
                "Max open files            unlimited            unlimited            files"
            ),
            None
        );
        assert_eq!(soft_nofile(""), None);
    }

    #[test]
    fn http_never_holds_more_than_half_the_descriptors() {
        let limits = Limits {
            timeouts: Timeouts {
                header: Duration::from_secs(20),
                idle: Duration::from_secs(60),
            },
            per_address: 256,
            total: 8192,
        };
        assert_eq!(limits.within(None), limits);
        assert_eq!(limits.within(Some(65_536)), limits);
        let small = limits.within(Some(1024));
        assert_eq!((small.total, small.per_address), (512, 256));
        let tiny = limits.within(Some(100));
        assert_eq!((tiny.total, tiny.per_address), (50, 50));
    }
}
