//! Customers checked, added, listed, edited and removed.

use super::*;
use domain::ids::UserId;

async fn add_type(app: &App, token: &str, code: &str, parent: Option<i64>) -> i64 {
    let r = app
        .post(
            "/api/v1/customerType",
            json!({"code": code, "name": code, "parentId": parent}),
            Some(token),
        )
        .await;
    r.expect_code(0);
    r.data().as_i64().expect("type id")
}

async fn audit_count(app: &App, action: &str) -> i64 {
    let filter = AuditFilter {
        action: Some(action.into()),
        limit: 100,
        ..AuditFilter::default()
    };
    app.store
        .audit_visible(PlantVisibility::All, UserId(0), &filter)
        .await
        .expect("audit")
        .1
}

#[tokio::test]
async fn customers_are_checked_added_listed_edited_and_removed() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let t = Some(w.admin_a.as_str());
        check(&app, t, "nobody@example.com").await.expect_code(105);
        check(&app, t, "staff@alpha.example").await.expect_code(4);
        check(&app, t, "not-an-account").await.expect_code(4);
        check(&app, t, "ann@example.com").await.expect_code(0);

        let vip = add_type(&app, &w.admin_a, "VIP", None).await;
        fixtures::plant(&app, &w.ann_token, fixtures::madrid_plant("Ann roof", 1, 5)).await;
        let ann = add_customer(
            &app,
            &w.admin_a,
            json!({"account": "ann@example.com", "typeId": vip, "remark": "since 2020"}),
            &w.ann_token,
        )
        .await;
        check(&app, t, "ann@example.com").await.expect_code(207);
        app.post("/api/v1/customer", json!({"account": "ann@example.com"}), t)
            .await
            .expect_code(207);
        // Bad input gets its code and adds nobody.
        for (body, code) in [
            (
                json!({"account": "bob@example.com", "remark": "r".repeat(201)}),
                4,
            ),
            (json!({"account": "bob@example.com", "typeId": MISSING}), 4),
            (json!({"account": "staff@alpha.example"}), 4),
            (json!({"account": "nobody@example.com"}), 105),
            (json!({}), 4),
        ] {
            app.post("/api/v1/customer", body, t)
                .await
                .expect_code(code);
        }
        let bob = add_customer(
            &app,
            &w.admin_a,
            json!({"account": "bob@example.com"}),
            &w.bob_token,
        )
        .await;

        let list = app.get("/api/v1/customers?page=1&limit=10", t).await;
        list.expect_code(0);
        assert_eq!(list.data()["total"], 2, "[{b}]");
        assert_eq!(ids(&list), [bob, ann], "[{b}] newest first");
        let first = &list.data()["infos"][1];
        assert_eq!(first["userId"].as_i64(), Some(w.ann.0), "[{b}]");
        assert_eq!(first["account"], "ann@example.com", "[{b}]");
        assert_eq!(first["typeId"].as_i64(), Some(vip), "[{b}]");
        assert_eq!(first["typeName"], "VIP", "[{b}]");
        assert_eq!(first["remark"], "since 2020", "[{b}]");
        assert_eq!(first["plants"], 1, "[{b}]");
        assert!(
            first["createAt"].as_str().is_some_and(|s| s.contains('T')),
            "[{b}]"
        );
        let second = &list.data()["infos"][0];
        assert!(
            second["typeId"].is_null() && second["typeName"] == "",
            "[{b}]"
        );
        for (query, expected) in [
            ("name=ANN", vec![ann]),
            (&format!("typeId={vip}") as &str, vec![ann]),
            ("typeId=-1&name=", vec![bob, ann]),
            ("name=nobody", vec![]),
            ("page=2&limit=1", vec![ann]),
        ] {
            let r = app.get(&format!("/api/v1/customers?{query}"), t).await;
            r.expect_code(0);
            assert_eq!(ids(&r), expected, "[{b}] {query}");
        }
        let picks = app.get("/api/v1/customers/list", t).await;
        picks.expect_code(0);
        assert_eq!(
            picks.data(),
            &json!([
                {"id": ann, "userId": w.ann.0, "account": "ann@example.com", "nickname": "ann"},
                {"id": bob, "userId": picks.data()[1]["userId"], "account": "bob@example.com", "nickname": "bob"}
            ]),
            "[{b}]"
        );

        // Edit: type and remark; bad input changes nothing.
        app.post(
            &format!("/api/v1/customer/{bob}"),
            json!({"typeId": vip, "remark": "new"}),
            t,
        )
        .await
        .expect_code(0);
        for body in [
            json!({"typeId": MISSING, "remark": "x"}),
            json!({"typeId": vip, "remark": "r".repeat(201)}),
        ] {
            app.post(&format!("/api/v1/customer/{bob}"), body, t)
                .await
                .expect_code(4);
        }
        app.post(&format!("/api/v1/customer/{MISSING}"), json!({}), t)
            .await
            .expect_code(4);
        let r = app.get(&format!("/api/v1/customers?typeId={vip}"), t).await;
        assert_eq!(ids(&r), [bob, ann], "[{b}]");
        assert_eq!(r.data()["infos"][0]["remark"], "new", "[{b}]");
        // A type's filter takes in the customers of the types below it.
        let gold = add_type(&app, &w.admin_a, "GOLD", Some(vip)).await;
        app.post(
            &format!("/api/v1/customer/{bob}"),
            json!({"typeId": gold, "remark": "new"}),
            t,
        )
        .await
        .expect_code(0);
        for (type_id, expected) in [(vip, vec![bob, ann]), (gold, vec![bob])] {
            let r = app
                .get(&format!("/api/v1/customers?typeId={type_id}"), t)
                .await;
            assert_eq!(ids(&r), expected, "[{b}] typeId={type_id}");
            assert_eq!(r.data()["total"], expected.len(), "[{b}] typeId={type_id}");
        }

        // The customer account's permission tree: one root with the owner's keys.
        let role = app.get(&format!("/api/v1/role/{ann}"), t).await;
        role.expect_code(0);
        assert_eq!(role.data()["permission"], "root", "[{b}]");
        let text = role.data().to_string();
        assert!(
            text.contains("\"station.view\"") && !text.contains("customer.edit"),
            "[{b}]"
        );
        app.get(&format!("/api/v1/role/{MISSING}"), t)
            .await
            .expect_code(4);

        // Removing: the account keeps its plants.
        delete(&app, &format!("/api/v1/customers/delete/{ann}"), &w.admin_a)
            .await
            .expect_code(0);
        let list = app.get("/api/v1/customers", t).await;
        assert_eq!(ids(&list), [bob], "[{b}]");
        assert!(app.store.user(w.ann).await.unwrap().is_some(), "[{b}]");
        let plants = app.get("/api/v1/plants", Some(&w.ann_token)).await;
        assert_eq!(plants.data()["total"], 1, "[{b}] Ann keeps her plant");
        check(&app, t, "ann@example.com").await.expect_code(0);

        for (action, n) in [
            ("customer.offer", 2),
            ("customer.accept", 2),
            ("customer.edit", 2),
            ("customer.remove", 1),
        ] {
            assert_eq!(audit_count(&app, action).await, n, "[{b}] {action}");
        }
    }
}
