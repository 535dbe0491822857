//! The ingest worker: gathers submissions into batches, resolves devices (cached), writes each
//! batch in one transaction and answers every submission after the commit.

use domain::ids::{DeviceId, GatewayId};
use std::{
    collections::{HashMap, HashSet},
    sync::Arc,
    time::{Duration, Instant},
};

use store::{
    Backend, Store,
    events::EventFilter,
    telemetry::{SampleWrite, TelemetryBatch},
};
use tokio::sync::oneshot;

use super::{
    CALM_AFTER, IngestOptions, Latest, LatestCache, SkipComm,
    inflight::{Pending, Writes, Written},
    intervals::{self, Previous},
    prepare::{self, Placement},
    registry::Registry,
    skipped::{SkipCounts, SkipLog, Skipped},
    values::{self, Watched},
};
use crate::{
    events::{self, EventDef},
    protocol::{DeviceFamily, ProtocolConfig},
    report::{Item, Report, Submission, SubmissionRx},
};

mod items;

pub(super) type Done = oneshot::Sender<Result<(), String>>;

/// Batches PostgreSQL writes at once by default: one connection is one server process, so a
/// single writer caps ingest at one core of the database server whatever its size; with two,
/// one batch is sent while the other commits. On the benchmark's two shared cores it measured
/// the same as one (docs/performance.md); more would only shrink the batches.
const PG_WRITES_IN_FLIGHT: usize = 2;

/// A gateway's id as last read from the store, and when its latest report came.
struct KnownGateway {
    id: GatewayId,
    read_at: Instant,
    last_report: Instant,
}

pub(super) struct Worker {
    store: Store,
    cache: LatestCache,
    options: IngestOptions,
    protocols: HashMap<String, ProtocolConfig>,
    gateways: HashMap<String, KnownGateway>,
    registry: Registry,
    skip_log: SkipLog,
    skip_comm: SkipComm,
    /// Word-driven event codes open per device, loaded from the store on first need (and for
    /// every batch with `IngestOptions::shared`).
    open_words: HashMap<DeviceId, HashSet<String>>,
    /// Where each device's previous report left off, for the day metrics integrated over the
    /// interval to the next ([`intervals`]); read again for every batch with
    /// `IngestOptions::shared`, as another replica may have ingested since.
    previous: Previous,
}

/// Whether a gateway whose previous report came at `last` (never, since the worker started:
/// `None`) reports at a calm pace at `now` ([`CALM_AFTER`]).
fn reports_calmly(last: Option<Instant>, now: Instant) -> bool {
    last.is_none_or(|at| now.saturating_duration_since(at) >= CALM_AFTER)
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

fn answer(done: Done, result: Result<(), String>, kind: &'static str) {
    let outcome = if result.is_ok() { "ok" } else { "refused" };
    metrics::counter!("ingest_submissions_total", "kind" => kind, "result" => outcome).increment(1);
    // The link may have given up on the message (e.g. disconnected); nothing to do then.
    let _ = done.send(result);
}

/// A reading whose status words are checked for events once its data is committed.
pub(super) type WordCheck = (Placement, DeviceFamily, i64, Watched);

impl Worker {
    pub(super) fn new(
        store: Store,
        cache: LatestCache,
        (skips, skip_comm): (Arc<SkipCounts>, SkipComm),
        options: IngestOptions,
    ) -> Worker {
        let protocols = options
            .protocols
            .iter()
            .map(|c| (c.code.clone(), c.clone()))
            .collect();
        Worker {
            store,
            cache,
            previous: Previous::new(options.cache_capacity),
            registry: Registry::new(options.device_ttl),
            options,
            protocols,
            gateways: HashMap::new(),
            skip_log: SkipLog::new(skips),
            skip_comm,
            open_words: HashMap::new(),
        }
    }

    pub(super) async fn run(mut self, mut rx: SubmissionRx) {
        let limit = self.writes_in_flight();
        let mut writing = Writes::default();
        loop {
            tokio::select! {
                // Answers first: they release the gateways' next reports.
                biased;
                written = writing.first(), if !writing.is_empty() => {
                    writing.pop();
                    self.finish(written).await;
                }
                first = rx.recv(), if writing.len() < limit => {
                    let Some(first) = first else { break };
                    let batch = self.gather(first, &mut rx).await;
                    self.process(batch, &mut writing).await;
                }
            }
        }
        self.drain(&mut writing).await;
    }

    /// Batches written at once: as configured, else one on SQLite (it has one writer) and
    /// [`PG_WRITES_IN_FLIGHT`] on PostgreSQL.
    fn writes_in_flight(&self) -> usize {
        match (self.options.writes_in_flight, self.store.backend()) {
            (0, Backend::Sqlite) => 1,
            (0, Backend::Postgres) => PG_WRITES_IN_FLIGHT,
            (n, _) => n,
        }
    }

    /// `first` and whatever else is queued, up to `max_batch` (waiting up to [`Self::linger`]).
    async fn gather(&self, first: Submission, rx: &mut SubmissionRx) -> Vec<Submission> {
        let max = self.options.max_batch.max(1);
        let linger = self.linger(&first);
        let mut batch = vec![first];
        let deadline = tokio::time::Instant::now() + linger;
        while batch.len() < max {
            match rx.try_recv() {
                Ok(s) => batch.push(s),
                Err(_) if linger.is_zero() => break,
                Err(_) => match tokio::time::timeout_at(deadline, rx.recv()).await {
                    Ok(Some(s)) => batch.push(s),
                    Ok(None) | Err(_) => break,
                },
            }
        }
        batch
    }

    /// How long the batch that `first` starts may wait for more: `max_wait` when set, else
    /// `calm_wait` for a report from a gateway at a calm pace. Commands' replies, status and
    /// events never wait.
    fn linger(&self, first: &Submission) -> Duration {
        if !self.options.max_wait.is_zero() {
            return self.options.max_wait;
        }
        let Item::Telemetry(_) = first.item else {
            return Duration::ZERO;
        };
        let last = self.gateways.get(&first.gateway_sn).map(|g| g.last_report);
        if reports_calmly(last, Instant::now()) {
            self.options.calm_wait
        } else {
            Duration::ZERO
        }
    }

    /// Checks and places a batch's telemetry and starts its write; status, event and reply
    /// items are handled once every write started before them has committed, so that they
    /// apply after the telemetry that came before them (a gateway's "offline" after its last
    /// report, which marked its devices online).
    async fn process(&mut self, batch: Vec<Submission>, writing: &mut Writes) {
        let started = Instant::now();
        let now = now_ms();
        if self.options.shared {
            self.previous.clear();
        }
        let mut rows = TelemetryBatch::default();
        let mut pending: Vec<Pending> = Vec::new();
        let mut others = Vec::new();
        for s in batch {
            match s.item {
                Item::Telemetry(t) => match self.prepare(&s.gateway_sn, t, now, &mut rows).await {
                    Ok((latest, words, points)) => pending.push(Pending {
                        done: s.done,
                        latest,
                        words,
                        points,
                    }),
                    Err(e) => {
                        tracing::warn!(gateway = %s.gateway_sn, error = %e, "telemetry refused");
                        answer(s.done, Err(e), "telemetry");
                    }
                },
                item => others.push((s.gateway_sn, item, s.done)),
            }
        }
        if !pending.is_empty() {
            writing.start(&self.store, rows, pending, started);
        }
        if !others.is_empty() {
            self.drain(writing).await;
        }
        for (gateway, item, done) in others {
            let (kind, result) = match item {
                Item::Status(s) => ("status", self.status(&gateway, &s).await),
                Item::Event(e) => ("event", self.event(&gateway, &e, now).await),
                Item::Reply(r) => {
                    if let Some(tx) = &self.options.replies {
                        // A closed dispatcher loses nothing stored; the command times out.
                        let _ = tx.send(r).await;
                    }
                    ("reply", Ok(()))
                }
                Item::Telemetry(_) => ("telemetry", Err("unreachable".to_string())),
            };
            if let Err(e) = &result {
                tracing::warn!(%gateway, kind, error = %e, "submission refused");
            }
            answer(done, result, kind);
        }
    }

    /// Finishes every write started, oldest first.
    async fn drain(&mut self, writing: &mut Writes) {
        while !writing.is_empty() {
            let written = writing.first().await;
            writing.pop();
            self.finish(written).await;
        }
    }

    /// After a batch's write: on commit, the cache, the status-word events and the answers
    /// (the link acknowledges the reports now); on failure, a "retry" answer for each report.
    async fn finish(&mut self, written: Written) {
        let Written {
            result,
            pending,
            samples,
            started,
        } = written;
        match result {
            Ok(()) => {
                let mut points = 0;
                for p in &pending {
                    points += p.points;
                    for l in &p.latest {
                        self.cache.put(l.clone());
                    }
                }
                // Events from status words follow the data they came with; a failure here
                // is logged and retried with the next report, the data stays committed.
                if self.options.shared {
                    self.open_words.clear();
                }
                for p in &pending {
                    for (place, family, ts, watched) in &p.words {
                        if let Err(e) = self.word_events(*place, *family, *ts, watched).await {
                            tracing::warn!(device = %place.device_id, error = %e, "status-word events");
                        }
                    }
                }
                metrics::counter!("ingest_points_total").increment(points);
                metrics::counter!("ingest_samples_total").increment(samples);
                metrics::histogram!("ingest_batch_seconds").record(started.elapsed().as_secs_f64());
                for p in pending {
                    answer(p.done, Ok(()), "telemetry");
                }
            }
            Err(e) => {
                tracing::error!(error = %e, reports = pending.len(), "telemetry batch failed");
                // The batch's points were kept but not written: its reports come again and
                // are integrated from what the store holds.
                self.previous.clear();
                metrics::counter!("ingest_batch_failures_total").increment(1);
                for p in pending {
                    answer(
                        p.done,
                        Err(crate::report::retry("storage failed")),
                        "telemetry",
                    );
                }
            }
        }
    }

    /// The gateway's id (read again after `device_ttl`); notes that it reported now.
    async fn gateway_id(&mut self, sn: &str) -> Result<GatewayId, String> {
        let now = Instant::now();
        if let Some(known) = self.gateways.get_mut(sn)
            && now.duration_since(known.read_at) < self.options.device_ttl
        {
            known.last_report = now;
            return Ok(known.id);
        }
        let row = self
            .store
            .gateway_by_sn(sn)
            .await
            .map_err(|e| {
                tracing::error!(error = %e, "gateway lookup");
                crate::report::retry("storage failed")
            })?
            .ok_or_else(|| format!("unknown gateway {sn}"))?;
        self.gateways.insert(
            sn.to_string(),
            KnownGateway {
                id: row.id,
                read_at: now,
                last_report: now,
            },
        );
        Ok(row.id)
    }

    async fn prepare(
        &mut self,
        gateway_sn: &str,
        t: Report,
        now: i64,
        rows: &mut TelemetryBatch,
    ) -> Result<(Vec<Latest>, Vec<WordCheck>, u64), String> {
        let ts = t.ts;
        let mut skipped = Skipped::default();
        let checked = prepare::check_telemetry(t, now, &self.protocols, &mut skipped)?;
        let gateway = self.gateway_id(gateway_sn).await?;
        let places = self
            .registry
            .place_all(&self.store, gateway, &checked, now, &mut skipped)
            .await?;
        // What the message lost is settled here: counted, logged (at most once a minute per
        // gateway), and recorded beside the message in the gateway's communication log.
        if !skipped.is_empty() {
            self.skip_log.report(gateway_sn, &skipped);
            if let Some(comm) = self.skip_comm.get() {
                comm.skipped(gateway_sn, &skipped.to_string());
            }
        }
        let placed: Vec<(Placement, prepare::Checked)> = places
            .into_iter()
            .zip(checked)
            .filter_map(|(place, c)| Some((place?, c)))
            .collect();
        self.recall(&placed).await?;
        let mut latest = Vec::with_capacity(placed.len());
        let mut words = Vec::new();
        let mut points = 0u64;
        for (place, c) in placed {
            points += c.points as u64;
            rows.energy.extend(prepare::energy_rows(&c, place, ts));
            if let Some(point) = intervals::point(c.family, ts, &c.watched) {
                if let Some(prev) = self.previous.get(place.device_id) {
                    rows.energy.extend(intervals::rows(&prev, &point, place));
                }
                self.previous.put(place.device_id, point);
            }
            latest.push(Latest {
                device_id: place.device_id,
                ts,
                payload: Arc::from(c.payload.as_str()),
            });
            if has_words(c.family, &c.watched) {
                words.push((place, c.family, ts, c.watched));
            }
            rows.samples.push(SampleWrite {
                device_id: place.device_id,
                ts,
                payload: c.payload,
            });
        }
        Ok((latest, words, points))
    }

    /// Makes sure [`Previous`] knows where the previous report of each placed device that has
    /// intervals left off: remembered, else the latest-values cache (this process ingests
    /// every report unless shared), else the store (one query for the devices missing).
    async fn recall(&mut self, placed: &[(Placement, prepare::Checked)]) -> Result<(), String> {
        let mut missing: Vec<(DeviceId, DeviceFamily)> = Vec::new();
        for (place, c) in placed {
            if intervals::keys(c.family).is_empty() || self.previous.contains(place.device_id) {
                continue;
            }
            let cached = if self.options.shared {
                None
            } else {
                self.cache.get(place.device_id)
            };
            match cached {
                Some(l) => self.remember(place.device_id, c.family, l.ts, &l.payload),
                None => missing.push((place.device_id, c.family)),
            }
        }
        if missing.is_empty() {
            return Ok(());
        }
        let ids: Vec<DeviceId> = missing.iter().map(|(id, _)| *id).collect();
        let stored = self.store.latest_samples_of(&ids).await.map_err(|e| {
            tracing::error!(error = %e, "previous reports");
            crate::report::retry("storage failed")
        })?;
        for row in stored {
            if let Some((_, family)) = missing.iter().find(|(id, _)| *id == row.device_id) {
                self.remember(row.device_id, *family, row.ts, &row.payload);
            }
        }
        Ok(())
    }

    /// Keeps what a stored report of a device says about its intervals.
    fn remember(&mut self, device: DeviceId, family: DeviceFamily, ts: i64, payload: &str) {
        let mut ignored = Skipped::default();
        if let Ok(scan) = values::scan(payload, family, "", &mut ignored)
            && let Some(point) = intervals::point(family, ts, &scan.watched)
        {
            self.previous.put(device, point);
        }
    }

    /// Opens events whose status-word bit is set and closes those whose bit cleared.
    async fn word_events(
        &mut self,
        place: Placement,
        family: DeviceFamily,
        ts: i64,
        watched: &Watched,
    ) -> store::Result<()> {
        let states = events::word_events(family, |k| watched.get(k));
        if !self.open_words.contains_key(&place.device_id) {
            let (open, _) = self
                .store
                .events(&EventFilter {
                    device: Some(place.device_id),
                    open_only: true,
                    limit: 1000,
                    ..EventFilter::default()
                })
                .await?;
            self.open_words
                .insert(place.device_id, open.into_iter().map(|e| e.code).collect());
        }
        for (def, on) in states {
            let is_open = self
                .open_words
                .get(&place.device_id)
                .is_some_and(|s| s.contains(&def.code));
            if on && !is_open {
                self.open(place, def, ts).await?;
            } else if !on && is_open {
                self.store
                    .close_event(place.device_id, &def.code, ts)
                    .await?;
                if let Some(s) = self.open_words.get_mut(&place.device_id) {
                    s.remove(&def.code);
                }
            }
        }
        Ok(())
    }

    async fn open(&mut self, place: Placement, def: &EventDef, ts: i64) -> store::Result<()> {
        self.store
            .open_event(
                place.device_id,
                place.plant_id,
                &def.code,
                def.severity.key(),
                ts,
            )
            .await?;
        self.open_words
            .entry(place.device_id)
            .or_default()
            .insert(def.code.clone());
        Ok(())
    }
}

fn has_words(family: DeviceFamily, watched: &Watched) -> bool {
    events::of_family(family).any(|d| d.word.is_some_and(|w| watched.contains(w.key)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gateway_reports_calmly_unless_it_reported_within_a_second() {
        let now = Instant::now() + Duration::from_secs(10);
        assert!(reports_calmly(None, now));
        assert!(reports_calmly(Some(now - Duration::from_secs(60)), now));
        assert!(reports_calmly(Some(now - CALM_AFTER), now));
        assert!(!reports_calmly(Some(now - Duration::from_millis(5)), now));
        assert!(!reports_calmly(Some(now), now));
    }
}
