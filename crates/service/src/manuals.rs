//! Manuals of product models: internal administrators with `sys.manual.edit` add, edit and
//! remove them; everyone with `manual.view` reads those of the models they have a device of
//! (administrators: all). The API stages the file before and removes a replaced one after.

use domain::ids::ManualId;
use domain::permissions::{MANUAL_VIEW, SYS_MANUAL_EDIT};
use domain::{Code, DomainError, manual::ManualInput, policy::Actor};
use store::{
    Store,
    manuals::{ManualFile, ManualFilter, ManualRow},
};

use crate::Result;

/// Whether the actor manages manuals (and so sees every one): internal staff with the key.
pub fn manages(actor: &Actor) -> bool {
    actor.is_internal() && actor.has(SYS_MANUAL_EDIT)
}

fn require_edit(actor: &Actor) -> Result<()> {
    if !manages(actor) {
        return Err(Code::NoPermission.into());
    }
    actor.require_writable()?;
    Ok(())
}

/// The fields after the rules of `domain::manual`, with a product that exists (4 `productId`).
async fn checked(store: &Store, input: &ManualInput) -> Result<domain::manual::ManualFields> {
    let fields = input.check()?;
    if store.product(fields.product_id).await?.is_none() {
        return Err(DomainError::invalid("productId").into());
    }
    Ok(fields)
}

/// Adds a manual whose file is staged as `file`: its id.
pub async fn add(
    store: &Store,
    actor: &Actor,
    input: &ManualInput,
    file: &ManualFile,
    now: i64,
) -> Result<ManualId> {
    require_edit(actor)?;
    let fields = checked(store, input).await?;
    Ok(store.insert_manual(&fields, file, now).await?)
}

/// Checks an edit before anything is stored (the permission first: an outsider learns
/// nothing about which ids exist).
pub async fn check_edit(store: &Store, actor: &Actor, input: &ManualInput) -> Result<()> {
    require_edit(actor)?;
    checked(store, input).await.map(|_| ())
}

/// Changes a manual (and its file when `file` is given): the stored name of the file it
/// replaced. Unknown id: 4100.
pub async fn edit(
    store: &Store,
    actor: &Actor,
    id: ManualId,
    input: &ManualInput,
    file: Option<&ManualFile>,
    now: i64,
) -> Result<String> {
    require_edit(actor)?;
    let fields = checked(store, input).await?;
    store
        .update_manual(id, &fields, file, now)
        .await?
        .ok_or_else(|| Code::ManualMissing.into())
}

/// Removes a manual: the stored name of its file, for the caller to remove. Unknown id: 4100.
pub async fn remove(store: &Store, actor: &Actor, id: ManualId) -> Result<String> {
    require_edit(actor)?;
    store
        .delete_manual(id)
        .await?
        .ok_or_else(|| Code::ManualMissing.into())
}

/// A page of the manuals the actor may read: every one for those who manage them, else those
/// of the models the actor sees a device of.
pub async fn list(
    store: &Store,
    actor: &Actor,
    filter: &ManualFilter,
) -> Result<(Vec<ManualRow>, i64)> {
    actor.require(MANUAL_VIEW)?;
    Ok(store
        .manuals(actor.plant_visibility(), actor.id, manages(actor), filter)
        .await?)
}

/// One manual the actor may read; 4100 otherwise, exactly like a missing one.
pub async fn visible(store: &Store, actor: &Actor, id: ManualId) -> Result<ManualRow> {
    actor.require(MANUAL_VIEW)?;
    store
        .manual(actor.plant_visibility(), actor.id, manages(actor), id)
        .await?
        .ok_or_else(|| Code::ManualMissing.into())
}
