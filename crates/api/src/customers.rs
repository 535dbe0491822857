//! A company's customers (`customer.list.view` to read, `customer.edit` to change): the paged
//! list, the picker list, checking an account, adding, editing and removing a customer, and
//! the permission tree a customer's account holds. Internal administrators name the company
//! with `companyId`; everyone else works on their own. Another company's customer answers
//! exactly like a missing one (4 `id`). Rules live in `service::customers`.

use domain::ids::CustomerOfferId;
use domain::login_guard::ACCOUNT_LOOKUP;
use service::login_guard::limit_caller;
use std::collections::HashSet;

use axum::extract::{Path, State};
use domain::ids::{CompanyId, CustomerId, CustomerTypeId};
use serde::{Deserialize, Serialize};
use service::customers::{self, CustomerDraft, company_for};
use store::customers::{CustomerFilter, CustomerRow};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    audit::author,
    envelope::{Ack, ApiResult, Data, Done, Envelope, current_lang},
    extract::{Body, Query, num},
    paging::{Page, Paging},
    permissions::{PermissionNode, tree},
    session::CurrentUser,
    users::{create_at, path_id},
};
use domain::time::now_ms;

const VIEW: &str = domain::permissions::CUSTOMER_LIST_VIEW;
const EDIT: &str = domain::permissions::CUSTOMER_EDIT;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(picks))
        .routes(routes!(check))
        .routes(routes!(add))
        .routes(routes!(edit))
        .routes(routes!(remove))
        .routes(routes!(role))
        .merge(crate::customer_offers::router())
        .merge(crate::customer_types::router())
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct CustomerQuery {
    /// Part of the account, nickname or name, any case.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub name: Option<String>,
    /// Only customers of this type; -1 or empty any.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub type_id: Option<i64>,
    /// `check` only: the account (phone or e-mail).
    #[serde(default, deserialize_with = "num::opt_text")]
    pub account: Option<String>,
    /// Internal administrators choose the company; everyone else gets their own.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub company_id: Option<i64>,
}

/// A customer of the company: an owner account it serves.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Customer {
    /// The customer's id (not the account's).
    pub id: i64,
    /// The account's user id.
    pub user_id: i64,
    pub account: String,
    pub nickname: String,
    pub name: String,
    pub email: String,
    pub mobile: String,
    /// The customer's type, null when none.
    pub type_id: Option<i64>,
    /// The type's name, "" when none.
    pub type_name: String,
    pub remark: String,
    /// Plants the account owns.
    pub plants: i64,
    /// ISO 8601 with milliseconds and an offset: when it became a customer.
    pub create_at: String,
    /// The account is disabled: it cannot sign in (internal administrators enable it again).
    pub disabled: bool,
}

fn customer(c: CustomerRow) -> Customer {
    Customer {
        id: c.id.0,
        user_id: c.user_id.0,
        account: c.account,
        nickname: c.nickname,
        name: c.name,
        email: c.email,
        mobile: c.mobile,
        type_id: c.type_id.map(|v| v.0),
        type_name: c.type_name.unwrap_or_default(),
        remark: c.remark,
        plants: c.plants,
        create_at: create_at(c.created_at),
        disabled: c.disabled,
    }
}

fn asked(raw: Option<i64>) -> Option<CompanyId> {
    raw.filter(|c| *c > 0).map(CompanyId)
}

/// The company's customers, newest first, paged.
#[utoipa::path(get, path = "/api/v1/customers", tag = "customers", params(CustomerQuery, Paging),
    security(("bearer" = [])), responses((status = 200, description = "A page of customers; 2", body = Envelope<Page<Customer>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<CustomerQuery>,
    paging: Paging,
) -> ApiResult<Data<Page<Customer>>> {
    let company = company_for(&me.actor, asked(q.company_id), VIEW)?;
    let filter = CustomerFilter {
        name: q
            .name
            .map(|n| n.trim().to_lowercase())
            .filter(|n| !n.is_empty()),
        type_id: q.type_id.filter(|t| *t > 0).map(CustomerTypeId),
        limit: paging.limit(),
        offset: paging.offset(),
    };
    let (rows, total) = app.store.customers(company, &filter).await?;
    let infos = rows.into_iter().map(customer).collect();
    Ok(Data(Page::new(paging, total, infos)))
}

/// A customer as pickers list it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerPick {
    /// The customer's id.
    pub id: i64,
    /// The account's user id (what the gateway and plant lists' `customerId` take).
    pub user_id: i64,
    pub account: String,
    pub nickname: String,
}

/// Every customer of the company, by account, for pickers.
#[utoipa::path(get, path = "/api/v1/customers/list", tag = "customers", params(CustomerQuery),
    security(("bearer" = [])), responses((status = 200, description = "All customers; 2", body = Envelope<Vec<CustomerPick>>)))]
pub async fn picks(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<CustomerQuery>,
) -> ApiResult<Data<Vec<CustomerPick>>> {
    let company = company_for(&me.actor, asked(q.company_id), VIEW)?;
    let rows = app.store.customer_picks(company).await?;
    Ok(Data(
        rows.into_iter()
            .map(|c| CustomerPick {
                id: c.id.0,
                user_id: c.user_id.0,
                account: c.account,
                nickname: c.nickname,
            })
            .collect(),
    ))
}

/// Whether an account may be asked: 105 not registered, 4 `account` not a plant owner's
/// account, 207 already a customer or asked; 7 past the caller's limit of account checks.
#[utoipa::path(get, path = "/api/v1/customer/check", tag = "customers", params(CustomerQuery),
    security(("bearer" = [])), responses((status = 200, description = "May be asked; 2, 4, 7, 105, 207", body = Ack)))]
pub async fn check(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<CustomerQuery>,
) -> ApiResult<Done> {
    let company = company_for(&me.actor, asked(q.company_id), EDIT)?;
    limit_caller(&app.store, &ACCOUNT_LOOKUP, me.id(), now_ms()).await?;
    customers::check(&app.store, company, q.account.as_deref().unwrap_or("")).await?;
    Ok(Done)
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerRequest {
    /// `add` only: the owner account (phone or e-mail).
    #[serde(default, deserialize_with = "num::opt_text")]
    pub account: Option<String>,
    /// A type of the company; null or 0 for none.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub type_id: Option<i64>,
    /// At most 200 characters.
    #[serde(default, deserialize_with = "num::opt_text")]
    #[schema(max_length = 200)]
    pub remark: Option<String>,
    /// Internal administrators choose the company.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub company_id: Option<i64>,
    /// `add` only: a note to the owner with the request, at most 200 characters.
    #[serde(default, deserialize_with = "num::opt_text")]
    #[schema(max_length = 200)]
    pub message: Option<String>,
}

impl CustomerRequest {
    fn draft(&self) -> CustomerDraft<'_> {
        CustomerDraft {
            type_id: self.type_id,
            remark: self.remark.as_deref(),
        }
    }
}

/// Asks an owner account to become a customer. Nothing changes for the company until the owner
/// accepts: then its staff see the owner's plants. Answers the request's id (see
/// `/api/v1/customer/offers`); 207 when the account already is a customer or has been asked.
#[utoipa::path(post, path = "/api/v1/customer", tag = "customers", request_body = CustomerRequest,
    security(("bearer" = [])), responses((status = 200, description = "The request's id; 2, 4, 7, 105, 207", body = Envelope<i64>)))]
pub async fn add(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<CustomerRequest>,
) -> ApiResult<Data<CustomerOfferId>> {
    let company = company_for(&me.actor, asked(req.company_id), EDIT)?;
    let now = now_ms();
    limit_caller(&app.store, &ACCOUNT_LOOKUP, me.id(), now).await?;
    let account = req.account.as_deref().unwrap_or("");
    let (id, _) = customers::offer(
        &app.store,
        &me.actor,
        author(&me, None),
        company,
        account,
        &req.draft(),
        req.message.as_deref(),
        now,
    )
    .await?;
    Ok(Data(id))
}

/// Sets a customer's type and remark.
#[utoipa::path(post, path = "/api/v1/customer/{id}", tag = "customers", request_body = CustomerRequest,
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Saved; 2, 4", body = Ack)))]
pub async fn edit(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Body(req): Body<CustomerRequest>,
) -> ApiResult<Done> {
    let company = company_for(&me.actor, asked(req.company_id), EDIT)?;
    let id = CustomerId(path_id(&id)?);
    customers::edit(&app.store, &me.actor, company, id, &req.draft(), now_ms()).await?;
    Ok(Done)
}

/// Removes a customer: the account keeps its plants, which the company's staff no longer see
/// (unless they belong to the company).
#[utoipa::path(delete, path = "/api/v1/customers/delete/{id}", tag = "customers",
    params(("id" = i64, Path), CustomerQuery), security(("bearer" = [])),
    responses((status = 200, description = "Removed; 2, 4", body = Ack)))]
pub async fn remove(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<CustomerQuery>,
) -> ApiResult<Done> {
    let company = company_for(&me.actor, asked(q.company_id), EDIT)?;
    let id = CustomerId(path_id(&id)?);
    customers::remove(&app.store, &me.actor, company, id, now_ms()).await?;
    Ok(Done)
}

/// What a customer's account may do: its role's permission tree.
#[utoipa::path(get, path = "/api/v1/role/{customerId}", tag = "customers",
    params(("customerId" = i64, Path, description = "the customer's id"), CustomerQuery),
    security(("bearer" = [])), responses((status = 200, description = "ONE root node; 2, 4", body = Envelope<PermissionNode>)))]
pub async fn role(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<CustomerQuery>,
) -> ApiResult<Data<PermissionNode>> {
    let company = company_for(&me.actor, asked(q.company_id), VIEW)?;
    let c = customers::visible(&app.store, company, CustomerId(path_id(&id)?)).await?;
    let keys = match app.store.user(c.user_id).await?.and_then(|u| u.role()) {
        Some(role) => app.store.role_permissions(role).await?,
        None => Vec::new(),
    };
    let granted: HashSet<&str> = keys.iter().map(String::as_str).collect();
    Ok(Data(tree(&granted, current_lang())))
}
