//! Hostile and malformed input: nothing may panic or answer 5xx, and every answer is the
//! documented envelope.

use crate::common;

use std::time::Duration;

use axum::{
    body::Body,
    http::{Method, StatusCode, header},
};
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use common::{spawn, spawn_with};
use domain::user::BuiltinRole;
use serde_json::json;

#[tokio::test]
async fn oversized_and_malformed_bodies_are_refused_cleanly() {
    for app in spawn().await {
        let b = app.backend;
        app.user(
            "ann@example.com",
            "secret123",
            BuiltinRole::PlantOwner,
            None,
        )
        .await;
        // Far more than any body limit.
        let mut huge = br#"{"username":"ann@example.com","password":""#.to_vec();
        huge.extend(std::iter::repeat_n(b'a', 13 * 1024 * 1024));
        huge.extend_from_slice(br#""}"#);
        let r = app
            .post_raw("/oauth/token", "application/json", huge, None)
            .await;
        assert!(r.json.is_object(), "[{b}] JSON answer to an oversized body");
        assert_ne!(r.json["success"], true, "[{b}]");

        for (what, body) in [
            (
                "object username",
                br#"{"username":{"a":1},"password":"x"}"#.to_vec(),
            ),
            (
                "array password",
                br#"{"username":"a@b.co","password":[1,2]}"#.to_vec(),
            ),
            ("invalid JSON", br#"{"username":"#.to_vec()),
            ("not JSON", b"username=ann".to_vec()),
            ("JSON array", b"[1,2,3]".to_vec()),
            ("invalid UTF-8", vec![b'"', 0xff, 0xfe, b'"']),
        ] {
            let r = app
                .post_raw("/oauth/token", "application/json", body, None)
                .await;
            r.expect_code(4);
            assert!(
                r.msg().starts_with("Parameter validation error"),
                "[{b}] {what}"
            );
        }
        // Unknown fields are ignored.
        app.post(
            "/oauth/token",
            json!({"username": "ann@example.com", "password": "secret123",
                "grant_type": "password", "captcha": {"x": 1}, "deviceId": 7}),
            None,
        )
        .await
        .expect_code(0);
        // Unknown grant types are a validation error.
        app.post(
            "/oauth/token",
            json!({"grant_type": "client_credentials"}),
            None,
        )
        .await
        .expect_code(4);
    }
}

#[tokio::test]
async fn sql_looking_and_very_long_strings_are_just_data() {
    for app in spawn().await {
        let b = app.backend;
        let (id, t) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let long = "x".repeat(10_000);
        let nasty = [
            "' OR '1'='1",
            "ann@example.com'--",
            "x'; DROP TABLE users;--",
            "\" OR 1=1 --",
            "ann@example.com\u{0}",
            "\u{0}",
            long.as_str(),
            "😀@example.com",
        ];
        for (i, account) in nasty.into_iter().enumerate() {
            let r = app.login_resp(account, "secret123").await;
            assert!(
                r.code() == 102 || r.code() == 4,
                "[{b}] login as {:?}: {}",
                account.chars().take(30).collect::<String>(),
                r.text()
            );
            // As a password (for a different account each time, so throttling does not slow
            // the test down).
            app.login_resp(&format!("pw{i}@example.com"), account)
                .await
                .expect_code(102);
            let enc: String = form_urlencoded::byte_serialize(account.as_bytes()).collect();
            for path in [
                format!("/anonymous/checkAccount?account={enc}"),
                format!("/anonymous/getCode?account={enc}"),
                format!("/anonymous/checkCode?account={enc}&code=123456"),
                format!("/api/v1/company/user/list?name={enc}"),
            ] {
                let r = app.get(&path, Some(&t)).await;
                assert!(r.json.is_object(), "[{b}] {path}");
            }
            let r = app
                .post(
                    "/anonymous/signup",
                    json!({"account": account, "password": "secret123", "code": "123456"}),
                    None,
                )
                .await;
            assert_ne!(r.code(), 0, "[{b}]");
            let r = app
                .post(
                    &format!("/api/v1/user/{}", id.0),
                    json!({"nickname": account}),
                    Some(&t),
                )
                .await;
            assert!(r.code() == 0 || r.code() == 4, "[{b}] {}", r.text());
        }
        // The users table survived and the account still works.
        assert_eq!(app.store.count_users().await.unwrap(), 1, "[{b}]");
        app.login("ann@example.com", "secret123").await;
        // A 10 000-character nickname is a validation error, not a truncation.
        app.post(
            &format!("/api/v1/user/{}", id.0),
            json!({"nickname": long}),
            Some(&t),
        )
        .await
        .expect_code(4);
    }
}

#[tokio::test]
async fn malformed_and_tampered_tokens_get_401() {
    for app in spawn().await {
        let b = app.backend;
        let (_, token) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let (victim, _) = app
            .signed_in("admin@example.com", BuiltinRole::InternalAdmin, None)
            .await;
        let parts: Vec<&str> = token.split('.').collect();
        assert_eq!(parts.len(), 3, "[{b}] a JWT");

        let flip = |s: &str, at: usize| {
            let mut chars: Vec<char> = s.chars().collect();
            chars[at] = if chars[at] == 'A' { 'B' } else { 'A' };
            chars.into_iter().collect::<String>()
        };
        let sig_flipped = format!("{}.{}.{}", parts[0], parts[1], flip(parts[2], 5));
        let payload_flipped = format!("{}.{}.{}", parts[0], flip(parts[1], 10), parts[2]);
        // Claim to be someone else, keeping the signature.
        let mut claims: serde_json::Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).unwrap()).unwrap();
        claims["sub"] = json!(victim.0.to_string());
        let forged_payload = URL_SAFE_NO_PAD.encode(claims.to_string());
        let forged = format!("{}.{forged_payload}.{}", parts[0], parts[2]);
        // The "none" algorithm.
        let none_header = URL_SAFE_NO_PAD.encode(r#"{"alg":"none","typ":"JWT"}"#);
        let unsigned = format!("{none_header}.{forged_payload}.");

        let headers = [
            "Bearer".to_string(),
            "Bearer ".to_string(),
            "Bearer a.b.c".to_string(),
            "Basic YW5uOnNlY3JldDEyMw==".to_string(),
            format!("Basic {token}"),
            token.clone(),
            format!("Bearer {sig_flipped}"),
            format!("Bearer {payload_flipped}"),
            format!("Bearer {forged}"),
            format!("Bearer {unsigned}"),
            format!("Bearer {}", "x".repeat(10_000)),
        ];
        for value in headers {
            let req = app
                .request(Method::GET, "/api/v1/user")
                .header(header::AUTHORIZATION, &value)
                .body(Body::empty())
                .unwrap();
            let r = app.send(req).await;
            assert_eq!(
                r.status,
                StatusCode::UNAUTHORIZED,
                "[{b}] {:?}",
                value.chars().take(40).collect::<String>()
            );
            r.expect_401();
        }
        // The real token still works, and the scheme is case-insensitive.
        let req = app
            .request(Method::GET, "/api/v1/user")
            .header(header::AUTHORIZATION, format!("bearer {token}"))
            .body(Body::empty())
            .unwrap();
        app.send(req).await.expect_code(0);

        // Garbage refresh tokens.
        for garbage in ["", "garbage", &"r".repeat(5000), &token] {
            app.refresh(garbage).await.expect_401();
        }
        app.post("/oauth/token", json!({"grant_type": "refresh_token"}), None)
            .await
            .expect_401();
        app.post(
            "/oauth/token",
            json!({"grant_type": "refresh_token", "refresh_token": 12345}),
            None,
        )
        .await
        .expect_code(4);
    }
}

#[tokio::test]
async fn expired_access_and_refresh_tokens_get_401() {
    let apps = spawn_with(|c| {
        c.access_token_ttl_secs = 1;
        c.refresh_token_ttl_secs = 1;
    })
    .await;
    let mut sessions = Vec::new();
    for app in &apps {
        app.user(
            "ann@example.com",
            "secret123",
            BuiltinRole::PlantOwner,
            None,
        )
        .await;
        let t = app.login("ann@example.com", "secret123").await;
        app.get("/api/v1/user", Some(&t.access))
            .await
            .expect_code(0);
        sessions.push(t);
    }
    tokio::time::sleep(Duration::from_millis(2100)).await;
    for (app, t) in apps.iter().zip(sessions) {
        app.get("/api/v1/user", Some(&t.access)).await.expect_401();
        app.refresh(&t.refresh).await.expect_401();
        app.login("ann@example.com", "secret123").await;
    }
}

#[tokio::test]
async fn lenient_queries_bad_paths_and_methods() {
    for app in spawn().await {
        let b = app.backend;
        let company = app.company("Lenient Co").await;
        let (_, t) = app
            .signed_in(
                "admin@lenient.example",
                BuiltinRole::CompanyAdmin,
                Some(company),
            )
            .await;
        let t = Some(t.as_str());
        for query in [
            "?name=&page=&limit&lan=-1&id=",
            "?page=1&limit=10&status=-1&sn=&type=-2&lan=en",
            "?column=dc_temp,igbt_temp&page=2&limit=1000&&=&lan",
            "?page=-5&limit=0",
        ] {
            let r = app
                .get(&format!("/api/v1/company/user/list{query}"), t)
                .await;
            r.expect_code(0);
            let d = r.data();
            for key in ["pageSize", "pageNumber", "total"] {
                assert!(d[key].is_i64(), "[{b}] {query}: {key} in {d}");
            }
            assert!(d["infos"].is_array(), "[{b}] {query}");
        }
        let r = app.get("/api/v1/company/user/list?page=1&limit=1", t).await;
        assert_eq!(r.data()["pageSize"], 1, "[{b}]");
        assert_eq!(r.data()["infos"].as_array().unwrap().len(), 1, "[{b}]");
        // A non-numeric value for a numeric parameter is a validation error, not a 400.
        app.get("/api/v1/company/user/list?page=abc", t)
            .await
            .expect_code(4);

        // Non-numeric path ids.
        for path in [
            "/api/v1/user/abc",
            "/api/v1/user/1e3",
            "/api/v1/user/99999999999999999999",
        ] {
            app.post(path, json!({}), t).await.expect_code(4);
        }
        app.get("/api/v1/company/user/abc", t).await.expect_code(4);
        app.get("/api/v1/company/role/%20", t).await.expect_code(4);

        // The wrong method on a known route: JSON 405.
        for (method, path) in [
            (Method::GET, "/oauth/token"),
            (Method::GET, "/anonymous/signup"),
            (Method::DELETE, "/api/v1/user"),
            (Method::POST, "/api/v1/permission"),
        ] {
            let req = app
                .request(method.clone(), path)
                .body(Body::empty())
                .unwrap();
            let r = app.send(req).await;
            assert_eq!(
                r.status,
                StatusCode::METHOD_NOT_ALLOWED,
                "[{b}] {method} {path}"
            );
            assert_eq!(
                r.json["success"],
                false,
                "[{b}] {method} {path}: {}",
                r.text()
            );
            assert!(r.json["code"].is_i64(), "[{b}] {method} {path}");
        }
        // Unknown API paths: JSON 404 (with or without a token).
        for path in [
            "/api/v1/nope",
            "/api/v1/user/1/nope/deeper",
            "/anonymous/nope",
            "/oauth/nope",
        ] {
            for token in [None, t] {
                let r = app.get(path, token).await;
                assert_eq!(r.status, StatusCode::NOT_FOUND, "[{b}] {path}");
                assert_eq!(r.json["success"], false, "[{b}] {path}: {}", r.text());
            }
        }
    }
}
