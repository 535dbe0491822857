//! A company's staff (`company.user.edit`): adding accounts, editing a colleague's profile,
//! role and access, and deleting them softly. A staff member of another company answers like a
//! missing account (105). Each change writes its audit entry in the same transaction.

use domain::permissions::COMPANY_USER_EDIT;
use domain::{
    Code, DomainError,
    account::{
        Account, PROFILE_TEXT_MAX, check_password, check_text, default_nickname, optional_contact,
        parse_email, parse_phone,
    },
    company::{self, AccessChange},
    ids::{CompanyId, RoleId, UserId},
    policy::Actor,
    user::{BuiltinRole, assignable_role, may_grant},
};
use serde_json::json;
use store::{
    Store,
    users::{NewStaff, StaffEdit, UserRow},
};

use crate::{Result, audit};

/// A role staff of a company may be given: the built-in administrator and staff roles, then
/// the company's own.
#[derive(Debug, Clone)]
pub struct Assignable {
    pub id: RoleId,
    /// `Some` for a built-in role, whose name the caller's language gives.
    pub builtin: Option<BuiltinRole>,
    pub name: String,
}

/// The roles staff of `company` may be given.
pub async fn assignable(store: &Store, company: CompanyId) -> Result<Vec<Assignable>> {
    let mut roles = Vec::new();
    for role in [BuiltinRole::CompanyAdmin, BuiltinRole::CompanyStaff] {
        roles.push(Assignable {
            id: store.builtin_role(role).await?,
            builtin: Some(role),
            name: String::new(),
        });
    }
    for r in store.company_roles(company).await? {
        roles.push(Assignable {
            id: r.id,
            builtin: None,
            name: r.name,
        });
    }
    Ok(roles)
}

/// A role of `company`'s assignable roles (4 `roleId` otherwise) granting nothing the caller
/// lacks (2).
async fn grantable_role(
    store: &Store,
    actor: &Actor,
    company: CompanyId,
    raw: Option<i64>,
) -> Result<RoleId> {
    let ids: Vec<RoleId> = assignable(store, company)
        .await?
        .iter()
        .map(|r| r.id)
        .collect();
    let role = assignable_role(&ids, raw)?;
    may_grant(actor, &store.role_permissions(role).await?)?;
    Ok(role)
}

/// A new staff member as the form gives it.
#[derive(Debug, Clone, Copy, Default)]
pub struct StaffInput<'a> {
    /// Internal administrators name the company; anyone else adds to their own.
    pub company_id: Option<i64>,
    pub account: &'a str,
    pub password: &'a str,
    pub nickname: &'a str,
    pub name: &'a str,
    /// Left out: the account's, when it is an e-mail address.
    pub email: Option<&'a str>,
    /// Left out: the account's, when it is a phone number.
    pub mobile: Option<&'a str>,
    /// As sent: not a number answers 4 `roleId`.
    pub role_id: Option<&'a str>,
}

/// A new staff member that meets the rules; what is left is hashing the password and
/// storing the avatar.
#[derive(Debug, Clone)]
pub struct PreparedStaff {
    pub company: CompanyId,
    pub account: Account,
    pub password: String,
    pub nickname: String,
    pub name: String,
    pub email: String,
    pub mobile: String,
    pub role: RoleId,
}

/// Checks a new staff member: the company (4 `companyId`), the account (4, 104 when taken),
/// the password (4, 111), the profile texts and contacts (4), and a role the caller may give
/// (4 `roleId`, 2).
pub async fn prepare_add(
    store: &Store,
    actor: &Actor,
    input: &StaffInput<'_>,
) -> Result<PreparedStaff> {
    actor.require(COMPANY_USER_EDIT)?;
    actor.require_writable()?;
    let company = company::acting_company(actor, input.company_id)?;
    if store.company(company).await?.is_none() {
        return Err(DomainError::invalid("companyId").into());
    }
    let account = Account::parse(input.account).map_err(|_| DomainError::invalid("account"))?;
    check_password(input.password)?;
    let nickname = check_text("nickname", input.nickname, PROFILE_TEXT_MAX)?;
    let name = check_text("name", input.name, PROFILE_TEXT_MAX)?;
    let email = optional_contact("email", input.email.or(account.email()), parse_email)?;
    let mobile = optional_contact("mobile", input.mobile.or(account.phone()), parse_phone)?;
    let role_id = match input.role_id {
        Some(raw) => Some(
            raw.parse::<i64>()
                .map_err(|_| DomainError::invalid("roleId"))?,
        ),
        None => None,
    };
    let role = grantable_role(store, actor, company, role_id).await?;
    if store.user_by_account(account.as_str()).await?.is_some() {
        return Err(Code::AccountExists.into());
    }
    Ok(PreparedStaff {
        company,
        nickname: default_nickname(&account, nickname),
        account,
        password: input.password.to_string(),
        name,
        email,
        mobile,
        role,
    })
}

/// Creates a prepared staff member with its audit entry: `password_hash` is the hash of
/// `p.password`, `avatar` the stored picture's URL or empty. 104 when the account was taken
/// since the check.
pub async fn add(
    store: &Store,
    actor: &Actor,
    p: &PreparedStaff,
    password_hash: &str,
    avatar: &str,
    now: i64,
) -> Result<UserId> {
    let detail =
        json!({"account": p.account.as_str(), "companyId": p.company.0, "roleId": p.role.0})
            .to_string();
    let entry = audit::admin_entry(
        audit::author(actor, None),
        domain::audit_action::STAFF_ADD,
        "user",
        &detail,
        now,
    );
    let staff = NewStaff {
        account: p.account.as_str(),
        password_hash,
        nickname: &p.nickname,
        name: &p.name,
        email: &p.email,
        mobile: &p.mobile,
        avatar,
        company: p.company,
        role: p.role,
        now,
    };
    Ok(store.create_staff(&staff, Some(&entry)).await?)
}

/// A staff member the caller may manage; anything else answers 105.
async fn managed(store: &Store, actor: &Actor, id: UserId) -> Result<UserRow> {
    actor.require(COMPANY_USER_EDIT)?;
    actor.require_writable()?;
    let user = store.user(id).await?.ok_or(Code::NotRegistered)?;
    if user.deleted_at.is_some() || !company::may_manage_staff(actor, &user.scope()) {
        return Err(Code::NotRegistered.into());
    }
    Ok(user)
}

/// What an edit changes; fields left out keep their value.
#[derive(Debug, Clone, Default)]
pub struct StaffChanges {
    pub nickname: Option<String>,
    pub name: Option<String>,
    pub email: Option<String>,
    pub mobile: Option<String>,
    pub role_id: Option<i64>,
    pub disabled: Option<bool>,
}

/// Edits a colleague's profile, role and access. Nobody changes their own role (802) or
/// disables themselves (4 `disabled`); disabling ends the colleague's sessions.
pub async fn edit(
    store: &Store,
    actor: &Actor,
    id: UserId,
    c: StaffChanges,
    now: i64,
) -> Result<()> {
    let user = managed(store, actor, id).await?;
    let company = user.company().ok_or(Code::NotRegistered)?;
    let role = match c.role_id {
        Some(r) if Some(RoleId(r)) != user.role_id => {
            Some(grantable_role(store, actor, company, Some(r)).await?)
        }
        _ => None,
    };
    let disabled = c.disabled.unwrap_or(user.disabled);
    let change = AccessChange {
        role_changes: role.is_some(),
        disabled_changes: disabled != user.disabled,
    };
    let admin = store.company(company).await?.and_then(|c| c.admin());
    company::check_staff_edit(actor, &user.scope(), admin, change)?;
    let text = |field, new: Option<String>, old: &str| match new {
        Some(v) => check_text(field, &v, PROFILE_TEXT_MAX),
        None => Ok(old.to_string()),
    };
    let edit = StaffEdit {
        nickname: text("nickname", c.nickname, &user.nickname)?,
        name: text("name", c.name, &user.name)?,
        email: match c.email {
            Some(e) => optional_contact("email", Some(&e), parse_email)?,
            None => user.email.clone(),
        },
        mobile: match c.mobile {
            Some(m) => optional_contact("mobile", Some(&m), parse_phone)?,
            None => user.mobile.clone(),
        },
        role: role
            .or(user.role())
            .ok_or_else(|| DomainError::invalid("roleId"))?,
        disabled,
    };
    let detail =
        json!({"roleId": edit.role.0, "disabled": disabled, "nickname": edit.nickname}).to_string();
    let target = format!("user:{id}");
    let entry = audit::admin_entry(
        audit::author(actor, None),
        domain::audit_action::STAFF_EDIT,
        &target,
        &detail,
        now,
    );
    store.update_staff(id, &edit, now, &entry).await?;
    Ok(())
}

/// Deletes a colleague softly: the account is marked deleted and disabled, renamed to free its
/// name, and signed out everywhere; their plants, commands and history stay. Not oneself nor
/// the company's administrator (4 `id`).
pub async fn delete(store: &Store, actor: &Actor, id: UserId, now: i64) -> Result<()> {
    let user = managed(store, actor, id).await?;
    let company = user.company().ok_or(Code::NotRegistered)?;
    let admin = store.company(company).await?.and_then(|c| c.admin());
    company::check_staff_delete(actor, &user.scope(), admin)?;
    let detail = json!({"account": user.account, "companyId": company.0}).to_string();
    let target = format!("user:{id}");
    let entry = audit::admin_entry(
        audit::author(actor, None),
        domain::audit_action::STAFF_DELETE,
        &target,
        &detail,
        now,
    );
    store.delete_staff(id, now, Some(&entry)).await?;
    Ok(())
}
