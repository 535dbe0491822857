//! Replacing a plant's gateway: the new one (SN and key, free or the actor's stock) joins the
//! plant, the devices behind the old one move to it with their history, and the old one is
//! unbound, all in one transaction.

use domain::{Code, DomainError, policy::Actor};
use store::{Store, gateways::GatewayRow, plants::PlantRow};

use super::{GatewayRef, acting_on, claim, own_company};
use crate::Result;

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
/// gateway, 300 wrong key, 301 new gateway in use. Answers how many devices moved.
pub async fn replace(
    store: &Store,
    actor: &Actor,
    r: &Replacement,
    new_sn: &str,
    key: &str,
    now: i64,
) -> Result<u64> {
    if new_sn == r.old.sn {
        return Err(DomainError::invalid("newSn").into());
    }
    let new = claim::checked_claim(store, actor, new_sn, key, Some(&r.plant)).await?;
    let to = claim::holder(actor, Some(&r.plant));
    let by = (actor.id.0, own_company(actor).map(|c| c.0));
    let moved = store
        .replace_gateway(r.old.id, new.id, &to, by, now)
        .await?
        .ok_or(Code::GatewayUsed)?;
    tracing::info!(old = %r.old.sn, new = %new_sn, plant = r.plant.id, moved, by = %actor.id, "gateway replaced");
    Ok(moved)
}
