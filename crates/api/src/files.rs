//! Uploaded files: kept under `uploads/` of the file store (the data directory or the
//! database, see `service::files`), served read-only at `/files/...`. Types are decided by the file's
//! first bytes, never by its name.

pub mod serve;

use axum::{
    Router,
    extract::{Multipart, multipart::MultipartRejection},
    routing::get,
};
use domain::{Code, DomainError};
use image::{ImageFormat, ImageReader};
use tower_http::services::ServeDir;

use crate::{AppState, FilesBackend, envelope::ApiError};

/// Serves `/files/...` from where uploads are kept.
pub fn router(app: &AppState) -> Router<AppState> {
    match app.config.files {
        FilesBackend::Local => {
            Router::new().nest_service("/files", ServeDir::new(app.config.data_dir.join("uploads")))
        }
        FilesBackend::Database => Router::new().route("/files/{*path}", get(serve::file)),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageKind {
    Jpeg,
    Png,
    Gif,
}

impl ImageKind {
    pub fn sniff(bytes: &[u8]) -> Option<ImageKind> {
        if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(ImageKind::Jpeg)
        } else if bytes.starts_with(&[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A]) {
            Some(ImageKind::Png)
        } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
            Some(ImageKind::Gif)
        } else {
            None
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            ImageKind::Jpeg => "jpg",
            ImageKind::Png => "png",
            ImageKind::Gif => "gif",
        }
    }
}

/// Images with more pixels than this are refused before anything decodes them (code 13): an
/// 8000 x 8000 PNG of 182 KB took 6-10 s of CPU and 192 MB to make a thumbnail of. 24 million
/// pixels is a 6000 x 4000 camera picture; a phone's 12-megapixel photo fits twice.
pub const IMAGE_MAX_PIXELS: u64 = 24_000_000;

/// Width and height as the image's header states them, read without decoding the pixels.
pub fn image_dimensions(bytes: &[u8], kind: ImageKind) -> Option<(u32, u32)> {
    let format = match kind {
        ImageKind::Jpeg => ImageFormat::Jpeg,
        ImageKind::Png => ImageFormat::Png,
        // No GIF decoder is built in: GIFs are never accepted as pictures.
        ImageKind::Gif => return None,
    };
    ImageReader::with_format(std::io::Cursor::new(bytes), format)
        .into_dimensions()
        .ok()
}

/// Every uploaded picture passes here: one of the `allowed` kinds by content (11 otherwise,
/// also for a header that cannot be read), and at most [`IMAGE_MAX_PIXELS`] by its header (13).
pub fn check_image(bytes: &[u8], allowed: &[ImageKind]) -> Result<ImageKind, ApiError> {
    let kind = ImageKind::sniff(bytes)
        .filter(|k| allowed.contains(k))
        .ok_or(Code::UnsupportedFile)?;
    let (width, height) = image_dimensions(bytes, kind).ok_or(Code::UnsupportedFile)?;
    if u64::from(width) * u64::from(height) > IMAGE_MAX_PIXELS {
        tracing::info!(width, height, "picture refused: too many pixels");
        return Err(Code::ImageTooLarge.into());
    }
    Ok(kind)
}

/// Reads the first file of a multipart body, refusing anything larger than `max` bytes.
pub async fn first_file(
    multipart: Result<Multipart, MultipartRejection>,
    max: usize,
) -> Result<Vec<u8>, ApiError> {
    let mut multipart = multipart.map_err(|_| DomainError::invalid("file"))?;
    loop {
        let field = match multipart.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => return Err(DomainError::invalid("file").into()),
            Err(e) if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE => {
                return Err(Code::FileTooLarge.into());
            }
            Err(_) => return Err(DomainError::invalid("file").into()),
        };
        if field.file_name().is_none() && field.name() != Some("file") {
            continue;
        }
        let mut field = field;
        let mut bytes = Vec::new();
        loop {
            match field.chunk().await {
                Ok(Some(chunk)) => {
                    if bytes.len() + chunk.len() > max {
                        return Err(Code::FileTooLarge.into());
                    }
                    bytes.extend_from_slice(&chunk);
                }
                Ok(None) => return Ok(bytes),
                Err(e) if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE => {
                    return Err(Code::FileTooLarge.into());
                }
                Err(_) => return Err(DomainError::invalid("file").into()),
            }
        }
    }
}

/// A multipart form: its text fields and its file (the field named `file`, or `fileField`).
#[derive(Debug, Default)]
pub struct Form {
    pub fields: std::collections::HashMap<String, String>,
    pub file: Option<Vec<u8>>,
}

impl Form {
    /// A text field, trimmed; `None` when missing or empty.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.fields
            .get(name)
            .map(|v| v.trim())
            .filter(|v| !v.is_empty())
    }
}

/// Text fields longer than this are refused (4): no form field here needs more.
const FORM_TEXT_MAX: usize = 4096;

/// Reads a whole multipart form: text fields, and the file field `file_field` of at most `max`
/// bytes (12 when larger). An empty file part counts as no file.
pub async fn form(
    multipart: Result<Multipart, MultipartRejection>,
    file_field: &str,
    max: usize,
) -> Result<Form, ApiError> {
    let mut multipart = multipart.map_err(|_| DomainError::invalid("body"))?;
    let mut form = Form::default();
    let too_large = |e: &axum::extract::multipart::MultipartError| {
        e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE
    };
    loop {
        let mut field = match multipart.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => return Ok(form),
            Err(e) if too_large(&e) => return Err(Code::FileTooLarge.into()),
            Err(_) => return Err(DomainError::invalid("body").into()),
        };
        let name = field.name().unwrap_or_default().to_string();
        let is_file = name == file_field;
        let limit = if is_file { max } else { FORM_TEXT_MAX };
        let mut bytes = Vec::new();
        loop {
            match field.chunk().await {
                Ok(Some(chunk)) => {
                    if bytes.len() + chunk.len() > limit {
                        return Err(if is_file {
                            Code::FileTooLarge.into()
                        } else {
                            DomainError::invalid(name).into()
                        });
                    }
                    bytes.extend_from_slice(&chunk);
                }
                Ok(None) => break,
                Err(e) if too_large(&e) => return Err(Code::FileTooLarge.into()),
                Err(_) => return Err(DomainError::invalid(name).into()),
            }
        }
        if is_file {
            if !bytes.is_empty() {
                form.file = Some(bytes);
            }
        } else {
            let text = String::from_utf8(bytes).map_err(|_| DomainError::invalid(name.clone()))?;
            form.fields.insert(name, text);
        }
    }
}

/// A logo or icon: JPG, PNG or GIF by content (11 otherwise). JPG and PNG pass the pixel limit
/// of [`check_image`]; a GIF's size is read from its header.
pub fn check_logo(bytes: &[u8]) -> Result<ImageKind, ApiError> {
    match ImageKind::sniff(bytes) {
        Some(ImageKind::Gif) => {
            let size = |at: usize| {
                bytes
                    .get(at..at + 2)
                    .map(|b| u64::from(u16::from_le_bytes([b[0], b[1]])))
            };
            let (w, h) = size(6).zip(size(8)).ok_or(Code::UnsupportedFile)?;
            if w * h > IMAGE_MAX_PIXELS {
                return Err(Code::ImageTooLarge.into());
            }
            Ok(ImageKind::Gif)
        }
        _ => check_image(bytes, &[ImageKind::Jpeg, ImageKind::Png]),
    }
}

/// Stores bytes under `uploads/<folder>/` with a random name and returns their public URL.
pub async fn save(
    app: &AppState,
    folder: &str,
    ext: &str,
    bytes: &[u8],
) -> Result<String, ApiError> {
    app.files()
        .upload(folder, ext, bytes)
        .await
        .map_err(|e| ApiError::internal("upload", e))
}

/// Removes a file this module stored earlier; anything else is left alone.
pub async fn remove(app: &AppState, url: &str) {
    app.files().remove_upload(url).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(width: u32, height: u32, format: ImageFormat) -> Vec<u8> {
        let img = image::RgbImage::from_pixel(width, height, image::Rgb([200, 120, 0]));
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, format).unwrap();
        out.into_inner()
    }

    #[test]
    fn dimensions_come_from_the_header() {
        let jpeg = encoded(64, 48, ImageFormat::Jpeg);
        assert_eq!(image_dimensions(&jpeg, ImageKind::Jpeg), Some((64, 48)));
        let png = encoded(30, 20, ImageFormat::Png);
        assert_eq!(image_dimensions(&png, ImageKind::Png), Some((30, 20)));
        // Only the header is read: the pixel data can be missing altogether.
        let idat = png.windows(4).position(|w| w == b"IDAT").unwrap();
        assert_eq!(
            image_dimensions(&png[..idat + 4], ImageKind::Png),
            Some((30, 20))
        );
        assert_eq!(
            image_dimensions(b"\x89PNG\r\n\x1a\nnope", ImageKind::Png),
            None
        );
    }

    #[test]
    fn the_pixel_limit_is_what_the_message_says() {
        let message = Code::ImageTooLarge.message(domain::Lang::En);
        assert!(message.contains(&format!("{} megapixels", IMAGE_MAX_PIXELS / 1_000_000)));
    }

    #[test]
    fn pictures_are_checked_by_kind_and_pixel_count() {
        let png = encoded(30, 20, ImageFormat::Png);
        let both = [ImageKind::Jpeg, ImageKind::Png];
        assert_eq!(check_image(&png, &both).ok(), Some(ImageKind::Png));
        assert!(check_image(&png, &[ImageKind::Jpeg]).is_err());
        assert!(check_image(b"GIF89a....", &both).is_err());
    }

    #[test]
    fn images_are_recognised_by_their_first_bytes() {
        assert_eq!(
            ImageKind::sniff(&[0xFF, 0xD8, 0xFF, 0xE0]),
            Some(ImageKind::Jpeg)
        );
        assert_eq!(
            ImageKind::sniff(b"\x89PNG\r\n\x1a\nrest"),
            Some(ImageKind::Png)
        );
        assert_eq!(ImageKind::sniff(b"GIF89a..."), Some(ImageKind::Gif));
        assert_eq!(ImageKind::sniff(b"<?php echo 1; ?>"), None);
        assert_eq!(ImageKind::sniff(b""), None);
    }
}
