//! The built web app, served from the same origin as the API. Unknown paths outside the API get
//! `index.html` so that the app's own router can show them (including its not-found page).

use axum::{
    Router,
    http::{StatusCode, Uri},
    response::IntoResponse,
    routing::any,
};
use tower_http::services::{ServeDir, ServeFile};

use crate::{ApiConfig, envelope::failure};

pub fn router(config: &ApiConfig) -> Router {
    let api_misses = Router::new()
        // Served on the metrics address only (PORTAL_METRICS_ADDR); a plain 404 here.
        .route("/metrics", any(not_found))
        .route("/api/{*rest}", any(not_found))
        .route("/oauth/{*rest}", any(not_found))
        .route("/anonymous/{*rest}", any(not_found))
        .route("/version/{*rest}", any(not_found));
    match &config.web_dir {
        Some(dir) if dir.join("index.html").is_file() => {
            let spa = ServeDir::new(dir).fallback(ServeFile::new(dir.join("index.html")));
            api_misses.fallback_service(spa)
        }
        _ => api_misses.fallback(not_found),
    }
}

/// A known path called with the wrong method.
pub async fn wrong_method() -> impl IntoResponse {
    let mut response = failure(domain::Code::InvalidParameter, "method not allowed".into());
    *response.status_mut() = StatusCode::METHOD_NOT_ALLOWED;
    response
}

/// API paths that match no route (and every unknown path without a web app) answer a JSON 404.
async fn not_found(uri: Uri) -> impl IntoResponse {
    tracing::debug!(%uri, "no route");
    let mut response = failure(
        domain::Code::InvalidParameter,
        format!("no route for {}", uri.path()),
    );
    *response.status_mut() = StatusCode::NOT_FOUND;
    response
}
