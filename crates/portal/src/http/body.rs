//! The bodies around a request and its answer: the request's notes whether the handler read
//! it to its end (and gives back what it left, to be drained), the answer's holds the
//! connection's count of requests being answered until hyper has sent it.

use std::{
    pin::Pin,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    task::{Context, Poll},
    time::Duration,
};

use axum::body::{Body, Bytes, HttpBody};
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;

/// An unread request body of at most this many bytes (its declared length) is read and thrown
/// away, if it arrives within [`DRAIN`], so that the connection can serve the next request:
/// the size of any JSON body the API takes.
const DRAIN_BYTES: u64 = 64 * 1024;
const DRAIN: Duration = Duration::from_secs(1);

/// Reads and drops the rest of a request body the handler left, when it is small and comes
/// soon; answers whether the body is now read to its end.
pub async fn drain(seen: &Seen) -> bool {
    let left = seen.left.lock().unwrap_or_else(|e| e.into_inner()).take();
    let Some(mut body) = left else {
        return false;
    };
    if body.size_hint().upper().is_none_or(|n| n > DRAIN_BYTES) {
        return false;
    }
    let read = async {
        loop {
            match std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
                None => return true,
                Some(Ok(_)) => {}
                Some(Err(_)) => return false,
            }
        }
    };
    tokio::time::timeout(DRAIN, read).await.unwrap_or(false)
}

/// What became of a request body: read to its end, or left unread (given back when the
/// handler drops it, for [`drain`]).
#[derive(Default)]
pub struct Seen {
    pub read_to_end: AtomicBool,
    left: Mutex<Option<Incoming>>,
}

/// A request body that notes whether the handler read it to its end.
pub struct Tracked {
    /// Always `Some` until dropped.
    inner: Option<Incoming>,
    seen: Arc<Seen>,
}

impl Tracked {
    pub fn new(body: Incoming, seen: Arc<Seen>) -> Tracked {
        Tracked {
            inner: Some(body),
            seen,
        }
    }
}

impl HttpBody for Tracked {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let this = self.get_mut();
        let Some(inner) = this.inner.as_mut() else {
            return Poll::Ready(None);
        };
        let polled = Pin::new(&mut *inner).poll_frame(cx);
        if matches!(polled, Poll::Ready(None)) || inner.is_end_stream() {
            this.seen.read_to_end.store(true, Ordering::Relaxed);
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.as_ref().is_none_or(HttpBody::is_end_stream)
    }

    fn size_hint(&self) -> SizeHint {
        self.inner
            .as_ref()
            .map(HttpBody::size_hint)
            .unwrap_or_else(|| SizeHint::with_exact(0))
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        if !self.seen.read_to_end.load(Ordering::Relaxed) {
            *self.seen.left.lock().unwrap_or_else(|e| e.into_inner()) = self.inner.take();
        }
    }
}

/// An answer's body, holding `guard` (its request's place among those being answered) until
/// hyper has sent it.
pub struct Answered<G> {
    inner: Body,
    _guard: G,
}

impl<G> Answered<G> {
    pub fn new(inner: Body, guard: G) -> Answered<G> {
        Answered {
            inner,
            _guard: guard,
        }
    }
}

impl<G: Unpin> HttpBody for Answered<G> {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.get_mut().inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
