//! Tenancy: nobody reads or changes another company's users or roles, and the answer for
//! another tenant's object is exactly the answer for a missing one.

use crate::common;

use common::{App, spawn};
use domain::{
    ids::{CompanyId, RoleId, UserId},
    user::BuiltinRole,
};
use serde_json::json;

struct World {
    a: CompanyId,
    b: CompanyId,
    admin_a: String,
    admin_a_id: UserId,
    staff_a: UserId,
    staff_a_token: String,
    staff_b: UserId,
    owner: UserId,
    owner_token: String,
    role_b: RoleId,
}

async fn world(app: &App) -> World {
    let a = app.company("Alpha Solar").await;
    let b = app.company("Beta Energy").await;
    let (admin_a_id, admin_a) = app
        .signed_in("admin@alpha.example", BuiltinRole::CompanyAdmin, Some(a))
        .await;
    let (staff_a, staff_a_token) = app
        .signed_in("staff@alpha.example", BuiltinRole::CompanyStaff, Some(a))
        .await;
    let staff_b = app
        .user(
            "staff@beta.example",
            "secret123",
            BuiltinRole::CompanyStaff,
            Some(b),
        )
        .await;
    let (owner, owner_token) = app
        .signed_in("owner@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let role_b = app
        .store
        .create_role(b, "Ops", &["station.view"], api::now_ms(), None)
        .await
        .expect("role");
    World {
        a,
        b,
        admin_a,
        admin_a_id,
        staff_a,
        staff_a_token,
        staff_b,
        owner,
        owner_token,
        role_b,
    }
}

const MISSING: i64 = 987_654;

#[tokio::test]
async fn another_companys_staff_look_missing() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let t = Some(w.admin_a.as_str());
        // Positive control: own staff is visible.
        let own = app
            .get(&format!("/api/v1/company/user/{}", w.staff_a.0), t)
            .await;
        own.expect_code(0);
        assert_eq!(own.data()["account"], "staff@alpha.example", "[{b}]");

        let missing = app.get(&format!("/api/v1/company/user/{MISSING}"), t).await;
        assert_ne!(missing.code(), 0, "[{b}]");
        for id in [w.staff_b.0, w.owner.0] {
            for path in [
                format!("/api/v1/company/user/{id}"),
                format!("/api/v1/company/user/{id}/"),
            ] {
                let other = app.get(&path, t).await;
                assert_eq!(other.json, missing.json, "[{b}] {path}");
            }
        }

        // The staff list and company info stay within the caller's company, whatever it asks.
        let list = app
            .get(&format!("/api/v1/company/user/list?companyId={}", w.b.0), t)
            .await;
        list.expect_code(0);
        let accounts: Vec<&str> = list.data()["infos"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u["account"].as_str().unwrap())
            .collect();
        assert_eq!(
            accounts,
            ["admin@alpha.example", "staff@alpha.example"],
            "[{b}]"
        );
        assert_eq!(list.data()["total"], 2, "[{b}]");
        let info = app
            .get(&format!("/api/v1/company/info?companyId={}", w.b.0), t)
            .await;
        info.expect_code(0);
        assert_eq!(info.data()["id"].as_i64(), Some(w.a.0), "[{b}]");
        let roles = app
            .get(&format!("/api/v1/company/roles?companyId={}", w.b.0), t)
            .await;
        roles.expect_code(0);
        assert_eq!(roles.data()["total"], 0, "[{b}] not Beta's roles");
    }
}

#[tokio::test]
async fn another_companys_roles_look_missing() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let t = Some(w.admin_a.as_str());
        let builtin = app.role(BuiltinRole::CompanyAdmin).await;
        for (what, id) in [("beta role", w.role_b.0), ("builtin role", builtin.0)] {
            let ours = app.get(&format!("/api/v1/company/role/{id}"), t).await;
            let none = app.get(&format!("/api/v1/company/role/{MISSING}"), t).await;
            assert_ne!(none.code(), 0, "[{b}]");
            assert_eq!(ours.json, none.json, "[{b}] GET {what}");

            let body = json!({"name": "Mine", "permissions": ["station.view"]});
            let ours = app
                .post(&format!("/api/v1/company/role/{id}"), body.clone(), t)
                .await;
            let none = app
                .post(&format!("/api/v1/company/role/{MISSING}"), body, t)
                .await;
            assert_ne!(none.code(), 0, "[{b}]");
            assert_eq!(ours.json, none.json, "[{b}] update {what}");

            let ours = app
                .post(&format!("/api/v1/company/role/{id}/delete"), json!({}), t)
                .await;
            let none = app
                .post(
                    &format!("/api/v1/company/role/{MISSING}/delete"),
                    json!({}),
                    t,
                )
                .await;
            assert_ne!(none.code(), 0, "[{b}]");
            assert_eq!(ours.json, none.json, "[{b}] delete {what}");
        }
        // Beta's role is untouched.
        let role = app
            .store
            .role(w.role_b)
            .await
            .unwrap()
            .expect("still there");
        assert_eq!(role.name, "Ops", "[{b}]");
        assert_eq!(
            app.store.role_permissions(w.role_b).await.unwrap(),
            ["station.view"],
            "[{b}]"
        );
        assert!(app.store.role(builtin).await.unwrap().is_some(), "[{b}]");
    }
}

#[tokio::test]
async fn other_users_profiles_and_avatars_look_missing() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let png = b"\x89PNG\r\n\x1a\n0000";
        let body = json!({"nickname": "pwned"});
        // (caller, target) pairs that must not manage each other.
        let cases = [
            (
                "company admin -> other company",
                w.admin_a.as_str(),
                w.staff_b,
            ),
            ("company admin -> owner", w.admin_a.as_str(), w.owner),
            ("staff -> colleague", w.staff_a_token.as_str(), w.admin_a_id),
            ("owner -> staff", w.owner_token.as_str(), w.staff_a),
        ];
        for (what, token, target) in cases {
            let t = Some(token);
            let missing = app
                .post(&format!("/api/v1/user/{MISSING}"), body.clone(), t)
                .await;
            missing.expect_code(105);
            let other = app
                .post(&format!("/api/v1/user/{}", target.0), body.clone(), t)
                .await;
            assert_eq!(other.json, missing.json, "[{b}] profile: {what}");

            let missing = app
                .upload(
                    &format!("/api/v1/user/{MISSING}/avatar"),
                    "a.png",
                    "image/png",
                    png,
                    t,
                )
                .await;
            missing.expect_code(105);
            let other = app
                .upload(
                    &format!("/api/v1/user/{}/avatar", target.0),
                    "a.png",
                    "image/png",
                    png,
                    t,
                )
                .await;
            assert_eq!(other.json, missing.json, "[{b}] avatar: {what}");

            let pwd = json!({"oldPassword": "secret123", "newPassword": "pwned1234"});
            let missing = app
                .post(&format!("/api/v1/user/{MISSING}/pwd"), pwd.clone(), t)
                .await;
            let other = app
                .post(&format!("/api/v1/user/{}/pwd", target.0), pwd, t)
                .await;
            assert_eq!(other.json, missing.json, "[{b}] password: {what}");
        }
        for id in [w.staff_b, w.owner, w.admin_a_id, w.staff_a] {
            let u = app.store.user(id).await.unwrap().unwrap();
            assert_ne!(u.nickname, "pwned", "[{b}] {}", u.account);
            assert_eq!(u.avatar, "", "[{b}] {}", u.account);
        }
        // Positive control: a company admin manages their own staff.
        app.post(
            &format!("/api/v1/user/{}", w.staff_a.0),
            json!({"nickname": "Colleague"}),
            Some(&w.admin_a),
        )
        .await
        .expect_code(0);
        let u = app.store.user(w.staff_a).await.unwrap().unwrap();
        assert_eq!(u.nickname, "Colleague", "[{b}]");
    }
}

#[tokio::test]
async fn owners_and_staff_cannot_reach_company_administration() {
    for app in spawn().await {
        let w = world(&app).await;
        for token in [&w.owner_token, &w.staff_a_token] {
            let t = Some(token.as_str());
            for path in [
                "/api/v1/company/user/list".to_string(),
                "/api/v1/company/roles".to_string(),
                format!("/api/v1/company/user/{}", w.staff_a.0),
                format!("/api/v1/company/role/{}", w.role_b.0),
                "/api/v1/company/role/check?name=x".to_string(),
            ] {
                app.get(&path, t).await.expect_code(2);
            }
            app.post(
                "/api/v1/company/role",
                json!({"name": "Mine", "permissions": []}),
                t,
            )
            .await
            .expect_code(2);
        }
        app.get("/api/v1/company/info", Some(&w.owner_token))
            .await
            .expect_code(2);
        assert!(app.store.company_roles(w.a).await.unwrap().is_empty());
    }
}

#[tokio::test]
async fn company_role_rules() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let t = Some(w.admin_a.as_str());
        let create = |name: &'static str, perms: Vec<&'static str>| {
            app.post(
                "/api/v1/company/role",
                json!({"name": name, "permissions": perms}),
                t,
            )
        };
        let r = create("Ops", vec!["station.view", "company.user"]).await;
        r.expect_code(0);
        let ops = r.data().as_i64().expect("role id");
        // Beta also has an "Ops" role: names are unique per company only.
        create("Ops", vec![]).await.expect_code(801);
        app.get("/api/v1/company/role/check?name=Ops", t)
            .await
            .expect_code(801);
        app.get("/api/v1/company/role/check?name=Other", t)
            .await
            .expect_code(0);
        create("Manager", vec![]).await.expect_code(4);
        create("", vec![]).await.expect_code(4);
        create("FW", vec!["firmware.management"])
            .await
            .expect_code(2);
        create("Sys", vec!["sys.gateway.view"]).await.expect_code(2);
        create("Bad", vec!["no.such.key"]).await.expect_code(4);
        let r = app.get(&format!("/api/v1/company/role/{ops}"), t).await;
        r.expect_code(0);
        assert_eq!(
            r.data()["permissions"],
            json!(["company.user", "station.view"]),
            "[{b}]"
        );

        // Up to five roles per company.
        for name in ["R2", "R3", "R4", "R5"] {
            create(name, vec!["station.view"]).await.expect_code(0);
        }
        create("R6", vec![]).await.expect_code(800);
        app.get("/api/v1/company/role/check?name=R7", t)
            .await
            .expect_code(800);
        assert_eq!(
            app.store.company_roles(w.a).await.unwrap().len(),
            5,
            "[{b}]"
        );

        // Update: rename, a taken name, a key not held.
        app.post(
            &format!("/api/v1/company/role/{ops}"),
            json!({"name": "Field", "permissions": ["station.view"]}),
            t,
        )
        .await
        .expect_code(0);
        app.post(
            &format!("/api/v1/company/role/{ops}"),
            json!({"name": "R2"}),
            t,
        )
        .await
        .expect_code(801);
        app.post(
            &format!("/api/v1/company/role/{ops}"),
            json!({"permissions": ["system.management"]}),
            t,
        )
        .await
        .expect_code(2);
        let r = app.get(&format!("/api/v1/company/role/{ops}"), t).await;
        assert_eq!(r.data()["name"], "Field", "[{b}]");
        assert_eq!(r.data()["permissions"], json!(["station.view"]), "[{b}]");

        // Deleting a role moves its users to the built-in staff role.
        app.store.set_role(w.staff_a, RoleId(ops)).await.unwrap();
        app.post(&format!("/api/v1/company/role/{ops}/delete"), json!({}), t)
            .await
            .expect_code(0);
        let staff = app.store.user(w.staff_a).await.unwrap().unwrap();
        assert_eq!(
            staff.role_id,
            Some(app.role(BuiltinRole::CompanyStaff).await.0),
            "[{b}]"
        );
        create("R6", vec![]).await.expect_code(0);
    }
}

#[tokio::test]
async fn the_callers_own_role_is_locked() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let boss = app
            .store
            .create_role(
                w.a,
                "Boss",
                &BuiltinRole::CompanyAdmin.permissions(),
                api::now_ms(),
                None,
            )
            .await
            .unwrap();
        app.store.set_role(w.admin_a_id, boss).await.unwrap();
        let t = Some(w.admin_a.as_str());
        // The custom role still grants company administration.
        app.get("/api/v1/company/roles", t).await.expect_code(0);
        app.post(
            &format!("/api/v1/company/role/{}", boss.0),
            json!({"name": "Chief"}),
            t,
        )
        .await
        .expect_code(802);
        app.post(
            &format!("/api/v1/company/role/{}", boss.0),
            json!({"permissions": ["station.view"]}),
            t,
        )
        .await
        .expect_code(802);
        app.post(
            &format!("/api/v1/company/role/{}/delete", boss.0),
            json!({}),
            t,
        )
        .await
        .expect_code(802);
        let role = app.store.role(boss).await.unwrap().expect("kept");
        assert_eq!(role.name, "Boss", "[{b}]");
        assert_eq!(
            app.store.role_permissions(boss).await.unwrap().len(),
            BuiltinRole::CompanyAdmin.permissions().len(),
            "[{b}] permissions unchanged"
        );
    }
}

/// The business endpoints, per role: internal administrators act on any company; a company's
/// administrator, its staff with a role granting `company.user.edit`, its agent company's
/// administrator, a stranger company's administrator and an owner each see only what is
/// theirs, and another company's company, staff member or agent answers like a missing one.
#[tokio::test]
async fn business_endpoints_keep_every_role_to_its_own_company() {
    for app in spawn().await {
        let b = app.backend;
        let (_, root) = app
            .signed_in("root@portal.example", BuiltinRole::InternalAdmin, None)
            .await;
        let mut admins = Vec::new();
        let mut ids = Vec::new();
        for name in ["Sun", "Moon", "Star"] {
            let account = format!("boss@{}.example", name.to_lowercase());
            let r = app
                .post(
                    "/api/v1/company/add",
                    json!({"name": name, "adminAccount": account, "adminPassword": "Sunny-2024"}),
                    Some(&root),
                )
                .await;
            r.expect_code(0);
            ids.push(r.data().as_i64().unwrap());
            admins.push(app.login(&account, "Sunny-2024").await.access);
        }
        let (sun, moon, star) = (ids[0], ids[1], ids[2]);
        let (sun_admin, moon_admin, star_admin) = (&admins[0], &admins[1], &admins[2]);
        // Moon is Sun's agent.
        let agent_id =
            common::fixtures::agent(&app, sun_admin, "boss@moon.example", moon_admin).await;
        // A Sun staff member whose custom role manages staff.
        let role = app
            .store
            .create_role(
                CompanyId(sun),
                "HR",
                &["company.management", "company.user", "company.user.edit"],
                api::now_ms(),
                None,
            )
            .await
            .unwrap();
        let hr_id = app
            .user(
                "hr@sun.example",
                "secret123",
                BuiltinRole::CompanyStaff,
                Some(CompanyId(sun)),
            )
            .await;
        app.store.set_role(hr_id, role).await.unwrap();
        let hr = app.login("hr@sun.example", "secret123").await.access;
        let (plain_id, plain) = app
            .signed_in(
                "plain@sun.example",
                BuiltinRole::CompanyStaff,
                Some(CompanyId(sun)),
            )
            .await;
        let moon_staff = app
            .user(
                "staff@moon.example",
                "secret123",
                BuiltinRole::CompanyStaff,
                Some(CompanyId(moon)),
            )
            .await;
        let (_, owner) = app
            .signed_in("owner@example.com", BuiltinRole::PlantOwner, None)
            .await;

        // Staff with the permission manage colleagues; without it they may not.
        app.post(
            &format!("/api/v1/user/edit/{}", plain_id.0),
            json!({"nickname": "P"}),
            Some(&hr),
        )
        .await
        .expect_code(0);
        app.post(
            &format!("/api/v1/user/edit/{hr_id}"),
            json!({"nickname": "P"}),
            Some(&plain),
        )
        .await
        .expect_code(2);
        // The agent company's administrator, a stranger and Sun's own staff see nothing of
        // the other companies: every object answers like a missing one.
        for token in [moon_admin, star_admin, &hr] {
            let edit_other = |id: i64| format!("/api/v1/user/edit/{id}");
            let other_user = if token == moon_admin {
                hr_id.0
            } else {
                moon_staff.0
            };
            let other = app
                .post(
                    &edit_other(other_user),
                    json!({"nickname": "x"}),
                    Some(token),
                )
                .await;
            let missing = app
                .post(&edit_other(987_654), json!({"nickname": "x"}), Some(token))
                .await;
            assert_eq!(other.json, missing.json, "[{b}] staff edit");
            let del_other = app
                .post(
                    &format!("/api/v1/user/delete/{other_user}"),
                    json!({}),
                    Some(token),
                )
                .await;
            let del_missing = app
                .post("/api/v1/user/delete/987654", json!({}), Some(token))
                .await;
            assert_eq!(del_other.json, del_missing.json, "[{b}] staff delete");
        }
        for token in [moon_admin, star_admin] {
            let other = app
                .post(
                    &format!("/api/v1/company/{sun}/themeColor"),
                    json!({"themeColor": "#fff"}),
                    Some(token),
                )
                .await;
            let missing = app
                .post(
                    "/api/v1/company/987654/themeColor",
                    json!({"themeColor": "#fff"}),
                    Some(token),
                )
                .await;
            assert_eq!(other.json, missing.json, "[{b}] company");
            let other = app
                .post(
                    &format!("/api/v1/agent/{agent_id}/delete"),
                    json!({}),
                    Some(token),
                )
                .await;
            let missing = app
                .post("/api/v1/agent/987654/delete", json!({}), Some(token))
                .await;
            assert_eq!(other.json, missing.json, "[{b}] agent");
            // Their own lists hold none of Sun's agents; companyId is ignored for them.
            let list = app
                .get(&format!("/api/v1/agents?companyId={sun}"), Some(token))
                .await;
            assert_eq!(list.data()["total"], 0, "[{b}]");
            let staff = app
                .get(
                    &format!("/api/v1/company/user/list?companyId={sun}"),
                    Some(token),
                )
                .await;
            let infos = staff.data()["infos"].as_array().unwrap().clone();
            assert!(!infos.is_empty(), "[{b}]");
            assert!(
                infos
                    .iter()
                    .all(|u| !u["account"].as_str().unwrap().ends_with("@sun.example")),
                "[{b}] only their own staff"
            );
        }
        // Owners have no company business at all.
        for path in [
            "/api/v1/agents",
            "/api/v1/company/roles/assignable",
            "/api/v1/company/list",
        ] {
            app.get(path, Some(&owner)).await.expect_code(2);
        }
        // Internal administrators act on any company.
        let t = Some(root.as_str());
        app.post(
            &format!("/api/v1/company/{star}/themeColor"),
            json!({"themeColor": "#fff"}),
            t,
        )
        .await
        .expect_code(0);
        app.post(
            &format!("/api/v1/user/edit/{}", moon_staff.0),
            json!({"nickname": "M"}),
            t,
        )
        .await
        .expect_code(0);
        let sun_agents = app.get(&format!("/api/v1/agents?companyId={sun}"), t).await;
        assert_eq!(sun_agents.data()["total"], 1, "[{b}]");
        let sun_info = app
            .get(&format!("/api/v1/company/info?companyId={sun}"), t)
            .await;
        assert_eq!(sun_info.data()["staff"], 3, "[{b}]");
        // Nothing of Sun changed through the refusals.
        let sun_row = app.store.company(CompanyId(sun)).await.unwrap().unwrap();
        assert_eq!(sun_row.theme_color, "#00cc00", "[{b}]");
        assert!(
            app.store
                .user(hr_id)
                .await
                .unwrap()
                .unwrap()
                .deleted_at
                .is_none(),
            "[{b}]"
        );
    }
}
