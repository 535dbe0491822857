//! The inverter-type tree firmware is filed under (`firmware.inverter.edit` to change it):
//! primary titles hold secondary labels, a label names the inverter type codes its firmware
//! fits, each code on one label only. Each change is written with its audit entry
//! (`inverterType.*`, target `inverterType:<name>`) in one transaction.

use domain::ids::InverterTypeId;
use domain::permissions::FIRMWARE_INVERTER_EDIT;
use domain::{DomainError, inverter_type, policy::Actor};
use serde_json::{Value, json};
use store::{Store, audit::NewAudit, inverter_types::InverterTypeRow};

use super::require_change;
use crate::{Result, audit};

/// A node to add or change, as the request sent it.
#[derive(Debug, Clone, Copy, Default)]
pub struct TypeDraft<'a> {
    /// The node edited or moved.
    pub id: Option<i64>,
    pub name: Option<&'a str>,
    /// A primary title (a new label's, or a move's target).
    pub parent_id: Option<i64>,
    pub codes: Option<&'a [i64]>,
}

/// `codes` checked: in range, no repeats, none held by a label other than `label`.
async fn codes(store: &Store, raw: &[i64], label: Option<InverterTypeId>) -> Result<Vec<i64>> {
    let out = inverter_type::codes(raw)?;
    for (code, holder) in store.inverter_type_codes().await? {
        if out.contains(&code) && Some(holder) != label {
            return Err(DomainError::invalid(format!("codes: {code}")).into());
        }
    }
    Ok(out)
}

/// The node `id`, or 4 `id`.
async fn node(store: &Store, id: InverterTypeId) -> Result<InverterTypeRow> {
    Ok(store
        .inverter_type(id)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?)
}

/// `id` when it is a primary title; 4 `primaryTitle` otherwise.
async fn primary(store: &Store, id: InverterTypeId) -> Result<InverterTypeId> {
    match store.inverter_type(id).await? {
        Some(t) if t.parent_id.is_none() => Ok(id),
        _ => Err(DomainError::invalid("primaryTitle").into()),
    }
}

/// The entry of `action` on the node called `name`.
fn entry<'a>(
    actor: &'a Actor,
    action: &'a str,
    target: &'a str,
    detail: &'a str,
    now: i64,
) -> NewAudit<'a> {
    audit::admin_entry(audit::author(actor, None), action, target, detail, now)
}

fn target(name: &str) -> String {
    format!("inverterType:{name}")
}

/// Adds a primary title (no parent) or a secondary label under a primary title; answers its
/// id. 2, 4 `name` (taken among its siblings, or not 1-32 characters), `primaryTitle`, `codes`.
pub async fn add(
    store: &Store,
    actor: &Actor,
    d: &TypeDraft<'_>,
    now: i64,
) -> Result<InverterTypeId> {
    require_change(actor, FIRMWARE_INVERTER_EDIT)?;
    let name = inverter_type::name(d.name)?;
    let parent = match d.parent_id.filter(|p| *p > 0) {
        Some(p) => Some(primary(store, InverterTypeId(p)).await?),
        None => None,
    };
    let codes = match (parent, d.codes) {
        (Some(_), Some(raw)) => codes(store, raw, None).await?,
        (None, Some(raw)) if !raw.is_empty() => return Err(DomainError::invalid("codes").into()),
        _ => Vec::new(),
    };
    if store.inverter_type_name_taken(parent, &name, None).await? {
        return Err(DomainError::invalid("name").into());
    }
    let target = target(&name);
    let by = entry(
        actor,
        domain::audit_action::INVERTER_TYPE_ADD,
        &target,
        "",
        now,
    );
    let detail_of =
        |id: InverterTypeId| json!({"typeId": id, "parentId": parent, "codes": codes}).to_string();
    Ok(store
        .insert_inverter_type(parent, &name, &codes, now, Some((&by, &detail_of)))
        .await?)
}

/// Renames a title or label and (labels) replaces its codes when `codes` is sent. 2, 4 `id`,
/// `name`, `codes`.
pub async fn edit(store: &Store, actor: &Actor, d: &TypeDraft<'_>, now: i64) -> Result<()> {
    require_change(actor, FIRMWARE_INVERTER_EDIT)?;
    let t = node(store, InverterTypeId(d.id.unwrap_or(0))).await?;
    let name = inverter_type::name(d.name)?;
    let codes = match (t.parent_id, d.codes) {
        (Some(_), Some(raw)) => Some(codes(store, raw, Some(t.id)).await?),
        (None, Some(raw)) if !raw.is_empty() => return Err(DomainError::invalid("codes").into()),
        _ => None,
    };
    if store
        .inverter_type_name_taken(t.parent_id, &name, Some(t.id))
        .await?
    {
        return Err(DomainError::invalid("name").into());
    }
    let detail = json!({"typeId": t.id, "before": t.name, "codes": codes}).to_string();
    let target = target(&name);
    let by = entry(
        actor,
        domain::audit_action::INVERTER_TYPE_EDIT,
        &target,
        &detail,
        now,
    );
    store
        .update_inverter_type(t.id, &name, codes.as_deref(), now, Some(&by))
        .await?;
    Ok(())
}

/// Moves a secondary label under another primary title. 2, 4 `id`, `primaryTitle` (either is
/// not what it should be), `nameAtTarget` (a label there has its name).
pub async fn move_label(store: &Store, actor: &Actor, d: &TypeDraft<'_>, now: i64) -> Result<()> {
    require_change(actor, FIRMWARE_INVERTER_EDIT)?;
    let t = node(store, InverterTypeId(d.id.unwrap_or(0))).await?;
    if t.parent_id.is_none() {
        return Err(DomainError::invalid("primaryTitle").into());
    }
    let to = primary(store, InverterTypeId(d.parent_id.unwrap_or(0))).await?;
    if t.parent_id == Some(to) {
        return Ok(());
    }
    if store
        .inverter_type_name_taken(Some(to), &t.name, Some(t.id))
        .await?
    {
        return Err(DomainError::invalid("nameAtTarget").into());
    }
    let detail = json!({"typeId": t.id, "from": t.parent_id, "to": to}).to_string();
    let target = target(&t.name);
    let by = entry(
        actor,
        domain::audit_action::INVERTER_TYPE_MOVE,
        &target,
        &detail,
        now,
    );
    store.move_inverter_type(t.id, to, now, Some(&by)).await?;
    Ok(())
}

/// Deletes a title or label: refused while it has labels (4 `hasSubtype`) or firmware (4
/// `hasFirmware`). 2, 4 `id`.
pub async fn delete(store: &Store, actor: &Actor, id: InverterTypeId, now: i64) -> Result<()> {
    require_change(actor, FIRMWARE_INVERTER_EDIT)?;
    let t = node(store, id).await?;
    let rows = store.inverter_types().await?;
    if rows.iter().any(|c| c.parent_id == Some(t.id)) {
        return Err(DomainError::invalid("hasSubtype").into());
    }
    if t.firmware_count > 0 {
        return Err(DomainError::invalid("hasFirmware").into());
    }
    let detail: Value = json!({"typeId": t.id, "parentId": t.parent_id});
    let detail = detail.to_string();
    let target = target(&t.name);
    let by = entry(
        actor,
        domain::audit_action::INVERTER_TYPE_DELETE,
        &target,
        &detail,
        now,
    );
    if !store.delete_inverter_type(t.id, Some(&by)).await? {
        // Something was filed under it meanwhile.
        return Err(DomainError::invalid("hasFirmware").into());
    }
    Ok(())
}
