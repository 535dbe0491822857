//! A company's agents (`company.agent` to read, `company.agent.edit` to change): other
//! companies, named by their administrator's account, whose plants and gateways the company
//! looks after. A company asks; the other company's administrator accepts (see
//! `agent_offers`). Another company's agent answers like a missing one (4 `id`).

use axum::extract::State;
use domain::ids::AgentId;
use domain::ids::AgentOfferId;
use domain::login_guard::ACCOUNT_LOOKUP;
use domain::permissions::COMPANY_AGENT_EDIT;
use serde::{Deserialize, Serialize};
use service::login_guard::limit_caller;
use store::agents::AgentRow;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState, audit,
    company::{CompanyQuery, company_of},
    envelope::{Ack, ApiResult, Data, Done, Envelope},
    extract::{Body, PathId, Query, num},
    paging::{Page, Paging},
    session::CurrentUser,
    users::create_at,
};
use domain::time::now_ms;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(picker))
        .routes(routes!(check))
        .routes(routes!(add))
        .routes(routes!(delete))
        .merge(crate::agent_offers::router())
}

/// An agent of the company.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Agent {
    /// The agent entry's id (for delete).
    pub id: i64,
    /// The agent company.
    pub company_id: i64,
    pub company_name: String,
    /// The agent company's administrator account.
    pub admin_account: String,
    pub contact_name: String,
    pub phone: String,
    pub email: String,
    /// Plants of the agent company.
    pub plants: i64,
    /// Gateways of the agent company.
    pub gateways: i64,
    /// ISO 8601 with milliseconds and an offset.
    pub create_at: String,
}

impl From<AgentRow> for Agent {
    fn from(r: AgentRow) -> Self {
        Agent {
            id: r.id.0,
            company_id: r.agent_company_id.0,
            company_name: r.company_name,
            admin_account: r.admin_account,
            contact_name: r.contact_name,
            phone: r.phone,
            email: r.email,
            plants: r.plants,
            gateways: r.gateways,
            create_at: create_at(r.created_at),
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct AgentQuery {
    /// Part of the agent company's name, any case.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub name: Option<String>,
    /// Internal administrators choose the company; everyone else gets their own.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub company_id: Option<i64>,
}

/// The company's agents, paged.
#[utoipa::path(get, path = "/api/v1/agents", tag = "agents", params(AgentQuery, Paging),
    security(("bearer" = [])), responses((status = 200, description = "A page of agents; 2", body = Envelope<Page<Agent>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<AgentQuery>,
    paging: Paging,
) -> ApiResult<Data<Page<Agent>>> {
    let company = company_of(&me, q.company_id, domain::permissions::COMPANY_AGENT)?;
    let (rows, total) = app
        .store
        .agents(company, q.name.as_deref(), paging.limit(), paging.offset())
        .await?;
    let infos = rows.into_iter().map(Agent::from).collect();
    Ok(Data(Page::new(paging, total, infos)))
}

/// An agent company for pickers.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgentChoice {
    pub company_id: i64,
    pub company_name: String,
}

/// Every agent company of the company, for the `agentCompanyId` pickers.
#[utoipa::path(get, path = "/api/v1/agents/list", tag = "agents", params(CompanyQuery),
    security(("bearer" = [])), responses((status = 200, description = "The agent companies; 2", body = Envelope<Vec<AgentChoice>>)))]
pub async fn picker(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<CompanyQuery>,
) -> ApiResult<Data<Vec<AgentChoice>>> {
    let company = company_of(&me, q.company_id, domain::permissions::COMPANY_AGENT)?;
    let (rows, _) = app.store.agents(company, None, i64::MAX, 0).await?;
    let choices = rows
        .into_iter()
        .map(|r| AgentChoice {
            company_id: r.agent_company_id.0,
            company_name: r.company_name,
        })
        .collect();
    Ok(Data(choices))
}

#[derive(Debug, Default, Deserialize, IntoParams, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct AgentAccount {
    /// The agent company's administrator account.
    #[serde(deserialize_with = "num::opt_text")]
    pub account: Option<String>,
    /// Internal administrators choose the company; everyone else gets their own.
    #[serde(deserialize_with = "num::opt_i64")]
    pub company_id: Option<i64>,
    /// `add` only: a note to the other company with the request, at most 200 characters.
    #[serde(deserialize_with = "num::opt_text")]
    #[schema(max_length = 200)]
    pub message: Option<String>,
}

/// Whether the account's company may be asked to become an agent: 900 the caller or a
/// colleague; 902 for every account that is not another company's administrator (missing,
/// internal, staff or owner alike); 202 already this company's agent or asked; 903 another
/// company's agent; 7 past the caller's limit of account checks.
#[utoipa::path(get, path = "/api/v1/agent/check", tag = "agents", params(AgentAccount),
    security(("bearer" = [])), responses((status = 200, description = "May be asked; 2, 7, 202, 900, 902, 903", body = Ack)))]
pub async fn check(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<AgentAccount>,
) -> ApiResult<Done> {
    let company = company_of(&me, q.company_id, COMPANY_AGENT_EDIT)?;
    limit_caller(&app.store, &ACCOUNT_LOOKUP, me.id(), now_ms()).await?;
    let account = q.account.as_deref().unwrap_or("");
    service::agency::check_agent_account(&app.store, &me.actor, company, account).await?;
    Ok(Done)
}

/// Asks the account's company to become an agent: nothing changes until that company's
/// administrator accepts. Answers the request's id (see `/api/v1/agent/offers`).
#[utoipa::path(post, path = "/api/v1/agent", tag = "agents", request_body = AgentAccount,
    security(("bearer" = [])), responses((status = 200, description = "The request's id; codes as the check, and 4 `message`", body = Envelope<i64>)))]
pub async fn add(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<AgentAccount>,
) -> ApiResult<Data<AgentOfferId>> {
    let company = company_of(&me, req.company_id, domain::permissions::COMPANY_AGENT_EDIT)?;
    me.actor.require_writable()?;
    let now = now_ms();
    limit_caller(&app.store, &ACCOUNT_LOOKUP, me.id(), now).await?;
    let account = req.account.as_deref().unwrap_or("");
    let (id, _) = service::agency::offer(
        &app.store,
        &me.actor,
        audit::author(&me, None),
        company,
        account,
        req.message.as_deref(),
        now,
    )
    .await?;
    Ok(Data(id))
}

/// Ends an agency; the agent company and its plants stay.
#[utoipa::path(post, path = "/api/v1/agent/{id}/delete", tag = "agents", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Deleted; 2, 4", body = Ack)))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<AgentId>,
) -> ApiResult<Done> {
    service::agency::remove(&app.store, &me.actor, id, now_ms()).await?;
    Ok(Done)
}
