//! Issue 13, item 16: the web app's files are sent precompressed (brotli or gzip, whichever the
//! browser accepts, chosen by `Accept-Encoding` with `Vary: Accept-Encoding`), hashed assets
//! are cached for a year as immutable, `index.html` and the unhashed files are revalidated,
//! and a missing asset is a 404 (never index.html under a script's name). The browser security
//! headers stay on all of them.

use crate::common;

use std::path::{Path, PathBuf};

use axum::{
    body::Body,
    http::{HeaderMap, Method, StatusCode, header},
};
use common::{App, Resp, spawn_with};

const JS: &str = "/assets/index-AbC123xy.js";
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

fn value<'a>(headers: &'a HeaderMap, name: &str) -> &'a str {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

/// A built web app as `npm run build` leaves it: each file with its `.br` and `.gz` beside it.
/// The compressed files hold marker text, so the body tells which one was sent.
fn web_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("portal-web-{test}-{}", std::process::id()));
    let write = |path: &Path, body: &str| {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
        std::fs::write(path, body).expect("write");
    };
    let html = format!("<!doctype html><div id=root></div><script type=module src={JS}></script>");
    write(&dir.join("index.html"), &html);
    write(&dir.join("index.html.br"), "index in brotli");
    write(&dir.join("index.html.gz"), "index in gzip");
    let js = dir.join(JS.trim_start_matches('/'));
    write(&js, "console.log('plain')");
    write(&js.with_extension("js.br"), "script in brotli");
    write(&js.with_extension("js.gz"), "script in gzip");
    write(&dir.join("icons/apple-touch-icon.png"), "touch icon");
    write(
        &dir.join("icons/branded-apple-touch-icon.png"),
        "branded touch icon",
    );
    write(
        &dir.join("favicon.svg"),
        "<svg xmlns='http://www.w3.org/2000/svg'/>",
    );
    dir
}

async fn get(app: &App, uri: &str, headers: &[(header::HeaderName, &str)]) -> Resp {
    let mut req = app.request(Method::GET, uri);
    for (name, v) in headers {
        req = req.header(name, *v);
    }
    app.send(req.body(Body::empty()).expect("request")).await
}

#[track_caller]
fn assert_sent(r: &Resp, encoding: Option<&str>, body: &str, cache: &str) {
    assert_eq!(r.status, StatusCode::OK, "{}", r.ctx);
    assert_eq!(
        r.headers
            .get(header::CONTENT_ENCODING)
            .and_then(|v| v.to_str().ok()),
        encoding,
        "{}",
        r.ctx
    );
    assert_eq!(r.text(), body, "{}", r.ctx);
    assert_eq!(value(&r.headers, "cache-control"), cache, "{}", r.ctx);
    assert_eq!(
        value(&r.headers, "vary").to_ascii_lowercase(),
        "accept-encoding",
        "{}",
        r.ctx
    );
    // the security headers of headers.rs are still there
    assert!(
        value(&r.headers, "content-security-policy").contains("script-src 'self'"),
        "{}",
        r.ctx
    );
    assert_eq!(
        value(&r.headers, "x-content-type-options"),
        "nosniff",
        "{}",
        r.ctx
    );
}

#[tokio::test]
async fn assets_are_sent_precompressed_by_accept_encoding_and_cached_as_immutable() {
    let web = web_dir("assets");
    let dir = web.clone();
    for app in spawn_with(move |c| c.web_dir = Some(dir.clone())).await {
        let ae = header::ACCEPT_ENCODING;
        // what Chromium sends: brotli wins
        let r = get(&app, JS, &[(ae.clone(), "gzip, deflate, br, zstd")]).await;
        assert_sent(&r, Some("br"), "script in brotli", IMMUTABLE);
        assert!(
            value(&r.headers, "content-type").starts_with("text/javascript"),
            "{}",
            r.ctx
        );
        // a client without brotli gets gzip; one without either the plain file
        let r = get(&app, JS, &[(ae.clone(), "gzip")]).await;
        assert_sent(&r, Some("gzip"), "script in gzip", IMMUTABLE);
        let r = get(&app, JS, &[(ae.clone(), "br;q=0, gzip;q=1")]).await;
        assert_sent(&r, Some("gzip"), "script in gzip", IMMUTABLE);
        let r = get(&app, JS, &[]).await;
        assert_sent(&r, None, "console.log('plain')", IMMUTABLE);

        // a revalidation of an asset: 304, still immutable
        let modified = value(&r.headers, "last-modified").to_owned();
        assert!(!modified.is_empty(), "{}", r.ctx);
        let again = get(&app, JS, &[(header::IF_MODIFIED_SINCE, modified.as_str())]).await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED, "{}", again.ctx);
        assert_eq!(
            value(&again.headers, "cache-control"),
            IMMUTABLE,
            "{}",
            again.ctx
        );
    }
    let _ = std::fs::remove_dir_all(&web);
}

#[tokio::test]
async fn index_html_and_app_routes_are_revalidated_and_compressed_too() {
    let web = web_dir("index");
    let dir = web.clone();
    for app in spawn_with(move |c| c.web_dir = Some(dir.clone())).await {
        for path in ["/", "/index.html", "/plants", "/device/inverter/SN1"] {
            let r = get(&app, path, &[(header::ACCEPT_ENCODING, "gzip, br")]).await;
            assert_sent(&r, Some("br"), "index in brotli", "no-cache");
            assert!(
                value(&r.headers, "content-type").starts_with("text/html"),
                "{}",
                r.ctx
            );
            let r = get(&app, path, &[]).await;
            assert_eq!(value(&r.headers, "cache-control"), "no-cache", "{}", r.ctx);
            assert!(r.text().contains(JS), "{}", r.ctx);
        }
        // an unhashed file (public/): revalidated, no compressed copy needed
        let r = get(
            &app,
            "/favicon.svg",
            &[(header::ACCEPT_ENCODING, "gzip, br")],
        )
        .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.ctx);
        assert!(
            r.headers.get(header::CONTENT_ENCODING).is_none(),
            "{}",
            r.ctx
        );
        assert_eq!(value(&r.headers, "cache-control"), "no-cache", "{}", r.ctx);
    }
    let _ = std::fs::remove_dir_all(&web);
}

#[tokio::test]
async fn a_missing_asset_is_a_404_and_never_cached() {
    let web = web_dir("missing");
    let dir = web.clone();
    for app in spawn_with(move |c| c.web_dir = Some(dir.clone())).await {
        for path in ["/assets/index-OldBuild1.js", "/assets/nothing/at/all.css"] {
            let r = get(&app, path, &[(header::ACCEPT_ENCODING, "gzip, br")]).await;
            assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.ctx);
            assert!(r.headers.get(header::CACHE_CONTROL).is_none(), "{}", r.ctx);
            assert!(!r.text().contains("<!doctype html>"), "{}", r.ctx);
        }
        // the API's own answers get no file caching: they are never stored
        let r = get(&app, "/api/v1/no-such-thing", &[]).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.ctx);
        assert_eq!(
            r.headers.get(header::CACHE_CONTROL).map(|v| v.as_bytes()),
            Some(&b"no-store"[..]),
            "{}",
            r.ctx
        );
    }
    let _ = std::fs::remove_dir_all(&web);
}

/// Issue 32: the web app manifest follows the host (a branded host gets the branded name,
/// colours and icons) and the language, and is revalidated like index.html.
#[tokio::test]
async fn the_manifest_follows_the_host_and_the_language() {
    let web = web_dir("manifest");
    let dir = web.clone();
    for app in spawn_with(move |c| {
        c.web_dir = Some(dir.clone());
        c.branded_hosts = vec!["https://brand.example:8443".into()];
    })
    .await
    {
        let path = "/manifest.webmanifest";
        let r = get(&app, path, &[(header::HOST, "portal.example")]).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.ctx);
        assert_eq!(
            value(&r.headers, "content-type"),
            "application/manifest+json",
            "{}",
            r.ctx
        );
        assert_eq!(value(&r.headers, "cache-control"), "no-cache", "{}", r.ctx);
        assert_eq!(r.json["name"], "Solar Portal", "{}", r.ctx);
        assert_eq!(r.json["display"], "standalone", "{}", r.ctx);
        assert_eq!(r.json["start_url"], "/", "{}", r.ctx);
        assert_eq!(
            r.json["icons"][0]["src"], "/icons/icon-192.png",
            "{}",
            r.ctx
        );

        let r = get(
            &app,
            path,
            &[
                (header::HOST, "Brand.Example:8443"),
                (header::ACCEPT_LANGUAGE, "zh-CN,zh;q=0.9"),
            ],
        )
        .await;
        assert_eq!(r.json["name"], "PowerView 云", "{}", r.ctx);
        // iOS's home-screen icon follows the host too
        let icon = get(
            &app,
            "/apple-touch-icon.png",
            &[(header::HOST, "brand.example")],
        )
        .await;
        assert_eq!(icon.text(), "branded touch icon", "{}", icon.ctx);
        assert_eq!(
            value(&icon.headers, "cache-control"),
            "no-cache",
            "{}",
            icon.ctx
        );
        let icon = get(
            &app,
            "/apple-touch-icon.png",
            &[(header::HOST, "portal.example")],
        )
        .await;
        assert_eq!(icon.text(), "touch icon", "{}", icon.ctx);
        assert_eq!(r.json["theme_color"], "#00cc00", "{}", r.ctx);
        assert_eq!(
            r.json["icons"][2],
            serde_json::json!({
                "src": "/icons/branded-maskable-512.png",
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            }),
            "{}",
            r.ctx
        );
    }
    let _ = std::fs::remove_dir_all(&web);
}
