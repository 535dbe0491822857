//! Takeovers: a gateway signing in again while the broker still serves its old connection.
//!
//! rmqtt hands a client's session to its new connection by asking the old connection's task
//! to stop, and waits five seconds for the answer. That task handles one packet at a time, and
//! the embedded broker's publish hook holds it until the packet's data is committed (see
//! `uplink.rs`), up to the commit timeout. A gateway that lost power in the middle of a report
//! and came back while that report waited (a slow database, a busy ingest) was therefore kept
//! out: the five seconds ran into the handshake deadline, the new connection was refused, and
//! the gateway's retries met the same wait until the old commit ended (issue 13).
//!
//! So the sign-in check, which runs before rmqtt asks the old connection to stop, announces
//! the takeover here, and an old connection's message still waiting for its commit gives up at
//! once: not acknowledged (the gateway resends it over the new connection), the old connection
//! closed, and its task free to hand the session over. The old connection's last will is not
//! taken in either (it would wait for a commit too, in the same task, and it would say offline
//! about a gateway that is signing in): a will counts only from the gateway's newest connection.

use std::{
    collections::HashMap,
    sync::{Mutex, PoisonError},
};

use rmqtt::types::Id;
use tokio::sync::Notify;

#[derive(Default)]
pub(crate) struct Takeovers {
    /// Per gateway SN: sign-ins since the broker started, and the newest connection.
    latest: Mutex<HashMap<String, (u64, Id)>>,
    signed_in: Notify,
}

impl Takeovers {
    /// The number of sign-ins of `sn` so far: a message taken in now belongs to this one.
    pub fn generation(&self, sn: &str) -> u64 {
        let map = self.latest.lock().unwrap_or_else(PoisonError::into_inner);
        map.get(sn).map_or(0, |(n, _)| *n)
    }

    /// `sn` has just signed in on the connection `id`.
    pub fn signed_in(&self, sn: &str, id: &Id) {
        {
            let mut map = self.latest.lock().unwrap_or_else(PoisonError::into_inner);
            let n = map.get(sn).map_or(0, |(n, _)| *n);
            map.insert(sn.to_string(), (n + 1, id.clone()));
        }
        self.signed_in.notify_waiters();
    }

    /// Whether a newer connection of `sn` signed in after `id`.
    pub fn replaced(&self, sn: &str, id: &Id) -> bool {
        let map = self.latest.lock().unwrap_or_else(PoisonError::into_inner);
        map.get(sn).is_some_and(|(_, latest)| latest != id)
    }

    /// Resolves once `sn` signs in again after `generation`.
    pub async fn signed_in_after(&self, sn: &str, generation: u64) {
        loop {
            let notified = self.signed_in.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if self.generation(sn) != generation {
                return;
            }
            notified.await;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::{sync::Arc, time::Duration};

    use super::*;

    fn id(client: &str, port: u16) -> Id {
        let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
        Id::new(1, 1, None, Some(addr), client.into(), Some(client.into()))
    }

    #[tokio::test]
    async fn a_wait_ends_when_its_gateway_signs_in_again_and_only_then() {
        let t = Arc::new(Takeovers::default());
        let (old, new) = (id("GW1", 1000), id("GW1", 1001));
        t.signed_in("GW1", &old);
        let first = t.generation("GW1");
        let waiting = {
            let t = t.clone();
            tokio::spawn(async move { t.signed_in_after("GW1", first).await })
        };
        t.signed_in("GW2", &id("GW2", 1002));
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished(), "another gateway's sign-in");
        assert!(!t.replaced("GW1", &old));
        t.signed_in("GW1", &new);
        tokio::time::timeout(Duration::from_secs(1), waiting)
            .await
            .expect("woken")
            .expect("joined");
        assert_eq!(t.generation("GW1"), first + 1);
        assert!(t.replaced("GW1", &old) && !t.replaced("GW1", &new));
        // A sign-in before the wait starts counts too.
        tokio::time::timeout(Duration::from_secs(1), t.signed_in_after("GW1", first))
            .await
            .expect("already replaced");
    }
}
