//! The multipart form of an upload or an edit: at most one file (read up to the size limit, so
//! an oversized upload stops early) and text fields.

use std::collections::HashMap;

use axum::extract::{Multipart, multipart::MultipartRejection};
use domain::{Code, DomainError};

use crate::envelope::ApiResult;
use domain::firmware::MAX_SIZE;

#[derive(Debug, Default)]
pub(crate) struct Form {
    /// The uploaded file's name and bytes.
    pub file: Option<(String, Vec<u8>)>,
    pub fields: HashMap<String, String>,
}

impl Form {
    /// A text field, trimmed; `None` when the form does not carry it.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields.get(key).map(|s| s.trim())
    }

    /// A text field, trimmed; "" when absent.
    pub fn text(&self, key: &str) -> &str {
        self.get(key).unwrap_or_default()
    }
}

pub(crate) async fn read(multipart: Result<Multipart, MultipartRejection>) -> ApiResult<Form> {
    let mut multipart = multipart.map_err(|_| DomainError::invalid("file"))?;
    let mut form = Form::default();
    let too_large = |e: &axum::extract::multipart::MultipartError| {
        e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE
    };
    loop {
        let mut field = match multipart.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => return Ok(form),
            Err(e) if too_large(&e) => return Err(Code::FileTooLarge.into()),
            Err(_) => return Err(DomainError::invalid("file").into()),
        };
        let name = field.name().unwrap_or_default().to_string();
        if let Some(file_name) = field.file_name().map(str::to_string) {
            let mut bytes = Vec::new();
            loop {
                match field.chunk().await {
                    Ok(Some(chunk)) => {
                        // Stop reading early: the rule is checked again on the whole file.
                        if bytes.len() + chunk.len() > MAX_SIZE {
                            return Err(Code::FileTooLarge.into());
                        }
                        bytes.extend_from_slice(&chunk);
                    }
                    Ok(None) => break,
                    Err(e) if too_large(&e) => return Err(Code::FileTooLarge.into()),
                    Err(_) => return Err(DomainError::invalid("file").into()),
                }
            }
            form.file = Some((file_name, bytes));
        } else {
            let text = field
                .text()
                .await
                .map_err(|_| DomainError::invalid(name.clone()))?;
            form.fields.insert(name, text);
        }
    }
}

/// The fields of a firmware upload or edit, as the API document describes the multipart form
/// (every field is text; the limits are those `service::firmware::save` checks).
#[derive(utoipa::ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code)] // a description of the form, never built: `Form` reads it
pub(crate) struct FirmwareForm {
    /// Edit this firmware (inverter firmware; gateway software edits name it in the path).
    id: Option<i64>,
    /// `inverter` (the default) or `gateway`; inverter firmware route only.
    #[schema(value_type = Option<crate::text_enums::FirmwareTarget>)]
    target: Option<String>,
    /// The inverter-type label the firmware is filed under (inverter firmware).
    type_id: Option<i64>,
    /// The file's name when empty.
    #[schema(max_length = 64)]
    name: Option<String>,
    /// Letters, digits, `-` and `_`.
    #[schema(min_length = 1, max_length = 32)]
    version: Option<String>,
    /// Empty clears it.
    product_id: Option<String>,
    #[schema(max_length = 32)]
    hardware_version: Option<String>,
    /// Inverter firmware.
    #[schema(value_type = Option<crate::text_enums::UpgradeMode>)]
    upgrade_mode: Option<String>,
    /// Inverter firmware.
    #[schema(max_length = 32)]
    firmware_type: Option<String>,
    /// The change log in Chinese.
    #[schema(max_length = 2000)]
    change_log: Option<String>,
    #[schema(max_length = 2000)]
    change_log_en: Option<String>,
    /// `true` or `false`.
    enabled: Option<String>,
    /// .bin or .hex, at most 1.5 MB; required for a new one.
    #[schema(value_type = Option<String>, format = Binary)]
    file: Option<Vec<u8>>,
}
