//! One sync of one VTN connection: the use case the sync job (`jobs::vtn_sync`) runs every
//! `pollSeconds` and an administrator's "sync now" runs at once.
//!
//! Order: token → our ven (create-or-get `venName`) → programmes (upserted, the rest
//! deactivated) → enrollments (resources) → events of every programme (upserted by remote id;
//! gone from the list or rewritten to `PT0S` = cancelled) → reports. Polling is the source of
//! truth; nothing here needs the VTN to reach the portal.
//!
//! A programme or event the portal cannot read (the wire type refuses it, or its times make no
//! sense) is skipped and listed on the connection (`refusedEvents`) with the reason; the rest
//! still apply and the reports still go out. A 400 from the VTN on one of our requests is our
//! bug, not the utility's answer: it is logged and shown as the connection's error, and the
//! request is tried again at the next sync.

use super::{Ven, enroll, reporting, webhooks};
use domain::ids::{ProgramId, VtnId};
use domain::permissions::SYS_ENERGYHUB_EDIT;
use domain::{Code, DomainError, policy::Actor, time::now_ms};
use oadr::meta::Refused;
use oadr::neutral::Program;
use oadr::normal::{self, Normalised, Options};
use oadr::report;
use oadr::ven::VtnClient;
use serde_json::json;
use store::Store;
use store::energy_hub::vtn::{VtnEventWrite, VtnRow};
use tokio::sync::Mutex;

#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    #[error(transparent)]
    Vtn(#[from] oadr::Error),
    #[error("store: {0}")]
    Store(#[from] store::StoreError),
    #[error("{0}")]
    Local(String),
}

/// Refused programmes and events kept on the connection at most.
const MAX_REFUSED_KEPT: usize = 50;

/// What one sync did.
#[derive(Debug, Default)]
pub struct SyncSummary {
    pub ven_id: String,
    pub programs: usize,
    pub events: usize,
    pub cancelled: u64,
    pub accepted: usize,
    pub rejected: usize,
    pub removed: usize,
    pub reports: usize,
    pub report_errors: usize,
    /// Programmes and events the VTN listed that the portal could not read (skipped).
    pub refused: usize,
    /// Requests of ours the VTN found malformed (400), with its problem detail.
    pub problems: Vec<String>,
    refused_list: Vec<serde_json::Value>,
}

/// One sync at a time in this process (the job and "sync now" share the VTN's state); across
/// replicas the job claims each sync in the database ([`claim`]).
static RUNNING: Mutex<()> = Mutex::const_new(());

/// Takes the sync of a connection found due (or nudged) for this replica: of several replicas
/// that read the same row, one gets `true` (`Store::claim_vtn_sync`).
pub async fn claim(store: &Store, vtn: &VtnRow, now: i64) -> store::Result<bool> {
    store.claim_vtn_sync(vtn.id, vtn.last_sync_at, now).await
}

/// "Sync now" of an administrator (`sys.energyhub.edit`, 2): the summary, 4 `id` for an
/// unknown connection, or 1011 with the VTN's problem.
pub async fn sync_now(
    store: &Store,
    actor: &Actor,
    ven: &Ven,
    id: VtnId,
) -> crate::Result<SyncSummary> {
    actor.require(SYS_ENERGYHUB_EDIT)?;
    let vtn = store
        .vtn(id)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?;
    match sync(store, ven, &vtn).await {
        Ok(s) => Ok(s),
        Err(SyncError::Store(e)) => Err(e.into()),
        Err(e) => Err(DomainError::with_detail(
            Code::VtnFailed,
            e.to_string().chars().take(300).collect::<String>(),
        )
        .into()),
    }
}

/// Syncs one connection and records the outcome on it (`lastSyncAt`, `lastError`).
pub async fn sync(store: &Store, ven: &Ven, vtn: &VtnRow) -> Result<SyncSummary, SyncError> {
    let _one = RUNNING.lock().await;
    let result = sync_inner(store, ven, vtn).await;
    let (ven_id, error, refused): (_, String, _) = match &result {
        Ok(s) => (
            Some(s.ven_id.as_str()),
            s.problems.join("; ").chars().take(300).collect(),
            Some(serde_json::Value::from(s.refused_list.clone()).to_string()),
        ),
        Err(e) => (None, e.to_string().chars().take(300).collect(), None),
    };
    if let Err(e) = store
        .vtn_synced(vtn.id, ven_id, &error, refused.as_deref(), now_ms())
        .await
    {
        tracing::warn!(vtn = %vtn.id, "recording the sync failed: {e}");
    }
    result
}

async fn sync_inner(store: &Store, ven: &Ven, vtn: &VtnRow) -> Result<SyncSummary, SyncError> {
    let client = ven.client(vtn)?;
    let mut sum = SyncSummary {
        ven_id: client.ensure_ven(&vtn.ven_name).await?,
        ..Default::default()
    };

    let docs = client.programs().await?;
    for r in &docs.refused {
        tracing::warn!(vtn = %vtn.id, program = %r.id, "VTN programme skipped: {}", r.reason);
        sum.refused_list
            .push(json!({"program": r.id, "id": r.id, "reason": r.reason}));
    }
    let mut programs = Vec::new();
    for d in &docs.docs {
        let p: Program = match d.read("program") {
            Ok(p) => p,
            Err(e) => {
                let r = Refused::new(&d.id, e.to_string());
                sum.refused_list
                    .push(json!({"program": r.id, "id": r.id, "reason": r.reason}));
                continue;
            }
        };
        let desc = p
            .program_descriptions
            .and_then(|v| v.into_iter().next())
            .map(|d| d.url);
        programs.push((
            d.id.clone(),
            p.program_name.chars().take(64).collect(),
            p.program_long_name
                .unwrap_or_default()
                .chars()
                .take(128)
                .collect(),
            desc.unwrap_or_default().chars().take(500).collect(),
            p.retailer_name
                .unwrap_or_default()
                .chars()
                .take(64)
                .collect(),
        ));
    }
    let ids = store.sync_vtn_programs(vtn.id, &programs, now_ms()).await?;
    sum.programs = ids.len();
    webhooks::ensure(store, ven, &client, vtn, &ids).await?;

    let enrollments = store.vtn_enrollments(vtn.id).await?;
    let e = enroll::reconcile(store, &client, &sum.ven_id, &enrollments, now_ms()).await?;
    (sum.accepted, sum.rejected, sum.removed) = (e.accepted, e.rejected, e.removed);
    sum.problems.extend(e.problems);

    for (remote, program) in &ids {
        let m = mirror_events(store, &client, remote, *program).await?;
        sum.events += m.written;
        sum.cancelled += m.cancelled;
        sum.refused_list.extend(m.refused);
    }
    sum.refused = sum.refused_list.len();
    // The connection keeps the first few: enough to act on, bounded whatever the VTN lists.
    sum.refused_list.truncate(MAX_REFUSED_KEPT);

    let r = reporting::send_due(store, &client, vtn.id, &vtn.ven_name).await?;
    (sum.reports, sum.report_errors) = (r.sent, r.failed);
    sum.problems.extend(r.problems);
    Ok(sum)
}

#[derive(Debug, Default)]
struct Mirrored {
    written: usize,
    cancelled: u64,
    /// `{"program", "id", "reason"}` of each event skipped.
    refused: Vec<serde_json::Value>,
}

/// Mirrors one programme's events. A refused event is skipped and not cancelled: the portal
/// keeps what it last understood of it (it may be a passing fault of the utility's).
async fn mirror_events(
    store: &Store,
    client: &VtnClient,
    remote: &str,
    program: ProgramId,
) -> Result<Mirrored, SyncError> {
    let now = chrono::Utc::now();
    let now_s = now.timestamp();
    let mut out = Mirrored::default();
    let listed_docs = client.events(remote).await?;
    let mut listed: Vec<String> = listed_docs.refused.iter().map(|r| r.id.clone()).collect();
    let mut refuse = |id: &str, reason: String| {
        tracing::warn!(%program, event = %id, "VTN event skipped: {reason}");
        let r = Refused::new(id, reason);
        out.refused
            .push(json!({"program": remote, "id": r.id, "reason": r.reason}));
    };
    for r in &listed_docs.refused {
        refuse(&r.id, r.reason.clone());
    }
    let mut unsupported: Vec<String> = Vec::new();
    let mut written = 0;
    for doc in listed_docs.docs {
        listed.push(doc.id.clone());
        let ev = match normal::normalise(&doc, now, Options::default()) {
            Ok(Normalised::Event(ev)) => ev,
            Ok(Normalised::Ignored(_)) => continue,
            Err(e) => {
                refuse(&doc.id, e.to_string());
                continue;
            }
        };
        for t in report::unsupported(&ev.report_descriptors) {
            if !unsupported.contains(&t) {
                unsupported.push(t);
            }
        }
        // "Now" (0001-01-01) is the first time the portal saw the event, not every poll; a
        // cancelling rewrite keeps the window the event had.
        let first = match ev.starts_now {
            true => store.vtn_event_start(program, &ev.remote_id).await?,
            false => None,
        };
        let (start, end) = match (first, ev.cancelled) {
            (Some(kept), true) => kept,
            (Some((s, _)), false) => (s, s.saturating_add(ev.end - ev.start).min(normal::MAX_TS)),
            (None, _) => (ev.start, ev.end),
        };
        let w = VtnEventWrite {
            remote_id: ev.remote_id.clone(),
            remote_modified: ev.remote_modified.clone(),
            name: ev.name.chars().take(64).collect(),
            priority: ev.priority,
            start_at: start,
            end_at: end,
            kind: ev.kind.as_db().into(),
            target_kw: ev.target_kw,
            intervals: serde_json::to_string(&ev.intervals).unwrap_or_else(|_| "[]".into()),
            report_descriptors: serde_json::to_string(&ev.report_descriptors)
                .unwrap_or_else(|_| "[]".into()),
            cancelled: ev.cancelled,
        };
        store.upsert_vtn_event(program, &w, now_s).await?;
        written += 1;
    }
    out.cancelled = store
        .cancel_vanished_vtn_events(program, &listed, now_s)
        .await?;
    out.written = written;
    store
        .set_unsupported_reports(program, &unsupported.join(","))
        .await?;
    Ok(out)
}
