//! Manuals of product models (docs/api.md, "Manuals"): the list a caller may read (every
//! manual for administrators, those of the models they have a device of for everyone else),
//! the download behind the same rule, and the administrators' upload, edit and delete
//! (`write.rs`). Files live in the file store under `manuals/`, never under the public
//! `/files/` path: every download is checked.

use domain::ids::ProductId;
mod write;

use axum::{
    extract::{Path, State},
    http::{HeaderValue, header},
    response::Response,
};
use serde::{Deserialize, Serialize};
use store::manuals::{ManualFilter, ManualRow};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{
    router::{OpenApiRouter, UtoipaMethodRouterExt},
    routes,
};

use crate::{
    AppState,
    envelope::{ApiError, ApiResult, Data, Envelope},
    extract::{Query, num},
    paging::{Page, Paging},
    session::CurrentUser,
    users::{create_at, path_id},
};

pub fn router() -> OpenApiRouter<AppState> {
    let upload = || crate::limits::upload(domain::manual::MAX_BYTES);
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(download))
        .routes(routes!(write::add).layer(upload()))
        .routes(routes!(write::edit).layer(upload()))
        .routes(routes!(write::delete))
}

/// The file store's key of a manual's file.
pub fn key(stored_name: &str) -> String {
    format!("manuals/{stored_name}")
}

/// A manual of a product model.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ManualItem {
    pub id: i64,
    pub product_id: i64,
    pub product_name: String,
    pub part_number: String,
    /// The product's category: inverter, gateway, battery, meter.
    pub category: String,
    pub title: String,
    /// en, zh, es or all.
    pub language: String,
    pub version: String,
    /// `YYYY-MM-DD`, or empty.
    pub issued: String,
    /// The name the download is saved under.
    pub file_name: String,
    /// application/pdf, image/png or image/jpeg.
    pub content_type: String,
    /// Bytes.
    pub size: i64,
    pub create_at: String,
    pub update_at: String,
}

impl From<ManualRow> for ManualItem {
    fn from(r: ManualRow) -> Self {
        ManualItem {
            id: r.id.0,
            product_id: r.product_id.0,
            product_name: r.product_name,
            part_number: r.part_number,
            category: r.category,
            title: r.title,
            language: r.language,
            version: r.version,
            issued: r.issued,
            file_name: r.file_name,
            content_type: r.content_type,
            size: r.size,
            create_at: create_at(r.created_at),
            update_at: create_at(r.updated_at),
        }
    }
}

/// The filters of the manual list; empty values mean "any".
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct ManualQuery {
    /// Only this product's manuals.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub product_id: Option<i64>,
    /// Part of the title, product name or part number.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub keyword: Option<String>,
    /// en, zh, es or all.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub language: Option<String>,
}

/// The manuals the caller may read, paged: every manual for those who manage them
/// (`sys.manual.edit`), else the manuals of the product models the caller has a device of.
#[utoipa::path(get, path = "/api/v1/manuals", tag = "manuals", params(Paging, ManualQuery), security(("bearer" = [])),
    responses((status = 200, description = "A page of manuals; 2", body = Envelope<Page<ManualItem>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    paging: Paging,
    Query(q): Query<ManualQuery>,
) -> ApiResult<Data<Page<ManualItem>>> {
    let filter = ManualFilter {
        product: q.product_id.filter(|p| *p > 0).map(ProductId),
        keyword: q.keyword,
        language: q.language.filter(|l| l != "-1"),
        limit: paging.limit(),
        offset: paging.offset(),
    };
    let (rows, total) = service::manuals::list(&app.store, &me.actor, &filter).await?;
    Ok(Data(Page::new(
        paging,
        total,
        rows.into_iter().map(ManualItem::from).collect(),
    )))
}

/// A manual's file, as an attachment under its file name with its own content type. Someone
/// who may not read the manual gets 4100, exactly as for a missing one.
#[utoipa::path(get, path = "/api/v1/manual/{id}/download", tag = "manuals",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The file; an envelope with 2, 4 id or 4100 otherwise", content_type = "application/pdf", body = Vec<u8>)))]
pub async fn download(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let row = service::manuals::visible(&app.store, &me.actor, path_id(&id)?).await?;
    let bytes = app
        .files()
        .get(&key(&row.stored_name))
        .await
        .map_err(|e| ApiError::internal("manual read", e))?
        .ok_or_else(|| ApiError::internal("manual read", "the file is missing"))?;
    let mut response = crate::xlsx::attachment(&row.file_name, bytes);
    let content_type = HeaderValue::from_str(&row.content_type)
        .unwrap_or(HeaderValue::from_static("application/octet-stream"));
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, content_type);
    Ok(response)
}
