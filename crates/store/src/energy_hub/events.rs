//! Events of programmes and the participants' opt-outs. Every time here is unix seconds.

use domain::energy_hub::{EventForm, EventKind};
use domain::ids::{EnrollmentId, HubEventId, ProgramId, UserId, VtnId};

use crate::{Result, Store, audit::NewAudit};

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct EventRow {
    pub id: HubEventId,
    pub program_id: ProgramId,
    pub program_name: String,
    /// The programme's VTN, for a VTN event.
    pub vtn_id: Option<VtnId>,
    pub remote_id: Option<String>,
    pub name: String,
    /// Lower wins when events overlap.
    pub priority: i64,
    /// Unix seconds.
    pub start_at: i64,
    pub end_at: i64,
    /// `discharge` or `export_limit` ([`EventKind::as_db`]).
    pub kind: String,
    pub target_kw: f64,
    /// JSON array of `domain::energy_hub::Interval`.
    pub intervals: String,
    pub report_descriptors: String,
    pub remote_modified: Option<String>,
    pub cancelled_at: Option<i64>,
    pub cancelled_by: Option<i64>,
    pub created_by: Option<UserId>,
    pub created_at: i64,
    pub updated_at: i64,
}

impl EventRow {
    pub fn kind(&self) -> EventKind {
        EventKind::parse(&self.kind).unwrap_or(EventKind::Discharge)
    }
}

/// A participant's opt-out of one event for one enrollment.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct OptOutRow {
    pub event_id: HubEventId,
    pub enrollment_id: EnrollmentId,
    pub user_id: Option<UserId>,
    pub created_at: i64,
}

/// A built-in event.
#[derive(Debug, Clone)]
pub struct NewEvent<'a> {
    pub program: ProgramId,
    pub form: &'a EventForm,
    /// JSON array of `domain::energy_hub::Interval`.
    pub intervals: &'a str,
    pub created_by: Option<UserId>,
}

/// What an event listing reads; `None` means any.
#[derive(Debug, Clone, Default)]
pub struct EventFilter {
    /// Only these programmes (`None`: every programme).
    pub programs: Option<Vec<ProgramId>>,
    pub limit: i64,
}

const COLUMNS: &str = "v.id, v.program_id, g.name AS program_name, g.vtn_id, v.remote_id, \
    v.name, v.priority, v.start_at, v.end_at, v.kind, v.target_kw, v.intervals, \
    v.report_descriptors, v.remote_modified, v.cancelled_at, v.cancelled_by, v.created_by, \
    v.created_at, v.updated_at";
const FROM: &str = "FROM dr_events v JOIN dr_programs g ON g.id = v.program_id";

impl Store {
    pub async fn hub_event(&self, id: HubEventId) -> Result<Option<EventRow>> {
        let sql = format!("SELECT {COLUMNS} {FROM} WHERE v.id = $1");
        Ok(rows!(self, fetch_optional, EventRow, &sql, id)?)
    }

    /// Events of these programmes (or all), newest start first, at most `limit`.
    pub async fn hub_events(&self, f: &EventFilter) -> Result<Vec<EventRow>> {
        match &f.programs {
            None => {
                let sql =
                    format!("SELECT {COLUMNS} {FROM} ORDER BY v.start_at DESC, v.id DESC LIMIT $1");
                Ok(rows!(self, fetch_all, EventRow, &sql, f.limit)?)
            }
            Some(ids) if ids.is_empty() => Ok(Vec::new()),
            Some(ids) => {
                let mut sql = format!("SELECT {COLUMNS} {FROM} WHERE v.program_id IN (");
                let sqlite = self.backend() == crate::Backend::Sqlite;
                crate::sql::push_params(&mut sql, 0, ids.len(), sqlite);
                // The limit is a number of ours, not a value from outside: written in, so
                // the programme ids stay the only parameters.
                sql.push_str(&format!(
                    ") ORDER BY v.start_at DESC, v.id DESC LIMIT {}",
                    f.limit.max(0)
                ));
                Ok(with_ids!(self, EventRow, sql, [], ids)?)
            }
        }
    }

    /// The events not cancelled for everyone that overlap `[from, to)` (unix seconds), by
    /// start: what dispatch considers.
    pub async fn hub_events_between(&self, from: i64, to: i64) -> Result<Vec<EventRow>> {
        let sql = format!(
            "SELECT {COLUMNS} {FROM} WHERE v.cancelled_at IS NULL AND v.start_at < $2 \
             AND v.end_at > $1 ORDER BY v.start_at, v.id"
        );
        Ok(rows!(self, fetch_all, EventRow, &sql, from, to)?)
    }

    /// A built-in event with its audit entry (target `event:<id>`; none for a seed), in one
    /// transaction; answers its id.
    pub async fn create_hub_event(
        &self,
        e: &NewEvent<'_>,
        now: i64,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<HubEventId> {
        let f = e.form;
        Ok(in_tx!(self, |tx, sqlite| {
            let id = tx_scalar!(
                tx,
                sqlite,
                HubEventId,
                "INSERT INTO dr_events (program_id, name, priority, start_at, end_at, kind, \
             target_kw, intervals, created_by, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) RETURNING id",
                e.program,
                &f.name,
                f.priority,
                f.start,
                f.end,
                f.kind.as_db(),
                f.target_kw,
                e.intervals,
                e.created_by,
                now
            )?;
            if let Some(audit) = audit {
                audit_new_in_tx!(tx, sqlite, audit, id)?;
            }
            id
        }))
    }

    /// Cancels an event for everyone (`by` None: the utility's server did) with its audit
    /// entry; `false` when it was already cancelled or does not exist (nothing is written then).
    pub async fn cancel_hub_event(
        &self,
        id: HubEventId,
        by: Option<UserId>,
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        Ok(exec_audited!(
            self,
            Some(audit),
            "UPDATE dr_events SET cancelled_at = $2, cancelled_by = $3, updated_at = $2 \
             WHERE id = $1 AND cancelled_at IS NULL",
            id,
            now,
            by
        ) == 1)
    }

    /// Opts these enrollments out of one event with the audit entry, in one transaction
    /// (already opted out ones stay as they were).
    pub async fn opt_out_of_event(
        &self,
        event: HubEventId,
        enrollments: &[EnrollmentId],
        user: Option<UserId>,
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<()> {
        in_tx!(self, |tx, sqlite| {
            for e in enrollments {
                tx_exec!(
                    tx,
                    sqlite,
                    "INSERT INTO dr_opt_outs (event_id, enrollment_id, user_id, created_at) \
                     VALUES ($1, $2, $3, $4) ON CONFLICT (event_id, enrollment_id) DO NOTHING",
                    event,
                    *e,
                    user,
                    now
                )?;
            }
            audit_in_tx!(tx, sqlite, audit)?;
        });
        Ok(())
    }

    /// The opt-outs of one event.
    pub async fn opt_outs_of_event(&self, event: HubEventId) -> Result<Vec<OptOutRow>> {
        Ok(rows!(
            self,
            fetch_all,
            OptOutRow,
            "SELECT event_id, enrollment_id, user_id, created_at FROM dr_opt_outs \
             WHERE event_id = $1 ORDER BY enrollment_id",
            event
        )?)
    }

    /// The opt-outs of these events.
    pub async fn opt_outs_of_events(&self, events: &[HubEventId]) -> Result<Vec<OptOutRow>> {
        if events.is_empty() {
            return Ok(Vec::new());
        }
        let mut sql = String::from(
            "SELECT event_id, enrollment_id, user_id, created_at FROM dr_opt_outs \
             WHERE event_id IN (",
        );
        crate::sql::push_params(
            &mut sql,
            0,
            events.len(),
            self.backend() == crate::Backend::Sqlite,
        );
        sql.push_str(") ORDER BY event_id, enrollment_id");
        Ok(with_ids!(self, OptOutRow, sql, [], events)?)
    }
}
