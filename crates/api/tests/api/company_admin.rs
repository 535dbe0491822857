//! Company administration through the router: internal administrators list, add, edit and
//! disable companies; a company's own administrator edits its details and branding; nobody
//! else may, and another company answers exactly like a missing one.

use crate::common;
use domain::ids::{CompanyId, UserId};

use common::{App, spawn};
use domain::user::BuiltinRole;
use serde_json::{Value, json};

const PASSWORD: &str = "Sunny-2024";

/// An internal administrator's token.
async fn internal(app: &App) -> String {
    app.signed_in("root@portal.example", BuiltinRole::InternalAdmin, None)
        .await
        .1
}

/// Creates a company through the API with a new administrator account; answers its id.
async fn add_company_with_details(app: &App, token: &str, name: &str, admin: &str) -> i64 {
    let r = app
        .post(
            "/api/v1/company/add",
            json!({"name": name, "contactName": "Ann", "email": "info@example.com",
                "phone": "+44 1234", "address": "1 Sun Street", "remark": "",
                "adminAccount": admin, "adminPassword": PASSWORD, "adminNickname": "Boss"}),
            Some(token),
        )
        .await;
    r.expect_code(0);
    r.data().as_i64().expect("company id")
}

async fn companies(app: &App, token: &str, name: &str) -> Value {
    let r = app
        .get(
            &format!("/api/v1/company/list?page=1&limit=50&name={name}"),
            Some(token),
        )
        .await;
    r.expect_code(0);
    r.data().clone()
}

async fn audit_actions(app: &App, token: &str, action: &str) -> usize {
    let r = app
        .get(
            &format!("/api/v1/audit?action={action}&limit=100"),
            Some(token),
        )
        .await;
    r.expect_code(0);
    r.data()["infos"].as_array().map_or(0, Vec::len)
}

#[tokio::test]
async fn internal_admins_add_companies_with_a_new_administrator_and_list_them() {
    for app in spawn().await {
        let b = app.backend;
        let root = internal(&app).await;
        let id = add_company_with_details(&app, &root, "Sun Co", "boss@sun.example").await;

        let page = companies(&app, &root, "SUN").await;
        assert_eq!(page["total"], 1, "[{b}]");
        let c = &page["infos"][0];
        assert_eq!(c["id"].as_i64(), Some(id), "[{b}]");
        assert_eq!(c["name"], "Sun Co", "[{b}]");
        assert_eq!(c["adminAccount"], "boss@sun.example", "[{b}]");
        assert!(c["adminId"].as_i64().is_some(), "[{b}]");
        assert_eq!(c["disabled"], false, "[{b}]");
        assert_eq!(c["staff"], 1, "[{b}]");
        assert_eq!(c["plants"], 0, "[{b}]");
        assert_eq!(c["contactName"], "Ann", "[{b}]");
        assert!(c["createAt"].as_str().unwrap().ends_with("+00:00"), "[{b}]");

        // The new administrator signs in and runs the company.
        let boss = app.login("boss@sun.example", PASSWORD).await.access;
        let me = app.get("/api/v1/user", Some(&boss)).await;
        me.expect_code(0);
        assert_eq!(me.data()["type"], "company", "[{b}]");
        assert_eq!(me.data()["company"]["id"].as_i64(), Some(id), "[{b}]");
        app.get("/api/v1/company/user/list", Some(&boss))
            .await
            .expect_code(0);

        // Names are unique, trimmed and in any case.
        let taken = app
            .get("/api/v1/company/check?name=%20sun%20CO%20", Some(&root))
            .await;
        taken.expect_code(203);
        app.get(
            &format!("/api/v1/company/check?name=Sun%20Co&id={id}"),
            Some(&root),
        )
        .await
        .expect_code(0);
        app.get("/api/v1/company/check?name=Moon", Some(&root))
            .await
            .expect_code(0);
        let again = app
            .post(
                "/api/v1/company/add",
                json!({"name": "SUN CO", "adminAccount": "other@sun.example",
                    "adminPassword": PASSWORD}),
                Some(&root),
            )
            .await;
        again.expect_code(203);
        assert_eq!(companies(&app, &root, "").await["total"], 1, "[{b}]");
        assert!(
            app.store
                .user_by_account("other@sun.example")
                .await
                .unwrap()
                .is_none(),
            "[{b}] no account for a refused company"
        );
        assert_eq!(audit_actions(&app, &root, "company.add").await, 1, "[{b}]");
    }
}

#[tokio::test]
async fn bad_company_input_gets_its_code_and_creates_nothing() {
    for app in spawn().await {
        let b = app.backend;
        let root = internal(&app).await;
        let long = "x".repeat(41);
        let cases = [
            (
                json!({"name": "", "adminAccount": "a@x.example", "adminPassword": PASSWORD}),
                4,
            ),
            (
                json!({"name": long, "adminAccount": "a@x.example", "adminPassword": PASSWORD}),
                4,
            ),
            (
                json!({"name": "Ok", "adminAccount": "not an account", "adminPassword": PASSWORD}),
                4,
            ),
            (
                json!({"name": "Ok", "adminAccount": "a@x.example", "adminPassword": "123"}),
                4,
            ),
            (json!({"name": "Ok", "adminAccount": "a@x.example"}), 4),
            (
                json!({"name": "Ok", "email": "nope", "adminAccount": "a@x.example", "adminPassword": PASSWORD}),
                4,
            ),
            (
                json!({"name": "Ok", "remark": "r".repeat(201), "adminAccount": "a@x.example", "adminPassword": PASSWORD}),
                4,
            ),
        ];
        for (body, code) in cases {
            app.post("/api/v1/company/add", body.clone(), Some(&root))
                .await
                .expect_code(code);
        }
        assert_eq!(companies(&app, &root, "").await["total"], 0, "[{b}]");
        assert!(
            app.store
                .user_by_account("a@x.example")
                .await
                .unwrap()
                .is_none(),
            "[{b}]"
        );
    }
}

#[tokio::test]
async fn an_owner_becomes_a_new_companys_administrator_but_company_and_internal_accounts_do_not() {
    for app in spawn().await {
        let b = app.backend;
        let root = internal(&app).await;
        let (owner, _) = app
            .signed_in("owner@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let r = app
            .post(
                "/api/v1/company/add",
                json!({"name": "Owner Co", "adminAccount": "owner@example.com"}),
                Some(&root),
            )
            .await;
        r.expect_code(0);
        let id = r.data().as_i64().unwrap();
        let user = app.store.user(owner).await.unwrap().unwrap();
        assert_eq!(user.kind, "company", "[{b}]");
        assert_eq!(user.company_id, Some(CompanyId(id)), "[{b}]");
        let company = app
            .store
            .company(domain::ids::CompanyId(id))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(company.admin_id, Some(UserId(owner.0)), "[{b}]");
        // The owner, now the company's administrator, keeps the same password.
        app.login("owner@example.com", "secret123").await;

        // Already in a company (106), or internal (106): nothing is created.
        for account in ["owner@example.com", "root@portal.example"] {
            app.post(
                "/api/v1/company/add",
                json!({"name": format!("New {account}"), "adminAccount": account,
                    "adminPassword": PASSWORD}),
                Some(&root),
            )
            .await
            .expect_code(106);
        }
        assert_eq!(companies(&app, &root, "").await["total"], 1, "[{b}]");
    }
}

#[tokio::test]
async fn only_internal_administrators_list_add_and_disable_companies() {
    for app in spawn().await {
        let root = internal(&app).await;
        let id = add_company_with_details(&app, &root, "Sun Co", "boss@sun.example").await;
        let boss = app.login("boss@sun.example", PASSWORD).await.access;
        let company = domain::ids::CompanyId(id);
        let (_, staff) = app
            .signed_in(
                "staff@sun.example",
                BuiltinRole::CompanyStaff,
                Some(company),
            )
            .await;
        let (_, owner) = app
            .signed_in("owner@example.com", BuiltinRole::PlantOwner, None)
            .await;
        for token in [&boss, &staff, &owner] {
            let t = Some(token.as_str());
            app.get("/api/v1/company/list", t).await.expect_code(2);
            app.post(
                "/api/v1/company/add",
                json!({"name": "X", "adminAccount": "x@x.example", "adminPassword": PASSWORD}),
                t,
            )
            .await
            .expect_code(2);
            app.post(
                &format!("/api/v1/company/{id}/disable"),
                json!({"disabled": true}),
                t,
            )
            .await
            .expect_code(2);
        }
        app.get("/api/v1/company/check?name=X", Some(&owner))
            .await
            .expect_code(2);
        assert_eq!(companies(&app, &root, "").await["total"], 1);
        assert!(!app.store.company(company).await.unwrap().unwrap().disabled);
    }
}

#[tokio::test]
async fn a_company_admin_edits_only_its_own_company_and_another_looks_missing() {
    for app in spawn().await {
        let b = app.backend;
        let root = internal(&app).await;
        let sun = add_company_with_details(&app, &root, "Sun Co", "boss@sun.example").await;
        let moon = add_company_with_details(&app, &root, "Moon Co", "boss@moon.example").await;
        let boss = app.login("boss@sun.example", PASSWORD).await.access;
        let (_, staff) = app
            .signed_in(
                "staff@sun.example",
                BuiltinRole::CompanyStaff,
                Some(domain::ids::CompanyId(sun)),
            )
            .await;
        let body = json!({"name": "Sun Company", "contactName": "Bo", "email": "a@b.example",
            "phone": "123", "address": "Road 2", "remark": "hi"});
        app.post(
            &format!("/api/v1/company/{sun}/edit"),
            body.clone(),
            Some(&boss),
        )
        .await
        .expect_code(0);
        let info = app.get("/api/v1/company/info", Some(&boss)).await;
        info.expect_code(0);
        assert_eq!(info.data()["name"], "Sun Company", "[{b}]");
        assert_eq!(info.data()["remark"], "hi", "[{b}]");
        assert_eq!(info.data()["adminAccount"], "boss@sun.example", "[{b}]");
        assert_eq!(info.data()["staff"], 2, "[{b}]");

        // Another company's answers are the missing company's, for every write.
        for path in ["edit", "logo", "themeColor"] {
            let other = app
                .post(
                    &format!("/api/v1/company/{moon}/{path}"),
                    body.clone(),
                    Some(&boss),
                )
                .await;
            let missing = app
                .post(
                    &format!("/api/v1/company/987654/{path}"),
                    body.clone(),
                    Some(&boss),
                )
                .await;
            assert_eq!(other.json, missing.json, "[{b}] {path}");
            other.expect_code(4);
        }
        let moon_row = app
            .store
            .company(domain::ids::CompanyId(moon))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(moon_row.name, "Moon Co", "[{b}]");
        // Staff without company.edit may not edit; a taken name is 203; bad fields 4.
        app.post(
            &format!("/api/v1/company/{sun}/edit"),
            body.clone(),
            Some(&staff),
        )
        .await
        .expect_code(2);
        app.post(
            &format!("/api/v1/company/{sun}/edit"),
            json!({"name": "moon co"}),
            Some(&boss),
        )
        .await
        .expect_code(203);
        app.post(
            &format!("/api/v1/company/{sun}/edit"),
            json!({"email": "bad"}),
            Some(&boss),
        )
        .await
        .expect_code(4);
        let after = app.get("/api/v1/company/info", Some(&boss)).await;
        assert_eq!(after.data()["name"], "Sun Company", "[{b}] unchanged");
        assert_eq!(after.data()["email"], "a@b.example", "[{b}] unchanged");
        // Internal administrators edit any company.
        app.post(
            &format!("/api/v1/company/{moon}/edit"),
            json!({"name": "Moon Ltd"}),
            Some(&root),
        )
        .await
        .expect_code(0);
        assert_eq!(audit_actions(&app, &root, "company.edit").await, 2, "[{b}]");
    }
}

#[tokio::test]
async fn a_disabled_companys_staff_get_101_everywhere_until_it_is_enabled() {
    for app in spawn().await {
        let b = app.backend;
        let root = internal(&app).await;
        let id = add_company_with_details(&app, &root, "Sun Co", "boss@sun.example").await;
        let tokens = app.login("boss@sun.example", PASSWORD).await;
        app.post(
            &format!("/api/v1/company/{id}/disable"),
            json!({"disabled": true}),
            Some(&root),
        )
        .await
        .expect_code(0);
        // Their sessions ended with the disabling; signing in again answers 101.
        app.get("/api/v1/user", Some(&tokens.access))
            .await
            .expect_401();
        app.login_resp("boss@sun.example", PASSWORD)
            .await
            .expect_code(101);
        assert_ne!(app.refresh(&tokens.refresh).await.code(), 0, "[{b}]");
        let page = companies(&app, &root, "").await;
        assert_eq!(page["infos"][0]["disabled"], true, "[{b}]");
        // Nothing was deleted: enabling lets them back in.
        app.post(
            &format!("/api/v1/company/{id}/disable"),
            json!({"disabled": false}),
            Some(&root),
        )
        .await
        .expect_code(0);
        let again = app.login("boss@sun.example", PASSWORD).await;
        app.get("/api/v1/user", Some(&again.access))
            .await
            .expect_code(0);
        app.post(
            &format!("/api/v1/company/{id}/disable"),
            json!({}),
            Some(&root),
        )
        .await
        .expect_code(4);
        app.post(
            "/api/v1/company/987654/disable",
            json!({"disabled": true}),
            Some(&root),
        )
        .await
        .expect_code(4);
        assert_eq!(
            audit_actions(&app, &root, "company.disable").await,
            1,
            "[{b}]"
        );
        assert_eq!(
            audit_actions(&app, &root, "company.enable").await,
            1,
            "[{b}]"
        );
    }
}

/// A 2 x 2 GIF header: enough for the type and size checks.
const GIF: &[u8] = b"GIF89a\x02\x00\x02\x00\x00\x00\x00;";

#[tokio::test]
async fn logos_are_uploaded_checked_and_set_with_the_theme_colour() {
    for app in spawn().await {
        let b = app.backend;
        let root = internal(&app).await;
        let id = add_company_with_details(&app, &root, "Sun Co", "boss@sun.example").await;
        let boss = app.login("boss@sun.example", PASSWORD).await.access;
        let t = Some(boss.as_str());
        let up = app
            .upload(
                "/api/v1/company/uploadLogo",
                "logo.gif",
                "image/gif",
                GIF,
                t,
            )
            .await;
        up.expect_code(0);
        let url = up.data()["url"].as_str().unwrap().to_string();
        assert!(
            url.starts_with("/files/logos/") && url.ends_with(".gif"),
            "[{b}] {url}"
        );
        let stored = app
            .data_dir
            .join("uploads")
            .join(url.trim_start_matches("/files/"));
        assert!(stored.exists(), "[{b}]");

        app.upload(
            "/api/v1/company/uploadLogo",
            "x.png",
            "image/png",
            b"<?php 1;",
            t,
        )
        .await
        .expect_code(11);
        let big = [GIF, &vec![0u8; 3 * 1024 * 1024]].concat();
        app.upload(
            "/api/v1/company/uploadLogo",
            "big.gif",
            "image/gif",
            &big,
            t,
        )
        .await
        .expect_code(12);

        app.post(
            &format!("/api/v1/company/{id}/logo"),
            json!({"logoUrl": url, "iconUrl": ""}),
            t,
        )
        .await
        .expect_code(0);
        app.post(
            &format!("/api/v1/company/{id}/logo"),
            json!({"logoUrl": "https://evil.example/x.gif", "iconUrl": url}),
            t,
        )
        .await
        .expect_code(4);
        app.post(
            &format!("/api/v1/company/{id}/themeColor"),
            json!({"themeColor": "#ABC"}),
            t,
        )
        .await
        .expect_code(0);
        app.post(
            &format!("/api/v1/company/{id}/themeColor"),
            json!({"themeColor": "red"}),
            t,
        )
        .await
        .expect_code(4);
        let me = app.get("/api/v1/user", t).await;
        assert_eq!(me.data()["company"]["logoUrl"], url.as_str(), "[{b}]");
        assert_eq!(me.data()["company"]["iconUrl"], "", "[{b}]");
        assert_eq!(me.data()["company"]["themeColor"], "#abc", "[{b}]");
        assert_eq!(
            audit_actions(&app, &root, "company.theme").await,
            1,
            "[{b}]"
        );
    }
}
