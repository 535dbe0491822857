//! The rules of company roles, and the caller's own role.

use super::*;
use domain::ids::RoleId;

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
            Some(app.role(BuiltinRole::CompanyStaff).await),
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
                domain::time::now_ms(),
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
