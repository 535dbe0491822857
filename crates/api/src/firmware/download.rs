//! Downloading a firmware file as uploaded (by id; the key of its target).

use axum::{
    extract::{Path, State},
    http::{HeaderValue, header},
    response::Response,
};
use domain::permissions::{FIRMWARE_GATEWAY_VIEW, FIRMWARE_INVERTER_VIEW};

use super::{load, require, storage, view_key};
use crate::{
    AppState,
    envelope::{ApiError, ApiResult},
    session::CurrentUser,
    users::path_id,
};

/// The firmware's file, as an attachment under its uploaded name.
#[utoipa::path(get, path = "/api/v1/firmware/{id}/download", tag = "firmware",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The file; an envelope with 2 or 4 id otherwise", content_type = "application/octet-stream", body = Vec<u8>)))]
pub async fn download(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    require(&me, FIRMWARE_INVERTER_VIEW).or_else(|_| require(&me, FIRMWARE_GATEWAY_VIEW))?;
    let row = load(&app, path_id(&id)?).await?;
    require(&me, view_key(&row.target))?;
    let bytes = storage::read(app.files(), &row.stored_name)
        .await
        .map_err(|e| ApiError::internal("firmware read", e))?
        .ok_or_else(|| ApiError::internal("firmware read", "the file is missing"))?;
    let mut response = crate::xlsx::attachment(&row.file_name, bytes);
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/octet-stream"),
    );
    Ok(response)
}
