//! Commands sent to devices through their gateways. The row is the command's single source of
//! truth: the replica that publishes a command, the one that receives its reply and the one an
//! API client polls may all differ.

use crate::{
    Conflict, Result, Store,
    audit::{NewAudit, noting},
    conflict,
};
use domain::ids::CommandId;

/// Where a command stands (the rule lives in `domain`; re-exported for the store's readers).
pub use domain::command::CommandStatus;

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct CommandRow {
    pub id: CommandId,
    pub correlation_id: String,
    pub gateway_sn: String,
    pub device_sn: String,
    pub kind: String,
    /// JSON text.
    pub params: String,
    pub status: String,
    pub result_code: Option<i64>,
    pub result_msg: String,
    /// JSON text.
    pub result_data: String,
    pub created_at: i64,
    pub updated_at: i64,
    /// Milliseconds since the epoch after which an open command times out.
    pub deadline: i64,
}

impl CommandRow {
    /// The status, or `Failed` for a value this build does not know (never written by it).
    pub fn status(&self) -> CommandStatus {
        CommandStatus::parse(&self.status).unwrap_or(CommandStatus::Failed)
    }
}

#[derive(Debug, Clone)]
pub struct NewCommand<'a> {
    pub correlation_id: &'a str,
    pub gateway_sn: &'a str,
    pub device_sn: &'a str,
    pub kind: &'a str,
    /// JSON text.
    pub params: &'a str,
    pub now: i64,
    pub deadline: i64,
}

/// What a reply says about a command.
#[derive(Debug, Clone)]
pub struct CommandOutcome<'a> {
    pub status: CommandStatus,
    pub code: i64,
    pub msg: &'a str,
    /// JSON text.
    pub data: &'a str,
}

const COLUMNS: &str = "id, correlation_id, gateway_sn, device_sn, kind, params, status, \
    result_code, result_msg, result_data, created_at, updated_at, deadline";

const OPEN: &str = "status IN ('sent', 'acknowledged')";

/// Records a command as `sent`; shared with the use cases that record one with their rows.
pub(crate) const INSERT_COMMAND: &str = "INSERT INTO commands (correlation_id, gateway_sn, \
    device_sn, kind, params, status, created_at, updated_at, deadline) \
    VALUES ($1, $2, $3, $4, $5, 'sent', $6, $6, $7) RETURNING id";

impl Store {
    /// Records a command about to be published, as `sent`. A reused correlation id answers
    /// `Conflict::CommandId`.
    pub async fn insert_command(&self, c: &NewCommand<'_>) -> Result<CommandId> {
        scalar!(
            self,
            fetch_one,
            CommandId,
            INSERT_COMMAND,
            c.correlation_id,
            c.gateway_sn,
            c.device_sn,
            c.kind,
            c.params,
            c.now,
            c.deadline
        )
        .map_err(|e| conflict(e, Conflict::CommandId))
    }

    /// Records a command with the audit entry of the action that sends it, in one
    /// transaction: the entry is linked to the command (`command_id`, and `commandId` in its
    /// detail), whose status the log shows as it moves.
    pub async fn insert_command_audited(
        &self,
        c: &NewCommand<'_>,
        audit: &NewAudit<'_>,
    ) -> Result<CommandId> {
        let id = in_tx!(self, |tx, sqlite| {
            let id = tx_scalar!(
                tx,
                sqlite,
                CommandId,
                INSERT_COMMAND,
                c.correlation_id,
                c.gateway_sn,
                c.device_sn,
                c.kind,
                c.params,
                c.now,
                c.deadline
            )
            .map_err(|e| conflict(e, Conflict::CommandId))?;
            let detail = noting(audit.detail, "commandId", id.0);
            let entry = NewAudit {
                detail: &detail,
                command_id: Some(id),
                ..audit.clone()
            };
            audit_in_tx!(tx, sqlite, &entry)?;
            id
        });
        Ok(id)
    }

    pub async fn command(&self, id: CommandId) -> Result<Option<CommandRow>> {
        let sql = format!("SELECT {COLUMNS} FROM commands WHERE id = $1");
        Ok(rows!(self, fetch_optional, CommandRow, &sql, id)?)
    }

    pub async fn command_by_correlation(&self, correlation_id: &str) -> Result<Option<CommandRow>> {
        let sql = format!("SELECT {COLUMNS} FROM commands WHERE correlation_id = $1");
        Ok(rows!(
            self,
            fetch_optional,
            CommandRow,
            &sql,
            correlation_id
        )?)
    }

    /// The most recent commands for a device, newest first.
    pub async fn device_commands(&self, device_sn: &str, limit: i64) -> Result<Vec<CommandRow>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM commands WHERE device_sn = $1 \
             ORDER BY created_at DESC, id DESC LIMIT $2"
        );
        Ok(rows!(self, fetch_all, CommandRow, &sql, device_sn, limit)?)
    }

    /// Whether the device has an open command of `kind` (e.g. an upgrade in progress).
    pub async fn has_open_command(&self, device_sn: &str, kind: &str, now: i64) -> Result<bool> {
        let sql = format!(
            "SELECT COUNT(*) FROM commands WHERE device_sn = $1 AND kind = $2 AND {OPEN} \
             AND deadline >= $3"
        );
        Ok(scalar!(self, fetch_one, i64, &sql, device_sn, kind, now)? > 0)
    }

    /// Records a reply from the gateway, which must be the one the command was sent through.
    /// Only an open command moves: a late or repeated reply to a final command changes nothing
    /// and answers `false`. An interim reply (`Acknowledged`) keeps the command open.
    pub async fn record_command_reply(
        &self,
        gateway_sn: &str,
        correlation_id: &str,
        outcome: &CommandOutcome<'_>,
        now: i64,
    ) -> Result<bool> {
        let sql = format!(
            "UPDATE commands SET status = $3, result_code = $4, result_msg = $5, \
             result_data = $6, updated_at = $7 \
             WHERE correlation_id = $1 AND gateway_sn = $2 AND {OPEN}"
        );
        Ok(exec!(
            self,
            &sql,
            correlation_id,
            gateway_sn,
            outcome.status.as_str(),
            outcome.code,
            outcome.msg,
            outcome.data,
            now
        )? == 1)
    }

    /// Marks a command that could not be published as failed.
    pub async fn fail_command(&self, id: CommandId, msg: &str, now: i64) -> Result<bool> {
        let sql = format!(
            "UPDATE commands SET status = 'failed', result_msg = $2, updated_at = $3 \
             WHERE id = $1 AND {OPEN}"
        );
        Ok(exec!(self, &sql, id, msg, now)? == 1)
    }

    /// Times out every open command whose deadline has passed; answers how many.
    pub async fn time_out_commands(&self, now: i64) -> Result<u64> {
        let sql = format!(
            "UPDATE commands SET status = 'timed_out', updated_at = $1 \
             WHERE {OPEN} AND deadline < $1"
        );
        Ok(exec!(self, &sql, now)?)
    }
}
