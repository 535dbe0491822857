//! Files to upload through the API: a picture, and a firmware with the inverter-type label it
//! is filed under.

use serde_json::json;

use super::{Error, http};

/// A PNG of noise (so it does not compress to nothing), `w` x `h`.
pub fn png(w: u32, h: u32, seed: u32) -> Result<Vec<u8>, Error> {
    let mut x = seed | 1;
    let img = image::RgbImage::from_fn(w, h, |_, _| {
        // xorshift: cheap noise.
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let [r, g, b, _] = x.to_le_bytes();
        image::Rgb([r, g, b])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)?;
    Ok(out.into_inner())
}

/// A firmware image of `len` bytes that does not compress to nothing.
pub fn firmware_image(len: u32) -> Vec<u8> {
    (0..len)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect()
}

/// Uploads `bytes` as `file_name` (version V1_0) under a new label for inverter type 2;
/// answers the firmware's id.
pub async fn firmware(port: u16, token: &str, file_name: &str, bytes: &[u8]) -> Result<i64, Error> {
    let add = "/api/v1/firmware/inverterType/add";
    let title = http::post_json(port, add, token, &json!({"name": "Tested"}))
        .await?
        .data()?;
    let label = json!({"name": "LV hybrid", "parentId": title, "codes": [2]});
    let label = http::post_json(port, add, token, &label)
        .await?
        .data()?
        .to_string();
    let fields = [
        ("name", "Tested image"),
        ("version", "V1_0"),
        ("typeId", label.as_str()),
    ];
    let saved = http::post_form(
        port,
        "/api/v1/firmware/save",
        token,
        &fields,
        Some(("file", file_name, bytes)),
    )
    .await?
    .data()?;
    Ok(saved["id"].as_i64().ok_or("no firmware id")?)
}
