//! Replacing a plant's gateway: the new one (SN and key, free or the actor's stock) joins the
//! plant, the devices behind the old one move to it with their history, and the old one is
//! unbound, all in one transaction with the audit entry. A replacement refused or failed is
//! recorded on its own.

use domain::{Code, DomainError, policy::Actor};
use store::{Store, audit::NewAudit, gateways::GatewayRow, plants::PlantRow};

use super::{GatewayRef, acting_on, claim, own_company};
use crate::{Result, ServiceError, audit};

/// A replacement the actor may make: the gateway to replace and the plant it is on.
#[derive(Debug, Clone)]
pub struct Replacement {
    pub old: GatewayRow,
    pub plant: PlantRow,
}

impl Replacement {
    /// Finds the gateway to replace (`gateway.replace` on its plant). Only a gateway on a
    /// plant can be replaced: there is nothing to hand over otherwise (4 `oldSn`).
    pub async fn of(store: &Store, actor: &Actor, old: GatewayRef<'_>) -> Result<Replacement> {
        let seen = acting_on(store, actor, old, domain::permissions::GATEWAY_REPLACE).await?;
        let Some(plant) = seen.plant else {
            return Err(DomainError::invalid("oldSn").into());
        };
        Ok(Replacement {
            old: seen.gateway,
            plant,
        })
    }
}

/// Puts the gateway `new_sn` (with its key) in the place of `r.old`: 4 `newSn` for the same
/// gateway, 300 wrong key, 301 new gateway in use. Answers how many devices moved. Audited
/// `gateway.replace` on the old gateway, filed under the plant (when the actor may see it),
/// whatever the outcome.
pub async fn replace(
    store: &Store,
    actor: &Actor,
    r: &Replacement,
    new_sn: &str,
    key: &str,
    now: i64,
) -> Result<u64> {
    let detail =
        serde_json::json!({"old": r.old.sn, "new": new_sn, "plantId": r.plant.id}).to_string();
    let plant = Some(&r.plant).filter(|p| actor.plant_access(&p.scope()).is_some());
    let entry = NewAudit {
        by: audit::author(actor, plant),
        action: domain::audit_action::GATEWAY_REPLACE,
        target: &r.old.sn,
        detail: &detail,
        result: audit::SUCCEEDED,
        command_id: None,
        now,
    };
    let outcome = replace_audited(store, actor, r, new_sn, key, &entry).await;
    if let Err(e) = &outcome {
        let result = match e {
            ServiceError::Refused(_) => audit::REFUSED,
            ServiceError::Store(_) | ServiceError::Internal(_) => audit::FAILED,
        };
        audit::record_alone(store, &NewAudit { result, ..entry }).await;
    }
    outcome
}

/// [`replace`]'s checks and writes, `entry` among them.
async fn replace_audited(
    store: &Store,
    actor: &Actor,
    r: &Replacement,
    new_sn: &str,
    key: &str,
    entry: &NewAudit<'_>,
) -> Result<u64> {
    if new_sn == r.old.sn {
        return Err(DomainError::invalid("newSn").into());
    }
    let new = claim::checked_claim(store, actor, new_sn, key, Some(&r.plant)).await?;
    let to = claim::holder(actor, Some(&r.plant));
    let by = (actor.id, own_company(actor));
    let moved = store
        .replace_gateway(r.old.id, new.id, &to, by, entry.now, entry)
        .await?
        .ok_or(Code::GatewayUsed)?;
    tracing::info!(old = %r.old.sn, new = %new_sn, plant = %r.plant.id, moved, by = %actor.id, "gateway replaced");
    Ok(moved)
}
