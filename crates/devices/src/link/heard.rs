//! When each gateway was last heard from: every message it sends over MQTT (telemetry, status,
//! event, reply) counts, as the broker (or, with an external broker, the portal's client)
//! receives it. The gateway screens show that time ("Last message", not the connection time)
//! and the status job ages it (`ingest::status`): a gateway that misses its reports turns
//! offline, and its next message brings it back.
//!
//! The time is noted in memory as each message arrives and written once a second for every
//! gateway heard from meanwhile (one transaction), so the message path gains no database write.
//! It is kept here, in the link, rather than in ingest because ingest also takes reports that
//! no gateway sent now (the demo's history), which must not make a gateway look online.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use store::Store;

/// How often what was heard is written.
pub const FLUSH_EVERY: Duration = Duration::from_secs(1);

#[derive(Default)]
pub(crate) struct Heard {
    /// Gateway SN -> when its newest message arrived (ms), since the last write.
    pending: Mutex<HashMap<String, i64>>,
}

impl Heard {
    /// A message of `sn` arrived at `at`.
    pub fn heard(&self, sn: &str, at: i64) {
        let mut map = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        let slot = map.entry(sn.to_string()).or_insert(at);
        *slot = (*slot).max(at);
    }

    /// `sn` said it is going offline (a goodbye, or its last will): what was heard before
    /// must not mark it online again.
    pub fn gone(&self, sn: &str) {
        let mut map = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        map.remove(sn);
    }

    fn take(&self) -> Vec<(String, i64)> {
        let mut map = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        let mut out: Vec<(String, i64)> = map.drain().collect();
        out.sort();
        out
    }

    /// Writes what was heard now (also at shutdown and in tests).
    pub async fn flush(&self, store: &Store) {
        let heard = self.take();
        if let Err(e) = store.gateways_heard(&heard).await {
            tracing::warn!(%e, gateways = heard.len(), "last message times not stored");
            // Put them back: the next write tries again (newer times win).
            for (sn, at) in heard {
                self.heard(&sn, at);
            }
        }
    }
}

/// Writes what was heard every [`FLUSH_EVERY`], for as long as the task runs.
pub(crate) fn spawn_writer(store: Store, heard: Arc<Heard>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(FLUSH_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            tick.tick().await;
            heard.flush(&store).await;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_time_per_gateway_is_kept_and_a_goodbye_forgets_it() {
        let h = Heard::default();
        h.heard("GW1", 10);
        h.heard("GW1", 30);
        h.heard("GW1", 20);
        h.heard("GW2", 5);
        h.heard("GW3", 7);
        h.gone("GW3");
        assert_eq!(h.take(), vec![("GW1".into(), 30), ("GW2".into(), 5)]);
        assert!(h.take().is_empty());
    }
}
