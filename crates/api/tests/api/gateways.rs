//! Gateways over HTTP: the registry, SN checks, claiming one gateway or a spreadsheet batch,
//! the plant wizard's gateway step, the list and its field types, detail, unbind and delete,
//! and tenancy (another tenant's gateway answers 305 like a missing one).

use crate::common;

use common::{App, spawn};
use domain::user::BuiltinRole;
use rust_xlsxwriter::Workbook;
use serde_json::{Value, json};

struct Cast {
    admin: String,
    ann: String,
    bob: String,
    ann_plant: i64,
    bob_plant: i64,
}

async fn plant(app: &App, token: &str, name: &str) -> i64 {
    let r = app
        .post(
            "/api/v1/plant",
            json!({"name": name, "type": 1, "currency": "EUR", "timezone": "Europe/Madrid",
                "lon": -3.7, "lat": 40.4, "totalPower": 5}),
            Some(token),
        )
        .await;
    r.expect_code(0);
    r.data().as_i64().expect("plant id")
}

async fn register(app: &App, admin: &str, sn: &str, key: &str) -> i64 {
    let r = app
        .post(
            "/api/v1/gateway/create",
            json!({"sn": sn, "key": key, "protocol": "deye-hybrid-1ph"}),
            Some(admin),
        )
        .await;
    r.expect_code(0);
    r.data().as_i64().expect("gateway id")
}

/// An internal administrator, two owners with one plant each.
async fn cast(app: &App) -> Cast {
    let (_, admin) = app
        .signed_in("admin@example.com", BuiltinRole::InternalAdmin, None)
        .await;
    let (_, ann) = app
        .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let (_, bob) = app
        .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let ann_plant = plant(app, &ann, "Ann home plant").await;
    let bob_plant = plant(app, &bob, "Bob home plant").await;
    Cast {
        admin,
        ann,
        bob,
        ann_plant,
        bob_plant,
    }
}

fn xlsx(rows: &[[&str; 3]]) -> Vec<u8> {
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    for (r, row) in rows.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            if !cell.is_empty() {
                sheet.write_string(r as u32, c as u16, *cell).expect("cell");
            }
        }
    }
    book.save_to_buffer().expect("xlsx")
}

#[tokio::test]
async fn only_internal_administrators_register_gateways_with_valid_unique_sns() {
    for app in spawn().await {
        let c = cast(&app).await;
        let id = register(&app, &c.admin, "GW-0001", "KEY12345").await;
        assert!(id > 0);
        let create = |body: Value, token: String| {
            let app = &app;
            async move { app.post("/api/v1/gateway/create", body, Some(&token)).await }
        };
        let dup = create(json!({"sn": "GW-0001", "key": "OTHER123"}), c.admin.clone()).await;
        dup.expect_code(4);
        assert!(dup.msg().ends_with(": sn"), "{}", dup.msg());
        for (body, field) in [
            (json!({"key": "KEY12345"}), "sn"),
            (json!({"sn": "GW 0002", "key": "KEY12345"}), "sn"),
            (json!({"sn": "GW01", "key": "KEY12345"}), "sn"),
            (json!({"sn": "GW-0002"}), "key"),
            (json!({"sn": "GW-0002", "key": "abc"}), "key"),
            // New keys must be strong: 8 characters, 4 different, no straight run.
            (json!({"sn": "GW-0002", "key": "KEY123"}), "key"),
            (json!({"sn": "GW-0002", "key": "aaaaaaaa"}), "key"),
            (json!({"sn": "GW-0002", "key": "12345678"}), "key"),
        ] {
            let r = create(body, c.admin.clone()).await;
            r.expect_code(4);
            assert!(r.msg().ends_with(field), "{}: {}", r.ctx, r.msg());
        }
        create(json!({"sn": "GW-0003", "key": "KEY12345"}), c.ann.clone())
            .await
            .expect_code(2);
        let (_, boss) = app
            .signed_in(
                "boss@example.com",
                BuiltinRole::CompanyAdmin,
                Some(app.company("Acme").await),
            )
            .await;
        create(json!({"sn": "GW-0003", "key": "KEY12345"}), boss)
            .await
            .expect_code(2);
        // Form bodies and numeric SNs work too.
        app.post_form(
            "/api/v1/gateway/create",
            "sn=20240001&key=k3y-2024",
            Some(&c.admin),
        )
        .await
        .expect_code(0);
    }
}

#[tokio::test]
async fn an_owner_claims_a_gateway_with_its_key_and_nobody_else_can_take_it() {
    for app in spawn().await {
        let c = cast(&app).await;
        let gw = register(&app, &c.admin, "GW-0001", "KEY12345").await;
        let check = "/api/v1/gateway/import/one/check";
        let one = |sn: &str, key: &str| json!({"sn": sn, "key": key});
        let wrong_key = app
            .post(check, one("GW-0001", "NOPE99"), Some(&c.ann))
            .await;
        wrong_key.expect_code(300);
        let unknown = app
            .post(check, one("GW-9999", "KEY12345"), Some(&c.ann))
            .await;
        unknown.expect_code(300);
        assert_eq!(wrong_key.msg(), unknown.msg(), "the same answer for both");
        app.post(check, one("GW-0001", "KEY12345"), Some(&c.ann))
            .await
            .expect_code(0);
        app.post(check, json!({"key": "KEY12345"}), Some(&c.ann))
            .await
            .expect_code(4);

        // Someone else's plant is a missing plant.
        let to_bob = json!({"sn": "GW-0001", "key": "KEY12345", "plantId": c.bob_plant});
        app.post("/api/v1/gateway/import/one", to_bob, Some(&c.ann))
            .await
            .expect_code(700);
        let body = json!({"sn": "GW-0001", "key": "KEY12345", "plantId": c.ann_plant});
        app.post("/api/v1/gateway/import/one", body.clone(), Some(&c.ann))
            .await
            .expect_code(0);
        app.post("/api/v1/gateway/import/one", body, Some(&c.ann))
            .await
            .expect_code(0);
        let bound = app.store.gateway(gw).await.expect("gw").expect("row");
        assert_eq!(bound.plant_id, Some(c.ann_plant));

        app.post(check, one("GW-0001", "KEY12345"), Some(&c.ann))
            .await
            .expect_code(301);
        // Bob cannot see Ann's gateway: its right key answers exactly like a wrong one.
        let right = app
            .post(check, one("GW-0001", "KEY12345"), Some(&c.bob))
            .await;
        let wrong = app
            .post(check, one("GW-0001", "NOPE9999"), Some(&c.bob))
            .await;
        right.expect_code(300);
        assert_eq!(right.text(), wrong.text(), "a key oracle");
        let stock = json!({"sn": "GW-0001", "key": "KEY12345"});
        app.post("/api/v1/gateway/import/one", stock, Some(&c.bob))
            .await
            .expect_code(300);

        // Without a plant the gateway goes to the claimer's stock, visible to them only.
        register(&app, &c.admin, "GW-0002", "KEY45678").await;
        app.post(
            "/api/v1/gateway/import/one",
            one("GW-0002", "KEY45678"),
            Some(&c.bob),
        )
        .await
        .expect_code(0);
        let list = app.get("/api/v1/gateways", Some(&c.bob)).await;
        assert_eq!(list.data()["total"], 1, "{}", list.text());
        assert_eq!(list.data()["infos"][0]["sn"], "GW-0002");
        assert_eq!(list.data()["infos"][0]["plantId"], Value::Null);
        app.post(check, one("GW-0002", "KEY45678"), Some(&c.ann))
            .await
            .expect_code(300);
        // ... and from there onto the claimer's plant.
        app.post(
            &format!("/api/v1/plant/{}/gateway", c.bob_plant),
            one("GW-0002", "KEY45678"),
            Some(&c.bob),
        )
        .await
        .expect_code(0);
    }
}

#[tokio::test]
async fn the_plant_wizard_binds_a_gateway_to_a_plant_the_caller_may_edit() {
    for app in spawn().await {
        let c = cast(&app).await;
        let gw = register(&app, &c.admin, "GW-0001", "KEY12345").await;
        app.store
            .upsert_device("INV-0001", gw, "inverter", 2, "p", "SUN-5K", None, 1)
            .await
            .expect("device");
        let step = format!("/api/v1/plant/{}/gateway", c.ann_plant);
        app.post(
            &step,
            json!({"sn": "GW-0001", "key": "WRONG1"}),
            Some(&c.ann),
        )
        .await
        .expect_code(300);
        app.post(&step, json!({"sn": "GW-0001"}), Some(&c.ann))
            .await
            .expect_code(4);
        app.post(
            &step,
            json!({"sn": "GW-0001", "key": "KEY12345"}),
            Some(&c.bob),
        )
        .await
        .expect_code(700);
        app.post(
            "/api/v1/plant/999999/gateway",
            json!({"sn": "GW-0001", "key": "KEY12345"}),
            Some(&c.ann),
        )
        .await
        .expect_code(700);
        // A visitor sees the plant but may not change it.
        app.post(
            &format!("/api/v1/plant/{}/share", c.ann_plant),
            json!({"account": "bob@example.com", "role": "visitor"}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        app.post(
            &step,
            json!({"sn": "GW-0001", "key": "KEY12345"}),
            Some(&c.bob),
        )
        .await
        .expect_code(2);

        app.post(
            &step,
            json!({"sn": "GW-0001", "key": "KEY12345"}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        let devices = app.store.plant_devices(c.ann_plant).await.expect("devices");
        assert_eq!(devices.len(), 1, "the devices follow their gateway");
        // Bob visits Ann's plant, so he sees the gateway: in use, not a wrong key.
        app.post(
            &format!("/api/v1/plant/{}/gateway", c.bob_plant),
            json!({"sn": "GW-0001", "key": "KEY12345"}),
            Some(&c.bob),
        )
        .await
        .expect_code(301);
        // The shared visitor sees the gateway through the plant.
        let detail = app
            .get(&format!("/api/v1/gateway/{gw}"), Some(&c.bob))
            .await;
        detail.expect_code(0);
        assert_eq!(detail.data()["plant"]["id"].as_i64(), Some(c.ann_plant));
        assert_eq!(detail.data()["devices"][0]["sn"], "INV-0001");
    }
}

#[tokio::test]
async fn sn_checks_answer_free_used_or_unknown_without_revealing_other_tenants() {
    for app in spawn().await {
        let c = cast(&app).await;
        register(&app, &c.admin, "GW-FREE1", "KEY12345").await;
        register(&app, &c.admin, "GW-USED1", "KEY12345").await;
        app.post(
            &format!("/api/v1/plant/{}/gateway", c.ann_plant),
            json!({"sn": "GW-USED1", "key": "KEY12345"}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        for (sn, token, code) in [
            ("GW-FREE1", &c.ann, 0),
            ("GW-NONE1", &c.ann, 305),
            ("GW-USED1", &c.ann, 301),
            ("GW-USED1", &c.bob, 305),
            ("GW-USED1", &c.admin, 301),
            ("GW 1", &c.ann, 4),
        ] {
            app.post("/api/v1/gateways/check", json!({"sn": sn}), Some(token))
                .await
                .expect_code(code);
            if !sn.contains(' ') {
                app.post(
                    &format!("/api/v1/gateway/{sn}/check"),
                    json!({}),
                    Some(token),
                )
                .await
                .expect_code(code);
            }
        }
        app.post("/api/v1/gateways/check", json!({"sn": "GW-FREE1"}), None)
            .await
            .expect_401();
    }
}

#[tokio::test]
async fn a_spreadsheet_batch_answers_each_row_and_its_check_writes_nothing() {
    for app in spawn().await {
        let c = cast(&app).await;
        let acme = app.company("Acme").await;
        let (_, boss) = app
            .signed_in("boss@example.com", BuiltinRole::CompanyAdmin, Some(acme))
            .await;
        let acme_plant = plant(&app, &boss, "Acme roof plant").await;
        for (sn, key) in [
            ("GW-0001", "KEY00001"),
            ("GW-0002", "KEY00002"),
            ("GW-0003", "KEY00003"),
            ("GW-0004", "KEY00004"),
            ("GW-0006", "KEY00006"),
        ] {
            register(&app, &c.admin, sn, key).await;
        }
        app.post(
            &format!("/api/v1/plant/{}/gateway", c.ann_plant),
            json!({"sn": "GW-0004", "key": "KEY00004"}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        let plant_id = acme_plant.to_string();
        let bob_plant = c.bob_plant.to_string();
        let file = xlsx(&[
            ["SN", "Key", "Plant ID"],
            ["GW-0001", "KEY00001", &plant_id],
            ["GW-0002", "KEY00002", ""],
            ["GW-0003", "WRONG1", ""],
            ["GW-0004", "KEY00004", ""],
            ["GW 0005", "KEY00005", ""],
            ["GW-0001", "KEY00001", ""],
            ["GW-9999", "KEY99999", ""],
            ["GW-0006", "KEY00006", &bob_plant],
        ]);
        let expected = [
            (2, "GW-0001", 0),
            (3, "GW-0002", 0),
            (4, "GW-0003", 300),
            // Ann's gateway, which the company cannot see: like a wrong key.
            (5, "GW-0004", 300),
            (6, "GW 0005", 4),
            (7, "GW-0001", 4),
            (8, "GW-9999", 300),
            (9, "GW-0006", 700),
        ];
        let verify = |r: &common::Resp| {
            r.expect_code(0);
            let d = r.data();
            assert_eq!(
                (
                    d["total"].as_i64(),
                    d["succeeded"].as_i64(),
                    d["failed"].as_i64()
                ),
                (Some(8), Some(2), Some(6)),
                "{}",
                r.text()
            );
            let rows = d["results"].as_array().expect("results");
            for (got, (row, sn, code)) in rows.iter().zip(expected) {
                assert_eq!(
                    (
                        got["row"].as_i64(),
                        got["sn"].as_str(),
                        got["code"].as_i64()
                    ),
                    (Some(row), Some(sn), Some(code)),
                    "{got}"
                );
                assert!(got["msg"].as_str().is_some_and(|m| !m.is_empty()));
            }
        };
        let dry = app
            .upload(
                "/api/v1/gateway/import/check",
                "gateways.xlsx",
                "application/octet-stream",
                &file,
                Some(&boss),
            )
            .await;
        verify(&dry);
        let count = app.get("/api/v1/gateways/count", Some(&boss)).await;
        assert_eq!(count.data()["total"], 0, "the check writes nothing");

        // Owners have no batch import.
        app.upload(
            "/api/v1/gateway/import/batch",
            "g.xlsx",
            "application/octet-stream",
            &file,
            Some(&c.ann),
        )
        .await
        .expect_code(2);
        let done = app
            .upload(
                "/api/v1/gateway/import/batch",
                "gateways.xlsx",
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                &file,
                Some(&boss),
            )
            .await;
        verify(&done);
        let list = app
            .get("/api/v1/gateways?page=1&limit=10", Some(&boss))
            .await;
        let mut sns: Vec<&str> = list.data()["infos"]
            .as_array()
            .expect("infos")
            .iter()
            .filter_map(|g| g["sn"].as_str())
            .collect();
        sns.sort();
        assert_eq!(sns, ["GW-0001", "GW-0002"]);
        let first = app
            .store
            .gateway_by_sn("GW-0001")
            .await
            .expect("gw")
            .expect("row");
        assert_eq!(first.plant_id, Some(acme_plant));
        let second = app
            .store
            .gateway_by_sn("GW-0002")
            .await
            .expect("gw")
            .expect("row");
        assert_eq!(
            (second.plant_id, second.company_id),
            (None, Some(acme.0)),
            "company stock"
        );
        let zh = app
            .upload(
                "/api/v1/gateway/import/check?lan=zh",
                "g.xlsx",
                "application/octet-stream",
                &file,
                Some(&boss),
            )
            .await;
        assert_eq!(zh.data()["results"][2]["msg"], "网关SN或密钥错误");
    }
}

#[tokio::test]
async fn files_that_are_not_workbooks_or_too_large_are_refused() {
    for app in spawn().await {
        let (_, admin) = app
            .signed_in("admin@example.com", BuiltinRole::InternalAdmin, None)
            .await;
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0";
        let upload = |bytes: Vec<u8>| {
            let app = &app;
            let admin = admin.clone();
            async move {
                app.upload(
                    "/api/v1/gateway/import/batch",
                    "gateways.xlsx",
                    "application/octet-stream",
                    &bytes,
                    Some(&admin),
                )
                .await
            }
        };
        upload(png.to_vec()).await.expect_code(11);
        upload(b"PK\x03\x04 but not a zip at all".to_vec())
            .await
            .expect_code(11);
        let mut big = b"PK\x03\x04".to_vec();
        big.resize(2 * 1024 * 1024 + 10, b'x');
        upload(big).await.expect_code(12);
        upload(xlsx(&[["SN", "Key", ""]])).await.expect_code(4);
        let many: Vec<[&str; 3]> = (0..1001).map(|_| ["GW-0001", "KEY00001", ""]).collect();
        let r = upload(xlsx(&many)).await;
        r.expect_code(4);
        assert!(r.msg().contains("rows"), "{}", r.msg());
        app.post_raw(
            "/api/v1/gateway/import/check",
            "application/json",
            b"{}".to_vec(),
            Some(&admin),
        )
        .await
        .expect_code(4);
    }
}

fn is_update_at(v: &Value) -> bool {
    v.as_str()
        .is_some_and(|s| s.len() == 20 && s.ends_with('Z') && &s[10..11] == "T")
}

#[tokio::test]
async fn the_list_has_the_client_field_types_and_filters_and_counts() {
    for app in spawn().await {
        let c = cast(&app).await;
        register(&app, &c.admin, "20240001", "KEY12345").await;
        register(&app, &c.admin, "GW-SPARE", "KEY12345").await;
        app.post(
            &format!("/api/v1/plant/{}/gateway", c.ann_plant),
            json!({"sn": "20240001", "key": "KEY12345"}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        let query =
            "page=1&limit=10&status=-1&uploadCycle=-1&protocol=-1&agentCompanyId=-1&lan=en&sn=";
        let list = app
            .get(&format!("/api/v1/gateways?{query}"), Some(&c.ann))
            .await;
        list.expect_code(0);
        let d = list.data();
        assert_eq!(
            (
                d["total"].as_i64(),
                d["pageSize"].as_i64(),
                d["pageNumber"].as_i64()
            ),
            (Some(1), Some(10), Some(1))
        );
        let g = &d["infos"][0];
        assert_eq!(g["sn"], "20240001", "a numeric SN is still a string");
        assert!(g["id"].is_i64() && g["status"].is_i64() && g["uploadCycle"].is_i64());
        assert!(
            g.get("key").is_some_and(Value::is_null),
            "no key in a list: {g}"
        );
        for key in [
            "softVer",
            "hardVer",
            "model",
            "devName",
            "commTypeName",
            "proto",
        ] {
            assert!(g[key].is_string(), "{key}: {}", g[key]);
        }
        assert!(g.get("signal").is_some() && g.get("lldt").is_some());
        assert!(is_update_at(&g["updateAt"]), "{}", g["updateAt"]);
        assert_eq!(g["status"], 0, "offline until it reports");
        assert_eq!(g["plantName"], "Ann home plant");

        let admin_list = app
            .get(&format!("/api/v1/gateways?{query}"), Some(&c.admin))
            .await;
        assert_eq!(admin_list.data()["total"], 2, "the registry, unbound too");
        for (filter, total) in [
            ("sn=spare", 1),
            ("status=1", 0),
            ("status=0", 2),
            ("uploadCycle=300", 2),
            ("uploadCycle=60", 0),
            ("protocol=deye-hybrid-1ph", 2),
            ("protocol=other", 0),
            ("agentCompanyId=99", 0),
            ("page=2&limit=1", 2),
        ] {
            let r = app
                .get(&format!("/api/v1/gateways?{filter}"), Some(&c.admin))
                .await;
            assert_eq!(
                r.data()["total"].as_i64(),
                Some(total),
                "{filter}: {}",
                r.text()
            );
        }
        let page2 = app
            .get("/api/v1/gateways?page=2&limit=1", Some(&c.admin))
            .await;
        assert_eq!(page2.data()["infos"].as_array().map(Vec::len), Some(1));
        let count = app.get("/api/v1/gateways/count", Some(&c.ann)).await;
        assert_eq!(
            count.data(),
            &json!({"total": 1, "online": 0, "offline": 1})
        );
        let bob_count = app.get("/api/v1/gateways/count", Some(&c.bob)).await;
        assert_eq!(bob_count.data()["total"], 0);
        app.get("/api/v1/gateways", None).await.expect_401();
    }
}

#[tokio::test]
async fn another_tenants_gateway_answers_like_a_missing_one() {
    for app in spawn().await {
        let c = cast(&app).await;
        let gw = register(&app, &c.admin, "GW-0001", "KEY12345").await;
        let spare = register(&app, &c.admin, "GW-0002", "KEY12345").await;
        app.post(
            &format!("/api/v1/plant/{}/gateway", c.ann_plant),
            json!({"sn": "GW-0001", "key": "KEY12345"}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        for path in [
            format!("/api/v1/gateway/{gw}"),
            "/api/v1/gateway/GW-0001".into(),
            format!("/api/v1/gateway/{spare}"),
            "/api/v1/gateway/123456789".into(),
        ] {
            app.get(&path, Some(&c.bob)).await.expect_code(305);
        }
        app.post(
            &format!("/api/v1/gateway/{gw}/unbind"),
            json!({}),
            Some(&c.bob),
        )
        .await
        .expect_code(305);
        let mine = app.get("/api/v1/gateway/GW-0001", Some(&c.ann)).await;
        mine.expect_code(0);
        assert_eq!(mine.data()["id"].as_i64(), Some(gw));
        assert_eq!(mine.data()["devices"], json!([]));
        app.get(&format!("/api/v1/gateway/{spare}"), Some(&c.admin))
            .await
            .expect_code(0);
    }
}

#[tokio::test]
async fn unbinding_frees_the_gateway_and_its_devices_and_only_free_gateways_are_deleted() {
    for app in spawn().await {
        let c = cast(&app).await;
        let acme = app.company("Acme").await;
        let (_, boss) = app
            .signed_in("boss@example.com", BuiltinRole::CompanyAdmin, Some(acme))
            .await;
        let (_, staff) = app
            .signed_in("staff@example.com", BuiltinRole::CompanyStaff, Some(acme))
            .await;
        let acme_plant = plant(&app, &boss, "Acme roof plant").await;
        let gw = register(&app, &c.admin, "GW-0001", "KEY12345").await;
        let other = register(&app, &c.admin, "GW-0002", "KEY12345").await;
        app.store
            .upsert_device("INV-0001", gw, "inverter", 2, "p", "SUN-5K", None, 1)
            .await
            .expect("device");
        app.post(
            &format!("/api/v1/plant/{}/gateway", c.ann_plant),
            json!({"sn": "GW-0001", "key": "KEY12345"}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        app.post(
            &format!("/api/v1/plant/{acme_plant}/gateway"),
            json!({"sn": "GW-0002", "key": "KEY12345"}),
            Some(&staff),
        )
        .await
        .expect_code(0);
        // Staff may bind but not unbind; their administrator may.
        app.post(
            &format!("/api/v1/gateway/{other}/unbind"),
            json!({}),
            Some(&staff),
        )
        .await
        .expect_code(2);
        app.post(
            &format!("/api/v1/gateway/{other}/unbind"),
            json!({}),
            Some(&boss),
        )
        .await
        .expect_code(0);

        app.get(&format!("/api/v1/gateway/{gw}/delete"), Some(&c.admin))
            .await
            .expect_code(301);
        app.get(&format!("/api/v1/gateway/{gw}/delete"), Some(&c.ann))
            .await
            .expect_code(2);
        app.post(
            &format!("/api/v1/gateway/{gw}/unbind"),
            json!({}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        assert!(
            app.store
                .plant_devices(c.ann_plant)
                .await
                .expect("devices")
                .is_empty()
        );
        let device = app
            .store
            .device_by_sn("INV-0001")
            .await
            .expect("device")
            .expect("row");
        assert_eq!((device.plant_id, device.gateway_id), (None, Some(gw)));
        app.get(&format!("/api/v1/gateway/{gw}"), Some(&c.ann))
            .await
            .expect_code(305);
        app.post(
            "/api/v1/gateways/check",
            json!({"sn": "GW-0001"}),
            Some(&c.bob),
        )
        .await
        .expect_code(0);

        app.get(&format!("/api/v1/gateway/{gw}/delete"), Some(&c.admin))
            .await
            .expect_code(0);
        app.get(&format!("/api/v1/gateway/{gw}"), Some(&c.admin))
            .await
            .expect_code(305);
        app.get("/api/v1/gateway/999999/delete", Some(&c.admin))
            .await
            .expect_code(305);
    }
}

#[tokio::test]
async fn the_gateway_list_narrows_to_one_plant() {
    for app in common::spawn().await {
        let ann = app
            .user(
                "plantfilter@example.com",
                "secret12",
                domain::user::BuiltinRole::PlantOwner,
                None,
            )
            .await;
        let token = app
            .login("plantfilter@example.com", "secret12")
            .await
            .access;
        let body =
            |name: &str| serde_json::json!({"name": name, "timezone": "UTC", "lon": 1, "lat": 2});
        let a = app
            .post("/api/v1/plant", body("Plant number A"), Some(&token))
            .await
            .data()
            .as_i64()
            .expect("id");
        let b = app
            .post("/api/v1/plant", body("Plant number B"), Some(&token))
            .await
            .data()
            .as_i64()
            .expect("id");
        for (sn, plant) in [("FILTERGW1", a), ("FILTERGW2", b), ("FILTERGW3", b)] {
            let gw = app
                .store
                .create_gateway(sn, "KEY1234", "", 1)
                .await
                .expect("gateway");
            app.store
                .bind_gateway(gw, plant, ann.0, None, 2)
                .await
                .expect("bind");
        }
        let all = app
            .get("/api/v1/gateways?page=1&limit=10", Some(&token))
            .await;
        assert_eq!(all.data()["total"], 3, "{}", all.text());
        let only_b = app
            .get(
                &format!("/api/v1/gateways?page=1&limit=10&plantId={b}"),
                Some(&token),
            )
            .await;
        assert_eq!(only_b.data()["total"], 2, "{}", only_b.text());
        assert!(
            only_b.data()["infos"]
                .as_array()
                .expect("infos")
                .iter()
                .all(|g| g["plantId"] == b)
        );
    }
}
