//! Consent to being a company's customer, both sides. The company (`customer.list.view` to
//! read, `customer.edit` to change) lists the requests it waits on and withdraws them; the owner
//! lists the requests waiting for their answer, with what the company's staff would be able
//! to do on their plants, accepts or declines them, and ends an accepted relation at any time.
//! Someone else's request or relation answers 4 `id`, exactly like a missing one. Rules live in
//! `service::customers` and `service::consent`.

use axum::extract::State;
use domain::ids::CustomerOfferId;
use domain::{Lang, ids::CustomerId, permissions};
use serde::Serialize;
use service::customers::company_for;
use store::customer_offers::CustomerOfferRow;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    audit::author,
    customers::CustomerQuery,
    envelope::{Ack, ApiResult, Data, Done, Envelope, current_lang},
    extract::{PathId, Query},
    session::CurrentUser,
    users::create_at,
};
use domain::time::now_ms;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(made))
        .routes(routes!(withdraw))
        .routes(routes!(received))
        .routes(routes!(accept))
        .routes(routes!(decline))
        .routes(routes!(leave))
        .merge(crate::shares::router())
}

/// Something a company's staff may do on the plants it serves.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Right {
    /// The permission key, e.g. `inverter.power`.
    pub key: String,
    /// Its name in the caller's language.
    pub name: String,
}

/// `keys` with their names in `lang`.
pub(crate) fn rights(keys: Vec<String>, lang: Lang) -> Vec<Right> {
    keys.into_iter()
        .map(|key| {
            let name = permissions::find(&key).map_or_else(|| key.clone(), |p| p.name(lang).into());
            Right { key, name }
        })
        .collect()
}

/// A company's request to an owner account to become its customer.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerOffer {
    /// The request's id.
    pub id: i64,
    pub company_id: i64,
    pub company_name: String,
    /// The account asked.
    pub user_id: i64,
    pub account: String,
    pub nickname: String,
    /// The company's note to the owner.
    pub message: String,
    /// `pending` until answered (an answered request is gone).
    pub status: String,
    /// ISO 8601 with milliseconds and an offset.
    pub create_at: String,
    /// What the company's staff may do on the owner's plants once accepted (the owner's view;
    /// empty in the company's list).
    pub rights: Vec<Right>,
}

pub(crate) fn offer(r: CustomerOfferRow, granted: Vec<String>, lang: Lang) -> CustomerOffer {
    CustomerOffer {
        id: r.id.0,
        company_id: r.company_id.0,
        company_name: r.company_name,
        user_id: r.user_id.0,
        account: r.account,
        nickname: r.nickname,
        message: r.message,
        status: "pending".into(),
        create_at: create_at(r.created_at),
        rights: rights(granted, lang),
    }
}

/// The requests the company waits on, newest first.
#[utoipa::path(get, path = "/api/v1/customer/offers", tag = "customers", params(CustomerQuery),
    security(("bearer" = [])), responses((status = 200, description = "The pending requests; 2", body = Envelope<Vec<CustomerOffer>>)))]
pub async fn made(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<CustomerQuery>,
) -> ApiResult<Data<Vec<CustomerOffer>>> {
    let company = company_for(
        &me.actor,
        q.company_id.filter(|c| *c > 0).map(domain::ids::CompanyId),
        domain::permissions::CUSTOMER_LIST_VIEW,
    )?;
    let rows = service::customers::offers_made(&app.store, company).await?;
    let lang = current_lang();
    Ok(Data(
        rows.into_iter()
            .map(|r| offer(r, Vec::new(), lang))
            .collect(),
    ))
}

/// The company takes back a request the owner has not answered.
#[utoipa::path(post, path = "/api/v1/customer/offer/{id}/withdraw", tag = "customers",
    params(("id" = i64, Path), CustomerQuery), security(("bearer" = [])),
    responses((status = 200, description = "Withdrawn; 2, 4", body = Ack)))]
pub async fn withdraw(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<CustomerOfferId>,
    Query(q): Query<CustomerQuery>,
) -> ApiResult<Done> {
    let company = company_for(
        &me.actor,
        q.company_id.filter(|c| *c > 0).map(domain::ids::CompanyId),
        domain::permissions::CUSTOMER_EDIT,
    )?;
    service::customers::withdraw(
        &app.store,
        &me.actor,
        author(&me, None),
        company,
        id,
        now_ms(),
    )
    .await?;
    Ok(Done)
}

/// The requests waiting for the caller's answer, newest first, each with what the company's
/// staff would be able to do on the caller's plants.
#[utoipa::path(get, path = "/api/v1/customer/offers/received", tag = "customers",
    security(("bearer" = [])), responses((status = 200, description = "The requests to answer", body = Envelope<Vec<CustomerOffer>>)))]
pub async fn received(
    State(app): State<AppState>,
    me: CurrentUser,
) -> ApiResult<Data<Vec<CustomerOffer>>> {
    let rows = service::consent::offers_received(&app.store, &me.actor).await?;
    let lang = current_lang();
    Ok(Data(
        rows.into_iter().map(|(r, g)| offer(r, g, lang)).collect(),
    ))
}

/// The caller accepts a request: they become the company's customer and its staff see their
/// plants.
#[utoipa::path(post, path = "/api/v1/customer/offer/{id}/accept", tag = "customers",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Accepted; 2, 4", body = Ack)))]
pub async fn accept(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<CustomerOfferId>,
) -> ApiResult<Done> {
    service::consent::accept(&app.store, &me.actor, author(&me, None), id, now_ms()).await?;
    Ok(Done)
}

/// The caller declines a request; the company sees it gone.
#[utoipa::path(post, path = "/api/v1/customer/offer/{id}/decline", tag = "customers",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Declined; 2, 4", body = Ack)))]
pub async fn decline(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<CustomerOfferId>,
) -> ApiResult<Done> {
    service::consent::decline(&app.store, &me.actor, author(&me, None), id, now_ms()).await?;
    Ok(Done)
}

/// The caller stops being a company's customer (`id`: the relation's id from
/// `/api/v1/shares`): its staff no longer see the caller's plants.
#[utoipa::path(post, path = "/api/v1/customer/relation/{id}/end", tag = "customers",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Ended; 2, 4", body = Ack)))]
pub async fn leave(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<CustomerId>,
) -> ApiResult<Done> {
    service::consent::leave(&app.store, &me.actor, author(&me, None), id, now_ms()).await?;
    Ok(Done)
}
