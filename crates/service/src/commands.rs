//! Sending a command to a device: the state rule first (`domain::command`), then the device
//! link's dispatcher, whose refusals become the catalogue's codes. [`send_order`] records the
//! command and the audit entry of the action in one transaction (a refusal, which writes
//! nothing else, gets its entry alone), on an account's behalf or a job's ([`Sender`]).
//! Permissions are the caller's: they differ per screen.

use domain::ids::CommandId;
use std::time::Duration;

use devices::link::{DispatchError, Dispatcher};
use domain::{
    Code, DomainError,
    command::CommandKind,
    plant::Status,
    policy::{Actor, GatewayScope},
};
use serde_json::{Value, json};
use store::{
    Store, audit::NewAudit, commands::CommandRow, devices::DeviceListRow, log_pages::Author,
};

use crate::{Result, ServiceError, audit};

/// Where a command goes: a device behind a gateway (the gateway's own SN twice for the
/// gateway's own commands).
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    pub gateway_sn: &'a str,
    pub device_sn: &'a str,
}

/// A device as the state rule sees it before a command.
#[derive(Debug, Clone, Copy)]
pub struct Recipient<'a> {
    pub sn: &'a str,
    /// The gateway it is behind; without one it cannot be reached (602).
    pub gateway_sn: Option<&'a str>,
    /// Its status (wire number).
    pub status: i64,
}

impl<'a> From<&'a DeviceListRow> for Recipient<'a> {
    fn from(d: &'a DeviceListRow) -> Self {
        Recipient {
            sn: &d.sn,
            gateway_sn: d.gateway_sn.as_deref(),
            status: d.status,
        }
    }
}

/// Whether a device reporting `status` (its wire number) may take `kind` now. A number this
/// build does not know restricts nothing: the device link refuses what it must.
pub fn admit(kind: CommandKind, status: i64) -> std::result::Result<(), DomainError> {
    match Status::from_wire(status) {
        Some(status) => kind.admitted_in(status),
        None => Ok(()),
    }
}

/// Whether `to` may take `kind` now: its state admits it and it is behind a gateway.
pub fn reachable(kind: CommandKind, to: Recipient<'_>) -> std::result::Result<(), DomainError> {
    admit(kind, to.status)?;
    match to.gateway_sn {
        Some(_) => Ok(()),
        None => Err(Code::DeviceOffline.into()),
    }
}

/// Who sends an order, as its audit entry names them.
#[derive(Debug, Clone, Copy)]
pub enum Sender<'a> {
    /// An account: the entry is filed under the device's plant when the account may see it.
    Actor(&'a Actor),
    /// One of the portal's own jobs, named as given (`audit::system`, filed under the plant
    /// the job acts on).
    Job(Author<'a>),
}

impl<'a> Sender<'a> {
    /// The author of an entry about `sn`.
    async fn author(self, store: &Store, sn: &str) -> store::Result<Author<'a>> {
        match self {
            Sender::Actor(actor) => {
                let plant = audit::plant_of(store, actor, sn).await?;
                Ok(audit::author(actor, plant.as_ref()))
            }
            Sender::Job(by) => Ok(by),
        }
    }

    /// The author when the plant could not be read: an entry filed under no plant beats none.
    fn unfiled(self) -> Author<'a> {
        match self {
            Sender::Actor(actor) => audit::author(actor, None),
            Sender::Job(by) => by,
        }
    }
}

/// The catalogue's answer to a dispatcher refusal.
pub fn refusal(e: DispatchError) -> ServiceError {
    match e {
        DispatchError::Offline(_) | DispatchError::UnknownGateway(_) => Code::DeviceOffline.into(),
        DispatchError::Upgrading(_) => Code::DeviceUpgrading.into(),
        DispatchError::BadTimeout => DomainError::invalid("timeout").into(),
        DispatchError::Publish(cause) => {
            tracing::warn!(%cause, "command not published");
            Code::CommandFailed.into()
        }
        DispatchError::Store(e) => e.into(),
    }
}

/// Sends `kind` with `params` to `to` and answers the command's id, for a sender that keeps
/// its own record. Without a device link (`None`) nothing can be sent (606).
pub async fn send(
    dispatcher: Option<&Dispatcher>,
    to: Target<'_>,
    kind: CommandKind,
    params: Value,
    timeout: Duration,
) -> Result<CommandId> {
    let Some(dispatcher) = dispatcher else {
        return Err(Code::ConnectionFailed.into());
    };
    dispatcher
        .send(to.gateway_sn, to.device_sn, kind.as_str(), params, timeout)
        .await
        .map_err(refusal)
}

/// A command an action sends, as the audit log records it.
#[derive(Debug, Clone)]
pub struct Order<'a> {
    /// The audit action (`inverter.boot`, `gateway.restart`, ...).
    pub action: &'a str,
    pub kind: CommandKind,
    pub params: Value,
    pub timeout: Duration,
    /// Fields added to the entry's detail (a JSON object, e.g. the values a write replaces).
    pub note: Value,
}

impl Order<'_> {
    fn detail(&self, reason: Option<Code>) -> String {
        let mut detail = json!({"kind": self.kind.as_str(), "params": self.params});
        if let Some(code) = reason {
            detail["reason"] = code.number().into();
        }
        audit::with_note(detail, &self.note).to_string()
    }
}

/// Writes the entry of an order that was not sent (`e`): refused, or failed in the store.
async fn not_sent(
    store: &Store,
    by: Sender<'_>,
    to: Target<'_>,
    o: &Order<'_>,
    e: &ServiceError,
    now: i64,
) {
    let (detail, result) = match e {
        ServiceError::Refused(d) => (o.detail(Some(d.code)), audit::REFUSED),
        ServiceError::Store(_) | ServiceError::Internal(_) => (o.detail(None), audit::FAILED),
    };
    let by = match by.author(store, to.device_sn).await {
        Ok(author) => author,
        Err(_) => by.unfiled(),
    };
    let entry = NewAudit {
        by,
        action: o.action,
        target: to.device_sn,
        detail: &detail,
        result,
        command_id: None,
        now,
    };
    audit::record_alone(store, &entry).await;
}

/// Sends `o` to `to` on the sender's behalf and answers the command's id: the command and the
/// audit entry (result `sent`, linked to the command) are recorded in one transaction, then
/// the command is published. Without a device link (`None`) nothing can be sent (606); a
/// refusal is recorded as such.
pub async fn send_order(
    store: &Store,
    dispatcher: Option<&Dispatcher>,
    by: Sender<'_>,
    to: Target<'_>,
    o: &Order<'_>,
    now: i64,
) -> Result<CommandId> {
    let sent = send_recorded(store, dispatcher, by, to, o, now).await;
    if let Err(Some(e)) = &sent {
        not_sent(store, by, to, o, e, now).await;
    }
    sent.map_err(|e| e.unwrap_or_else(|| Code::CommandFailed.into()))
}

/// [`send_order`] before its refusal is recorded: `Err(None)` when the command was recorded with its
/// entry but could not be published (the command is failed; the entry shows it).
async fn send_recorded(
    store: &Store,
    dispatcher: Option<&Dispatcher>,
    by: Sender<'_>,
    to: Target<'_>,
    o: &Order<'_>,
    now: i64,
) -> std::result::Result<CommandId, Option<ServiceError>> {
    let Some(dispatcher) = dispatcher else {
        return Err(Some(Code::ConnectionFailed.into()));
    };
    let prepared = dispatcher
        .prepare(
            to.gateway_sn,
            to.device_sn,
            o.kind.as_str(),
            o.params.clone(),
            o.timeout,
        )
        .await
        .map_err(|e| Some(refusal(e)))?;
    let by = by
        .author(store, to.device_sn)
        .await
        .map_err(|e| Some(e.into()))?;
    let detail = o.detail(None);
    let entry = NewAudit {
        by,
        action: o.action,
        target: to.device_sn,
        detail: &detail,
        result: audit::SENT,
        command_id: None,
        now,
    };
    let id = store
        .insert_command_audited(&prepared.record(), &entry)
        .await
        .map_err(|e| Some(e.into()))?;
    if let Err(e) = dispatcher.publish(&prepared, id).await {
        tracing::warn!(error = %e, %id, "command recorded but not published");
        return Err(None);
    }
    Ok(id)
}

/// [`send_order`] to a device whose state must admit `o.kind` (`domain::command`) and which
/// must be behind a gateway (602 otherwise); refusals are recorded.
pub async fn send_order_to_device(
    store: &Store,
    dispatcher: Option<&Dispatcher>,
    by: Sender<'_>,
    device: Recipient<'_>,
    o: &Order<'_>,
    now: i64,
) -> Result<CommandId> {
    let to = Target {
        gateway_sn: device.gateway_sn.unwrap_or_default(),
        device_sn: device.sn,
    };
    if let Err(e) = reachable(o.kind, device) {
        let e = ServiceError::Refused(e);
        not_sent(store, by, to, o, &e, now).await;
        return Err(e);
    }
    send_order(store, dispatcher, by, to, o, now).await
}

/// Whether `actor` may see the device (or gateway) a command went to.
async fn may_see(store: &Store, actor: &Actor, c: &CommandRow) -> Result<bool> {
    if store
        .device_visible(actor.plant_visibility(), actor.id, &c.device_sn)
        .await?
        .is_some()
    {
        return Ok(true);
    }
    let Some(g) = store.gateway_by_sn(&c.device_sn).await? else {
        return Ok(false);
    };
    let plant = match g.plant_id {
        Some(id) => store.plant(id, actor.id).await?,
        None => None,
    };
    if g.plant_id.is_some() && plant.is_none() {
        return Ok(actor.is_internal());
    }
    Ok(actor.can_see_gateway(&GatewayScope {
        plant: plant.as_ref().map(|p| p.scope()),
        owner: g.owner_id,
        company: g.company_id,
        held_by_agent: crate::gateways::held_by_agent(store, actor, &g).await?,
    }))
}

/// Command `id` when `actor` may see it; `None` when missing or not visible. A command whose
/// deadline passed is timed out first (with every other overdue one), so the answer is right
/// before the sweeper (`jobs`) gets to it.
pub async fn visible(
    store: &Store,
    actor: &Actor,
    id: CommandId,
    now: i64,
) -> Result<Option<CommandRow>> {
    let Some(mut c) = store.command(id).await? else {
        return Ok(None);
    };
    if !c.status().is_final() && c.deadline < now {
        store.time_out_commands(now).await?;
        c = store.command(id).await?.unwrap_or(c);
    }
    Ok(may_see(store, actor, &c).await?.then_some(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_statuses_restrict_nothing_and_known_ones_follow_the_rule() {
        assert!(admit(CommandKind::PowerOn, 99).is_ok());
        let refused = admit(CommandKind::PowerOn, Status::Offline as i64).unwrap_err();
        assert_eq!(refused.code, Code::DeviceOffline);
    }

    #[test]
    fn dispatcher_refusals_become_the_catalogues_codes() {
        let code = |e| match refusal(e) {
            ServiceError::Refused(d) => Some(d.code),
            ServiceError::Store(_) | ServiceError::Internal(_) => None,
        };
        assert_eq!(
            code(DispatchError::Offline("G".into())),
            Some(Code::DeviceOffline)
        );
        assert_eq!(
            code(DispatchError::Upgrading("G".into())),
            Some(Code::DeviceUpgrading)
        );
        assert_eq!(
            code(DispatchError::Publish("x".into())),
            Some(Code::CommandFailed)
        );
    }
}
