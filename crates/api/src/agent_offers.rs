//! Consent to being a company's agent, both sides: the principal's requests (withdraw), the
//! requests a company was asked (accept, decline: its own administrators only, never internal
//! staff on its behalf), and the principal an agent company serves (leave at any time).
//! Someone else's request answers 4 `id`, exactly like a missing one. Rules live in
//! `service::agency`.

use axum::extract::State;
use domain::Lang;
use domain::ids::AgentOfferId;
use serde::Serialize;
use service::agency;
use store::agent_offers::{AgentOfferRow, PrincipalRow};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    audit::author,
    customer_offers::{Right, rights},
    envelope::{Ack, ApiResult, Data, Done, Envelope, current_lang},
    extract::PathId,
    session::CurrentUser,
    users::create_at,
};
use domain::time::now_ms;

const VIEW: &str = domain::permissions::COMPANY_AGENT;
const EDIT: &str = domain::permissions::COMPANY_AGENT_EDIT;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(accept))
        .routes(routes!(decline))
        .routes(routes!(withdraw))
        .routes(routes!(principal))
        .routes(routes!(leave))
}

/// A request to become a company's agent.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgentOffer {
    pub id: i64,
    /// The principal asking.
    pub company_id: i64,
    pub company_name: String,
    /// The company asked.
    pub agent_company_id: i64,
    pub agent_company_name: String,
    pub message: String,
    /// `pending` until answered (an answered request is gone).
    pub status: String,
    /// ISO 8601 with milliseconds and an offset.
    pub create_at: String,
    /// What the principal's staff may do on the agent company's plants once accepted.
    pub rights: Vec<Right>,
}

pub(crate) fn agent_offer(r: AgentOfferRow, granted: Vec<String>, lang: Lang) -> AgentOffer {
    AgentOffer {
        id: r.id.0,
        company_id: r.company_id.0,
        company_name: r.company_name,
        agent_company_id: r.agent_company_id.0,
        agent_company_name: r.agent_company_name,
        message: r.message,
        status: "pending".into(),
        create_at: create_at(r.created_at),
        rights: rights(granted, lang),
    }
}

/// The pending requests of the caller's company, both ways.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgentOffers {
    /// Requests the company made, waiting for the other company.
    pub made: Vec<AgentOffer>,
    /// Requests the company was asked, waiting for its answer.
    pub received: Vec<AgentOffer>,
}

/// The company a principal-or-agent request is about: the caller's own.
fn own(me: &CurrentUser, permission: &str) -> ApiResult<domain::ids::CompanyId> {
    Ok(agency::own_company(&me.actor, permission)?)
}

/// The company's pending agent requests, both ways, newest first.
#[utoipa::path(get, path = "/api/v1/agent/offers", tag = "agents", security(("bearer" = [])),
    responses((status = 200, description = "The pending requests; 2", body = Envelope<AgentOffers>)))]
pub async fn list(State(app): State<AppState>, me: CurrentUser) -> ApiResult<Data<AgentOffers>> {
    let company = own(&me, VIEW)?;
    let lang = current_lang();
    let convert = |rows: Vec<(AgentOfferRow, Vec<String>)>| {
        rows.into_iter()
            .map(|(r, g)| agent_offer(r, g, lang))
            .collect::<Vec<_>>()
    };
    Ok(Data(AgentOffers {
        made: convert(agency::offers(&app.store, company, true).await?),
        received: convert(agency::offers(&app.store, company, false).await?),
    }))
}

/// The caller's company accepts a request: it becomes the asking company's agent, whose staff
/// then see its plants and gateways. 903 when it already serves another company.
#[utoipa::path(post, path = "/api/v1/agent/offer/{id}/accept", tag = "agents",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The agency's id; 2, 4, 903", body = Envelope<i64>)))]
pub async fn accept(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<AgentOfferId>,
) -> ApiResult<Data<i64>> {
    let company = own(&me, EDIT)?;
    let (agency, _) = agency::accept(
        &app.store,
        &me.actor,
        author(&me, None),
        company,
        id,
        now_ms(),
    )
    .await?;
    Ok(Data(agency.0))
}

/// The caller's company declines a request it was asked.
#[utoipa::path(post, path = "/api/v1/agent/offer/{id}/decline", tag = "agents",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Declined; 2, 4", body = Ack)))]
pub async fn decline(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<AgentOfferId>,
) -> ApiResult<Done> {
    let company = own(&me, EDIT)?;
    agency::end_offer(
        &app.store,
        &me.actor,
        author(&me, None),
        company,
        id,
        false,
        now_ms(),
    )
    .await?;
    Ok(Done)
}

/// The caller's company takes back a request it made.
#[utoipa::path(post, path = "/api/v1/agent/offer/{id}/withdraw", tag = "agents",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Withdrawn; 2, 4", body = Ack)))]
pub async fn withdraw(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<AgentOfferId>,
) -> ApiResult<Done> {
    let company = own(&me, EDIT)?;
    agency::end_offer(
        &app.store,
        &me.actor,
        author(&me, None),
        company,
        id,
        true,
        now_ms(),
    )
    .await?;
    Ok(Done)
}

/// The company an agent company serves.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Principal {
    /// The agency's id.
    pub id: i64,
    pub company_id: i64,
    pub company_name: String,
    /// ISO 8601 with milliseconds and an offset: since when.
    pub create_at: String,
    /// What the principal's staff may do on the caller's company's plants.
    pub rights: Vec<Right>,
}

pub(crate) fn principal_of(p: PrincipalRow, granted: Vec<String>, lang: Lang) -> Principal {
    Principal {
        id: p.id.0,
        company_id: p.company_id.0,
        company_name: p.company_name,
        create_at: create_at(p.created_at),
        rights: rights(granted, lang),
    }
}

/// The company the caller's company serves as its agent; null when none.
#[utoipa::path(get, path = "/api/v1/agent/principal", tag = "agents", security(("bearer" = [])),
    responses((status = 200, description = "The principal or null; 2", body = Envelope<Option<Principal>>)))]
pub async fn principal(
    State(app): State<AppState>,
    me: CurrentUser,
) -> ApiResult<Data<Option<Principal>>> {
    let company = own(&me, VIEW)?;
    let lang = current_lang();
    let found = agency::principal(&app.store, company).await?;
    Ok(Data(found.map(|(p, g)| principal_of(p, g, lang))))
}

/// The caller's company stops serving its principal, whose staff no longer see its plants.
#[utoipa::path(post, path = "/api/v1/agent/principal/leave", tag = "agents",
    security(("bearer" = [])), responses((status = 200, description = "Ended; 2, 4", body = Ack)))]
pub async fn leave(State(app): State<AppState>, me: CurrentUser) -> ApiResult<Done> {
    let company = own(&me, EDIT)?;
    agency::leave(&app.store, &me.actor, author(&me, None), company, now_ms()).await?;
    Ok(Done)
}
