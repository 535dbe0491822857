//! The debug log: one row per raw frame a user sent through the remote debug toolbox (or a send
//! that was refused), who sent it, to which device, and when. The reply frame and the outcome
//! come from the command the row points at, so a reply received by another replica shows up
//! without anyone copying it here.

use domain::ids::{CommandId, DebugEntryId, PlantId, UserId};
use domain::policy::PlantVisibility;

use crate::{
    Result, Store,
    log_pages::{Author, LogTable, Window, contains},
};

/// An entry about to be written.
#[derive(Debug, Clone)]
pub struct NewDebugEntry<'a> {
    pub by: Author<'a>,
    /// `inverter` or `gateway`.
    pub target_kind: &'a str,
    pub device_sn: &'a str,
    pub gateway_sn: &'a str,
    /// Spaced upper-case hex (`01 03 00 00 00 0A C5 CD`).
    pub request: &'a str,
    /// `sent` or `refused`.
    pub result: &'a str,
    pub message: &'a str,
    pub command_id: Option<CommandId>,
    pub now: i64,
}

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct DebugRow {
    pub id: DebugEntryId,
    pub user_id: Option<UserId>,
    pub account: String,
    pub plant_id: Option<PlantId>,
    pub plant_name: Option<String>,
    pub target_kind: String,
    pub device_sn: String,
    pub gateway_sn: String,
    pub request: String,
    pub result: String,
    pub message: String,
    pub command_id: Option<CommandId>,
    /// The command's status now (`sent` ... `timed_out`); `None` for a refused send.
    pub command_status: Option<String>,
    pub command_msg: Option<String>,
    /// The command's reply data (JSON text), holding the reply `frame` once it came.
    pub command_data: Option<String>,
    /// When the command last changed (its reply time once final).
    pub command_updated_at: Option<i64>,
    pub created_at: i64,
}

/// What a debug log listing may be narrowed by; `None` means "any".
#[derive(Debug, Clone, Default)]
pub struct DebugFilter {
    /// Part of the device or gateway SN, any case.
    pub sn: Option<String>,
    /// Part of the actor's account, any case.
    pub user: Option<String>,
    /// `inverter` or `gateway`.
    pub target_kind: Option<String>,
    pub plant: Option<PlantId>,
    /// Milliseconds, inclusive.
    pub from: Option<i64>,
    /// Milliseconds, exclusive.
    pub to: Option<i64>,
    pub limit: i64,
    pub offset: i64,
}

const COLUMNS: &str = "d.id, d.user_id, d.account, d.plant_id, p.name AS plant_name, \
    d.target_kind, d.device_sn, d.gateway_sn, d.request, d.result, d.message, d.command_id, \
    c.status AS command_status, c.result_msg AS command_msg, c.result_data AS command_data, \
    c.updated_at AS command_updated_at, d.created_at";

const FROM: &str = "FROM debug_log d LEFT JOIN plants p ON p.id = d.plant_id \
    LEFT JOIN commands c ON c.id = d.command_id";

/// The listing: besides the shared window, SN (device or gateway), account and target kind.
const TABLE: LogTable = LogTable {
    alias: "d",
    columns: COLUMNS,
    from: FROM,
    filters: "($4 IS NULL OR UPPER(d.device_sn) LIKE $4 OR UPPER(d.gateway_sn) LIKE $4) \
        AND ($5 IS NULL OR UPPER(d.account) LIKE $5) AND ($6 IS NULL OR d.target_kind = $6)",
};

impl Store {
    pub async fn insert_debug_entry(&self, e: &NewDebugEntry<'_>) -> Result<DebugEntryId> {
        Ok(scalar!(
            self,
            fetch_one,
            DebugEntryId,
            "INSERT INTO debug_log (user_id, account, actor_company_id, plant_id, plant_owner_id, \
             plant_company_id, target_kind, device_sn, gateway_sn, request, result, message, \
             command_id, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id",
            e.by.user_id,
            e.by.account,
            e.by.actor_company_id,
            e.by.plant_id,
            e.by.plant_owner_id,
            e.by.plant_company_id,
            e.target_kind,
            e.device_sn,
            e.gateway_sn,
            e.request,
            e.result,
            e.message,
            e.command_id,
            e.now
        )?)
    }

    /// The entry that sent command `command_id`, if any.
    pub async fn debug_entry_of_command(&self, command_id: CommandId) -> Result<Option<DebugRow>> {
        let sql = format!("SELECT {COLUMNS} {FROM} WHERE d.command_id = $1");
        Ok(rows!(self, fetch_optional, DebugRow, &sql, command_id)?)
    }

    /// The newest entry for a device (or gateway) SN that sent a command, if any.
    pub async fn last_debug_entry(&self, device_sn: &str) -> Result<Option<DebugRow>> {
        let sql = format!(
            "SELECT {COLUMNS} {FROM} WHERE d.device_sn = $1 AND d.command_id IS NOT NULL \
             ORDER BY d.created_at DESC, d.id DESC LIMIT 1"
        );
        Ok(rows!(self, fetch_optional, DebugRow, &sql, device_sn)?)
    }

    /// A page of the entries `visibility` allows, newest first, with the total before paging.
    pub async fn debug_log_visible(
        &self,
        visibility: PlantVisibility,
        reader: domain::ids::UserId,
        f: &DebugFilter,
    ) -> Result<(Vec<DebugRow>, i64)> {
        let (sn, account) = (contains(&f.sn), contains(&f.user));
        let filters = [sn.as_deref(), account.as_deref(), f.target_kind.as_deref()];
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
