//! Plants offered to an account: company staff who create a plant for someone who is not yet
//! their company's customer keep it in their own name and offer it; the account accepts it
//! (and becomes the company's customer) or declines it, and the maker may withdraw the offer.

use domain::{Code, ids::PlantId, policy::Actor};
use store::Store;

use super::visible;
use crate::Result;

/// The actor takes the plant offered to them, in one transaction: it becomes theirs and, for
/// a company's plant, they become the company's customer. 700 when no such offer waits for
/// them; read-only accounts take nothing (2).
pub async fn accept(store: &Store, actor: &Actor, id: PlantId, now: i64) -> Result<()> {
    actor.require_writable()?;
    if !store.accept_plant_offer(id, actor.id, now).await? {
        return Err(Code::PlantMissing.into());
    }
    tracing::info!(plant = id.0, by = %actor.id, "plant offer accepted");
    Ok(())
}

/// The actor declines the plant offered to them; it stays with whoever offered it. 700 when no
/// such offer waits for them.
pub async fn decline(store: &Store, actor: &Actor, id: PlantId) -> Result<()> {
    if !store.end_plant_offer(id, Some(actor.id)).await? {
        return Err(Code::PlantMissing.into());
    }
    tracing::info!(plant = id.0, by = %actor.id, "plant offer declined");
    Ok(())
}

/// Withdraws the offer of a plant the actor may edit (`station.edit` on it); the plant stays
/// theirs. A plant under no offer is left as it is.
pub async fn cancel(store: &Store, actor: &Actor, id: PlantId) -> Result<()> {
    let (plant, _) = visible(store, actor, id).await?;
    actor.require_on_plant(&plant.scope(), domain::permissions::STATION_EDIT)?;
    if store.end_plant_offer(plant.id, None).await? {
        tracing::info!(plant = %plant.id, by = %actor.id, "plant offer withdrawn");
    }
    Ok(())
}
