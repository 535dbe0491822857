//! The shared-management screen in one read: who can see the caller's plants and with which
//! rights, and what is shared with them. For everyone: the shares of the plants they own, the
//! plants shared with them, the companies they are a customer of (with what those companies'
//! staff may do) and the customer requests waiting for their answer. For a company's staff
//! with `company.agent`: its agents, the principal it serves and the agent requests both ways.
//! Changes go through the endpoints named on each part.

use axum::extract::State;
use domain::{Lang, user::UserKind};
use serde::Serialize;
use service::{agency, consent};
use store::shares::PlantShareRow;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    agent_offers::{AgentOffer, Principal, agent_offer, principal_of},
    customer_offers::{CustomerOffer, Right, offer, rights},
    envelope::{ApiResult, Data, Envelope, current_lang},
    session::CurrentUser,
    users::create_at,
};

/// Rows each part lists at most.
const PART_MAX: i64 = 500;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(overview))
}

/// One share of one plant.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlantShare {
    pub plant_id: i64,
    pub plant_name: String,
    /// 1 grid-tied, 2 storage AC coupled, 3 storage DC coupled.
    pub plant_type: i64,
    /// The other side: the sharee of a share given, the owner of a share received.
    pub user_id: i64,
    pub account: String,
    pub nickname: String,
    /// `visitor` or `maintainer`.
    pub role: String,
    pub create_at: String,
}

fn share(r: PlantShareRow) -> PlantShare {
    PlantShare {
        plant_id: r.plant_id.0,
        plant_name: r.plant_name,
        plant_type: r.plant_type,
        user_id: r.user_id.0,
        account: r.account,
        nickname: r.nickname,
        role: r.role,
        create_at: create_at(r.created_at),
    }
}

/// A company the caller is a customer of.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ServingCompany {
    /// The relation's id (for `/api/v1/customer/relation/{id}/end`).
    pub id: i64,
    pub company_id: i64,
    pub company_name: String,
    pub create_at: String,
    /// What the company's staff may do on the caller's plants.
    pub rights: Vec<Right>,
}

/// An agent of the caller's company.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgentLink {
    /// The agency's id (for `/api/v1/agent/{id}/delete`).
    pub id: i64,
    pub company_id: i64,
    pub company_name: String,
    pub create_at: String,
}

/// Everything the shared-management screen shows.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SharesOverview {
    /// Shares of the plants the caller owns (cancel: `/api/v1/plant/{id}/cancelShare` with
    /// `userId`).
    pub given: Vec<PlantShare>,
    /// Plants others shared with the caller (leave: `/api/v1/plant/{id}/cancelShare`).
    pub received: Vec<PlantShare>,
    /// Companies the caller is a customer of.
    pub companies: Vec<ServingCompany>,
    /// Customer requests waiting for the caller's answer.
    pub customer_offers: Vec<CustomerOffer>,
    /// Company staff with `company.agent` only: the company's agents.
    pub agents: Vec<AgentLink>,
    /// Company staff with `company.agent` only: the company the caller's company serves.
    pub principal: Option<Principal>,
    /// Company staff with `company.agent` only: agent requests the company made.
    pub agent_offers_made: Vec<AgentOffer>,
    /// Company staff with `company.agent` only: agent requests waiting for the company.
    pub agent_offers_received: Vec<AgentOffer>,
    /// Whether the caller may answer and end agent relations (`company.agent.edit`).
    pub may_edit_agents: bool,
}

/// Who can see the caller's plants and what is shared with them.
#[utoipa::path(get, path = "/api/v1/shares", tag = "plants", security(("bearer" = [])),
    responses((status = 200, description = "The caller's shares and relations", body = Envelope<SharesOverview>)))]
pub async fn overview(
    State(app): State<AppState>,
    me: CurrentUser,
) -> ApiResult<Data<SharesOverview>> {
    let lang = current_lang();
    let store = &app.store;
    let companies = consent::serving(store, &me.actor)
        .await?
        .into_iter()
        .map(|(r, g)| ServingCompany {
            id: r.id.0,
            company_id: r.company_id.0,
            company_name: r.company_name,
            create_at: create_at(r.created_at),
            rights: rights(g, lang),
        })
        .collect();
    let customer_offers = consent::offers_received(store, &me.actor)
        .await?
        .into_iter()
        .map(|(r, g)| offer(r, g, lang))
        .collect();
    let mut out = SharesOverview {
        given: shares(&app, &me, true).await?,
        received: shares(&app, &me, false).await?,
        companies,
        customer_offers,
        agents: Vec::new(),
        principal: None,
        agent_offers_made: Vec::new(),
        agent_offers_received: Vec::new(),
        may_edit_agents: false,
    };
    if me.actor.kind == UserKind::Company && me.actor.has(domain::permissions::COMPANY_AGENT) {
        agency_parts(&app, &me, lang, &mut out).await?;
    }
    Ok(Data(out))
}

async fn shares(app: &AppState, me: &CurrentUser, given: bool) -> ApiResult<Vec<PlantShare>> {
    let rows = app.store.shares_of(me.id(), given, PART_MAX).await?;
    Ok(rows.into_iter().map(share).collect())
}

async fn agency_parts(
    app: &AppState,
    me: &CurrentUser,
    lang: Lang,
    out: &mut SharesOverview,
) -> ApiResult<()> {
    let company = agency::own_company(&me.actor, domain::permissions::COMPANY_AGENT)?;
    let store = &app.store;
    let (agents, _) = store.agents(company, None, PART_MAX, 0).await?;
    out.agents = agents
        .into_iter()
        .map(|a| AgentLink {
            id: a.id.0,
            company_id: a.agent_company_id.0,
            company_name: a.company_name,
            create_at: create_at(a.created_at),
        })
        .collect();
    out.principal = agency::principal(store, company)
        .await?
        .map(|(p, g)| principal_of(p, g, lang));
    let convert = |rows: Vec<(store::agent_offers::AgentOfferRow, Vec<String>)>| {
        rows.into_iter()
            .map(|(r, g)| agent_offer(r, g, lang))
            .collect::<Vec<_>>()
    };
    out.agent_offers_made = convert(agency::offers(store, company, true).await?);
    out.agent_offers_received = convert(agency::offers(store, company, false).await?);
    out.may_edit_agents =
        me.actor.has(domain::permissions::COMPANY_AGENT_EDIT) && !me.actor.read_only;
    Ok(())
}
