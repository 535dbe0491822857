//! Sign-in (the three flows of docs/api-conventions.md), token refresh and sign-out. Each
//! sign-in is a session (store `sessions`): its access tokens name it, its refresh tokens form
//! one rotation chain, and revoking it ends them all.

use axum::{extract::State, middleware};
use serde::{Deserialize, Serialize};
use service::sessions::{self, Caller, Credentials, Issued, Terms};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    envelope::{Ack, ApiError, ApiResult, Data, Done, Envelope},
    extract::{Body, ClientIp, num},
    headers,
    session::CurrentUser,
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
    let caller = match &me {
        Ok(me) => Some(Caller {
            user: me.id(),
            session: &me.session,
        }),
        Err(ApiError::Unauthorized) => None,
        Err(_) => return me.map(|_| Done),
    };
    match sessions::sign_out(&app.store, caller, req.refresh_token.as_deref(), now_ms()).await? {
        true => Ok(Done),
        false => Err(ApiError::Unauthorized),
    }
}

/// The lifetimes and the sign-in slowdown the configuration sets.
fn terms(app: &AppState) -> Terms {
    Terms {
        refresh_ttl_ms: app.config.refresh_token_ttl_secs * 1000,
        delay_step_ms: app.config.sign_in_delay_step_ms,
    }
}

async fn password_grant(
    app: &AppState,
    ClientIp(ip): ClientIp,
    username: &str,
    password: &str,
    code: Option<&str>,
) -> ApiResult<Data<TokenData>> {
    let now = now_ms();
    let credentials = Credentials {
        username,
        password: password.to_string(),
        code,
        ip,
    };
    let issued = sessions::sign_in(&app.store, credentials, &terms(app), now).await?;
    token_data(app, issued, now).map(Data)
}

async fn refresh(app: &AppState, token: &str) -> ApiResult<Data<TokenData>> {
    let now = now_ms();
    match sessions::refresh(&app.store, token, &terms(app), now).await? {
        Some(issued) => token_data(app, issued, now).map(Data),
        None => Err(ApiError::Unauthorized),
    }
}

/// The answer to a sign-in or a refresh: the access token signed for the session, with the
/// new refresh token.
fn token_data(app: &AppState, issued: Issued, now: i64) -> ApiResult<TokenData> {
    let ttl = app.config.access_token_ttl_secs;
    let access_token = app
        .keys
        .issue_access(&issued.user, &issued.session, now, ttl)?;
    Ok(TokenData {
        access_token,
        token_type: "bearer",
        refresh_token: issued.refresh_token,
        expires_in: ttl,
        scope: "all",
    })
}
