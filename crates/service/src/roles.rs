//! A company's custom roles (`company.role.edit`): creating, changing and deleting them. A role
//! grants only keys its maker holds (`domain::user::grantable_keys`), a company has at most
//! `MAX_CUSTOM_ROLES`, and nobody changes the role they hold themselves (802). Each change
//! writes its audit entry in the same transaction.

use domain::{
    Code, DomainError,
    company::acting_company,
    ids::{CompanyId, RoleId},
    policy::Actor,
    user::{BuiltinRole, MAX_CUSTOM_ROLES, grantable_keys, role_name},
};
use serde_json::json;
use store::{Store, roles::RoleRow};

use crate::{Result, audit};

/// What a role is created or changed with, as the request gave it.
#[derive(Debug, Clone, Copy, Default)]
pub struct RoleDraft<'a> {
    pub name: Option<&'a str>,
    pub permissions: &'a [String],
}

/// Creates a role of the acting company (internal administrators name it): 4 for a bad name
/// or key, 2 for a key the caller lacks, 800 past the limit, 801 for a name the company uses.
pub async fn create(
    store: &Store,
    actor: &Actor,
    asked: Option<i64>,
    d: &RoleDraft<'_>,
    now: i64,
) -> Result<RoleId> {
    actor.require(domain::permissions::COMPANY_ROLE_EDIT)?;
    let company: CompanyId = acting_company(actor, asked)?;
    let name = role_name(d.name)?;
    let keys = grantable_keys(actor, d.permissions)?;
    if store.company_roles(company).await?.len() >= MAX_CUSTOM_ROLES {
        return Err(Code::RoleLimit.into());
    }
    let detail = json!({"name": name, "companyId": company.0, "permissions": keys}).to_string();
    let entry = audit::admin_entry(
        audit::author(actor, None),
        domain::audit_action::ROLE_ADD,
        "role",
        &detail,
        now,
    );
    Ok(store
        .create_role(company, &name, &keys, now, Some(&entry))
        .await?)
}

/// A role of a company the caller sees; any other role answers as missing (4 `role`).
pub async fn visible(store: &Store, actor: &Actor, id: RoleId) -> Result<RoleRow> {
    let missing = || DomainError::with_detail(Code::InvalidParameter, "role");
    let role = store.role(id).await?.ok_or_else(missing)?;
    let seen = role.company_id.is_some_and(|c| actor.can_see_company(c));
    if seen {
        Ok(role)
    } else {
        Err(missing().into())
    }
}

/// A role the caller may change: visible, and not the one they hold (802).
async fn changeable(store: &Store, actor: &Actor, id: RoleId) -> Result<RoleRow> {
    actor.require(domain::permissions::COMPANY_ROLE_EDIT)?;
    let role = visible(store, actor, id).await?;
    if actor.role == Some(role.id) {
        return Err(Code::OwnRoleLocked.into());
    }
    Ok(role)
}

/// Renames a role and/or replaces its permissions; an empty list leaves them as they are (a
/// role always grants something).
pub async fn update(
    store: &Store,
    actor: &Actor,
    id: RoleId,
    d: &RoleDraft<'_>,
    now: i64,
) -> Result<()> {
    let role = changeable(store, actor, id).await?;
    let name = d.name.map(|n| role_name(Some(n))).transpose()?;
    let keys = grantable_keys(actor, d.permissions)?;
    let permissions = (!keys.is_empty()).then_some(keys.as_slice());
    let detail = json!({"name": d.name, "permissions": keys}).to_string();
    let target = format!("role:{}", role.id);
    let entry = audit::admin_entry(
        audit::author(actor, None),
        domain::audit_action::ROLE_EDIT,
        &target,
        &detail,
        now,
    );
    Ok(store
        .update_role(role.id, name.as_deref(), permissions, Some(&entry))
        .await?)
}

/// Deletes a custom role; its holders fall back to the built-in staff role.
pub async fn delete(store: &Store, actor: &Actor, id: RoleId, now: i64) -> Result<()> {
    let role = changeable(store, actor, id).await?;
    let fallback = store.builtin_role(BuiltinRole::CompanyStaff).await?;
    let detail = json!({"name": role.name}).to_string();
    let target = format!("role:{}", role.id);
    let entry = audit::admin_entry(
        audit::author(actor, None),
        domain::audit_action::ROLE_DELETE,
        &target,
        &detail,
        now,
    );
    store.delete_role_to(role.id, fallback, &entry).await?;
    Ok(())
}
