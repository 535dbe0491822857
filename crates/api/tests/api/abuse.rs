//! Guessing and enumeration (security review, findings 5-7): registration and password reset
//! check the code before anything about the account and answer alike; the account checks are
//! rate-limited; gateway key checks are no oracle and wrong keys are budgeted per caller;
//! disabling a company or an owner ends their sessions; a plant's picture links change when a
//! share ends.

use crate::common;

use api::FilesBackend;
use common::{App, fixtures, spawn, spawn_with};
use domain::user::BuiltinRole;
use serde_json::json;

const PW: &str = "secret123";

#[tokio::test]
async fn signup_and_reset_with_a_wrong_code_answer_alike_whether_the_account_exists() {
    for app in spawn().await {
        let b = app.backend;
        app.user("taken@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let signup = |account: &str| json!({"account": account, "password": "Strong-pass-1", "code": "000000"});
        let taken = app
            .post_from(
                [10, 9, 0, 1],
                "/anonymous/signup",
                signup("taken@example.com"),
            )
            .await;
        let free = app
            .post_from(
                [10, 9, 0, 1],
                "/anonymous/signup",
                signup("free@example.com"),
            )
            .await;
        taken.expect_code(5);
        assert_eq!(taken.json, free.json, "[{b}] sign-up tells accounts apart");
        let known = app
            .post_from(
                [10, 9, 0, 1],
                "/anonymous/resetPwd",
                signup("taken@example.com"),
            )
            .await;
        let unknown = app
            .post_from(
                [10, 9, 0, 1],
                "/anonymous/resetPwd",
                signup("nobody@example.com"),
            )
            .await;
        known.expect_code(5);
        assert_eq!(known.json, unknown.json, "[{b}] reset tells accounts apart");
        // Validation still comes first and changes nothing.
        app.post_from(
            [10, 9, 0, 1],
            "/anonymous/signup",
            json!({"account": "free@example.com", "password": "x", "code": "000000"}),
        )
        .await
        .expect_code(4);
        assert!(
            app.store
                .user_by_account("free@example.com")
                .await
                .expect("lookup")
                .is_none()
        );

        // With the right code, registration works; the reset of a real account too.
        app.get_from(
            [10, 9, 0, 2],
            "/anonymous/getCode?account=free@example.com&type=register",
        )
        .await
        .expect_code(0);
        let code = app.last_code("free@example.com").await;
        let body =
            json!({"account": "free@example.com", "password": "Strong-pass-1", "code": code});
        app.post_from([10, 9, 0, 2], "/anonymous/signup", body)
            .await
            .expect_code(0);
        app.login("free@example.com", "Strong-pass-1").await;
    }
}

#[tokio::test]
async fn signup_and_reset_are_limited_per_address() {
    for app in spawn().await {
        let b = app.backend;
        let body = |i: usize| {
            json!({"account": format!("guess{i}@example.com"), "password": "Strong-pass-1",
                "code": "000000"})
        };
        for uri in ["/anonymous/signup", "/anonymous/resetPwd"] {
            let mut codes = Vec::new();
            for i in 0..22 {
                codes.push(app.post_from([10, 8, 0, 1], uri, body(i)).await.code());
            }
            assert!(codes[..20].iter().all(|&c| c == 5), "[{b}] {uri} {codes:?}");
            assert_eq!(codes[20..], [7, 7], "[{b}] {uri}");
            app.post_from([10, 8, 0, 2], uri, body(0))
                .await
                .expect_code(5);
        }
    }
}

#[tokio::test]
async fn the_staff_account_check_is_limited_per_caller() {
    for app in spawn().await {
        let b = app.backend;
        let acme = app.company("Acme").await;
        let (_, boss) = app
            .signed_in("boss@example.com", BuiltinRole::CompanyAdmin, Some(acme))
            .await;
        let (_, other) = app
            .signed_in("other@example.com", BuiltinRole::CompanyAdmin, Some(acme))
            .await;
        let (_, staff) = app
            .signed_in("staff@example.com", BuiltinRole::CompanyStaff, Some(acme))
            .await;
        let check = |i: usize| format!("/api/v1/company/user/check?account=probe{i}@example.com");
        app.get(&check(0), Some(&staff)).await.expect_code(2);
        app.get(
            "/api/v1/company/user/check?account=boss@example.com",
            Some(&boss),
        )
        .await
        .expect_code(104);
        for i in 1..30 {
            app.get(&check(i), Some(&boss)).await.expect_code(0);
        }
        let refused = app.get(&check(30), Some(&boss)).await;
        refused.expect_code(7);
        app.get(&check(31), Some(&other)).await.expect_code(0);
        assert_eq!(
            app.get(
                "/api/v1/company/user/check?account=boss@example.com",
                Some(&boss)
            )
            .await
            .code(),
            7,
            "[{b}] refused before the lookup"
        );
    }
}

#[tokio::test]
async fn wrong_gateway_keys_are_budgeted_per_caller_and_then_even_the_right_key_waits() {
    for app in spawn().await {
        let b = app.backend;
        let admin = fixtures::admin(&app).await;
        let [ann, bob] = fixtures::owners(&app, ["ann", "bob"]).await;
        app.post(
            "/api/v1/gateway/create",
            json!({"sn": "GW-BUDGET1", "key": "Right-key-1"}),
            Some(&admin),
        )
        .await
        .expect_code(0);
        let check = "/api/v1/gateway/import/one/check";
        for i in 0..20 {
            let r = app
                .post(
                    check,
                    json!({"sn": "GW-BUDGET1", "key": format!("guess-{i}")}),
                    Some(&ann),
                )
                .await;
            r.expect_code(300);
        }
        let right = json!({"sn": "GW-BUDGET1", "key": "Right-key-1"});
        let spent = app.post(check, right.clone(), Some(&ann)).await;
        assert_eq!(spent.code(), 7, "[{b}] {}", spent.text());
        app.post("/api/v1/gateway/import/one", right.clone(), Some(&ann))
            .await
            .expect_code(7);
        // Another caller's budget is their own.
        app.post(check, right, Some(&bob)).await.expect_code(0);
    }
}

/// A staff member signed in before their company is disabled stays out after it is enabled.
#[tokio::test]
async fn disabling_a_company_ends_its_staffs_sessions() {
    for app in spawn().await {
        let b = app.backend;
        let admin = fixtures::admin(&app).await;
        let acme = app.company("Acme").await;
        let other = app.company("Other").await;
        let (_, staff) = app
            .signed_in("staff@example.com", BuiltinRole::CompanyStaff, Some(acme))
            .await;
        let (_, outsider) = app
            .signed_in(
                "outsider@example.com",
                BuiltinRole::CompanyStaff,
                Some(other),
            )
            .await;
        let refresh = app.login("staff@example.com", PW).await.refresh;
        let disable = |disabled: bool| json!({"disabled": disabled});
        app.post(
            &format!("/api/v1/company/{}/disable", acme.0),
            disable(true),
            Some(&staff),
        )
        .await
        .expect_code(2);
        app.post(
            &format!("/api/v1/company/{}/disable", acme.0),
            disable(true),
            Some(&admin),
        )
        .await
        .expect_code(0);
        app.post(
            &format!("/api/v1/company/{}/disable", acme.0),
            disable(false),
            Some(&admin),
        )
        .await
        .expect_code(0);
        app.get("/api/v1/user", Some(&staff)).await.expect_401();
        let r = app.refresh(&refresh).await;
        assert_ne!(r.code(), 0, "[{b}] the refresh token was revoked too");
        app.get("/api/v1/user", Some(&outsider))
            .await
            .expect_code(0);
        // Signing in again works once the company is enabled.
        app.login("staff@example.com", PW).await;
    }
}

#[tokio::test]
async fn internal_administrators_disable_and_enable_an_owner() {
    for app in spawn().await {
        let b = app.backend;
        let admin = fixtures::admin(&app).await;
        let acme = app.company("Acme").await;
        let (_, boss) = app
            .signed_in("boss@example.com", BuiltinRole::CompanyAdmin, Some(acme))
            .await;
        let (owner_id, owner) = app
            .signed_in("owner@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let (staff_id, _) = app
            .signed_in("staff@example.com", BuiltinRole::CompanyStaff, Some(acme))
            .await;
        let url = |id: i64| format!("/api/v1/owner/{id}/disable");
        let on = json!({"disabled": true});
        // Refusals: not internal, no value, not an owner, no such account; nothing changes.
        app.post(&url(owner_id.0), on.clone(), Some(&boss))
            .await
            .expect_code(2);
        app.post(&url(owner_id.0), on.clone(), Some(&owner))
            .await
            .expect_code(2);
        app.post(&url(owner_id.0), json!({}), Some(&admin))
            .await
            .expect_code(4);
        app.post(&url(staff_id.0), on.clone(), Some(&admin))
            .await
            .expect_code(4);
        app.post(&url(999_999), on.clone(), Some(&admin))
            .await
            .expect_code(4);
        app.get("/api/v1/user", Some(&owner)).await.expect_code(0);

        app.post(&url(owner_id.0), on, Some(&admin))
            .await
            .expect_code(0);
        app.get("/api/v1/user", Some(&owner)).await.expect_401();
        app.login_resp("owner@example.com", PW)
            .await
            .expect_code(101);
        app.post(&url(owner_id.0), json!({"disabled": false}), Some(&admin))
            .await
            .expect_code(0);
        app.get("/api/v1/user", Some(&owner)).await.expect_401();
        app.login("owner@example.com", PW).await;
        let log = app.get("/api/v1/audit?page=1&limit=20", Some(&admin)).await;
        assert!(
            log.text().contains("owner.disable") && log.text().contains("owner.enable"),
            "[{b}] audited: {}",
            log.text()
        );
    }
}

async fn picture_links_end_with_the_share(app: App) {
    let b = app.backend;
    let [ann, vic] = fixtures::owners(&app, ["ann", "vic"]).await;
    let plant = fixtures::plant(&app, &ann, fixtures::madrid_plant("Ann roof plant", 1, 5)).await;
    let up = app
        .upload(
            "/api/v1/plant/thumbnail",
            "p.png",
            "image/png",
            &fixtures::png(40, 30),
            Some(&ann),
        )
        .await;
    up.expect_code(0);
    let (url, thumb) = (
        up.data()["url"].as_str().unwrap_or_default().to_string(),
        up.data()["thumbUrl"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
    );
    app.post(
        &format!("/api/v1/plant/{plant}"),
        json!({"imageUrl": url, "thumbUrl": thumb}),
        Some(&ann),
    )
    .await
    .expect_code(0);
    fixtures::share(&app, &ann, plant, &[("vic@example.com", "visitor")]).await;
    let seen = app.get(&format!("/api/v1/plant/{plant}"), Some(&vic)).await;
    assert_eq!(seen.data()["thumbUrl"], thumb.as_str(), "[{b}]");
    assert_eq!(app.get(&thumb, None).await.status, 200, "[{b}]");

    app.post(
        &format!("/api/v1/plant/{plant}/cancelShare"),
        json!({"account": "vic@example.com"}),
        Some(&ann),
    )
    .await
    .expect_code(0);
    assert_eq!(app.get(&url, None).await.status, 404, "[{b}] old picture");
    assert_eq!(
        app.get(&thumb, None).await.status,
        404,
        "[{b}] old thumbnail"
    );
    let now = app.get(&format!("/api/v1/plant/{plant}"), Some(&ann)).await;
    let (new_url, new_thumb) = (
        now.data()["imageUrl"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
        now.data()["thumbUrl"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
    );
    assert!(
        new_url.starts_with("/files/plants/") && new_url != url,
        "[{b}] {new_url}"
    );
    assert_ne!(new_thumb, thumb);
    let got = app.get(&new_url, None).await;
    assert_eq!(got.status, 200, "[{b}] the owner keeps the picture");
    assert_eq!(app.get(&new_thumb, None).await.status, 200, "[{b}]");
    app.get(&format!("/api/v1/plant/{plant}"), Some(&vic))
        .await
        .expect_code(700);
}

#[tokio::test]
async fn a_plants_picture_links_stop_working_for_someone_whose_share_ended() {
    for app in spawn().await {
        picture_links_end_with_the_share(app).await;
    }
    for app in spawn_with(|c| c.files = FilesBackend::Database).await {
        picture_links_end_with_the_share(app).await;
    }
}
