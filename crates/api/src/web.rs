//! The built web app, served from the same origin as the API. Unknown paths outside the API get
//! `index.html` so that the app's own router can show them (including its not-found page).
//!
//! Caching and compression (docs/performance.md, "Web app"): the build writes every file twice
//! more, gzip (`.gz`) and brotli (`.br`), and the best one the browser accepts is sent as it is
//! (`Vary: Accept-Encoding`), so nothing is compressed per request. Files under `/assets/` have
//! a content hash in their name: a new build never reuses a name, so browsers keep them a year
//! without asking again. Everything else (`index.html`, which names the current assets, and
//! the few unhashed files) is `no-cache`: revalidated on every load, answered 304 when unchanged.
//! `/manifest.webmanifest` is built per host (manifest.rs); `sw.js`, the service worker, is one of
//! the unhashed files: browsers check it for a new version on every navigation (docs/pwa.md).

use std::sync::Arc;

use axum::{
    Router,
    body::Body,
    extract::Request,
    http::{HeaderMap, HeaderValue, StatusCode, Uri, header},
    response::{IntoResponse, Response},
    routing::{any, get},
};
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

use crate::{ApiConfig, envelope::failure, manifest};

/// Hashed build output (Vite's `build.assetsDir`).
const ASSETS: &str = "assets";
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const REVALIDATE: &str = "no-cache";

pub fn router(config: &ApiConfig) -> Router {
    let branded_hosts = Arc::new(config.branded_hosts.clone());
    let trust_proxy = config.trust_proxy;
    let hosts = branded_hosts.clone();
    let api_misses = Router::new()
        .route(
            "/manifest.webmanifest",
            get(move |headers: HeaderMap| async move {
                manifest::serve(headers, &hosts, trust_proxy).await
            }),
        )
        // Served on the metrics address only (PORTAL_METRICS_ADDR); a plain 404 here.
        .route("/metrics", any(not_found))
        .route("/api/{*rest}", any(not_found))
        .route("/oauth/{*rest}", any(not_found))
        .route("/anonymous/{*rest}", any(not_found))
        .route("/version/{*rest}", any(not_found));
    match &config.web_dir {
        Some(dir) if dir.join("index.html").is_file() => {
            // A missing asset is a 404, never index.html: a page still holding an old build's
            // chunk name must fail to load it (the app offers a reload) rather than get HTML
            // that the browser would cache for a year under that name.
            let assets = ServeDir::new(dir.join(ASSETS))
                .precompressed_br()
                .precompressed_gzip();
            let assets =
                ServiceExt::<Request>::map_response(assets, |r| with_cache_control(r, IMMUTABLE));
            let index = ServeFile::new(dir.join("index.html"))
                .precompressed_br()
                .precompressed_gzip();
            let spa = ServeDir::new(dir)
                .precompressed_br()
                .precompressed_gzip()
                .fallback(index);
            let spa =
                ServiceExt::<Request>::map_response(spa, |r| with_cache_control(r, REVALIDATE));
            // iOS's home-screen icon, the host's like the manifest's (manifest.rs)
            let web = dir.clone();
            let touch_icon = get(move |req: Request| {
                let file = manifest::touch_icon_file(req.headers(), &branded_hosts, trust_proxy);
                let icon = ServeFile::new(web.join(file));
                async move {
                    match icon.oneshot(req).await {
                        Ok(r) => with_cache_control(r.map(Body::new), REVALIDATE),
                        Err(never) => match never {},
                    }
                }
            });
            api_misses
                .route("/apple-touch-icon.png", touch_icon)
                .nest_service(&format!("/{ASSETS}"), assets)
                .fallback_service(spa)
        }
        _ => api_misses.fallback(not_found),
    }
}

/// Sets the caching of a successful (or not-modified) file answer; errors are not cached.
fn with_cache_control<B>(mut response: Response<B>, policy: &'static str) -> Response<B> {
    let status = response.status();
    if status.is_success() || status == StatusCode::NOT_MODIFIED {
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
    }
    response
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
