//! Health, client address, installation config, the OpenAPI document and the docs page.

use crate::common;

use std::net::SocketAddr;

use axum::{body::Body, extract::ConnectInfo, http::Method};
use common::spawn;

#[tokio::test]
async fn healthz_answers_ok() {
    for app in spawn().await {
        let r = app.get("/healthz", None).await;
        assert_eq!(r.status, 200, "[{}]", app.backend);
        assert_eq!(
            r.json,
            serde_json::json!({"status": "ok"}),
            "[{}]",
            app.backend
        );
    }
}

#[tokio::test]
async fn anonymous_ip_is_the_callers_address() {
    for app in spawn().await {
        let r = app.get("/anonymous/ip", None).await;
        r.expect_code(0);
        assert_eq!(r.data(), "127.0.0.1", "[{}] without a socket", app.backend);
        let mut req = app
            .request(Method::GET, "/anonymous/ip")
            .header("x-forwarded-for", "1.2.3.4")
            .body(Body::empty())
            .unwrap();
        req.extensions_mut()
            .insert(ConnectInfo(SocketAddr::from(([203, 0, 113, 7], 5555))));
        let r = app.send(req).await;
        r.expect_code(0);
        assert_eq!(
            r.data(),
            "203.0.113.7",
            "[{}] the peer, not an untrusted forwarded header",
            app.backend
        );
    }
}

#[tokio::test]
async fn anonymous_config_has_what_the_web_app_needs() {
    for app in spawn().await {
        let b = app.backend;
        let r = app.get("/anonymous/config", None).await;
        r.expect_code(0);
        let d = r.data();
        assert_eq!(d["version"], "V250120", "[{b}]");
        assert!(d["brandedHosts"].is_array(), "[{b}] {d}");
        assert!(d["appDownload"].is_object(), "[{b}] {d}");
        assert_eq!(d["defaultThemeColor"], "#00cc00", "[{b}]");
    }
}

#[tokio::test]
async fn openapi_document_and_offline_docs_page() {
    for app in spawn().await {
        let b = app.backend;
        let r = app.get("/api/openapi.json", None).await;
        assert_eq!(r.status, 200, "[{b}]");
        assert!(r.json.is_object(), "[{b}] valid JSON");
        let paths = r.json["paths"].as_object().expect("paths");
        for path in [
            "/oauth/token",
            "/oauth/token/new",
            "/api/v1/user",
            "/api/v1/permission",
        ] {
            assert!(paths.contains_key(path), "[{b}] {path} documented");
        }
        assert!(r.json["openapi"].is_string(), "[{b}]");

        let r = app.get("/api/docs", None).await;
        assert_eq!(r.status, 200, "[{b}]");
        let content_type = r.headers["content-type"].to_str().unwrap();
        assert!(
            content_type.starts_with("text/html"),
            "[{b}] {content_type}"
        );
        let html = String::from_utf8(r.body.to_vec()).unwrap();
        assert!(
            html.contains("openapi.json"),
            "[{b}] the page reads the document"
        );
        let lower = html.to_ascii_lowercase();
        for tag in ["<script", "<link", "<img", "<iframe"] {
            let mut rest = lower.as_str();
            while let Some(start) = rest.find(tag) {
                let end = rest[start..].find('>').map_or(rest.len(), |e| start + e);
                let element = &rest[start..end];
                assert!(
                    !element.contains("http://")
                        && !element.contains("https://")
                        && !element.contains("src=\"//")
                        && !element.contains("href=\"//"),
                    "[{b}] network fetch in {element}"
                );
                rest = &rest[end..];
            }
        }
        assert!(!lower.contains("@import"), "[{b}] no CSS imports");
    }
}
