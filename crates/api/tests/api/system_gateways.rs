//! System gateway management over HTTP: registering with model and communication type, the
//! JSON batch and the registry's spreadsheet import with per-row results, the templates, the
//! list's stock/bound/keyword filters, giving a gateway to a customer, and removal refused
//! while bound. Only internal administrators manage the registry.

use crate::common;

use std::io::Cursor;

use calamine::{Reader, Xlsx};
use common::multipart::FilePart;
use common::{App, fixtures, spawn};
use domain::user::BuiltinRole;
use rust_xlsxwriter::Workbook;
use serde_json::json;

fn xlsx(rows: &[&[&str]]) -> Vec<u8> {
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

/// A multipart upload of `file` with the form field `mode`.
async fn upload_with_mode(
    app: &App,
    uri: &str,
    file: &[u8],
    mode: &str,
    token: &str,
) -> common::Resp {
    let file = FilePart::octets("g.xlsx", file);
    app.post_multipart(uri, &[("mode", mode)], Some(file), Some(token))
        .await
}

fn results(r: &common::Resp) -> Vec<(String, String)> {
    r.data()["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|row| {
            (
                row["sn"].as_str().unwrap_or_default().to_string(),
                row["result"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn sns(page: &common::Resp) -> Vec<String> {
    let mut v: Vec<String> = page.data()["infos"]
        .as_array()
        .expect("infos")
        .iter()
        .map(|g| g["sn"].as_str().unwrap_or_default().to_string())
        .collect();
    v.sort();
    v
}

async fn audit_actions(app: &App, admin: &str) -> String {
    app.get("/api/v1/audit?limit=100", Some(admin))
        .await
        .data()
        .to_string()
}

#[tokio::test]
async fn an_administrator_registers_one_and_a_batch_each_row_on_its_own() {
    for app in spawn().await {
        let (_, admin) = app
            .signed_in("admin@example.com", BuiltinRole::InternalAdmin, None)
            .await;
        app.post(
            "/api/v1/gateway/create",
            json!({"sn": "GW-REG-0001", "key": "KEY12345", "model": "LOGGER-4G", "commType": "4G",
                "protocol": "deye-hybrid-1ph"}),
            Some(&admin),
        )
        .await
        .expect_code(0);
        let one = app.get("/api/v1/gateway/GW-REG-0001", Some(&admin)).await;
        one.expect_code(0);
        assert_eq!(one.data()["model"], "LOGGER-4G", "{}", app.backend);
        assert_eq!(one.data()["commTypeName"], "4G");
        let too_long = app
            .post(
                "/api/v1/gateway/create",
                json!({"sn": "GW-REG-0002", "key": "KEY12345", "commType": "x".repeat(17)}),
                Some(&admin),
            )
            .await;
        too_long.expect_code(4);
        assert!(too_long.msg().contains("commType"), "{}", too_long.msg());

        let batch = app
            .post(
                "/api/v1/gateway/batch",
                json!({"gateways": [
                    {"sn": "GW-BAT-0001", "key": "KEY12345", "model": "M1", "commType": "wifi"},
                    {"sn": "GW-REG-0001", "key": "KEY12345"},
                    {"sn": "GW-BAT-0001", "key": "KEY45678"},
                    {"sn": "GW-BAT-0002", "key": "k"},
                    {"sn": "GW-BAT-0003", "key": "KEY12345"},
                ]}),
                Some(&admin),
            )
            .await;
        batch.expect_code(0);
        let d = batch.data();
        assert_eq!(
            (
                d["total"].as_i64(),
                d["succeeded"].as_i64(),
                d["failed"].as_i64()
            ),
            (Some(5), Some(2), Some(3))
        );
        let words: Vec<String> = results(&batch).into_iter().map(|(_, w)| w).collect();
        assert_eq!(
            words,
            ["created", "duplicate", "duplicate", "invalid", "created"]
        );
        assert_eq!(d["results"][3]["row"], 4);
        assert!(
            d["results"][3]["msg"]
                .as_str()
                .unwrap_or_default()
                .contains("key")
        );
        assert!(
            app.store
                .gateway_by_sn("GW-BAT-0003")
                .await
                .expect("read")
                .is_some()
        );

        app.post(
            "/api/v1/gateway/batch",
            json!({"gateways": []}),
            Some(&admin),
        )
        .await
        .expect_code(4);
        let actions = audit_actions(&app, &admin).await;
        for action in ["gateway.register", "gateway.batchRegister"] {
            assert!(actions.contains(action), "{action}: {actions}");
        }
    }
}

#[tokio::test]
async fn a_sheet_of_five_with_a_bad_row_registers_the_other_four() {
    for app in spawn().await {
        let (_, admin) = app
            .signed_in("admin@example.com", BuiltinRole::InternalAdmin, None)
            .await;
        let file = xlsx(&[
            &["SN", "Key", "Model", "Communication type", "Protocol"],
            &[
                "GW-IMP-0001",
                "KEY12345",
                "LOGGER-4G",
                "4g",
                "deye-hybrid-1ph",
            ],
            &["GW-IMP-0002", "KEY12345", "LOGGER-4G", "4g", ""],
            &["GW-IMP-0003", "k", "LOGGER-4G", "4g", ""],
            &["GW-IMP-0004", "KEY12345", "", "wifi", ""],
            &["GW-IMP-0005", "KEY12345", "LOGGER-ETH", "ethernet", ""],
        ]);
        let dry = upload_with_mode(
            &app,
            "/api/v1/gateway/import/check",
            &file,
            "register",
            &admin,
        )
        .await;
        dry.expect_code(0);
        assert_eq!(dry.data()["succeeded"], 4, "{}", app.backend);
        assert!(
            app.store
                .gateway_by_sn("GW-IMP-0001")
                .await
                .expect("read")
                .is_none(),
            "check writes nothing"
        );

        let done = upload_with_mode(
            &app,
            "/api/v1/gateway/import/batch",
            &file,
            "register",
            &admin,
        )
        .await;
        done.expect_code(0);
        let rows = results(&done);
        assert_eq!(rows[2], ("GW-IMP-0003".to_string(), "invalid".to_string()));
        assert_eq!(
            done.data()["results"][2]["row"],
            4,
            "the sheet's own row number"
        );
        assert_eq!(done.data()["succeeded"], 4);
        let g = app
            .store
            .gateway_by_sn("GW-IMP-0005")
            .await
            .expect("read")
            .expect("row");
        assert_eq!(
            (g.model.as_str(), g.comm_type.as_str()),
            ("LOGGER-ETH", "ethernet")
        );

        // Importing again: every good row is a duplicate now.
        let again = upload_with_mode(
            &app,
            "/api/v1/gateway/import/batch",
            &file,
            "register",
            &admin,
        )
        .await;
        let words: Vec<String> = results(&again).into_iter().map(|(_, w)| w).collect();
        assert_eq!(
            words,
            [
                "duplicate",
                "duplicate",
                "invalid",
                "duplicate",
                "duplicate"
            ]
        );
        let actions = audit_actions(&app, &admin).await;
        assert!(
            actions.contains("gateway.import") && actions.contains("\"created\":4"),
            "{actions}"
        );

        // Company administrators may claim-import but not register.
        let acme = app.company("Acme").await;
        let (_, boss) = app
            .signed_in(
                "boss@acme.example.com",
                BuiltinRole::CompanyAdmin,
                Some(acme),
            )
            .await;
        upload_with_mode(
            &app,
            "/api/v1/gateway/import/batch",
            &file,
            "register",
            &boss,
        )
        .await
        .expect_code(2);
        // The claim import's rows carry a result too.
        let claim = xlsx(&[
            &["SN", "Key"],
            &["GW-IMP-0001", "KEY12345"],
            &["GW-IMP-0002", "WRONG1"],
            &["GW-IMP-0001", "KEY12345"],
        ]);
        let claimed =
            upload_with_mode(&app, "/api/v1/gateway/import/batch", &claim, "", &boss).await;
        claimed.expect_code(0);
        let words: Vec<String> = results(&claimed).into_iter().map(|(_, w)| w).collect();
        assert_eq!(
            words,
            ["created", "invalid", "duplicate"],
            "{}",
            claimed.text()
        );
    }
}

#[tokio::test]
async fn the_templates_download_as_readable_workbooks() {
    for app in spawn().await {
        let (_, admin) = app
            .signed_in("admin@example.com", BuiltinRole::InternalAdmin, None)
            .await;
        for (mode, file, header) in [
            (
                "register",
                "gateway-register-template.xlsx",
                vec!["SN", "Key", "Model", "Communication type", "Protocol"],
            ),
            (
                "claim",
                "gateway-import-template.xlsx",
                vec!["SN", "Key", "Plant ID"],
            ),
        ] {
            let r = app
                .get(
                    &format!("/api/v1/gateway/import/template?mode={mode}"),
                    Some(&admin),
                )
                .await;
            let disposition = r.headers["content-disposition"].to_str().expect("header");
            assert!(disposition.contains(file), "{disposition}");
            let mut book = Xlsx::new(Cursor::new(r.body.to_vec())).expect("workbook");
            let range = book.worksheet_range_at(0).expect("sheet").expect("range");
            let first: Vec<String> = range
                .rows()
                .next()
                .expect("header")
                .iter()
                .map(|c| c.to_string())
                .collect();
            assert_eq!(first, header);
            assert_eq!(range.height(), 2, "a header and an example row");
        }
        let (_, ann) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        app.get("/api/v1/gateway/import/template?mode=register", Some(&ann))
            .await
            .expect_code(2);
    }
}

#[tokio::test]
async fn a_customer_holds_a_gateway_as_stock_and_the_list_filters_it() {
    for app in spawn().await {
        let (_, admin) = app
            .signed_in("admin@example.com", BuiltinRole::InternalAdmin, None)
            .await;
        let (ann_id, ann) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let acme = app.company("Acme").await;
        let (boss_id, boss) = app
            .signed_in(
                "boss@acme.example.com",
                BuiltinRole::CompanyAdmin,
                Some(acme),
            )
            .await;
        app.store
            .insert_customer(acme, ann_id, None, "", domain::time::now_ms())
            .await
            .expect("customer");
        for (sn, model) in [("GW-STK-0001", "LOGGER-4G"), ("GW-STK-0002", "LOGGER-WIFI")] {
            app.post(
                "/api/v1/gateway/create",
                json!({"sn": sn, "key": "KEY12345", "model": model}),
                Some(&admin),
            )
            .await
            .expect_code(0);
        }
        let plant =
            fixtures::plant(&app, &ann, fixtures::madrid_plant("Ann home plant", 1, 5)).await;
        let bound = fixtures::bound_gateway(&app, &admin, &ann, plant, "GW-BND-0001").await;

        let stock = app.get("/api/v1/gateways?stock=true", Some(&admin)).await;
        assert_eq!(
            sns(&stock),
            ["GW-STK-0001", "GW-STK-0002"],
            "{}",
            app.backend
        );
        let on_plants = app.get("/api/v1/gateways?bound=true", Some(&admin)).await;
        assert_eq!(sns(&on_plants), ["GW-BND-0001"]);
        let wifi = app.get("/api/v1/gateways?keyword=wifi", Some(&admin)).await;
        assert_eq!(sns(&wifi), ["GW-STK-0002"]);
        let sheet = app
            .get("/api/v1/gateways/downLoad?stock=true", Some(&admin))
            .await;
        let mut book = Xlsx::new(Cursor::new(sheet.body.to_vec())).expect("workbook");
        let range = book.worksheet_range_at(0).expect("sheet").expect("range");
        assert_eq!(range.height(), 3, "the export takes the same filters");

        // Ann does not see the free gateway; given to her, she holds it as stock.
        let before = app.get("/api/v1/gateways?stock=true", Some(&ann)).await;
        assert!(sns(&before).is_empty());
        app.post(
            "/api/v1/gateway/GW-STK-0001/customer",
            json!({"customerId": ann_id.0}),
            Some(&admin),
        )
        .await
        .expect_code(0);
        let after = app.get("/api/v1/gateways?stock=true", Some(&ann)).await;
        assert_eq!(sns(&after), ["GW-STK-0001"]);
        let g = app
            .store
            .gateway_by_sn("GW-STK-0001")
            .await
            .expect("read")
            .expect("row");
        assert_eq!(
            (g.owner_id, g.company_id),
            (Some(ann_id), Some(acme)),
            "held with the company serving her"
        );
        // The company serving her sees it too.
        let boss_view = app.get("/api/v1/gateways?stock=true", Some(&boss)).await;
        assert_eq!(sns(&boss_view), ["GW-STK-0001"]);

        // Held: not removable. Freed: removable.
        app.get("/api/v1/gateway/GW-STK-0001/delete", Some(&admin))
            .await
            .expect_code(301);
        app.post(
            "/api/v1/gateway/GW-STK-0001/customer",
            json!({"customerId": null}),
            Some(&admin),
        )
        .await
        .expect_code(0);
        let freed = app.get("/api/v1/gateways?stock=true", Some(&ann)).await;
        assert!(sns(&freed).is_empty());

        // Refusals: on a plant 301, unknown account 105, not an owner 4, not internal 2.
        app.post(
            &format!("/api/v1/gateway/{bound}/customer"),
            json!({"customerId": ann_id.0}),
            Some(&admin),
        )
        .await
        .expect_code(301);
        app.post(
            "/api/v1/gateway/GW-STK-0002/customer",
            json!({"customerId": 99_999}),
            Some(&admin),
        )
        .await
        .expect_code(105);
        let not_owner = app
            .post(
                "/api/v1/gateway/GW-STK-0002/customer",
                json!({"customerId": boss_id.0}),
                Some(&admin),
            )
            .await;
        not_owner.expect_code(4);
        assert!(not_owner.msg().contains("customerId"));
        app.post(
            "/api/v1/gateway/GW-STK-0002/customer",
            json!({"customerId": ann_id.0}),
            Some(&boss),
        )
        .await
        .expect_code(2);

        // Removal: refused while bound, done while free.
        app.get(&format!("/api/v1/gateway/{bound}/delete"), Some(&admin))
            .await
            .expect_code(301);
        app.get("/api/v1/gateway/GW-STK-0001/delete", Some(&admin))
            .await
            .expect_code(0);
        let actions = audit_actions(&app, &admin).await;
        for action in ["gateway.customer", "gateway.delete"] {
            assert!(actions.contains(action), "{action}: {actions}");
        }
    }
}
