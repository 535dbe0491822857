//! The callback of a VTN's webhooks (`service::energy_hub::vtn::webhooks` keeps the
//! subscriptions): the VTN checks it with `GET ?echo=` (the reference VTN: `GET
//! {url}/echo?echo=`), which answers the echo; each `POST` with the subscription's token asks
//! the sync job to sync the connection at once.

use super::ven;
use crate::AppState;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use domain::ids::VtnId;
use serde::Deserialize;
use service::energy_hub::vtn::webhooks::{self, Refusal};

/// The longest echo answered (the VTN sends a short random string).
const MAX_ECHO: usize = 256;

fn status(r: Refusal) -> StatusCode {
    match r {
        Refusal::Unknown => StatusCode::NOT_FOUND,
        Refusal::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        Refusal::WrongToken => StatusCode::UNAUTHORIZED,
    }
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct Echo {
    /// The string to send back.
    #[serde(default)]
    echo: Option<String>,
}

fn echo_answer(q: Echo) -> Response {
    match q.echo {
        Some(e) if e.chars().count() <= MAX_ECHO => {
            ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], e).into_response()
        }
        _ => StatusCode::BAD_REQUEST.into_response(),
    }
}

/// The VTN's check of the callback: answers the `echo` (at most 256 characters) as plain
/// text. 404 for a connection that expects no webhooks.
#[utoipa::path(get, path = "/api/v1/oadr/vtn/{id}/notify", tag = "energy hub",
    params(("id" = i64, Path), Echo),
    responses((status = 200, description = "The echo, as text/plain", body = String),
        (status = 404, description = "No such connection expecting webhooks")))]
pub async fn echo(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<Echo>,
) -> Response {
    let Ok(id) = id.parse::<i64>().map(VtnId) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    match webhooks::expecting(&app.store, id).await {
        Ok(_) => echo_answer(q),
        Err(r) => status(r).into_response(),
    }
}

/// The reference VTN's form of the echo check (`{callback}/echo?echo=`).
#[utoipa::path(get, path = "/api/v1/oadr/vtn/{id}/notify/echo", tag = "energy hub",
    params(("id" = i64, Path), Echo),
    responses((status = 200, description = "The echo, as text/plain", body = String),
        (status = 404, description = "No such connection expecting webhooks")))]
pub async fn echo_suffix(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<Echo>,
) -> Response {
    echo(State(app), Path(id), Query(q)).await
}

/// A notification from the VTN (`Authorization: Bearer <the subscription's token>`): its body
/// is not read (polling is the source of truth); the connection is synced now. 401 without
/// the token.
#[utoipa::path(post, path = "/api/v1/oadr/vtn/{id}/notify", tag = "energy hub",
    params(("id" = i64, Path)),
    responses((status = 200, description = "A sync is under way or queued (an empty text body)",
            body = String, content_type = "text/plain"),
        (status = 401, description = "Not the subscription's token"),
        (status = 404, description = "No such connection expecting webhooks")))]
pub async fn notify(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let Ok(id) = id.parse::<i64>().map(VtnId) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let sent = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default();
    match webhooks::notified(&app.store, &ven(&app), &app.vtn_nudges, id, sent).await {
        Ok(()) => (StatusCode::OK, "").into_response(),
        Err(r) => status(r).into_response(),
    }
}
