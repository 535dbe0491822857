//! Health, the API description, the facts the web app needs before sign-in, and the metrics
//! (served on an address of their own).

use std::time::Instant;

use axum::{
    Router,
    extract::{MatchedPath, Request, State},
    http::{StatusCode, header},
    middleware::Next,
    response::{Html, IntoResponse, Response},
    routing::get,
};
use serde_json::{Value, json};

use crate::{
    AppState,
    config::VERSION_LABEL,
    envelope::{ApiError, ApiResult, Data},
    extract::ClientIp,
    openapi,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/api/openapi.json", get(openapi_json))
        .route("/api/docs", get(docs))
        .route("/api/docs.js", get(docs_js))
        .route("/anonymous/ip", get(ip))
        .route("/anonymous/config", get(config))
}

/// Counts every request by route and status, and times it.
pub async fn track(req: Request, next: Next) -> Response {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_string())
        .unwrap_or_else(|| "unmatched".into());
    let method = req.method().to_string();
    let started = Instant::now();
    let response = next.run(req).await;
    let status = response.status().as_u16().to_string();
    metrics::counter!("portal_http_requests_total", "method" => method.clone(), "route" => route.clone(), "status" => status)
        .increment(1);
    metrics::histogram!("portal_http_request_seconds", "method" => method, "route" => route)
        .record(started.elapsed().as_secs_f64());
    response
}

#[utoipa::path(get, path = "/healthz", tag = "system",
    responses((status = 200, description = "Database reachable"), (status = 503, description = "Database unreachable")))]
pub async fn healthz(State(app): State<AppState>) -> Response {
    match app.store.ping().await {
        Ok(()) => (StatusCode::OK, axum::Json(json!({"status": "ok"}))).into_response(),
        Err(e) => {
            tracing::error!(%e, "health check failed");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                axum::Json(json!({"status": "unavailable"})),
            )
                .into_response()
        }
    }
}

/// The metrics listener's whole surface: `/metrics`, never on the public address (it tells
/// anyone the routes, traffic and error counts). `portal serve` binds it to
/// `PORTAL_METRICS_ADDR`, loopback by default.
pub fn metrics_router(state: AppState) -> Router {
    Router::new()
        .route("/metrics", get(metrics))
        .with_state(state)
}

/// Prometheus text exposition.
pub async fn metrics(State(app): State<AppState>) -> Response {
    let body = app.metrics.as_ref().map(|h| h.render()).unwrap_or_default();
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], body).into_response()
}

#[utoipa::path(get, path = "/api/openapi.json", tag = "system", responses((status = 200, description = "OpenAPI 3.1 document")))]
pub async fn openapi_json() -> ApiResult<Response> {
    let doc = openapi::document().map_err(|e| ApiError::internal("openapi", e))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], doc).into_response())
}

/// A self-contained page listing every operation of the OpenAPI document: no network fetches.
#[utoipa::path(get, path = "/api/docs", tag = "system", responses((status = 200, description = "HTML")))]
pub async fn docs() -> Html<&'static str> {
    Html(include_str!("docs.html"))
}

/// The docs page's script, a file of its own: the Content-Security-Policy allows no inline script.
pub async fn docs_js() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("docs.js"),
    )
        .into_response()
}

#[utoipa::path(get, path = "/anonymous/ip", tag = "system",
    responses((status = 200, description = "Envelope with the caller's address", body = String)))]
pub async fn ip(ClientIp(ip): ClientIp) -> Data<String> {
    Data(ip.to_string())
}

/// Installation facts the web app needs before anyone signs in.
#[utoipa::path(get, path = "/anonymous/config", tag = "system",
    responses((status = 200, description = "Envelope with version, brandedHosts, appDownload, mapTileUrl, defaultThemeColor")))]
pub async fn config(State(app): State<AppState>) -> Data<Value> {
    let c = &app.config;
    Data(json!({
        "version": VERSION_LABEL,
        "brandedHosts": c.branded_hosts,
        "appDownload": {"android": c.app_android_url, "ios": c.app_ios_url},
        "mapTileUrl": c.map_tile_url,
        "defaultThemeColor": "#00cc00",
    }))
}
