//! The ingest pipeline: consumes [`Submission`]s from the device link, checks and decodes
//! them, and writes telemetry in batches (one transaction per batch). Each submission's `done`
//! is answered only after its data is committed, so the link acknowledges nothing that a crash
//! could lose. Status messages update the gateway; event messages and the status words in
//! telemetry open and close events. The newest values per device are also kept in memory.
//!
//! ```ignore
//! let (tx, rx) = tokio::sync::mpsc::channel(10_000);
//! let ingest = Ingest::spawn(store.clone(), rx, IngestOptions::default())?;
//! // the link sends Submissions on tx; readers ask:
//! let latest = ingest.latest(device_id).await?; // Option<Latest>, memory first, then store
//! ```

use domain::ids::DeviceId;
mod inflight;
pub mod intervals;
pub mod metrics;
pub mod prepare;
mod registry;
pub mod skipped;
pub mod status;
pub mod values;
mod worker;

use std::{
    collections::{BTreeMap, HashMap},
    sync::{Arc, OnceLock, RwLock},
    time::Duration,
};

use store::Store;
use tokio::{sync::mpsc, task::JoinHandle};

use crate::{
    decode::Value,
    link::CommLog,
    protocol::ProtocolConfig,
    report::{CommandReply, SubmissionRx},
};

pub use registry::MAX_DEVICES_PER_GATEWAY;
pub use status::refresh_statuses;

/// [`IngestOptions::calm_wait`] unless configured (`PORTAL_INGEST_CALM_WAIT_MS`).
pub const DEFAULT_CALM_WAIT: Duration = Duration::from_millis(20);

/// A gateway whose previous report came at least this long before reports at a calm pace.
/// Gateways report every few seconds to minutes; one that reports again within a second is
/// sending what it buffered, or is a benchmark, and waits on each acknowledgement.
pub const CALM_AFTER: Duration = Duration::from_secs(1);

#[derive(Debug, Clone)]
pub struct IngestOptions {
    /// Most submissions written in one transaction.
    pub max_batch: usize,
    /// How long a batch waits for more submissions after its first one. Zero (the default)
    /// is group commit: a batch is whatever queued while the previous one committed, so
    /// batches grow with load and a lone report is not held back. Each gateway has one
    /// report in flight (its PUBACK waits for the commit), so any wait here is added to every
    /// gateway's cycle.
    pub max_wait: Duration,
    /// How long a batch waits for more when its first submission is a report from a gateway
    /// at a calm pace (its previous report came over [`CALM_AFTER`] before, or it has not
    /// reported since the worker started). At rest a fleet's reports arrive one at a time, and
    /// without a wait each would be a transaction of its own: a 20 ms wait halved the portal's
    /// CPU with 19,500 gateways connected (docs/performance.md, "CPU at rest"). A gateway that
    /// reports back to back (catching up on what it buffered, or a benchmark flat out) starts
    /// batches that do not wait, so group commit stays as it is under load. Ignored when
    /// `max_wait` is set.
    pub calm_wait: Duration,
    /// Batches being written at once; 0 (the default) chooses by backend: one on SQLite, which
    /// has one writer, a few on PostgreSQL. Whatever the number, a report is acknowledged only
    /// after its batch committed, and batches are finished (answers, cache, events) in order.
    pub writes_in_flight: usize,
    /// How long a device's registration (plant, time zone) is trusted before it is read again.
    pub device_ttl: Duration,
    /// Devices kept in the in-memory latest-values cache.
    pub cache_capacity: usize,
    /// Configs that decode raw register blocks, by code (the shipped ones by default).
    pub protocols: Vec<ProtocolConfig>,
    /// Where command replies go (the command dispatcher); dropped when `None`.
    pub replies: Option<mpsc::Sender<CommandReply>>,
    /// Other processes ingest reports of the same devices (replicas behind an external broker's
    /// shared subscription, which hands each message to any of them): what this worker knows of
    /// a device's open status-word events is read again for every batch rather than kept, as
    /// another replica may have opened or closed them since.
    pub shared: bool,
}

impl Default for IngestOptions {
    fn default() -> Self {
        IngestOptions {
            max_batch: 2000,
            max_wait: Duration::ZERO,
            calm_wait: DEFAULT_CALM_WAIT,
            writes_in_flight: 0,
            device_ttl: Duration::from_secs(600),
            cache_capacity: 200_000,
            protocols: crate::protocol::shipped().unwrap_or_default(),
            replies: None,
            shared: false,
        }
    }
}

/// A device's newest sample.
#[derive(Debug, Clone, PartialEq)]
pub struct Latest {
    pub device_id: DeviceId,
    pub ts: i64,
    /// The values as a JSON object text.
    pub payload: Arc<str>,
}

impl Latest {
    pub fn values(&self) -> Result<BTreeMap<String, Value>, serde_json::Error> {
        serde_json::from_str(&self.payload)
    }
}

/// Newest sample per device id, bounded; readers fall back to the store on a miss.
#[derive(Debug, Clone)]
pub struct LatestCache {
    inner: Arc<RwLock<HashMap<DeviceId, Latest>>>,
    capacity: usize,
}

impl LatestCache {
    pub fn new(capacity: usize) -> Self {
        LatestCache {
            inner: Arc::default(),
            capacity: capacity.max(1),
        }
    }

    pub fn get(&self, device: DeviceId) -> Option<Latest> {
        let map = self.inner.read().unwrap_or_else(|e| e.into_inner());
        map.get(&device).cloned()
    }

    /// Keeps `latest` unless a newer sample of the device is already cached.
    pub fn put(&self, latest: Latest) {
        let mut map = self.inner.write().unwrap_or_else(|e| e.into_inner());
        if let Some(old) = map.get(&latest.device_id) {
            if old.ts > latest.ts {
                return;
            }
        } else if map.len() >= self.capacity {
            // Full: drop some entry; its device is then read from the store.
            if let Some(&victim) = map.keys().next() {
                map.remove(&victim);
            }
        }
        map.insert(latest.device_id, latest);
    }

    pub fn len(&self) -> usize {
        self.inner.read().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A running ingest pipeline. Cheap to clone; the worker stops when every sender of its
/// channel is dropped.
#[derive(Debug, Clone)]
pub struct Ingest {
    store: Store,
    cache: LatestCache,
    skips: Arc<skipped::SkipCounts>,
    /// Where what messages lost is also recorded: the gateway's communication log, once the
    /// link that keeps it has started ([`Ingest::report_skips_to`]).
    comm: SkipComm,
    task: Arc<tokio::sync::Mutex<Option<JoinHandle<()>>>>,
}

/// The communication log ingest writes skips to, set once the link is up.
pub(crate) type SkipComm = Arc<OnceLock<Arc<CommLog>>>;

impl Ingest {
    /// Starts the worker on the current tokio runtime.
    pub fn spawn(store: Store, rx: SubmissionRx, options: IngestOptions) -> Ingest {
        let cache = LatestCache::new(options.cache_capacity);
        let skips = Arc::new(skipped::SkipCounts::default());
        let comm = SkipComm::default();
        let worker = worker::Worker::new(
            store.clone(),
            cache.clone(),
            (skips.clone(), comm.clone()),
            options,
        );
        let task = tokio::spawn(worker.run(rx));
        Ingest {
            store,
            cache,
            skips,
            comm,
            task: Arc::new(tokio::sync::Mutex::new(Some(task))),
        }
    }

    /// A device's newest sample: from memory when this process ingested it, else the store.
    pub async fn latest(&self, device: DeviceId) -> store::Result<Option<Latest>> {
        if let Some(hit) = self.cache.get(device) {
            return Ok(Some(hit));
        }
        latest_from_store(&self.store, device).await
    }

    pub fn cache(&self) -> &LatestCache {
        &self.cache
    }

    /// Values or device readings left out since start for `reason` (see [`skipped`]).
    pub fn skipped(&self, reason: skipped::Reason) -> u64 {
        self.skips.get(reason)
    }

    /// Records what each message lost in `log` too (the link's communication log), one entry
    /// per message that lost something, beside the message. Set once; later calls are ignored.
    pub fn report_skips_to(&self, log: Arc<CommLog>) {
        let _ = self.comm.set(log);
    }

    /// Waits for the worker to finish (after every sender is dropped).
    pub async fn join(&self) {
        let task = self.task.lock().await.take();
        if let Some(task) = task
            && let Err(e) = task.await
        {
            tracing::error!(error = %e, "ingest worker ended abnormally");
        }
    }
}

/// A device's newest sample as stored (for processes that run no ingest).
pub async fn latest_from_store(store: &Store, device: DeviceId) -> store::Result<Option<Latest>> {
    Ok(store.latest_sample(device).await?.map(|row| Latest {
        device_id: row.device_id,
        ts: row.ts,
        payload: Arc::from(row.payload),
    }))
}
