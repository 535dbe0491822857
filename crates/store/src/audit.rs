//! The audit log of remote control: one row per action a user took on a device or gateway
//! (settings, power, debug, upgrades, gateway actions), with its result. Rows are only added;
//! a command's later outcome is joined in from `commands` when the log is read.

use domain::ids::{AuditId, CommandId, PlantId, UserId};
use domain::policy::PlantVisibility;

use crate::{
    Result, Store,
    log_pages::{Author, LogTable, Window, contains},
};

/// An entry about to be written.
#[derive(Debug, Clone)]
pub struct NewAudit<'a> {
    pub by: Author<'a>,
    pub action: &'a str,
    pub target: &'a str,
    /// JSON text.
    pub detail: &'a str,
    pub result: &'a str,
    pub command_id: Option<CommandId>,
    pub now: i64,
}

/// An entry about rows a transaction creates, whose ids are known only inside it: `entry` is
/// the entry but for its target and detail, which `describe` gives from the new ids.
pub struct NewRowsAudit<'a, Ids> {
    pub entry: NewAudit<'a>,
    pub describe: &'a (dyn Fn(Ids) -> (String, String) + Send + Sync),
}

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct AuditRow {
    pub id: AuditId,
    pub user_id: Option<UserId>,
    pub account: String,
    pub plant_id: Option<PlantId>,
    pub plant_name: Option<String>,
    pub action: String,
    pub target: String,
    /// JSON text.
    pub detail: String,
    pub result: String,
    pub command_id: Option<CommandId>,
    /// The command's status now (`sent` ... `timed_out`), when the entry sent one.
    pub command_status: Option<String>,
    pub created_at: i64,
}

/// What an audit listing may be narrowed by; `None` means "any".
#[derive(Debug, Clone, Default)]
pub struct AuditFilter {
    /// Exact action name (e.g. `setting.set`).
    pub action: Option<String>,
    /// Part of the target (a device or gateway SN), any case.
    pub target: Option<String>,
    /// Part of the actor's account, any case.
    pub user: Option<String>,
    pub plant: Option<PlantId>,
    /// Milliseconds, inclusive.
    pub from: Option<i64>,
    /// Milliseconds, exclusive.
    pub to: Option<i64>,
    pub limit: i64,
    pub offset: i64,
}

const TABLE: LogTable = LogTable {
    alias: "a",
    columns: "a.id, a.user_id, a.account, a.plant_id, p.name AS plant_name, a.action, \
        a.target, a.detail, a.result, a.command_id, c.status AS command_status, a.created_at",
    from: "FROM audit_log a LEFT JOIN plants p ON p.id = a.plant_id \
        LEFT JOIN commands c ON c.id = a.command_id",
    filters: "($4 IS NULL OR a.action = $4) AND ($5 IS NULL OR UPPER(a.target) LIKE $5) \
        AND ($6 IS NULL OR UPPER(a.account) LIKE $6)",
};

/// The one statement that adds an entry, for [`Store::insert_audit`] and [`audit_in_tx!`].
pub(crate) const INSERT_AUDIT: &str = "INSERT INTO audit_log (user_id, account, \
    actor_company_id, plant_id, plant_owner_id, plant_company_id, action, target, detail, result, \
    command_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id";

/// `detail` (a JSON object) with `key` set to `value`: an entry that names what its own
/// transaction just wrote (a new row's id, a count), which its author could not know before.
pub(crate) fn noting(detail: &str, key: &str, value: impl Into<serde_json::Value>) -> String {
    let mut v: serde_json::Value =
        serde_json::from_str(detail).unwrap_or_else(|_| serde_json::json!({}));
    if let Some(o) = v.as_object_mut() {
        o.insert(key.to_string(), value.into());
    }
    v.to_string()
}

impl Store {
    /// Writes an entry on its own: a refusal, or an action whose writes are elsewhere (a
    /// command sent to a device). An entry about rows this store writes goes into their
    /// transaction instead (`audit_in_tx!`), so the two stand or fall
    /// together.
    pub async fn insert_audit(&self, a: &NewAudit<'_>) -> Result<AuditId> {
        Ok(in_tx!(self, |tx, sqlite| { audit_in_tx!(tx, sqlite, a)? }))
    }

    /// A page of the entries `visibility` allows, newest first, with the total before paging.
    /// `company` is the reader's company when they are company staff.
    pub async fn audit_visible(
        &self,
        visibility: PlantVisibility,
        reader: domain::ids::UserId,
        f: &AuditFilter,
    ) -> Result<(Vec<AuditRow>, i64)> {
        let (target, account) = (contains(&f.target), contains(&f.user));
        let filters = [f.action.as_deref(), target.as_deref(), account.as_deref()];
        let w = Window {
            plant: f.plant,
            from: f.from,
            to: f.to,
            limit: f.limit,
            offset: f.offset,
        };
        self.visible_log_page(&TABLE, visibility, reader, filters, &w)
            .await
    }
}
