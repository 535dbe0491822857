//! A company's customers: checking an account, adding it as a customer, editing its type and
//! remark, removing it. Everything is confined to one company ([`company_for`]); another
//! company's customer answers 4 `id`, exactly like a missing one. Removing a customer ends the
//! relationship only: the account, its plants and their history stay.

use domain::{
    Code, DomainError, customer,
    ids::{CompanyId, CustomerId, CustomerTypeId},
    policy::Actor,
    user::UserKind,
};
use store::{Store, StoreError, customers::CustomerRow, users::UserRow};

use crate::Result;

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
/// one.
pub async fn check(store: &Store, company: CompanyId, account: &str) -> Result<UserRow> {
    let user = crate::plants::account_user(store, account, "account").await?;
    if user.kind() != UserKind::Owner {
        return Err(DomainError::invalid("account").into());
    }
    if store.is_customer(company, user.id()).await? {
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

/// Adds an owner account as a customer of `company` (`customer.edit`).
pub async fn add(
    store: &Store,
    actor: &Actor,
    company: CompanyId,
    account: &str,
    d: &CustomerDraft<'_>,
    now: i64,
) -> Result<(CustomerId, UserRow)> {
    actor.require_writable()?;
    let user = check(store, company, account).await?;
    let (type_id, remark) = checked(store, company, d).await?;
    match store
        .insert_customer(company, user.id(), type_id, &remark, now)
        .await
    {
        Ok(id) => {
            tracing::info!(customer = id.0, user = user.id, company = company.0, by = %actor.id, "customer added");
            Ok((id, user))
        }
        // Added by someone else since the check.
        Err(StoreError::Conflict(_)) => Err(Code::AlreadyCustomer.into()),
        Err(e) => Err(e.into()),
    }
}

/// One customer of `company`; 4 `id` otherwise.
pub async fn visible(store: &Store, company: CompanyId, id: CustomerId) -> Result<CustomerRow> {
    Ok(store
        .customer(company, id)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?)
}

/// Sets a customer's type and remark. Answers the customer as it was.
pub async fn edit(
    store: &Store,
    actor: &Actor,
    company: CompanyId,
    id: CustomerId,
    d: &CustomerDraft<'_>,
) -> Result<CustomerRow> {
    actor.require_writable()?;
    let before = visible(store, company, id).await?;
    let (type_id, remark) = checked(store, company, d).await?;
    if !store.update_customer(company, id, type_id, &remark).await? {
        return Err(DomainError::invalid("id").into());
    }
    Ok(before)
}

/// Ends `company`'s relationship with a customer. Answers the customer as it was.
pub async fn remove(
    store: &Store,
    actor: &Actor,
    company: CompanyId,
    id: CustomerId,
) -> Result<CustomerRow> {
    actor.require_writable()?;
    let before = visible(store, company, id).await?;
    if !store.delete_customer(company, id).await? {
        return Err(DomainError::invalid("id").into());
    }
    tracing::info!(customer = id.0, user = before.user_id, company = company.0, by = %actor.id, "customer removed");
    Ok(before)
}
