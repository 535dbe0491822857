//! The upgrade queue of a gateway. A gateway (an RS485 logger) flashes one device at a time, so
//! an upgrade through a gateway that already has one queued or running waits `queued`, in the
//! order it was asked for. When the running one ends (succeeded, failed, timed out, stalled or
//! cancelled), [`start_next`] sends the next: it is checked again as a start is (the device
//! still behind that gateway, the firmware still enabled for it, device and gateway online,
//! its state admitting an upgrade), then its command, its `sending` state and its audit entry
//! are written in one transaction and the command is published. One that can no longer be
//! sent fails with the reason, and the next one takes its turn.
//!
//! What drives it: a device's final reply and the sweeper of stalled upgrades say so on
//! `devices::link::UpgradeEnds`, on which `jobs::upgrade_queue` waits (and looks every few
//! seconds besides); an upgrade that a read brings to its end ([`super::refresh`]) starts the
//! next at once. The store decides whose turn it is under a lock per gateway, so any number
//! of these at once, on any number of replicas, send one upgrade at a time per gateway.

use devices::link::{DispatchError, Dispatcher};
use domain::{
    Code,
    command::CommandKind,
    ids::UserId,
    policy::{Actor, PlantVisibility},
};
use serde_json::json;
use store::{
    Store,
    audit::NewAudit,
    log_pages::Author,
    upgrades::{UpgradeRow, UpgradeState},
};

use super::{Device, Started, UPGRADE_TIMEOUT, command_params, firmware_for};
use crate::{Result, ServiceError, audit, commands};

/// Why a queued upgrade failed when its turn came (its `message`; screens show the reason the
/// answer derives from it, `api::upgrades`): the inverter was deleted or is no longer behind
/// that gateway...
pub const DEVICE_GONE: &str = "device gone: removed from its gateway before its turn";
/// ...its gateway was deleted...
pub const GATEWAY_DELETED: &str = "gateway deleted before its turn";
/// ...the device or its gateway was offline...
pub const OFFLINE_AT_TURN: &str = "device offline when its turn came";
/// ...or the upgrade was no longer admitted (the firmware disabled, the device's state).
pub const NOT_ADMITTED: &str = "upgrade no longer admitted when its turn came";

/// What became of the upgrade whose turn it was.
enum Turn {
    Sent(Box<Started>),
    /// Not its turn after all (another start took it, or the gateway became busy), or no
    /// device link to send it through: it stays queued.
    Waits,
    /// It cannot be sent: the message, and the code a refusal of a new start would carry.
    Fails(&'static str, Code),
}

/// Sends the upgrade whose turn it is on gateway `gateway_sn` (the oldest queued there, when
/// nothing runs there) through `dispatcher`; those that can no longer be sent fail on the way
/// (see the module). Answers the one sent, or `None` when none is due, or without a device
/// link (they wait for one).
pub async fn start_next(
    store: &Store,
    dispatcher: Option<&Dispatcher>,
    gateway_sn: &str,
    now: i64,
) -> Result<Option<Started>> {
    let Some(dispatcher) = dispatcher else {
        return Ok(None);
    };
    while let Some(next) = store.next_queued_upgrade(gateway_sn).await? {
        match begin(store, dispatcher, &next, now).await? {
            Turn::Sent(started) => return Ok(Some(*started)),
            Turn::Waits => return Ok(None),
            Turn::Fails(message, code) => fail(store, &next, message, code, now).await?,
        }
    }
    Ok(None)
}

/// The audit action of an upgrade of `row`'s target.
fn action(row: &UpgradeRow) -> &'static str {
    if row.target == "gateway" {
        domain::audit_action::GATEWAY_UPGRADE
    } else {
        domain::audit_action::INVERTER_UPGRADE
    }
}

/// The portal's own jobs as the author of an entry about device `sn`, filed under its plant.
async fn system_author(store: &Store, sn: &str) -> store::Result<Author<'static>> {
    let plant_id = match store.device_by_sn(sn).await? {
        Some(d) => d.plant_id,
        None => store.gateway_by_sn(sn).await?.and_then(|g| g.plant_id),
    };
    let plant = match plant_id {
        Some(id) => store.plant(id, UserId(0)).await?,
        None => None,
    };
    Ok(Author {
        plant_id: plant.as_ref().map(|p| p.id),
        plant_owner_id: plant.as_ref().map(|p| p.owner_id),
        plant_company_id: plant.and_then(|p| p.company_id),
        ..audit::system()
    })
}

/// Checks `row` as a start would be checked now and, when it passes, sends it.
async fn begin(store: &Store, dispatcher: &Dispatcher, row: &UpgradeRow, now: i64) -> Result<Turn> {
    let Some(gateway) = store.gateway_by_sn(&row.gateway_sn).await? else {
        return Ok(Turn::Fails(GATEWAY_DELETED, Code::GatewayMissing));
    };
    let inverter = if row.target == "gateway" {
        None
    } else {
        match store
            .device_visible(PlantVisibility::All, UserId(0), &row.device_sn)
            .await?
        {
            Some(d) if d.gateway_sn.as_deref() == Some(gateway.sn.as_str()) => Some(d),
            _ => return Ok(Turn::Fails(DEVICE_GONE, Code::InverterMissing)),
        }
    };
    let device = match &inverter {
        Some(d) => Device::Inverter(d),
        None => Device::Gateway(&gateway),
    };
    if !gateway.online {
        return Ok(Turn::Fails(OFFLINE_AT_TURN, Code::DeviceOffline));
    }
    let firmware = match firmware_for(store, device, row.firmware_id).await {
        Ok(f) => f,
        Err(ServiceError::Refused(e)) => return Ok(Turn::Fails(NOT_ADMITTED, e.code)),
        Err(e) => return Err(e),
    };
    if let Some(d) = &inverter
        && let Err(e) = commands::admit(CommandKind::Upgrade, d.status)
    {
        return Ok(match e.code {
            Code::DeviceOffline => Turn::Fails(OFFLINE_AT_TURN, e.code),
            code => Turn::Fails(NOT_ADMITTED, code),
        });
    }
    let params = command_params(&firmware);
    let command = match dispatcher
        .prepare(
            &gateway.sn,
            &row.device_sn,
            CommandKind::Upgrade.as_str(),
            params.clone(),
            UPGRADE_TIMEOUT,
        )
        .await
    {
        Ok(c) => c,
        Err(DispatchError::Offline(_)) => {
            return Ok(Turn::Fails(OFFLINE_AT_TURN, Code::DeviceOffline));
        }
        Err(DispatchError::UnknownGateway(_)) => {
            return Ok(Turn::Fails(GATEWAY_DELETED, Code::GatewayMissing));
        }
        Err(DispatchError::Upgrading(_)) => {
            return Ok(Turn::Fails(NOT_ADMITTED, Code::DeviceUpgrading));
        }
        Err(e) => return Err(commands::refusal(e)),
    };
    let detail = json!({"kind": "upgrade", "params": params, "upgradeId": row.id}).to_string();
    let entry = NewAudit {
        by: system_author(store, &row.device_sn).await?,
        action: action(row),
        target: &row.device_sn,
        detail: &detail,
        result: audit::SENT,
        command_id: None,
        now,
    };
    let Some(command_id) = store
        .begin_queued_upgrade(row.id, &gateway.sn, &command.record(), &entry, now)
        .await?
    else {
        return Ok(Turn::Waits);
    };
    if let Err(e) = dispatcher.publish(&command, command_id).await {
        // The dispatcher failed the command; the upgrade ends failed with it, and the next
        // one waits for the job's next look (the link is likely down).
        if let Some(cmd) = store.command(command_id).await? {
            devices::link::sync_upgrade(store, &cmd).await?;
        }
        return Err(commands::refusal(e));
    }
    let upgrade = store.upgrade(row.id).await?.ok_or(Code::CommandFailed)?;
    tracing::info!(gateway = %gateway.sn, sn = %row.device_sn, upgrade = row.id.0, "queued upgrade sent");
    Ok(Turn::Sent(Box::new(Started {
        upgrade,
        command_id: Some(command_id),
        params,
    })))
}

/// Fails the queued upgrade `row` with `message`, with its entry (refused, for the reason
/// `code`) by the portal itself, in one transaction.
async fn fail(store: &Store, row: &UpgradeRow, message: &str, code: Code, now: i64) -> Result<()> {
    let detail = json!({"kind": "upgrade", "upgradeId": row.id, "firmId": row.firmware_id,
        "reason": code.number()})
    .to_string();
    let entry = NewAudit {
        by: system_author(store, &row.device_sn).await?,
        action: action(row),
        target: &row.device_sn,
        detail: &detail,
        result: audit::REFUSED,
        command_id: None,
        now,
    };
    if store
        .end_queued_upgrade(row.id, UpgradeState::Failed, message, Some(&entry), now)
        .await?
    {
        tracing::info!(gateway = %row.gateway_sn, sn = %row.device_sn, upgrade = row.id.0, message, "queued upgrade failed");
    }
    Ok(())
}

/// Takes `actor`'s queued upgrade `row` out of its gateway's queue: it ends `cancelled`, with
/// its entry (`inverter.upgrade.cancel`, or `gateway.upgrade.cancel` for a gateway's own
/// firmware), in one transaction; nothing is sent. Answers the row
/// as it stands (already ended when it left the queue meanwhile: its turn came).
pub async fn cancel_queued(
    store: &Store,
    actor: &Actor,
    row: &UpgradeRow,
    now: i64,
) -> Result<UpgradeRow> {
    let plant = audit::plant_of(store, actor, &row.device_sn).await?;
    let detail = json!({"upgradeId": row.id, "queued": true}).to_string();
    let entry = NewAudit {
        by: audit::author(actor, plant.as_ref()),
        action: super::cancel_action(row),
        target: &row.device_sn,
        detail: &detail,
        result: audit::SUCCEEDED,
        command_id: None,
        now,
    };
    store
        .end_queued_upgrade(row.id, UpgradeState::Cancelled, "", Some(&entry), now)
        .await?;
    Ok(store.upgrade(row.id).await?.unwrap_or_else(|| row.clone()))
}
