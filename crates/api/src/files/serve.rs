//! `/files/...` from the database (`PORTAL_FILES=database`), answering as the directory
//! server answers for local files (`tower_http::services::ServeDir`), so that clients and
//! caches see no difference: the type from the name's extension, `Content-Length`,
//! `Last-Modified` (the upload time), an `ETag` in the same form, `Accept-Ranges: bytes` with
//! single ranges honoured, and `304 Not Modified` for `If-None-Match` / `If-Modified-Since`.
//! A file's bytes never change under its name, so the upload time is its modification time on
//! every replica.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::{
    body::Body,
    extract::{Path, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};

use crate::AppState;

/// `GET /files/{*path}`: the file stored under `uploads/{path}`.
pub async fn file(
    State(app): State<AppState>,
    Path(path): Path<String>,
    headers: HeaderMap,
) -> Response {
    if path.split('/').any(|part| part.is_empty() || part == "..") {
        return StatusCode::NOT_FOUND.into_response();
    }
    let key = format!("uploads/{path}");
    let stored = match app.store.file(&key).await {
        Ok(Some(f)) => f,
        Ok(None) => return StatusCode::NOT_FOUND.into_response(),
        Err(e) => {
            tracing::error!(error = %e, key, "file read");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    let modified =
        UNIX_EPOCH + Duration::from_millis(u64::try_from(stored.created_at).unwrap_or(0));
    let etag = etag(modified, stored.bytes.len() as u64);
    let last_modified = httpdate::fmt_http_date(modified);
    let mime = mime_guess::from_path(&path)
        .first_raw()
        .map(HeaderValue::from_static)
        .unwrap_or_else(|| HeaderValue::from_static("application/octet-stream"));
    if not_modified(&headers, &etag, modified) {
        return Response::builder()
            .status(StatusCode::NOT_MODIFIED)
            .header(header::ETAG, etag)
            .header(header::LAST_MODIFIED, last_modified)
            .body(Body::empty())
            .unwrap_or_default();
    }
    let size = stored.bytes.len() as u64;
    let builder = Response::builder()
        .header(header::CONTENT_TYPE, mime)
        .header(header::ACCEPT_RANGES, "bytes")
        .header(header::LAST_MODIFIED, last_modified)
        .header(header::ETAG, etag);
    let range = headers
        .get(header::RANGE)
        .and_then(|v| v.to_str().ok())
        .map(|v| single_range(v, size));
    let response = match range {
        None => builder
            .header(header::CONTENT_LENGTH, size)
            .body(Body::from(stored.bytes)),
        Some(Some((start, end))) => {
            let part = stored
                .bytes
                .get(start as usize..=end as usize)
                .map(<[u8]>::to_vec)
                .unwrap_or_default();
            builder
                .status(StatusCode::PARTIAL_CONTENT)
                .header(header::CONTENT_RANGE, format!("bytes {start}-{end}/{size}"))
                .header(header::CONTENT_LENGTH, part.len())
                .body(Body::from(part))
        }
        Some(None) => Response::builder()
            .status(StatusCode::RANGE_NOT_SATISFIABLE)
            .header(header::ACCEPT_RANGES, "bytes")
            .header(header::CONTENT_RANGE, format!("bytes */{size}"))
            .body(Body::empty()),
    };
    response.unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}

/// The tag the directory server derives from a file's modification time and size.
fn etag(modified: SystemTime, size: u64) -> String {
    let at = modified.duration_since(UNIX_EPOCH).unwrap_or_default();
    format!("\"{:x}.{:08x}-{size:x}\"", at.as_secs(), at.subsec_nanos())
}

/// Whether the client's copy is current: `If-None-Match` names the tag (or `*`), or, when it
/// is absent, `If-Modified-Since` is no older than the file (HTTP dates are whole seconds).
fn not_modified(headers: &HeaderMap, etag: &str, modified: SystemTime) -> bool {
    if let Some(tags) = headers.get(header::IF_NONE_MATCH) {
        let tags = tags.to_str().unwrap_or_default();
        return tags
            .split(',')
            .map(|t| t.trim().trim_start_matches("W/"))
            .any(|t| t == "*" || t == etag);
    }
    let Some(since) = headers
        .get(header::IF_MODIFIED_SINCE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| httpdate::parse_http_date(v).ok())
    else {
        return false;
    };
    let secs = |t: SystemTime| t.duration_since(UNIX_EPOCH).unwrap_or_default().as_secs();
    secs(modified) <= secs(since)
}

/// The one byte range a `Range` header asks for, within `size`; `None` when it cannot be
/// served (malformed, out of bounds, or several ranges, which the directory server refuses too).
fn single_range(value: &str, size: u64) -> Option<(u64, u64)> {
    let ranges = http_range_header::parse_range_header(value)
        .ok()?
        .validate(size)
        .ok()?;
    match ranges.as_slice() {
        [one] if size > 0 && one.start() <= one.end() => Some((*one.start(), *one.end())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_range_is_served_and_others_are_refused() {
        assert_eq!(single_range("bytes=0-9", 100), Some((0, 9)));
        assert_eq!(single_range("bytes=90-", 100), Some((90, 99)));
        assert_eq!(single_range("bytes=-10", 100), Some((90, 99)));
        assert_eq!(single_range("bytes=95-200", 100), Some((95, 99)));
        assert_eq!(single_range("bytes=0-1,5-6", 100), None);
        assert_eq!(single_range("bytes=200-300", 100), None);
        assert_eq!(single_range("items=0-1", 100), None);
    }

    #[test]
    fn a_current_copy_is_not_sent_again() {
        let modified = UNIX_EPOCH + Duration::from_millis(1_700_000_000_500);
        let tag = etag(modified, 42);
        let mut h = HeaderMap::new();
        assert!(!not_modified(&h, &tag, modified));
        h.insert(
            header::IF_MODIFIED_SINCE,
            HeaderValue::from_str(&httpdate::fmt_http_date(modified)).unwrap(),
        );
        assert!(not_modified(&h, &tag, modified), "same second");
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_static("\"other\""));
        assert!(
            !not_modified(&h, &tag, modified),
            "the tag decides when given"
        );
        h.insert(
            header::IF_NONE_MATCH,
            HeaderValue::from_str(&format!("\"x\", {tag}")).unwrap(),
        );
        assert!(not_modified(&h, &tag, modified));
    }
}
