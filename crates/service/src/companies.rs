//! Use cases of company administration: the lookups their rules (in `domain::company`) need,
//! and the writes that follow. Agents are in `agency`.

use domain::{
    Code, DomainError,
    account::{Account, PROFILE_TEXT_MAX, check_password, check_text},
    company::{self, CompanyDetails, DetailsInput, NewAdmin, new_admin},
    ids::{CompanyId, UserId},
    policy::Actor,
    user::BuiltinRole,
};
use serde_json::json;
use store::{
    Store,
    audit::{NewAudit, NewRowsAudit},
    companies::AdminAccount,
};

use crate::{Result, audit};

/// Companies are made and disabled by internal administrators with `permission` only (2).
pub fn require_internal(actor: &Actor, permission: &str) -> Result<()> {
    if actor.is_internal() {
        Ok(actor.require(permission)?)
    } else {
        Err(Code::NoPermission.into())
    }
}

/// A company the caller may edit (details, branding); any other, or none, answers 4 `id`.
/// Callers holding neither `sys.company.edit` nor `company.edit` get 2.
pub async fn editable(store: &Store, actor: &Actor, id: CompanyId) -> Result<CompanyId> {
    if !actor.has(domain::permissions::SYS_COMPANY_EDIT)
        && !actor.has(domain::permissions::COMPANY_EDIT)
    {
        return Err(Code::NoPermission.into());
    }
    actor.require_writable()?;
    let exists = store.company(id).await?.is_some();
    if exists && company::may_edit_company(actor, id) {
        Ok(id)
    } else {
        Err(DomainError::invalid("id").into())
    }
}

/// An entry about company `id`.
fn entry<'a>(
    actor: &'a Actor,
    action: &'a str,
    target: &'a str,
    detail: &'a str,
    now: i64,
) -> NewAudit<'a> {
    audit::admin_entry(audit::author(actor, None), action, target, detail, now)
}

/// Records that `actor` uploaded a logo or icon for company `company` (an [`editable`] one),
/// now served at `url`. The file is all the upload changed, and it is already saved: the entry
/// is written alone, and a failure to write it is logged rather than answered.
pub async fn logo_uploaded(store: &Store, actor: &Actor, company: CompanyId, url: &str, now: i64) {
    let target = format!("company:{company}");
    let detail = json!({"url": url}).to_string();
    let entry = entry(
        actor,
        domain::audit_action::COMPANY_LOGO_UPLOAD,
        &target,
        &detail,
        now,
    );
    audit::record_alone(store, &entry).await;
}

/// A new company as the form sends it.
#[derive(Debug, Clone, Default)]
pub struct NewCompanyInput<'a> {
    pub details: DetailsInput<'a>,
    pub admin_account: &'a str,
    pub admin_password: &'a str,
    pub admin_nickname: &'a str,
}

/// A new company, checked and ready to create: what is left is hashing the password of a new
/// administrator account (`password` is `Some` exactly then).
#[derive(Debug, Clone)]
pub struct PreparedCompany {
    pub details: CompanyDetails,
    pub account: Account,
    pub admin: NewAdmin,
    pub password: Option<String>,
    pub nickname: String,
}

/// Checks a new company (internal administrators with `sys.company.edit`, 2): details (4), a
/// free name (203), the administrator account (4, 106) and, for a new account, its password
/// (4, 111).
pub async fn prepare_company(
    store: &Store,
    actor: &Actor,
    input: &NewCompanyInput<'_>,
) -> Result<PreparedCompany> {
    require_internal(actor, domain::permissions::SYS_COMPANY_EDIT)?;
    actor.require_writable()?;
    let details = CompanyDetails::parse(&input.details)?;
    if store.company_name_taken(&details.name, None).await? {
        return Err(Code::CompanyNameTaken.into());
    }
    let account =
        Account::parse(input.admin_account).map_err(|_| DomainError::invalid("adminAccount"))?;
    let existing = store.user_by_account(account.as_str()).await?;
    let admin = new_admin(existing.as_ref().map(|u| u.scope()).as_ref())?;
    let password = match admin {
        NewAdmin::Create => {
            check_password(input.admin_password).map_err(|e| retag(e, "adminPassword"))?;
            Some(input.admin_password.to_string())
        }
        NewAdmin::Promote(_) => None,
    };
    let nickname = check_text("adminNickname", input.admin_nickname, PROFILE_TEXT_MAX)?;
    Ok(PreparedCompany {
        details,
        account,
        admin,
        password,
        nickname,
    })
}

fn retag(e: DomainError, field: &str) -> DomainError {
    if e.code == Code::InvalidParameter {
        DomainError::invalid(field)
    } else {
        e
    }
}

/// Creates a prepared company with its administrator (the built-in company-admin role) and
/// its audit entry in one transaction. `password_hash` is the hash of `prepared.password` when
/// there is one.
pub async fn create_company(
    store: &Store,
    actor: &Actor,
    prepared: &PreparedCompany,
    password_hash: Option<&str>,
    now: i64,
) -> Result<(CompanyId, UserId)> {
    let role = store.builtin_role(BuiltinRole::CompanyAdmin).await?;
    let nickname = match prepared.nickname.as_str() {
        "" => prepared
            .account
            .as_str()
            .split('@')
            .next()
            .unwrap_or_default(),
        n => n,
    };
    let admin = match (prepared.admin, password_hash) {
        (NewAdmin::Create, Some(hash)) => AdminAccount::Create {
            account: prepared.account.as_str(),
            email: prepared.account.email().unwrap_or(""),
            mobile: prepared.account.phone().unwrap_or(""),
            password_hash: hash,
            nickname,
        },
        (NewAdmin::Create, None) => return Err(DomainError::invalid("adminPassword").into()),
        (NewAdmin::Promote(user), _) => AdminAccount::Promote(user),
    };
    let describe = |(id, admin): (CompanyId, UserId)| {
        let detail = json!({"name": prepared.details.name, "adminId": admin.0,
            "adminAccount": prepared.account.as_str()});
        (format!("company:{id}"), detail.to_string())
    };
    let audit = NewRowsAudit {
        entry: entry(actor, domain::audit_action::COMPANY_ADD, "", "", now),
        describe: &describe,
    };
    // Someone may take the name or the account between the checks and the write: the store
    // reports which, and the error conversion answers it.
    Ok(store
        .create_company_with_admin(&prepared.details, &admin, role, now, Some(audit))
        .await?)
}

/// A company's details as the form sends them; a name left out keeps the current one.
#[derive(Debug, Clone, Default)]
pub struct DetailsEdit<'a> {
    pub name: Option<&'a str>,
    pub contact_name: &'a str,
    pub email: &'a str,
    pub phone: &'a str,
    pub address: &'a str,
    pub remark: &'a str,
}

/// Replaces an editable company's details (4, 203 when another company has the name).
pub async fn edit(
    store: &Store,
    actor: &Actor,
    id: CompanyId,
    d: &DetailsEdit<'_>,
    now: i64,
) -> Result<()> {
    let id = editable(store, actor, id).await?;
    let current = store
        .company(id)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?;
    let details = CompanyDetails::parse(&DetailsInput {
        name: d.name.unwrap_or(&current.name),
        contact_name: d.contact_name,
        email: d.email,
        phone: d.phone,
        address: d.address,
        remark: d.remark,
    })?;
    if store.company_name_taken(&details.name, Some(id)).await? {
        return Err(Code::CompanyNameTaken.into());
    }
    let detail = json!({"name": details.name, "contactName": details.contact_name,
        "email": details.email, "phone": details.phone})
    .to_string();
    let target = format!("company:{id}");
    let audit = entry(
        actor,
        domain::audit_action::COMPANY_EDIT,
        &target,
        &detail,
        now,
    );
    store.update_company(id, &details, &audit).await?;
    Ok(())
}

/// Disables or enables a company (internal administrators with `sys.company.edit`): its
/// staff's sessions end with it. 4 `id` for an unknown company.
pub async fn set_disabled(
    store: &Store,
    actor: &Actor,
    id: CompanyId,
    disabled: bool,
    now: i64,
) -> Result<()> {
    require_internal(actor, domain::permissions::SYS_COMPANY_EDIT)?;
    actor.require_writable()?;
    let action = if disabled {
        domain::audit_action::COMPANY_DISABLE
    } else {
        domain::audit_action::COMPANY_ENABLE
    };
    let detail = json!({"disabled": disabled}).to_string();
    let target = format!("company:{id}");
    let audit = entry(actor, action, &target, &detail, now);
    if !store
        .set_company_disabled(id, disabled, now, Some(&audit))
        .await?
    {
        return Err(DomainError::invalid("id").into());
    }
    Ok(())
}

/// Sets an editable company's logo and icon (URLs from the upload, or empty to clear).
pub async fn set_logo(
    store: &Store,
    actor: &Actor,
    id: CompanyId,
    logo: &str,
    icon: &str,
    now: i64,
) -> Result<()> {
    let id = editable(store, actor, id).await?;
    let logo = company::logo_url("logoUrl", logo)?;
    let icon = company::logo_url("iconUrl", icon)?;
    let detail = json!({"logoUrl": logo, "iconUrl": icon}).to_string();
    let target = format!("company:{id}");
    let audit = entry(
        actor,
        domain::audit_action::COMPANY_LOGO,
        &target,
        &detail,
        now,
    );
    store.set_company_logo(id, &logo, &icon, &audit).await?;
    Ok(())
}

/// Sets an editable company's theme colour (`#rgb`, `#rrggbb`, or empty for the default).
pub async fn set_theme(
    store: &Store,
    actor: &Actor,
    id: CompanyId,
    color: &str,
    now: i64,
) -> Result<()> {
    let id = editable(store, actor, id).await?;
    let color = company::theme_color(color)?;
    let detail = json!({"themeColor": color}).to_string();
    let target = format!("company:{id}");
    let audit = entry(
        actor,
        domain::audit_action::COMPANY_THEME,
        &target,
        &detail,
        now,
    );
    store.set_company_theme(id, &color, Some(&audit)).await?;
    Ok(())
}
