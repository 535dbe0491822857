//! Browser security headers on every answer. Tokens sit in the web app's localStorage, so the
//! Content-Security-Policy is what stands between an injected script and a stolen session:
//! scripts only from this origin (no inline script, no eval), nothing framed, no MIME sniffing.
//! Styles may be inline because Ant Design injects its CSS at run time (docs/decisions.md).

use axum::{
    extract::{Request, State},
    http::{HeaderName, HeaderValue, header},
    middleware::Next,
    response::Response,
};

/// The policy for this installation: everything from this origin, plus map tile images from
/// the origin of `PORTAL_MAP_TILE_URL`.
pub fn content_security_policy(map_tile_url: &str) -> String {
    let tiles = tile_source(map_tile_url)
        .map(|s| format!(" {s}"))
        .unwrap_or_default();
    format!(
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data: blob:{tiles}; font-src 'self' data:; connect-src 'self'; \
         object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    )
}

/// The policy as a header value (the tile source only ever holds header-safe characters).
pub fn policy_header(map_tile_url: &str) -> HeaderValue {
    HeaderValue::from_str(&content_security_policy(map_tile_url))
        .unwrap_or_else(|_| HeaderValue::from_static(WITHOUT_TILES))
}

const WITHOUT_TILES: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; \
    connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; \
    frame-ancestors 'none'";

/// The CSP source of a tile URL template: scheme and host, with a `{s}` (or any placeholder)
/// in the leftmost label as `*`. A placeholder elsewhere in the host widens it to the scheme.
fn tile_source(url: &str) -> Option<String> {
    let (scheme, rest) = url.trim().split_once("://")?;
    if !matches!(scheme, "http" | "https") {
        return None;
    }
    let host = rest.split(['/', '?', '#']).next()?;
    let host = host.rsplit('@').next()?;
    let mut labels: Vec<&str> = host.split('.').collect();
    if labels.iter().skip(1).any(|l| l.contains('{')) {
        return Some(format!("{scheme}:"));
    }
    if labels.first().is_some_and(|l| l.contains('{')) {
        labels[0] = "*";
    }
    let host = labels.join(".");
    let allowed = |c: char| c.is_ascii_alphanumeric() || ".-:*[]".contains(c);
    (!host.is_empty() && host.chars().all(allowed)).then(|| format!("{scheme}://{host}"))
}

/// Path prefixes of the API proper. Their answers can hold credentials (tokens, gateway keys,
/// VTN credentials) or a tenant's data, so none is kept by a browser or proxy cache; the web
/// app's files and `/files/` (uploads with ETag and Last-Modified) keep their own caching.
const API_PREFIXES: [&str; 3] = ["/api/", "/oauth/", "/anonymous/"];

/// Middleware: the headers every answer carries (HTML, JSON, files alike), and `no-store` on
/// API answers that did not choose their caching themselves.
pub async fn security_headers(
    State(csp): State<HeaderValue>,
    req: Request,
    next: Next,
) -> Response {
    let api = API_PREFIXES.iter().any(|p| req.uri().path().starts_with(p));
    let mut response = next.run(req).await;
    let headers = response.headers_mut();
    if api && !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    headers.insert(header::CONTENT_SECURITY_POLICY, csp);
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    // Tile servers (OpenStreetMap's policy) want to know the site, never its paths.
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("strict-origin-when-cross-origin"),
    );
    response
}

/// For the token endpoints: their answers hold credentials, no cache may keep them (RFC 6749
/// section 5.1 asks for both headers).
pub async fn no_store(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        HeaderName::from_static("pragma"),
        HeaderValue::from_static("no-cache"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tile_origin_is_taken_from_the_url_template() {
        assert_eq!(
            tile_source("https://tile.openstreetmap.org/{z}/{x}/{y}.png").as_deref(),
            Some("https://tile.openstreetmap.org")
        );
        assert_eq!(
            tile_source("https://{s}.tile.example.com:8443/{z}/{x}/{y}.png?key=1").as_deref(),
            Some("https://*.tile.example.com:8443")
        );
        assert_eq!(
            tile_source("https://tiles.{s}.example.com/{z}.png").as_deref(),
            Some("https:")
        );
        assert_eq!(tile_source("javascript:alert(1)"), None);
        assert_eq!(tile_source("https://bad host'/x"), None);
    }

    #[test]
    fn the_policy_allows_scripts_only_from_here_and_tiles_from_their_origin() {
        let csp = content_security_policy("https://tile.openstreetmap.org/{z}/{x}/{y}.png");
        assert!(csp.contains("script-src 'self';"), "{csp}");
        assert!(!csp.contains("unsafe-eval"), "{csp}");
        assert!(csp.contains("img-src 'self' data: blob: https://tile.openstreetmap.org;"));
        assert!(csp.contains("frame-ancestors 'none'"));
        assert!(HeaderValue::from_str(&csp).is_ok());
        assert_eq!(content_security_policy(""), WITHOUT_TILES);
    }
}
