//! The firmware catalogue's use cases: internal staff with the catalogue's keys upload, edit,
//! enable and delete firmware (`save`, `enable`, `delete`); each change is written with its
//! audit entry in one transaction. The file and version rules are `domain::firmware`'s; the
//! rules that need the catalogue (a taken name, a version lower than the label's latest) are
//! here.

use domain::ids::{FirmwareId, InverterTypeId};
mod save;
pub mod types;

pub use save::{Draft, Upload, draft, save};

use domain::permissions::{
    FIRMWARE_ENABLE, FIRMWARE_GATEWAY_EDIT, FIRMWARE_GATEWAY_VIEW, FIRMWARE_INVERTER_EDIT,
    FIRMWARE_INVERTER_VIEW,
};
use domain::{Code, DomainError, firmware, policy::Actor};
use serde_json::json;
use store::{
    Store,
    firmware::{FirmwareRow, FirmwareTarget},
};

use crate::{Result, audit};

/// The catalogue is internal: the caller must be internal staff holding `key` (2 otherwise).
pub fn require(actor: &Actor, key: &str) -> Result<()> {
    if !actor.is_internal() {
        return Err(Code::NoPermission.into());
    }
    actor.require(key)?;
    Ok(())
}

/// As [`require`], for a change (a read-only session may not).
pub fn require_change(actor: &Actor, key: &str) -> Result<()> {
    actor.require_writable()?;
    require(actor, key)
}

/// The key that reads firmware of `target`.
pub fn view_key(target: &str) -> &'static str {
    if target == "gateway" {
        FIRMWARE_GATEWAY_VIEW
    } else {
        FIRMWARE_INVERTER_VIEW
    }
}

/// The key that changes firmware of `target`.
pub fn edit_key(target: &str) -> &'static str {
    if target == "gateway" {
        FIRMWARE_GATEWAY_EDIT
    } else {
        FIRMWARE_INVERTER_EDIT
    }
}

/// Firmware `id`, or 4 `id` when it is gone.
pub async fn load(store: &Store, id: FirmwareId) -> Result<FirmwareRow> {
    Ok(store
        .firmware(id)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?)
}

/// `id` when it is a secondary label of the inverter-type tree; 4 `typeId` otherwise.
pub async fn secondary(store: &Store, id: InverterTypeId) -> Result<InverterTypeId> {
    match store.inverter_type(id).await? {
        Some(t) if t.parent_id.is_some() => Ok(id),
        _ => Err(DomainError::invalid("typeId").into()),
    }
}

/// The catalogue rules of a name and version for `target` and label `type_id`: 4000 when
/// another firmware of the target has the name, 4002 when the label has the version, 4 when it
/// is lower than the label's latest. An edit (`old`) that keeps its version and label passes
/// the version rules.
pub async fn check(
    store: &Store,
    target: FirmwareTarget,
    name: &str,
    version: &str,
    type_id: InverterTypeId,
    old: Option<&FirmwareRow>,
) -> Result<()> {
    if !name.is_empty()
        && store
            .firmware_name_taken(target, name, old.map(|o| o.id))
            .await?
    {
        return Err(Code::FirmwareNameTaken.into());
    }
    if old.is_some_and(|o| o.type_id == type_id && o.version.eq_ignore_ascii_case(version)) {
        return Ok(());
    }
    let existing = store.firmware_versions(target, type_id).await?;
    let others = existing
        .iter()
        .filter(|f| old.is_none_or(|o| o.id != f.id))
        .map(|f| f.version.as_str());
    firmware::version_order(version, others)?;
    Ok(())
}

/// A flag of the enable request: `true`/`1`, `false`/`0` or absent (false); 4 `field` else.
fn flag(raw: Option<&str>, field: &str) -> std::result::Result<bool, DomainError> {
    match raw {
        Some("true" | "1") => Ok(true),
        Some("false" | "0") | None => Ok(false),
        Some(_) => Err(DomainError::invalid(field)),
    }
}

/// How an enable request asks: `enable` (required) and `notify`, as sent.
#[derive(Debug, Clone, Copy, Default)]
pub struct Toggle<'a> {
    pub enable: Option<&'a str>,
    pub notify: Option<&'a str>,
}

/// Turns firmware `id` on or off (`firmware.enable` for inverter firmware, which also needs
/// `firmware.inverter.view`; `firmware.gateway.edit` for gateway software). With `notify`
/// (when enabling) every owner concerned gets a notice; flag, notices and the audit entry are
/// one transaction. Rights come before anything about the id or the request. Answers the row
/// as it was.
pub async fn enable(
    store: &Store,
    actor: &Actor,
    id: FirmwareId,
    t: Toggle<'_>,
    now: i64,
) -> Result<FirmwareRow> {
    let row = load(store, id).await?;
    let gateway = row.target == "gateway";
    require_change(
        actor,
        if gateway {
            FIRMWARE_GATEWAY_EDIT
        } else {
            FIRMWARE_ENABLE
        },
    )?;
    if !gateway {
        require(actor, FIRMWARE_INVERTER_VIEW)?;
    }
    if t.enable.is_none() {
        return Err(DomainError::invalid("enable").into());
    }
    let enable = flag(t.enable, "enable")?;
    let notify = enable && flag(t.notify, "notify")?;
    let label = store
        .firmware_item(id)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?
        .type_name;
    let params = json!({
        "target": row.target,
        "label": label.unwrap_or_default(),
        "version": row.version,
        "fileName": row.file_name,
    })
    .to_string();
    let action = if enable {
        domain::audit_action::FIRMWARE_ENABLE
    } else {
        domain::audit_action::FIRMWARE_DISABLE
    };
    let detail =
        json!({"firmId": id, "version": row.version, "target": row.target, "notify": notify})
            .to_string();
    let target = format!("firmware:{}", row.name);
    let entry = audit::admin_entry(audit::author(actor, None), action, &target, &detail, now);
    store
        .enable_firmware(id, enable, notify.then_some(params.as_str()), now, &entry)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?;
    Ok(row)
}

/// What a delete of several firmware did: the rows that went (their files may go now) and
/// why each other one did not.
#[derive(Debug, Default)]
pub struct Deleted {
    pub deleted: Vec<FirmwareRow>,
    pub refused: Vec<(FirmwareId, DomainError)>,
}

/// Deletes what of `ids` the caller may change (its target's edit key) and no running upgrade
/// uses, each with its audit entry, in one transaction. Refusals: 4 `id` (gone), 2, 4 `inUse`.
pub async fn delete(store: &Store, actor: &Actor, ids: &[FirmwareId], now: i64) -> Result<Deleted> {
    require_change(actor, FIRMWARE_INVERTER_EDIT)
        .or_else(|_| require_change(actor, FIRMWARE_GATEWAY_EDIT))?;
    let mut out = Deleted::default();
    let mut wanted: Vec<FirmwareRow> = Vec::new();
    for &id in ids {
        let Some(row) = store.firmware(id).await? else {
            out.refused.push((id, DomainError::invalid("id")));
            continue;
        };
        if let Err(crate::ServiceError::Refused(e)) = require_change(actor, edit_key(&row.target)) {
            out.refused.push((id, e));
        } else if store.firmware_in_use(id).await? {
            out.refused.push((id, DomainError::invalid("inUse")));
        } else if !wanted.iter().any(|r| r.id == id) {
            wanted.push(row);
        }
    }
    let details: Vec<(String, String)> = wanted
        .iter()
        .map(|r| {
            let detail = json!({"firmId": r.id, "version": r.version, "target": r.target,
                "fileName": r.file_name});
            (format!("firmware:{}", r.name), detail.to_string())
        })
        .collect();
    let doomed: Vec<_> = wanted
        .iter()
        .zip(&details)
        .map(|(r, (target, detail))| {
            let by = audit::author(actor, None);
            (
                r.id,
                audit::admin_entry(
                    by,
                    domain::audit_action::FIRMWARE_DELETE,
                    target,
                    detail,
                    now,
                ),
            )
        })
        .collect();
    let deleted = store.delete_unused_firmware(&doomed).await?;
    for row in wanted {
        if deleted.contains(&row.id) {
            out.deleted.push(row);
        } else {
            // Started an upgrade between the check and the delete.
            out.refused.push((row.id, DomainError::invalid("inUse")));
        }
    }
    Ok(out)
}
