//! Alarm cases: the engine opens, escalates, refreshes and closes them, people acknowledge
//! them, and the lists read them as the plant visibility rule allows. Every change writes its
//! history row and calls the delivery hook ([`super::hook`]) in one transaction.

use domain::ids::{AlarmCaseId, AlarmRuleId, CompanyId, DeviceId, PlantId, UserId};

use super::hook::ChangeEvent;
use crate::{Result, Store, audit::NewAudit};

/// A case with its plant's name and who acknowledged it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct CaseRow {
    pub id: AlarmCaseId,
    pub rule_id: Option<AlarmRuleId>,
    pub company_id: CompanyId,
    pub plant_id: PlantId,
    pub plant_name: String,
    pub kind: String,
    pub subject: String,
    pub device_id: Option<DeviceId>,
    pub device_sn: Option<String>,
    pub severity: String,
    pub state: String,
    pub value: f64,
    /// JSON text: what the value was computed from.
    pub detail: String,
    pub opened_at: i64,
    /// When the value last changed.
    pub seen_at: i64,
    pub acknowledged_at: Option<i64>,
    pub acknowledged_by: Option<UserId>,
    pub acknowledged_account: Option<String>,
    pub ack_comment: Option<String>,
    pub closed_at: Option<i64>,
}

/// One line of a case's history.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct HistoryRow {
    pub at: i64,
    pub action: String,
    pub severity: String,
    pub value: Option<f64>,
    pub account: Option<String>,
    pub comment: Option<String>,
}

/// A live (not closed) case as the engine compares it with its verdicts.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct LiveCase {
    pub id: AlarmCaseId,
    pub plant_id: PlantId,
    pub subject: String,
    pub severity: String,
    pub value: f64,
}

/// A case to open.
#[derive(Debug, Clone)]
pub struct NewCase<'a> {
    pub rule_id: AlarmRuleId,
    pub company_id: CompanyId,
    pub plant_id: PlantId,
    pub kind: &'a str,
    pub subject: &'a str,
    pub device_id: Option<DeviceId>,
    pub device_sn: Option<&'a str>,
    pub severity: &'a str,
    pub value: f64,
    pub detail: &'a str,
}

/// What a case list may be narrowed by; `None` means any.
#[derive(Debug, Clone, Default)]
pub struct CaseFilter {
    pub state: Option<String>,
    pub kind: Option<String>,
    pub severity: Option<String>,
    pub plant: Option<PlantId>,
    pub limit: i64,
    pub offset: i64,
}

pub(crate) const CASE_COLUMNS: &str = "c.id, c.rule_id, c.company_id, c.plant_id, \
    p.name AS plant_name, c.kind, c.subject, c.device_id, c.device_sn, c.severity, c.state, \
    c.value, c.detail, c.opened_at, c.seen_at, c.acknowledged_at, c.acknowledged_by, \
    u.account AS acknowledged_account, c.ack_comment, c.closed_at";

pub(crate) const CASE_BY_ID: &str = "SELECT c.id, c.rule_id, c.company_id, c.plant_id, \
    p.name AS plant_name, c.kind, c.subject, c.device_id, c.device_sn, c.severity, c.state, \
    c.value, c.detail, c.opened_at, c.seen_at, c.acknowledged_at, c.acknowledged_by, \
    u.account AS acknowledged_account, c.ack_comment, c.closed_at \
    FROM alarm_cases c JOIN plants p ON p.id = c.plant_id \
    LEFT JOIN users u ON u.id = c.acknowledged_by WHERE c.id = $1";

/// Calls the delivery hook with the case `$id` as it is now, inside [`in_tx!`].
macro_rules! case_hook_in_tx {
    ($tx:ident, $sqlite:ident, $id:expr, $event:expr) => {{
        let case = tx_rows!(
            $tx,
            $sqlite,
            fetch_one,
            $crate::alarm_engine::cases::CaseRow,
            $crate::alarm_engine::cases::CASE_BY_ID,
            $id
        )?;
        $crate::alarm_engine::hook::on_case_change(
            $crate::alarm_engine::hook::CaseTx::from(&mut $tx),
            $event,
            &case,
        )
        .await?;
    }};
}

/// Closes live case `$id` at `$now` with its history row and the hook, inside [`in_tx!`];
/// a case closed already is left alone.
macro_rules! close_case_in_tx {
    ($tx:ident, $sqlite:ident, $id:expr, $now:expr) => {{
        let id: domain::ids::AlarmCaseId = $id;
        let now: i64 = $now;
        let n = tx_exec!(
            $tx,
            $sqlite,
            "UPDATE alarm_cases SET state = 'closed', closed_at = $2 \
             WHERE id = $1 AND closed_at IS NULL",
            id,
            now
        )?;
        if n > 0 {
            tx_exec!(
                $tx,
                $sqlite,
                "INSERT INTO alarm_case_history (case_id, at, action, severity, value) \
                 SELECT id, $2, 'closed', severity, value FROM alarm_cases WHERE id = $1",
                id,
                now
            )?;
            case_hook_in_tx!(
                $tx,
                $sqlite,
                id,
                $crate::alarm_engine::hook::ChangeEvent::Closed
            );
        }
    }};
}

impl Store {
    /// The live cases of a rule.
    pub async fn live_cases_of_rule(&self, rule: AlarmRuleId) -> Result<Vec<LiveCase>> {
        Ok(rows!(
            self,
            fetch_all,
            LiveCase,
            "SELECT id, plant_id, subject, severity, value FROM alarm_cases \
             WHERE rule_id = $1 AND closed_at IS NULL ORDER BY id",
            rule
        )?)
    }

    /// Opens a case with its history row and the hook; `None` when one is live for the same
    /// (rule, plant, subject) already (another replica opened it).
    pub async fn open_alarm_case(&self, c: &NewCase<'_>, now: i64) -> Result<Option<AlarmCaseId>> {
        in_tx!(self, |tx, sqlite| {
            let id = tx_rows!(
                tx,
                sqlite,
                fetch_optional,
                (AlarmCaseId,),
                "INSERT INTO alarm_cases (rule_id, company_id, plant_id, kind, subject, \
                 device_id, device_sn, severity, state, value, detail, opened_at, seen_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'open', $9, $10, $11, $11) \
                 ON CONFLICT (rule_id, plant_id, subject) WHERE closed_at IS NULL DO NOTHING \
                 RETURNING id",
                c.rule_id,
                c.company_id,
                c.plant_id,
                c.kind,
                c.subject,
                c.device_id,
                c.device_sn,
                c.severity,
                c.value,
                c.detail,
                now
            )?
            .map(|(id,)| id);
            if let Some(id) = id {
                tx_exec!(
                    tx,
                    sqlite,
                    "INSERT INTO alarm_case_history (case_id, at, action, severity, value) \
                     VALUES ($1, $2, 'opened', $3, $4)",
                    id,
                    now,
                    c.severity,
                    c.value
                )?;
                case_hook_in_tx!(tx, sqlite, id, ChangeEvent::Opened);
            }
            Ok::<Option<AlarmCaseId>, crate::StoreError>(id)
        })
    }

    /// A live case's new figure; with `escalate_to` its severity rises too (it is open again
    /// if it was acknowledged, with its history row and the hook).
    pub async fn refresh_alarm_case(
        &self,
        id: AlarmCaseId,
        value: f64,
        detail: &str,
        escalate_to: Option<&str>,
        now: i64,
    ) -> Result<bool> {
        in_tx!(self, |tx, sqlite| {
            let n = match escalate_to {
                None => tx_exec!(
                    tx,
                    sqlite,
                    "UPDATE alarm_cases SET value = $2, detail = $3, seen_at = $4 \
                     WHERE id = $1 AND closed_at IS NULL",
                    id,
                    value,
                    detail,
                    now
                )?,
                Some(severity) => {
                    let n = tx_exec!(
                        tx,
                        sqlite,
                        "UPDATE alarm_cases SET value = $2, detail = $3, seen_at = $4, \
                         severity = $5, state = 'open' WHERE id = $1 AND closed_at IS NULL",
                        id,
                        value,
                        detail,
                        now,
                        severity
                    )?;
                    if n > 0 {
                        tx_exec!(
                            tx,
                            sqlite,
                            "INSERT INTO alarm_case_history (case_id, at, action, severity, \
                             value) VALUES ($1, $2, 'escalated', $3, $4)",
                            id,
                            now,
                            severity,
                            value
                        )?;
                        case_hook_in_tx!(tx, sqlite, id, ChangeEvent::Updated);
                    }
                    n
                }
            };
            Ok::<bool, crate::StoreError>(n > 0)
        })
    }

    /// Closes a live case (recovery), with its history row and the hook.
    pub async fn close_alarm_case(&self, id: AlarmCaseId, now: i64) -> Result<()> {
        in_tx!(self, |tx, sqlite| {
            close_case_in_tx!(tx, sqlite, id, now);
            Ok::<(), crate::StoreError>(())
        })
    }

    /// Acknowledges an open case for `user`, with its history row, `audit` and the hook, in one
    /// transaction; `false` (nothing written) when the case is not open.
    pub async fn acknowledge_alarm_case(
        &self,
        id: AlarmCaseId,
        user: UserId,
        comment: Option<&str>,
        audit: &NewAudit<'_>,
        now: i64,
    ) -> Result<bool> {
        in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "UPDATE alarm_cases SET state = 'acknowledged', acknowledged_at = $2, \
                 acknowledged_by = $3, ack_comment = $4 WHERE id = $1 AND state = 'open'",
                id,
                now,
                user,
                comment
            )?;
            if n > 0 {
                tx_exec!(
                    tx,
                    sqlite,
                    "INSERT INTO alarm_case_history (case_id, at, action, severity, value, \
                     user_id, comment) SELECT id, $2, 'acknowledged', severity, value, $3, $4 \
                     FROM alarm_cases WHERE id = $1",
                    id,
                    now,
                    user,
                    comment
                )?;
                audit_in_tx!(tx, sqlite, audit)?;
                case_hook_in_tx!(tx, sqlite, id, ChangeEvent::Acknowledged);
            }
            Ok::<bool, crate::StoreError>(n > 0)
        })
    }

    /// Deletes up to `limit` cases closed before `before` (the longest closed first) with
    /// their history, in one transaction; answers how many cases went. A live (open or
    /// acknowledged) case has no `closed_at` and is never touched.
    pub async fn purge_closed_alarm_cases(&self, before: i64, limit: i64) -> Result<u64> {
        let oldest = format!(
            "SELECT id FROM alarm_cases WHERE closed_at < $1 AND state = 'closed' \
             ORDER BY closed_at, id {}",
            crate::sql::page(limit, 0)
        );
        let history = format!("DELETE FROM alarm_case_history WHERE case_id IN ({oldest})");
        let cases = format!("DELETE FROM alarm_cases WHERE id IN ({oldest})");
        in_tx!(self, |tx, sqlite| {
            tx_exec!(tx, sqlite, &history, before)?;
            let n = tx_exec!(tx, sqlite, &cases, before)?;
            Ok::<u64, crate::StoreError>(n)
        })
    }
}
