//! The energy hub's VTN side: connections to utilities' OpenADR VTNs, the programmes and
//! events mirrored from them, the VTN resource of each enrolled plant, and the reports sent.
//! Client id and secret arrive here already encrypted (the api crate holds the key).

use crate::telemetry::SampleRow;
use crate::{Result, Store, audit::NewAudit};
use domain::ids::{DeviceId, EnrollmentId, HubEventId, PlantId, ProgramId, VtnId};

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct VtnRow {
    pub id: VtnId,
    pub name: String,
    pub url: String,
    pub version: String,
    pub client_id_enc: String,
    pub client_secret_enc: String,
    pub ven_name: String,
    pub ven_id: Option<String>,
    pub poll_seconds: i64,
    pub enabled: i64,
    pub last_sync_at: Option<i64>,
    pub last_error: String,
    /// JSON array of what the last sync could not read: `{"program", "id", "reason"}`.
    pub refused_events: String,
    /// JSON: the webhook subscriptions (api `energy_hub::vtn::webhooks`).
    pub webhook: String,
    pub created_at: i64,
    pub updated_at: i64,
}

const VTN_COLS: &str = "id, name, url, version, client_id_enc, client_secret_enc, ven_name, ven_id, \
     poll_seconds, enabled, last_sync_at, last_error, refused_events, webhook, created_at, updated_at";

/// A connection as written by an administrator (secrets already encrypted).
#[derive(Debug, Clone)]
pub struct VtnWrite {
    pub name: String,
    pub url: String,
    pub version: String,
    pub client_id_enc: String,
    pub client_secret_enc: String,
    pub ven_name: String,
    pub poll_seconds: i64,
    pub enabled: bool,
}

/// An enrollment in one of a VTN's programmes, as the sync needs it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct VtnEnrollment {
    pub id: EnrollmentId,
    pub program_id: ProgramId,
    pub plant_id: PlantId,
    pub status: String,
    pub remote_resource_id: Option<String>,
    pub remote_resource_name: Option<String>,
    pub charge_kw: f64,
    pub discharge_kw: f64,
}

/// A mirrored event as the sync writes it.
#[derive(Debug, Clone)]
pub struct VtnEventWrite {
    pub remote_id: String,
    pub remote_modified: Option<String>,
    pub name: String,
    pub priority: i64,
    pub start_at: i64,
    pub end_at: i64,
    pub kind: String,
    pub target_kw: f64,
    pub intervals: String,
    pub report_descriptors: String,
    pub cancelled: bool,
}

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct VtnEventRow {
    pub id: HubEventId,
    pub program_id: ProgramId,
    pub program_remote_id: String,
    pub remote_id: String,
    pub start_at: i64,
    pub end_at: i64,
    pub intervals: String,
    pub report_descriptors: String,
    pub cancelled_at: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct VtnReportRow {
    pub event_id: HubEventId,
    pub payload_type: String,
    pub remote_id: Option<String>,
    pub sent_at: Option<i64>,
    pub error: String,
    pub attempts: i64,
}

impl Store {
    pub async fn vtns(&self) -> Result<Vec<VtnRow>> {
        let sql = format!("SELECT {VTN_COLS} FROM dr_vtns ORDER BY id");
        Ok(rows!(self, fetch_all, VtnRow, &sql)?)
    }

    pub async fn vtn(&self, id: VtnId) -> Result<Option<VtnRow>> {
        let sql = format!("SELECT {VTN_COLS} FROM dr_vtns WHERE id = $1");
        Ok(rows!(self, fetch_optional, VtnRow, &sql, id)?)
    }

    /// A new connection with its audit entry (target `vtn:<id>`; none in a store test), in one
    /// transaction.
    pub async fn insert_vtn(
        &self,
        w: &VtnWrite,
        now: i64,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<VtnId> {
        Ok(in_tx!(self, |tx, sqlite| {
            let id = tx_scalar!(
                tx,
                sqlite,
                VtnId,
                "INSERT INTO dr_vtns (name, url, version, client_id_enc, client_secret_enc, ven_name, \
             poll_seconds, enabled, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) RETURNING id",
                &w.name,
                &w.url,
                &w.version,
                &w.client_id_enc,
                &w.client_secret_enc,
                &w.ven_name,
                w.poll_seconds,
                i64::from(w.enabled),
                now
            )?;
            if let Some(audit) = audit {
                audit_new_in_tx!(tx, sqlite, audit, id)?;
            }
            id
        }))
    }

    /// Rewrites a connection. A changed URL, version, credential or VEN name forgets the VEN id
    /// (the next sync finds or creates ours again). With its audit entry, in one transaction.
    pub async fn update_vtn(
        &self,
        id: VtnId,
        w: &VtnWrite,
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        Ok(exec_audited!(
            self,
            Some(audit),
            "UPDATE dr_vtns SET ven_id = CASE WHEN url = $2 AND version = $3 AND client_id_enc = $4 \
             AND client_secret_enc = $5 AND ven_name = $6 THEN ven_id ELSE NULL END, \
             name = $7, url = $2, version = $3, client_id_enc = $4, client_secret_enc = $5, \
             ven_name = $6, poll_seconds = $8, enabled = $9, updated_at = $10 WHERE id = $1",
            id,
            &w.url,
            &w.version,
            &w.client_id_enc,
            &w.client_secret_enc,
            &w.ven_name,
            &w.name,
            w.poll_seconds,
            i64::from(w.enabled),
            now
        ) == 1)
    }

    /// Removes a connection with its programmes, their enrollments and events (cascade), with
    /// its audit entry, in one transaction.
    pub async fn delete_vtn(&self, id: VtnId, audit: &NewAudit<'_>) -> Result<bool> {
        Ok(exec_audited!(self, Some(audit), "DELETE FROM dr_vtns WHERE id = $1", id) == 1)
    }

    /// Takes the sync that is due of connection `id` for this replica: moves its last sync
    /// time from `seen` (as this replica read it) to `now` in one conditional update, so of
    /// several replicas that found it due one syncs it (`true`) and the others leave it.
    pub async fn claim_vtn_sync(&self, id: VtnId, seen: Option<i64>, now: i64) -> Result<bool> {
        let n = exec!(
            self,
            "UPDATE dr_vtns SET last_sync_at = $3 WHERE id = $1 \
             AND (last_sync_at = $2 OR (last_sync_at IS NULL AND $2 IS NULL))",
            id,
            seen,
            now
        )?;
        Ok(n > 0)
    }

    /// Records a sync's outcome ('' = it worked), our VEN's id when known, and what it could
    /// not read (`refused`, a JSON array; `None` keeps the last list, for a sync that stopped
    /// before reading events).
    pub async fn vtn_synced(
        &self,
        id: VtnId,
        ven_id: Option<&str>,
        error: &str,
        refused: Option<&str>,
        now: i64,
    ) -> Result<()> {
        exec!(
            self,
            "UPDATE dr_vtns SET ven_id = COALESCE($2, ven_id), last_error = $3, last_sync_at = $4, \
             refused_events = COALESCE($5, refused_events) WHERE id = $1",
            id,
            ven_id,
            error,
            now,
            refused
        )?;
        Ok(())
    }

    /// The connection's webhook subscriptions (JSON).
    pub async fn set_vtn_webhook(&self, id: VtnId, webhook: &str) -> Result<()> {
        exec!(
            self,
            "UPDATE dr_vtns SET webhook = $2 WHERE id = $1",
            id,
            webhook
        )?;
        Ok(())
    }

    /// The report payload types a programme's events ask for that the portal cannot produce
    /// (comma-separated, '' for none).
    pub async fn set_unsupported_reports(&self, program: ProgramId, types: &str) -> Result<()> {
        exec!(
            self,
            "UPDATE dr_programs SET unsupported_reports = $2 WHERE id = $1",
            program,
            types
        )?;
        Ok(())
    }

    /// Mirrors the VTN's programme list: upserts each (active) and deactivates the rest.
    /// `dr_programs`: (remote id, name, long name, description, retailer). Returns (remote id, id).
    pub async fn sync_vtn_programs(
        &self,
        vtn: VtnId,
        programs: &[(String, String, String, String, String)],
        now: i64,
    ) -> Result<Vec<(String, ProgramId)>> {
        let out = in_tx!(self, |tx, sqlite| {
            tx_exec!(
                tx,
                sqlite,
                "UPDATE dr_programs SET active = 0, updated_at = $2 WHERE vtn_id = $1 AND active = 1",
                vtn,
                now
            )?;
            let mut out = Vec::new();
            for (remote, name, long, desc, retailer) in programs {
                let id = tx_scalar!(
                    tx,
                    sqlite,
                    ProgramId,
                    "INSERT INTO dr_programs (vtn_id, remote_id, name, long_name, description, retailer, \
                     auto_accept, active, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, 0, 1, $7, $7) \
                     ON CONFLICT (vtn_id, remote_id) WHERE remote_id IS NOT NULL DO UPDATE SET \
                     name = excluded.name, long_name = excluded.long_name, description = excluded.description, \
                     retailer = excluded.retailer, active = 1, updated_at = excluded.updated_at RETURNING id",
                    vtn,
                    remote,
                    name,
                    long,
                    desc,
                    retailer,
                    now
                )?;
                out.push((remote.clone(), id));
            }
            out
        });
        Ok(out)
    }

    /// The enrollments in a VTN's programmes the sync acts on: pending and accepted ones, and
    /// unenrolled or rejected ones that still have a resource on the VTN.
    pub async fn vtn_enrollments(&self, vtn: VtnId) -> Result<Vec<VtnEnrollment>> {
        Ok(rows!(
            self,
            fetch_all,
            VtnEnrollment,
            "SELECT e.id, e.program_id, e.plant_id, e.status, e.remote_resource_id, e.remote_resource_name, \
             CAST(COALESCE((SELECT SUM(d.charge_kw) FROM dr_enrollment_devices d WHERE d.enrollment_id = e.id), 0) AS DOUBLE PRECISION) AS charge_kw, \
             CAST(COALESCE((SELECT SUM(d.discharge_kw) FROM dr_enrollment_devices d WHERE d.enrollment_id = e.id), 0) AS DOUBLE PRECISION) AS discharge_kw \
             FROM dr_enrollments e JOIN dr_programs p ON p.id = e.program_id \
             WHERE p.vtn_id = $1 AND (e.status IN ('pending', 'accepted') OR e.remote_resource_id IS NOT NULL) \
             ORDER BY e.id",
            vtn
        )?)
    }

    /// The sync's decision on an enrollment: its status, the reason ('' unless rejected) and
    /// the VTN resource (both None once removed), with its audit entry, in one transaction.
    pub async fn set_enrollment_remote(
        &self,
        id: EnrollmentId,
        status: &str,
        reason: &str,
        resource: Option<(&str, &str)>,
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        Ok(exec_audited!(
            self,
            Some(audit),
            "UPDATE dr_enrollments SET status = $2, reason = $3, remote_resource_id = $4, \
             remote_resource_name = $5, updated_at = $6 WHERE id = $1",
            id,
            status,
            reason,
            resource.map(|r| r.0),
            resource.map(|r| r.1),
            now
        ) == 1)
    }

    /// Forgets an enrollment's VTN resource (removed after unenrolling or a rejection), with
    /// its audit entry, in one transaction.
    pub async fn clear_enrollment_resource(
        &self,
        id: EnrollmentId,
        now_ms: i64,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        Ok(exec_audited!(
            self,
            Some(audit),
            "UPDATE dr_enrollments SET remote_resource_id = NULL, remote_resource_name = NULL, \
             updated_at = $2 WHERE id = $1",
            id,
            now_ms
        ) == 1)
    }

    /// The start first recorded for a mirrored event (events that start "now" keep it).
    pub async fn vtn_event_start(
        &self,
        program: ProgramId,
        remote_id: &str,
    ) -> Result<Option<(i64, i64)>> {
        Ok(rows!(
            self,
            fetch_optional,
            (i64, i64),
            "SELECT start_at, end_at FROM dr_events WHERE program_id = $1 AND remote_id = $2",
            program,
            remote_id
        )?)
    }

    /// Writes a mirrored event (by programme and remote id); a cancellation keeps its first time.
    pub async fn upsert_vtn_event(
        &self,
        program: ProgramId,
        e: &VtnEventWrite,
        now: i64,
    ) -> Result<HubEventId> {
        let cancelled_at = e.cancelled.then_some(now);
        Ok(scalar!(
            self,
            fetch_one,
            HubEventId,
            "INSERT INTO dr_events (program_id, remote_id, name, priority, start_at, end_at, kind, target_kw, \
             intervals, report_descriptors, remote_modified, cancelled_at, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13) \
             ON CONFLICT (program_id, remote_id) WHERE remote_id IS NOT NULL DO UPDATE SET \
             name = excluded.name, priority = excluded.priority, start_at = excluded.start_at, \
             end_at = excluded.end_at, kind = excluded.kind, target_kw = excluded.target_kw, \
             intervals = excluded.intervals, report_descriptors = excluded.report_descriptors, \
             remote_modified = excluded.remote_modified, \
             cancelled_at = CASE WHEN excluded.cancelled_at IS NULL THEN NULL \
             ELSE COALESCE(dr_events.cancelled_at, excluded.cancelled_at) END, \
             updated_at = excluded.updated_at RETURNING id",
            program,
            &e.remote_id,
            &e.name,
            e.priority,
            e.start_at,
            e.end_at,
            &e.kind,
            e.target_kw,
            &e.intervals,
            &e.report_descriptors,
            e.remote_modified.as_deref(),
            cancelled_at,
            now
        )?)
    }

    /// Cancels the live mirrored events of a programme that the VTN no longer lists (deleted).
    pub async fn cancel_vanished_vtn_events(
        &self,
        program: ProgramId,
        listed: &[String],
        now: i64,
    ) -> Result<u64> {
        let live: Vec<(HubEventId, String)> = rows!(
            self,
            fetch_all,
            (HubEventId, String),
            "SELECT id, remote_id FROM dr_events WHERE program_id = $1 AND remote_id IS NOT NULL \
             AND cancelled_at IS NULL AND end_at > $2",
            program,
            now
        )?;
        let gone: Vec<&(HubEventId, String)> =
            live.iter().filter(|(_, r)| !listed.contains(r)).collect();
        if gone.is_empty() {
            return Ok(0);
        }
        // All of them or none: a failure half way leaves every one for the next sync.
        let n = in_tx!(self, |tx, sqlite| {
            let mut n = 0;
            for (id, _) in &gone {
                n += tx_exec!(
                    tx,
                    sqlite,
                    "UPDATE dr_events SET cancelled_at = $2, updated_at = $2 WHERE id = $1 AND cancelled_at IS NULL",
                    *id,
                    now
                )?;
            }
            n
        });
        for (id, remote) in gone {
            tracing::info!(event = %id, remote = %remote, "VTN event vanished: cancelled");
        }
        Ok(n)
    }

    /// A VTN's mirrored events that ask for reports and have started, not older than `since`.
    pub async fn vtn_events_to_report(
        &self,
        vtn: VtnId,
        now: i64,
        since: i64,
    ) -> Result<Vec<VtnEventRow>> {
        Ok(rows!(
            self,
            fetch_all,
            VtnEventRow,
            "SELECT e.id, e.program_id, p.remote_id AS program_remote_id, e.remote_id, e.start_at, e.end_at, \
             e.intervals, e.report_descriptors, e.cancelled_at FROM dr_events e \
             JOIN dr_programs p ON p.id = e.program_id \
             WHERE p.vtn_id = $1 AND e.remote_id IS NOT NULL AND p.remote_id IS NOT NULL \
             AND e.report_descriptors <> '[]' AND e.start_at <= $2 AND e.end_at >= $3 ORDER BY e.id",
            vtn,
            now,
            since
        )?)
    }

    /// The accepted enrollments of a programme that have a VTN resource: (enrollment, plant, resource name).
    pub async fn reporting_enrollments(
        &self,
        program: ProgramId,
    ) -> Result<Vec<(EnrollmentId, PlantId, String)>> {
        Ok(rows!(
            self,
            fetch_all,
            (EnrollmentId, PlantId, String),
            "SELECT id, plant_id, remote_resource_name FROM dr_enrollments WHERE program_id = $1 \
             AND status = 'accepted' AND remote_resource_name IS NOT NULL ORDER BY id",
            program
        )?)
    }

    /// Samples of an enrollment's devices with `from <= ts < to` (milliseconds), oldest first, at most `limit`.
    pub async fn enrollment_samples(
        &self,
        enrollment: EnrollmentId,
        from: i64,
        to: i64,
        limit: i64,
    ) -> Result<Vec<SampleRow>> {
        let devices = scalar!(
            self,
            fetch_all,
            DeviceId,
            "SELECT v.id FROM devices v JOIN dr_enrollment_devices d ON d.sn = v.sn \
             JOIN dr_enrollments e ON e.id = d.enrollment_id \
             WHERE e.id = $1 AND v.plant_id = e.plant_id ORDER BY v.id",
            enrollment
        )?;
        let mut out = Vec::new();
        for device in devices {
            out.extend(self.samples(device, from, to, limit).await?);
        }
        out.sort_by_key(|s| s.ts);
        out.truncate(usize::try_from(limit).unwrap_or(0));
        Ok(out)
    }

    pub async fn vtn_report(
        &self,
        event: HubEventId,
        payload_type: &str,
    ) -> Result<Option<VtnReportRow>> {
        Ok(rows!(
            self,
            fetch_optional,
            VtnReportRow,
            "SELECT event_id, payload_type, remote_id, sent_at, error, attempts FROM dr_reports \
             WHERE event_id = $1 AND payload_type = $2",
            event,
            payload_type
        )?)
    }

    /// The reports of an event (for its detail), by payload type.
    pub async fn vtn_reports_of_event(&self, event: HubEventId) -> Result<Vec<VtnReportRow>> {
        Ok(rows!(
            self,
            fetch_all,
            VtnReportRow,
            "SELECT event_id, payload_type, remote_id, sent_at, error, attempts FROM dr_reports \
             WHERE event_id = $1 ORDER BY payload_type",
            event
        )?)
    }

    /// Records a send: `Ok(remote id)` or `Err(problem)`.
    pub async fn record_vtn_report(
        &self,
        event: HubEventId,
        payload_type: &str,
        outcome: std::result::Result<&str, &str>,
        now: i64,
    ) -> Result<()> {
        let (remote, sent, error) = match outcome {
            Ok(id) => (Some(id), Some(now), ""),
            Err(e) => (None, None, e),
        };
        exec!(
            self,
            "INSERT INTO dr_reports (event_id, payload_type, remote_id, sent_at, error, attempts, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, 1, $6, $6) ON CONFLICT (event_id, payload_type) DO UPDATE SET \
             remote_id = COALESCE(excluded.remote_id, dr_reports.remote_id), \
             sent_at = COALESCE(excluded.sent_at, dr_reports.sent_at), error = excluded.error, \
             attempts = dr_reports.attempts + 1, updated_at = excluded.updated_at",
            event,
            payload_type,
            remote,
            sent,
            error,
            now
        )?;
        Ok(())
    }
}
