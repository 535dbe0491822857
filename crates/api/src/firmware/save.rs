//! Uploading and editing firmware (`POST /api/v1/firmware/save`, and the gateway software
//! routes): the form is checked against `rules`, the file goes through `storage` (temporary
//! name, row, rename), and a replaced file is removed after the row names the new one.

use axum::extract::{Multipart, State, multipart::MultipartRejection};
use domain::{Code, DomainError};
use serde_json::json;
use store::{
    StoreError,
    firmware::{FirmwareFields, FirmwareFile, FirmwareRow, FirmwareTarget, NewFirmware},
};

use super::{
    FirmwareItem, GATEWAY_EDIT, INVERTER_EDIT, edit_key, form::Form, load, load_item,
    require_change, rules, storage,
};
use crate::{
    AppState,
    envelope::{ApiError, ApiResult, Data, Envelope},
    session::CurrentUser,
};
use domain::time::now_ms;

/// Uploads (no `id`) or edits (`id`) a firmware. Multipart: `file` (required on upload),
/// `target` `inverter` (default) or `gateway`, `typeId` the secondary label (old clients:
/// `type`, an inverter type code, names the label holding it), `name`, `version`,
/// `productId`, `hardwareVersion`, `upgradeMode`, `firmwareType`, `changeLog`, `changeLogEn`,
/// `enabled`. An edit keeps every field it does not send.
#[utoipa::path(post, path = "/api/v1/firmware/save", tag = "firmware",
    security(("bearer" = [])),
    responses((status = 200, description = "The firmware; 2, 4 id/fileName/version/typeId/type/productId or version lower than the latest, 11 not .bin/.hex or not Intel HEX, 12 over 1.5 MB, 4000 name taken, 4002 duplicate version", body = Envelope<FirmwareItem>)))]
pub async fn save(
    State(app): State<AppState>,
    me: CurrentUser,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<Data<FirmwareItem>> {
    let form = super::form::read(multipart).await?;
    let id = match form.get("id").filter(|v| !v.is_empty() && *v != "0") {
        Some(raw) => Some(crate::users::path_id(raw)?),
        None => None,
    };
    let target = match form.text("target") {
        "" => None,
        t => Some(FirmwareTarget::parse(t).ok_or(DomainError::invalid("target"))?),
    };
    Ok(Data(write(&app, &me, target, id, &form).await?))
}

/// Uploads or edits firmware of `target` (an edit reads it from the row) from `form`.
pub(crate) async fn write(
    app: &AppState,
    me: &CurrentUser,
    target: Option<FirmwareTarget>,
    id: Option<i64>,
    form: &Form,
) -> ApiResult<FirmwareItem> {
    let old = match id {
        Some(id) => {
            // Permission first: an outsider learns nothing about which ids exist.
            match target {
                Some(t) => require_change(me, edit_key(t.as_str()))?,
                None => require_change(me, INVERTER_EDIT)
                    .or_else(|_| require_change(me, GATEWAY_EDIT))?,
            }
            let row = load(app, id).await?;
            if target.is_some_and(|t| t.as_str() != row.target) {
                return Err(DomainError::invalid("id").into());
            }
            require_change(me, edit_key(&row.target))?;
            Some(row)
        }
        None => {
            require_change(
                me,
                edit_key(target.map_or("inverter", FirmwareTarget::as_str)),
            )?;
            None
        }
    };
    let target = match &old {
        Some(row) => FirmwareTarget::parse(&row.target).unwrap_or(FirmwareTarget::Inverter),
        None => target.unwrap_or(FirmwareTarget::Inverter),
    };
    let file = match &form.file {
        Some((file_name, bytes)) => {
            let ext = rules::file_name(file_name)?;
            rules::size(bytes.len())?;
            rules::sniff(ext, bytes)?;
            Some((file_name.as_str(), bytes.as_slice(), ext))
        }
        None if old.is_none() => return Err(DomainError::invalid("file").into()),
        None => None,
    };
    let type_id = label(app, target, form, old.as_ref()).await?;
    let keep = |key: &str, old_value: Option<&str>| -> String {
        match (form.get(key), old_value) {
            (Some(v), _) => v.to_string(),
            (None, Some(o)) => o.to_string(),
            (None, None) => String::new(),
        }
    };
    let version = rules::version(&keep("version", old.as_ref().map(|o| o.version.as_str())))?;
    let default_name = file.map(|f| f.0).unwrap_or_default();
    let name = match keep("name", old.as_ref().map(|o| o.name.as_str())) {
        n if n.is_empty() => default_name.to_string(),
        n => n,
    };
    if name.is_empty() {
        return Err(DomainError::invalid("name").into());
    }
    let name = rules::text("name", &name, rules::LABEL_MAX)?.to_string();
    check(app, target, &name, &version, type_id, old.as_ref()).await?;
    let change_log = keep("changeLog", old.as_ref().map(|o| o.change_log.as_str()));
    let change_log_en = keep(
        "changeLogEn",
        old.as_ref().map(|o| o.change_log_en.as_str()),
    );
    let hardware_version = keep(
        "hardwareVersion",
        old.as_ref().map(|o| o.hardware_version.as_str()),
    );
    let firmware_type = keep(
        "firmwareType",
        old.as_ref().map(|o| o.firmware_type.as_str()),
    );
    let upgrade_mode = rules::upgrade_mode(&keep(
        "upgradeMode",
        old.as_ref().map(|o| o.upgrade_mode.as_str()),
    ))?;
    let product_id = match form.get("productId") {
        Some("" | "0" | "null") => None,
        Some(raw) => {
            let id = raw
                .parse::<i64>()
                .map_err(|_| DomainError::invalid("productId"))?;
            if !app.store.firmware_product_exists(id).await? {
                return Err(DomainError::invalid("productId").into());
            }
            Some(id)
        }
        None => old.as_ref().and_then(|o| o.product_id),
    };
    let enabled = match form.get("enabled") {
        Some(v) => !matches!(v, "false" | "0"),
        None => old.as_ref().is_none_or(|o| o.enabled),
    };
    let fields = FirmwareFields {
        type_id,
        name: &name,
        version: &version,
        change_log: rules::text("changeLog", &change_log, rules::CHANGE_LOG_MAX)?,
        change_log_en: rules::text("changeLogEn", &change_log_en, rules::CHANGE_LOG_MAX)?,
        product_id,
        hardware_version: rules::text("hardwareVersion", &hardware_version, rules::SHORT_MAX)?,
        upgrade_mode,
        firmware_type: rules::text("firmwareType", &firmware_type, rules::SHORT_MAX)?,
        enabled,
    };
    let staged = match file {
        Some((_, bytes, ext)) => Some(
            storage::stage(app.files(), bytes, ext)
                .await
                .map_err(|e| ApiError::internal("firmware write", e))?,
        ),
        None => None,
    };
    let stored_name = staged.as_ref().map(|s| s.stored_name.clone());
    let stored = stored_name.as_deref().zip(file).map(|(s, f)| FirmwareFile {
        file_name: f.0,
        stored_name: s,
        size: i64::try_from(f.1.len()).unwrap_or(i64::MAX),
    });
    let now = now_ms();
    let written = match &old {
        Some(o) => app
            .store
            .update_firmware(o.id, &fields, stored, now)
            .await
            .map(|found| found.then_some(o.id)),
        None => match stored {
            Some(file) => app
                .store
                .insert_firmware(&NewFirmware {
                    target,
                    fields: fields.clone(),
                    file,
                    created_by: Some(me.id().0),
                    now,
                })
                .await
                .map(Some),
            None => return Err(DomainError::invalid("file").into()),
        },
    };
    let id = match written {
        Ok(Some(id)) => id,
        other => {
            if let Some(s) = staged {
                s.discard().await;
            }
            return Err(match other {
                Err(StoreError::Conflict(_)) => Code::FirmwareVersionTaken.into(),
                Err(e) => e.into(),
                _ => DomainError::invalid("id").into(),
            });
        }
    };
    if let Some(s) = staged
        && let Err(e) = s.commit().await
    {
        undo(app, id, old.as_ref()).await;
        return Err(ApiError::internal("firmware rename", e));
    }
    // The row names the new file now: the one it replaced may go.
    if stored.is_some()
        && let Some(o) = &old
    {
        storage::remove(app.files(), &o.stored_name).await;
    }
    let item = load_item(app, id).await?;
    let action = if old.is_some() {
        "firmware.edit"
    } else {
        "firmware.upload"
    };
    tracing::info!(firmware = id, version = %item.version, target = %item.target, by = %me.id(), action);
    let detail = json!({"firmId": id, "version": item.version, "target": item.target,
        "type": item.kind, "fileName": item.file_name, "fileReplaced": stored.is_some() && old.is_some()});
    crate::audit::record_admin(app, me, action, &format!("firmware:{}", item.name), detail).await;
    Ok(item)
}

/// The row could not be given its file: put it back as it was (an upload's row goes).
async fn undo(app: &AppState, id: i64, old: Option<&FirmwareRow>) {
    let result = match old {
        None => app.store.delete_unused_firmware(&[id]).await.map(|_| ()),
        Some(o) => {
            let fields = FirmwareFields {
                type_id: o.type_id,
                name: &o.name,
                version: &o.version,
                change_log: &o.change_log,
                change_log_en: &o.change_log_en,
                product_id: o.product_id,
                hardware_version: &o.hardware_version,
                upgrade_mode: &o.upgrade_mode,
                firmware_type: &o.firmware_type,
                enabled: o.enabled,
            };
            let file = FirmwareFile {
                file_name: &o.file_name,
                stored_name: &o.stored_name,
                size: o.size,
            };
            app.store
                .update_firmware(id, &fields, Some(file), o.updated_at)
                .await
                .map(|_| ())
        }
    };
    if let Err(e) = result {
        tracing::error!(error = %e, firmware = id, "firmware row not restored");
    }
}

/// The secondary label the firmware is filed under: `typeId`, or an old client's `type` (an
/// inverter type code, through the label holding it); an edit keeps its label by default.
/// Gateway software has none (0).
async fn label(
    app: &AppState,
    target: FirmwareTarget,
    form: &Form,
    old: Option<&FirmwareRow>,
) -> ApiResult<i64> {
    if target == FirmwareTarget::Gateway {
        return Ok(0);
    }
    if let Some(raw) = form.get("typeId").filter(|v| !v.is_empty()) {
        let id = raw
            .parse::<i64>()
            .map_err(|_| DomainError::invalid("typeId"))?;
        return secondary(app, id).await;
    }
    let code = form
        .get("type")
        .filter(|v| !v.is_empty())
        .or_else(|| form.get("typeCode").filter(|v| !v.is_empty()));
    match (code, old) {
        (Some(raw), _) => {
            let code = raw
                .parse::<i64>()
                .map_err(|_| DomainError::invalid("type"))?;
            Ok(app
                .store
                .inverter_type_for_code(code)
                .await?
                .ok_or_else(|| DomainError::invalid("type"))?)
        }
        (None, Some(o)) => Ok(o.type_id),
        (None, None) => Err(DomainError::invalid("typeId").into()),
    }
}

/// `id` when it is a secondary label; 4 `typeId` otherwise.
pub(crate) async fn secondary(app: &AppState, id: i64) -> ApiResult<i64> {
    match app.store.inverter_type(id).await? {
        Some(t) if t.parent_id.is_some() => Ok(id),
        _ => Err(DomainError::invalid("typeId").into()),
    }
}

/// The catalogue rules of a name and version for `target` and label `type_id`: 4000 when
/// another firmware of the target has the name, 4002 when the label has the version, 4 when it
/// is lower than the label's latest. An edit (`old`) that keeps its version and label passes
/// the version rules.
pub(crate) async fn check(
    app: &AppState,
    target: FirmwareTarget,
    name: &str,
    version: &str,
    type_id: i64,
    old: Option<&FirmwareRow>,
) -> ApiResult<()> {
    if !name.is_empty()
        && app
            .store
            .firmware_name_taken(target, name, old.map(|o| o.id))
            .await?
    {
        return Err(Code::FirmwareNameTaken.into());
    }
    if old.is_some_and(|o| o.type_id == type_id && o.version.eq_ignore_ascii_case(version)) {
        return Ok(());
    }
    let existing = app.store.firmware_versions(target, type_id).await?;
    let others = existing
        .iter()
        .filter(|f| old.is_none_or(|o| o.id != f.id))
        .map(|f| f.version.as_str());
    rules::version_order(version, others)?;
    Ok(())
}
