//! One HTTP/1.1 connection: hyper serves the router on it, and a watchdog closes it when it
//! waits too long for a request.
//!
//! hyper's own `header_read_timeout` starts when the connection becomes ready for a request,
//! so it would also be the keep-alive idle time; the two are kept apart here. While no request
//! is being answered, a connection that has received nothing is closed `idle` after it became
//! ready (accepted, or its last answer sent), and one that has started sending a request head
//! is closed `header` after its first byte, however slowly the rest trickles in (slowloris).
//! A request being answered is never cut by either.
//!
//! A request whose body the handler did not read to its end (an upload refused on its token,
//! size or type) must not leave the unread rest to be taken for the next request. A small rest
//! (at most 64 KB, arriving within a second: [`drain`]) is read and thrown away before the
//! answer goes out, and the connection stays open; anything else is answered with
//! `Connection: close`, so the client sends its next request on a new connection, and before
//! the socket is closed the rest is read and thrown away for a moment (a "lingering close"),
//! so the client, still sending, reads the answer instead of a reset.

use std::{
    convert::Infallible,
    future::Future,
    io,
    net::SocketAddr,
    pin::Pin,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    task::{Context, Poll},
    time::Duration,
};

use axum::{
    Router,
    body::{Body, HttpBody},
    extract::ConnectInfo,
    http::{HeaderValue, Request, Response, header},
};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::{
    io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf},
    net::TcpStream,
    sync::{Notify, watch},
    time::Instant,
};
use tower::ServiceExt;

use super::{
    body::{Answered, Seen, Tracked, drain},
    gate::Permit,
};

/// How long a connection may wait for a request; see the module documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    pub header: Duration,
    pub idle: Duration,
}

/// A closing connection reads and drops what the client still sends for at most this long, and
/// at most [`LINGER_BYTES`]: enough for the client to see the answer, too little to be a way
/// of holding the connection open.
const LINGER: Duration = Duration::from_secs(2);
const LINGER_BYTES: usize = 16 << 20;

/// Serves `app` on `stream` until the client leaves, a timeout closes it, or `stop` asks every
/// connection to finish (shutdown: the request being answered completes, then it closes).
pub async fn serve(
    stream: TcpStream,
    peer: SocketAddr,
    app: Router,
    timeouts: Timeouts,
    mut stop: watch::Receiver<bool>,
    _permit: Permit,
) {
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(Watched {
        inner: stream,
        activity: activity.clone(),
    });
    let service = {
        let activity = activity.clone();
        hyper::service::service_fn(move |req: Request<Incoming>| {
            answer(app.clone(), peer, activity.clone(), req)
        })
    };
    let mut builder = hyper::server::conn::http1::Builder::new();
    // The watchdog below keeps the time instead (see the module documentation).
    builder.header_read_timeout(None::<Duration>);
    let mut conn = builder.serve_connection(io, service);
    let mut stopping = false;
    let served = loop {
        // When stopping, a connection answering nothing closes now, even one half way through
        // a request head (hyper's graceful shutdown would wait for the rest of it).
        let deadline = activity
            .deadline(timeouts)
            .map(|at| if stopping { Instant::now() } else { at });
        let wait = async {
            match deadline {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            done = std::future::poll_fn(|cx| conn.poll_without_shutdown(cx)) => break done,
            () = activity.changed.notified() => {}
            Ok(()) = stop.changed(), if !stopping => {
                stopping = true;
                Pin::new(&mut conn).graceful_shutdown();
            }
            () = wait => {
                // Nothing is being answered (else there is no deadline): nothing is lost.
                if activity
                    .deadline(timeouts)
                    .is_some_and(|at| stopping || at <= Instant::now())
                {
                    tracing::debug!(%peer, "HTTP connection closed: no request in time");
                    return;
                }
            }
        }
    };
    if let Err(e) = served {
        tracing::debug!(%peer, %e, "HTTP connection ended");
        return;
    }
    if activity.body_left_unread.load(Ordering::Relaxed) {
        let mut parts = conn.into_parts();
        linger(&mut parts.io.inner_mut().inner).await;
    }
}

/// Ends a connection the server closes: no more writing, then reads what the client still
/// sends (bounded in time and bytes) so that closing does not reset the answer away.
async fn linger(stream: &mut TcpStream) {
    if stream.shutdown().await.is_err() {
        return;
    }
    let mut buf = [0u8; 16 * 1024];
    let mut left = LINGER_BYTES;
    let drain = async {
        while left > 0 {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => left = left.saturating_sub(n),
            }
        }
    };
    let _ = tokio::time::timeout(LINGER, drain).await;
}

type Answer = Pin<Box<dyn Future<Output = Result<Response<Body>, Infallible>> + Send>>;

/// One request through the router, counted as being answered until its answer's body is gone.
fn answer(
    app: Router,
    peer: SocketAddr,
    activity: Arc<Activity>,
    req: Request<Incoming>,
) -> Answer {
    Box::pin(async move {
        let answering = Answering::start(activity);
        let (mut parts, body) = req.into_parts();
        parts.extensions.insert(ConnectInfo(peer));
        let unread = !body.is_end_stream();
        let seen = Arc::new(Seen::default());
        let body = Body::new(Tracked::new(body, seen.clone()));
        let response = match app.oneshot(Request::from_parts(parts, body)).await {
            Ok(response) => response,
            Err(never) => match never {},
        };
        let (mut parts, body) = response.into_parts();
        if unread && !seen.read_to_end.load(Ordering::Relaxed) && !drain(&seen).await {
            answering.0.body_left_unread.store(true, Ordering::Relaxed);
            parts
                .headers
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        Ok(Response::from_parts(
            parts,
            Body::new(Answered::new(body, answering)),
        ))
    })
}

/// What the watchdog knows of its connection.
struct Activity {
    phase: Mutex<Phase>,
    /// Wakes the watchdog when its deadline may have moved.
    changed: Notify,
    /// An answer went out before its request's body was read: the connection closes after it,
    /// lingering (see [`linger`]).
    body_left_unread: AtomicBool,
}

struct Phase {
    /// Requests being answered (more than one only when a client pipelines).
    answering: u32,
    /// Since when the connection waits for a request.
    ready_since: Instant,
    /// The first byte received while waiting, if any.
    head_since: Option<Instant>,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            phase: Mutex::new(Phase {
                answering: 0,
                ready_since: Instant::now(),
                head_since: None,
            }),
            changed: Notify::new(),
            body_left_unread: AtomicBool::new(false),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Phase> {
        self.phase.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// When to close the connection; `None` while a request is being answered.
    fn deadline(&self, t: Timeouts) -> Option<Instant> {
        let p = self.lock();
        if p.answering > 0 {
            return None;
        }
        Some(match p.head_since {
            Some(first_byte) => first_byte + t.header,
            None => p.ready_since + t.idle,
        })
    }

    fn received(&self) {
        let mut p = self.lock();
        if p.answering == 0 && p.head_since.is_none() {
            p.head_since = Some(Instant::now());
            drop(p);
            self.changed.notify_one();
        }
    }
}

/// A request being answered; when dropped (its answer sent, or the client gone) the
/// connection waits for the next one.
struct Answering(Arc<Activity>);

impl Answering {
    fn start(activity: Arc<Activity>) -> Answering {
        {
            let mut p = activity.lock();
            p.answering += 1;
            p.head_since = None;
        }
        activity.changed.notify_one();
        Answering(activity)
    }
}

impl Drop for Answering {
    fn drop(&mut self) {
        {
            let mut p = self.0.lock();
            p.answering = p.answering.saturating_sub(1);
            if p.answering == 0 {
                p.ready_since = Instant::now();
                p.head_since = None;
            }
        }
        self.0.changed.notify_one();
    }
}

/// The socket, telling the watchdog when bytes arrive.
struct Watched {
    inner: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for Watched {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.inner).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            this.activity.received();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}
