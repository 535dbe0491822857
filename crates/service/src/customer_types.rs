//! A company's tree of customer types: adding, editing (code unique per company, 5000; the
//! parent a type of the same company that does not make a cycle, 4 `parentId`) and deleting
//! (refused while types are under it, 4 `children`, or customers have it, 4 `customers`).
//! Another company's type answers 4 `id`, exactly like a missing one.

use domain::{
    DomainError,
    customer::{TypeFields, parent_allowed},
    ids::{CompanyId, CustomerTypeId},
    policy::Actor,
};
use serde_json::json;
use store::{
    Store,
    audit::{NewAudit, NewRowsAudit},
    customer_types::{CustomerTypeRow, TypeRemoval, TypeWrite},
};

use crate::{Result, audit};

/// A type as the request gave it.
#[derive(Debug, Clone, Copy, Default)]
pub struct TypeDraft<'a> {
    pub code: Option<&'a str>,
    pub name: Option<&'a str>,
    pub remark: Option<&'a str>,
    /// `None` (or 0 and below) for a top-level type.
    pub parent: Option<i64>,
}

/// One type of `company`; 4 `id` otherwise.
pub async fn visible(
    store: &Store,
    company: CompanyId,
    id: CustomerTypeId,
) -> Result<CustomerTypeRow> {
    Ok(store
        .customer_type(company, id)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?)
}

/// The checked fields and parent of a type (`id` when it exists already).
async fn checked(
    store: &Store,
    company: CompanyId,
    id: Option<CustomerTypeId>,
    d: &TypeDraft<'_>,
) -> Result<(TypeFields, Option<CustomerTypeId>)> {
    let fields = TypeFields::parse(d.code, d.name, d.remark)?;
    let parent = match d.parent.filter(|p| *p > 0) {
        Some(p) => {
            let tree: Vec<(CustomerTypeId, Option<CustomerTypeId>)> = store
                .customer_types(company)
                .await?
                .iter()
                .map(|t| (t.id, t.parent_id))
                .collect();
            if !parent_allowed(&tree, id, CustomerTypeId(p)) {
                return Err(DomainError::invalid("parentId").into());
            }
            Some(CustomerTypeId(p))
        }
        None => None,
    };
    Ok((fields, parent))
}

fn write<'a>(f: &'a TypeFields, parent: Option<CustomerTypeId>) -> TypeWrite<'a> {
    TypeWrite {
        code: &f.code,
        name: &f.name,
        remark: &f.remark,
        parent,
    }
}

/// An entry about a type: filed under no plant, its target the type's code as sent.
fn entry<'a>(
    actor: &'a Actor,
    action: &'a str,
    target: &'a str,
    detail: &'a str,
    now: i64,
) -> NewAudit<'a> {
    audit::admin_entry(audit::author(actor, None), action, target, detail, now)
}

/// A new type of `company`, with its audit entry.
pub async fn add(
    store: &Store,
    actor: &Actor,
    company: CompanyId,
    d: &TypeDraft<'_>,
    now: i64,
) -> Result<CustomerTypeId> {
    actor.require_writable()?;
    let (fields, parent) = checked(store, company, None, d).await?;
    let target = format!("customerType:{}", d.code.unwrap_or("").trim());
    let describe = |id: CustomerTypeId| {
        let detail = json!({"typeId": id.0, "companyId": company.0,
            "parentId": d.parent.filter(|p| *p > 0)});
        (target.clone(), detail.to_string())
    };
    let audit = NewRowsAudit {
        entry: entry(actor, domain::audit_action::CUSTOMER_TYPE_ADD, "", "", now),
        describe: &describe,
    };
    Ok(store
        .insert_customer_type(company, &write(&fields, parent), now, Some(audit))
        .await?)
}

/// Rewrites a type of `company`, with its audit entry. Answers the type as it was.
pub async fn edit(
    store: &Store,
    actor: &Actor,
    company: CompanyId,
    id: CustomerTypeId,
    d: &TypeDraft<'_>,
    now: i64,
) -> Result<CustomerTypeRow> {
    actor.require_writable()?;
    let before = visible(store, company, id).await?;
    let (fields, parent) = checked(store, company, Some(id), d).await?;
    let detail = json!({"typeId": id.0, "companyId": company.0,
        "code": {"from": before.code, "to": d.code.map(str::trim)},
        "parentId": {"from": before.parent_id, "to": d.parent.filter(|p| *p > 0)}})
    .to_string();
    let target = format!("customerType:{}", before.code);
    let audit = entry(
        actor,
        domain::audit_action::CUSTOMER_TYPE_EDIT,
        &target,
        &detail,
        now,
    );
    if !store
        .update_customer_type(company, id, &write(&fields, parent), &audit)
        .await?
    {
        return Err(DomainError::invalid("id").into());
    }
    Ok(before)
}

/// Deletes a type of `company` that has no types under it and no customers, with its audit
/// entry. Answers the type as it was.
pub async fn delete(
    store: &Store,
    actor: &Actor,
    company: CompanyId,
    id: CustomerTypeId,
    now: i64,
) -> Result<CustomerTypeRow> {
    actor.require_writable()?;
    let before = visible(store, company, id).await?;
    let detail = json!({"typeId": id.0, "companyId": company.0, "name": before.name}).to_string();
    let target = format!("customerType:{}", before.code);
    let audit = entry(
        actor,
        domain::audit_action::CUSTOMER_TYPE_DELETE,
        &target,
        &detail,
        now,
    );
    match store
        .delete_customer_type(company, id, Some(&audit))
        .await?
    {
        TypeRemoval::Removed => Ok(before),
        TypeRemoval::Missing => Err(DomainError::invalid("id").into()),
        TypeRemoval::HasChildren => Err(DomainError::invalid("children").into()),
        TypeRemoval::HasCustomers => Err(DomainError::invalid("customers").into()),
    }
}
