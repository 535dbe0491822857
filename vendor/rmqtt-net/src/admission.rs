//! PATCH (solar portal, see PATCHES.md): a hook the listener calls at accept with the peer's
//! address. It refuses the connection (the socket is closed at once, and the listener goes on
//! accepting) or admits it with a permit that lives as long as the connection: the permit
//! travels in the `Acceptor`, the `Dispatcher` and the `MqttStream`, which rmqtt moves into
//! the session, so it is dropped when the connection ends.
//!
//! The hook runs inside the accept loop, so it must decide without blocking.

use std::any::Any;
use std::fmt;
use std::net::SocketAddr;
use std::sync::Arc;

/// Whatever the admission hook wants to hold while the connection lives.
pub type Permit = Box<dyn Any + Send + Sync>;

/// Decides whether a new connection from a peer address is served.
#[derive(Clone)]
pub struct Admission(Arc<dyn Fn(SocketAddr) -> Option<Permit> + Send + Sync>);

impl Admission {
    /// `admit` answers `None` to refuse the connection, or a permit to serve it.
    pub fn new(admit: impl Fn(SocketAddr) -> Option<Permit> + Send + Sync + 'static) -> Self {
        Admission(Arc::new(admit))
    }

    #[inline]
    pub(crate) fn admit(&self, peer: SocketAddr) -> Option<Permit> {
        (self.0)(peer)
    }
}

impl fmt::Debug for Admission {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Admission(..)")
    }
}
