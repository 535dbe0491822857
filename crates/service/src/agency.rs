//! A company's agents, with consent. A company (the principal) asks another company's
//! administrator account to become its agent; the asked company's administrator accepts (the
//! principal's staff then see its plants and gateways), declines, or the principal withdraws.
//! Either side may end an accepted agency: the principal by deleting the agent, the agent
//! company by leaving. Every write goes with its audit entry in one transaction.

use domain::ids::AgentOfferId;
use domain::{
    Code, DomainError,
    account::Account,
    company::{AgentCandidate, check_agent},
    customer,
    ids::{AgentId, CompanyId},
    policy::{Actor, served_plant_rights},
    user::UserKind,
};
use store::{
    Store,
    agent_offers::{AgentOfferRow, PrincipalRow},
    log_pages::Author,
};

use crate::{Result, audit::admin_entry, customers::OFFERS_MAX};

/// Checks that the account `raw` may become an agent of `company` (900, 902, 202, 903; see
/// [`check_agent`]; a request not answered yet is 202 too) and answers the agent company.
pub async fn check_agent_account(
    store: &Store,
    actor: &Actor,
    company: CompanyId,
    raw: &str,
) -> Result<CompanyId> {
    let user = match Account::parse(raw) {
        Ok(account) => store.user_by_account(account.as_str()).await?,
        Err(_) => None,
    };
    let candidate = match &user {
        Some(u) => {
            let administers = store.company_administered_by(u.id()).await?;
            let agent_of = match administers {
                Some(c) => store.principal_of(c).await?,
                None => None,
            };
            Some(AgentCandidate {
                user: u.scope(),
                administers,
                agent_of,
            })
        }
        None => None,
    };
    let agent = check_agent(actor, company, candidate.as_ref())?;
    if store.agent_offer_pending(company, agent).await? {
        return Err(Code::AgentExists.into());
    }
    Ok(agent)
}

/// Asks the account's company to become an agent of `company`, with a note (4 `message`).
/// Answers the request's id and the company asked.
pub async fn offer(
    store: &Store,
    actor: &Actor,
    by: Author<'_>,
    company: CompanyId,
    raw: &str,
    message: Option<&str>,
    now: i64,
) -> Result<(AgentOfferId, CompanyId)> {
    actor.require_writable()?;
    let message = customer::offer_message(message)?;
    let agent = check_agent_account(store, actor, company, raw).await?;
    let detail = serde_json::json!({"companyId": company, "agentCompanyId": agent}).to_string();
    let target = format!("company:{}", agent.0);
    let audit = admin_entry(by, domain::audit_action::AGENT_OFFER, &target, &detail, now);
    // A colleague may have asked since the check: the conflict answers 202.
    let id = store
        .insert_agent_offer(company, agent, &message, actor.id, &audit, now)
        .await?;
    Ok((id, agent))
}

/// The company whose side of agencies the caller administers: their own, with
/// `company.agent.edit`. Internal staff do not answer for another company: its consent is its
/// own administrator's.
pub fn own_company(actor: &Actor, permission: &str) -> Result<CompanyId> {
    actor.require(permission)?;
    match (actor.kind, actor.company) {
        (UserKind::Company, Some(c)) => Ok(c),
        _ => Err(Code::NoPermission.into()),
    }
}

/// The requests `company` made (`made`) or was asked, newest first, each with what the
/// principal's staff may do on the agent's plants once accepted.
pub async fn offers(
    store: &Store,
    company: CompanyId,
    made: bool,
) -> Result<Vec<(AgentOfferRow, Vec<String>)>> {
    let rows = store.agent_offers(company, made, OFFERS_MAX).await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let rights = rights_of(store, r.company_id).await?;
        out.push((r, rights));
    }
    Ok(out)
}

/// What the staff of `company` may do on the plants it serves.
pub async fn rights_of(store: &Store, company: CompanyId) -> Result<Vec<String>> {
    Ok(served_plant_rights(
        store.company_staff_permissions(company).await?,
    ))
}

/// The asked company (`agent`) accepts request `id`: it becomes the agent of the company that
/// asked. 4 `id` when `agent` was asked no such thing; 903 when it already serves another.
pub async fn accept(
    store: &Store,
    actor: &Actor,
    by: Author<'_>,
    agent: CompanyId,
    id: AgentOfferId,
    now: i64,
) -> Result<(AgentId, AgentOfferRow)> {
    actor.require_writable()?;
    let offer = store
        .agent_offer(id, agent)
        .await?
        .filter(|o| o.agent_company_id == agent)
        .ok_or_else(|| DomainError::invalid("id"))?;
    let detail = serde_json::json!({"offerId": id, "companyId": offer.company_id,
        "agentCompanyId": agent})
    .to_string();
    let target = format!("company:{}", offer.company_id);
    let audit = admin_entry(
        by,
        domain::audit_action::AGENT_ACCEPT,
        &target,
        &detail,
        now,
    );
    match store.accept_agent_offer(id, agent, &audit, now).await? {
        Some((agency, _)) => Ok((agency, offer)),
        None => Err(DomainError::invalid("id").into()),
    }
}

/// Ends a request `company` made (`made`: withdraws) or was asked (declines); 4 `id` when it
/// has none such.
pub async fn end_offer(
    store: &Store,
    actor: &Actor,
    by: Author<'_>,
    company: CompanyId,
    id: AgentOfferId,
    made: bool,
    now: i64,
) -> Result<AgentOfferRow> {
    actor.require_writable()?;
    let offer = store
        .agent_offer(id, company)
        .await?
        .filter(|o| {
            let side = if made {
                o.company_id
            } else {
                o.agent_company_id
            };
            side == company
        })
        .ok_or_else(|| DomainError::invalid("id"))?;
    let action = if made {
        domain::audit_action::AGENT_WITHDRAW
    } else {
        domain::audit_action::AGENT_DECLINE
    };
    let detail = serde_json::json!({"offerId": id, "companyId": offer.company_id,
        "agentCompanyId": offer.agent_company_id})
    .to_string();
    let target = format!("company:{}", offer.agent_company_id);
    let audit = admin_entry(by, action, &target, &detail, now);
    if !store.end_agent_offer(id, company, &audit).await? {
        return Err(DomainError::invalid("id").into());
    }
    Ok(offer)
}

/// The principal `company` serves as an agent, with what the principal's staff may do on its
/// plants.
pub async fn principal(
    store: &Store,
    company: CompanyId,
) -> Result<Option<(PrincipalRow, Vec<String>)>> {
    match store.principal(company).await? {
        Some(p) => {
            let rights = rights_of(store, p.company_id).await?;
            Ok(Some((p, rights)))
        }
        None => Ok(None),
    }
}

/// The agent company `company` stops serving its principal; 4 `id` when it serves none.
pub async fn leave(
    store: &Store,
    actor: &Actor,
    by: Author<'_>,
    company: CompanyId,
    now: i64,
) -> Result<PrincipalRow> {
    actor.require_writable()?;
    let p = store
        .principal(company)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?;
    let detail =
        serde_json::json!({"companyId": p.company_id, "agentCompanyId": company.0}).to_string();
    let target = format!("agent:{}", p.id);
    let audit = admin_entry(by, domain::audit_action::AGENT_LEAVE, &target, &detail, now);
    if !store.leave_agency(company, &audit).await? {
        return Err(DomainError::invalid("id").into());
    }
    Ok(p)
}

/// The principal ends an agency (`company.agent.edit`); the agent company and its plants stay.
/// Internal administrators may end any company's agency, others only their own company's; any
/// other agency answers 4 `id`.
pub async fn remove(store: &Store, actor: &Actor, id: AgentId, now: i64) -> Result<()> {
    actor.require(domain::permissions::COMPANY_AGENT_EDIT)?;
    actor.require_writable()?;
    let missing = || DomainError::invalid("id");
    let company = match (actor.is_internal(), actor.company) {
        (true, _) => store.agent_company_of(id).await?.ok_or_else(missing)?,
        (false, Some(c)) => c,
        (false, None) => return Err(missing().into()),
    };
    let agent = store.agent(company, id).await?.ok_or_else(missing)?;
    let detail =
        serde_json::json!({"companyId": company.0, "agentCompanyId": agent.agent_company_id})
            .to_string();
    let target = format!("agent:{id}");
    let audit = admin_entry(
        crate::audit::author(actor, None),
        domain::audit_action::AGENT_DELETE,
        &target,
        &detail,
        now,
    );
    if !store.delete_agent(company, id, Some(&audit)).await? {
        return Err(missing().into());
    }
    Ok(())
}
