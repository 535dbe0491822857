//! Registration, verification codes and password reset (no sign-in needed).

use axum::extract::State;
use domain::{
    Code, DomainError,
    account::{Account, check_password},
    user::BuiltinRole,
};
use serde::Deserialize;
use store::users::NewUser;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    codes::{self, Purpose},
    envelope::{Ack, ApiResult, Done, current_lang},
    extract::{Body, ClientIp, Query, num},
    rate_limit,
};
use domain::time::now_ms;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_code))
        .routes(routes!(check_code))
        .routes(routes!(check_account))
        .routes(routes!(signup))
        .routes(routes!(reset_password))
}

/// Clients name the account `account`, `username`, `email`, `mobile` or `phone`.
#[derive(Debug, Deserialize, IntoParams, ToSchema)]
pub struct AccountParams {
    #[serde(
        default,
        alias = "username",
        alias = "email",
        alias = "mobile",
        alias = "phone"
    )]
    pub account: Option<String>,
    /// `register` (default), `reset` or `notify`.
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
    #[serde(default, deserialize_with = "num::opt_text")]
    pub code: Option<String>,
}

fn account_of(raw: Option<&str>) -> Result<Account, DomainError> {
    Account::parse(raw.unwrap_or("")).map_err(|_| DomainError::invalid("account"))
}

/// Sends a verification code. Registration refuses a taken account (103); reset refuses an
/// unknown one (105); `type=login` (the way out of a locked sign-in, 109) answers alike for
/// every account. Sending again within a minute, or more than 10 requests from one address in
/// 15 minutes, answers 7.
#[utoipa::path(get, path = "/anonymous/getCode", tag = "accounts", params(AccountParams),
    responses((status = 200, description = "Sent; 103, 105, 7", body = Ack)))]
pub async fn get_code(
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    Query(q): Query<AccountParams>,
) -> ApiResult<Done> {
    rate_limit::GET_CODE.check(&app.store, ip, now_ms()).await?;
    let account = account_of(q.account.as_deref())?;
    let purpose = Purpose::parse(q.kind.as_deref())?;
    let exists = app.store.user_by_account(account.as_str()).await?.is_some();
    match purpose {
        Purpose::Register if exists => return Err(Code::AlreadyRegistered.into()),
        Purpose::Reset if !exists => return Err(Code::NotRegistered.into()),
        Purpose::Login => {
            codes::send_login(&app, account.as_str(), exists, current_lang()).await?;
            return Ok(Done);
        }
        _ => {}
    }
    codes::send(&app, account.as_str(), purpose, current_lang()).await?;
    Ok(Done)
}

/// Checks a code without using it up (the form checks before its last step).
#[utoipa::path(get, path = "/anonymous/checkCode", tag = "accounts", params(AccountParams),
    responses((status = 200, description = "The code is right; 5 wrong code, 6 expired", body = Ack)))]
pub async fn check_code(
    State(app): State<AppState>,
    Query(q): Query<AccountParams>,
) -> ApiResult<Done> {
    let account = account_of(q.account.as_deref())?;
    let purpose = Purpose::parse(q.kind.as_deref())?;
    codes::verify(
        &app,
        account.as_str(),
        purpose,
        q.code.as_deref().unwrap_or(""),
        false,
    )
    .await?;
    Ok(Done)
}

/// With `type=register`: 0 when the account is free, 103 when taken. Otherwise: 0 when the
/// account exists, 105 when it does not. The registration screen asks once per code it sends,
/// so more than 10 requests from one address in 15 minutes answer 7, as for `getCode`.
#[utoipa::path(get, path = "/anonymous/checkAccount", tag = "accounts", params(AccountParams),
    responses((status = 200, description = "As asked; 103 or 105, 7", body = Ack)))]
pub async fn check_account(
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    Query(q): Query<AccountParams>,
) -> ApiResult<Done> {
    rate_limit::CHECK_ACCOUNT
        .check(&app.store, ip, now_ms())
        .await?;
    let account = account_of(q.account.as_deref())?;
    let exists = app.store.user_by_account(account.as_str()).await?.is_some();
    let registering =
        matches!(Purpose::parse(q.kind.as_deref()), Ok(Purpose::Register)) && q.kind.is_some();
    match (registering, exists) {
        (true, true) => Err(Code::AlreadyRegistered.into()),
        (false, false) => Err(Code::NotRegistered.into()),
        _ => Ok(Done),
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SignupRequest {
    #[serde(
        default,
        alias = "username",
        alias = "email",
        alias = "mobile",
        alias = "phone"
    )]
    pub account: Option<String>,
    #[serde(default)]
    pub password: Option<String>,
    #[serde(default, deserialize_with = "num::opt_text")]
    pub code: Option<String>,
    #[serde(default)]
    pub nickname: Option<String>,
}

/// Creates a plant-owner account after checking the code sent to it. The code is checked
/// before anything about the account, so a wrong or expired code answers 5 or 6 whether the
/// account exists or not (the review enumerated accounts with code "000000"). More than 20
/// requests from one address in 15 minutes answer 7.
#[utoipa::path(post, path = "/anonymous/signup", tag = "accounts", request_body = SignupRequest,
    responses((status = 200, description = "Registered; 4, 5, 6, 7, 103", body = Ack)))]
pub async fn signup(
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    Body(req): Body<SignupRequest>,
) -> ApiResult<Done> {
    rate_limit::SIGNUP.check(&app.store, ip, now_ms()).await?;
    let account = account_of(req.account.as_deref())?;
    let password = req.password.unwrap_or_default();
    check_password(&password)?;
    let nickname = domain::account::check_text(
        "nickname",
        req.nickname.as_deref().unwrap_or(""),
        domain::account::PROFILE_TEXT_MAX,
    )?;
    codes::verify(
        &app,
        account.as_str(),
        Purpose::Register,
        req.code.as_deref().unwrap_or(""),
        true,
    )
    .await?;
    // Only the holder of a registration code gets here, and codes go only to free accounts:
    // this answers the one who registered it in the meantime.
    if app.store.user_by_account(account.as_str()).await?.is_some() {
        return Err(Code::AlreadyRegistered.into());
    }
    let hash = service::passwords::hash(password).await?;
    let role = app.store.builtin_role(BuiltinRole::PlantOwner).await?;
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
        kind: BuiltinRole::PlantOwner.user_kind(),
        company: None,
        role: Some(role),
        user_src: "web",
        now: now_ms(),
    };
    // An account taken since the check answers 103 (the store reports which rule broke).
    let id = app.store.create_user(&new).await?;
    tracing::info!(user = %id, "account registered");
    Ok(Done)
}

/// Sets a new password after checking the code; every session of the account ends. The code
/// is checked first, so a wrong or expired code answers 5 or 6 whether the account exists or
/// not. More than 20 requests from one address in 15 minutes answer 7.
#[utoipa::path(post, path = "/anonymous/resetPwd", tag = "accounts", request_body = SignupRequest,
    responses((status = 200, description = "Password set; 4, 5, 6, 7, 105", body = Ack)))]
pub async fn reset_password(
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    Body(req): Body<SignupRequest>,
) -> ApiResult<Done> {
    rate_limit::RESET_PASSWORD
        .check(&app.store, ip, now_ms())
        .await?;
    let account = account_of(req.account.as_deref())?;
    let password = req.password.unwrap_or_default();
    check_password(&password)?;
    codes::verify(
        &app,
        account.as_str(),
        Purpose::Reset,
        req.code.as_deref().unwrap_or(""),
        true,
    )
    .await?;
    // Reset codes go only to existing accounts; one removed since answers 105.
    let user = app
        .store
        .user_by_account(account.as_str())
        .await?
        .ok_or(Code::NotRegistered)?;
    let hash = service::passwords::hash(password).await?;
    let now = now_ms();
    service::users::reset_password(&app.store, user.id(), &hash, now).await?;
    Ok(Done)
}
