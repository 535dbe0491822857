//! Use cases of company administration: the lookups their rules (in `domain::company`) need,
//! and the writes that follow. Agents are in `agency`.

use domain::{
    Code, DomainError,
    account::{Account, PROFILE_TEXT_MAX, check_password, check_text},
    company::{CompanyDetails, DetailsInput, NewAdmin, new_admin},
    ids::{CompanyId, UserId},
    user::BuiltinRole,
};
use store::{Store, StoreError, companies::AdminAccount};

use crate::Result;

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

/// Checks a new company: details (4), a free name (203), the administrator account (4, 106)
/// and, for a new account, its password (4, 111).
pub async fn prepare_company(
    store: &Store,
    input: &NewCompanyInput<'_>,
) -> Result<PreparedCompany> {
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

/// Creates a prepared company with its administrator (the built-in company-admin role) in
/// one transaction. `password_hash` is the hash of `prepared.password` when there is one.
pub async fn create_company(
    store: &Store,
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
    match store
        .create_company_with_admin(&prepared.details, &admin, role, now)
        .await
    {
        Ok(ids) => Ok(ids),
        // Someone took the name or the account between the checks and the write.
        Err(StoreError::Conflict(what)) if what == "companies" => {
            Err(Code::CompanyNameTaken.into())
        }
        Err(StoreError::Conflict(_)) => Err(Code::OtherCompany.into()),
        Err(e) => Err(e.into()),
    }
}
