//! Demand-response dispatch: which enrolled inverters an event active now holds, what the
//! dispatch job changed on each (kept until it is given back, so a restart or a deleted event
//! still restores), and how each event went per inverter. Times are unix seconds, like the
//! energy hub's other tables.

use crate::{Result, Store};
use domain::ids::{CommandId, CompanyId, EnrollmentId, HubEventId, PlantId, ProgramId, UserId};

/// One enrolled inverter and one event active now that it takes part in. Only accepted,
/// not opted-out enrollments and events neither cancelled nor opted out of.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct PlanRow {
    pub sn: String,
    pub plant_id: PlantId,
    pub enrollment_id: EnrollmentId,
    /// 1-100 % of the devices' discharge capacity offered.
    pub participation: i64,
    pub discharge_kw: f64,
    pub charge_kw: f64,
    pub event_id: HubEventId,
    pub priority: i64,
    pub start_at: i64,
    pub end_at: i64,
    /// `discharge`, `export_limit` or `charge`.
    pub kind: String,
    pub target_kw: f64,
    /// The event's normalised intervals (JSON array).
    pub intervals: String,
}

/// What sending to an inverter needs: its kind, its link and its plant (for the audit log).
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct DispatchDevice {
    pub sn: String,
    pub type_code: i64,
    pub protocol: String,
    pub status: i64,
    pub gateway_sn: Option<String>,
    pub plant_id: Option<PlantId>,
    pub plant_owner: Option<UserId>,
    pub plant_company: Option<CompanyId>,
}

/// What the job did to one inverter and has not given back yet (`dr_dispatch_devices`).
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct DispatchState {
    pub sn: String,
    pub plant_id: Option<PlantId>,
    pub event_id: Option<HubEventId>,
    /// `apply` or `restore`.
    pub mode: String,
    /// JSON object: the changed keys' values before the first change.
    pub snapshot: String,
    /// JSON object: the values the device confirmed from the job.
    pub sent: String,
    /// JSON object: the values of the command under way.
    pub sending: String,
    pub command_id: Option<CommandId>,
    pub state: String,
    pub error: String,
    pub attempts: i64,
    pub updated_at: i64,
}

/// How an event went for one inverter, for the event's detail.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct DispatchOutcomeRow {
    pub plant_id: Option<PlantId>,
    pub device_sn: String,
    /// `pending`, `applied`, `failed`, `offline` or `restored`.
    pub state: String,
    pub error: String,
    pub updated_at: i64,
}

const STATE_COLUMNS: &str = "sn, plant_id, event_id, mode, snapshot, sent, sending, command_id, \
    state, error, attempts, updated_at";

/// Upserts an event's outcome for the inverter of a [`DispatchState`] inside [`in_tx!`].
macro_rules! outcome_in_tx {
    ($tx:ident, $sqlite:ident, $event:expr, $s:expr, $state:expr, $error:expr) => {
        tx_exec!(
            $tx,
            $sqlite,
            "INSERT INTO dr_dispatch_outcomes (event_id, sn, plant_id, state, error, attempts, \
             updated_at) SELECT $1, $2, $3, $4, $5, $6, $7 \
             WHERE EXISTS (SELECT 1 FROM dr_events WHERE id = $1) \
             ON CONFLICT (event_id, sn) DO UPDATE SET plant_id = $3, state = $4, error = $5, \
             attempts = $6, updated_at = $7",
            $event,
            &$s.sn,
            $s.plant_id,
            $state,
            $error,
            $s.attempts,
            $s.updated_at
        )?
    };
}

impl Store {
    /// Every (enrolled inverter, event active at `now`) pair the dispatch job weighs.
    pub async fn dispatch_plan(&self, now: i64) -> Result<Vec<PlanRow>> {
        Ok(rows!(
            self,
            fetch_all,
            PlanRow,
            "SELECT d.sn, e.plant_id, e.id AS enrollment_id, e.participation, d.discharge_kw, \
             d.charge_kw, v.id AS event_id, v.priority, v.start_at, v.end_at, v.kind, v.target_kw, v.intervals \
             FROM dr_enrollments e JOIN dr_enrollment_devices d ON d.enrollment_id = e.id \
             JOIN dr_events v ON v.program_id = e.program_id \
             WHERE e.status = 'accepted' AND e.opted_out = 0 AND v.cancelled_at IS NULL \
             AND v.start_at <= $1 AND v.end_at > $1 \
             AND NOT EXISTS (SELECT 1 FROM dr_opt_outs o \
                 WHERE o.event_id = v.id AND o.enrollment_id = e.id) \
             ORDER BY d.sn, v.id",
            now
        )?)
    }

    /// The next start or end of an event still to come after `now`, if any.
    pub async fn dispatch_next_boundary(&self, now: i64) -> Result<Option<i64>> {
        Ok(scalar!(
            self,
            fetch_one,
            Option<i64>,
            "SELECT MIN(CASE WHEN start_at > $1 THEN start_at ELSE end_at END) FROM dr_events \
             WHERE cancelled_at IS NULL AND end_at > $1",
            now
        )?)
    }

    /// An inverter as the dispatch job sends to it.
    pub async fn dispatch_device(&self, sn: &str) -> Result<Option<DispatchDevice>> {
        Ok(rows!(
            self,
            fetch_optional,
            DispatchDevice,
            "SELECT d.sn, d.type_code, d.protocol, d.status, g.sn AS gateway_sn, d.plant_id, \
             p.owner_id AS plant_owner, p.company_id AS plant_company \
             FROM devices d LEFT JOIN gateways g ON g.id = d.gateway_id \
             LEFT JOIN plants p ON p.id = d.plant_id WHERE d.sn = $1",
            sn
        )?)
    }

    /// Every inverter the job has changed and not yet given back.
    pub async fn dispatch_states(&self) -> Result<Vec<DispatchState>> {
        let sql = format!("SELECT {STATE_COLUMNS} FROM dr_dispatch_devices ORDER BY sn");
        Ok(rows!(self, fetch_all, DispatchState, &sql)?)
    }

    /// Keeps `s` and, when given, its event's outcome `(event, state, error)` together. An
    /// outcome of an event deleted meanwhile is not written.
    pub async fn dispatch_save(
        &self,
        s: &DispatchState,
        outcome: Option<(HubEventId, &str, &str)>,
    ) -> Result<()> {
        in_tx!(self, |tx, sqlite| {
            tx_exec!(
                tx,
                sqlite,
                "INSERT INTO dr_dispatch_devices (sn, plant_id, event_id, mode, snapshot, sent, \
                 sending, command_id, state, error, attempts, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) \
                 ON CONFLICT (sn) DO UPDATE SET plant_id = $2, event_id = $3, mode = $4, \
                 snapshot = $5, sent = $6, sending = $7, command_id = $8, state = $9, \
                 error = $10, attempts = $11, updated_at = $12",
                &s.sn,
                s.plant_id,
                s.event_id,
                &s.mode,
                &s.snapshot,
                &s.sent,
                &s.sending,
                s.command_id,
                &s.state,
                &s.error,
                s.attempts,
                s.updated_at
            )?;
            if let Some((event, state, error)) = outcome {
                outcome_in_tx!(tx, sqlite, event, s, state, error);
            }
        });
        Ok(())
    }

    /// The inverter `s` is given back: its row goes and `event`'s outcome says restored.
    pub async fn dispatch_forget(
        &self,
        s: &DispatchState,
        event: Option<HubEventId>,
    ) -> Result<()> {
        in_tx!(self, |tx, sqlite| {
            tx_exec!(
                tx,
                sqlite,
                "DELETE FROM dr_dispatch_devices WHERE sn = $1",
                &s.sn
            )?;
            if let Some(event) = event {
                outcome_in_tx!(tx, sqlite, event, s, "restored", "");
            }
        });
        Ok(())
    }

    /// How `event` went for each inverter it held, by plant and SN.
    pub async fn dispatch_outcomes(&self, event: HubEventId) -> Result<Vec<DispatchOutcomeRow>> {
        Ok(rows!(
            self,
            fetch_all,
            DispatchOutcomeRow,
            "SELECT plant_id, sn AS device_sn, state, error, updated_at \
             FROM dr_dispatch_outcomes WHERE event_id = $1 ORDER BY plant_id, sn",
            event
        )?)
    }
}

#[doc(hidden)]
impl Store {
    /// Tests: a built-in programme with `plant`'s accepted enrollment of `sns` (discharge
    /// capacity `kw` each). Answers (programme, enrollment).
    pub async fn enroll_for_tests(
        &self,
        plant: PlantId,
        sns: &[&str],
        kw: f64,
        participation: i64,
    ) -> Result<(ProgramId, EnrollmentId)> {
        let now = 0_i64;
        let name = format!("test programme {plant}");
        let program = scalar!(
            self,
            fetch_one,
            ProgramId,
            "INSERT INTO dr_programs (name, created_at, updated_at) VALUES ($1, $2, $2) \
             RETURNING id",
            &name,
            now
        )?;
        let enrollment = scalar!(
            self,
            fetch_one,
            EnrollmentId,
            "INSERT INTO dr_enrollments (program_id, plant_id, status, source_account, \
             utility_account, first_name, last_name, email, participation, time_zone, \
             created_at, updated_at) VALUES ($1, $2, 'accepted', '1', 'u1', 'A', 'B', \
             'a@example.com', $3, 'UTC', $4, $4) RETURNING id",
            program,
            plant,
            participation,
            now
        )?;
        for sn in sns {
            exec!(
                self,
                "INSERT INTO dr_enrollment_devices (enrollment_id, sn, discharge_kw, added_at) \
                 VALUES ($1, $2, $3, $4)",
                enrollment,
                *sn,
                kw,
                now
            )?;
        }
        Ok((program, enrollment))
    }

    /// Tests: an event of `program` from `start` to `end` (unix seconds).
    #[allow(clippy::too_many_arguments)] // each is a column of the event
    pub async fn hub_event_for_tests(
        &self,
        program: ProgramId,
        start: i64,
        end: i64,
        kind: &str,
        target_kw: f64,
        priority: i64,
    ) -> Result<HubEventId> {
        Ok(scalar!(
            self,
            fetch_one,
            HubEventId,
            "INSERT INTO dr_events (program_id, name, priority, start_at, end_at, kind, \
             target_kw, created_at, updated_at) VALUES ($1, 'test event', $2, $3, $4, $5, $6, \
             $3, $3) RETURNING id",
            program,
            priority,
            start,
            end,
            kind,
            target_kw
        )?)
    }

    /// Tests: cancels an event (as an administrator would) or deletes it.
    pub async fn end_hub_event_for_tests(
        &self,
        event: HubEventId,
        delete: bool,
        now: i64,
    ) -> Result<()> {
        if delete {
            exec!(self, "DELETE FROM dr_events WHERE id = $1", event)?;
        } else {
            exec!(
                self,
                "UPDATE dr_events SET cancelled_at = $2 WHERE id = $1",
                event,
                now
            )?;
        }
        Ok(())
    }
}
