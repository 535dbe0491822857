//! Uploading, editing and deleting manuals (internal administrators with `sys.manual.edit`).
//! The file is checked by its first bytes (PDF, PNG or JPEG; 11 otherwise) and its size (12
//! beyond `domain::manual::MAX_BYTES`, stopped while it streams in), written under a temporary
//! name, then the row, then the file is given its name: a failed upload leaves neither a row
//! without its file nor a stray file. A replaced or deleted file is removed after its row.

use axum::extract::{Multipart, Path, State, multipart::MultipartRejection};
use domain::ids::ManualId;
use domain::{
    Code, DomainError,
    manual::{FileKind, ManualInput, file_name},
};
use store::manuals::ManualFile;

use super::{ManualItem, key};
use crate::{
    AppState, Staged,
    envelope::{Ack, ApiError, ApiResult, Data, Done, Envelope},
    files,
    session::{CurrentUser, random_bytes},
    users::path_id,
};
use domain::time::now_ms;

/// Managing manuals is for internal administrators: checked before the body is read, so an
/// outsider's upload is not even buffered.
fn require(me: &CurrentUser) -> ApiResult<()> {
    if service::manuals::manages(&me.actor) {
        Ok(())
    } else {
        Err(Code::NoPermission.into())
    }
}

fn input(form: &files::Form) -> Result<ManualInput, ApiError> {
    let product_id = match form.text("productId") {
        Some(raw) => Some(
            raw.parse::<i64>()
                .map_err(|_| DomainError::invalid("productId"))?,
        ),
        None => None,
    };
    let text = |k: &str| form.text(k).map(str::to_string);
    Ok(ManualInput {
        product_id,
        title: text("title"),
        language: text("language"),
        version: text("version"),
        issued: text("issued"),
    })
}

/// The form's file checked and staged: the row's file fields and the staged file.
async fn stage(app: &AppState, form: &files::Form) -> ApiResult<Option<(ManualFile, Staged)>> {
    let Some(bytes) = form.file.as_deref() else {
        return Ok(None);
    };
    let kind = FileKind::sniff(bytes).ok_or(Code::UnsupportedFile)?;
    let stored_name = format!("{}.{}", hex::encode(random_bytes::<12>()), kind.extension());
    let staged = app
        .files()
        .stage(&key(&stored_name), bytes)
        .await
        .map_err(|e| ApiError::internal("manual upload", e))?;
    let file = ManualFile {
        file_name: file_name(form.text("fileName"), kind),
        stored_name,
        content_type: kind.content_type().to_string(),
        size: i64::try_from(bytes.len()).unwrap_or(i64::MAX),
    };
    Ok(Some((file, staged)))
}

/// Gives a staged file its name once its row is written, or drops it when the row was not.
async fn settle<T>(result: ApiResult<T>, staged: Option<Staged>) -> ApiResult<T> {
    match (&result, staged) {
        (Ok(_), Some(s)) => s
            .commit()
            .await
            .map_err(|e| ApiError::internal("manual upload", e))?,
        (Err(_), Some(s)) => s.discard().await,
        (_, None) => {}
    }
    result
}

async fn remove_file(app: &AppState, stored_name: &str) {
    if let Err(e) = app.files().delete(&key(stored_name)).await {
        tracing::warn!(error = %e, file = stored_name, "manual file not removed");
    }
}

async fn answer(app: &AppState, me: &CurrentUser, id: ManualId) -> ApiResult<ManualItem> {
    Ok(service::manuals::visible(&app.store, &me.actor, id)
        .await?
        .into())
}

/// The fields of a manual's upload or edit, as the API document describes the multipart form
/// (every field is text; the limits are those `domain::manual` checks).
#[derive(utoipa::ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code)] // a description of the form, never built: `files::form` reads it
pub(crate) struct ManualForm {
    product_id: i64,
    #[schema(min_length = 1, max_length = 100)]
    title: String,
    /// `en`, `zh`, `es` or `all`.
    language: String,
    #[schema(max_length = 32)]
    version: Option<String>,
    /// `YYYY-MM-DD`.
    issued: Option<String>,
    /// The name the download is saved under.
    file_name: Option<String>,
    /// PDF, PNG or JPEG, at most 20 MB; required for a new one.
    #[schema(value_type = Option<String>, format = Binary)]
    file: Option<Vec<u8>>,
}

/// Uploads a manual. Multipart: `file` (PDF, PNG or JPEG, at most 20 MB), `fileName` (the name
/// the download is saved under), `productId`, `title`, `language` (en, zh, es or all),
/// `version`, `issued` (`YYYY-MM-DD`).
#[utoipa::path(post, path = "/api/v1/manual", tag = "manuals", security(("bearer" = [])),
    request_body(content = ManualForm, content_type = "multipart/form-data", description = "fields `productId`, `title`, `language`, `version`, `issued` (YYYY-MM-DD), `fileName` as text, and `file` (PDF, PNG or JPEG, at most 20 MB; required)"),
    responses((status = 200, description = "The manual; 2, 4 file/productId/title/language/version/issued, 11 not a PDF, PNG or JPEG, 12 over 20 MB", body = Envelope<ManualItem>)))]
pub async fn add(
    State(app): State<AppState>,
    me: CurrentUser,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<Data<ManualItem>> {
    require(&me)?;
    let form = files::form(multipart, "file", domain::manual::MAX_BYTES).await?;
    let fields = input(&form)?;
    service::manuals::check_edit(&app.store, &me.actor, &fields).await?;
    let Some((file, staged)) = stage(&app, &form).await? else {
        return Err(DomainError::invalid("file").into());
    };
    let added = service::manuals::add(&app.store, &me.actor, &fields, &file, now_ms())
        .await
        .map_err(ApiError::from);
    let id = settle(added, Some(staged)).await?;
    Ok(Data(answer(&app, &me, id).await?))
}

/// Edits a manual: the same form as the upload; without `file` the file stays.
#[utoipa::path(post, path = "/api/v1/manual/{id}", tag = "manuals", params(("id" = i64, Path)), security(("bearer" = [])),
    request_body(content = ManualForm, content_type = "multipart/form-data", description = "fields `productId`, `title`, `language`, `version`, `issued` (YYYY-MM-DD), `fileName` as text, and `file` (PDF, PNG or JPEG, at most 20 MB; without it the file stays)"),
    responses((status = 200, description = "The manual; 2, 4 id/productId/title/language/version/issued, 11, 12, 4100", body = Envelope<ManualItem>)))]
pub async fn edit(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<Data<ManualItem>> {
    require(&me)?;
    let id = path_id(&id)?;
    let form = files::form(multipart, "file", domain::manual::MAX_BYTES).await?;
    let fields = input(&form)?;
    service::manuals::check_edit(&app.store, &me.actor, &fields).await?;
    let staged = stage(&app, &form).await?;
    let (file, staged) = match staged {
        Some((f, s)) => (Some(f), Some(s)),
        None => (None, None),
    };
    let edited =
        service::manuals::edit(&app.store, &me.actor, id, &fields, file.as_ref(), now_ms())
            .await
            .map_err(ApiError::from);
    let old = settle(edited, staged).await?;
    if file.is_some() {
        remove_file(&app, &old).await;
    }
    Ok(Data(answer(&app, &me, id).await?))
}

/// Deletes a manual and its file.
#[utoipa::path(post, path = "/api/v1/manual/{id}/delete", tag = "manuals", params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Envelope; 2, 4 id, 4100", body = Ack)))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Done> {
    require(&me)?;
    let stored = service::manuals::remove(&app.store, &me.actor, path_id(&id)?).await?;
    remove_file(&app, &stored).await;
    Ok(Done)
}
