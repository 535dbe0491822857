//! Rotating a gateway's registration key (its MQTT password): the portal sends the gateway a
//! new random key on its command topic and keeps it beside the current one until the gateway
//! has taken it (the broker accepts either meanwhile). The next key is written before the
//! command goes, so that the gateway's first sign-in with it already works; the entry
//! (`gateway.key.rotate`) names the command, which the device link records as it sends.

use domain::ids::CommandId;
use std::time::Duration;

use devices::link::Dispatcher;
use domain::{
    Code,
    command::CommandStatus,
    policy::{Actor, GatewayScope},
};
use rand::{Rng, distributions::Alphanumeric};
use serde_json::json;
use store::{Store, StoreError, audit::NewAudit, gateways::GatewayRow};

use super::{GatewayRef, visible};
use crate::{Result, ServiceError, audit, commands};

/// How long the gateway has to confirm that it stored its new key.
const ROTATE_TIMEOUT: Duration = Duration::from_secs(15);
/// Length of a generated key: 16 letters and digits (95 bits), within the 4-32 keys accept.
pub const KEY_LEN: usize = 16;
const ACTION: &str = domain::audit_action::GATEWAY_KEY_ROTATE;

/// Whether `actor` may read and rotate the key of `g`. A gateway on a plant the actor cannot
/// see is never theirs to edit, whoever holds it.
pub fn may_edit(actor: &Actor, g: &GatewayRow, scope: &GatewayScope) -> bool {
    !(g.plant_id.is_some() && scope.plant.is_none()) && actor.may_edit_gateway_key(scope)
}

/// A rotation's outcome.
#[derive(Debug, Clone)]
pub struct Rotated {
    /// The gateway's key from now on.
    pub key: String,
    /// `true` when the gateway confirmed it; `false` when it has not answered yet (the broker
    /// accepts both keys until the gateway signs in with the new one).
    pub confirmed: bool,
    pub command_id: CommandId,
}

/// A new random key: 16 letters and digits.
pub fn new_key() -> String {
    rand::rngs::OsRng
        .sample_iter(&Alphanumeric)
        .take(KEY_LEN)
        .map(char::from)
        .collect()
}

/// Writes the rotation's entry (filed under the gateway's plant when the actor sees it). The
/// rotation happened either way, so a failure to write is logged, as `audit::record_alone`
/// does.
async fn record(
    store: &Store,
    actor: &Actor,
    sn: &str,
    (detail, result): (&str, &str),
    command: Option<CommandId>,
    now: i64,
) {
    let plant = audit::plant_of(store, actor, sn).await.ok().flatten();
    let entry = NewAudit {
        by: audit::author(actor, plant.as_ref()),
        action: ACTION,
        target: sn,
        detail,
        result,
        command_id: command,
        now,
    };
    audit::record_alone(store, &entry).await;
}

/// Gives the gateway a new key (`gateway.key` on its plant; its holder or registry rights for
/// one on no plant) and waits for it to confirm. 2, 305, 602 offline, 606 no device link or
/// the connection failed, 609 the gateway refused the key (or another rotation replaced it).
/// A rotation lasts up to 16 s, so each write reads the time it happens at from `now`.
pub async fn rotate(
    store: &Store,
    dispatcher: Option<&Dispatcher>,
    actor: &Actor,
    gateway: GatewayRef<'_>,
    now: fn() -> i64,
) -> Result<Rotated> {
    let seen = visible(store, actor, gateway).await?;
    let g = &seen.gateway;
    if !may_edit(actor, g, &seen.scope) {
        return Err(Code::NoPermission.into());
    }
    let Some(dispatcher) = dispatcher else {
        return Err(Code::ConnectionFailed.into());
    };
    let key = new_key();
    store.set_pending_gateway_key(g.id, &key, now()).await?;
    let sent = dispatcher
        .send_secret(
            &g.sn,
            &g.sn,
            "rotate_key",
            json!({"key": key}),
            ROTATE_TIMEOUT,
        )
        .await;
    let id = match sent {
        Ok(id) => id,
        Err(e) => {
            store.drop_pending_gateway_key(g.id, &key).await?;
            let e = commands::refusal(e);
            let reason = match &e {
                ServiceError::Refused(d) => d.code.number(),
                ServiceError::Store(_) | ServiceError::Internal(_) => Code::CommandFailed.number(),
            };
            let detail = json!({"reason": reason}).to_string();
            let outcome = (detail.as_str(), audit::REFUSED);
            record(store, actor, &g.sn, outcome, None, now()).await;
            return Err(e);
        }
    };
    let detail = json!({"commandId": id}).to_string();
    let outcome = (detail.as_str(), audit::SENT);
    record(store, actor, &g.sn, outcome, Some(id), now()).await;
    let row = dispatcher
        .wait(id, ROTATE_TIMEOUT + Duration::from_secs(1))
        .await?
        .ok_or_else(|| StoreError::Damaged(format!("key rotation: command {id} vanished")))?;
    let confirmed = match row.status() {
        CommandStatus::Succeeded => {
            if !store.take_pending_gateway_key(g.id, &key, now()).await? {
                // Taken already by the gateway's sign-in with it, or replaced by a newer
                // rotation: only the first is this one's success.
                let current = store.gateway(g.id).await?;
                if current.is_none_or(|c| c.reg_key != key) {
                    return Err(Code::KeyNotTaken.into());
                }
            }
            tracing::info!(gateway = %g.id, sn = %g.sn, by = %actor.id, "gateway key rotated");
            true
        }
        CommandStatus::Failed => {
            store.drop_pending_gateway_key(g.id, &key).await?;
            return Err(Code::KeyNotTaken.into());
        }
        // No answer: the gateway may have stored the key and lost its reply, so the key stays
        // pending (accepted beside the old one) rather than locking the gateway out.
        _ => false,
    };
    Ok(Rotated {
        key,
        confirmed,
        command_id: id,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_keys_are_strong_registration_keys_and_differ() {
        let (a, b) = (new_key(), new_key());
        assert_eq!(a.len(), KEY_LEN);
        assert!(domain::gateway_key::is_strong_new_key(&a));
        assert_ne!(a, b);
    }
}
