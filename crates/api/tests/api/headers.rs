//! Issue 12, finding 7: browser security headers on every kind of answer (the web app's HTML,
//! the API docs page, JSON, errors), the map tile origin in the CSP, and no caching of token
//! answers; issue 13: no API answer is cached at all, uploaded files keep their validators.

use crate::common;

use axum::http::{HeaderMap, header};
use common::{Resp, spawn, spawn_with};
use domain::user::BuiltinRole;
use serde_json::json;

fn value<'a>(headers: &'a HeaderMap, name: &str) -> &'a str {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

#[track_caller]
fn assert_browser_headers(r: &Resp) {
    let csp = value(&r.headers, "content-security-policy");
    for directive in [
        "default-src 'self'",
        "script-src 'self';",
        "object-src 'none'",
        "base-uri 'self'",
        "frame-ancestors 'none'",
    ] {
        assert!(csp.contains(directive), "{}: {directive} in {csp:?}", r.ctx);
    }
    assert!(
        !csp.contains("unsafe-eval") && !csp.contains("script-src 'self' 'unsafe-inline'"),
        "{}: {csp}",
        r.ctx
    );
    assert_eq!(value(&r.headers, "x-frame-options"), "DENY", "{}", r.ctx);
    assert_eq!(
        value(&r.headers, "x-content-type-options"),
        "nosniff",
        "{}",
        r.ctx
    );
    assert_eq!(
        value(&r.headers, "referrer-policy"),
        "strict-origin-when-cross-origin",
        "{}",
        r.ctx
    );
}

#[track_caller]
fn assert_no_store(r: &Resp) {
    assert_eq!(value(&r.headers, "cache-control"), "no-store", "{}", r.ctx);
    assert_eq!(value(&r.headers, "pragma"), "no-cache", "{}", r.ctx);
}

#[tokio::test]
async fn html_json_and_errors_carry_the_browser_security_headers() {
    let web = std::env::temp_dir().join(format!("portal-web-{}", std::process::id()));
    std::fs::create_dir_all(&web).expect("web dir");
    std::fs::write(
        web.join("index.html"),
        "<!doctype html><div id=root></div><script type=module src=/assets/app.js></script>",
    )
    .expect("index.html");
    let dir = web.clone();
    for app in spawn_with(move |c| c.web_dir = Some(dir.clone())).await {
        let b = app.backend;
        // The web app, at its root and at a route of its own.
        for path in ["/", "/plants"] {
            let r = app.get(path, None).await;
            assert!(
                value(&r.headers, "content-type").starts_with("text/html"),
                "[{b}] {path}"
            );
            assert_browser_headers(&r);
        }
        // JSON, a business error, a 401 and an unknown API path.
        assert_browser_headers(&app.get("/anonymous/config", None).await);
        assert_browser_headers(&app.login_resp("x@example.com", "not-it-1").await);
        assert_browser_headers(&app.get("/api/v1/user", None).await);
        assert_browser_headers(&app.get("/api/v1/no-such-thing", None).await);

        // The API docs page runs under the same policy: no inline script, its code a file.
        let docs = app.get("/api/docs", None).await;
        assert_browser_headers(&docs);
        let body = String::from_utf8_lossy(&docs.body);
        assert!(
            body.contains(r#"<script src="/api/docs.js">"#),
            "[{b}] {body}"
        );
        assert_eq!(
            body.matches("<script").count(),
            1,
            "[{b}] one script, a file"
        );
        let js = app.get("/api/docs.js", None).await;
        assert_eq!(js.status, 200, "[{b}]");
        assert!(
            value(&js.headers, "content-type").starts_with("text/javascript"),
            "[{b}]"
        );
        assert!(
            String::from_utf8_lossy(&js.body).contains("/api/openapi.json"),
            "[{b}]"
        );
    }
    let _ = std::fs::remove_dir_all(&web);
}

#[tokio::test]
async fn the_map_tile_origin_is_allowed_for_images_and_nothing_else() {
    let tiles = "https://{s}.tiles.example.net/{z}/{x}/{y}.png";
    for app in spawn_with(|c| c.map_tile_url = tiles.into()).await {
        let r = app.get("/anonymous/config", None).await;
        let csp = value(&r.headers, "content-security-policy");
        assert!(
            csp.contains("img-src 'self' data: blob: https://*.tiles.example.net;"),
            "[{}] {csp}",
            app.backend
        );
        assert_eq!(
            csp.matches("tiles.example.net").count(),
            1,
            "[{}] only images",
            app.backend
        );
    }
}

#[tokio::test]
async fn token_answers_are_never_cached() {
    for app in spawn().await {
        app.user(
            "ann@example.com",
            "secret123",
            BuiltinRole::PlantOwner,
            None,
        )
        .await;
        let ok = app.login_resp("ann@example.com", "secret123").await;
        ok.expect_code(0);
        assert_no_store(&ok);
        assert_browser_headers(&ok);
        assert_no_store(&app.login_resp("ann@example.com", "not-it-123").await);
        let refresh = ok.data()["refresh_token"].as_str().unwrap_or_default();
        let refreshed = app.refresh(refresh).await;
        refreshed.expect_code(0);
        assert_no_store(&refreshed);
        assert_no_store(&app.refresh("spent-or-unknown").await);
        let new = app
            .post(
                "/oauth/token/new",
                json!({"username": "ann@example.com", "password": "secret123",
                    "grant_type": "password"}),
                None,
            )
            .await;
        new.expect_code(0);
        assert_no_store(&new);
        // The header name is the standard one.
        assert!(new.headers.contains_key(header::CACHE_CONTROL));
    }
}

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\rIDATx\x9cc\xf8\x0f\0\0\x01\x01\0\x05\x18\xd8N\0\0\0\0IEND\xaeB`\x82";

#[tokio::test]
async fn api_answers_are_never_cached_but_uploaded_files_keep_their_validators() {
    for app in spawn().await {
        let b = app.backend;
        let (id, t) = app
            .signed_in("cache@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let no_store = |r: &Resp| {
            assert_eq!(value(&r.headers, "cache-control"), "no-store", "{}", r.ctx);
        };
        // Signed-in JSON, a business error, a 401, the anonymous and token families.
        no_store(&app.get("/api/v1/user", Some(&t)).await);
        no_store(&app.get("/api/v1/plant/999999", Some(&t)).await);
        no_store(&app.get("/api/v1/user", None).await);
        no_store(&app.get("/api/v1/no-such-thing", Some(&t)).await);
        no_store(&app.get("/anonymous/config", None).await);
        no_store(&app.get("/anonymous/publicKey", None).await);
        no_store(&app.login_resp("cache@example.com", "not-it-123").await);

        let up = app
            .upload(
                &format!("/api/v1/user/{}/avatar", id.0),
                "me.png",
                "image/png",
                PNG,
                Some(&t),
            )
            .await;
        no_store(&up);
        let url = up.data().as_str().unwrap_or_default().to_string();
        let file = app.get(&url, None).await;
        assert_eq!(file.status, 200, "[{b}] GET {url}");
        assert_ne!(
            value(&file.headers, "cache-control"),
            "no-store",
            "[{b}] {url}"
        );
        assert!(
            file.headers.contains_key(header::ETAG)
                && file.headers.contains_key(header::LAST_MODIFIED),
            "[{b}] {url}: {:?}",
            file.headers
        );
    }
}
