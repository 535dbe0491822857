//! The one place that writes the wire envelope `{code, msg, data, success}` and turns errors
//! into it. The caller's language is read once per request (see [`language`]) and kept in a
//! task-local so that errors raised anywhere below the handler are answered in it.

use axum::{
    Json,
    extract::Request,
    http::{HeaderValue, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};
use domain::{Code, DomainError, Lang};
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

tokio::task_local! {
    static LANG: Lang;
}

/// The language of the request being served (English outside a request).
pub fn current_lang() -> Lang {
    LANG.try_with(|l| *l).unwrap_or_default()
}

/// Middleware: `lan` in the query wins, then `Accept-Language`, then English.
pub async fn language(req: Request, next: Next) -> Response {
    let from_query = req.uri().query().and_then(|q| {
        form_urlencoded::parse(q.as_bytes())
            .find(|(k, _)| k == "lan" || k == "lang")
            .and_then(|(_, v)| Lang::parse(&v))
    });
    let lang = from_query
        .or_else(|| {
            req.headers()
                .get(header::ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok())
                .and_then(Lang::from_accept_language)
        })
        .unwrap_or_default();
    LANG.scope(lang, next.run(req)).await
}

/// A successful answer carrying `data`: `Envelope<T>` on the wire.
pub struct Data<T>(pub T);

impl<T: Serialize> IntoResponse for Data<T> {
    fn into_response(self) -> Response {
        Json(Envelope {
            code: 0,
            msg: SUCCESS,
            data: self.0,
            success: true,
        })
        .into_response()
    }
}

/// A successful answer with nothing to return: `Ack` on the wire.
pub struct Done;

impl IntoResponse for Done {
    fn into_response(self) -> Response {
        Json(Ack {
            code: 0,
            msg: SUCCESS,
            success: true,
        })
        .into_response()
    }
}

const SUCCESS: &str = "Success";

/// Every successful answer with data. A refusal has the same shape without `data`, with the
/// catalogue's `code` (see `ErrorCode`) and its message in the caller's language, and
/// `success: false`. Handlers document their answers as `body = Envelope<T>`.
#[derive(Serialize, ToSchema)]
pub struct Envelope<T> {
    /// 0 on success.
    pub code: i32,
    pub msg: &'static str,
    pub data: T,
    pub success: bool,
}

/// A successful answer without data (document it as `body = Ack`), or a refusal.
#[derive(Serialize, ToSchema)]
pub struct Ack {
    /// 0 on success, else the catalogue's code (see `ErrorCode`).
    pub code: i32,
    pub msg: &'static str,
    pub success: bool,
}

/// Every way a request can fail.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A business error: HTTP 200 with the catalogue code and message.
    #[error(transparent)]
    Domain(#[from] DomainError),
    /// Missing, invalid or expired bearer token: HTTP 401.
    #[error("unauthorized")]
    Unauthorized,
    /// Anything unexpected (a database down, a bug): HTTP 500, logged with its cause; the caller
    /// only learns that it failed.
    #[error("internal: {0}")]
    Internal(String),
}

pub type ApiResult<T> = Result<T, ApiError>;

impl From<Code> for ApiError {
    fn from(code: Code) -> Self {
        ApiError::Domain(code.into())
    }
}

/// Through the use cases' error, so that a broken unique rule gets the same answer whichever
/// layer met it.
impl From<store::StoreError> for ApiError {
    fn from(err: store::StoreError) -> Self {
        service::ServiceError::from(err).into()
    }
}

impl From<service::ServiceError> for ApiError {
    fn from(err: service::ServiceError) -> Self {
        match err {
            service::ServiceError::Refused(e) => ApiError::Domain(e),
            service::ServiceError::Store(e) => ApiError::Internal(e.to_string()),
            service::ServiceError::Internal(e) => ApiError::Internal(e),
        }
    }
}

impl From<service::passwords::HashError> for ApiError {
    fn from(err: service::passwords::HashError) -> Self {
        ApiError::Internal(err.0)
    }
}

impl From<service::mailer::SendError> for ApiError {
    fn from(err: service::mailer::SendError) -> Self {
        match err {
            service::mailer::SendError::Smtp(e) => ApiError::Internal(e),
            service::mailer::SendError::Store(e) => e.into(),
        }
    }
}

impl ApiError {
    pub fn internal(context: &str, err: impl std::fmt::Display) -> Self {
        ApiError::Internal(format!("{context}: {err}"))
    }
}

/// The body of every HTTP 401, exactly as clients expect it.
pub fn unauthorized() -> Response {
    let mut response =
        Json(json!({"code": 401, "msg": "Unauthorized", "success": false})).into_response();
    *response.status_mut() = StatusCode::UNAUTHORIZED;
    response
        .headers_mut()
        .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    response
}

pub fn failure(code: Code, msg: String) -> Response {
    Json(json!({"code": code.number(), "msg": msg, "success": false})).into_response()
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        match self {
            ApiError::Domain(e) => failure(e.code, e.message(current_lang())),
            ApiError::Unauthorized => unauthorized(),
            ApiError::Internal(cause) => {
                tracing::error!(%cause, "request failed");
                metrics::counter!("portal_internal_errors_total").increment(1);
                let mut response = failure(
                    Code::RequestError,
                    Code::RequestError.message(current_lang()).into(),
                );
                *response.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
                response
            }
        }
    }
}
