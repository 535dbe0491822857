//! Plant reports, predicted generation and the monthly report e-mail over HTTP on every
//! backend: the report's figures equal the plant energy endpoints', the workbook carries the
//! same numbers, another tenant's plant answers 4 `id`, the predicted import checks row by
//! row, the charts gain a `predicted` series, and the monthly job queues one mail per month.

use crate::common;
use domain::DeviceFamily;
use domain::ids::{GatewayId, PlantId};

use std::io::Cursor;

use calamine::{Data as XlsData, Reader, Xlsx};
use chrono::{Datelike, Duration, NaiveDate, NaiveTime, TimeZone, Utc};
use chrono_tz::Europe::London;
use common::{
    App,
    fixtures::{People, bound_gateway, energy, people, plant, sample},
    spawn,
};
use serde_json::{Value, json};
use store::telemetry::{EnergyWrite, TelemetryBatch};

struct ReportedPlant {
    ann: String,
    bob: String,
    plant: i64,
    bob_plant: i64,
    today: NaiveDate,
}

/// Ann's storage plant (0.20 GBP/kWh) with a hybrid inverter: energy on every day of this
/// month so far and of last month, PV readings through today, one fault today. Bob has a
/// plant of his own.
async fn reported_plant(app: &App) -> ReportedPlant {
    let People { admin, ann, bob } = people(app).await;
    let plant = plant(
        app,
        &ann,
        json!({"name": "Ann report plant", "type": 2, "currency": "GBP",
            "timezone": "Europe/London", "lon": -0.7, "lat": 51.3, "totalPower": 8,
            "charges": [{"type": 1, "price": 0.2}]}),
    )
    .await;
    let bob_plant = common::fixtures::plant(
        app,
        &bob,
        json!({"name": "Bob plant", "type": 1, "currency": "GBP", "timezone": "Europe/London", "lon": 0, "lat": 51, "totalPower": 3}),
    )
    .await;
    let gw = bound_gateway(app, &admin, &ann, plant, "GW-REP-01").await;
    let now = domain::time::now_ms();
    let s = &app.store;
    let inverter = s
        .upsert_device(
            "INV-REP-1",
            GatewayId(gw),
            DeviceFamily::Inverter,
            2,
            "deye-hybrid-1ph",
            "SIM",
            None,
            now,
        )
        .await
        .expect("inverter");
    let today = Utc::now().with_timezone(&London).date_naive();
    let mut writes: Vec<EnergyWrite> = Vec::new();
    let first = (today.with_day(1).expect("day 1") - Duration::days(1))
        .with_day(1)
        .expect("day 1");
    let mut d = first;
    let mut n = 0.0;
    while d <= today {
        n += 1.0;
        for (metric, kwh) in [
            ("pv", 10.0 + n / 4.0),
            ("load", 8.0 + n / 10.0),
            ("grid_import", 1.25),
            ("grid_export", 2.5),
            ("charge", 3.0),
            ("discharge", 2.0),
        ] {
            writes.push(energy(inverter.0, plant, d, metric, kwh));
        }
        // Half a kWh of the charge came from the grid (ingest's interval sums).
        writes.push(EnergyWrite {
            kind: store::telemetry::CounterKind::Sum,
            ..energy(inverter.0, plant, d, "grid_charge", 0.5)
        });
        d += Duration::days(1);
    }
    let midnight = London
        .from_local_datetime(&today.and_time(NaiveTime::MIN))
        .earliest()
        .map_or(0, |t| t.timestamp_millis());
    // A reading every 5 minutes from midnight to now: PV peaks at 2400 W mid-way.
    let steps = ((now - midnight) / 300_000).max(1);
    let samples = (0..steps)
        .map(|i| {
            let pv = 600.0 + 1800.0 * (1.0 - ((i as f64 / steps as f64) - 0.5).abs() * 2.0);
            let report = json!({"pv1_power": pv, "load_power": 500, "grid_power": 100,
                "battery_power": -200, "battery_soc": 60});
            sample(inverter.0, midnight + i * 300_000 + 1000, &report)
        })
        .collect();
    s.write_telemetry_batch(&TelemetryBatch {
        samples,
        energy: writes,
    })
    .await
    .expect("telemetry");
    s.open_event(
        inverter,
        Some(PlantId(plant)),
        "F01",
        "fault",
        (midnight + 60_000).min(now),
    )
    .await
    .expect("event");
    ReportedPlant {
        ann,
        bob,
        plant,
        bob_plant,
        today,
    }
}

/// `label`'s records of an energy answer as (time, kWh).
fn records(answer: &Value, label: &str) -> Vec<(String, f64)> {
    answer["infos"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|s| s["label"] == label)
        .flat_map(|s| s["records"].as_array().cloned().unwrap_or_default())
        .map(|r| {
            let v = r["value"]
                .as_str()
                .and_then(|v| v.parse().ok())
                .unwrap_or(f64::NAN);
            (r["time"].as_str().unwrap_or_default().to_string(), v)
        })
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.011
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or(f64::NAN)
}

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
        assert_eq!(
            cell("Performance ratio (%)"),
            Some(XlsData::Float(num(
                &rep["figures"]["performanceRatio"]["value"]
            )))
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
        for (k, key) in [
            (8, "specificYield"),
            (10, "performanceRatio"),
            (15, "co2Avoided"),
        ] {
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

#[tokio::test]
async fn the_monthly_job_queues_one_mail_per_month_for_each_subscriber() {
    for app in spawn().await {
        let c = reported_plant(&app).await;
        let (p, ann) = (c.plant, Some(c.ann.as_str()));
        let sub = format!("/api/v1/report/plant/{p}/subscription");
        let off = app.get(&sub, ann).await;
        assert_eq!(
            off.data(),
            &json!({"enabled": false, "email": "ann@example.com", "lastSent": null})
        );
        app.post(&sub, json!({}), ann).await.expect_code(4);
        app.post(&format!("{sub}?lan=es"), json!({"enabled": true}), ann)
            .await
            .expect_code(0);
        assert_eq!(app.get(&sub, ann).await.data()["enabled"], true);

        // This month: nothing is due yet (the subscription began in it).
        let state = &app.state;
        assert_eq!(
            jobs::monthly_reports::send_due(&state.store, &Default::default(), Utc::now())
                .await
                .expect("job"),
            0
        );
        // On the 1st of next month at 00:30 in London, this month's report goes out once.
        let next = (c.today.with_day(1).expect("1st") + Duration::days(32))
            .with_day(1)
            .expect("1st");
        let at = |d: NaiveDate| {
            London
                .from_local_datetime(&d.and_hms_opt(0, 30, 0).expect("time"))
                .earliest()
                .expect("local")
                .with_timezone(&Utc)
        };
        assert_eq!(
            jobs::monthly_reports::send_due(&state.store, &Default::default(), at(next))
                .await
                .expect("job"),
            1
        );
        assert_eq!(
            jobs::monthly_reports::send_due(
                &state.store,
                &Default::default(),
                at(next) + Duration::hours(1)
            )
            .await
            .expect("job"),
            0
        );
        let month = c.today.format("%Y-%m").to_string();
        let mails = app
            .store
            .outbox(Some("ann@example.com"), 10)
            .await
            .expect("outbox");
        assert_eq!(mails.len(), 1);
        assert!(
            mails[0].subject.contains("Informe mensual") && mails[0].subject.contains(&month),
            "{}",
            mails[0].subject
        );
        assert_eq!(app.get(&sub, ann).await.data()["lastSent"], month);

        // A month later, the next one; after unsubscribing, none.
        let after = (next + Duration::days(32)).with_day(1).expect("1st");
        assert_eq!(
            jobs::monthly_reports::send_due(&state.store, &Default::default(), at(after))
                .await
                .expect("job"),
            1
        );
        app.post(&sub, json!({"enabled": false}), ann)
            .await
            .expect_code(0);
        let later = (after + Duration::days(32)).with_day(1).expect("1st");
        assert_eq!(
            jobs::monthly_reports::send_due(&state.store, &Default::default(), at(later))
                .await
                .expect("job"),
            0
        );
        assert_eq!(
            app.store
                .outbox(Some("ann@example.com"), 10)
                .await
                .expect("outbox")
                .len(),
            2
        );
    }
}
