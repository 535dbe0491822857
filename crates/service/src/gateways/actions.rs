//! Gateway actions: the batch check before a restart or an upgrade, restarting gateways, and
//! changing the protocol a gateway's reports are decoded with. Each gateway is checked with
//! [`acting_on`]; a gateway the actor may not see is refused like a missing one (305).

use domain::ids::{CommandId, GatewayId};
use std::time::Duration;

use devices::link::Dispatcher;
use domain::{
    Code, DomainError,
    command::CommandKind,
    gateway_action::{self, BatchAction},
    policy::Actor,
};
use serde_json::json;
use store::{Store, audit::NewAudit};

use super::{GatewayRef, Seen, acting_on};
use crate::{
    Result, ServiceError, audit,
    commands::{self, Order, Sender, Target},
};

/// The longest protocol config code.
const PROTOCOL_MAX: usize = 40;
/// How long a restart may take before it counts as timed out.
pub const RESTART_TIMEOUT: Duration = Duration::from_secs(10);

/// For each SN of a batch, whether it is ready for `action` (`None`) or why not: missing or
/// not the actor's (305), not permitted (2), offline (602), upgrading (603). Nothing is sent
/// nor written.
pub async fn check_batch(
    store: &Store,
    actor: &Actor,
    sns: &[String],
    action: BatchAction,
    now: i64,
) -> Result<Vec<(String, Option<DomainError>)>> {
    let mut out = Vec::with_capacity(sns.len());
    for sn in sns {
        let problem = match acting_on(store, actor, GatewayRef::parse(sn), action.key()).await {
            Ok(seen) => {
                let g = &seen.gateway;
                let upgrading = g.online && store.has_open_command(&g.sn, "upgrade", now).await?;
                gateway_action::ready(g.online, upgrading).err()
            }
            Err(ServiceError::Refused(d)) => Some(d),
            Err(e) => return Err(e),
        };
        out.push((sn.clone(), problem));
    }
    Ok(out)
}

/// A restart sent: to which gateway, as which command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sent {
    pub gateway: GatewayId,
    pub command: CommandId,
}

/// Sends a restart to each gateway of `sns` the actor may restart, each command recorded with
/// its audit entry; answers each one's gateway and command or refusal (recorded too). A
/// refusal of one gateway does not stop the others.
pub async fn restart(
    store: &Store,
    dispatcher: Option<&Dispatcher>,
    actor: &Actor,
    sns: &[String],
    now: i64,
) -> Result<Vec<(String, std::result::Result<Sent, DomainError>)>> {
    const RIGHT: &str = domain::permissions::GATEWAY_RESTART;
    const ACTION: &str = domain::audit_action::GATEWAY_RESTART;
    let mut out = Vec::with_capacity(sns.len());
    for sn in sns {
        let outcome = match acting_on(store, actor, GatewayRef::parse(sn), RIGHT).await {
            Ok(seen) => {
                let g = &seen.gateway.sn;
                let to = Target {
                    gateway_sn: g,
                    device_sn: g,
                };
                let order = Order {
                    action: ACTION,
                    kind: CommandKind::Restart,
                    params: json!({}),
                    timeout: RESTART_TIMEOUT,
                    note: serde_json::Value::Null,
                };
                let gateway = seen.gateway.id;
                commands::send_order(store, dispatcher, Sender::Actor(actor), to, &order, now)
                    .await
                    .map(|command| Sent { gateway, command })
            }
            Err(ServiceError::Refused(d)) => {
                refused_unseen_or_not(store, actor, ACTION, sn, &d, now).await;
                Err(ServiceError::Refused(d))
            }
            Err(e) => Err(e),
        };
        match outcome {
            Ok(id) => out.push((sn.clone(), Ok(id))),
            Err(ServiceError::Refused(d)) => out.push((sn.clone(), Err(d))),
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

/// The entry of a restart refused before anything was sent. A gateway the actor cannot see
/// (305) is filed under no plant and written without looking the SN up, so the entry and the
/// time it takes are the same for a missing SN and someone else's.
async fn refused_unseen_or_not(
    store: &Store,
    actor: &Actor,
    action: &str,
    sn: &str,
    d: &DomainError,
    now: i64,
) {
    let detail = json!({"kind": "restart", "reason": d.code.number()}).to_string();
    let plant = if d.code == Code::GatewayMissing {
        None
    } else {
        audit::plant_of(store, actor, sn).await.ok().flatten()
    };
    let entry = NewAudit {
        by: audit::author(actor, plant.as_ref()),
        action,
        target: sn,
        detail: &detail,
        result: audit::REFUSED,
        command_id: None,
        now,
    };
    audit::record_alone(store, &entry).await;
}

/// Changes the protocol config a gateway's reports are decoded with (`gateway.protocol`): the
/// protocol must exist (4 `protocol`). The change and its audit entry are one transaction.
/// Answers the gateway as it was and the protocol set.
pub async fn set_protocol(
    store: &Store,
    actor: &Actor,
    gateway: GatewayRef<'_>,
    protocol: &str,
    now: i64,
) -> Result<(Seen, String)> {
    let seen = acting_on(store, actor, gateway, domain::permissions::GATEWAY_PROTOCOL).await?;
    let protocol = protocol.trim();
    if protocol.is_empty()
        || protocol.len() > PROTOCOL_MAX
        || store.protocol(protocol).await?.is_none()
    {
        return Err(DomainError::invalid("protocol").into());
    }
    let g = &seen.gateway;
    let detail = json!({"from": g.protocol, "to": protocol}).to_string();
    let entry = NewAudit {
        by: audit::author(actor, seen.plant.as_ref()),
        action: domain::audit_action::GATEWAY_PROTOCOL,
        target: &g.sn,
        detail: &detail,
        result: audit::SUCCEEDED,
        command_id: None,
        now,
    };
    store
        .set_gateway_protocol(g.id, protocol, now, &entry)
        .await?;
    tracing::info!(sn = %g.sn, from = %g.protocol, to = protocol, by = %actor.id, "gateway protocol changed");
    Ok((seen, protocol.to_string()))
}
