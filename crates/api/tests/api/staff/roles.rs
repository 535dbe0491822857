//! The assignable roles and the limits of the roles API.

use super::*;

#[tokio::test]
async fn assignable_roles_are_the_builtin_two_then_the_companys_own() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        app.store
            .create_role(
                w.sun,
                "Ops",
                &["station.view"],
                domain::time::now_ms(),
                None,
            )
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
