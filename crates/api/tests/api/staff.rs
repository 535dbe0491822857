//! Staff management through the router: checking, adding (multipart), editing and softly
//! deleting colleagues, the assignable roles, and the limits of the roles API. Another
//! company's staff member answers exactly like a missing account.

use crate::common;

use common::{App, spawn};
use domain::{ids::CompanyId, user::BuiltinRole};
use serde_json::{Value, json};

const BOUNDARY: &str = "----staff-test-boundary";

/// A multipart form of text fields and, optionally, an `avatar` file.
fn form(fields: &[(&str, &str)], avatar: Option<&[u8]>) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .as_bytes(),
        );
    }
    if let Some(bytes) = avatar {
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"avatar\"; \
                 filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    body
}

async fn add(
    app: &App,
    token: &str,
    fields: &[(&str, &str)],
    avatar: Option<&[u8]>,
) -> common::Resp {
    app.post_raw(
        "/api/v1/company/user/add",
        &format!("multipart/form-data; boundary={BOUNDARY}"),
        form(fields, avatar),
        Some(token),
    )
    .await
}

/// Form fields, an avatar, and the code they get.
type Case<'a> = (Vec<(&'a str, &'a str)>, Option<&'a [u8]>, i64);

struct World {
    sun: CompanyId,
    admin: String,
    admin_id: i64,
    staff: String,
    moon_staff: i64,
    owner: String,
    staff_role: i64,
}

async fn world(app: &App) -> World {
    let sun = app.company("Sun Co").await;
    let moon = app.company("Moon Co").await;
    let (admin_id, admin) = app
        .signed_in("admin@sun.example", BuiltinRole::CompanyAdmin, Some(sun))
        .await;
    let (_, staff) = app
        .signed_in("staff@sun.example", BuiltinRole::CompanyStaff, Some(sun))
        .await;
    let moon_staff = app
        .user(
            "staff@moon.example",
            "secret123",
            BuiltinRole::CompanyStaff,
            Some(moon),
        )
        .await;
    let (_, owner) = app
        .signed_in("owner@example.com", BuiltinRole::PlantOwner, None)
        .await;
    World {
        sun,
        admin,
        admin_id: admin_id.0,
        staff,
        moon_staff: moon_staff.0,
        owner,
        staff_role: app.role(BuiltinRole::CompanyStaff).await.0,
    }
}

async fn staff_list(app: &App, token: &str) -> Value {
    let r = app
        .get("/api/v1/company/user/list?limit=50", Some(token))
        .await;
    r.expect_code(0);
    r.data().clone()
}

fn accounts(page: &Value) -> Vec<String> {
    page["infos"]
        .as_array()
        .expect("infos")
        .iter()
        .map(|u| u["account"].as_str().expect("account").to_string())
        .collect()
}

#[tokio::test]
async fn an_admin_adds_a_colleague_who_signs_in_with_the_role_given() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let t = w.admin.as_str();
        app.get(
            "/api/v1/company/user/check?account=new@sun.example",
            Some(t),
        )
        .await
        .expect_code(0);
        app.get(
            "/api/v1/company/user/check?account=staff@moon.example",
            Some(t),
        )
        .await
        .expect_code(104);
        app.get("/api/v1/company/user/check?account=what", Some(t))
            .await
            .expect_code(4);
        let role = w.staff_role.to_string();
        let r = add(
            &app,
            t,
            &[
                ("account", "new@sun.example"),
                ("password", "Fresh-pass1"),
                ("nickname", "Newt"),
                ("name", "New Person"),
                ("mobile", "+44 700"),
                ("roleId", &role),
            ],
            None,
        )
        .await;
        r.expect_code(0);
        let id = r.data().as_i64().unwrap();
        let page = staff_list(&app, t).await;
        let new = page["infos"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["id"].as_i64() == Some(id))
            .expect("listed");
        assert_eq!(new["roleName"], "Staff", "[{b}]");
        assert_eq!(new["nickname"], "Newt", "[{b}]");
        assert_eq!(new["email"], "new@sun.example", "[{b}]");
        let admin_row = page["infos"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["account"] == "admin@sun.example")
            .unwrap();
        assert_eq!(admin_row["roleName"], "Administrator", "[{b}]");
        let zh = app.get("/api/v1/company/user/list?lan=zh", Some(t)).await;
        assert!(zh.text().contains("管理员"), "[{b}]");

        let tokens = app.login("new@sun.example", "Fresh-pass1").await;
        let me = app.get("/api/v1/user", Some(&tokens.access)).await;
        assert_eq!(me.data()["company"]["id"].as_i64(), Some(w.sun.0), "[{b}]");
        let audit = app.get("/api/v1/audit?action=staff.add", Some(t)).await;
        audit.expect_code(0);
    }
}

#[tokio::test]
async fn bad_staff_input_gets_its_code_and_adds_nobody() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let t = w.admin.as_str();
        let role = w.staff_role.to_string();
        let foreign = app
            .store
            .create_role(
                app.company("Star Co").await,
                "Ops",
                &["station.view"],
                api::now_ms(),
                None,
            )
            .await
            .unwrap()
            .0
            .to_string();
        let internal = app.role(BuiltinRole::InternalAdmin).await.0.to_string();
        let before = staff_list(&app, t).await["total"].clone();
        let cases: Vec<Case> = vec![
            (
                vec![
                    ("account", "staff@moon.example"),
                    ("password", "Fresh-pass1"),
                    ("roleId", &role),
                ],
                None,
                104,
            ),
            (
                vec![
                    ("account", "nope"),
                    ("password", "Fresh-pass1"),
                    ("roleId", &role),
                ],
                None,
                4,
            ),
            (
                vec![
                    ("account", "x@sun.example"),
                    ("password", "123"),
                    ("roleId", &role),
                ],
                None,
                4,
            ),
            (
                vec![("account", "x@sun.example"), ("password", "Fresh-pass1")],
                None,
                4,
            ),
            (
                vec![
                    ("account", "x@sun.example"),
                    ("password", "Fresh-pass1"),
                    ("roleId", &foreign),
                ],
                None,
                4,
            ),
            (
                vec![
                    ("account", "x@sun.example"),
                    ("password", "Fresh-pass1"),
                    ("roleId", &internal),
                ],
                None,
                4,
            ),
            (
                vec![
                    ("account", "x@sun.example"),
                    ("password", "Fresh-pass1"),
                    ("roleId", &role),
                    ("email", "bad"),
                ],
                None,
                4,
            ),
            (
                vec![
                    ("account", "x@sun.example"),
                    ("password", "Fresh-pass1"),
                    ("roleId", &role),
                ],
                Some(b"GIF89a\x01\x00\x01\x00"),
                11,
            ),
        ];
        for (fields, avatar, code) in cases {
            add(&app, t, &fields, avatar).await.expect_code(code);
        }
        assert_eq!(staff_list(&app, t).await["total"], before, "[{b}]");
        assert!(
            app.store
                .user_by_account("x@sun.example")
                .await
                .unwrap()
                .is_none(),
            "[{b}]"
        );
        // Staff without company.user.edit, and owners, may not add anyone.
        for token in [&w.staff, &w.owner] {
            add(
                &app,
                token,
                &[
                    ("account", "y@sun.example"),
                    ("password", "Fresh-pass1"),
                    ("roleId", &role),
                ],
                None,
            )
            .await
            .expect_code(2);
            app.get(
                "/api/v1/company/user/check?account=y@sun.example",
                Some(token),
            )
            .await
            .expect_code(2);
        }
    }
}

#[tokio::test]
async fn editing_staff_keeps_to_the_company_and_nobody_changes_their_own_role() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let t = Some(w.admin.as_str());
        let colleague = app
            .store
            .user_by_account("staff@sun.example")
            .await
            .unwrap()
            .unwrap()
            .id;
        let admin_role = app.role(BuiltinRole::CompanyAdmin).await.0;
        app.post(
            &format!("/api/v1/user/edit/{colleague}"),
            json!({"nickname": "Sam", "name": "Sam S", "roleId": admin_role, "disabled": false}),
            t,
        )
        .await
        .expect_code(0);
        let row = app
            .store
            .user(domain::ids::UserId(colleague))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (row.nickname.as_str(), row.role_id),
            ("Sam", Some(admin_role)),
            "[{b}]"
        );

        app.post(
            &format!("/api/v1/user/edit/{}", w.admin_id),
            json!({"roleId": w.staff_role}),
            t,
        )
        .await
        .expect_code(802);
        app.post(
            &format!("/api/v1/user/edit/{}", w.admin_id),
            json!({"disabled": true}),
            t,
        )
        .await
        .expect_code(4);
        app.post(
            &format!("/api/v1/user/edit/{colleague}"),
            json!({"email": "bad"}),
            t,
        )
        .await
        .expect_code(4);
        let row = app
            .store
            .user(domain::ids::UserId(colleague))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(row.email, "staff@sun.example", "[{b}] unchanged");

        let other = app
            .post(
                &format!("/api/v1/user/edit/{}", w.moon_staff),
                json!({"nickname": "x"}),
                t,
            )
            .await;
        let missing = app
            .post("/api/v1/user/edit/987654", json!({"nickname": "x"}), t)
            .await;
        other.expect_code(105);
        assert_eq!(other.json, missing.json, "[{b}]");
        let moon = app
            .store
            .user(domain::ids::UserId(w.moon_staff))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(moon.nickname, "staff", "[{b}] unchanged");

        // Disabling a colleague signs them out.
        let sam = app.login("staff@sun.example", "secret123").await;
        app.post(
            &format!("/api/v1/user/edit/{colleague}"),
            json!({"disabled": true}),
            t,
        )
        .await
        .expect_code(0);
        app.get("/api/v1/user", Some(&sam.access))
            .await
            .expect_401();
    }
}

#[tokio::test]
async fn deleting_a_colleague_frees_the_account_and_ends_their_sessions_but_keeps_the_row() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let t = Some(w.admin.as_str());
        let sam = app.login("staff@sun.example", "secret123").await;
        let colleague = app
            .store
            .user_by_account("staff@sun.example")
            .await
            .unwrap()
            .unwrap()
            .id;
        app.post(&format!("/api/v1/user/delete/{colleague}"), json!({}), t)
            .await
            .expect_code(0);
        assert!(
            !accounts(&staff_list(&app, &w.admin).await).contains(&"staff@sun.example".to_string()),
            "[{b}]"
        );
        app.login_resp("staff@sun.example", "secret123")
            .await
            .expect_code(102);
        app.refresh(&sam.refresh).await.expect_401();
        app.get("/api/v1/user", Some(&sam.access))
            .await
            .expect_401();
        let row = app
            .store
            .user(domain::ids::UserId(colleague))
            .await
            .unwrap()
            .unwrap();
        assert!(row.deleted_at.is_some() && row.disabled, "[{b}]");
        assert_eq!(
            row.account,
            format!("deleted-{colleague}-staff@sun.example"),
            "[{b}]"
        );
        app.login_resp(&row.account, "secret123")
            .await
            .expect_code(102);
        app.get(&format!("/api/v1/company/user/{colleague}"), t)
            .await
            .expect_code(105);
        // The name is free again.
        app.get("/api/v1/company/user/check?account=staff@sun.example", t)
            .await
            .expect_code(0);

        // Not oneself, not the company's administrator, not another company's staff.
        app.post(&format!("/api/v1/user/delete/{}", w.admin_id), json!({}), t)
            .await
            .expect_code(4);
        let other = app
            .post(
                &format!("/api/v1/user/delete/{}", w.moon_staff),
                json!({}),
                t,
            )
            .await;
        let missing = app.post("/api/v1/user/delete/987654", json!({}), t).await;
        other.expect_code(105);
        assert_eq!(other.json, missing.json, "[{b}]");
        assert!(
            app.store
                .user(domain::ids::UserId(w.moon_staff))
                .await
                .unwrap()
                .unwrap()
                .deleted_at
                .is_none()
        );
        app.post(
            &format!("/api/v1/user/delete/{}", w.admin_id),
            json!({}),
            Some(&w.staff),
        )
        .await
        .expect_401();
        let (_, staff2) = app
            .signed_in("staff2@sun.example", BuiltinRole::CompanyStaff, Some(w.sun))
            .await;
        app.post(
            &format!("/api/v1/user/delete/{}", w.admin_id),
            json!({}),
            Some(&staff2),
        )
        .await
        .expect_code(2);
    }
}

#[tokio::test]
async fn the_company_admin_named_on_the_company_cannot_be_deleted_demoted_or_locked_out() {
    for app in spawn().await {
        let b = app.backend;
        let (_, root) = app
            .signed_in("root@portal.example", BuiltinRole::InternalAdmin, None)
            .await;
        let r = app
            .post(
                "/api/v1/company/add",
                json!({"name": "Sun Co", "adminAccount": "boss@sun.example", "adminPassword": "Sunny-2024"}),
                Some(&root),
            )
            .await;
        r.expect_code(0);
        let boss = app
            .store
            .user_by_account("boss@sun.example")
            .await
            .unwrap()
            .unwrap();
        app.post(
            &format!("/api/v1/user/delete/{}", boss.id),
            json!({}),
            Some(&root),
        )
        .await
        .expect_code(4);
        assert!(
            app.store
                .user(boss.id())
                .await
                .unwrap()
                .unwrap()
                .deleted_at
                .is_none(),
            "[{b}]"
        );
        // A colleague who may manage staff can neither demote nor disable the administrator.
        let sun = boss.company().expect("boss has a company");
        let (_, deputy) = app
            .signed_in("deputy@sun.example", BuiltinRole::CompanyAdmin, Some(sun))
            .await;
        let staff_role = app.role(BuiltinRole::CompanyStaff).await.0;
        let edit = format!("/api/v1/user/edit/{}", boss.id);
        for body in [json!({"roleId": staff_role}), json!({"disabled": true})] {
            app.post(&edit, body, Some(&deputy)).await.expect_code(4);
        }
        let kept = app.store.user(boss.id()).await.unwrap().unwrap();
        assert!(!kept.disabled && kept.role_id == boss.role_id, "[{b}]");
        app.post(&edit, json!({"nickname": "The boss"}), Some(&deputy))
            .await
            .expect_code(0);
        // An internal administrator can, when a company must be taken back.
        app.post(&edit, json!({"disabled": true}), Some(&root))
            .await
            .expect_code(0);
        assert!(
            app.store.user(boss.id()).await.unwrap().unwrap().disabled,
            "[{b}]"
        );
    }
}

#[tokio::test]
async fn assignable_roles_are_the_builtin_two_then_the_companys_own() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        app.store
            .create_role(w.sun, "Ops", &["station.view"], api::now_ms(), None)
            .await
            .unwrap();
        let r = app
            .get("/api/v1/company/roles/assignable", Some(&w.admin))
            .await;
        r.expect_code(0);
        let names: Vec<(&str, bool)> = r
            .data()
            .as_array()
            .unwrap()
            .iter()
            .map(|x| (x["name"].as_str().unwrap(), x["builtin"].as_bool().unwrap()))
            .collect();
        assert_eq!(
            names,
            [("Administrator", true), ("Staff", true), ("Ops", false)],
            "[{b}]"
        );
        let es = app
            .get("/api/v1/company/roles/assignable?lan=es", Some(&w.admin))
            .await;
        assert_eq!(es.data()[1]["name"], "Personal", "[{b}]");
        // Staff without company.user, and owners, do not see them.
        for token in [&w.staff, &w.owner] {
            app.get("/api/v1/company/roles/assignable", Some(token))
                .await
                .expect_code(2);
        }
    }
}

#[tokio::test]
async fn roles_are_limited_to_five_short_unique_names() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let t = Some(w.admin.as_str());
        app.post(
            "/api/v1/company/role",
            json!({"name": "Sixchr", "permissions": []}),
            t,
        )
        .await
        .expect_code(4);
        for name in ["R1", "R2", "R3", "R4", "R5"] {
            app.post(
                "/api/v1/company/role",
                json!({"name": name, "permissions": ["station.view"]}),
                t,
            )
            .await
            .expect_code(0);
        }
        app.get("/api/v1/company/role/check?name=R1", t)
            .await
            .expect_code(801);
        app.get("/api/v1/company/role/check?name=R6", t)
            .await
            .expect_code(800);
        app.post("/api/v1/company/role", json!({"name": "R6"}), t)
            .await
            .expect_code(800);
        let roles = app.get("/api/v1/company/roles", t).await;
        assert_eq!(roles.data()["total"], 5, "[{b}]");
    }
}
