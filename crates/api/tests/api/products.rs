//! Products and hardware over HTTP: the rules and their refusals, the hardware list written
//! with its product in one transaction, edits that may not drop a version firmware names,
//! removal while in use, permissions (internal staff only), the inverter products and telling
//! an inverter its product (another tenant's inverter answers missing).

use crate::common;
use domain::DeviceFamily;
use domain::ids::PlantId;

use common::{App, spawn};
use domain::user::BuiltinRole;
use serde_json::{Value, json};
use store::testing::Write;

/// A primary title "Hybrid" with the secondary label "Single phase" holding type code 2, and
/// "Three phase" holding 93.
const TREE: &str = "\
INSERT INTO inverter_types (parent_id, name, sort, created_at, updated_at) VALUES (NULL, 'Hybrid', 0, 1, 1);
INSERT INTO inverter_types (parent_id, name, sort, created_at, updated_at)
    SELECT id, 'Single phase', 0, 1, 1 FROM inverter_types WHERE name = 'Hybrid';
INSERT INTO inverter_types (parent_id, name, sort, created_at, updated_at)
    SELECT id, 'Three phase', 1, 1, 1 FROM inverter_types WHERE name = 'Hybrid';
INSERT INTO inverter_type_codes (code, type_id) SELECT 2, id FROM inverter_types WHERE name = 'Single phase';
INSERT INTO inverter_type_codes (code, type_id) SELECT 93, id FROM inverter_types WHERE name = 'Three phase';
";

/// A firmware file of product `INV-6K` naming hardware version `H1`.
const FIRMWARE_NAMING_H1: &str = "\
INSERT INTO firmware (target, type_id, name, file_name, stored_name, size, version, change_log,
    enabled, created_at, updated_at, product_id, hardware_version)
SELECT 'inverter', type_id, 'fw', 'fw.bin', 'fw.bin', 1, '1.0.0', '', TRUE, 1, 1, id, 'H1'
FROM products WHERE part_number = 'INV-6K';
";

async fn label(app: &App, name: &str) -> i64 {
    app.store.run_script_for_tests(TREE).await.expect("tree");
    let id = app
        .store
        .label_of_code(if name == "Single phase" { 2 } else { 93 })
        .await
        .expect("label");
    (id.expect("label id")).0
}

fn inverter_product(type_id: i64) -> Value {
    json!({"name": "Hybrid 6K", "partNumber": "INV-6K", "category": "inverter",
        "manufacturer": "Sim Power", "typeId": type_id, "ratedPower": 6000,
        "remark": "", "hardware": ["H1", "H2"]})
}

async fn add(app: &App, admin: &str, body: Value) -> i64 {
    let r = app.post("/api/v1/product/", body, Some(admin)).await;
    r.expect_code(0);
    r.data().as_i64().expect("id")
}

fn versions(p: &Value) -> Vec<&str> {
    let mut v: Vec<&str> = p["hardware"]
        .as_array()
        .expect("hardware")
        .iter()
        .map(|h| h["version"].as_str().expect("version"))
        .collect();
    v.sort_unstable();
    v
}

#[tokio::test]
async fn an_administrator_adds_reads_lists_and_checks_products() {
    for app in spawn().await {
        let (_, admin) = app
            .signed_in("admin@example.com", BuiltinRole::InternalAdmin, None)
            .await;
        let single = label(&app, "Single phase").await;
        let id = add(&app, &admin, inverter_product(single)).await;

        let one = app
            .get(&format!("/api/v1/product/{id}"), Some(&admin))
            .await;
        one.expect_code(0);
        let p = one.data();
        assert_eq!(p["partNumber"], "INV-6K", "{}", app.backend);
        assert_eq!(p["typeName"], "Single phase");
        assert_eq!(p["ratedPower"], 6000.0);
        assert_eq!(versions(p), vec!["H1", "H2"]);
        assert_eq!(
            (p["firmwareCount"].as_i64(), p["deviceCount"].as_i64()),
            (Some(0), Some(0))
        );

        add(
            &app,
            &admin,
            json!({"name": "Logger", "partNumber": "GW-4G", "category": "gateway", "hardware": []}),
        )
        .await;
        let page = app
            .get(
                "/api/v1/product/?page=1&limit=10&category=gateway",
                Some(&admin),
            )
            .await;
        page.expect_code(0);
        assert_eq!(page.data()["total"], 1);
        assert_eq!(page.data()["infos"][0]["partNumber"], "GW-4G");
        let found = app
            .get("/api/v1/product/?keyword=hybrid", Some(&admin))
            .await;
        assert_eq!(found.data()["total"], 1);

        // The part number check: taken by another, free for the product itself.
        let taken = app
            .get("/api/v1/product/check?partNumber=INV-6K", Some(&admin))
            .await;
        taken.expect_code(4);
        assert!(taken.msg().contains("partNumber"), "{}", taken.msg());
        app.get(
            &format!("/api/v1/product/check?partNumber=INV-6K&id={id}"),
            Some(&admin),
        )
        .await
        .expect_code(0);
        app.get("/api/v1/product/check?partNumber=NEW-1", Some(&admin))
            .await
            .expect_code(0);

        let hw = app
            .get(&format!("/api/v1/hardware?productId={id}"), Some(&admin))
            .await;
        hw.expect_code(0);
        assert_eq!(hw.data().as_array().map(Vec::len), Some(2));
        assert_eq!(hw.data()[0]["productName"], "Hybrid 6K");
    }
}

#[tokio::test]
async fn the_rules_refuse_each_bad_field_and_a_taken_part_number() {
    for app in spawn().await {
        let (_, admin) = app
            .signed_in("admin@example.com", BuiltinRole::InternalAdmin, None)
            .await;
        let single = label(&app, "Single phase").await;
        add(&app, &admin, inverter_product(single)).await;
        let hybrid_title = single - 1;
        let cases = [
            (
                json!({"name": "", "partNumber": "P-1", "category": "meter"}),
                "name",
            ),
            (
                json!({"name": "x".repeat(65), "partNumber": "P-1", "category": "meter"}),
                "name",
            ),
            (
                json!({"name": "M", "partNumber": "P 1", "category": "meter"}),
                "partNumber",
            ),
            (
                json!({"name": "M", "partNumber": "P-1", "category": "toaster"}),
                "category",
            ),
            (
                json!({"name": "M", "partNumber": "P-1", "category": "meter", "remark": "r".repeat(201)}),
                "remark",
            ),
            (
                json!({"name": "M", "partNumber": "P-1", "category": "meter", "hardware": ["x".repeat(33)]}),
                "hardware",
            ),
            (
                json!({"name": "I", "partNumber": "P-1", "category": "inverter", "typeId": hybrid_title}),
                "typeId",
            ),
            (
                json!({"name": "I", "partNumber": "P-1", "category": "inverter", "typeId": 9999}),
                "typeId",
            ),
            (
                json!({"name": "I", "partNumber": "INV-6K", "category": "inverter"}),
                "partNumber",
            ),
        ];
        for (body, field) in cases {
            let r = app
                .post("/api/v1/product/", body.clone(), Some(&admin))
                .await;
            r.expect_code(4);
            assert!(r.msg().contains(field), "{body}: {}", r.msg());
        }
        let page = app.get("/api/v1/product/", Some(&admin)).await;
        assert_eq!(page.data()["total"], 1, "nothing refused was stored");
    }
}

/// A POST whose failure is the point (the harness refuses server errors): its HTTP status.
async fn failing_post(app: &App, uri: &str, body: &Value, token: &str) -> u16 {
    use tower::ServiceExt;
    let req = app
        .request(axum::http::Method::POST, uri)
        .header("content-type", "application/json")
        .header("authorization", common::bearer(token))
        .body(axum::body::Body::from(body.to_string()))
        .expect("request");
    let resp = app.router.clone().oneshot(req).await.expect("response");
    resp.status().as_u16()
}

#[tokio::test]
async fn a_failing_hardware_list_leaves_no_product_behind() {
    for app in spawn().await {
        let (_, admin) = app
            .signed_in("admin@example.com", BuiltinRole::InternalAdmin, None)
            .await;
        let id = add(
            &app,
            &admin,
            json!({"name": "Pack", "partNumber": "BAT-1", "category": "battery", "hardware": ["B1"]}),
        )
        .await;
        app.store
            .fail_writes_for_tests("hardware_versions", Write::Insert)
            .await
            .expect("trigger");
        let body = json!({"name": "Meter", "partNumber": "MET-1", "category": "meter",
            "hardware": ["M1"]});
        assert_eq!(
            failing_post(&app, "/api/v1/product/", &body, &admin).await,
            500
        );
        let body = json!({"name": "Pack renamed", "partNumber": "BAT-1", "category": "battery",
            "hardware": ["B1", "B2"]});
        let edit = format!("/api/v1/products/{id}");
        assert_eq!(failing_post(&app, &edit, &body, &admin).await, 500);
        let page = app.get("/api/v1/product/", Some(&admin)).await;
        assert_eq!(
            page.data()["total"],
            1,
            "{}: the product row was rolled back",
            app.backend
        );
        let p = app
            .get(&format!("/api/v1/product/{id}"), Some(&admin))
            .await;
        assert_eq!(p.data()["name"], "Pack", "the edit was rolled back");
        assert_eq!(versions(p.data()), vec!["B1"]);
    }
}

#[tokio::test]
async fn an_edit_replaces_hardware_but_keeps_versions_firmware_names() {
    for app in spawn().await {
        let (_, admin) = app
            .signed_in("admin@example.com", BuiltinRole::InternalAdmin, None)
            .await;
        let single = label(&app, "Single phase").await;
        let id = add(&app, &admin, inverter_product(single)).await;
        app.store
            .run_script_for_tests(FIRMWARE_NAMING_H1)
            .await
            .expect("firmware");

        let mut body = inverter_product(single);
        body["hardware"] = json!(["H2", "H3"]);
        let refused = app
            .post(
                &format!("/api/v1/products/{id}"),
                body.clone(),
                Some(&admin),
            )
            .await;
        refused.expect_code(4);
        assert!(refused.msg().contains("hardware"), "{}", refused.msg());
        let p = app
            .get(&format!("/api/v1/product/{id}"), Some(&admin))
            .await;
        assert_eq!(
            versions(p.data()),
            vec!["H1", "H2"],
            "{}: unchanged",
            app.backend
        );

        body["hardware"] = json!(["H1", "H3"]);
        body["name"] = json!("Hybrid 6K v2");
        app.post(&format!("/api/v1/products/{id}"), body, Some(&admin))
            .await
            .expect_code(0);
        let p = app
            .get(&format!("/api/v1/product/{id}"), Some(&admin))
            .await;
        assert_eq!(versions(p.data()), vec!["H1", "H3"]);
        assert_eq!(p.data()["name"], "Hybrid 6K v2");
        assert_eq!(p.data()["firmwareCount"], 1);

        // In use by firmware: not removable. A free product is.
        let in_use = app
            .post(
                &format!("/api/v1/products/{id}/delete"),
                json!({}),
                Some(&admin),
            )
            .await;
        in_use.expect_code(4);
        assert!(in_use.msg().contains("inUse"), "{}", in_use.msg());
        let free = add(
            &app,
            &admin,
            json!({"name": "Meter", "partNumber": "MET-1", "category": "meter"}),
        )
        .await;
        app.post(
            &format!("/api/v1/products/{free}/delete"),
            json!({}),
            Some(&admin),
        )
        .await
        .expect_code(0);
        app.get(&format!("/api/v1/product/{free}"), Some(&admin))
            .await
            .expect_code(4);

        let audit = app.get("/api/v1/audit?limit=50", Some(&admin)).await;
        let text = audit.data().to_string();
        for action in ["product.create", "product.edit", "product.delete"] {
            assert!(text.contains(action), "{action} audited: {text}");
        }
    }
}

#[tokio::test]
async fn only_internal_staff_manage_products() {
    for app in spawn().await {
        let (_, admin) = app
            .signed_in("admin@example.com", BuiltinRole::InternalAdmin, None)
            .await;
        let acme = app.company("Acme").await;
        let (_, boss) = app
            .signed_in(
                "boss@acme.example.com",
                BuiltinRole::CompanyAdmin,
                Some(acme),
            )
            .await;
        let (_, ann) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let id = add(
            &app,
            &admin,
            json!({"name": "Meter", "partNumber": "MET-1", "category": "meter"}),
        )
        .await;
        for token in [&boss, &ann] {
            app.get("/api/v1/product/", Some(token))
                .await
                .expect_code(2);
            app.get(&format!("/api/v1/product/{id}"), Some(token))
                .await
                .expect_code(2);
            app.get("/api/v1/product/check?partNumber=X-1", Some(token))
                .await
                .expect_code(2);
            app.post(
                "/api/v1/product/",
                json!({"name": "M", "partNumber": "M-2", "category": "meter"}),
                Some(token),
            )
            .await
            .expect_code(2);
            app.post(
                &format!("/api/v1/products/{id}"),
                json!({"name": "M", "partNumber": "MET-1", "category": "meter"}),
                Some(token),
            )
            .await
            .expect_code(2);
            app.post(
                &format!("/api/v1/products/{id}/delete"),
                json!({}),
                Some(token),
            )
            .await
            .expect_code(2);
            app.get("/api/v1/hardware", Some(token))
                .await
                .expect_code(2);
        }
        app.get("/api/v1/product/", None).await.expect_401();
    }
}

#[tokio::test]
async fn an_inverter_is_told_its_product_when_the_product_fits_its_type() {
    for app in spawn().await {
        let (_, admin) = app
            .signed_in("admin@example.com", BuiltinRole::InternalAdmin, None)
            .await;
        let (ann_id, ann) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let (bob_id, bob) = app
            .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let single = label(&app, "Single phase").await;
        let three = app
            .store
            .label_of_code(93)
            .await
            .expect("label")
            .expect("id");
        let fits = add(&app, &admin, inverter_product(single)).await;
        let mut other = inverter_product(three.0);
        other["partNumber"] = json!("INV-12K");
        let wrong_label = add(&app, &admin, other).await;
        let battery = add(
            &app,
            &admin,
            json!({"name": "Pack", "partNumber": "BAT-1", "category": "battery"}),
        )
        .await;
        let no_label = add(
            &app,
            &admin,
            json!({"name": "Generic", "partNumber": "INV-ANY", "category": "inverter"}),
        )
        .await;

        let ann_plant = common::fixtures::plant(
            &app,
            &ann,
            common::fixtures::madrid_plant("Ann home plant", 1, 5),
        )
        .await;
        let bob_plant = common::fixtures::plant(
            &app,
            &bob,
            common::fixtures::madrid_plant("Bob home plant", 1, 5),
        )
        .await;
        let now = domain::time::now_ms();
        let gw = app
            .store
            .create_gateway("GW-ANN-0001", "KEY12345", "", now)
            .await
            .expect("gw");
        app.store
            .bind_gateway(gw, PlantId(ann_plant), ann_id, None, now)
            .await
            .expect("bind");
        let bgw = app
            .store
            .create_gateway("GW-BOB-0001", "KEY12345", "", now)
            .await
            .expect("gw");
        app.store
            .bind_gateway(bgw, PlantId(bob_plant), bob_id, None, now)
            .await
            .expect("bind");
        app.store
            .upsert_device(
                "INV-ANN-01",
                gw,
                DeviceFamily::Inverter,
                2,
                "deye-hybrid-1ph",
                "M",
                None,
                now,
            )
            .await
            .expect("device");
        app.store
            .upsert_device(
                "INV-BOB-01",
                bgw,
                DeviceFamily::Inverter,
                2,
                "deye-hybrid-1ph",
                "M",
                None,
                now,
            )
            .await
            .expect("device");

        // The products are readable by whoever reads inverters.
        let list = app.get("/api/v1/inverter/products", Some(&ann)).await;
        list.expect_code(0);
        assert_eq!(
            list.data().as_array().map(Vec::len),
            Some(3),
            "{}",
            app.backend
        );

        for refused in [wrong_label, battery, 99_999] {
            let r = app
                .post(
                    "/api/v1/inverter/product",
                    json!({"sn": "INV-ANN-01", "productId": refused}),
                    Some(&ann),
                )
                .await;
            r.expect_code(4);
            assert!(r.msg().contains("productId"), "{}", r.msg());
        }
        app.post(
            "/api/v1/inverter/product",
            json!({"sn": "INV-ANN-01", "productId": no_label}),
            Some(&ann),
        )
        .await
        .expect_code(0);
        app.post(
            "/api/v1/inverter/product",
            json!({"sn": "INV-ANN-01", "productId": fits}),
            Some(&ann),
        )
        .await
        .expect_code(0);
        let detail = app.get("/api/v1/inverter/INV-ANN-01", Some(&ann)).await;
        detail.expect_code(0);
        assert_eq!(detail.data()["productId"], fits);
        assert_eq!(detail.data()["productName"], "Hybrid 6K");
        let page = app.get("/api/v1/inverters", Some(&ann)).await;
        assert_eq!(page.data()["infos"][0]["productName"], "Hybrid 6K");
        let bobs = app.get("/api/v1/inverter/INV-BOB-01", Some(&bob)).await;
        assert_eq!(bobs.data()["productId"], Value::Null);

        // Another tenant's inverter answers as missing.
        app.post(
            "/api/v1/inverter/product",
            json!({"sn": "INV-BOB-01", "productId": fits}),
            Some(&ann),
        )
        .await
        .expect_code(600);

        // A product devices are is not removable; clearing it makes it so.
        app.post(
            &format!("/api/v1/products/{fits}/delete"),
            json!({}),
            Some(&admin),
        )
        .await
        .expect_code(4);
        app.post(
            "/api/v1/inverter/product",
            json!({"sn": "INV-ANN-01", "productId": null}),
            Some(&ann),
        )
        .await
        .expect_code(0);
        app.post(
            &format!("/api/v1/products/{fits}/delete"),
            json!({}),
            Some(&admin),
        )
        .await
        .expect_code(0);
    }
}
