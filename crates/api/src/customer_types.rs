//! A company's customer types (`customer.type.list.view` to read, `customer.type.edit` to
//! change): the tree, the flat list, one type, adding, editing and deleting. Internal
//! administrators name the company with `companyId`. Another company's type answers exactly
//! like a missing one (4 `id`). Rules live in `service::customer_types`.

use std::collections::HashMap;

use axum::extract::{Path, State};
use domain::ids::{CompanyId, CustomerTypeId};
use serde::{Deserialize, Serialize};
use service::{
    customer_types::{self, TypeDraft},
    customers::company_for,
};
use store::customer_types::CustomerTypeRow;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    envelope::{Ack, ApiResult, Data, Done, Envelope},
    extract::{Body, Query, num},
    session::CurrentUser,
    users::{create_at, path_id},
};
use domain::time::now_ms;

const VIEW: &str = domain::permissions::CUSTOMER_TYPE_LIST_VIEW;
const EDIT: &str = domain::permissions::CUSTOMER_TYPE_EDIT;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(types_tree))
        .routes(routes!(types_flat))
        .routes(routes!(one, edit))
        .routes(routes!(add))
        .routes(routes!(delete))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct TypeQuery {
    /// Internal administrators choose the company; everyone else gets their own.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub company_id: Option<i64>,
}

fn asked(raw: Option<i64>) -> Option<CompanyId> {
    raw.filter(|c| *c > 0).map(CompanyId)
}

/// A customer type.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerType {
    pub id: i64,
    pub code: String,
    pub name: String,
    pub remark: String,
    /// The type above it, null at the top.
    pub parent_id: Option<i64>,
    /// Customers of this type (not counting the types below it).
    pub customers: i64,
    /// ISO 8601 with milliseconds and an offset.
    pub create_at: String,
}

/// A customer type with the types under it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerTypeNode {
    pub id: i64,
    pub code: String,
    pub name: String,
    pub remark: String,
    pub parent_id: Option<i64>,
    pub customers: i64,
    pub create_at: String,
    #[schema(no_recursion)]
    pub children: Vec<CustomerTypeNode>,
}

/// A customer type as pickers list it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerTypeItem {
    pub id: i64,
    pub code: String,
    pub name: String,
    pub parent_id: Option<i64>,
}

fn one_type(t: &CustomerTypeRow) -> CustomerType {
    CustomerType {
        id: t.id.0,
        code: t.code.clone(),
        name: t.name.clone(),
        remark: t.remark.clone(),
        parent_id: t.parent_id.map(|v| v.0),
        customers: t.customers,
        create_at: create_at(t.created_at),
    }
}

/// The types as a forest; a type whose parent is not among them (never stored) is a root.
fn forest(rows: &[CustomerTypeRow]) -> Vec<CustomerTypeNode> {
    let ids: std::collections::HashSet<_> = rows.iter().map(|t| t.id).collect();
    let mut under: HashMap<Option<CustomerTypeId>, Vec<&CustomerTypeRow>> = HashMap::new();
    for t in rows {
        let parent = t.parent_id.filter(|p| ids.contains(p) && *p != t.id);
        under.entry(parent).or_default().push(t);
    }
    fn build(
        parent: Option<CustomerTypeId>,
        under: &HashMap<Option<CustomerTypeId>, Vec<&CustomerTypeRow>>,
        depth: usize,
    ) -> Vec<CustomerTypeNode> {
        // The depth bound stops on a cycle (which the rules never store).
        if depth > 64 {
            return Vec::new();
        }
        under
            .get(&parent)
            .map(|ts| {
                ts.iter()
                    .map(|t| CustomerTypeNode {
                        id: t.id.0,
                        code: t.code.clone(),
                        name: t.name.clone(),
                        remark: t.remark.clone(),
                        parent_id: t.parent_id.map(|v| v.0),
                        customers: t.customers,
                        create_at: create_at(t.created_at),
                        children: build(Some(t.id), under, depth + 1),
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
    build(None, &under, 0)
}

/// The company's customer types as a tree.
#[utoipa::path(get, path = "/api/v1/customer/types", tag = "customer types", params(TypeQuery),
    security(("bearer" = [])), responses((status = 200, description = "The top-level types with those under them; 2", body = Envelope<Vec<CustomerTypeNode>>)))]
pub async fn types_tree(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<TypeQuery>,
) -> ApiResult<Data<Vec<CustomerTypeNode>>> {
    let company = company_for(&me.actor, asked(q.company_id), VIEW)?;
    let rows = app.store.customer_types(company).await?;
    Ok(Data(forest(&rows)))
}

/// The company's customer types, flat, by code.
#[utoipa::path(get, path = "/api/v1/customerTypes", tag = "customer types", params(TypeQuery),
    security(("bearer" = [])), responses((status = 200, description = "Every type; 2", body = Envelope<Vec<CustomerTypeItem>>)))]
pub async fn types_flat(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<TypeQuery>,
) -> ApiResult<Data<Vec<CustomerTypeItem>>> {
    let company = company_for(&me.actor, asked(q.company_id), VIEW)?;
    let rows = app.store.customer_types(company).await?;
    Ok(Data(
        rows.into_iter()
            .map(|t| CustomerTypeItem {
                id: t.id.0,
                code: t.code,
                name: t.name,
                parent_id: t.parent_id.map(|v| v.0),
            })
            .collect(),
    ))
}

/// One customer type.
#[utoipa::path(get, path = "/api/v1/customerType/{id}", tag = "customer types",
    params(("id" = i64, Path), TypeQuery), security(("bearer" = [])),
    responses((status = 200, description = "The type; 2, 4", body = Envelope<CustomerType>)))]
pub async fn one(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<TypeQuery>,
) -> ApiResult<Data<CustomerType>> {
    let company = company_for(&me.actor, asked(q.company_id), VIEW)?;
    let id = CustomerTypeId(path_id(&id)?);
    let t = customer_types::visible(&app.store, company, id).await?;
    Ok(Data(one_type(&t)))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TypeRequest {
    /// Letters, digits, `-` and `_`, 1 to 20; unique in the company (5000).
    #[serde(default, deserialize_with = "num::opt_text")]
    #[schema(min_length = 1, max_length = 20)]
    pub code: Option<String>,
    /// 1 to 30 characters.
    #[serde(default, deserialize_with = "num::opt_text")]
    #[schema(min_length = 1, max_length = 30)]
    pub name: Option<String>,
    /// At most 200 characters.
    #[serde(default, deserialize_with = "num::opt_text")]
    #[schema(max_length = 200)]
    pub remark: Option<String>,
    /// A type of the same company, not this one nor one below it; null or 0 at the top.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub parent_id: Option<i64>,
    /// Internal administrators choose the company.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub company_id: Option<i64>,
}

impl TypeRequest {
    fn draft(&self) -> TypeDraft<'_> {
        TypeDraft {
            code: self.code.as_deref(),
            name: self.name.as_deref(),
            remark: self.remark.as_deref(),
            parent: self.parent_id,
        }
    }
}

/// A new customer type.
#[utoipa::path(post, path = "/api/v1/customerType", tag = "customer types", request_body = TypeRequest,
    security(("bearer" = [])), responses((status = 200, description = "The new type's id; 2, 4, 5000", body = Envelope<i64>)))]
pub async fn add(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<TypeRequest>,
) -> ApiResult<Data<i64>> {
    let company = company_for(&me.actor, asked(req.company_id), EDIT)?;
    let id = customer_types::add(&app.store, &me.actor, company, &req.draft(), now_ms()).await?;
    Ok(Data(id.0))
}

/// Rewrites a customer type.
#[utoipa::path(post, path = "/api/v1/customerType/{id}", tag = "customer types", request_body = TypeRequest,
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Saved; 2, 4, 5000", body = Ack)))]
pub async fn edit(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Body(req): Body<TypeRequest>,
) -> ApiResult<Done> {
    let company = company_for(&me.actor, asked(req.company_id), EDIT)?;
    let id = CustomerTypeId(path_id(&id)?);
    customer_types::edit(&app.store, &me.actor, company, id, &req.draft(), now_ms()).await?;
    Ok(Done)
}

/// Deletes a customer type: refused while types are under it (4 `children`) or customers
/// have it (4 `customers`).
#[utoipa::path(post, path = "/api/v1/customerType/{id}/delete", tag = "customer types",
    params(("id" = i64, Path), TypeQuery), security(("bearer" = [])),
    responses((status = 200, description = "Deleted; 2, 4", body = Ack)))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<TypeQuery>,
) -> ApiResult<Done> {
    let company = company_for(&me.actor, asked(q.company_id), EDIT)?;
    let id = CustomerTypeId(path_id(&id)?);
    customer_types::delete(&app.store, &me.actor, company, id, now_ms()).await?;
    Ok(Done)
}
