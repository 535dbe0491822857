//! Gateway software (`firmware.gateway.view` to read, `firmware.gateway.edit` to change): the
//! list, upload and edit, one file, the form check and the newest enabled software. Enabling,
//! deleting and downloading use the firmware routes by id.

use axum::extract::{Multipart, Path, State, multipart::MultipartRejection};
use domain::ids::InverterTypeId;
use domain::permissions::FIRMWARE_GATEWAY_VIEW;
use store::firmware::FirmwareTarget;

use super::{
    FirmwareItem, form, load_item, load_item_for,
    page::{CheckQuery, PageQuery, firmware_page, run_check},
    require,
    save::write,
};
use crate::{
    AppState,
    envelope::{Ack, ApiResult, Data, Done, Envelope},
    extract::Query,
    paging::{Page, Paging},
    session::CurrentUser,
    users::path_id,
};

/// Gateway software, newest first (`keyword`, `enabled`, `page`, `limit`).
#[utoipa::path(get, path = "/api/v1/firmware/gateway/page", tag = "firmware", params(PageQuery, Paging),
    security(("bearer" = [])),
    responses((status = 200, description = "A page of gateway software; 2", body = Envelope<Page<FirmwareItem>>)))]
pub async fn page(
    State(app): State<AppState>,
    me: CurrentUser,
    paging: Paging,
    Query(q): Query<PageQuery>,
) -> ApiResult<Data<Page<FirmwareItem>>> {
    require(&me, FIRMWARE_GATEWAY_VIEW)?;
    Ok(Data(
        firmware_page(&app, FirmwareTarget::Gateway, paging, &q).await?,
    ))
}

/// Uploads gateway software (multipart: `file`, `name`, `version`, `hardwareVersion`,
/// `productId`, `changeLog`, `changeLogEn`, `enabled`).
#[utoipa::path(post, path = "/api/v1/firmware/gateway/add", tag = "firmware",
    security(("bearer" = [])),
    request_body(content = super::form::FirmwareForm, content_type = "multipart/form-data", description = "Gateway software: fields `name`, `version`, `productId` (empty clears it), `hardwareVersion`, `changeLog`, `changeLogEn`, `enabled` (`true`/`false`) as text, and `file` (.bin or .hex, at most 1.5 MB; required for a new one)"),
    responses((status = 200, description = "The software; 2, 4, 11, 12, 4000, 4002", body = Envelope<FirmwareItem>)))]
pub async fn add(
    State(app): State<AppState>,
    me: CurrentUser,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<Data<FirmwareItem>> {
    let form = form::read(multipart).await?;
    Ok(Data(
        write(&app, &me, Some(FirmwareTarget::Gateway), None, &form).await?,
    ))
}

/// One gateway software.
#[utoipa::path(get, path = "/api/v1/firmware/gateway/{id}", tag = "firmware", params(("id" = i64, Path)),
    security(("bearer" = [])),
    responses((status = 200, description = "The software; 2, 4 id", body = Envelope<FirmwareItem>)))]
pub async fn one(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<FirmwareItem>> {
    require(&me, FIRMWARE_GATEWAY_VIEW)?;
    Ok(Data(
        load_item_for(&app, &id, FirmwareTarget::Gateway).await?,
    ))
}

/// Edits gateway software (the upload's fields; a new `file` replaces the old one).
#[utoipa::path(post, path = "/api/v1/firmware/gateway/{id}", tag = "firmware", params(("id" = i64, Path)),
    security(("bearer" = [])),
    request_body(content = super::form::FirmwareForm, content_type = "multipart/form-data", description = "Gateway software: fields `name`, `version`, `productId` (empty clears it), `hardwareVersion`, `changeLog`, `changeLogEn`, `enabled` (`true`/`false`) as text, and `file` (.bin or .hex, at most 1.5 MB; required for a new one)"),
    responses((status = 200, description = "The software; 2, 4, 11, 12, 4000, 4002", body = Envelope<FirmwareItem>)))]
pub async fn edit(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<Data<FirmwareItem>> {
    let id = path_id(&id)?;
    let form = form::read(multipart).await?;
    Ok(Data(
        write(&app, &me, Some(FirmwareTarget::Gateway), Some(id), &form).await?,
    ))
}

/// Checks a gateway software form: 0 free; 4000 name taken; 4002 version taken; 4 lower.
#[utoipa::path(get, path = "/api/v1/firmware/gateway/check", tag = "firmware", params(CheckQuery),
    security(("bearer" = [])),
    responses((status = 200, description = "0 free; 2, 4, 4000, 4002", body = Ack)))]
pub async fn check(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<CheckQuery>,
) -> ApiResult<Done> {
    require(&me, FIRMWARE_GATEWAY_VIEW)?;
    run_check(&app, FirmwareTarget::Gateway, &q).await?;
    Ok(Done)
}

/// The newest enabled gateway software, or null.
#[utoipa::path(get, path = "/api/v1/firmware/gateway/software", tag = "firmware",
    security(("bearer" = [])),
    responses((status = 200, description = "The software or null; 2", body = Envelope<Option<FirmwareItem>>)))]
pub async fn software(
    State(app): State<AppState>,
    me: CurrentUser,
) -> ApiResult<Data<Option<FirmwareItem>>> {
    require(&me, FIRMWARE_GATEWAY_VIEW)?;
    let newest = app
        .store
        .enabled_firmware(FirmwareTarget::Gateway, InverterTypeId(0))
        .await?
        .into_iter()
        .next();
    Ok(Data(match newest {
        Some(f) => Some(load_item(&app, f.id).await?),
        None => None,
    }))
}
