//! Issue 12, finding 12: pictures are refused by their pixel count, read from the header before
//! anything decodes them, on every image upload; request bodies are small by default on every
//! route (anonymous ones too) and large only where files are uploaded.

use crate::common;

use std::time::{Duration, Instant};

use common::spawn;
use domain::user::BuiltinRole;
use serde_json::json;

/// CRC-32 (the PNG chunk checksum), bit by bit: small and only for building test files.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A tiny PNG whose header claims `width` x `height`, the shape of the reported attack (an
/// 8000 x 8000 PNG of 182 KB): a decoder would allocate for the claimed size.
fn png_claiming(width: u32, height: u32) -> Vec<u8> {
    let img = image::RgbImage::from_pixel(1, 1, image::Rgb([1, 2, 3]));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)
        .expect("png");
    let mut png = out.into_inner();
    // Signature (8), IHDR length (4), "IHDR" (4), width (4), height (4), ... CRC after 13 bytes.
    png[16..20].copy_from_slice(&width.to_be_bytes());
    png[20..24].copy_from_slice(&height.to_be_bytes());
    let crc = crc32(&png[12..29]);
    png[29..33].copy_from_slice(&crc.to_be_bytes());
    png
}

fn jpeg(width: u32, height: u32) -> Vec<u8> {
    let img = image::RgbImage::from_pixel(width, height, image::Rgb([90, 90, 200]));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Jpeg)
        .expect("jpeg");
    out.into_inner()
}

#[tokio::test]
async fn pictures_over_the_pixel_limit_are_refused_from_their_header_everywhere() {
    let huge = png_claiming(8000, 8000);
    assert_eq!(
        image::ImageReader::with_format(std::io::Cursor::new(&huge), image::ImageFormat::Png)
            .into_dimensions()
            .ok(),
        Some((8000, 8000)),
        "the crafted header is a valid PNG header"
    );
    let just_over = png_claiming(6001, 4000);
    for app in spawn().await {
        let b = app.backend;
        let (id, t) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let avatar = format!("/api/v1/user/{}/avatar", id.0);
        for uri in ["/api/v1/plant/thumbnail", avatar.as_str()] {
            for picture in [&huge, &just_over] {
                let started = Instant::now();
                let r = app
                    .upload(uri, "roof.png", "image/png", picture, Some(&t))
                    .await;
                r.expect_code(13);
                assert!(r.msg().contains("24 megapixels"), "[{b}] {}", r.msg());
                assert!(
                    started.elapsed() < Duration::from_secs(2),
                    "[{b}] {uri}: refused without decoding ({:?})",
                    started.elapsed()
                );
            }
            // A picture within the limit still goes through.
            app.upload(uri, "roof.jpg", "image/jpeg", &jpeg(320, 200), Some(&t))
                .await
                .expect_code(0);
        }
        let stored = std::fs::read_dir(app.data_dir.join("uploads/plants"))
            .map(|d| d.count())
            .unwrap_or(0);
        assert_eq!(stored, 2, "[{b}] only the good picture and its thumbnail");
    }
}

#[tokio::test]
async fn bodies_are_small_by_default_and_large_only_on_upload_routes() {
    for app in spawn().await {
        let b = app.backend;
        let (id, t) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let (_, admin) = app
            .signed_in("root@example.com", BuiltinRole::InternalAdmin, None)
            .await;
        let padding = "x".repeat(100 * 1024);

        // Anonymous and signed-in JSON routes alike: 100 KB is refused before it is parsed.
        for (uri, token) in [
            ("/oauth/token", None),
            ("/oauth/token/new", None),
            ("/anonymous/signup", None),
            ("/anonymous/resetPwd", None),
        ] {
            let r = app
                .post(
                    uri,
                    json!({"username": "ann@example.com", "pad": padding}),
                    token,
                )
                .await;
            r.expect_code(4);
            assert!(
                r.msg().ends_with("body too large"),
                "[{b}] {uri}: {}",
                r.msg()
            );
        }
        let r = app
            .post(
                &format!("/api/v1/user/{}", id.0),
                json!({"nickname": "Ann", "pad": padding}),
                Some(&t),
            )
            .await;
        r.expect_code(4);
        assert!(r.msg().ends_with("body too large"), "[{b}] {}", r.msg());
        // Below the limit a body is read as ever.
        let r = app
            .post(
                "/oauth/token",
                json!({"username": "ann@example.com", "password": "x".repeat(50 * 1024)}),
                None,
            )
            .await;
        r.expect_code(102);

        // The upload routes take their files: a 5 MB avatar...
        let mut five_mb = jpeg(64, 64);
        five_mb.resize(5 * 1024 * 1024, 0);
        app.upload(
            &format!("/api/v1/user/{}/avatar", id.0),
            "me.jpg",
            "image/jpeg",
            &five_mb,
            Some(&t),
        )
        .await
        .expect_code(0);
        // ...but not more than theirs: 13 MB is cut off early, answered as a file too large.
        let mut thirteen_mb = jpeg(64, 64);
        thirteen_mb.resize(13 * 1024 * 1024, 0);
        app.upload(
            &format!("/api/v1/user/{}/avatar", id.0),
            "me.jpg",
            "image/jpeg",
            &thirteen_mb,
            Some(&t),
        )
        .await
        .expect_code(12);

        // A protocol config may be larger than an ordinary body: it reaches its own checks.
        let r = app
            .post(
                "/api/v1/logger/function",
                json!({"code": "big-config", "pad": padding}),
                Some(&admin),
            )
            .await;
        r.expect_code(4);
        assert!(!r.msg().contains("body"), "[{b}] {}", r.msg());
    }
}
