//! Firmware upgrades: one row per device and run, tied to the `upgrade` command that carries
//! it. The command row records what the gateway replied; this row is what screens read
//! (state, percent, message, times), kept in step with the command by `apply_upgrade_update`,
//! so any replica can show progress.

use crate::{
    Conflict, Result, Store,
    audit::{NewAudit, noting},
    commands::{INSERT_COMMAND, NewCommand},
    conflict,
};
use domain::ids::{CommandId, FirmwareId, UpgradeId, UserId};

/// The spec's remote upgrade states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpgradeState {
    Sending,
    Upgrading,
    Successful,
    Failed,
    Cancelled,
}

impl UpgradeState {
    pub fn as_str(self) -> &'static str {
        match self {
            UpgradeState::Sending => "sending",
            UpgradeState::Upgrading => "upgrading",
            UpgradeState::Successful => "successful",
            UpgradeState::Failed => "failed",
            UpgradeState::Cancelled => "cancelled",
        }
    }

    pub fn parse(s: &str) -> Option<UpgradeState> {
        Some(match s {
            "sending" => UpgradeState::Sending,
            "upgrading" => UpgradeState::Upgrading,
            "successful" => UpgradeState::Successful,
            "failed" => UpgradeState::Failed,
            "cancelled" => UpgradeState::Cancelled,
            _ => return None,
        })
    }

    pub fn is_final(self) -> bool {
        !matches!(self, UpgradeState::Sending | UpgradeState::Upgrading)
    }
}

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct UpgradeRow {
    pub id: UpgradeId,
    pub batch_id: String,
    /// `inverter` or `gateway`.
    pub target: String,
    pub device_sn: String,
    pub firmware_id: Option<FirmwareId>,
    pub version: String,
    pub from_version: String,
    pub command_id: Option<CommandId>,
    pub state: String,
    pub progress: i64,
    pub message: String,
    pub cancellable: bool,
    pub user_id: Option<UserId>,
    pub started_at: i64,
    pub finished_at: Option<i64>,
    pub updated_at: i64,
}

impl UpgradeRow {
    /// The state, or `Failed` for a value this build never writes.
    pub fn state(&self) -> UpgradeState {
        UpgradeState::parse(&self.state).unwrap_or(UpgradeState::Failed)
    }
}

#[derive(Debug, Clone)]
pub struct NewUpgrade<'a> {
    pub batch_id: &'a str,
    pub target: &'a str,
    pub device_sn: &'a str,
    pub firmware_id: FirmwareId,
    pub version: &'a str,
    pub from_version: &'a str,
    pub cancellable: bool,
    pub user_id: UserId,
    pub now: i64,
}

/// The rows [`Store::start_upgrade`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StartedUpgrade {
    pub command_id: CommandId,
    pub upgrade_id: UpgradeId,
}

/// Where an upgrade stands according to its command.
#[derive(Debug, Clone, PartialEq)]
pub struct UpgradeUpdate {
    pub state: UpgradeState,
    pub progress: i64,
    pub message: String,
    /// The device said it can stop this upgrade (interim replies say so).
    pub cancellable: bool,
}

const COLUMNS: &str = "id, batch_id, target, device_sn, firmware_id, version, from_version, \
    command_id, state, progress, message, cancellable, user_id, started_at, finished_at, \
    updated_at";

const OPEN: &str = "state IN ('sending', 'upgrading')";

impl Store {
    /// Records an upgrade, its command and the audit entry of the action (linked to the
    /// command) in one transaction, the upgrade as `sending`, and
    /// shows an inverter as Upgrading (status 4) at once; the status job keeps it so while the
    /// flag is set. The caller publishes the command after this commits. Answers the ids.
    pub async fn start_upgrade(
        &self,
        command: &NewCommand<'_>,
        u: &NewUpgrade<'_>,
        audit: &NewAudit<'_>,
    ) -> Result<StartedUpgrade> {
        in_tx!(self, |tx, sqlite| {
            let command_id = tx_scalar!(
                tx,
                sqlite,
                CommandId,
                INSERT_COMMAND,
                command.correlation_id,
                command.gateway_sn,
                command.device_sn,
                command.kind,
                command.params,
                command.now,
                command.deadline
            )
            .map_err(|e| conflict(e, Conflict::CommandId))?;
            let upgrade_id = tx_scalar!(
                tx,
                sqlite,
                UpgradeId,
                "INSERT INTO upgrades (batch_id, target, device_sn, firmware_id, version, \
                 from_version, command_id, state, progress, cancellable, user_id, started_at, \
                 updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 'sending', 0, $8, $9, $10, $10) \
                 RETURNING id",
                u.batch_id,
                u.target,
                u.device_sn,
                u.firmware_id,
                u.version,
                u.from_version,
                command_id,
                u.cancellable,
                u.user_id,
                u.now
            )?;
            let detail = noting(audit.detail, "commandId", command_id.0);
            let entry = NewAudit {
                detail: &detail,
                command_id: Some(command_id),
                ..audit.clone()
            };
            audit_in_tx!(tx, sqlite, &entry)?;
            if u.target == "inverter" {
                tx_exec!(
                    tx,
                    sqlite,
                    "UPDATE devices SET upgrading = TRUE, status = 4 WHERE sn = $1",
                    u.device_sn
                )?;
            }
            Ok(StartedUpgrade {
                command_id,
                upgrade_id,
            })
        })
    }

    pub async fn upgrade(&self, id: UpgradeId) -> Result<Option<UpgradeRow>> {
        let sql = format!("SELECT {COLUMNS} FROM upgrades WHERE id = $1");
        Ok(rows!(self, fetch_optional, UpgradeRow, &sql, id)?)
    }

    pub async fn upgrade_by_command(&self, command_id: CommandId) -> Result<Option<UpgradeRow>> {
        let sql = format!("SELECT {COLUMNS} FROM upgrades WHERE command_id = $1");
        Ok(rows!(self, fetch_optional, UpgradeRow, &sql, command_id)?)
    }

    /// The device's most recent upgrade, if it ever had one.
    pub async fn latest_upgrade(&self, device_sn: &str) -> Result<Option<UpgradeRow>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM upgrades WHERE device_sn = $1 \
             ORDER BY started_at DESC, id DESC LIMIT 1"
        );
        Ok(rows!(self, fetch_optional, UpgradeRow, &sql, device_sn)?)
    }

    /// The upgrades still running (sending or upgrading) on any device.
    pub async fn open_upgrades(&self) -> Result<Vec<UpgradeRow>> {
        let sql = format!("SELECT {COLUMNS} FROM upgrades WHERE {OPEN} ORDER BY id");
        Ok(rows!(self, fetch_all, UpgradeRow, &sql)?)
    }

    /// The upgrades of one batch, in the order they were started.
    pub async fn batch_upgrades(&self, batch_id: &str) -> Result<Vec<UpgradeRow>> {
        let sql = format!("SELECT {COLUMNS} FROM upgrades WHERE batch_id = $1 ORDER BY id");
        Ok(rows!(self, fetch_all, UpgradeRow, &sql, batch_id)?)
    }

    /// Moves the upgrade carried by `command_id` to `update`. Only a running upgrade moves, and
    /// progress never goes back. A final state stamps the finish time and lets an inverter
    /// leave Upgrading (shown online or offline until the status job weighs its events again).
    /// Answers whether the row moved, and the row as it stands afterwards.
    pub async fn apply_upgrade_update(
        &self,
        command_id: CommandId,
        update: &UpgradeUpdate,
        now: i64,
    ) -> Result<(bool, Option<UpgradeRow>)> {
        if update.state.is_final() {
            // The device first: whoever reads the upgrade as ended must find the inverter out
            // of Upgrading. Running this twice (a reply and a read racing) changes nothing.
            let sql = format!(
                "UPDATE devices SET upgrading = FALSE, \
                 status = CASE WHEN online THEN 1 ELSE 0 END \
                 WHERE sn = (SELECT device_sn FROM upgrades WHERE command_id = $1 \
                 AND target = 'inverter' AND {OPEN})"
            );
            exec!(self, &sql, command_id)?;
        }
        let finished = update.state.is_final().then_some(now);
        let sql = format!(
            "UPDATE upgrades SET state = $2, \
             progress = CASE WHEN $3 > progress THEN $3 ELSE progress END, \
             message = $4, finished_at = $5, updated_at = $6, \
             cancellable = CASE WHEN $7 THEN TRUE ELSE cancellable END \
             WHERE command_id = $1 AND {OPEN}"
        );
        let moved = exec!(
            self,
            &sql,
            command_id,
            update.state.as_str(),
            update.progress,
            &update.message,
            finished,
            now,
            update.cancellable
        )? == 1;
        Ok((moved, self.upgrade_by_command(command_id).await?))
    }

    /// Replaces a device's reported versions (JSON text), e.g. after a successful upgrade.
    pub async fn set_device_versions(
        &self,
        device_sn: &str,
        versions: &str,
        now: i64,
    ) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE devices SET versions = $2, updated_at = $3 WHERE sn = $1",
            device_sn,
            versions,
            now
        )? == 1)
    }

    /// Records a gateway's new software version after a successful upgrade.
    pub async fn set_gateway_soft_ver(
        &self,
        gateway_sn: &str,
        version: &str,
        now: i64,
    ) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE gateways SET soft_ver = $2, updated_at = $3 WHERE sn = $1",
            gateway_sn,
            version,
            now
        )? == 1)
    }
}

/// When the portal stops waiting for upgrades it no longer hears of (see
/// [`Store::fail_stalled_upgrades`]); times in milliseconds since the epoch.
#[derive(Debug, Clone, Copy)]
pub struct Stalled<'a> {
    pub now: i64,
    /// An upgrade of a device whose gateway is offline, silent since before this, failed with
    /// `gateway_gone`.
    pub gone_before: i64,
    /// An upgrade of a device silent since before this, failed with `no_progress`.
    pub silent_before: i64,
    /// The same for a gateway's own upgrade (a gateway may reboot to flash).
    pub gateway_silent_before: i64,
    pub gateway_gone: &'a str,
    pub no_progress: &'a str,
}

impl Store {
    /// Fails the open upgrade commands whose device stopped answering: behind a gateway that
    /// is offline, or silent too long. Answers how many; their upgrade rows follow their
    /// commands (`devices::link::sync_ended_upgrades`).
    pub async fn fail_stalled_upgrades(&self, s: &Stalled<'_>) -> Result<u64> {
        Ok(exec!(
            self,
            "UPDATE commands SET status = 'failed', updated_at = $1, \
             result_msg = CASE WHEN device_sn <> gateway_sn AND updated_at < $2 AND gateway_sn IN \
               (SELECT g.sn FROM gateways g WHERE g.online = FALSE) THEN $5 ELSE $6 END \
             WHERE kind = 'upgrade' AND status IN ('sent', 'acknowledged') AND ( \
               (device_sn <> gateway_sn AND updated_at < $2 AND gateway_sn IN \
                 (SELECT g.sn FROM gateways g WHERE g.online = FALSE)) \
               OR (device_sn <> gateway_sn AND updated_at < $3) \
               OR (device_sn = gateway_sn AND updated_at < $4))",
            s.now,
            s.gone_before,
            s.silent_before,
            s.gateway_silent_before,
            s.gateway_gone,
            s.no_progress
        )?)
    }
}
