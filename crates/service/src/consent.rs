//! The owner's side of being a company's customer: the requests waiting for an answer (with
//! what the company's staff would be able to do on the owner's plants), accepting and
//! declining them, the companies the owner is a customer of, and ending such a relation at any
//! time. Another account's request or relation answers 4 `id`, exactly like a missing one.

use domain::ids::CustomerOfferId;
use std::collections::HashMap;

use domain::{
    DomainError,
    ids::{CompanyId, CustomerId},
    policy::Actor,
};
use store::{
    Store,
    customer_offers::{CustomerOfferRow, OfferSide, ServingCompanyRow},
    log_pages::Author,
};

use crate::{Result, agency, audit::admin_entry, customers::OFFERS_MAX};

/// Rights per company, each looked up once per call.
#[derive(Default)]
struct Rights(HashMap<CompanyId, Vec<String>>);

impl Rights {
    async fn of(&mut self, store: &Store, company: CompanyId) -> Result<Vec<String>> {
        if let Some(r) = self.0.get(&company) {
            return Ok(r.clone());
        }
        let r = agency::rights_of(store, company).await?;
        self.0.insert(company, r.clone());
        Ok(r)
    }
}

/// The requests waiting for the caller's answer, newest first, each with what the asking
/// company's staff may do on the caller's plants once accepted.
pub async fn offers_received(
    store: &Store,
    actor: &Actor,
) -> Result<Vec<(CustomerOfferRow, Vec<String>)>> {
    let rows = store.customer_offers_received(actor.id, OFFERS_MAX).await?;
    let mut rights = Rights::default();
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let granted = rights.of(store, r.company_id).await?;
        out.push((r, granted));
    }
    Ok(out)
}

/// The caller accepts request `id`: they become the company's customer, and its staff see
/// their plants. 4 `id` when no such request waits for them.
pub async fn accept(
    store: &Store,
    actor: &Actor,
    by: Author<'_>,
    id: CustomerOfferId,
    now: i64,
) -> Result<CustomerOfferRow> {
    answer(store, actor, by, id, true, now).await
}

/// The caller declines request `id`; 4 `id` when no such request waits for them.
pub async fn decline(
    store: &Store,
    actor: &Actor,
    by: Author<'_>,
    id: CustomerOfferId,
    now: i64,
) -> Result<CustomerOfferRow> {
    answer(store, actor, by, id, false, now).await
}

async fn answer(
    store: &Store,
    actor: &Actor,
    by: Author<'_>,
    id: CustomerOfferId,
    accept: bool,
    now: i64,
) -> Result<CustomerOfferRow> {
    actor.require_writable()?;
    let side = OfferSide::Asked(actor.id);
    let missing = || DomainError::invalid("id");
    let offer = store.customer_offer(id, side).await?.ok_or_else(missing)?;
    let detail = serde_json::json!({"offerId": id, "companyId": offer.company_id,
        "userId": offer.user_id})
    .to_string();
    let target = format!("company:{}", offer.company_id);
    let action = if accept {
        domain::audit_action::CUSTOMER_ACCEPT
    } else {
        domain::audit_action::CUSTOMER_DECLINE
    };
    let audit = admin_entry(by, action, &target, &detail, now);
    let done = if accept {
        store
            .accept_customer_offer(id, actor.id, &audit, now)
            .await?
            .is_some()
    } else {
        store.end_customer_offer(id, side, &audit).await?
    };
    if !done {
        return Err(missing().into());
    }
    tracing::info!(offer = %id, company = %offer.company_id, user = %actor.id, accept, "customer request answered");
    Ok(offer)
}

/// The companies the caller is a customer of, each with what its staff may do on the caller's
/// plants.
pub async fn serving(
    store: &Store,
    actor: &Actor,
) -> Result<Vec<(ServingCompanyRow, Vec<String>)>> {
    let rows = store.serving_companies(actor.id).await?;
    let mut rights = Rights::default();
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let granted = rights.of(store, r.company_id).await?;
        out.push((r, granted));
    }
    Ok(out)
}

/// The caller stops being a customer (relation `id`): the company's staff no longer see their
/// plants (unless a plant belongs to the company). 4 `id` when the relation is not theirs.
pub async fn leave(
    store: &Store,
    actor: &Actor,
    by: Author<'_>,
    id: CustomerId,
    now: i64,
) -> Result<ServingCompanyRow> {
    actor.require_writable()?;
    let missing = || DomainError::invalid("id");
    let relation = store
        .serving_companies(actor.id)
        .await?
        .into_iter()
        .find(|r| r.id == id)
        .ok_or_else(missing)?;
    let detail = serde_json::json!({"customerId": id, "companyId": relation.company_id,
        "userId": actor.id})
    .to_string();
    let target = format!("company:{}", relation.company_id);
    let audit = admin_entry(
        by,
        domain::audit_action::CUSTOMER_LEAVE,
        &target,
        &detail,
        now,
    );
    if !store.leave_customer(id, actor.id, &audit).await? {
        return Err(missing().into());
    }
    tracing::info!(customer = %id.0, company = %relation.company_id, user = %actor.id, "customer relation ended by the owner");
    Ok(relation)
}
