//! Sign-in (the three flows of docs/api-conventions.md), token refresh and sign-out. Each
//! sign-in is a session (store `sessions`): its access tokens name it, its refresh tokens form
//! one rotation chain, and revoking it ends them all.

use axum::{extract::State, middleware};
use domain::{Code, account::Account};
use serde::{Deserialize, Serialize};
use store::users::UserRow;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    codes::{self, Purpose},
    envelope::{Ack, ApiError, ApiResult, Data, Done, Envelope},
    extract::{Body, ClientIp, num},
    headers,
    session::{CurrentUser, company_locked, digest, new_refresh_token, new_session_id},
    throttle::Attempt,
};
use domain::time::now_ms;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(token))
        .routes(routes!(token_encrypted))
        // Token answers hold credentials: no cache may keep them.
        .layer(middleware::map_response(headers::no_store))
        .routes(routes!(public_key))
        .routes(routes!(logout))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TokenRequest {
    #[serde(default, rename = "grant_type")]
    pub grant_type: Option<String>,
    #[serde(default, deserialize_with = "num::opt_text")]
    pub username: Option<String>,
    #[serde(default, deserialize_with = "num::opt_text")]
    pub password: Option<String>,
    #[serde(default, rename = "refresh_token")]
    pub refresh_token: Option<String>,
    #[serde(default, rename = "client_id")]
    pub client_id: Option<String>,
    /// Sent by the encrypted flow as a number or a string; not enforced.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub nonce: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub sign: Option<String>,
    #[serde(default, deserialize_with = "num::opt_text")]
    pub area_code: Option<String>,
    /// A sign-in code (`/anonymous/getCode?type=login`): with the password, it signs in when
    /// sign-in is locked (109). Ours; other clients never send it.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub code: Option<String>,
}

/// A sign-in's tokens, named the OAuth way (snake_case), inside the usual envelope.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenData {
    /// The bearer token for `Authorization`.
    pub access_token: String,
    /// Always `bearer`.
    pub token_type: &'static str,
    /// Single use: each refresh answers a new one.
    pub refresh_token: String,
    /// Seconds the access token lasts.
    pub expires_in: i64,
    /// Always `all`.
    pub scope: &'static str,
}

/// Password grant (plaintext password) or refresh grant.
#[utoipa::path(post, path = "/oauth/token", tag = "auth", request_body = TokenRequest,
    responses((status = 200, description = "The tokens; code 102 wrong account or password, 101 disabled, 109 sign-in locked (send `code` from /anonymous/getCode?type=login with the password), 5/6 wrong or expired code", body = Envelope<TokenData>),
              (status = 401, description = "Refresh token unknown, used or expired")))]
pub async fn token(
    State(app): State<AppState>,
    ip: ClientIp,
    Body(req): Body<TokenRequest>,
) -> ApiResult<Data<TokenData>> {
    tracing::debug!(client = ?req.client_id, source = ?req.source, nonce = ?req.nonce,
        signed = req.sign.is_some(), area = ?req.area_code, "token request");
    match req.grant_type.as_deref() {
        Some("refresh_token") => refresh(&app, req.refresh_token.as_deref().unwrap_or("")).await,
        Some("password") | None => {
            let password = req.password.unwrap_or_default();
            let username = req.username.as_deref().unwrap_or("");
            password_grant(&app, ip, username, &password, req.code.as_deref()).await
        }
        Some(_) => Err(domain::DomainError::invalid("grant_type").into()),
    }
}

/// Password grant with the password encrypted by the key of `/anonymous/publicKey`.
#[utoipa::path(post, path = "/oauth/token/new", tag = "auth", request_body = TokenRequest,
    responses((status = 200, description = "The tokens; codes as /oauth/token", body = Envelope<TokenData>)))]
pub async fn token_encrypted(
    State(app): State<AppState>,
    ip: ClientIp,
    Body(req): Body<TokenRequest>,
) -> ApiResult<Data<TokenData>> {
    if req.grant_type.as_deref() == Some("refresh_token") {
        return refresh(&app, req.refresh_token.as_deref().unwrap_or("")).await;
    }
    let sent = req.password.unwrap_or_default();
    // Clients that could not encrypt send the password as it is; both are accepted.
    let password = app.keys.decrypt_password(&sent).unwrap_or(sent);
    let username = req.username.as_deref().unwrap_or("");
    password_grant(&app, ip, username, &password, req.code.as_deref()).await
}

/// The RSA public key for the encrypted login, as one line of base64 DER.
#[utoipa::path(get, path = "/anonymous/publicKey", tag = "auth",
    responses((status = 200, description = "The base64 DER public key", body = Envelope<String>)))]
pub async fn public_key(State(app): State<AppState>) -> Data<String> {
    Data(app.keys.public_key_b64.clone())
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LogoutRequest {
    #[serde(default, rename = "refresh_token", alias = "refreshToken")]
    pub refresh_token: Option<String>,
}

/// Signs out on the server, not only in the browser: ends the session of the access token and
/// the session the named refresh token belongs to (every token of both). A refresh token alone
/// is enough when the access token has expired: holding a token of the chain is the proof.
/// Without a body, every session of the caller ends.
#[utoipa::path(post, path = "/api/v1/user/logout", tag = "auth", request_body = LogoutRequest,
    security(("bearer" = [])), responses((status = 200, description = "Signed out", body = Ack),
        (status = 401, description = "Neither a valid access token nor a refresh token")))]
pub async fn logout(
    State(app): State<AppState>,
    me: Result<CurrentUser, ApiError>,
    Body(req): Body<LogoutRequest>,
) -> ApiResult<Done> {
    let now = now_ms();
    let token = req
        .refresh_token
        .filter(|t| !t.is_empty() && t.len() <= MAX_TOKEN_LEN)
        .map(|t| digest(&t));
    match (me, token) {
        (Ok(me), Some(token)) => {
            app.store
                .revoke_user_session(&me.session, me.id(), now)
                .await?;
            app.store
                .revoke_refresh_token(&token, Some(me.id()), now)
                .await?;
        }
        (Ok(me), None) => {
            app.store.revoke_user_sessions(me.id(), now).await?;
        }
        (Err(ApiError::Unauthorized), Some(token)) => {
            app.store.revoke_refresh_token(&token, None, now).await?;
        }
        (Err(e), _) => return Err(e),
    }
    Ok(Done)
}

async fn password_grant(
    app: &AppState,
    ClientIp(ip): ClientIp,
    username: &str,
    password: &str,
    code: Option<&str>,
) -> ApiResult<Data<TokenData>> {
    // A malformed account is throttled like any other (no existence leak). One with control
    // characters cannot exist and is not looked up: PostgreSQL refuses NUL in text, and the
    // throttle key drops them for the same reason.
    let lookup = !username.chars().any(char::is_control);
    let account = Account::parse(username)
        .map(|a| a.as_str().to_string())
        .unwrap_or_else(|_| {
            username
                .trim()
                .to_lowercase()
                .chars()
                .filter(|c| !c.is_control())
                .take(64)
                .collect()
        });
    let attempt = Attempt::new(&account, ip);
    let now = now_ms();
    // A sign-in code proves the owner is here: it is checked first (5, 6 like every code) and
    // lets the attempt past a lock. Unknown accounts get codes too, so this path looks the same.
    let code = code.map(str::trim).filter(|c| !c.is_empty());
    if let Some(code) = code {
        codes::verify(app, &account, Purpose::Login, code, false).await?;
    }
    let step = app.config.sign_in_delay_step_ms;
    attempt.admit(&app.store, now, code.is_some(), step).await?;

    let user = match lookup {
        true => app.store.user_by_account(&account).await?,
        false => None,
    };
    // Unknown accounts still pay for a hash check, so timing does not tell them apart.
    let stored_hash = user.as_ref().map(|u| u.password_hash.clone());
    let matches = service::passwords::verify(password.to_string(), stored_hash).await?;
    // A code serves one password check, right or wrong.
    if let Some(code) = code {
        codes::verify(app, &account, Purpose::Login, code, true).await?;
    }
    let user = match (user, matches) {
        (Some(user), true) => user,
        _ => {
            attempt.failed(&app.store, now).await?;
            return Err(Code::WrongCredentials.into());
        }
    };
    if user.disabled || company_locked(&app.store, &user).await? {
        return Err(Code::AccountDisabled.into());
    }
    attempt.succeeded(&app.store, now).await?;
    issue_tokens(app, &user, None, now).await.map(Data)
}

/// Refresh tokens longer than this were never issued here (ours are 43 characters).
const MAX_TOKEN_LEN: usize = 200;

/// A used refresh token presented again within this long after its use is taken for a race of
/// the owner's own clients (two tabs refreshing at once, a retry after a lost answer) and only
/// refused; later, it means a copy is in other hands and the whole session ends.
pub const REUSE_GRACE_MS: i64 = 5_000;

async fn refresh(app: &AppState, token: &str) -> ApiResult<Data<TokenData>> {
    if token.is_empty() || token.len() > MAX_TOKEN_LEN {
        return Err(ApiError::Unauthorized);
    }
    let now = now_ms();
    let hash = digest(token);
    let Some(taken) = app.store.take_refresh_token(&hash, now).await? else {
        if app
            .store
            .revoke_reused_chain(&hash, now - REUSE_GRACE_MS, now)
            .await?
        {
            tracing::warn!("a used refresh token came back: its session is revoked");
        }
        return Err(ApiError::Unauthorized);
    };
    let user = app
        .store
        .user(taken.user())
        .await?
        .ok_or(ApiError::Unauthorized)?;
    if user.disabled || user.deleted_at.is_some() {
        return Err(ApiError::Unauthorized);
    }
    if company_locked(&app.store, &user).await? {
        return Err(Code::AccountDisabled.into());
    }
    issue_tokens(app, &user, taken.session_id, now)
        .await
        .map(Data)
}

/// Tokens for `user` in `session`; without one (a sign-in, or a refresh token from before
/// sessions existed) a new session starts.
async fn issue_tokens(
    app: &AppState,
    user: &UserRow,
    session: Option<String>,
    now: i64,
) -> ApiResult<TokenData> {
    let ttl = app.config.access_token_ttl_secs;
    let expires = now + app.config.refresh_token_ttl_secs * 1000;
    let session = match session {
        Some(id) => id,
        None => {
            let id = new_session_id();
            app.store
                .create_session(&id, user.id(), now, expires)
                .await?;
            id
        }
    };
    let access_token = app.keys.issue_access(user, &session, now, ttl)?;
    let refresh_token = new_refresh_token();
    app.store
        .insert_refresh_token(&digest(&refresh_token), user.id(), &session, now, expires)
        .await?;
    Ok(TokenData {
        access_token,
        token_type: "bearer",
        refresh_token,
        expires_in: ttl,
        scope: "all",
    })
}
