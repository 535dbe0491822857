//! `GET /manifest.webmanifest`: the web app manifest that makes the portal installable
//! (docs/pwa.md). Built per request because it follows the host like the web app's theme does:
//! on one of the branded hosts (`PORTAL_BRANDED_HOSTS`) it carries the branded name, colours
//! and icons, elsewhere the default ones. The name is in the language the browser asks for.
//! `GET /apple-touch-icon.png` follows the host the same way: iOS takes the home-screen icon
//! from index.html's `apple-touch-icon` link, not from the manifest.

use axum::{
    http::{HeaderMap, HeaderValue, header},
    response::{IntoResponse, Response},
};
use domain::Lang;
use serde_json::{Value, json};

use crate::envelope::current_lang;

/// One theme's identity. The names mirror the web app's `app.title` / `app.brandedTitle`
/// (web/src/shared/i18n/locales; a test checks they agree), the colours its layout
/// (web/src/app/theme.ts) and the icons are drawn by web/scripts/icons.mjs.
struct Identity {
    names: [&'static str; 3],
    theme_color: &'static str,
    background: &'static str,
    icon_prefix: &'static str,
}

const DEFAULT: Identity = Identity {
    names: ["Solar Portal", "光储云平台", "Portal Solar"],
    theme_color: "#0b0f0d",
    background: "#0b0f0d",
    icon_prefix: "/icons/",
};

const BRANDED: Identity = Identity {
    names: ["PowerView Cloud", "PowerView 云", "PowerView Cloud"],
    theme_color: "#00cc00",
    background: "#ffffff",
    icon_prefix: "/icons/branded-",
};

/// The host part of a configured entry (it may carry a scheme, a port or a path), lowercased:
/// the same reading as the web app's `themeKindFor`.
fn host_of(entry: &str) -> String {
    let entry = entry.trim().to_ascii_lowercase();
    let rest = entry.split_once("://").map_or(entry.as_str(), |(_, r)| r);
    let host = rest.split('/').next().unwrap_or_default();
    strip_port(host).to_owned()
}

fn strip_port(host: &str) -> &str {
    match host.rsplit_once(':') {
        Some((h, port)) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => h,
        _ => host,
    }
}

/// The host the browser asked for: `X-Forwarded-Host` behind a trusted proxy, else `Host`.
fn request_host(headers: &HeaderMap, trust_proxy: bool) -> String {
    let forwarded = trust_proxy
        .then(|| headers.get("x-forwarded-host"))
        .flatten()
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(',').next());
    let host = forwarded
        .or_else(|| headers.get(header::HOST).and_then(|v| v.to_str().ok()))
        .unwrap_or_default();
    strip_port(host.trim()).to_ascii_lowercase()
}

fn is_branded(host: &str, branded_hosts: &[String]) -> bool {
    !host.is_empty()
        && branded_hosts
            .iter()
            .any(|e| !e.trim().is_empty() && host_of(e) == host)
}

/// The manifest for a host, in a language.
pub fn manifest(branded: bool, lang: Lang) -> Value {
    let id = if branded { &BRANDED } else { &DEFAULT };
    let name = id.names[match lang {
        Lang::En => 0,
        Lang::Zh => 1,
        Lang::Es => 2,
    }];
    let icon = |file: &str, size: u32, purpose: &str| {
        json!({
            "src": format!("{}{file}", id.icon_prefix),
            "sizes": format!("{size}x{size}"),
            "type": "image/png",
            "purpose": purpose,
        })
    };
    json!({
        "id": "/",
        "name": name,
        "short_name": name,
        "lang": lang.code(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": id.theme_color,
        "background_color": id.background,
        "icons": [
            icon("icon-192.png", 192, "any"),
            icon("icon-512.png", 512, "any"),
            icon("maskable-512.png", 512, "maskable"),
        ],
    })
}

/// The built file of the host's home-screen icon for iOS (web/public/icons).
pub fn touch_icon_file(
    headers: &HeaderMap,
    branded_hosts: &[String],
    trust_proxy: bool,
) -> &'static str {
    if is_branded(&request_host(headers, trust_proxy), branded_hosts) {
        "icons/branded-apple-touch-icon.png"
    } else {
        "icons/apple-touch-icon.png"
    }
}

/// The handler: revalidated on every use (`no-cache`) like `index.html`, and it varies by the
/// language asked for (the host is part of every cache's key already).
pub async fn serve(headers: HeaderMap, branded_hosts: &[String], trust_proxy: bool) -> Response {
    let host = request_host(&headers, trust_proxy);
    let body = manifest(is_branded(&host, branded_hosts), current_lang()).to_string();
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/manifest+json"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            (header::VARY, HeaderValue::from_static("Accept-Language")),
        ],
        body,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branded_hosts_are_read_like_the_web_app_reads_them() {
        let hosts = vec![
            "https://Brand.Example.com:8443/app".to_owned(),
            " other.example ".to_owned(),
            String::new(),
        ];
        assert!(is_branded("brand.example.com", &hosts));
        assert!(is_branded("other.example", &hosts));
        assert!(!is_branded("portal.example.com", &hosts));
        assert!(!is_branded("", &hosts));

        let mut headers = HeaderMap::new();
        headers.insert(
            header::HOST,
            HeaderValue::from_static("Brand.Example.com:18320"),
        );
        headers.insert(
            "x-forwarded-host",
            HeaderValue::from_static("proxy.example"),
        );
        assert_eq!(request_host(&headers, false), "brand.example.com");
        assert_eq!(request_host(&headers, true), "proxy.example");
    }

    #[test]
    fn names_agree_with_the_web_apps_titles() {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../web/src/shared/i18n/locales"
        );
        for (i, lang) in ["en", "zh", "es"].iter().enumerate() {
            let Ok(text) = std::fs::read_to_string(format!("{dir}/{lang}.json")) else {
                // a checkout without the web app: nothing to compare
                return;
            };
            let texts: Value = serde_json::from_str(&text).expect("locale json");
            assert_eq!(texts["app"]["title"], DEFAULT.names[i], "{lang}");
            assert_eq!(texts["app"]["brandedTitle"], BRANDED.names[i], "{lang}");
        }
    }

    #[test]
    fn the_manifest_is_installable() {
        let m = manifest(true, Lang::Es);
        assert_eq!(m["display"], "standalone");
        assert_eq!(m["start_url"], "/");
        assert_eq!(m["name"], "PowerView Cloud");
        assert_eq!(m["icons"][2]["purpose"], "maskable");
        assert_eq!(m["icons"][1]["src"], "/icons/branded-icon-512.png");
    }
}
