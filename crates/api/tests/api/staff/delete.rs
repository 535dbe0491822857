//! Deleting a colleague.

use super::*;

fn accounts(page: &Value) -> Vec<String> {
    page["infos"]
        .as_array()
        .expect("infos")
        .iter()
        .map(|u| u["account"].as_str().expect("account").to_string())
        .collect()
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
            .user(domain::ids::UserId(colleague.0))
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
