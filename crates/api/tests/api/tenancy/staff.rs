//! Another company's staff and roles look missing; company administration is staff's.

use super::*;

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
