//! Business endpoints keep every role to its own company.

use super::*;
use domain::ids::CompanyId;

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
                domain::time::now_ms(),
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
