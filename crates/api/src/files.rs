//! Uploaded files: kept under `<data dir>/uploads`, served read-only at `/files/...`. Types are
//! decided by the file's first bytes, never by its name.

use axum::{
    Router,
    extract::{Multipart, multipart::MultipartRejection},
};
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use domain::{Code, DomainError};
use tower_http::services::ServeDir;

use crate::{AppState, envelope::ApiError, session::random_bytes};

/// Serves `/files/...` from the configured data directory.
pub fn router(app: &AppState) -> Router<AppState> {
    Router::new().nest_service("/files", ServeDir::new(app.config.data_dir.join("uploads")))
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

/// Stores bytes under `uploads/<folder>/` with a random name and returns their public URL.
pub async fn save(
    app: &AppState,
    folder: &str,
    ext: &str,
    bytes: &[u8],
) -> Result<String, ApiError> {
    let dir = app.config.data_dir.join("uploads").join(folder);
    tokio::fs::create_dir_all(&dir)
        .await
        .map_err(|e| ApiError::internal("upload dir", e))?;
    let name = format!("{}.{ext}", URL_SAFE_NO_PAD.encode(random_bytes::<12>()));
    tokio::fs::write(dir.join(&name), bytes)
        .await
        .map_err(|e| ApiError::internal("upload", e))?;
    Ok(format!("/files/{folder}/{name}"))
}

/// Removes a file this module stored earlier; anything else is left alone.
pub async fn remove(app: &AppState, url: &str) {
    let Some(rest) = url.strip_prefix("/files/") else {
        return;
    };
    if rest.split('/').any(|part| part.is_empty() || part == "..") {
        return;
    }
    let path = app.config.data_dir.join("uploads").join(rest);
    if let Err(e) = tokio::fs::remove_file(&path).await {
        tracing::debug!(path = %path.display(), %e, "old upload not removed");
    }
}

#[cfg(test)]
mod tests {
    use super::ImageKind;

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
