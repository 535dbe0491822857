//! Spreadsheet downloads: every `.xlsx` the API hands out (plant generation, gateways, events,
//! dynamic data, reports) is a table written by `service::xlsx` and answered here as an
//! attachment, so the file name rule is the same everywhere.

use axum::{
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};
pub use service::xlsx::{Cell, Sheet};

use crate::envelope::{ApiError, ApiResult};

/// The MIME type of an Office Open XML workbook.
pub const CONTENT_TYPE: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/// The workbook of `sheets` (`service::xlsx::workbook`).
pub fn workbook(sheets: &[Sheet]) -> ApiResult<Vec<u8>> {
    service::xlsx::workbook(sheets).map_err(|e| ApiError::internal("xlsx", e))
}

/// The attachment response: the file name is given both as plain ASCII (for old clients) and
/// RFC 5987 encoded (for names in Chinese or Spanish).
pub fn attachment(file_name: &str, bytes: Vec<u8>) -> Response {
    let ascii: String = file_name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.() ".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let encoded: String = file_name
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    let disposition = format!("attachment; filename=\"{ascii}\"; filename*=UTF-8''{encoded}");
    let mut response = bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(CONTENT_TYPE));
    if let Ok(value) = HeaderValue::from_str(&disposition) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    response
}

/// Workbook and response in one step: what a download handler returns.
pub fn download(file_name: &str, sheets: &[Sheet]) -> ApiResult<Response> {
    Ok(attachment(file_name, workbook(sheets)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attachment_names_are_encoded() {
        let r = attachment("发电量 2026.xlsx", vec![1, 2]);
        let d = r.headers()[header::CONTENT_DISPOSITION].to_str().unwrap();
        assert!(
            d.starts_with("attachment; filename=\"___ 2026.xlsx\""),
            "{d}"
        );
        assert!(d.contains("filename*=UTF-8''%E5%8F%91"), "{d}");
        assert_eq!(r.headers()[header::CONTENT_TYPE], CONTENT_TYPE);
    }
}
