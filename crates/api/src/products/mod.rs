//! Products and hardware versions (the catalogue firmware, inverters and the plant wizard refer
//! to): internal administrators read them with `sys.product.view` and change them with
//! `sys.product.edit`; anyone else is refused with code 2. Rules live in
//! `domain::product` and `service::products`; the inverter side is in `inverter`.

mod inverter;
pub(crate) mod wire;

use axum::extract::State;
use domain::permissions::SYS_PRODUCT_VIEW;
use domain::{DomainError, ids::ProductId, product::Category};
use serde::Deserialize;
use service::products;
use store::products::ProductFilter;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    envelope::{Ack, ApiResult, Data, Done, Envelope},
    extract::{Body, PathId, Query, num},
    paging::{Page, Paging},
    session::CurrentUser,
};
use domain::time::now_ms;
use wire::{Product, ProductRequest};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(page, add))
        .routes(routes!(check))
        .routes(routes!(one))
        .routes(routes!(edit))
        .routes(routes!(delete))
        .routes(routes!(inverter::products))
        .routes(routes!(inverter::assign))
        .routes(routes!(inverter::hardware))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct ProductQuery {
    /// Part of the name, part number or manufacturer.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub keyword: Option<String>,
    /// `inverter`, `gateway`, `battery` or `meter`.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub category: Option<String>,
}

/// A product with its hardware versions.
pub(crate) async fn product(app: &AppState, id: ProductId) -> ApiResult<Product> {
    let row = app
        .store
        .product(id)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?;
    let hardware = app.store.hardware(Some(id)).await?;
    Ok(Product::of(&row, &hardware))
}

/// The products, newest first, paged; `keyword` and `category` narrow them.
#[utoipa::path(get, path = "/api/v1/product/", tag = "products", params(Paging, ProductQuery),
    security(("bearer" = [])), responses((status = 200, description = "A page of products; 2", body = Envelope<Page<Product>>)))]
pub async fn page(
    State(app): State<AppState>,
    me: CurrentUser,
    paging: Paging,
    Query(q): Query<ProductQuery>,
) -> ApiResult<Data<Page<Product>>> {
    products::require(&me.actor, SYS_PRODUCT_VIEW)?;
    let category = match q.category.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(raw) => Some(Category::parse(raw).ok_or_else(|| DomainError::invalid("category"))?),
    };
    let filter = ProductFilter {
        keyword: q
            .keyword
            .map(|k| k.trim().to_string())
            .filter(|k| !k.is_empty()),
        category,
        limit: paging.limit(),
        offset: paging.offset(),
    };
    let (rows, total) = app.store.products(&filter).await?;
    let hardware = app.store.hardware(None).await?;
    let infos = rows.iter().map(|p| Product::of(p, &hardware)).collect();
    Ok(Data(Page::new(paging, total, infos)))
}

/// Adds a product and its hardware versions (one transaction). 4 names the failing field;
/// `partNumber` also when taken.
#[utoipa::path(post, path = "/api/v1/product/", tag = "products", request_body = ProductRequest,
    security(("bearer" = [])), responses((status = 200, description = "The new product's id; 2, 4", body = Envelope<i64>)))]
pub async fn add(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<ProductRequest>,
) -> ApiResult<Data<i64>> {
    let id = products::add(&app.store, &me.actor, &req.input(), now_ms()).await?;
    Ok(Data(id.0))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct CheckQuery {
    #[serde(default, deserialize_with = "num::opt_text")]
    pub part_number: Option<String>,
    /// The product being edited (its own part number is free to it).
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub id: Option<i64>,
}

/// 0 when the part number is free (or the edited product's own); 4 `partNumber` when taken or
/// malformed.
#[utoipa::path(get, path = "/api/v1/product/check", tag = "products", params(CheckQuery),
    security(("bearer" = [])), responses((status = 200, description = "Free; 2, 4 partNumber", body = Ack)))]
pub async fn check(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<CheckQuery>,
) -> ApiResult<Done> {
    products::require(&me.actor, SYS_PRODUCT_VIEW)?;
    let part = domain::product::check_part_number(q.part_number.as_deref().unwrap_or_default())?;
    match app.store.product_by_part_number(&part).await? {
        Some(p) if Some(p.id) != q.id.map(ProductId) => {
            Err(DomainError::invalid("partNumber").into())
        }
        _ => Ok(Done),
    }
}

/// One product with its hardware versions; 4 `id` when unknown.
#[utoipa::path(get, path = "/api/v1/product/{id}", tag = "products", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "The product; 2, 4", body = Envelope<Product>)))]
pub async fn one(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<ProductId>,
) -> ApiResult<Data<Product>> {
    products::require(&me.actor, SYS_PRODUCT_VIEW)?;
    Ok(Data(product(&app, id).await?))
}

/// Edits a product; its hardware list is replaced, but a version a firmware file of the
/// product names cannot leave it (4 `hardware`, nothing changes).
#[utoipa::path(post, path = "/api/v1/products/{id}", tag = "products", params(("id" = i64, Path)), request_body = ProductRequest,
    security(("bearer" = [])), responses((status = 200, description = "Saved; 2, 4", body = Ack)))]
pub async fn edit(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<ProductId>,
    Body(req): Body<ProductRequest>,
) -> ApiResult<Done> {
    products::edit(&app.store, &me.actor, id, &req.input(), now_ms()).await?;
    Ok(Done)
}

/// Removes a product and its hardware versions; 4 `inUse` while firmware or devices refer to
/// it.
#[utoipa::path(post, path = "/api/v1/products/{id}/delete", tag = "products", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Removed; 2, 4 id / inUse", body = Ack)))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<ProductId>,
) -> ApiResult<Done> {
    products::remove(&app.store, &me.actor, id, now_ms()).await?;
    Ok(Done)
}
