//! Device checks, weather and the generation download.

use super::*;

#[tokio::test]
async fn devices_weather_and_the_generation_download_read_the_plants_own_data() {
    for app in spawn().await {
        let c = monitored_plant(&app).await;
        let p = c.plant;
        let check = app
            .get(
                &format!("/api/v1/plant/{p}/check/device?stationId={p}"),
                Some(&c.ann),
            )
            .await;
        check.expect_code(0);
        assert_eq!(
            check.data(),
            &json!({"meter": true, "battery": true, "meteorological": true})
        );

        let devices = app
            .get(&format!("/api/v1/plant/{p}/devices"), Some(&c.ann))
            .await;
        devices.expect_code(0);
        let list = devices.data().as_array().expect("an array");
        let families: Vec<&str> = list.iter().filter_map(|d| d["family"].as_str()).collect();
        assert_eq!(
            families,
            ["inverter", "battery", "meter", "weather_station"]
        );
        for d in list {
            assert!(d["id"].is_i64() && d["type"].is_i64() && d["status"].is_i64());
            assert!(d["sn"].is_string() && d["alias"].is_string() && d["model"].is_string());
            assert!(is_update_at(&d["updateAt"]), "{d}");
        }
        assert_eq!(list[0]["sn"], "INV-MON-1");
        assert_eq!(
            list[0]["status"].as_i64(),
            Some(1),
            "reporting devices are normal"
        );
        assert_eq!(
            list[0]["powerOn"], true,
            "no switch reported, not in standby"
        );
        assert!(
            list[1..].iter().all(|d| d["powerOn"].is_null()),
            "only inverters"
        );
        // The inverter reports its switch off: the plant lists it off; then on again.
        let inverter = list[0]["id"].as_i64().expect("id");
        for (on, at) in [
            (false, domain::time::now_ms()),
            (true, domain::time::now_ms() + 1),
        ] {
            let report = json!({"power_on": on, "running_state": if on { 2 } else { 0 },
                "pv1_power": 0, "load_power": 2000, "grid_power": 2000});
            let batch = TelemetryBatch {
                samples: vec![sample(inverter, at, &report)],
                energy: Vec::new(),
            };
            app.store
                .write_telemetry_batch(&batch)
                .await
                .expect("telemetry");
            let again = app
                .get(&format!("/api/v1/plant/{p}/devices"), Some(&c.ann))
                .await;
            assert_eq!(again.data()[0]["powerOn"], on, "{}", app.backend);
        }

        let products = app
            .get(
                &format!("/api/v1/getWeatherStationProduct?stationId={p}"),
                Some(&c.ann),
            )
            .await;
        products.expect_code(0);
        let list = products.data().as_array().expect("an array");
        assert_eq!(list.len(), 1);
        assert!(list[0]["id"].is_i64() && list[0]["status"].is_i64());
        assert!(list[0]["productName"].is_string() && list[0]["icon"].is_string());

        let info = app
            .get(
                &format!("/api/v1/getWeatherStationInfo?stationId={p}"),
                Some(&c.ann),
            )
            .await;
        info.expect_code(0);
        assert_eq!(info.data()["ambientTemp"], "21.0");
        assert_eq!(info.data()["sn"], "WS-MON-1");
        assert!(is_update_at(&info.data()["updateAt"]));

        let w = app
            .get(
                &format!("/api/v1/weather?lan=en&date={}&lonLat={LAT},{LON}", c.today),
                Some(&c.ann),
            )
            .await;
        w.expect_code(0);
        let cw = &w.data()["currWea"];
        for key in [
            "desc",
            "currTemp",
            "windSpeed",
            "windDirection",
            "sunrise",
            "sunset",
            "iconUrl",
            "tempMinC",
            "tempMaxC",
        ] {
            let v = cw
                .get(key)
                .unwrap_or_else(|| panic!("currWea.{key} present"));
            assert!(v.is_string() || v.is_null(), "currWea.{key}: {v}");
        }
        assert_eq!(cw["currTemp"], "21.0", "[{}] {cw}", app.backend);
        assert_eq!(cw["tempMinC"], "18.5");
        assert_eq!(cw["tempMaxC"], "21.0");
        assert_eq!(cw["windSpeed"], "3.2");
        // Whole degrees as text, as the original API sends them: clients parse it with `int()`.
        assert_eq!(cw["windDirection"], "225");
        assert!(is_hhmm(&cw["sunrise"]) && is_hhmm(&cw["sunset"]), "{cw}");
        assert!(cw["sunrise"].as_str() < cw["sunset"].as_str());
        assert_eq!(w.data()["plantId"].as_i64(), Some(p));

        // Somewhere Ann has no plant: the sun is known, the weather is not.
        let far = app
            .get("/api/v1/weather?lan=en&lonLat=40.4,-3.7", Some(&c.ann))
            .await;
        far.expect_code(0);
        assert!(is_hhmm(&far.data()["currWea"]["sunrise"]));
        assert!(far.data()["currWea"]["currTemp"].is_null());

        let yesterday = c.today - Duration::days(1);
        let file = app
            .get(
                &format!(
                    "/api/v1/plant/generation/download?id={p}&startDate={yesterday}&endDate={}",
                    c.today
                ),
                Some(&c.ann),
            )
            .await;
        assert_eq!(file.status, 200);
        assert_eq!(
            file.headers["content-type"],
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        );
        assert!(
            file.headers["content-disposition"]
                .to_str()
                .is_ok_and(|d| d.starts_with("attachment"))
        );
        let mut book = Xlsx::new(Cursor::new(file.body.to_vec())).expect("an xlsx file");
        let sheet = book
            .worksheet_range_at(0)
            .expect("a sheet")
            .expect("readable sheet");
        let rows: Vec<Vec<XlsData>> = sheet.rows().map(|r| r.to_vec()).collect();
        assert_eq!(rows.len(), 3, "a header and two days");
        assert_eq!(rows[0][0], XlsData::String("Date".into()));
        assert_eq!(rows[2][0], XlsData::String(c.today.to_string()));
        assert_eq!(rows[1][1], XlsData::Float(12.5));
        assert_eq!(rows[2][1], XlsData::Float(10.0));
        assert_eq!(rows[2][8], XlsData::Float(2.0), "income of the day");

        app.get(
            &format!("/api/v1/plant/generation/download?id={p}&startDate=2026-13-01"),
            Some(&c.ann),
        )
        .await
        .expect_code(4);
        app.get(
            &format!(
                "/api/v1/plant/generation/download?id={p}&startDate={}&endDate={yesterday}",
                c.today
            ),
            Some(&c.ann),
        )
        .await
        .expect_code(4);
    }
}
