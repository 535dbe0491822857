//! Customer types: a company's tree of types, with codes unique per company, parents in the
//! same company and no cycles; a type is deleted only while nothing is under it and no customer
//! has it. Another company's type answers exactly like a missing one.

use crate::common;

use common::{App, Resp, spawn};
use domain::{
    ids::{CompanyId, CustomerTypeId},
    user::BuiltinRole,
};
use serde_json::{Value, json};

const MISSING: i64 = 987_654;

struct World {
    a: CompanyId,
    internal: String,
    admin_a: String,
    staff_a: String,
    admin_b: String,
    owner: String,
}

async fn world(app: &App) -> World {
    let a = app.company("Alpha Solar").await;
    let b = app.company("Beta Energy").await;
    let (_, internal) = app
        .signed_in("root@example.com", BuiltinRole::InternalAdmin, None)
        .await;
    let (_, admin_a) = app
        .signed_in("admin@alpha.example", BuiltinRole::CompanyAdmin, Some(a))
        .await;
    let (_, staff_a) = app
        .signed_in("staff@alpha.example", BuiltinRole::CompanyStaff, Some(a))
        .await;
    let (_, admin_b) = app
        .signed_in("admin@beta.example", BuiltinRole::CompanyAdmin, Some(b))
        .await;
    let (_, owner) = app
        .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
        .await;
    World {
        a,
        internal,
        admin_a,
        staff_a,
        admin_b,
        owner,
    }
}

async fn add(app: &App, token: &str, body: Value) -> Resp {
    app.post("/api/v1/customerType", body, Some(token)).await
}

async fn add_ok(app: &App, token: &str, code: &str, parent: Option<i64>) -> i64 {
    let r = add(
        app,
        token,
        json!({"code": code, "name": format!("{code} name"), "remark": "r", "parentId": parent}),
    )
    .await;
    r.expect_code(0);
    r.data().as_i64().expect("type id")
}

/// The company's types as the store has them: (id, parent, code, name).
async fn stored(app: &App, company: CompanyId) -> Vec<(i64, Option<i64>, String, String)> {
    app.store
        .customer_types(company)
        .await
        .expect("types")
        .into_iter()
        .map(|t| (t.id.0, t.parent_id.map(|p| p.0), t.code, t.name))
        .collect()
}

#[tokio::test]
async fn types_form_a_tree_with_codes_unique_per_company() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let t = Some(w.admin_a.as_str());
        let retail = add_ok(&app, &w.admin_a, "RETAIL", None).await;
        let vip = add_ok(&app, &w.admin_a, "VIP", Some(retail)).await;
        let gold = add_ok(&app, &w.admin_a, "VIP-gold", Some(vip)).await;
        // Another company may use the same code.
        add_ok(&app, &w.admin_b, "VIP", None).await;

        let tree = app.get("/api/v1/customer/types", t).await;
        tree.expect_code(0);
        let root = &tree.data()[0];
        assert_eq!(
            tree.data().as_array().map(Vec::len),
            Some(1),
            "[{b}] {}",
            tree.text()
        );
        assert_eq!(
            (root["id"].as_i64(), root["code"].as_str()),
            (Some(retail), Some("RETAIL")),
            "[{b}]"
        );
        assert!(
            root["parentId"].is_null() && root["customers"] == 0,
            "[{b}]"
        );
        assert_eq!(root["remark"], "r", "[{b}]");
        assert!(root["createAt"].is_string(), "[{b}]");
        let child = &root["children"][0];
        assert_eq!(
            (child["id"].as_i64(), child["parentId"].as_i64()),
            (Some(vip), Some(retail)),
            "[{b}]"
        );
        assert_eq!(child["children"][0]["id"].as_i64(), Some(gold), "[{b}]");
        assert_eq!(child["children"][0]["children"], json!([]), "[{b}]");

        let flat = app.get("/api/v1/customerTypes", t).await;
        flat.expect_code(0);
        assert_eq!(
            flat.data(),
            &json!([
                {"id": retail, "code": "RETAIL", "name": "RETAIL name", "parentId": null},
                {"id": vip, "code": "VIP", "name": "VIP name", "parentId": retail},
                {"id": gold, "code": "VIP-gold", "name": "VIP-gold name", "parentId": vip},
            ]),
            "[{b}]"
        );
        let one = app.get(&format!("/api/v1/customerType/{vip}"), t).await;
        one.expect_code(0);
        assert_eq!(one.data()["code"], "VIP", "[{b}]");
        assert_eq!(one.data()["parentId"].as_i64(), Some(retail), "[{b}]");
        assert!(one.data().get("children").is_none(), "[{b}]");

        // Bad input: its code, and nothing changes.
        let before = stored(&app, w.a).await;
        for (body, code, why) in [
            (json!({"code": "VIP", "name": "dup"}), 5000, "code taken"),
            (json!({"code": "", "name": "x"}), 4, "no code"),
            (json!({"code": "has space", "name": "x"}), 4, "bad code"),
            (json!({"code": "A".repeat(21), "name": "x"}), 4, "long code"),
            (json!({"code": "NEW", "name": ""}), 4, "no name"),
            (
                json!({"code": "NEW", "name": "n".repeat(31)}),
                4,
                "long name",
            ),
            (
                json!({"code": "NEW", "name": "x", "remark": "r".repeat(201)}),
                4,
                "long remark",
            ),
            (
                json!({"code": "NEW", "name": "x", "parentId": MISSING}),
                4,
                "missing parent",
            ),
        ] {
            add(&app, &w.admin_a, body).await.expect_code(code);
            assert_eq!(stored(&app, w.a).await, before, "[{b}] {why}");
        }
        let r = add(
            &app,
            &w.admin_a,
            json!({"code": "NEW", "name": "x", "parentId": MISSING}),
        )
        .await;
        assert!(r.msg().contains("parentId"), "[{b}] {}", r.msg());

        // Edit: rename, move; a cycle, itself, a taken code are refused.
        let app_ref = &app;
        let edit = move |id: i64, body: Value| {
            let path = format!("/api/v1/customerType/{id}");
            async move { app_ref.post(&path, body, t).await }
        };
        edit(
            gold,
            json!({"code": "GOLD", "name": "Gold", "parentId": retail}),
        )
        .await
        .expect_code(0);
        let before = stored(&app, w.a).await;
        for (id, body, code) in [
            (
                retail,
                json!({"code": "RETAIL", "name": "x", "parentId": gold}),
                4,
            ),
            (
                retail,
                json!({"code": "RETAIL", "name": "x", "parentId": retail}),
                4,
            ),
            (
                vip,
                json!({"code": "RETAIL", "name": "x", "parentId": retail}),
                5000,
            ),
            (
                vip,
                json!({"code": "VIP", "name": "", "parentId": retail}),
                4,
            ),
        ] {
            edit(id, body).await.expect_code(code);
            assert_eq!(stored(&app, w.a).await, before, "[{b}] edit {id}");
        }
        let one = app.get(&format!("/api/v1/customerType/{gold}"), t).await;
        assert_eq!(
            (one.data()["code"].as_str(), one.data()["parentId"].as_i64()),
            (Some("GOLD"), Some(retail)),
            "[{b}]"
        );
    }
}

#[tokio::test]
async fn a_type_is_deleted_only_when_nothing_is_under_it_and_no_customer_has_it() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let t = Some(w.admin_a.as_str());
        let retail = add_ok(&app, &w.admin_a, "RETAIL", None).await;
        let vip = add_ok(&app, &w.admin_a, "VIP", Some(retail)).await;
        let customer = common::fixtures::customer(
            &app,
            &w.admin_a,
            json!({"account": "ann@example.com", "typeId": vip}),
            &w.owner,
        )
        .await;
        let plant = common::fixtures::plant(
            &app,
            &w.owner,
            common::fixtures::madrid_plant("Ann roof", 1, 5),
        )
        .await;

        let app_ref = &app;
        let del = move |id: i64| {
            let path = format!("/api/v1/customerType/{id}/delete");
            async move { app_ref.post(&path, json!({}), t).await }
        };
        let r = del(retail).await;
        r.expect_code(4);
        assert!(r.msg().ends_with("children"), "[{b}] {}", r.msg());
        let r = del(vip).await;
        r.expect_code(4);
        assert!(r.msg().ends_with("customers"), "[{b}] {}", r.msg());
        assert_eq!(stored(&app, w.a).await.len(), 2, "[{b}] nothing deleted");
        let tree = app.get("/api/v1/customer/types", t).await;
        assert_eq!(tree.data()[0]["children"][0]["customers"], 1, "[{b}]");

        // The customer moves off the type; then the type and its parent go.
        app.post(
            &format!("/api/v1/customer/{customer}"),
            json!({"typeId": null, "remark": ""}),
            t,
        )
        .await
        .expect_code(0);
        del(vip).await.expect_code(0);
        del(retail).await.expect_code(0);
        assert!(stored(&app, w.a).await.is_empty(), "[{b}]");
        del(retail).await.expect_code(4);
        // The customer, its account and its plant stay.
        let list = app.get("/api/v1/customers", t).await;
        assert_eq!(list.data()["total"], 1, "[{b}]");
        let own = app
            .get(&format!("/api/v1/plant/{plant}"), Some(&w.owner))
            .await;
        own.expect_code(0);
        let filter = store::audit::AuditFilter {
            limit: 100,
            ..Default::default()
        };
        let (rows, _) = app
            .store
            .audit_visible(
                domain::policy::PlantVisibility::All,
                domain::ids::UserId(0),
                &filter,
            )
            .await
            .unwrap();
        let actions: Vec<&str> = rows.iter().map(|r| r.action.as_str()).collect();
        for action in ["customerType.add", "customerType.delete", "customer.edit"] {
            assert!(actions.contains(&action), "[{b}] {action} in {actions:?}");
        }
    }
}

#[tokio::test]
async fn every_type_endpoint_per_role_and_another_companys_type_looks_missing() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let ours = add_ok(&app, &w.admin_a, "OURS", None).await;
        let theirs = add_ok(&app, &w.admin_b, "THEIRS", None).await;
        let reads = [
            "/api/v1/customer/types".to_string(),
            "/api/v1/customerTypes".to_string(),
            format!("/api/v1/customerType/{ours}"),
        ];
        for path in &reads {
            app.get(path, Some(&w.admin_a)).await.expect_code(0);
            // Company staff hold no customer type key; owners none at all.
            app.get(path, Some(&w.staff_a)).await.expect_code(2);
            app.get(path, Some(&w.owner)).await.expect_code(2);
            app.get(path, Some(&w.internal)).await.expect_code(2);
            let sep = if path.contains('?') { '&' } else { '?' };
            app.get(
                &format!("{path}{sep}companyId={}", w.a.0),
                Some(&w.internal),
            )
            .await
            .expect_code(0);
        }
        for token in [&w.staff_a, &w.owner] {
            let t = Some(token.as_str());
            add(&app, token, json!({"code": "X", "name": "x"}))
                .await
                .expect_code(2);
            app.post(
                &format!("/api/v1/customerType/{ours}"),
                json!({"code": "X", "name": "x"}),
                t,
            )
            .await
            .expect_code(2);
            app.post(&format!("/api/v1/customerType/{ours}/delete"), json!({}), t)
                .await
                .expect_code(2);
        }
        // The internal administrator acts for Alpha.
        let r = add(
            &app,
            &w.internal,
            json!({"code": "INT", "name": "x", "companyId": w.a.0}),
        )
        .await;
        r.expect_code(0);
        assert_eq!(stored(&app, w.a).await.len(), 2, "[{b}]");

        // Beta's type, as Alpha's admin: exactly like a missing one, and untouched.
        let t = Some(w.admin_a.as_str());
        let x = app.get(&format!("/api/v1/customerType/{theirs}"), t).await;
        let y = app.get(&format!("/api/v1/customerType/{MISSING}"), t).await;
        assert_ne!(y.code(), 0, "[{b}]");
        assert_eq!(x.json, y.json, "[{b}] read");
        let body = json!({"code": "PWNED", "name": "pwned"});
        let x = app
            .post(&format!("/api/v1/customerType/{theirs}"), body.clone(), t)
            .await;
        let y = app
            .post(&format!("/api/v1/customerType/{MISSING}"), body, t)
            .await;
        assert_eq!(x.json, y.json, "[{b}] edit");
        let x = app
            .post(
                &format!("/api/v1/customerType/{theirs}/delete"),
                json!({}),
                t,
            )
            .await;
        let y = app
            .post(
                &format!("/api/v1/customerType/{MISSING}/delete"),
                json!({}),
                t,
            )
            .await;
        assert_eq!(x.json, y.json, "[{b}] delete");
        // Nor may it be a parent, or a customer's type, in Alpha.
        let r = add(
            &app,
            &w.admin_a,
            json!({"code": "CHILD", "name": "x", "parentId": theirs}),
        )
        .await;
        r.expect_code(4);
        assert!(r.msg().contains("parentId"), "[{b}]");
        let r = app
            .post(
                "/api/v1/customer",
                json!({"account": "ann@example.com", "typeId": theirs}),
                t,
            )
            .await;
        r.expect_code(4);
        assert!(r.msg().contains("typeId"), "[{b}]");
        let beta = app
            .store
            .customer_type(
                app.store
                    .user_by_account("admin@beta.example")
                    .await
                    .unwrap()
                    .unwrap()
                    .company()
                    .unwrap(),
                CustomerTypeId(theirs),
            )
            .await
            .unwrap()
            .expect("still there");
        assert_eq!(beta.code, "THEIRS", "[{b}]");
    }
}
