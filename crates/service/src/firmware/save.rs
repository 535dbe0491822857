//! Uploading and editing firmware: [`draft`] checks the caller's rights and every rule of the
//! form (an edit keeps each field it does not send), [`save`] writes the row and its audit
//! entry in one transaction. Between the two the caller stores the file under the name the
//! row will hold; a failed save leaves that file for the caller to remove.

use domain::ids::{FirmwareId, InverterTypeId, ProductId};
use domain::permissions::{FIRMWARE_GATEWAY_EDIT, FIRMWARE_INVERTER_EDIT};
use std::collections::HashMap;

use domain::{DomainError, firmware, policy::Actor};
use serde_json::json;
use store::{
    Store,
    firmware::{FirmwareFields, FirmwareFile, FirmwareRow, FirmwareTarget, NewFirmware},
};

use super::{check, edit_key, load, require_change, secondary};
use crate::{Result, audit};

/// An upload (`id` none) or an edit, as the form sent it.
#[derive(Debug, Clone, Copy)]
pub struct Upload<'a> {
    /// The route's or the form's target; an edit reads it from the row.
    pub target: Option<FirmwareTarget>,
    pub id: Option<FirmwareId>,
    /// The form's text fields (trimmed when read).
    pub fields: &'a HashMap<String, String>,
    /// The file's name and bytes.
    pub file: Option<(&'a str, &'a [u8])>,
}

impl Upload<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.fields.get(key).map(|s| s.trim())
    }
}

/// A checked upload or edit, ready to be saved.
#[derive(Debug, Clone)]
pub struct Draft {
    target: FirmwareTarget,
    old: Option<FirmwareRow>,
    type_id: InverterTypeId,
    name: String,
    version: String,
    change_log: String,
    change_log_en: String,
    product_id: Option<ProductId>,
    hardware_version: String,
    upgrade_mode: &'static str,
    firmware_type: String,
    enabled: bool,
    /// The new file's name, checked extension and size.
    file: Option<(String, &'static str, i64)>,
}

impl Draft {
    /// The new file's checked extension (`bin` or `hex`), when one was sent.
    pub fn file_ext(&self) -> Option<&'static str> {
        self.file.as_ref().map(|f| f.1)
    }

    /// The row it replaces (an edit).
    pub fn old(&self) -> Option<&FirmwareRow> {
        self.old.as_ref()
    }
}

/// Checks an upload or an edit: the caller's edit key for the target (before anything about
/// the id), the file (`domain::firmware`), the label, the name and version rules of the
/// catalogue, the product. 2, 4 naming the field, 11, 12, 4000, 4002.
pub async fn draft(store: &Store, actor: &Actor, u: &Upload<'_>) -> Result<Draft> {
    let old = match u.id {
        Some(id) => {
            // Permission first: an outsider learns nothing about which ids exist.
            match u.target {
                Some(t) => require_change(actor, edit_key(t.as_str()))?,
                None => require_change(actor, FIRMWARE_INVERTER_EDIT)
                    .or_else(|_| require_change(actor, FIRMWARE_GATEWAY_EDIT))?,
            }
            let row = load(store, id).await?;
            if u.target.is_some_and(|t| t.as_str() != row.target) {
                return Err(DomainError::invalid("id").into());
            }
            require_change(actor, edit_key(&row.target))?;
            Some(row)
        }
        None => {
            let target = u.target.map_or("inverter", FirmwareTarget::as_str);
            require_change(actor, edit_key(target))?;
            None
        }
    };
    let target = match &old {
        Some(row) => FirmwareTarget::parse(&row.target).unwrap_or(FirmwareTarget::Inverter),
        None => u.target.unwrap_or(FirmwareTarget::Inverter),
    };
    let file = match u.file {
        Some((file_name, bytes)) => {
            let ext = firmware::file_name(file_name)?;
            firmware::size(bytes.len())?;
            firmware::sniff(ext, bytes)?;
            let size = i64::try_from(bytes.len()).unwrap_or(i64::MAX);
            Some((file_name.to_string(), ext, size))
        }
        None if old.is_none() => return Err(DomainError::invalid("file").into()),
        None => None,
    };
    let type_id = label(store, target, u, old.as_ref()).await?;
    let keep = |key: &str, old_value: Option<&str>| -> String {
        match (u.get(key), old_value) {
            (Some(v), _) => v.to_string(),
            (None, Some(o)) => o.to_string(),
            (None, None) => String::new(),
        }
    };
    let old_text = |f: fn(&FirmwareRow) -> &str| old.as_ref().map(f);
    let version = firmware::version(&keep("version", old_text(|o| &o.version)))?;
    let name = match keep("name", old_text(|o| &o.name)) {
        n if n.is_empty() => file.as_ref().map(|f| f.0.clone()).unwrap_or_default(),
        n => n,
    };
    if name.is_empty() {
        return Err(DomainError::invalid("name").into());
    }
    let name = firmware::text("name", &name, firmware::LABEL_MAX)?.to_string();
    check(store, target, &name, &version, type_id, old.as_ref()).await?;
    let change_log = keep("changeLog", old_text(|o| &o.change_log));
    let change_log_en = keep("changeLogEn", old_text(|o| &o.change_log_en));
    let hardware_version = keep("hardwareVersion", old_text(|o| &o.hardware_version));
    let firmware_type = keep("firmwareType", old_text(|o| &o.firmware_type));
    let upgrade_mode = firmware::upgrade_mode(&keep("upgradeMode", old_text(|o| &o.upgrade_mode)))?;
    let product_id = match u.get("productId") {
        Some("" | "0" | "null") => None,
        Some(raw) => {
            let id = raw
                .parse::<i64>()
                .map(ProductId)
                .map_err(|_| DomainError::invalid("productId"))?;
            if !store.firmware_product_exists(id).await? {
                return Err(DomainError::invalid("productId").into());
            }
            Some(id)
        }
        None => old.as_ref().and_then(|o| o.product_id),
    };
    let enabled = match u.get("enabled") {
        Some(v) => !matches!(v, "false" | "0"),
        None => old.as_ref().is_none_or(|o| o.enabled),
    };
    let (log_max, short_max) = (firmware::CHANGE_LOG_MAX, firmware::SHORT_MAX);
    Ok(Draft {
        change_log: firmware::text("changeLog", &change_log, log_max)?.to_string(),
        change_log_en: firmware::text("changeLogEn", &change_log_en, log_max)?.to_string(),
        hardware_version: firmware::text("hardwareVersion", &hardware_version, short_max)?
            .to_string(),
        firmware_type: firmware::text("firmwareType", &firmware_type, short_max)?.to_string(),
        target,
        old,
        type_id,
        name,
        version,
        product_id,
        upgrade_mode,
        enabled,
        file,
    })
}

/// The secondary label the firmware is filed under: `typeId`, or an old client's `type` (an
/// inverter type code, through the label holding it); an edit keeps its label by default.
/// Gateway software has none (0).
async fn label(
    store: &Store,
    target: FirmwareTarget,
    u: &Upload<'_>,
    old: Option<&FirmwareRow>,
) -> Result<InverterTypeId> {
    if target == FirmwareTarget::Gateway {
        return Ok(InverterTypeId(0));
    }
    if let Some(raw) = u.get("typeId").filter(|v| !v.is_empty()) {
        let id = raw
            .parse::<i64>()
            .map(InverterTypeId)
            .map_err(|_| DomainError::invalid("typeId"))?;
        return secondary(store, id).await;
    }
    let code = u
        .get("type")
        .filter(|v| !v.is_empty())
        .or_else(|| u.get("typeCode").filter(|v| !v.is_empty()));
    match (code, old) {
        (Some(raw), _) => {
            let code = raw
                .parse::<i64>()
                .map_err(|_| DomainError::invalid("type"))?;
            Ok(store
                .inverter_type_for_code(code)
                .await?
                .ok_or_else(|| DomainError::invalid("type"))?)
        }
        (None, Some(o)) => Ok(o.type_id),
        (None, None) => Err(DomainError::invalid("typeId").into()),
    }
}

/// Writes the draft's row (a new one, or the edited one) with its audit entry in one
/// transaction; `stored_name` is where the caller stored the draft's file. Answers the id; 4002
/// when another upload took the version meanwhile, 4 `id` when the edited row is gone.
pub async fn save(
    store: &Store,
    actor: &Actor,
    d: &Draft,
    stored_name: Option<&str>,
    now: i64,
) -> Result<FirmwareId> {
    let fields = FirmwareFields {
        type_id: d.type_id,
        name: &d.name,
        version: &d.version,
        change_log: &d.change_log,
        change_log_en: &d.change_log_en,
        product_id: d.product_id,
        hardware_version: &d.hardware_version,
        upgrade_mode: d.upgrade_mode,
        firmware_type: &d.firmware_type,
        enabled: d.enabled,
    };
    let file = match (&d.file, stored_name) {
        (Some((file_name, _, size)), Some(stored_name)) => Some(FirmwareFile {
            file_name,
            stored_name,
            size: *size,
        }),
        _ => None,
    };
    let file_name = match (&file, &d.old) {
        (Some(f), _) => f.file_name,
        (None, Some(o)) => o.file_name.as_str(),
        (None, None) => return Err(DomainError::invalid("file").into()),
    };
    let target = d.target.as_str();
    let mut detail = json!({"version": d.version, "target": target, "type": d.type_id,
        "fileName": file_name, "fileReplaced": file.is_some() && d.old.is_some()});
    let action = match &d.old {
        Some(o) => {
            detail["firmId"] = o.id.0.into();
            domain::audit_action::FIRMWARE_EDIT
        }
        None => domain::audit_action::FIRMWARE_UPLOAD,
    };
    let detail = detail.to_string();
    let audit_target = format!("firmware:{}", d.name);
    let by = audit::author(actor, None);
    let entry = audit::admin_entry(by, action, &audit_target, &detail, now);
    let written = match (&d.old, file) {
        (Some(o), file) => store
            .update_firmware(o.id, &fields, file, now, &entry)
            .await
            .map(|found| found.then_some(o.id)),
        (None, Some(file)) => {
            let new = NewFirmware {
                target: d.target,
                fields,
                file,
                created_by: Some(actor.id),
                now,
            };
            store.insert_firmware(&new, Some(&entry)).await.map(Some)
        }
        (None, None) => return Err(DomainError::invalid("file").into()),
    };
    written?.ok_or_else(|| DomainError::invalid("id").into())
}
