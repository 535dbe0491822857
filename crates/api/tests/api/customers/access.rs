//! Every customer endpoint per role; another company's customer looks missing.

use super::*;

#[tokio::test]
async fn every_customer_endpoint_per_role_and_another_companys_customer_looks_missing() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let ann = add_customer(
            &app,
            &w.admin_a,
            json!({"account": "ann@example.com", "remark": "keep"}),
            &w.ann_token,
        )
        .await;
        // Beta is Alpha's agent and has a customer of its own.
        app.store
            .create_agent(w.a, w.b, domain::time::now_ms())
            .await
            .expect("agent");
        let bob_at_beta = add_customer(
            &app,
            &w.admin_b,
            json!({"account": "bob@example.com"}),
            &w.bob_token,
        )
        .await;
        let (_, stranger) = {
            let c = app.company("Gamma Power").await;
            app.signed_in("admin@gamma.example", BuiltinRole::CompanyAdmin, Some(c))
                .await
        };

        let reads = [
            "/api/v1/customers".to_string(),
            "/api/v1/customers/list".to_string(),
            format!("/api/v1/role/{ann}"),
        ];
        // Company admin and staff with the view key read; staff without it, owners get 2.
        for path in &reads {
            app.get(path, Some(&w.admin_a)).await.expect_code(0);
            app.get(path, Some(&w.staff_a)).await.expect_code(0);
            app.get(path, Some(&w.plain_a)).await.expect_code(2);
            app.get(path, Some(&w.bob_token)).await.expect_code(2);
            // Internal administrators name the company; without one they have none.
            app.get(path, Some(&w.internal)).await.expect_code(2);
            let sep = if path.contains('?') { '&' } else { '?' };
            app.get(
                &format!("{path}{sep}companyId={}", w.a.0),
                Some(&w.internal),
            )
            .await
            .expect_code(0);
        }
        // Staff with the view key but not customer.edit cannot change anything.
        for token in [&w.staff_a, &w.plain_a, &w.bob_token] {
            let t = Some(token.as_str());
            app.get("/api/v1/customer/check?account=bob@example.com", t)
                .await
                .expect_code(2);
            app.post("/api/v1/customer", json!({"account": "bob@example.com"}), t)
                .await
                .expect_code(2);
            app.post(
                &format!("/api/v1/customer/{ann}"),
                json!({"remark": "x"}),
                t,
            )
            .await
            .expect_code(2);
            delete(&app, &format!("/api/v1/customers/delete/{ann}"), token)
                .await
                .expect_code(2);
        }
        // The internal administrator acts for Alpha.
        let r = app
            .post(
                "/api/v1/customer",
                json!({"account": "bob@example.com", "companyId": w.a.0}),
                Some(&w.internal),
            )
            .await;
        r.expect_code(0);

        // An agent (Beta), a stranger (Gamma): Alpha's customer answers exactly like a missing one.
        for (who, token) in [("agent", &w.admin_b), ("stranger", &stranger)] {
            let t = Some(token.as_str());
            let pairs = [(
                format!("/api/v1/role/{ann}"),
                format!("/api/v1/role/{MISSING}"),
            )];
            for (ours, none) in pairs {
                let (x, y) = (app.get(&ours, t).await, app.get(&none, t).await);
                assert_ne!(y.code(), 0, "[{b}] {who}");
                assert_eq!(x.json, y.json, "[{b}] {who} {ours}");
            }
            let body = json!({"typeId": null, "remark": "pwned"});
            let x = app
                .post(&format!("/api/v1/customer/{ann}"), body.clone(), t)
                .await;
            let y = app
                .post(&format!("/api/v1/customer/{MISSING}"), body, t)
                .await;
            assert_ne!(y.code(), 0, "[{b}] {who}");
            assert_eq!(x.json, y.json, "[{b}] {who} edit");
            let x = delete(&app, &format!("/api/v1/customers/delete/{ann}"), token).await;
            let y = delete(&app, &format!("/api/v1/customers/delete/{MISSING}"), token).await;
            assert_ne!(y.code(), 0, "[{b}] {who}");
            assert_eq!(x.json, y.json, "[{b}] {who} delete");
            // Their lists hold none of Alpha's customers, whatever company they name.
            let list = app
                .get(&format!("/api/v1/customers?companyId={}", w.a.0), t)
                .await;
            list.expect_code(0);
            assert!(!ids(&list).contains(&ann), "[{b}] {who}");
        }
        // Alpha's staff do not reach Beta's customer either.
        let x = app
            .get(&format!("/api/v1/role/{bob_at_beta}"), Some(&w.admin_a))
            .await;
        let y = app
            .get(&format!("/api/v1/role/{MISSING}"), Some(&w.admin_a))
            .await;
        assert_eq!(x.json, y.json, "[{b}]");
        // Ann is still Alpha's customer, unchanged.
        let list = app
            .get("/api/v1/customers?name=ann", Some(&w.admin_a))
            .await;
        assert_eq!(ids(&list), [ann], "[{b}]");
        assert_eq!(list.data()["infos"][0]["remark"], "keep", "[{b}]");
    }
}
