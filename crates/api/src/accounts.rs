//! Registration, verification codes and password reset (no sign-in needed).

use axum::extract::State;
use domain::{
    Code, DomainError,
    account::Account,
    codes::Purpose,
    login_guard::{CHECK_ACCOUNT, GET_CODE, RESET_PASSWORD, SIGNUP},
};
use serde::Deserialize;
use service::{codes, login_guard::limit_address, sign_up, users};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    envelope::{Ack, ApiResult, Done, current_lang},
    extract::{Body, ClientIp, Query, num},
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
    let now = now_ms();
    limit_address(&app.store, &GET_CODE, ip, now).await?;
    let account = account_of(q.account.as_deref())?;
    let purpose = Purpose::parse(q.kind.as_deref())?;
    let lang = current_lang();
    codes::request(
        &app.store,
        &app.mailer,
        account.as_str(),
        purpose,
        lang,
        now,
    )
    .await?;
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
    let code = q.code.as_deref().unwrap_or("");
    codes::check(&app.store, account.as_str(), purpose, code, now_ms()).await?;
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
    limit_address(&app.store, &CHECK_ACCOUNT, ip, now_ms()).await?;
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
    #[schema(min_length = 6, max_length = 16)]
    pub password: Option<String>,
    #[serde(default, deserialize_with = "num::opt_text")]
    pub code: Option<String>,
    #[serde(default)]
    #[schema(max_length = 30)]
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
    let now = now_ms();
    limit_address(&app.store, &SIGNUP, ip, now).await?;
    let account = account_of(req.account.as_deref())?;
    let signup = sign_up::SignUp {
        account: &account,
        password: req.password.unwrap_or_default(),
        code: req.code.as_deref().unwrap_or(""),
        nickname: req.nickname.as_deref().unwrap_or(""),
    };
    sign_up::register(&app.store, signup, now).await?;
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
    let now = now_ms();
    limit_address(&app.store, &RESET_PASSWORD, ip, now).await?;
    let account = account_of(req.account.as_deref())?;
    let password = req.password.unwrap_or_default();
    let code = req.code.as_deref().unwrap_or("");
    users::reset_with_code(&app.store, &account, password, code, now).await?;
    Ok(Done)
}
