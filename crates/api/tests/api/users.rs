//! The current user: profile, preferences, notification settings and avatar.

use crate::common;

use common::spawn;
use domain::user::BuiltinRole;
use serde_json::{Value, json};

/// `2022-10-03T15:39:21.000+00:00`
fn is_create_at(v: &Value) -> bool {
    let Some(s) = v.as_str() else { return false };
    let b = s.as_bytes();
    s.len() == 29
        && chrono::DateTime::parse_from_rfc3339(s).is_ok()
        && b[10] == b'T'
        && b[19] == b'.'
        && s.ends_with("+00:00")
}

/// A real JPEG of 16 x 16 pixels.
fn small_jpeg() -> Vec<u8> {
    let img = image::RgbImage::from_pixel(16, 16, image::Rgb([10, 200, 30]));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Jpeg)
        .expect("jpeg");
    out.into_inner()
}

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\rIDATx\x9cc\xf8\x0f\0\0\x01\x01\0\x05\x18\xd8N\0\0\0\0IEND\xaeB`\x82";

#[tokio::test]
async fn current_user_fields_and_types() {
    for app in spawn().await {
        let b = app.backend;
        let (owner_id, owner) = app
            .signed_in("owner@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let r = app.get("/api/v1/user?lan=en", Some(&owner)).await;
        r.expect_code(0);
        let d = r.data();
        assert_eq!(
            d["id"].as_i64(),
            Some(owner_id.0),
            "[{b}] id is an int: {d}"
        );
        assert!(
            is_create_at(&d["createAt"]),
            "[{b}] createAt {}",
            d["createAt"]
        );
        assert_eq!(d["tempUnit"], "C", "[{b}]");
        assert!(d["gender"].is_i64(), "[{b}] gender int");
        assert!(d["company"].is_null(), "[{b}] owner has no company: {d}");
        for key in ["nickname", "avatar", "mobile", "email", "type", "userSrc"] {
            assert!(d[key].is_string(), "[{b}] {key} is a string: {d}");
        }
        assert_eq!(d["email"], "owner@example.com", "[{b}]");

        let company = app.company("Sunny Installers").await;
        let (_, staff) = app
            .signed_in(
                "staff@sunny.example",
                BuiltinRole::CompanyStaff,
                Some(company),
            )
            .await;
        let r = app.get("/api/v1/user", Some(&staff)).await;
        r.expect_code(0);
        let c = &r.data()["company"];
        assert_eq!(c["id"].as_i64(), Some(company.0), "[{b}] {c}");
        assert_eq!(c["name"], "Sunny Installers", "[{b}]");
        assert!(
            c["logoUrl"].is_string() && c["iconUrl"].is_string(),
            "[{b}] {c}"
        );
        assert_eq!(c["themeColor"], "#00cc00", "[{b}]");
        assert_eq!(r.data()["type"], "company", "[{b}]");

        // No token, no user.
        app.get("/api/v1/user", None).await.expect_401();
    }
}

#[tokio::test]
async fn profile_update_round_trip_and_invalid_input_changes_nothing() {
    for app in spawn().await {
        let b = app.backend;
        let (id, t) = app
            .signed_in("me@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let uri = format!("/api/v1/user/{}", id.0);
        app.post(
            &uri,
            json!({"nickname": "  Sunny  ", "name": "Ann Example", "gender": "2",
                "mobile": "+34 600 123 456", "email": "Ann.New@Example.com"}),
            Some(&t),
        )
        .await
        .expect_code(0);
        let before = app.get("/api/v1/user", Some(&t)).await;
        let d = before.data();
        assert_eq!(d["nickname"], "Sunny", "[{b}] {d}");
        assert_eq!(d["gender"], 2, "[{b}]");
        assert_eq!(d["mobile"], "+34600123456", "[{b}]");
        assert_eq!(d["email"], "ann.new@example.com", "[{b}]");

        let bad = [
            json!({"email": "not an email"}),
            json!({"nickname": "x".repeat(31)}),
            json!({"nickname": "tab\there"}),
            json!({"gender": 7}),
            json!({"mobile": "call me"}),
            json!({"nickname": {"a": 1}}),
            json!({"nickname": "ok", "email": "bad@"}),
        ];
        for body in bad {
            app.post(&uri, body.clone(), Some(&t)).await.expect_code(4);
        }
        let after = app.get("/api/v1/user", Some(&t)).await;
        assert_eq!(before.data(), after.data(), "[{b}] nothing changed");

        // Fields left out keep their value.
        app.post(&uri, json!({"name": "Ann E."}), Some(&t))
            .await
            .expect_code(0);
        let r = app.get("/api/v1/user", Some(&t)).await;
        assert_eq!(r.data()["name"], "Ann E.", "[{b}]");
        assert_eq!(r.data()["nickname"], "Sunny", "[{b}]");
    }
}

#[tokio::test]
async fn temperature_unit_round_trip() {
    for app in spawn().await {
        let b = app.backend;
        let (_, t) = app
            .signed_in("temp@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let r = app.get("/api/v1/user/personalized", Some(&t)).await;
        r.expect_code(0);
        assert_eq!(r.data()["tempUnit"], "C", "[{b}]");
        app.post(
            "/api/v1/user/personalized",
            json!({"tempUnit": "F"}),
            Some(&t),
        )
        .await
        .expect_code(0);
        let r = app.get("/api/v1/user/personalized", Some(&t)).await;
        assert_eq!(r.data()["tempUnit"], "F", "[{b}]");
        assert_eq!(
            app.get("/api/v1/user", Some(&t)).await.data()["tempUnit"],
            "F",
            "[{b}]"
        );
        for bad in [json!({"tempUnit": "K"}), json!({"tempUnit": 1}), json!({})] {
            app.post("/api/v1/user/personalized", bad, Some(&t))
                .await
                .expect_code(4);
        }
        let r = app.get("/api/v1/user/personalized", Some(&t)).await;
        assert_eq!(r.data()["tempUnit"], "F", "[{b}] unchanged");
    }
}

#[tokio::test]
async fn notification_settings_need_a_code_for_another_address() {
    for app in spawn().await {
        let b = app.backend;
        let (_, t) = app
            .signed_in("notify@example.com", BuiltinRole::PlantOwner, None)
            .await;
        // The account's own email needs no code.
        app.post(
            "/api/v1/user/notify",
            json!({"enabled": true, "email": "notify@example.com"}),
            Some(&t),
        )
        .await
        .expect_code(0);
        let r = app.get("/api/v1/user/notify/enable", Some(&t)).await;
        r.expect_code(0);
        assert_eq!(r.data()["enabled"], true, "[{b}]");
        assert_eq!(r.data()["email"], "notify@example.com", "[{b}]");

        // Another address without a code (or with a wrong one): 5, nothing changes.
        app.post(
            "/api/v1/user/notify",
            json!({"enabled": true, "email": "ops@example.com"}),
            Some(&t),
        )
        .await
        .expect_code(5);
        app.get("/api/v1/user/notify/code?email=ops@example.com", Some(&t))
            .await
            .expect_code(0);
        let code = app.last_code("ops@example.com").await;
        let wrong = if code == "000000" { "111111" } else { "000000" };
        app.post(
            "/api/v1/user/notify",
            json!({"enabled": true, "email": "ops@example.com", "code": wrong}),
            Some(&t),
        )
        .await
        .expect_code(5);
        let r = app.get("/api/v1/user/notify/enable", Some(&t)).await;
        assert_eq!(r.data()["email"], "notify@example.com", "[{b}] unchanged");

        // With the code it is accepted.
        app.post(
            "/api/v1/user/notify",
            json!({"enabled": "true", "email": "ops@example.com", "code": code}),
            Some(&t),
        )
        .await
        .expect_code(0);
        let r = app.get("/api/v1/user/notify/enable", Some(&t)).await;
        assert_eq!(r.data()["email"], "ops@example.com", "[{b}]");
        // Invalid address.
        app.post(
            "/api/v1/user/notify",
            json!({"enabled": true, "email": "nope"}),
            Some(&t),
        )
        .await
        .expect_code(4);
        // Turning it off needs no address.
        app.post("/api/v1/user/notify", json!({"enabled": false}), Some(&t))
            .await
            .expect_code(0);
        let r = app.get("/api/v1/user/notify/enable", Some(&t)).await;
        assert_eq!(r.data()["enabled"], false, "[{b}]");
    }
}

#[tokio::test]
async fn avatar_upload_is_sniffed_and_served() {
    for app in spawn().await {
        let b = app.backend;
        let (id, t) = app
            .signed_in("face@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let uri = format!("/api/v1/user/{}/avatar", id.0);
        // A PNG named .jpg is still a PNG: the content decides.
        let r = app
            .upload(&uri, "me.jpg", "image/jpeg", PNG, Some(&t))
            .await;
        r.expect_code(0);
        let url = r.data().as_str().expect("url").to_string();
        assert!(
            url.starts_with("/files/") && url.ends_with(".png"),
            "[{b}] {url}"
        );
        let me = app.get("/api/v1/user", Some(&t)).await;
        assert_eq!(me.data()["avatar"], url.as_str(), "[{b}]");
        let served = app.get(&url, None).await;
        assert_eq!(served.status, 200, "[{b}] GET {url}");
        assert_eq!(&served.body[..], PNG, "[{b}] served bytes");

        // Text named x.png: 11, avatar unchanged.
        app.upload(&uri, "x.png", "image/png", b"hello, I am text", Some(&t))
            .await
            .expect_code(11);
        // A JPEG one byte over 6 MB: 12.
        let mut big = small_jpeg();
        big.resize(6 * 1024 * 1024 + 1, 0);
        app.upload(&uri, "big.jpg", "image/jpeg", &big, Some(&t))
            .await
            .expect_code(12);
        // Exactly 6 MB is fine (a real JPEG header: pictures are checked by their header).
        big.truncate(6 * 1024 * 1024);
        let r = app
            .upload(&uri, "ok.jpg", "image/jpeg", &big, Some(&t))
            .await;
        r.expect_code(0);
        let jpg = r.data().as_str().unwrap().to_string();
        assert!(jpg.ends_with(".jpg"), "[{b}] {jpg}");
        // The replaced file is gone.
        assert_eq!(
            app.get(&url, None).await.status,
            404,
            "[{b}] old avatar removed"
        );
        // Not multipart at all: 4.
        app.post(&uri, json!({"file": "x"}), Some(&t))
            .await
            .expect_code(4);
        let me = app.get("/api/v1/user", Some(&t)).await;
        assert_eq!(me.data()["avatar"], jpg.as_str(), "[{b}]");
    }
}

#[tokio::test]
async fn read_only_accounts_look_but_change_nothing() {
    for app in spawn().await {
        let b = app.backend;
        let (id, t) = app
            .signed_in("viewer@example.com", BuiltinRole::PlantOwner, None)
            .await;
        app.store.set_read_only(id, true).await.unwrap();
        app.get("/api/v1/user", Some(&t)).await.expect_code(0);
        app.post(
            &format!("/api/v1/user/{}", id.0),
            json!({"nickname": "changed"}),
            Some(&t),
        )
        .await
        .expect_code(2);
        app.post(
            "/api/v1/user/personalized",
            json!({"tempUnit": "F"}),
            Some(&t),
        )
        .await
        .expect_code(2);
        app.upload(
            &format!("/api/v1/user/{}/avatar", id.0),
            "a.png",
            "image/png",
            PNG,
            Some(&t),
        )
        .await
        .expect_code(2);
        app.post(
            &format!("/api/v1/user/{}/pwd", id.0),
            json!({"oldPassword": "secret123", "newPassword": "other1234"}),
            Some(&t),
        )
        .await
        .expect_code(2);
        let u = app.store.user(id).await.unwrap().unwrap();
        assert_eq!(u.nickname, "viewer", "[{b}]");
        assert_eq!(u.temp_unit, "C", "[{b}]");
        assert_eq!(u.avatar, "", "[{b}]");
        app.login("viewer@example.com", "secret123").await;
    }
}
