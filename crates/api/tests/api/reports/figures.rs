//! The report's figures against the plant energy endpoints and the workbook; refusals.

use super::*;

#[tokio::test]
async fn report_figures_equal_the_plant_energy_endpoints() {
    for app in spawn().await {
        let c = reported_plant(&app).await;
        let (p, ann) = (c.plant, Some(c.ann.as_str()));
        let month = c.today.format("%Y-%m").to_string();
        let bars = app
            .get(&format!("/api/v1/plant/energy/{p}/month?date={month}"), ann)
            .await;
        bars.expect_code(0);
        let r = app
            .get(
                &format!("/api/v1/report/plant/{p}?type=month&date={month}"),
                ann,
            )
            .await;
        r.expect_code(0);
        let rep = r.data();
        assert_eq!(rep["plant"]["name"], "Ann report plant", "{}", app.backend);
        assert_eq!(
            (rep["type"].as_str(), rep["date"].as_str()),
            (Some("month"), Some(month.as_str()))
        );
        assert_eq!(rep["from"], format!("{month}-01"));
        let pv = records(&bars.json["data"], "pv");
        let produced: f64 = pv.iter().map(|(_, v)| v).sum();
        let s = &rep["summary"];
        assert!(
            close(num(&s["produced"]), produced),
            "{} vs {produced}",
            s["produced"]
        );
        let load: f64 = records(&bars.json["data"], "load")
            .iter()
            .map(|(_, v)| v)
            .sum();
        assert!(close(num(&s["consumed"]), load));
        // Every day's row equals its bar; days without data are zero.
        let energy = rep["energy"].as_array().expect("energy");
        assert_eq!(energy[0]["label"], "01");
        for (time, kwh) in &pv {
            let label = &time[8..10];
            let row = energy
                .iter()
                .find(|e| e["label"] == label)
                .expect("day row");
            assert!(close(num(&row["produced"]), *kwh), "{label}");
        }
        // Income under the constant tariff, self-consumption and self-sufficiency by the
        // rule of the figures (docs/figures.md): the battery exported nothing, so
        // self-consumption is (P - E) / P; of the 3 kWh charged a day 0.5 came from the grid,
        // so the load took I - G straight from the grid and g = 1/6 of the discharge.
        assert!(close(
            num(&s["income"]),
            (produced * 0.2 * 100.0).round() / 100.0
        ));
        let days = pv.len() as f64;
        let exported = 2.5 * days;
        let expect = ((produced - exported) / produced * 10000.0).round() / 100.0;
        assert!(
            close(num(&s["selfConsumption"]), expect),
            "{}",
            s["selfConsumption"]
        );
        let (imported, charged, discharged, grid) =
            (1.25 * days, 3.0 * days, 2.0 * days, 0.5 * days);
        let straight = imported - grid;
        let to_load = discharged.min(load - straight);
        let solar = load - straight - grid / charged * to_load;
        let naive = (load - imported) / load * 100.0;
        let expect = (solar / load * 10000.0).round() / 100.0;
        assert!(
            close(num(&s["selfSufficiency"]), expect),
            "{} vs {expect}",
            s["selfSufficiency"]
        );
        assert!(expect > naive, "{expect} vs the naive {naive}");
        // The report carries the figures of the period, the same rule's shares among them.
        let f = &rep["figures"];
        assert_eq!(f["selfSufficiency"]["value"], s["selfSufficiency"]);
        assert_eq!(f["selfSufficiency"]["basis"], "gridCharge");
        assert!(close(num(&f["gridCharge"]), grid));
        assert!(close(num(&f["specificYield"]["value"]), produced / 8.0));
        assert!(close(num(&f["co2Avoided"]["value"]), produced * 0.4));
        assert_eq!(f["referenceYield"]["basis"], "clearSkyAssumed");
        assert!(s["predicted"].is_null() && s["predictedRatio"].is_null());
        assert_eq!(s["events"]["fault"], 1);
        assert_eq!(rep["events"][0]["code"], "F01");
        assert!(rep["events"][0]["content"].is_string());
        assert!(num(&s["peakPower"]) > 2000.0, "{}", s["peakPower"]);
        assert_eq!(rep["power"], json!([]));

        // The year: one row per month, equal to the year bars.
        let year = c.today.year();
        let ybars = app
            .get(&format!("/api/v1/plant/energy/{p}/year?date={year}"), ann)
            .await;
        let yr = app
            .get(
                &format!("/api/v1/report/plant/{p}?type=year&date={year}"),
                ann,
            )
            .await;
        yr.expect_code(0);
        let rows = yr.data()["energy"].as_array().cloned().expect("rows");
        assert_eq!(rows.len(), 12);
        for (time, kwh) in records(&ybars.json["data"], "pv") {
            let row = rows
                .iter()
                .find(|e| e["label"] == time[5..7])
                .expect("month row");
            assert!(close(num(&row["produced"]), kwh), "{time}");
        }

        // The day: 24 hours adding up to the day's energy, and the 5-minute curves.
        let day = c.today.format("%Y-%m-%d").to_string();
        let dr = app
            .get(
                &format!("/api/v1/report/plant/{p}?type=day&date={day}"),
                ann,
            )
            .await;
        dr.expect_code(0);
        let d = dr.data();
        let today_pv = pv
            .iter()
            .find(|(t, _)| *t == day)
            .map(|(_, v)| *v)
            .expect("today");
        assert!(close(num(&d["summary"]["produced"]), today_pv));
        let hours = d["energy"].as_array().expect("hours");
        assert_eq!((hours.len(), hours[23]["label"].as_str()), (24, Some("23")));
        let sum: f64 = hours.iter().map(|h| num(&h["produced"])).sum();
        assert!((sum - today_pv).abs() < 0.2, "{sum} vs {today_pv}");
        let power = d["power"].as_array().expect("power");
        assert!(!power.is_empty() && power[0]["time"].as_str().is_some_and(|t| t.len() == 5));
        assert!(
            d["summary"]["peakPowerAt"]
                .as_str()
                .is_some_and(|t| t.starts_with(&day))
        );

        // The workbook carries the same figures.
        let x = app
            .get(
                &format!("/api/v1/report/plant/{p}/download?type=month&date={month}&lan=en"),
                ann,
            )
            .await;
        assert_eq!(x.status, 200);
        let mut book = Xlsx::new(Cursor::new(x.body.to_vec())).expect("xlsx");
        assert_eq!(book.sheet_names(), vec!["Summary", "Energy", "Events"]);
        let summary = book.worksheet_range("Summary").expect("summary");
        let produced_cell = summary
            .rows()
            .find(|r| r[0] == XlsData::String("Produced (kWh)".into()))
            .map(|r| r[1].clone());
        assert_eq!(produced_cell, Some(XlsData::Float(num(&s["produced"]))));
        let cell = |label: &str| {
            summary
                .rows()
                .find(|r| r[0] == XlsData::String(label.into()))
                .map(|r| r[1].clone())
        };
        assert_eq!(
            cell("Self-sufficiency (%)"),
            Some(XlsData::Float(num(&s["selfSufficiency"])))
        );
        assert_eq!(
            cell("Specific yield (kWh/kWp)"),
            Some(XlsData::Float(num(
                &rep["figures"]["specificYield"]["value"]
            )))
        );
        // (none in the first minutes of a month: no reference energy yet, the cell empty)
        same_ratio(
            cell("Performance ratio (%)"),
            &rep["figures"]["performanceRatio"]["value"],
        );
        assert_eq!(
            cell("Irradiation reference"),
            Some(XlsData::String(
                "Clear-sky model, orientation assumed (upper bound)".into()
            ))
        );
        assert_eq!(cell("CO2 factor (kg/kWh)"), Some(XlsData::Float(0.4)));
        // No inverter reported in daylight: availability is not measured, its cell empty.
        assert_eq!(cell("Availability (%)"), Some(XlsData::Empty));
        let sheet = book.worksheet_range("Energy").expect("energy");
        let first_day = sheet.rows().nth(1).expect("row 1");
        assert_eq!(first_day[0], XlsData::String("01".into()));
        assert_eq!(first_day[1], XlsData::Float(num(&energy[0]["produced"])));
        // Each day's figures follow its energy: those the figures endpoint gives that day.
        let header = sheet.rows().next().expect("header");
        assert_eq!(
            header.get(8),
            Some(&XlsData::String("Specific yield (kWh/kWp)".into()))
        );
        let day_one = app
            .get(&format!("/api/v1/plant/{p}/figures?date={month}-01"), ann)
            .await;
        day_one.expect_code(0);
        same_ratio(
            first_day.get(10).cloned(),
            &day_one.data()["performanceRatio"]["value"],
        );
        for (k, key) in [(8, "specificYield"), (15, "co2Avoided")] {
            let expected = match day_one.data()[key]["value"].as_f64() {
                Some(v) => XlsData::Float(v),
                None => XlsData::Empty,
            };
            assert_eq!(
                first_day.get(k).cloned().unwrap_or(XlsData::Empty),
                expected,
                "{key}"
            );
        }
        let events = book.worksheet_range("Events").expect("events");
        assert_eq!(events.rows().count(), 2);
    }
}

/// A workbook's performance ratio against the API's, read by another request: the reference
/// energy runs to the moment of each request, and early on a month's first day, when it is
/// minutes of sun, the ratio moves between the two in its fifth digit.
fn same_ratio(cell: Option<XlsData>, api: &Value) {
    match cell {
        Some(XlsData::Empty) | None => assert!(api.is_null(), "empty cell, API {api}"),
        Some(XlsData::Float(f)) => {
            let api = num(api);
            assert!((f - api).abs() <= api.abs() * 1e-3 + 0.011, "{f} vs {api}");
        }
        other => panic!("performance ratio cell {other:?}"),
    }
}

#[tokio::test]
async fn another_tenants_plant_and_bad_periods_answer_4() {
    for app in spawn().await {
        let c = reported_plant(&app).await;
        let (p, bob) = (c.plant, Some(c.bob.as_str()));
        for uri in [
            format!("/api/v1/report/plant/{p}?type=month"),
            format!("/api/v1/report/plant/{p}/download?type=month"),
            format!("/api/v1/report/plant/{p}/subscription"),
            "/api/v1/report/plant/999999?type=day".to_string(),
        ] {
            let r = app.get(&uri, bob).await;
            r.expect_code(4);
            assert!(r.msg().ends_with("id"), "{uri}: {}", r.msg());
        }
        app.post(
            &format!("/api/v1/report/plant/{p}/subscription"),
            json!({"enabled": true}),
            bob,
        )
        .await
        .expect_code(4);
        let ann = Some(c.ann.as_str());
        for (q, field) in [
            ("type=month&date=2026-13", "date"),
            ("type=day&date=2026-01", "date"),
            ("type=year&date=26", "date"),
            ("type=week&date=2026", "type"),
        ] {
            let r = app.get(&format!("/api/v1/report/plant/{p}?{q}"), ann).await;
            r.expect_code(4);
            assert!(r.msg().ends_with(field), "{q}: {}", r.msg());
        }
        // Predictions of Bob's plant are Bob's.
        app.get(&format!("/api/v1/plant/{}/predicted", c.bob_plant), ann)
            .await
            .expect_code(700);
    }
}
