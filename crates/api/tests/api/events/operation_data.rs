//! The operation-data pages and downloads: events and dynamic data.

use super::*;
use domain::ids::DeviceId;

/// The rows of the first sheet of an xlsx answer, as text.
fn sheet_rows(r: &common::Resp) -> Vec<Vec<String>> {
    use calamine::{Reader, Xlsx};
    assert_eq!(r.status, 200, "{}", r.text());
    let content_type = r.headers["content-type"].to_str().unwrap_or_default();
    assert!(content_type.contains("spreadsheetml"), "{content_type}");
    let mut book = Xlsx::new(std::io::Cursor::new(r.body.to_vec())).expect("a valid xlsx");
    let name = book.sheet_names()[0].clone();
    let range = book.worksheet_range(&name).expect("first sheet");
    range
        .rows()
        .map(|row| row.iter().map(|c| c.to_string()).collect())
        .collect()
}

#[tokio::test]
async fn operation_data_pages_and_downloads_events_and_dynamic_data() {
    for app in spawn().await {
        let c = event_plants(&app).await;
        events(&app, &c).await;
        let r = app.get("/api/v1/workdata/event", Some(&c.ann)).await;
        r.expect_code(0);
        assert_eq!(r.data()["total"], 2, "inverter events only");
        let r = app
            .get("/api/v1/workdata/battery/event", Some(&c.ann))
            .await;
        assert_eq!(r.data()["total"], 1);

        let inv = app
            .get("/api/v1/workdata/event/download?lan=en", Some(&c.ann))
            .await;
        let rows = sheet_rows(&inv);
        assert_eq!(rows[0][0], "Occurred");
        assert_eq!(rows.len(), 3, "header and two events");
        assert!(rows[1..].iter().all(|r| r[3] == "INV-ANN01"));
        assert!(
            rows.iter()
                .any(|r| r[5] == "F01" && r[6] == "Fault" && r[7] == "Open")
        );
        let bat = app
            .get(
                "/api/v1/workdata/battery/event/download?lan=zh",
                Some(&c.ann),
            )
            .await;
        let rows = sheet_rows(&bat);
        assert_eq!(rows[0][0], "发生时间");
        assert_eq!(rows.len(), 2);
        // Bob downloads only his own (none of them battery events).
        let rows = sheet_rows(
            &app.get("/api/v1/workdata/event/download", Some(&c.bob))
                .await,
        );
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1][3], "INV-BOB01");

        // Dynamic data: two reports of Ann's inverter today.
        // Both within Madrid's today, also just after its midnight.
        let later = fixtures::earlier_today(domain::time::now_ms(), 300_000);
        let earlier = fixtures::earlier_today(later, 300_000);
        app.store
            .write_telemetry_batch(&store::telemetry::TelemetryBatch {
                samples: vec![
                    store::telemetry::SampleWrite {
                        device_id: DeviceId(c.ann_inv),
                        ts: earlier,
                        payload:
                            r#"{"pv1_power":1200.5,"battery_soc":55,"running_state":"normal"}"#
                                .into(),
                    },
                    store::telemetry::SampleWrite {
                        device_id: DeviceId(c.ann_inv),
                        ts: later,
                        payload: r#"{"pv1_power":1300,"battery_soc":56}"#.into(),
                    },
                ],
                energy: vec![],
            })
            .await
            .expect("telemetry");
        let today = chrono::Utc::now()
            .with_timezone(&chrono_tz::Europe::Madrid)
            .format("%Y-%m-%d")
            .to_string();
        let r = app
            .get(
                &format!("/api/v1/workdata/dynamic?sn=INV-ANN01&sdate={today}&edate={today}&column=pv1_power,battery_soc"),
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        let d = r.data();
        assert_eq!(d["total"], 2, "{d}");
        assert_eq!(d["columns"], json!(["pv1_power", "battery_soc"]));
        let newest = &d["infos"][0];
        assert_eq!(newest["pv1_power"], "1300.0");
        assert_eq!(newest["battery_soc"], "56.0");
        assert!(newest["time"].as_str().is_some_and(|s| s.len() == 19));
        // Every reported key when no column is named.
        let r = app
            .get(
                &format!("/api/v1/workdata/dynamic?sn=INV-ANN01&date={today}"),
                Some(&c.ann),
            )
            .await;
        assert_eq!(
            r.data()["columns"],
            json!(["battery_soc", "pv1_power", "running_state"])
        );
        assert!(r.data()["infos"][0]["running_state"].is_null());
        assert_eq!(r.data()["infos"][1]["running_state"], "normal");

        let file = app
            .get(
                &format!(
                    "/api/v1/workdata/dynamic/download?sn=INV-ANN01&sdate={today}&column=pv1_power"
                ),
                Some(&c.ann),
            )
            .await;
        let rows = sheet_rows(&file);
        assert!(rows[0][0].starts_with("Time"));
        assert_eq!(rows[0][1], "pv1_power");
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[1][1], "1200.5");

        // Bad input and other tenants.
        app.get("/api/v1/workdata/dynamic", Some(&c.ann))
            .await
            .expect_code(4);
        app.get(
            "/api/v1/workdata/dynamic?sn=INV-ANN01&sdate=2026-01-01&edate=2026-03-01",
            Some(&c.ann),
        )
        .await
        .expect_code(4);
        app.get("/api/v1/workdata/dynamic?sn=INV-ANN01", Some(&c.bob))
            .await
            .expect_code(600);
        app.get(
            "/api/v1/workdata/dynamic/download?sn=INV-ANN01",
            Some(&c.bob),
        )
        .await
        .expect_code(600);
    }
}
