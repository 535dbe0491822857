//! Firmware upgrades: one row per device and run, tied to the `upgrade` command that carries
//! it. The command row records what the gateway replied; this row is what screens read
//! (state, percent, message, times), kept in step with the command by `apply_upgrade_update`,
//! so any replica can show progress.
//!
//! A gateway flashes one device at a time (an RS485 logger has one bus), so upgrades queue per
//! gateway: an upgrade that goes through a gateway where another one is queued or running is
//! recorded `queued`, without a command, and [`Store::begin_queued_upgrade`] gives it its
//! command once it is its turn. Both decisions are taken under a lock per gateway (PostgreSQL:
//! an advisory lock; SQLite has one writer), so two replicas, or a start racing the end of
//! the running upgrade, never send a gateway two upgrades at once.

use crate::{
    Conflict, Result, Store,
    audit::{NewAudit, noting},
    commands::{INSERT_COMMAND, NewCommand},
    conflict,
};
use domain::ids::{CommandId, FirmwareId, UpgradeId, UserId};

/// The spec's remote upgrade states, and `Queued`: waiting for its gateway's running upgrade.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpgradeState {
    Queued,
    Sending,
    Upgrading,
    Successful,
    Failed,
    Cancelled,
}

impl UpgradeState {
    pub fn as_str(self) -> &'static str {
        match self {
            UpgradeState::Queued => "queued",
            UpgradeState::Sending => "sending",
            UpgradeState::Upgrading => "upgrading",
            UpgradeState::Successful => "successful",
            UpgradeState::Failed => "failed",
            UpgradeState::Cancelled => "cancelled",
        }
    }

    pub fn parse(s: &str) -> Option<UpgradeState> {
        Some(match s {
            "queued" => UpgradeState::Queued,
            "sending" => UpgradeState::Sending,
            "upgrading" => UpgradeState::Upgrading,
            "successful" => UpgradeState::Successful,
            "failed" => UpgradeState::Failed,
            "cancelled" => UpgradeState::Cancelled,
            _ => return None,
        })
    }

    pub fn is_final(self) -> bool {
        !matches!(
            self,
            UpgradeState::Queued | UpgradeState::Sending | UpgradeState::Upgrading
        )
    }

    /// Sent to the device and not ended: what keeps its gateway busy.
    pub fn is_running(self) -> bool {
        matches!(self, UpgradeState::Sending | UpgradeState::Upgrading)
    }
}

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct UpgradeRow {
    pub id: UpgradeId,
    pub batch_id: String,
    /// `inverter` or `gateway`.
    pub target: String,
    pub device_sn: String,
    /// The gateway it goes through (a gateway's own upgrade: its SN), whose queue it is in.
    pub gateway_sn: String,
    pub firmware_id: Option<FirmwareId>,
    pub version: String,
    pub from_version: String,
    pub command_id: Option<CommandId>,
    pub state: String,
    pub progress: i64,
    pub message: String,
    pub cancellable: bool,
    pub user_id: Option<UserId>,
    /// When it was asked for; once a queued upgrade is sent, when it was sent.
    pub started_at: i64,
    pub finished_at: Option<i64>,
    pub updated_at: i64,
    /// While queued, its place in its gateway's queue (1: next); `None` otherwise.
    pub queue_position: Option<i64>,
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
    /// The gateway the command goes through (a gateway's own SN for its own upgrade).
    pub gateway_sn: &'a str,
    pub firmware_id: FirmwareId,
    pub version: &'a str,
    pub from_version: &'a str,
    pub cancellable: bool,
    pub user_id: UserId,
    pub now: i64,
}

/// The rows [`Store::start_upgrade`] wrote: the upgrade, and its command unless it was queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StartedUpgrade {
    pub command_id: Option<CommandId>,
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

/// The columns of [`UpgradeRow`], read `FROM upgrades` (not aliased: the queue position is
/// counted among the same gateway's queued rows).
const COLUMNS: &str = "id, batch_id, target, device_sn, gateway_sn, firmware_id, version, \
    from_version, command_id, state, progress, message, cancellable, user_id, started_at, \
    finished_at, updated_at, \
    CASE WHEN state = 'queued' THEN (SELECT COUNT(*) FROM upgrades q \
      WHERE q.gateway_sn = upgrades.gateway_sn AND q.state = 'queued' AND q.id <= upgrades.id) \
    END AS queue_position";

/// Running: sent and not ended.
const OPEN: &str = "state IN ('sending', 'upgrading')";

/// Namespace of the PostgreSQL advisory lock that serialises the queue of one gateway.
const QUEUE_LOCK: i32 = 0x5550_4751; // "UPGQ"

/// Takes the gateway's queue lock inside [`in_tx!`] (PostgreSQL; on SQLite the transaction
/// already holds the one write lock).
macro_rules! lock_queue {
    ($tx:ident, $sqlite:ident, $gateway_sn:expr) => {
        if !$sqlite {
            tx_exec!(
                $tx,
                $sqlite,
                "SELECT pg_advisory_xact_lock($1, hashtext($2))",
                QUEUE_LOCK,
                $gateway_sn
            )?;
        }
    };
}

impl Store {
    /// Records an upgrade with the audit entry of the action, in one transaction. When its
    /// gateway has no other upgrade queued or running, the upgrade is `sending`: its command is
    /// recorded too, `sent` is the entry (linked to the command), an inverter shows Upgrading
    /// (status 4) at once (the status job keeps it so while the flag is set), and the caller
    /// publishes the command after this commits. Otherwise it is `queued` behind them, without
    /// a command, `queued` is the entry, and nothing else changes. Answers the ids.
    pub async fn start_upgrade(
        &self,
        command: &NewCommand<'_>,
        u: &NewUpgrade<'_>,
        sent: &NewAudit<'_>,
        queued: &NewAudit<'_>,
    ) -> Result<StartedUpgrade> {
        in_tx!(self, |tx, sqlite| {
            lock_queue!(tx, sqlite, u.gateway_sn);
            let busy = tx_scalar!(
                tx,
                sqlite,
                i64,
                "SELECT COUNT(*) FROM upgrades WHERE gateway_sn = $1 \
                 AND state IN ('queued', 'sending', 'upgrading')",
                u.gateway_sn
            )? > 0;
            let command_id = if busy {
                None
            } else {
                Some(
                    tx_scalar!(
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
                    .map_err(|e| conflict(e, Conflict::CommandId))?,
                )
            };
            let state = if busy { "queued" } else { "sending" };
            let upgrade_id = tx_scalar!(
                tx,
                sqlite,
                UpgradeId,
                "INSERT INTO upgrades (batch_id, target, device_sn, gateway_sn, firmware_id, \
                 version, from_version, command_id, state, progress, cancellable, user_id, \
                 started_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $10, $11, $12, $12) RETURNING id",
                u.batch_id,
                u.target,
                u.device_sn,
                u.gateway_sn,
                u.firmware_id,
                u.version,
                u.from_version,
                command_id,
                state,
                u.cancellable,
                u.user_id,
                u.now
            )?;
            match command_id {
                Some(command_id) => {
                    let detail = noting(sent.detail, "commandId", command_id.0);
                    let entry = NewAudit {
                        detail: &detail,
                        command_id: Some(command_id),
                        ..sent.clone()
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
                }
                None => {
                    let detail = noting(queued.detail, "upgradeId", upgrade_id.0);
                    let entry = NewAudit {
                        detail: &detail,
                        ..queued.clone()
                    };
                    audit_in_tx!(tx, sqlite, &entry)?;
                }
            }
            Ok(StartedUpgrade {
                command_id,
                upgrade_id,
            })
        })
    }

    /// Sends the queued upgrade `id` through `gateway_sn` when it is its turn: it is still
    /// queued, the oldest queued there, and nothing runs there. Then, in one transaction, its
    /// command is recorded, the upgrade becomes `sending` (its start time `now`), an inverter
    /// shows Upgrading, and `audit` (linked to the command) is written; the caller publishes
    /// the command after this commits. Answers the command's id, or `None` (nothing written)
    /// when it is not its turn.
    pub async fn begin_queued_upgrade(
        &self,
        id: UpgradeId,
        gateway_sn: &str,
        command: &NewCommand<'_>,
        audit: &NewAudit<'_>,
        now: i64,
    ) -> Result<Option<CommandId>> {
        let turn = format!(
            "SELECT COUNT(*) FROM upgrades WHERE gateway_sn = $2 AND ({OPEN} \
             OR (state = 'queued' AND id < $1))"
        );
        in_tx!(self, |tx, sqlite| {
            lock_queue!(tx, sqlite, gateway_sn);
            let ahead = tx_scalar!(tx, sqlite, i64, &turn, id, gateway_sn)?;
            let row = tx_rows!(
                tx,
                sqlite,
                fetch_optional,
                (String, String),
                "SELECT target, device_sn FROM upgrades \
                 WHERE id = $1 AND gateway_sn = $2 AND state = 'queued'",
                id,
                gateway_sn
            )?;
            match row {
                Some((target, device_sn)) if ahead == 0 => {
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
                    tx_exec!(
                        tx,
                        sqlite,
                        "UPDATE upgrades SET state = 'sending', command_id = $2, \
                         started_at = $3, updated_at = $3 WHERE id = $1",
                        id,
                        command_id,
                        now
                    )?;
                    if target == "inverter" {
                        tx_exec!(
                            tx,
                            sqlite,
                            "UPDATE devices SET upgrading = TRUE, status = 4 WHERE sn = $1",
                            &device_sn
                        )?;
                    }
                    let detail = noting(audit.detail, "commandId", command_id.0);
                    let entry = NewAudit {
                        detail: &detail,
                        command_id: Some(command_id),
                        ..audit.clone()
                    };
                    audit_in_tx!(tx, sqlite, &entry)?;
                    Ok(Some(command_id))
                }
                _ => Ok(None),
            }
        })
    }

    /// Ends the queued upgrade `id` without sending it: `Cancelled` (taken out of its queue)
    /// or `Failed` with `message` (it could not be sent when its turn came), with `audit`
    /// (none for a store test) in the same transaction. Answers whether it was still queued.
    pub async fn end_queued_upgrade(
        &self,
        id: UpgradeId,
        state: UpgradeState,
        message: &str,
        audit: Option<&NewAudit<'_>>,
        now: i64,
    ) -> Result<bool> {
        Ok(exec_audited!(
            self,
            audit,
            "UPDATE upgrades SET state = $2, message = $3, finished_at = $4, updated_at = $4 \
             WHERE id = $1 AND state = 'queued'",
            id,
            state.as_str(),
            message,
            now
        ) == 1)
    }

    /// The upgrade whose turn it is on gateway `gateway_sn`: the oldest queued there, when
    /// nothing runs there.
    pub async fn next_queued_upgrade(&self, gateway_sn: &str) -> Result<Option<UpgradeRow>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM upgrades WHERE gateway_sn = $1 AND state = 'queued' \
             AND NOT EXISTS (SELECT 1 FROM upgrades r WHERE r.gateway_sn = $1 AND r.{OPEN}) \
             ORDER BY id LIMIT 1"
        );
        Ok(rows!(self, fetch_optional, UpgradeRow, &sql, gateway_sn)?)
    }

    /// The gateways where an upgrade waits and none runs: their next one is due.
    pub async fn gateways_with_upgrade_due(&self) -> Result<Vec<String>> {
        let sql = format!(
            "SELECT DISTINCT q.gateway_sn FROM upgrades q WHERE q.state = 'queued' \
             AND NOT EXISTS (SELECT 1 FROM upgrades r WHERE r.gateway_sn = q.gateway_sn \
             AND r.{OPEN}) ORDER BY q.gateway_sn"
        );
        Ok(scalar!(self, fetch_all, String, &sql)?)
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
