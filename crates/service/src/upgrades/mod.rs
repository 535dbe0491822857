//! Starting a firmware upgrade: the firmware must be enabled for the device's type, the device
//! must not run it already (4001, a warning the caller may override), no upgrade may be queued
//! or running on it, the device's state and its gateway must admit the command. The upgrade
//! row, its command, the inverter's Upgrading status and the audit entry are written in one
//! transaction; the command is published only after it commits, so a device never gets an
//! upgrade the portal has no record of, and a failure half way leaves no command without its
//! upgrade. Permissions are the caller's.
//!
//! A gateway flashes one device at a time: an upgrade through a gateway that already has one
//! queued or running waits in the gateway's queue (`queued`, no command yet), and [`queue`]
//! sends the next one when the running one ends.

mod queue;

pub use queue::{
    DEVICE_GONE, GATEWAY_DELETED, NOT_ADMITTED, OFFLINE_AT_TURN, cancel_queued, start_next,
};

use domain::ids::InverterTypeId;
use domain::ids::{CommandId, FirmwareId};
use std::time::Duration;

use devices::link::{Dispatcher, Prepared, sync_upgrade};
use domain::{Code, DomainError, command::CommandKind, policy::Actor};
use serde_json::{Value, json};
use store::{
    Store,
    audit::NewAudit,
    devices::DeviceListRow,
    firmware::{FirmwareRow, FirmwareTarget},
    gateways::GatewayRow,
    upgrades::{NewUpgrade, StartedUpgrade, UpgradeRow},
};

use crate::{Result, ServiceError, audit, commands};

/// How long a device has to finish an upgrade before it counts as failed (timed out).
pub const UPGRADE_TIMEOUT: Duration = Duration::from_secs(15 * 60);

/// The device an upgrade goes to.
#[derive(Debug, Clone, Copy)]
pub enum Device<'a> {
    Inverter(&'a DeviceListRow),
    Gateway(&'a GatewayRow),
}

impl Device<'_> {
    pub fn sn(&self) -> &str {
        match self {
            Device::Inverter(d) => &d.sn,
            Device::Gateway(g) => &g.sn,
        }
    }

    /// The gateway its command goes through (a gateway's own SN for its own upgrade); `None`
    /// for an inverter behind no gateway.
    pub fn gateway_sn(&self) -> Option<&str> {
        match self {
            Device::Inverter(d) => d.gateway_sn.as_deref(),
            Device::Gateway(g) => Some(&g.sn),
        }
    }

    /// Which firmware fits: its target and the inverter type code (gateways have none: 0).
    pub fn firmware_key(&self) -> (FirmwareTarget, i64) {
        match self {
            Device::Inverter(d) => (FirmwareTarget::Inverter, d.type_code),
            Device::Gateway(_) => (FirmwareTarget::Gateway, 0),
        }
    }

    /// The software version the device reports: a gateway's `softVer`, an inverter's
    /// `softVer` in its versions (the field a successful upgrade sets, see
    /// `devices::link::sync_upgrade`); empty when it reported none.
    pub fn current_version(&self) -> String {
        match self {
            Device::Inverter(d) => serde_json::from_str::<Value>(&d.versions)
                .ok()
                .and_then(|v| v.get("softVer").and_then(Value::as_str).map(String::from))
                .unwrap_or_default(),
            Device::Gateway(g) => g.soft_ver.clone(),
        }
    }
}

/// An upgrade to start.
#[derive(Debug, Clone, Copy)]
pub struct Start<'a> {
    pub batch_id: &'a str,
    pub device: Device<'a>,
    pub firm_id: Option<FirmwareId>,
    /// Upgrade even when the device already runs this version or a newer one (no 4001).
    pub force: bool,
    pub actor: &'a Actor,
    pub now: i64,
}

impl Start<'_> {
    /// The audit action.
    fn action(&self) -> &'static str {
        match self.device {
            Device::Inverter(_) => domain::audit_action::INVERTER_UPGRADE,
            Device::Gateway(_) => domain::audit_action::GATEWAY_UPGRADE,
        }
    }

    /// The entry of a start that sent nothing: refused, or failed in the store.
    async fn not_started(&self, store: &Store, e: &ServiceError) {
        let (detail, result) = match e {
            ServiceError::Refused(d) => (
                json!({"kind": "upgrade", "firmId": self.firm_id, "reason": d.code.number()}),
                audit::REFUSED,
            ),
            ServiceError::Store(_) | ServiceError::Internal(_) => (
                json!({"kind": "upgrade", "firmId": self.firm_id}),
                audit::FAILED,
            ),
        };
        let sn = self.device.sn();
        let plant = audit::plant_of(store, self.actor, sn).await.ok().flatten();
        let detail = detail.to_string();
        let entry = NewAudit {
            by: audit::author(self.actor, plant.as_ref()),
            action: self.action(),
            target: sn,
            detail: &detail,
            result,
            command_id: None,
            now: self.now,
        };
        audit::record_alone(store, &entry).await;
    }
}

/// A started upgrade, as it stands right after its command went out, or queued behind its
/// gateway's running upgrade.
#[derive(Debug, Clone)]
pub struct Started {
    pub upgrade: UpgradeRow,
    /// `None` while it waits in its gateway's queue.
    pub command_id: Option<CommandId>,
    /// What the command tells the device (version, firmware, file, size).
    pub params: Value,
}

/// The firmware with id `firm_id` if it is enabled for the device's type; code 4 `firmId`
/// otherwise (missing, disabled, or for another type).
pub async fn firmware_for(
    store: &Store,
    device: Device<'_>,
    firm_id: Option<FirmwareId>,
) -> Result<FirmwareRow> {
    let (target, type_code) = device.firmware_key();
    let firmware = match firm_id {
        Some(id) => store.firmware(id).await?,
        None => None,
    };
    // Inverter firmware fits through its label's type codes; gateway software is label 0.
    let label = match target {
        FirmwareTarget::Inverter => store.inverter_type_for_code(type_code).await?,
        FirmwareTarget::Gateway => Some(InverterTypeId(0)),
    };
    firmware
        .filter(|f| f.enabled && f.target == target.as_str() && Some(f.type_id) == label)
        .ok_or_else(|| DomainError::invalid("firmId: not enabled for this device type").into())
}

/// 4001 (a warning the caller may override) when `device` already runs `firmware`'s version
/// or a newer one: a gateway by its `softVer`, an inverter by the `softVer` it reported (see
/// [`Device::current_version`]). A device that reported no version is never up to date.
fn up_to_date(device: Device<'_>, firmware: &FirmwareRow) -> Result<()> {
    if domain::firmware::runs_at_least(&device.current_version(), &firmware.version) {
        return Err(Code::FirmwareCurrent.into());
    }
    Ok(())
}

/// The audit action of cancelling `row`: an inverter's or a gateway's own upgrade.
pub fn cancel_action(row: &UpgradeRow) -> &'static str {
    if row.target == "gateway" {
        domain::audit_action::GATEWAY_UPGRADE_CANCEL
    } else {
        domain::audit_action::INVERTER_UPGRADE_CANCEL
    }
}

/// Refuses `actor`'s cancel of upgrade `row`, whose device said it cannot stop one: the
/// refusal's entry is written alone (nothing else changes) and the answer is
/// [`Code::CancelUnsupported`].
pub async fn refuse_cancel(
    store: &Store,
    actor: &Actor,
    row: &UpgradeRow,
    now: i64,
) -> ServiceError {
    let sn = row.device_sn.as_str();
    let plant = audit::plant_of(store, actor, sn).await.ok().flatten();
    let detail =
        json!({"upgradeId": row.id, "reason": Code::CancelUnsupported.number()}).to_string();
    let entry = NewAudit {
        by: audit::author(actor, plant.as_ref()),
        action: cancel_action(row),
        target: sn,
        detail: &detail,
        result: audit::REFUSED,
        command_id: None,
        now,
    };
    audit::record_alone(store, &entry).await;
    Code::CancelUnsupported.into()
}

/// Brings a running upgrade in step with its command (timing the command out first when its
/// deadline passed as of `now`) and answers the row as it stands. When that ends it, the next
/// upgrade queued on its gateway starts through `dispatcher` (a failure there is logged: the
/// queue's job tries again).
pub async fn refresh(
    store: &Store,
    dispatcher: Option<&Dispatcher>,
    row: UpgradeRow,
    now: i64,
) -> Result<UpgradeRow> {
    if row.state().is_final() {
        return Ok(row);
    }
    let Some(command_id) = row.command_id else {
        return Ok(row);
    };
    let Some(mut cmd) = store.command(command_id).await? else {
        return Ok(row);
    };
    if !cmd.status().is_final() && cmd.deadline < now {
        store.time_out_commands(now).await?;
        cmd = store.command(command_id).await?.unwrap_or(cmd);
    }
    let Some(synced) = sync_upgrade(store, &cmd).await? else {
        return Ok(row);
    };
    // The next one starts no earlier than this one ended.
    let next_at = now.max(synced.finished_at.unwrap_or(now));
    if synced.state().is_final()
        && let Err(e) = start_next(store, dispatcher, &synced.gateway_sn, next_at).await
    {
        tracing::warn!(error = %e, gateway = %synced.gateway_sn, "next queued upgrade not started");
    }
    Ok(synced)
}

/// Starts the upgrade `s` through `dispatcher` (none: nothing can be sent, 606): the upgrade,
/// its command and its audit entry (`sent`, linked to the command) in one transaction, or,
/// when its gateway is busy with another upgrade, the upgrade `queued` with its entry (`queued`)
/// and no command. Refused with 4 `firmId` (firmware not enabled for the type), 4001 (already
/// on that version or newer, unless forced), 603 (an upgrade queued or running), 602
/// (offline), 604 (the device's state forbids it); a refusal gets its entry alone.
pub async fn start(
    store: &Store,
    dispatcher: Option<&Dispatcher>,
    s: Start<'_>,
) -> Result<Started> {
    let (dispatcher, command, started, params) = match record(store, dispatcher, s).await {
        Ok(recorded) => recorded,
        Err(e) => {
            s.not_started(store, &e).await;
            return Err(e);
        }
    };
    if let Some(command_id) = started.command_id
        && let Err(e) = dispatcher.publish(&command, command_id).await
    {
        // The dispatcher failed the command; its upgrade ends failed with it.
        if let Some(cmd) = store.command(command_id).await? {
            sync_upgrade(store, &cmd).await?;
        }
        return Err(commands::refusal(e));
    }
    let upgrade = store
        .upgrade(started.upgrade_id)
        .await?
        .ok_or(Code::CommandFailed)?;
    // A quick device may have replied before the row was read.
    Ok(Started {
        upgrade: refresh(store, Some(dispatcher), upgrade, s.now).await?,
        command_id: started.command_id,
        params,
    })
}

/// What an upgrade's command tells the device.
fn command_params(firmware: &FirmwareRow) -> Value {
    json!({
        "version": firmware.version,
        "firmId": firmware.id,
        "fileName": firmware.file_name,
        "size": firmware.size,
    })
}

/// Checks `s` and records the upgrade, its command (unless it is queued) and its audit entry;
/// the command is then the caller's to publish.
async fn record<'d>(
    store: &Store,
    dispatcher: Option<&'d Dispatcher>,
    s: Start<'_>,
) -> Result<(&'d Dispatcher, Prepared, StartedUpgrade, Value)> {
    let firmware = firmware_for(store, s.device, s.firm_id).await?;
    if !s.force {
        up_to_date(s.device, &firmware)?;
    }
    let sn = s.device.sn();
    if let Some(last) = store.latest_upgrade(sn).await?
        && !refresh(store, dispatcher, last, s.now)
            .await?
            .state()
            .is_final()
    {
        return Err(Code::DeviceUpgrading.into());
    }
    let gateway_sn = match s.device {
        Device::Inverter(d) => {
            commands::admit(CommandKind::Upgrade, d.status)?;
            d.gateway_sn.as_deref().ok_or(Code::DeviceOffline)?
        }
        Device::Gateway(g) if !g.online => return Err(Code::DeviceOffline.into()),
        Device::Gateway(g) => &g.sn,
    };
    let Some(dispatcher) = dispatcher else {
        return Err(Code::ConnectionFailed.into());
    };
    let params = command_params(&firmware);
    let command = dispatcher
        .prepare(
            gateway_sn,
            sn,
            CommandKind::Upgrade.as_str(),
            params.clone(),
            UPGRADE_TIMEOUT,
        )
        .await
        .map_err(commands::refusal)?;
    let (target, _) = s.device.firmware_key();
    let plant = audit::plant_of(store, s.actor, sn).await?;
    let detail = json!({"kind": "upgrade", "params": params}).to_string();
    let sent = NewAudit {
        by: audit::author(s.actor, plant.as_ref()),
        action: s.action(),
        target: sn,
        detail: &detail,
        result: audit::SENT,
        command_id: None,
        now: s.now,
    };
    let queued = NewAudit {
        result: audit::QUEUED,
        ..sent.clone()
    };
    let started = store
        .start_upgrade(
            &command.record(),
            &NewUpgrade {
                batch_id: s.batch_id,
                target: target.as_str(),
                device_sn: sn,
                gateway_sn,
                firmware_id: firmware.id,
                version: &firmware.version,
                from_version: &s.device.current_version(),
                cancellable: false,
                user_id: s.actor.id,
                now: s.now,
            },
            &sent,
            &queued,
        )
        .await?;
    Ok((dispatcher, command, started, params))
}
