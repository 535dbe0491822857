//! The predicted generation import, row by row, and its series in charts and reports.

use super::*;

/// A workbook of predicted rows: Plant ID, Year, Month, Day, Expected kWh.
fn predictions_xlsx(rows: &[[&str; 5]]) -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let ws = book.add_worksheet();
    for (c, h) in ["Plant ID", "Year", "Month", "Day", "Expected kWh"]
        .iter()
        .enumerate()
    {
        ws.write_string(0, c as u16, *h).expect("header");
    }
    for (r, row) in rows.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            match v.parse::<f64>() {
                Ok(n) => ws.write_number(r as u32 + 1, c as u16, n),
                Err(_) if v.is_empty() => continue,
                Err(_) => ws.write_string(r as u32 + 1, c as u16, *v),
            }
            .expect("cell");
        }
    }
    book.save_to_buffer().expect("xlsx")
}

const XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

#[tokio::test]
async fn predicted_import_checks_each_row_and_feeds_charts_and_reports() {
    for app in spawn().await {
        let c = reported_plant(&app).await;
        let (p, ann) = (c.plant, Some(c.ann.as_str()));
        let year = c.today.year().to_string();
        let month = c.today.month().to_string();
        let (ps, bs) = (p.to_string(), c.bob_plant.to_string());
        let file = predictions_xlsx(&[
            [&ps, &year, &month, "", "310"],
            [&ps, &year, "13", "", "5"],
            [&bs, &year, &month, "", "100"],
            [&ps, &year, &month, "", "320"],
            [&ps, &year, "2", "30", "1"],
            [&ps, &year, "1", "", "-4"],
        ]);
        let check = app
            .upload(
                "/api/v1/predicted/import?dryRun=true&lan=en",
                "p.xlsx",
                XLSX,
                &file,
                ann,
            )
            .await;
        check.expect_code(0);
        let d = check.data();
        assert_eq!(
            (
                d["total"].as_i64(),
                d["imported"].as_i64(),
                d["failed"].as_i64()
            ),
            (Some(6), Some(1), Some(5))
        );
        let msgs: Vec<(i64, bool, String)> = d["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| {
                (
                    r["row"].as_i64().unwrap_or(0),
                    r["success"] == true,
                    r["msg"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect();
        assert_eq!(msgs[0], (2, true, "Success".into()));
        assert!(msgs[1].2.ends_with("month"), "{:?}", msgs[1]);
        assert!(
            msgs[2].2.ends_with("plantId"),
            "another owner's plant: {:?}",
            msgs[2]
        );
        assert!(msgs[3].2.contains("repeated"), "{:?}", msgs[3]);
        assert!(msgs[4].2.ends_with("day") && msgs[5].2.ends_with("kwh"));
        let listed = app
            .get(&format!("/api/v1/plant/{p}/predicted?year={year}"), ann)
            .await;
        assert_eq!(listed.data(), &json!([]), "a dry run stores nothing");

        // The real import, with a Spanish answer, stores the valid row.
        let done = app
            .upload(
                "/api/v1/predicted/import?lan=es",
                "p.xlsx",
                XLSX,
                &file,
                ann,
            )
            .await;
        assert_eq!(done.data()["imported"], 1);
        assert_eq!(done.data()["rows"][0]["msg"], "Correcto");
        let listed = app
            .get(&format!("/api/v1/plant/{p}/predicted?year={year}"), ann)
            .await;
        assert_eq!(
            listed.data(),
            &json!([{"year": c.today.year(), "month": c.today.month(), "day": 0, "kwh": 310.0}])
        );
        app.get(&format!("/api/v1/plant/{p}/predicted?year=20x6"), ann)
            .await
            .expect_code(4);

        // The charts: per month in the year, spread over the days in the month.
        let ybars = app
            .get(&format!("/api/v1/plant/energy/{p}/year?date={year}"), ann)
            .await;
        let ym = c.today.format("%Y-%m").to_string();
        assert_eq!(
            records(&ybars.json["data"], "predicted"),
            vec![(ym.clone(), 310.0)]
        );
        let mbars = app
            .get(&format!("/api/v1/plant/energy/{p}/month?date={ym}"), ann)
            .await;
        let days = records(&mbars.json["data"], "predicted");
        let sum: f64 = days.iter().map(|(_, v)| v).sum();
        assert!(days.len() >= 28 && (sum - 310.0).abs() < 0.2, "{sum}");
        let total = app
            .get(&format!("/api/v1/plant/energy/{p}/total"), ann)
            .await;
        assert!(records(&total.json["data"], "predicted").is_empty());

        // The month report: predicted for the whole month, the ratio against what was
        // predicted up to today (the month is still running).
        let r = app
            .get(
                &format!("/api/v1/report/plant/{p}?type=month&date={ym}"),
                ann,
            )
            .await;
        let s = &r.data()["summary"];
        assert_eq!(s["predicted"], 310.0);
        let days = f64::from(c.today.num_days_in_month());
        let so_far = 310.0 / days * f64::from(c.today.day());
        let ratio = (num(&s["produced"]) / so_far * 10000.0).round() / 100.0;
        assert!(close(num(&s["predictedRatio"]), ratio));

        // The template has the headers and one example row.
        let t = app.get("/api/v1/predicted/template?lan=en", ann).await;
        let mut book = Xlsx::new(Cursor::new(t.body.to_vec())).expect("template");
        let range = book.worksheet_range_at(0).expect("sheet").expect("range");
        assert_eq!(range.rows().count(), 2);
        assert_eq!(
            range.rows().next().expect("header")[0],
            XlsData::String("Plant ID".into())
        );
    }
}
