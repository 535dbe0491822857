//! Plant pictures: JPG or PNG up to 10 MB, kept as uploaded plus a small JPEG thumbnail.

use axum::extract::{Multipart, State, multipart::MultipartRejection};
use domain::{Code, plant::PICTURE_MAX_BYTES};
use image::{ImageFormat, ImageReader, Limits};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    AppState,
    envelope::{ApiError, ApiResult, Data, Envelope},
    files::{self, ImageKind},
    session::CurrentUser,
};

const THUMB_SIZE: u32 = 320;

/// Where a stored picture and its thumbnail are served.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PictureUrls {
    /// The picture as uploaded (`/files/plants/...`).
    pub url: String,
    /// A JPEG at most 320 px on its longer side.
    pub thumb_url: String,
}

/// Stores a plant picture and its thumbnail; answers `{url, thumbUrl}` for the plant form.
#[utoipa::path(post, path = "/api/v1/plant/thumbnail", tag = "plants", security(("bearer" = [])),
    request_body(content_type = "multipart/form-data", description = "field `file`"),
    responses((status = 200, body = Envelope<PictureUrls>, description = "The picture's URLs; 11 not JPG/PNG or unreadable, 12 over 10 MB, 13 over 24 megapixels")))]
pub async fn upload(
    State(app): State<AppState>,
    me: CurrentUser,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<Data<PictureUrls>> {
    me.actor.require(domain::permissions::STATION_VIEW)?;
    me.actor.require_writable()?;
    let bytes = files::first_file(multipart, PICTURE_MAX_BYTES).await?;
    // The header is checked before the thumbnail decodes anything.
    let kind = files::check_image(&bytes, &[ImageKind::Jpeg, ImageKind::Png])?;
    let (bytes, thumb) = tokio::task::spawn_blocking(move || {
        let thumb = thumbnail(&bytes, kind);
        (bytes, thumb)
    })
    .await
    .map_err(|e| ApiError::internal("thumbnail task", e))?;
    let thumb = thumb.ok_or(Code::UnsupportedFile)?;
    let url = files::save(&app, "plants", kind.extension(), &bytes).await?;
    let thumb_url = files::save(&app, "plants", "jpg", &thumb).await?;
    Ok(Data(PictureUrls { url, thumb_url }))
}

/// A JPEG at most 320 px on its longer side; `None` when the picture cannot be decoded.
fn thumbnail(bytes: &[u8], kind: ImageKind) -> Option<Vec<u8>> {
    let format = if kind == ImageKind::Png {
        ImageFormat::Png
    } else {
        ImageFormat::Jpeg
    };
    let mut reader = ImageReader::with_format(std::io::Cursor::new(bytes), format);
    // Pictures were checked against IMAGE_MAX_PIXELS already; these limits are the decoder's
    // own guard (RGBA at the largest size allowed, with room for the thumbnail).
    let mut limits = Limits::default();
    limits.max_image_width = Some(12_000);
    limits.max_image_height = Some(12_000);
    limits.max_alloc = Some(files::IMAGE_MAX_PIXELS * 4 + 16 * 1024 * 1024);
    reader.limits(limits);
    let image = reader
        .decode()
        .ok()?
        .thumbnail(THUMB_SIZE, THUMB_SIZE)
        .into_rgb8();
    let mut out = std::io::Cursor::new(Vec::new());
    image.write_to(&mut out, ImageFormat::Jpeg).ok()?;
    Some(out.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picture_gets_a_small_jpeg_thumbnail_and_garbage_gets_none() {
        let img = image::RgbImage::from_pixel(800, 400, image::Rgb([10, 200, 30]));
        let mut png = std::io::Cursor::new(Vec::new());
        img.write_to(&mut png, ImageFormat::Png).unwrap();
        let thumb = thumbnail(png.get_ref(), ImageKind::Png).unwrap();
        let decoded = image::load_from_memory(&thumb).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (320, 160));
        assert!(thumbnail(b"\x89PNG\r\n\x1a\nnot really", ImageKind::Png).is_none());
    }
}
