//! A company's customers: checking an account, asking it to become a customer, editing a
//! customer's type and remark, removing it. Everything is confined to one company
//! ([`company_for`]); another company's customer answers 4 `id`, exactly like a missing one.
//! Removing a customer ends the relationship only: the account, its plants and their history
//! stay. A company never makes an account its customer on its own: it asks, and the owner
//! accepts or declines (`consent`).

use domain::ids::CustomerOfferId;
use domain::{
    Code, DomainError, customer,
    ids::{CompanyId, CustomerId, CustomerTypeId},
    policy::Actor,
    user::UserKind,
};
use store::{
    Store,
    customer_offers::{CustomerOfferRow, NewCustomerOffer, OfferSide},
    customers::CustomerRow,
    log_pages::Author,
    users::UserRow,
};

use crate::{Result, audit::admin_entry};

/// The company a request is about, after the permission check: the caller's own, or for
/// internal staff the one they name. Anyone without a company gets 2.
pub fn company_for(actor: &Actor, asked: Option<CompanyId>, permission: &str) -> Result<CompanyId> {
    actor.require(permission)?;
    let company = match (actor.is_internal(), asked) {
        (true, Some(id)) => Some(id),
        (true, None) => actor.company,
        (false, _) if actor.kind == UserKind::Company => actor.company,
        (false, _) => None,
    };
    Ok(company.ok_or(Code::NoPermission)?)
}

/// The account that may become a customer of `company`: 4 `account` when it is not an
/// account name or not a plant owner's account, 105 when nobody has it, 207 when it already is
/// one or has been asked and not answered yet.
pub async fn check(store: &Store, company: CompanyId, account: &str) -> Result<UserRow> {
    let user = crate::plants::account_user(store, account, "account").await?;
    if user.kind() != UserKind::Owner {
        return Err(DomainError::invalid("account").into());
    }
    if store.is_customer(company, user.id()).await?
        || store.customer_offer_pending(company, user.id()).await?
    {
        return Err(Code::AlreadyCustomer.into());
    }
    Ok(user)
}

/// What a customer is added or edited with, as the request gave it.
#[derive(Debug, Clone, Copy, Default)]
pub struct CustomerDraft<'a> {
    /// A type of the company; `None` (or 0) for none.
    pub type_id: Option<i64>,
    pub remark: Option<&'a str>,
}

/// The draft's type (4 `typeId` unless it is the company's) and remark (4 `remark`).
async fn checked(
    store: &Store,
    company: CompanyId,
    d: &CustomerDraft<'_>,
) -> Result<(Option<CustomerTypeId>, String)> {
    let remark = customer::remark(d.remark)?;
    let type_id = match d.type_id.filter(|t| *t > 0).map(CustomerTypeId) {
        Some(t) => {
            store
                .customer_type(company, t)
                .await?
                .ok_or_else(|| DomainError::invalid("typeId"))?;
            Some(t)
        }
        None => None,
    };
    Ok((type_id, remark))
}

/// Asks an owner account to become a customer of `company` (`customer.edit`), with a note
/// (4 `message` beyond 200 characters): nothing is visible to the company until the owner
/// accepts. Answers the request's id.
#[allow(clippy::too_many_arguments)]
pub async fn offer(
    store: &Store,
    actor: &Actor,
    by: Author<'_>,
    company: CompanyId,
    account: &str,
    d: &CustomerDraft<'_>,
    message: Option<&str>,
    now: i64,
) -> Result<(CustomerOfferId, UserRow)> {
    actor.require_writable()?;
    let message = customer::offer_message(message)?;
    let user = check(store, company, account).await?;
    let (type_id, remark) = checked(store, company, d).await?;
    let detail = serde_json::json!({"userId": user.id, "companyId": company.0,
        "typeId": type_id.map(|t| t.0)})
    .to_string();
    let audit = admin_entry(
        by,
        domain::audit_action::CUSTOMER_OFFER,
        &user.account,
        &detail,
        now,
    );
    let offer = NewCustomerOffer {
        company,
        user: user.id(),
        type_id,
        remark: &remark,
        message: &message,
        by: actor.id,
        now,
    };
    // Someone else may have asked since the check: the conflict answers 207.
    let id = store.insert_customer_offer(&offer, &audit).await?;
    tracing::info!(offer = %id, user = %user.id, company = %company.0, by = %actor.id, "customer asked");
    Ok((id, user))
}

/// The requests `company` is waiting on, newest first (at most [`OFFERS_MAX`]).
pub async fn offers_made(store: &Store, company: CompanyId) -> Result<Vec<CustomerOfferRow>> {
    Ok(store.customer_offers_made(company, OFFERS_MAX).await?)
}

/// `company` takes back its request `id` (`customer.edit`); 4 `id` when it made none such.
pub async fn withdraw(
    store: &Store,
    actor: &Actor,
    by: Author<'_>,
    company: CompanyId,
    id: CustomerOfferId,
    now: i64,
) -> Result<CustomerOfferRow> {
    actor.require_writable()?;
    let side = OfferSide::Offering(company);
    let offer = store
        .customer_offer(id, side)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?;
    let detail =
        serde_json::json!({"offerId": id, "userId": offer.user_id, "companyId": company.0})
            .to_string();
    let audit = admin_entry(
        by,
        domain::audit_action::CUSTOMER_WITHDRAW,
        &offer.account,
        &detail,
        now,
    );
    if !store.end_customer_offer(id, side, &audit).await? {
        return Err(DomainError::invalid("id").into());
    }
    Ok(offer)
}

/// Pending requests a list shows at most: a company asks one account at a time, and an owner
/// is asked by few companies.
pub const OFFERS_MAX: i64 = 200;

/// One customer of `company`; 4 `id` otherwise.
pub async fn visible(store: &Store, company: CompanyId, id: CustomerId) -> Result<CustomerRow> {
    Ok(store
        .customer(company, id)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?)
}

/// Sets a customer's type and remark, with its audit entry. Answers the customer as it was.
pub async fn edit(
    store: &Store,
    actor: &Actor,
    company: CompanyId,
    id: CustomerId,
    d: &CustomerDraft<'_>,
    now: i64,
) -> Result<CustomerRow> {
    actor.require_writable()?;
    let before = visible(store, company, id).await?;
    let (type_id, remark) = checked(store, company, d).await?;
    let detail = serde_json::json!({"customerId": id.0, "companyId": company.0,
        "typeId": {"from": before.type_id, "to": d.type_id.filter(|t| *t > 0)}})
    .to_string();
    let by = crate::audit::author(actor, None);
    let audit = admin_entry(
        by,
        domain::audit_action::CUSTOMER_EDIT,
        &before.account,
        &detail,
        now,
    );
    if !store
        .update_customer(company, id, type_id, &remark, Some(&audit))
        .await?
    {
        return Err(DomainError::invalid("id").into());
    }
    Ok(before)
}

/// Ends `company`'s relationship with a customer, with its audit entry. Answers the customer
/// as it was.
pub async fn remove(
    store: &Store,
    actor: &Actor,
    company: CompanyId,
    id: CustomerId,
    now: i64,
) -> Result<CustomerRow> {
    actor.require_writable()?;
    let before = visible(store, company, id).await?;
    let detail = serde_json::json!({"customerId": id.0, "userId": before.user_id,
        "companyId": company.0})
    .to_string();
    let by = crate::audit::author(actor, None);
    let audit = admin_entry(
        by,
        domain::audit_action::CUSTOMER_REMOVE,
        &before.account,
        &detail,
        now,
    );
    if !store.delete_customer(company, id, Some(&audit)).await? {
        return Err(DomainError::invalid("id").into());
    }
    tracing::info!(customer = %id.0, user = %before.user_id, company = %company.0, by = %actor.id, "customer removed");
    Ok(before)
}
