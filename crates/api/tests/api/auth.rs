//! Sign-in (all three flows), refresh rotation, sign-out and password change. Throttling is in
//! tests/throttle.rs, sessions in tests/sessions.rs.

use crate::common;

use base64::{Engine, engine::general_purpose::STANDARD};
use common::{App, spawn};
use domain::user::BuiltinRole;
use rsa::{Pkcs1v15Encrypt, RsaPublicKey, pkcs8::DecodePublicKey};
use serde_json::json;

const PW: &str = "secret123";

async fn encrypt_with_server_key(app: &App, password: &str) -> String {
    let r = app
        .get(
            "/anonymous/publicKey?nonce=1700000000&source=web&sign=abc",
            None,
        )
        .await;
    r.expect_code(0);
    let der_b64 = r.data().as_str().expect("public key is a string");
    assert!(
        !der_b64.contains('\n') && !der_b64.contains("BEGIN"),
        "[{}] one line of base64 DER",
        app.backend
    );
    let der = STANDARD.decode(der_b64).expect("base64 key");
    let key = RsaPublicKey::from_public_key_der(&der).expect("SPKI DER");
    let cipher = key
        .encrypt(
            &mut rsa::rand_core::OsRng,
            Pkcs1v15Encrypt,
            password.as_bytes(),
        )
        .expect("encrypt");
    STANDARD.encode(cipher)
}

#[tokio::test]
async fn password_grant_answers_the_token_shape_clients_read() {
    for app in spawn().await {
        app.user("ann@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let r = app.login_resp("ann@example.com", PW).await;
        r.expect_code(0);
        let d = r.data();
        let b = app.backend;
        assert!(
            d["access_token"].as_str().is_some_and(|t| t.len() > 20),
            "[{b}] {d}"
        );
        assert_eq!(d["token_type"], "bearer", "[{b}]");
        assert!(
            d["refresh_token"].as_str().is_some_and(|t| t.len() > 20),
            "[{b}]"
        );
        assert!(
            d["expires_in"].is_i64() && d["expires_in"].as_i64().unwrap() > 0,
            "[{b}] expires_in {}",
            d["expires_in"]
        );
        assert!(d["scope"].is_string(), "[{b}] scope");
        // The token works on the API.
        let me = app.get("/api/v1/user", d["access_token"].as_str()).await;
        me.expect_code(0);
        assert_eq!(me.data()["email"], "ann@example.com", "[{b}]");
        // The account is matched case-insensitively, like registration normalises it.
        app.login_resp(" Ann@Example.COM ", PW).await.expect_code(0);
    }
}

#[tokio::test]
async fn wrong_password_and_unknown_account_look_the_same() {
    for app in spawn().await {
        app.user("ann@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let wrong = app.login_resp("ann@example.com", "not-it-123").await;
        wrong.expect_code(102);
        let unknown = app.login_resp("nobody@example.com", PW).await;
        unknown.expect_code(102);
        assert_eq!(
            wrong.json, unknown.json,
            "[{}] no existence leak",
            app.backend
        );
        assert!(
            wrong.data().is_null(),
            "[{}] no token on failure",
            app.backend
        );
        // Missing fields are a wrong login too, not a crash.
        app.post("/oauth/token", json!({"grant_type": "password"}), None)
            .await
            .expect_code(102);
    }
}

#[tokio::test]
async fn disabled_accounts_are_refused_with_101() {
    for app in spawn().await {
        let id = app
            .user("off@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let tokens = app.login("off@example.com", PW).await;
        app.store
            .set_disabled(id, true, domain::time::now_ms(), None)
            .await
            .unwrap();
        app.login_resp("off@example.com", PW).await.expect_code(101);
        // Wrong password on a disabled account still says only "wrong account or password".
        app.login_resp("off@example.com", "not-it-123")
            .await
            .expect_code(102);
        // Existing sessions end too.
        app.get("/api/v1/user", Some(&tokens.access))
            .await
            .expect_401();
        app.refresh(&tokens.refresh).await.expect_401();
    }
}

#[tokio::test]
async fn encrypted_password_flow_accepts_nonce_as_number_or_string() {
    for app in spawn().await {
        app.user("enc@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        for nonce in [json!(1700000000123_i64), json!("1700000000123")] {
            let cipher = encrypt_with_server_key(&app, PW).await;
            let r = app
                .post(
                    "/oauth/token/new",
                    json!({"username": "enc@example.com", "password": cipher,
                        "grant_type": "password", "client_id": "csp-web", "source": "sunsynk",
                        "nonce": nonce, "sign": "0123456789abcdef", "areaCode": "eu"}),
                    None,
                )
                .await;
            r.expect_code(0);
            assert_eq!(r.data()["token_type"], "bearer", "[{}]", app.backend);
        }
        // A ciphertext of the wrong password is a wrong password.
        let cipher = encrypt_with_server_key(&app, "not-it-123").await;
        app.post(
            "/oauth/token/new",
            json!({"username": "enc@example.com", "password": cipher, "grant_type": "password"}),
            None,
        )
        .await
        .expect_code(102);
        // Clients that cannot encrypt send the password as it is.
        app.post(
            "/oauth/token/new",
            json!({"username": "enc@example.com", "password": PW, "grant_type": "password",
                "client_id": "csp-web"}),
            None,
        )
        .await
        .expect_code(0);
    }
}

#[tokio::test]
async fn form_urlencoded_bodies_work_on_the_token_endpoint() {
    for app in spawn().await {
        app.user("form@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let r = app
            .post_form(
                "/oauth/token",
                "username=form%40example.com&password=secret123&grant_type=password&client_id=csp-web",
                None,
            )
            .await;
        r.expect_code(0);
        let refresh = r.data()["refresh_token"].as_str().unwrap().to_string();
        let r = app
            .post_form(
                "/oauth/token",
                &format!("grant_type=refresh_token&refresh_token={refresh}"),
                None,
            )
            .await;
        r.expect_code(0);
    }
}

#[tokio::test]
async fn refresh_tokens_rotate_and_work_once() {
    for app in spawn().await {
        app.user("rot@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let first = app.login("rot@example.com", PW).await;
        let r = app.refresh(&first.refresh).await;
        r.expect_code(0);
        let second = r.data()["refresh_token"].as_str().unwrap().to_string();
        assert_ne!(second, first.refresh, "[{}] rotated", app.backend);
        let access = r.data()["access_token"].as_str().unwrap().to_string();
        app.get("/api/v1/user", Some(&access)).await.expect_code(0);
        // The old one is spent.
        app.refresh(&first.refresh).await.expect_401();
        // The new one works exactly once.
        let r = app.refresh(&second).await;
        r.expect_code(0);
        app.refresh(&second).await.expect_401();
        // The encrypted-flow endpoint refreshes too, with the same rules.
        let third = r.data()["refresh_token"].as_str().unwrap().to_string();
        app.post(
            "/oauth/token/new",
            json!({"grant_type": "refresh_token", "refresh_token": third}),
            None,
        )
        .await
        .expect_code(0);
        app.refresh(&third).await.expect_401();
    }
}

#[tokio::test]
async fn logout_revokes_the_refresh_token() {
    for app in spawn().await {
        app.user("out@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let a = app.login("out@example.com", PW).await;
        let b = app.login("out@example.com", PW).await;
        // With a token named: only that sign-in ends.
        app.post(
            "/api/v1/user/logout",
            json!({"refresh_token": a.refresh}),
            Some(&a.access),
        )
        .await
        .expect_code(0);
        app.refresh(&a.refresh).await.expect_401();
        let r = app.refresh(&b.refresh).await;
        r.expect_code(0);
        let b_access = r.data()["access_token"].as_str().unwrap().to_string();
        let b_refresh = r.data()["refresh_token"].as_str().unwrap().to_string();
        // Without a body: every refresh token of the caller ends.
        let c = app.login("out@example.com", PW).await;
        app.post_raw(
            "/api/v1/user/logout",
            "application/json",
            Vec::new(),
            Some(&b_access),
        )
        .await
        .expect_code(0);
        app.refresh(&b_refresh).await.expect_401();
        app.refresh(&c.refresh).await.expect_401();
        // Sign-out needs a signed-in caller (or a refresh token, see tests/sessions.rs).
        app.post("/api/v1/user/logout", json!({}), None)
            .await
            .expect_401();
    }
}

#[tokio::test]
async fn password_change_ends_old_sessions_and_wrong_old_password_changes_nothing() {
    for app in spawn().await {
        let id = app
            .user("pwd@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let t = app.login("pwd@example.com", PW).await;
        let uri = format!("/api/v1/user/{}/pwd", id.0);

        // Wrong old password: 108, and everything keeps working.
        app.post(
            &uri,
            json!({"oldPassword": "not-it-123", "newPassword": "newpass456"}),
            Some(&t.access),
        )
        .await
        .expect_code(108);
        app.get("/api/v1/user", Some(&t.access))
            .await
            .expect_code(0);
        app.login_resp("pwd@example.com", "newpass456")
            .await
            .expect_code(102);
        let t = {
            let r = app.refresh(&t.refresh).await;
            r.expect_code(0);
            common::Tokens {
                access: r.data()["access_token"].as_str().unwrap().into(),
                refresh: r.data()["refresh_token"].as_str().unwrap().into(),
            }
        };

        // An invalid new password: 4, nothing changes.
        app.post(
            &uri,
            json!({"oldPassword": PW, "newPassword": "abc"}),
            Some(&t.access),
        )
        .await
        .expect_code(4);
        app.get("/api/v1/user", Some(&t.access))
            .await
            .expect_code(0);

        // Someone else's id: answered like a missing account.
        app.post(
            &format!("/api/v1/user/{}/pwd", id.0 + 1000),
            json!({"oldPassword": PW, "newPassword": "newpass456"}),
            Some(&t.access),
        )
        .await
        .expect_code(105);

        // The real change.
        app.post(
            &uri,
            json!({"oldPassword": PW, "newPassword": "newpass456"}),
            Some(&t.access),
        )
        .await
        .expect_code(0);
        app.get("/api/v1/user", Some(&t.access)).await.expect_401();
        app.refresh(&t.refresh).await.expect_401();
        app.login_resp("pwd@example.com", PW).await.expect_code(102);
        let fresh = app.login("pwd@example.com", "newpass456").await;
        app.get("/api/v1/user", Some(&fresh.access))
            .await
            .expect_code(0);
    }
}

#[tokio::test]
async fn a_refresh_token_raced_twice_works_once() {
    for app in spawn().await {
        app.user("race@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let t = app.login("race@example.com", PW).await;
        let (a, b) = tokio::join!(app.refresh(&t.refresh), app.refresh(&t.refresh));
        let ok = [&a, &b].iter().filter(|r| r.status == 200).count();
        assert_eq!(ok, 1, "[{}] {} / {}", app.backend, a.text(), b.text());
        let loser = if a.status == 200 { &b } else { &a };
        loser.expect_401();
    }
}
