//! Uploading and editing firmware (`POST /api/v1/firmware/save`, and the gateway software
//! routes): the use case `service::firmware` checks the form and writes the row with its audit
//! entry; the file goes through `storage`, and a replaced file is removed after the row names
//! the new one.

use axum::extract::{Multipart, State, multipart::MultipartRejection};
use domain::DomainError;
use domain::ids::FirmwareId;
use service::firmware;
use store::firmware::FirmwareTarget;

use super::{FirmwareItem, form::Form, load_item, storage};
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
    request_body(content = super::form::FirmwareForm, content_type = "multipart/form-data", description = "Inverter firmware: fields `name`, `version`, `productId` (empty clears it), `hardwareVersion`, `changeLog`, `changeLogEn`, `enabled` (`true`/`false`) as text, and `file` (.bin or .hex, at most 1.5 MB; required for a new one); `id` to edit one, `target` (`inverter` or `gateway`), `typeId` (the inverter-type label), `upgradeMode`, `firmwareType`"),
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

/// Uploads or edits firmware of `target` (an edit reads it from the row) from `form`: the use
/// case checks it, the file is stored under the name the row will hold, then the use case
/// writes the row; a failed write removes the new file, a replaced file goes after it.
pub(crate) async fn write(
    app: &AppState,
    me: &CurrentUser,
    target: Option<FirmwareTarget>,
    id: Option<i64>,
    form: &Form,
) -> ApiResult<FirmwareItem> {
    let upload = firmware::Upload {
        target,
        id: id.map(FirmwareId),
        fields: &form.fields,
        file: form.file.as_ref().map(|(n, b)| (n.as_str(), b.as_slice())),
    };
    let draft = firmware::draft(&app.store, &me.actor, &upload).await?;
    let stored_name = match (&form.file, draft.file_ext()) {
        (Some((_, bytes)), Some(ext)) => Some(
            storage::write(app.files(), bytes, ext)
                .await
                .map_err(|e| ApiError::internal("firmware write", e))?,
        ),
        _ => None,
    };
    let saved = firmware::save(
        &app.store,
        &me.actor,
        &draft,
        stored_name.as_deref(),
        now_ms(),
    )
    .await;
    let id = match saved {
        Ok(id) => id,
        Err(e) => {
            if let Some(s) = &stored_name {
                storage::remove(app.files(), s).await;
            }
            return Err(e.into());
        }
    };
    // The row names the new file now: the one it replaced may go.
    if stored_name.is_some()
        && let Some(o) = draft.old()
    {
        storage::remove(app.files(), &o.stored_name).await;
    }
    let item = load_item(app, id).await?;
    tracing::info!(firmware = %id, version = %item.version, target = %item.target, by = %me.id(),
        edit = draft.old().is_some(), "firmware saved");
    Ok(item)
}
