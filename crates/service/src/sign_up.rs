//! Sign-up: a plant owner registers an account with the verification code sent to it. The
//! code is used up, the account created and its audit entry written in one transaction.

use domain::{
    Code,
    account::{Account, PROFILE_TEXT_MAX, check_password, check_text},
    codes::Purpose,
    ids::UserId,
    user::BuiltinRole,
};
use store::{Store, log_pages::Author, users::NewUser};

use crate::{Result, audit, codes, passwords};

/// A registration as the client sent it.
#[derive(Debug)]
pub struct SignUp<'a> {
    pub account: &'a Account,
    pub password: String,
    pub code: &'a str,
    /// Empty: the account's name before any `@`.
    pub nickname: &'a str,
}

/// Creates a plant-owner account after checking the code sent to it. The code is checked
/// before anything about the account, so a wrong or expired code answers 5 or 6 whether the
/// account exists or not; 4 names a password or nickname the rules refuse, 103 a taken account.
pub async fn register(store: &Store, s: SignUp<'_>, now: i64) -> Result<UserId> {
    let account = s.account;
    check_password(&s.password)?;
    let nickname = check_text("nickname", s.nickname, PROFILE_TEXT_MAX)?;
    let code = codes::check(store, account.as_str(), Purpose::Register, s.code, now).await?;
    // Only the holder of a registration code gets here, and codes go only to free accounts:
    // this answers the one who registered it in the meantime. The code served its one use.
    if store.user_by_account(account.as_str()).await?.is_some() {
        codes::use_up(store, code, now).await?;
        return Err(Code::AlreadyRegistered.into());
    }
    let hash = passwords::hash(s.password).await?;
    let role = BuiltinRole::PlantOwner;
    let role_id = store.builtin_role(role).await?;
    let default_nickname = account
        .as_str()
        .split('@')
        .next()
        .unwrap_or_default()
        .to_string();
    let new = NewUser {
        account: account.as_str(),
        email: account.email().unwrap_or(""),
        mobile: account.phone().unwrap_or(""),
        password_hash: &hash,
        nickname: if nickname.is_empty() {
            &default_nickname
        } else {
            &nickname
        },
        kind: role.user_kind(),
        company: None,
        role: Some(role_id),
        user_src: "web",
        now,
    };
    // The newcomer is the author; their id is the row's, named by the entry's target.
    let by = Author {
        user_id: None,
        account: account.as_str(),
        actor_company_id: None,
        plant_id: None,
        plant_owner_id: None,
        plant_company_id: None,
    };
    let detail = serde_json::json!({"kind": role.user_kind().as_str()}).to_string();
    let entry = audit::admin_entry(
        by,
        domain::audit_action::ACCOUNT_REGISTER,
        "user",
        &detail,
        now,
    );
    match store.register_user(&new, code.id, &entry).await {
        Ok(Some(id)) => {
            tracing::info!(user = %id, "account registered");
            Ok(id)
        }
        // Another request used the code first.
        Ok(None) => Err(Code::CodeWrong.into()),
        Err(e) => Err(e.into()),
    }
}
