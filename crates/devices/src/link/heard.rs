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
//!
//! The same goes for sign-ins: when the embedded broker accepts a gateway's connection, the
//! time is noted here and written with the rest as the gateway's `signed_in_at`, which tells a
//! restart that the gateway came back (a new connection, not just another message). An
//! external broker tells the portal of no connections; there an online status that finds the
//! gateway offline counts instead (`Store::update_gateway_status`).

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
    /// Gateway SN -> when it last signed in (ms), since the last write.
    signed_in: Mutex<HashMap<String, i64>>,
}

impl Heard {
    /// A message of `sn` arrived at `at`.
    pub fn heard(&self, sn: &str, at: i64) {
        newest(&self.pending, sn, at);
    }

    /// `sn` said it is going offline (a goodbye, or its last will): what was heard before
    /// must not mark it online again.
    pub fn gone(&self, sn: &str) {
        let mut map = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        map.remove(sn);
    }

    /// `sn` signed in (a new connection) at `at`.
    pub fn signed_in(&self, sn: &str, at: i64) {
        newest(&self.signed_in, sn, at);
    }

    fn take(&self) -> Vec<(String, i64)> {
        drain(&self.pending)
    }

    /// Writes what was heard now (also at shutdown and in tests).
    pub async fn flush(&self, store: &Store) {
        let signed_in = drain(&self.signed_in);
        if let Err(e) = store.gateways_signed_in(&signed_in).await {
            tracing::warn!(%e, gateways = signed_in.len(), "sign-in times not stored");
            for (sn, at) in signed_in {
                self.signed_in(&sn, at);
            }
        }
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

/// Notes `at` for `sn` in `map` unless a later time is there.
fn newest(map: &Mutex<HashMap<String, i64>>, sn: &str, at: i64) {
    let mut map = map.lock().unwrap_or_else(PoisonError::into_inner);
    let slot = map.entry(sn.to_string()).or_insert(at);
    *slot = (*slot).max(at);
}

/// Everything in `map`, by SN, leaving it empty.
fn drain(map: &Mutex<HashMap<String, i64>>) -> Vec<(String, i64)> {
    let mut map = map.lock().unwrap_or_else(PoisonError::into_inner);
    let mut out: Vec<(String, i64)> = map.drain().collect();
    out.sort();
    out
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

    #[test]
    fn sign_ins_keep_the_newest_apart_from_messages_and_a_goodbye_keeps_them() {
        let h = Heard::default();
        h.signed_in("GW1", 40);
        h.signed_in("GW1", 20);
        h.gone("GW1");
        assert!(h.take().is_empty(), "a sign-in is not a message");
        assert_eq!(drain(&h.signed_in), vec![("GW1".into(), 40)]);
    }
}
