//! Editing a plant: its fields and, when given, its tariff, written together.

use domain::{DomainError, ids::PlantId, plant::TariffSegment, policy::Actor};
use store::{
    Store,
    plants::{PlantFields, PlantRow},
};

use super::{tariff, visible};
use crate::Result;

/// What an edit makes of a plant: its new checked fields, and its new tariff when the edit
/// replaces it (checked here).
#[derive(Debug, Clone)]
pub struct Changes {
    pub fields: PlantFields,
    pub tariff: Option<Vec<TariffSegment>>,
}

/// A plant as it was before an edit and the fields it has now (the caller removes pictures
/// the edit replaced).
#[derive(Debug, Clone)]
pub struct Edited {
    pub before: PlantRow,
    pub fields: PlantFields,
}

/// Edits a plant (`station.edit` on it). `changes` reads the request against the plant as it
/// stands (what a request leaves out keeps its value); it runs only once the actor may edit,
/// so a plant they may not see answers 700 whatever the request holds. The plant and its
/// tariff are written in one transaction: a tariff that cannot be written leaves the plant as
/// it was.
pub async fn edit(
    store: &Store,
    actor: &Actor,
    id: PlantId,
    changes: impl FnOnce(&PlantRow) -> std::result::Result<Changes, DomainError>,
    now: i64,
) -> Result<Edited> {
    let (before, _) = visible(store, actor, id).await?;
    actor.require_on_plant(&before.scope(), domain::permissions::STATION_EDIT)?;
    let Changes {
        fields,
        tariff: wanted,
    } = changes(&before)?;
    let tariff = wanted.as_deref().map(tariff).transpose()?;
    store
        .update_plant(before.id, &fields, tariff.as_deref(), now)
        .await?;
    tracing::info!(plant = %before.id, by = %actor.id, tariff = tariff.is_some(), "plant edited");
    Ok(Edited { before, fields })
}
