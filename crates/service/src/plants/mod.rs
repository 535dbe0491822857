//! Plants: creating one with its tariff, editing it (`edit`), deleting one, sharing and
//! transferring it (`sharing`), and the offers of plants made for someone else (`offers`). A
//! plant the actor may not see answers 700, exactly like one that does not exist.

mod create;
mod edit;
pub mod offers;
pub mod pictures;
mod sharing;

pub use create::{PlantDraft, create, stored_tariff, tariff};
pub use edit::{Changes, Edited, edit};
pub use sharing::{ShareTarget, cancel_share, share, transfer};

use domain::{
    Code, DomainError,
    account::Account,
    ids::PlantId,
    policy::{Actor, PlantAccess},
};
use store::{Store, plants::PlantRow, users::UserRow};

use crate::Result;

/// The plant if the actor may see it, and why they may.
pub async fn visible(store: &Store, actor: &Actor, id: PlantId) -> Result<(PlantRow, PlantAccess)> {
    let plant = store.plant(id, actor.id).await?.ok_or(Code::PlantMissing)?;
    let access = actor
        .plant_access(&plant.scope())
        .ok_or(Code::PlantMissing)?;
    Ok((plant, access))
}

/// Deletes a plant with its tariff and shares (`station.delete` on it), all or nothing.
/// Answers the deleted plant, whose pictures the caller may now remove.
pub async fn delete(store: &Store, actor: &Actor, id: PlantId) -> Result<PlantRow> {
    let (plant, _) = visible(store, actor, id).await?;
    actor.require_on_plant(&plant.scope(), domain::permissions::STATION_DELETE)?;
    store.delete_plant(plant.id).await?;
    tracing::info!(plant = %plant.id, by = %actor.id, "plant deleted");
    Ok(plant)
}

/// The account named by `raw` (an email or phone): 4 `field` when it is not one, 105 when
/// nobody has it.
pub(crate) async fn account_user(store: &Store, raw: &str, field: &str) -> Result<UserRow> {
    let account = Account::parse(raw).map_err(|_| DomainError::invalid(field))?;
    Ok(store
        .user_by_account(account.as_str())
        .await?
        .ok_or(Code::NotRegistered)?)
}
