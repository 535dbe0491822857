//! Claiming gateways from a spreadsheet, and the files refused.

use super::*;
use domain::ids::PlantId;

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
async fn a_spreadsheet_batch_answers_each_row_and_its_check_writes_nothing() {
    for app in spawn().await {
        let c = two_owners(&app).await;
        let acme = app.company("Acme").await;
        let (_, boss) = app
            .signed_in("boss@example.com", BuiltinRole::CompanyAdmin, Some(acme))
            .await;
        let acme_plant = fixtures::grid_tied_plant(&app, &boss, "Acme roof plant").await;
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
        assert_eq!(first.plant_id, Some(PlantId(acme_plant)));
        let second = app
            .store
            .gateway_by_sn("GW-0002")
            .await
            .expect("gw")
            .expect("row");
        assert_eq!(
            (second.plant_id, second.company_id),
            (None, Some(acme)),
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
