//! The communication log's capture: every MQTT message a gateway sends (as the link receives
//! it) and every command the portal publishes to one, for the communication log screens.
//!
//! Like `heard.rs`, the message path only notes the message in memory (a copy of at most
//! [`MAX_STORED`] bytes of its payload under a short lock); a writer task stores what was noted
//! once a second in one transaction. The buffer is a budget per write: once it holds its budget
//! (messages arrive faster than the log is meant to keep, or the database falls behind), further
//! messages until the next write are counted (`portal_comm_log_dropped_total`) and not copied,
//! commands excepted, and ingest never waits for the log. A pruning
//! task keeps the table to a retention window and a number of messages per gateway.

use domain::ids::CommandId;
use std::{
    collections::{BTreeSet, VecDeque},
    sync::{
        Arc, Mutex, PoisonError,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::Duration,
};

use store::{Store, comm_log::NewCommEntry};

/// The most of a payload that is stored; longer ones are cut and flagged `truncated`.
pub const MAX_STORED: usize = 64 * 1024;
/// How often what was noted is written.
pub const FLUSH_EVERY: Duration = Duration::from_secs(1);

/// What the communication log keeps, and whether it runs at all.
#[derive(Debug, Clone)]
pub struct CommLogConfig {
    /// Capture messages (`PORTAL_COMM_LOG=off` switches it off).
    pub enabled: bool,
    /// Messages older than this are pruned.
    pub retention: Duration,
    /// Each gateway keeps at most this many messages (its newest).
    pub per_gateway: i64,
    /// Messages noted and not yet written, at most (more are counted and not kept): the most
    /// the log stores per [`FLUSH_EVERY`].
    pub max_pending: usize,
    /// Payload bytes noted and not yet written, at most (more are counted and not kept).
    pub max_pending_bytes: usize,
    /// How often the pruning task runs.
    pub prune_every: Duration,
}

impl Default for CommLogConfig {
    fn default() -> Self {
        CommLogConfig {
            enabled: true,
            retention: Duration::from_secs(72 * 3600),
            per_gateway: 1000,
            // A write budget per second, sized so that a saturated ingest loses under 5% to
            // the log (bench `--comm-log both`): 250 messages or 512 KiB, which a fleet of
            // 75,000 gateways reporting every five minutes stays within.
            max_pending: 250,
            max_pending_bytes: 512 * 1024,
            prune_every: Duration::from_secs(60),
        }
    }
}

/// A message on its way to the log, its payload not yet made text (the writer does that).
struct Noted {
    gateway_sn: String,
    direction: &'static str,
    kind: String,
    topic: String,
    /// At most [`MAX_STORED`] bytes of the payload.
    head: Vec<u8>,
    size: usize,
    command_id: Option<CommandId>,
    correlation: Option<String>,
    at: i64,
}

#[derive(Default)]
struct Pending {
    queue: VecDeque<Noted>,
    bytes: usize,
}

/// The in-memory side of the log, shared by the message paths and the writer.
pub struct CommLog {
    config: CommLogConfig,
    pending: Mutex<Pending>,
    /// Gateways written since the last prune (their per-gateway cap is checked next).
    touched: Mutex<BTreeSet<String>>,
    /// Set once the buffer holds this second's budget: further uplinks are only counted, not
    /// copied, so a saturated link pays one atomic load per message for the log.
    full: AtomicBool,
    dropped: AtomicU64,
    /// `dropped` as last added to the metric (the message path does not touch the registry).
    reported: AtomicU64,
    written: AtomicU64,
}

impl std::fmt::Debug for CommLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CommLog")
            .field("config", &self.config)
            .field("dropped", &self.dropped())
            .field("written", &self.written())
            .finish_non_exhaustive()
    }
}

/// A command as published to a gateway.
pub(crate) struct Downlink<'a> {
    pub gateway_sn: &'a str,
    pub topic: &'a str,
    pub payload: &'a [u8],
    pub command_id: CommandId,
}

impl CommLog {
    pub fn new(config: CommLogConfig) -> CommLog {
        CommLog {
            config,
            pending: Mutex::default(),
            touched: Mutex::default(),
            full: AtomicBool::new(false),
            dropped: AtomicU64::new(0),
            reported: AtomicU64::new(0),
            written: AtomicU64::new(0),
        }
    }

    pub fn enabled(&self) -> bool {
        self.config.enabled
    }

    /// Messages noted but dropped before they were written (the buffer was full).
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    /// Messages written to the log.
    pub fn written(&self) -> u64 {
        self.written.load(Ordering::Relaxed)
    }

    /// A message gateway `sn` published on `topic` (leaf `kind`; `will` for its last will).
    /// `correlation` is the command id a reply names.
    pub(crate) fn uplink(
        &self,
        sn: &str,
        kind: &str,
        topic: &str,
        payload: &[u8],
        correlation: Option<&str>,
    ) {
        if !self.config.enabled {
            return;
        }
        if self.full.load(Ordering::Relaxed) {
            self.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        }
        self.push(Noted {
            gateway_sn: sn.to_string(),
            direction: "up",
            kind: kind.to_string(),
            topic: topic.to_string(),
            head: payload[..payload.len().min(MAX_STORED)].to_vec(),
            size: payload.len(),
            command_id: None,
            correlation: correlation.map(String::from),
            at: super::now_ms(),
        });
    }

    /// What ingest left out of a telemetry message of gateway `sn` and why (`summary`, e.g.
    /// `1 value (out_of_range 1); "INV1" "grid_frequency": out_of_range (0 outside 40..=70)`),
    /// logged beside the message as kind `skipped` so the log says why a value is missing.
    pub fn skipped(&self, sn: &str, summary: &str) {
        if !self.config.enabled {
            return;
        }
        if self.full.load(Ordering::Relaxed) {
            self.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let bytes = summary.as_bytes();
        self.push(Noted {
            gateway_sn: sn.to_string(),
            direction: "up",
            kind: "skipped".into(),
            topic: format!("portal/v1/{sn}/telemetry"),
            head: bytes[..bytes.len().min(MAX_STORED)].to_vec(),
            size: bytes.len(),
            command_id: None,
            correlation: None,
            at: super::now_ms(),
        });
    }

    /// A command published to a gateway.
    pub(crate) fn downlink(&self, d: &Downlink<'_>) {
        if !self.config.enabled {
            return;
        }
        self.push(Noted {
            gateway_sn: d.gateway_sn.to_string(),
            direction: "down",
            kind: "command".into(),
            topic: d.topic.to_string(),
            head: d.payload[..d.payload.len().min(MAX_STORED)].to_vec(),
            size: d.payload.len(),
            command_id: Some(d.command_id),
            correlation: None,
            at: super::now_ms(),
        });
    }

    /// Commands (few, and the reason to read the log) always get in: the oldest noted message
    /// makes room for one beyond the budget.
    fn push(&self, noted: Noted) {
        let mut p = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        p.bytes += noted.head.len();
        p.queue.push_back(noted);
        let mut dropped = 0;
        while p.queue.len() > self.config.max_pending
            || (p.bytes > self.config.max_pending_bytes && p.queue.len() > 1)
        {
            if let Some(old) = p.queue.pop_front() {
                p.bytes -= old.head.len();
                dropped += 1;
            }
        }
        if p.queue.len() >= self.config.max_pending || p.bytes >= self.config.max_pending_bytes {
            self.full.store(true, Ordering::Relaxed);
        }
        drop(p);
        if dropped > 0 {
            self.dropped.fetch_add(dropped, Ordering::Relaxed);
        }
    }

    fn take(&self) -> Vec<Noted> {
        let mut p = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        p.bytes = 0;
        self.full.store(false, Ordering::Relaxed);
        let dropped = self.dropped.load(Ordering::Relaxed);
        let before = self.reported.swap(dropped, Ordering::Relaxed);
        if dropped > before {
            metrics::counter!("portal_comm_log_dropped_total").increment(dropped - before);
        }
        p.queue.drain(..).collect()
    }

    /// Writes what was noted now (also at shutdown and in tests), in one transaction.
    pub async fn flush(&self, store: &Store) {
        let noted = self.take();
        if noted.is_empty() {
            return;
        }
        let n = noted.len() as u64;
        let entries: Vec<NewCommEntry> = noted.into_iter().map(entry).collect();
        match store.insert_comm_log(&entries).await {
            Ok(written) => {
                self.written.fetch_add(written, Ordering::Relaxed);
                let mut touched = self.touched.lock().unwrap_or_else(PoisonError::into_inner);
                touched.extend(entries.into_iter().map(|e| e.gateway_sn));
            }
            Err(e) => {
                // Not put back: the log is a diagnostic aid, and newer messages matter more.
                tracing::warn!(%e, messages = n, "communication log batch not stored: dropped");
                self.dropped.fetch_add(n, Ordering::Relaxed);
                metrics::counter!("portal_comm_log_dropped_total").increment(n);
            }
        }
    }

    /// Removes what is past the retention window as of `now`, and each gateway's messages
    /// beyond its newest `per_gateway`: every gateway with messages when `all`, else those
    /// written since the last prune. Answers how many rows went.
    pub async fn prune(
        &self,
        store: &Store,
        now: i64,
        all: bool,
    ) -> Result<u64, store::StoreError> {
        let gateways: Vec<String> = if all {
            store.comm_log_gateways().await?
        } else {
            let mut touched = self.touched.lock().unwrap_or_else(PoisonError::into_inner);
            std::mem::take(&mut *touched).into_iter().collect()
        };
        let retention = i64::try_from(self.config.retention.as_millis()).unwrap_or(i64::MAX);
        let pruned = store
            .prune_comm_log(
                now.saturating_sub(retention),
                self.config.per_gateway,
                &gateways,
            )
            .await;
        if pruned.is_err() && !all {
            // Their caps are checked on the next run.
            let mut touched = self.touched.lock().unwrap_or_else(PoisonError::into_inner);
            touched.extend(gateways);
        }
        pruned
    }
}

/// The stored form of a noted message: UTF-8 as sent, else hex (of as many bytes as fit).
fn entry(n: Noted) -> NewCommEntry {
    let (payload, truncated) = payload_text(&n.head, n.size);
    NewCommEntry {
        gateway_sn: n.gateway_sn,
        direction: n.direction,
        kind: n.kind,
        topic: n.topic,
        payload,
        truncated,
        size: i64::try_from(n.size).unwrap_or(i64::MAX),
        command_id: n.command_id,
        correlation: n.correlation,
        at: n.at,
    }
}

/// `head` (the first bytes of a payload of `size` bytes) as stored text of at most
/// [`MAX_STORED`] bytes, and whether it is cut.
pub(crate) fn payload_text(head: &[u8], size: usize) -> (String, bool) {
    let cut = size > head.len();
    match std::str::from_utf8(head) {
        Ok(text) => (text.to_string(), cut),
        // Cut inside a character: the text up to it.
        Err(e) if cut && e.error_len().is_none() => {
            let valid = &head[..e.valid_up_to()];
            (String::from_utf8_lossy(valid).into_owned(), true)
        }
        Err(_) => {
            let shown = &head[..head.len().min(MAX_STORED / 2)];
            let hex: String = shown.iter().map(|b| format!("{b:02x}")).collect();
            (hex, shown.len() < size)
        }
    }
}

/// Writes what was noted every [`FLUSH_EVERY`] and prunes every `prune_every` (all gateways
/// on the first run), for as long as the task runs.
pub(crate) fn spawn_writer(store: Store, log: Arc<CommLog>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut flush = tokio::time::interval(FLUSH_EVERY);
        flush.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        let mut prune = tokio::time::interval(log.config.prune_every);
        prune.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        let mut first = true;
        loop {
            tokio::select! {
                _ = flush.tick() => log.flush(&store).await,
                _ = prune.tick() => {
                    match log.prune(&store, super::now_ms(), first).await {
                        Ok(n) if n > 0 => tracing::debug!(removed = n, "communication log pruned"),
                        Ok(_) => {}
                        Err(e) => tracing::warn!(%e, "communication log not pruned"),
                    }
                    first = false;
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(max_pending: usize, max_pending_bytes: usize) -> CommLog {
        CommLog::new(CommLogConfig {
            max_pending,
            max_pending_bytes,
            ..CommLogConfig::default()
        })
    }

    #[test]
    fn a_full_buffer_counts_what_it_does_not_keep_and_makes_room_for_commands() {
        let l = log(3, usize::MAX);
        for i in 0..5 {
            l.uplink("GW1", "telemetry", "t", format!("{i}").as_bytes(), None);
        }
        l.downlink(&Downlink {
            gateway_sn: "GW1",
            topic: "t",
            payload: b"c",
            command_id: CommandId(7),
        });
        let kept: Vec<Vec<u8>> = l.take().into_iter().map(|n| n.head).collect();
        assert_eq!(kept, vec![b"1".to_vec(), b"2".to_vec(), b"c".to_vec()]);
        assert_eq!(l.dropped(), 3);
        l.uplink("GW1", "telemetry", "t", b"5", None);
        assert_eq!(l.take().len(), 1, "the next second has its budget again");
        let small = log(100, 10);
        small.uplink("GW1", "telemetry", "t", &[b'a'; 8], None);
        small.uplink("GW1", "telemetry", "t", &[b'b'; 8], None);
        assert_eq!(small.take().len(), 1, "the byte bound holds too");
    }

    #[test]
    fn nothing_is_noted_when_switched_off() {
        let l = CommLog::new(CommLogConfig {
            enabled: false,
            ..CommLogConfig::default()
        });
        l.uplink("GW1", "telemetry", "t", b"{}", None);
        assert!(l.take().is_empty());
    }

    #[test]
    fn text_is_kept_as_sent_binary_as_hex_and_long_payloads_are_cut() {
        assert_eq!(payload_text(b"{\"v\":1}", 7), ("{\"v\":1}".into(), false));
        assert_eq!(
            payload_text(&[0xff, 0x00, 0x10], 3),
            ("ff0010".into(), false)
        );
        let big = vec![b'x'; MAX_STORED + 10];
        let (text, cut) = payload_text(&big[..MAX_STORED], big.len());
        assert_eq!((text.len(), cut), (MAX_STORED, true));
        // A cut through a two-byte character keeps the text before it.
        let (text, cut) = payload_text("aé".as_bytes().get(..2).unwrap_or_default(), 3);
        assert_eq!((text.as_str(), cut), ("a", true));
        let binary = vec![0xffu8; MAX_STORED];
        let (hex, cut) = payload_text(&binary, MAX_STORED);
        assert_eq!((hex.len(), cut), (MAX_STORED, true));
    }
}
