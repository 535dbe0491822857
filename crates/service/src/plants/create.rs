//! Creating a plant: the wizard's final step, the demo's plants and the benchmark's.

use domain::{
    DomainError,
    ids::PlantId,
    plant::{TariffSegment, Valuation, check_tariff},
    policy::{Actor, NewPlantOwner},
    user::UserKind,
};
use store::{
    Store,
    offers::NewPlant,
    plants::{NewTariffSegment, PlantFields, TariffSegmentRow},
};

use super::account_user;
use crate::Result;

/// A plant to create: its checked fields, its tariff (checked here) and the account it is for
/// (`None`: the actor's own).
#[derive(Debug, Clone)]
pub struct PlantDraft {
    pub fields: PlantFields,
    pub tariff: Vec<TariffSegment>,
    /// An email or phone; blank is the same as none.
    pub owner: Option<String>,
}

/// Creates a plant with its tariff in one transaction. The actor needs `station.create`;
/// company staff create for their company. Another account gets the plant at once when the
/// policy allows (internal staff, or a company's own customer); anyone else is offered it and
/// the plant stays the actor's until they accept.
pub async fn create(store: &Store, actor: &Actor, draft: &PlantDraft, now: i64) -> Result<PlantId> {
    actor.require(domain::permissions::STATION_CREATE)?;
    actor.require_writable()?;
    let tariff = tariff(&draft.tariff)?;
    let company = if actor.kind == UserKind::Company {
        actor.company
    } else {
        None
    };
    let named = draft
        .owner
        .as_deref()
        .map(str::trim)
        .filter(|o| !o.is_empty());
    let (owner, offered_to) = match named {
        None => (actor.id, None),
        Some(account) => {
            let user = account_user(store, account, "owner").await?;
            let is_customer = match company {
                Some(c) => store.is_customer(c, user.id()).await?,
                None => false,
            };
            match actor.new_plant_owner(&user.scope(), is_customer)? {
                NewPlantOwner::Account => (user.id(), None),
                NewPlantOwner::Offered => (actor.id, Some(user.id())),
            }
        }
    };
    let id = store
        .create_plant_with_tariff(&NewPlant {
            owner,
            company,
            created_by: actor.id,
            offered_to,
            fields: &draft.fields,
            tariff: &tariff,
            now,
        })
        .await?;
    tracing::info!(plant = %id, by = %actor.id, offered_to = ?offered_to, "plant created");
    Ok(id)
}

/// The stored tariff as the income rule reads it (rows of an unknown kind are skipped).
pub fn stored_tariff(rows: &[TariffSegmentRow]) -> Vec<TariffSegment> {
    rows.iter()
        .filter_map(|c| {
            Some(TariffSegment {
                kind: Valuation::from_wire(c.kind).ok()?,
                start: c.start_range.clone(),
                end: c.end_range.clone(),
                price: c.price,
                direction: c.direction.clone(),
            })
        })
        .collect()
}

/// A tariff as stored, once `domain::plant::check_tariff` accepts it (a constant price is
/// stored over the whole day).
pub fn tariff(
    segments: &[TariffSegment],
) -> std::result::Result<Vec<NewTariffSegment>, DomainError> {
    Ok(check_tariff(segments)?
        .into_iter()
        .map(|c| NewTariffSegment {
            kind: c.kind as i64,
            start_range: c.start,
            end_range: c.end,
            price: c.price,
            direction: c.direction,
        })
        .collect())
}
