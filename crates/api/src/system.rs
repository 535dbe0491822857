//! Health, the API description, the facts the web app needs before sign-in, and the metrics
//! (served on an address of their own).

use std::time::Instant;
use utoipa_axum::{router::OpenApiRouter, routes};

use axum::{
    Router,
    extract::{MatchedPath, Request, State},
    http::{StatusCode, header},
    middleware::Next,
    response::{Html, IntoResponse, Response},
    routing::get,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    AppState,
    config::VERSION_LABEL,
    envelope::{ApiError, ApiResult, Data, Envelope},
    extract::ClientIp,
    openapi,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(healthz))
        .routes(routes!(openapi_json))
        .routes(routes!(docs))
        .routes(routes!(docs_js))
        .routes(routes!(ip))
        .routes(routes!(config))
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

/// The health check's answer (no envelope: load balancers read it).
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or `unavailable` with HTTP 503.
    pub status: &'static str,
}

#[utoipa::path(get, path = "/healthz", tag = "system",
    responses((status = 200, description = "Database reachable", body = Health),
              (status = 503, description = "Database unreachable", body = Health)))]
pub async fn healthz(State(app): State<AppState>) -> Response {
    match app.store.ping().await {
        Ok(()) => (StatusCode::OK, axum::Json(Health { status: "ok" })).into_response(),
        Err(e) => {
            tracing::error!(%e, "health check failed");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                axum::Json(Health {
                    status: "unavailable",
                }),
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

#[utoipa::path(get, path = "/api/openapi.json", tag = "system",
    responses((status = 200, description = "The OpenAPI 3.1 document (no envelope)", content_type = "application/json", body = Object)))]
pub async fn openapi_json() -> ApiResult<Response> {
    let doc = openapi::document().map_err(|e| ApiError::internal("openapi", e))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], doc).into_response())
}

/// A self-contained page listing every operation of the OpenAPI document: no network fetches.
#[utoipa::path(get, path = "/api/docs", tag = "system",
    responses((status = 200, description = "The page", content_type = "text/html", body = String)))]
pub async fn docs() -> Html<&'static str> {
    Html(include_str!("docs.html"))
}

/// The docs page's script, a file of its own: the Content-Security-Policy allows no inline script.
#[utoipa::path(get, path = "/api/docs.js", tag = "system",
    responses((status = 200, description = "The script", content_type = "text/javascript", body = String)))]
pub async fn docs_js() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("docs.js"),
    )
        .into_response()
}

#[utoipa::path(get, path = "/anonymous/ip", tag = "system",
    responses((status = 200, description = "The caller's address", body = Envelope<String>)))]
pub async fn ip(ClientIp(ip): ClientIp) -> Data<String> {
    Data(ip.to_string())
}

/// Installation facts the web app needs before anyone signs in.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ServerConfig {
    /// The portal's version label.
    pub version: &'static str,
    /// Host names that show a company's branding.
    pub branded_hosts: Vec<String>,
    pub app_download: AppDownload,
    /// The map tile URL template (`{z}/{x}/{y}`).
    pub map_tile_url: String,
    /// A CSS colour.
    pub default_theme_color: &'static str,
}

/// Where the mobile apps are downloaded; null when not configured.
#[derive(Debug, Serialize, ToSchema)]
pub struct AppDownload {
    pub android: Option<String>,
    pub ios: Option<String>,
}

/// Installation facts the web app needs before anyone signs in.
#[utoipa::path(get, path = "/anonymous/config", tag = "system",
    responses((status = 200, description = "The installation's facts", body = Envelope<ServerConfig>)))]
pub async fn config(State(app): State<AppState>) -> Data<ServerConfig> {
    let c = &app.config;
    Data(ServerConfig {
        version: VERSION_LABEL,
        branded_hosts: c.branded_hosts.clone(),
        app_download: AppDownload {
            android: c.app_android_url.clone(),
            ios: c.app_ios_url.clone(),
        },
        map_tile_url: c.map_tile_url.clone(),
        default_theme_color: "#00cc00",
    })
}
