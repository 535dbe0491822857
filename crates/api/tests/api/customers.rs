//! Customers: a company adds plant owners' accounts as its customers, gives them a type and a
//! remark, and removes them; while an account is a customer its plants (with their gateways
//! and devices) are visible to the company's staff. Every endpoint is confined to the
//! caller's company, and another company's customer answers exactly like a missing one.

use crate::common;

use common::{App, Resp, fixtures, spawn};
use domain::{
    ids::{CompanyId, UserId},
    policy::PlantVisibility,
    user::BuiltinRole,
};
use serde_json::{Value, json};
use store::audit::AuditFilter;

const MISSING: i64 = 987_654;

struct World {
    a: CompanyId,
    b: CompanyId,
    internal: String,
    admin_a: String,
    staff_a: String,
    /// Company A staff whose role grants no customer key.
    plain_a: String,
    admin_b: String,
    ann: UserId,
    ann_token: String,
    bob_token: String,
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
    let plain = app
        .user(
            "plain@alpha.example",
            "secret123",
            BuiltinRole::CompanyStaff,
            Some(a),
        )
        .await;
    let role = app
        .store
        .create_role(a, "Field", &["station.view"], api::now_ms(), None)
        .await
        .expect("role");
    app.store.set_role(plain, role).await.expect("set role");
    let plain_a = app.login("plain@alpha.example", "secret123").await.access;
    let (_, admin_b) = app
        .signed_in("admin@beta.example", BuiltinRole::CompanyAdmin, Some(b))
        .await;
    let (ann, ann_token) = app
        .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let (_, bob_token) = app
        .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
        .await;
    World {
        a,
        b,
        internal,
        admin_a,
        staff_a,
        plain_a,
        admin_b,
        ann,
        ann_token,
        bob_token,
    }
}

/// Asked by the company and accepted by the owner (`owner`, their token).
async fn add_customer(app: &App, token: &str, body: Value, owner: &str) -> i64 {
    fixtures::customer(app, token, body, owner).await
}

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

fn ids(list: &Resp) -> Vec<i64> {
    list.data()["infos"]
        .as_array()
        .expect("infos")
        .iter()
        .map(|i| i["id"].as_i64().expect("id"))
        .collect()
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

async fn delete(app: &App, path: &str, token: &str) -> Resp {
    app.send(
        app.request(axum::http::Method::DELETE, path)
            .header("authorization", common::bearer(token))
            .body(axum::body::Body::empty())
            .expect("request"),
    )
    .await
}

async fn check(app: &App, token: Option<&str>, account: &str) -> Resp {
    app.get(&format!("/api/v1/customer/check?account={account}"), token)
        .await
}

#[tokio::test]
async fn a_customers_plants_are_the_companys_to_see_until_it_is_removed() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let plant =
            fixtures::plant(&app, &w.ann_token, fixtures::madrid_plant("Ann roof", 1, 5)).await;
        let gateway =
            fixtures::bound_gateway(&app, &w.internal, &w.ann_token, plant, "GWANN001").await;
        app.store
            .upsert_device(
                "INVANN01",
                gateway,
                "inverter",
                1,
                "p",
                "m",
                None,
                api::now_ms(),
            )
            .await
            .expect("device");
        let staff = Some(w.staff_a.as_str());

        let before = app.get("/api/v1/plants", staff).await;
        assert_eq!(before.data()["total"], 0, "[{b}]");
        app.get(&format!("/api/v1/plant/{plant}"), staff)
            .await
            .expect_code(700);
        assert_eq!(
            app.get("/api/v1/gateways", staff).await.data()["total"],
            0,
            "[{b}]"
        );
        assert_eq!(
            app.get("/api/v1/inverters", staff).await.data()["total"],
            0,
            "[{b}]"
        );

        let ann = add_customer(
            &app,
            &w.admin_a,
            json!({"account": "ann@example.com"}),
            &w.ann_token,
        )
        .await;
        let now = app.get("/api/v1/plants", staff).await;
        assert_eq!(ids(&now), [plant], "[{b}]");
        let detail = app.get(&format!("/api/v1/plant/{plant}"), staff).await;
        detail.expect_code(0);
        let perms = detail.data()["plantPermission"].to_string();
        assert!(
            perms.contains("station.edit") && !perms.contains("station.share\""),
            "[{b}] {perms}"
        );
        assert_eq!(
            app.get("/api/v1/gateways", staff).await.data()["total"],
            1,
            "[{b}]"
        );
        app.get("/api/v1/gateway/GWANN001", staff)
            .await
            .expect_code(0);
        assert_eq!(
            app.get("/api/v1/inverters", staff).await.data()["total"],
            1,
            "[{b}]"
        );
        app.get("/api/v1/inverter/INVANN01", staff)
            .await
            .expect_code(0);
        // Gateways filtered by the customer's user id.
        let mine = app
            .get(&format!("/api/v1/gateways?customerId={}", w.ann.0), staff)
            .await;
        assert_eq!(mine.data()["total"], 1, "[{b}]");
        let other = app
            .get(&format!("/api/v1/gateways?customerId={MISSING}"), staff)
            .await;
        assert_eq!(other.data()["total"], 0, "[{b}]");
        // Another company sees nothing of it.
        assert_eq!(
            app.get("/api/v1/plants", Some(&w.admin_b)).await.data()["total"],
            0,
            "[{b}]"
        );
        app.get(&format!("/api/v1/plant/{plant}"), Some(&w.admin_b))
            .await
            .expect_code(700);

        delete(&app, &format!("/api/v1/customers/delete/{ann}"), &w.admin_a)
            .await
            .expect_code(0);
        assert_eq!(
            app.get("/api/v1/plants", staff).await.data()["total"],
            0,
            "[{b}]"
        );
        app.get(&format!("/api/v1/plant/{plant}"), staff)
            .await
            .expect_code(700);
        assert_eq!(
            app.get("/api/v1/gateways", staff).await.data()["total"],
            0,
            "[{b}]"
        );
        app.get("/api/v1/gateway/GWANN001", staff)
            .await
            .expect_code(305);
        assert_eq!(
            app.get("/api/v1/inverters", staff).await.data()["total"],
            0,
            "[{b}]"
        );
        // Nothing of Ann's was deleted.
        assert!(
            app.store.plant(plant, w.ann).await.unwrap().is_some(),
            "[{b}]"
        );
        assert!(app.store.gateway(gateway).await.unwrap().is_some(), "[{b}]");
        assert!(
            app.store.device_by_sn("INVANN01").await.unwrap().is_some(),
            "[{b}]"
        );
        let own = app
            .get(&format!("/api/v1/plant/{plant}"), Some(&w.ann_token))
            .await;
        own.expect_code(0);
    }
}

#[tokio::test]
async fn agents_plants_are_the_principals_to_see_and_to_filter_by() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        // Beta is Alpha's agent; Gamma is nobody's.
        app.store
            .create_agent(w.a, w.b, api::now_ms())
            .await
            .expect("agent");
        let c = app.company("Gamma Power").await;
        let (_, admin_c) = app
            .signed_in("admin@gamma.example", BuiltinRole::CompanyAdmin, Some(c))
            .await;
        let beta_plant = fixtures::plant(
            &app,
            &w.admin_b,
            fixtures::madrid_plant("Beta field", 1, 50),
        )
        .await;
        let gamma_plant =
            fixtures::plant(&app, &admin_c, fixtures::madrid_plant("Gamma lake", 1, 50)).await;
        let own_plant =
            fixtures::plant(&app, &w.admin_a, fixtures::madrid_plant("Alpha hq", 1, 10)).await;
        let gateway =
            fixtures::bound_gateway(&app, &w.internal, &w.admin_b, beta_plant, "GWBETA01").await;
        app.store
            .upsert_device(
                "INVBETA1",
                gateway,
                "inverter",
                1,
                "p",
                "m",
                None,
                api::now_ms(),
            )
            .await
            .expect("device");
        let staff = Some(w.staff_a.as_str());

        let all = app.get("/api/v1/plants", staff).await;
        let mut seen = ids(&all);
        seen.sort();
        assert_eq!(
            seen,
            [beta_plant, own_plant],
            "[{b}] own and the agent's, not Gamma's"
        );
        app.get(&format!("/api/v1/plant/{beta_plant}"), staff)
            .await
            .expect_code(0);
        app.get(&format!("/api/v1/plant/{gamma_plant}"), staff)
            .await
            .expect_code(700);
        // The agent does not see the principal's plants.
        let agent = app.get("/api/v1/plants", Some(&w.admin_b)).await;
        assert_eq!(ids(&agent), [beta_plant], "[{b}]");

        let q = |list: &str, company: i64| {
            format!("/api/v1/{list}?page=1&limit=10&agentCompanyId={company}")
        };
        for (list, rows) in [("plants", 1), ("gateways", 1), ("inverters", 1)] {
            let r = app.get(&q(list, w.b.0), staff).await;
            r.expect_code(0);
            assert_eq!(r.data()["total"], rows, "[{b}] {list} of the agent");
            for (token, company, why) in [
                (staff, c.0, "not an agent of Alpha"),
                (staff, w.a.0, "Alpha itself is not its agent"),
                (Some(w.ann_token.as_str()), w.b.0, "an owner has no agents"),
                (Some(w.admin_b.as_str()), w.b.0, "Beta is not its own agent"),
            ] {
                let r = app.get(&q(list, company), token).await;
                r.expect_code(0);
                assert_eq!(r.data()["total"], 0, "[{b}] {list}: {why}");
                assert_eq!(r.data()["infos"], json!([]), "[{b}] {list}: {why}");
            }
            let r = app.get(&q(list, -1), staff).await;
            assert!(r.data()["total"].as_i64() >= Some(rows), "[{b}] {list} -1");
            // Internal administrators narrow to any company.
            let r = app.get(&q(list, w.b.0), Some(&w.internal)).await;
            assert_eq!(r.data()["total"], rows, "[{b}] {list} internal");
        }
        let r = app.get(&q("plants", c.0), Some(&w.internal)).await;
        assert_eq!(ids(&r), [gamma_plant], "[{b}]");
        let r = app.get(&q("plants/map", w.b.0), staff).await;
        assert_eq!(r.data().as_array().map(Vec::len), Some(1), "[{b}] map");

        // The agent's stock (a gateway it holds on no plant) is the principal's to see, not to
        // take or to read the key of; a company that is not the principal does not see it.
        let stock = json!({"sn": "GWSTOCK1", "key": "KEY12345"});
        app.post("/api/v1/gateway/create", stock.clone(), Some(&w.internal))
            .await
            .expect_code(0);
        app.post(
            "/api/v1/gateway/import/one",
            stock.clone(),
            Some(&w.admin_b),
        )
        .await
        .expect_code(0);
        let id = app
            .store
            .gateway_by_sn("GWSTOCK1")
            .await
            .expect("gateway")
            .expect("row")
            .id;
        let r = app.get(&q("gateways", w.b.0), staff).await;
        assert_eq!(
            r.data()["total"],
            2,
            "[{b}] the agent's bound and stock gateways"
        );
        let detail = app.get(&format!("/api/v1/gateway/{id}"), staff).await;
        detail.expect_code(0);
        assert!(
            detail.data()["key"].is_null(),
            "[{b}] no key for the principal"
        );
        app.get(&format!("/api/v1/gateway/{id}"), Some(&admin_c))
            .await
            .expect_code(305);
        app.post("/api/v1/gateway/import/one", stock, Some(&w.admin_a))
            .await
            .expect_code(301);
    }
}

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
            .create_agent(w.a, w.b, api::now_ms())
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
