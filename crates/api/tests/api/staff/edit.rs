//! Editing staff, and the company administrator nobody demotes.

use super::*;
use domain::ids::RoleId;

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
            .user(domain::ids::UserId(colleague.0))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (row.nickname.as_str(), row.role_id),
            ("Sam", Some(RoleId(admin_role))),
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
            .user(domain::ids::UserId(colleague.0))
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
