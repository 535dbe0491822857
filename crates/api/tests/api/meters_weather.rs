//! Meters and weather stations over HTTP on every backend: lists, status counts, realtime
//! values, day curves, month/year/total energy from the rollups, alias, delete, the master
//! meter, field types one by one, and tenancy (another tenant's device answers 600).

use crate::common;
use domain::DeviceFamily;
use domain::ids::GatewayId;

use chrono::{Datelike, Utc};
use chrono_tz::Europe::Madrid;
use common::{
    App,
    fixtures::{
        People, bound_gateway, earlier_today, energy, is_update_at, numeric_string, people, plant,
        sample,
    },
    spawn,
};
use serde_json::{Value, json};
use store::telemetry::{EnergyWrite, TelemetryBatch};

struct MeteredPlant {
    admin: String,
    ann: String,
    bob: String,
    plant: i64,
    meter: i64,
    second: i64,
}

/// Ann's plant with a grid meter (two reports today, import/export on three days), a second
/// meter without reports, and a weather station.
async fn metered_plant(app: &App) -> MeteredPlant {
    let People { admin, ann, bob } = people(app).await;
    let plant = plant(
        app,
        &ann,
        json!({"name": "Ann meter plant", "type": 1, "currency": "EUR",
            "timezone": "Europe/Madrid", "lon": -3.7, "lat": 40.4, "totalPower": 5}),
    )
    .await;
    let gw = bound_gateway(app, &admin, &ann, plant, "GW-MTR-01").await;
    let now = domain::time::now_ms();
    let s = &app.store;
    let add = |sn: &'static str, family: DeviceFamily, protocol: &'static str| {
        s.upsert_device(sn, GatewayId(gw), family, 0, protocol, "SIM", None, now)
    };
    let meter = add("MTR-0001", DeviceFamily::Meter, "meter-3ph")
        .await
        .expect("meter");
    let second = add("MTR-0002", DeviceFamily::Meter, "meter-3ph")
        .await
        .expect("meter 2");
    let station = add("WS-0001", DeviceFamily::WeatherStation, "weather-station")
        .await
        .expect("station");
    let meter_report = |power: f64| {
        json!({
            "voltage_l1": 230.1, "current_l1": 1.52, "power_l1": power / 3.0,
            "voltage_l2": 231.4, "current_l2": 1.5, "power_l2": power / 3.0,
            "voltage_l3": 229.8, "current_l3": 1.49, "power_l3": power / 3.0,
            "power": power, "power_factor": 0.98, "frequency": 50.01,
            "import_energy": 1234.56, "export_energy": 789.1, "total_energy": 2023.66,
        })
    };
    let station_report = json!({
        "irradiance": 812, "module_temperature": 41.3, "ambient_temperature": 24.6,
        "humidity": 55.5, "wind_speed": 3.2, "wind_direction": 225.4, "pressure": 1013.2,
        "today_irradiation": 4.21, "rainfall": 0,
    });
    let today = Utc::now().with_timezone(&Madrid).date_naive();
    let energy = |day: String, metric: &str, value: f64| EnergyWrite {
        rank: 1,
        ..energy(meter.0, plant, day, metric, value)
    };
    let year = today.year();
    let batch = TelemetryBatch {
        samples: vec![
            sample(meter.0, earlier_today(now, 300_000), &meter_report(900.0)),
            sample(meter.0, now, &meter_report(-1500.0)),
            sample(station.0, now, &station_report),
        ],
        energy: vec![
            energy(today.to_string(), "grid_import", 3.5),
            energy(today.to_string(), "grid_export", 1.25),
            energy(format!("{}-01-15", year - 1), "grid_import", 10.0),
            energy(format!("{}-06-01", year - 1), "grid_import", 20.0),
            energy(format!("{}-03-03", year - 2), "grid_import", 5.0),
        ],
    };
    s.write_telemetry_batch(&batch).await.expect("telemetry");
    s.apply_statuses(&[(meter, 1, true), (station, 2, true)], &[])
        .await
        .expect("statuses");
    MeteredPlant {
        admin,
        ann,
        bob,
        plant,
        meter: meter.0,
        second: second.0,
    }
}

fn records(series: &Value, label: &str) -> Vec<(String, String)> {
    series["infos"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["label"] == label))
        .and_then(|s| s["records"].as_array())
        .map(|r| {
            r.iter()
                .map(|r| {
                    (
                        r["time"].as_str().unwrap_or("?").to_string(),
                        r["value"].as_str().unwrap_or("not a string").to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn the_meter_list_realtime_and_counts_have_the_client_field_types() {
    for app in spawn().await {
        let c = metered_plant(&app).await;
        let list = app
            .get(
                "/api/v1/meters?page=1&limit=10&status=-1&sn=&plantId=&lan=en",
                Some(&c.ann),
            )
            .await;
        list.expect_code(0);
        let d = list.data();
        assert_eq!(
            (
                d["total"].as_i64(),
                d["pageSize"].as_i64(),
                d["pageNumber"].as_i64()
            ),
            (Some(2), Some(10), Some(1))
        );
        let m = d["infos"]
            .as_array()
            .and_then(|i| i.iter().find(|m| m["sn"] == "MTR-0001"))
            .expect("meter in list");
        assert_eq!(
            (m["id"].as_i64(), m["status"].as_i64()),
            (Some(c.meter), Some(1))
        );
        assert_eq!(m["power"].as_f64(), Some(-1500.0));
        assert_eq!(m["frequency"].as_f64(), Some(50.01));
        for key in ["voltage", "totalImport", "totalExport"] {
            numeric_string(m, key);
        }
        assert_eq!(m["master"], false);
        assert_eq!(m["plant"]["id"].as_i64(), Some(c.plant));
        assert!(is_update_at(&m["updateAt"]));
        let quiet = d["infos"]
            .as_array()
            .and_then(|i| i.iter().find(|m| m["sn"] == "MTR-0002"))
            .expect("second meter");
        assert!(quiet["power"].is_null() && quiet["totalImport"].is_null());
        for (filter, total) in [
            ("status=1", 1),
            ("status=0", 1),
            ("sn=0002", 1),
            ("plantId=999", 0),
        ] {
            let r = app
                .get(&format!("/api/v1/meters?{filter}"), Some(&c.ann))
                .await;
            assert_eq!(r.data()["total"].as_i64(), Some(total), "{filter}");
        }
        let count = app.get("/api/v1/meter/status/count", Some(&c.ann)).await;
        assert_eq!(
            count.data(),
            &json!({"total": 2, "normal": 1, "offline": 1, "warning": 0, "fault": 0, "upgrading": 0})
        );

        let rt = app
            .get("/api/v1/meter/MTR-0001/realtime?lan=en", Some(&c.ann))
            .await;
        rt.expect_code(0);
        let r = rt.data();
        let vip = r["vip"].as_array().expect("vip");
        assert_eq!(vip.len(), 3);
        assert_eq!(vip[0]["volt"], "230.1");
        assert_eq!(vip[0]["current"], "1.52");
        assert_eq!(vip[0]["power"].as_f64(), Some(-500.0));
        assert_eq!(
            (r["power"].as_f64(), r["pf"].as_f64(), r["fac"].as_f64()),
            (Some(-1500.0), Some(0.98), Some(50.01))
        );
        for key in ["totalImport", "totalExport", "etodayImport", "etodayExport"] {
            numeric_string(r, key);
        }
        assert_eq!(
            (r["etodayImport"].as_str(), r["etodayExport"].as_str()),
            (Some("3.5"), Some("1.25"))
        );
        assert_eq!(
            (
                r["sn"].as_str(),
                r["status"].as_i64(),
                r["master"].as_bool()
            ),
            (Some("MTR-0001"), Some(1), Some(false))
        );
        assert!(r["time"].is_string() && is_update_at(&r["updateAt"]));
        assert_eq!(r["editable"], true);
        assert_eq!(r["plant"]["id"].as_i64(), Some(c.plant));
        assert_eq!(
            (r["gsn"].as_str(), r["alias"].as_str()),
            (Some("GW-MTR-01"), Some(""))
        );
        let empty = app
            .get("/api/v1/meter/MTR-0002/realtime", Some(&c.ann))
            .await;
        assert_eq!(empty.data()["vip"], json!([]));
        assert_eq!(empty.data()["etodayImport"], "0.0");

        assert_eq!(
            app.get("/api/v1/meters", Some(&c.bob)).await.data()["total"],
            0
        );
        app.get("/api/v1/meters", None).await.expect_401();
    }
}

#[tokio::test]
async fn meter_series_come_from_samples_and_energy_from_the_day_rows() {
    for app in spawn().await {
        let c = metered_plant(&app).await;
        let today = Utc::now().with_timezone(&Madrid).date_naive();
        let year = today.year();
        let day = app
            .get("/api/v1/meter/MTR-0001/day?lan=en", Some(&c.ann))
            .await;
        day.expect_code(0);
        let power = records(day.data(), "power");
        assert_eq!(
            power.iter().map(|r| r.1.as_str()).collect::<Vec<_>>(),
            ["900.0", "-1500.0"]
        );
        assert_eq!(records(day.data(), "powerL2").len(), 2);
        assert_eq!(day.data()["infos"][0]["unit"], "W");

        let month = app
            .get(
                &format!(
                    "/api/v1/meter/{}/month?date={}",
                    c.meter,
                    &today.to_string()[..7]
                ),
                Some(&c.ann),
            )
            .await;
        month.expect_code(0);
        assert_eq!(
            records(month.data(), "import"),
            [(today.to_string(), "3.5".to_string())]
        );
        assert_eq!(
            records(month.data(), "export"),
            [(today.to_string(), "1.25".to_string())]
        );
        assert_eq!(month.data()["infos"][0]["unit"], "kWh");

        let last = year - 1;
        let yr = app
            .get(
                &format!("/api/v1/meter/MTR-0001/year?date={last}"),
                Some(&c.ann),
            )
            .await;
        yr.expect_code(0);
        assert_eq!(
            records(yr.data(), "import"),
            [
                (format!("{last}-01"), "10.0".to_string()),
                (format!("{last}-06"), "20.0".to_string())
            ]
        );
        assert_eq!(records(yr.data(), "export"), []);

        let total = app.get("/api/v1/meter/MTR-0001/total", Some(&c.ann)).await;
        total.expect_code(0);
        assert_eq!(
            records(total.data(), "import"),
            [
                ((year - 2).to_string(), "5.0".to_string()),
                (last.to_string(), "30.0".to_string()),
                (year.to_string(), "3.5".to_string())
            ]
        );
    }
}

#[tokio::test]
async fn alias_master_and_delete_need_a_plant_the_caller_may_edit() {
    for app in spawn().await {
        let c = metered_plant(&app).await;
        for path in [
            "/api/v1/meter/MTR-0001/realtime",
            "/api/v1/meter/MTR-0001/day",
            "/api/v1/meter/MTR-0001/month",
            "/api/v1/meter/MTR-0001/year",
            "/api/v1/meter/MTR-0001/total",
            "/api/v1/meter/WS-0001/realtime",
            "/api/v1/meter/NO-SUCH-MTR/realtime",
        ] {
            app.get(path, Some(&c.bob)).await.expect_code(600);
        }
        app.post(
            "/api/v1/meter/MTR-0001/alias",
            json!({"alias": "Mine"}),
            Some(&c.bob),
        )
        .await
        .expect_code(600);
        app.post(
            "/api/v1/meter/MTR-0001/alias",
            json!({"alias": "x".repeat(33)}),
            Some(&c.ann),
        )
        .await
        .expect_code(4);
        app.post(
            "/api/v1/meter/MTR-0001/alias",
            json!({"alias": "Grid meter"}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        let list = app.get("/api/v1/meters?sn=MTR-0001", Some(&c.ann)).await;
        assert_eq!(list.data()["infos"][0]["alias"], "Grid meter");
        assert_eq!(list.data()["infos"][0]["devName"], "Grid meter");

        app.post("/api/v1/meter/MTR-0001/master", json!({}), Some(&c.ann))
            .await
            .expect_code(0);
        app.post(
            &format!("/api/v1/meter/{}/master", c.second),
            json!({"master": true}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        let first = app
            .get("/api/v1/meter/MTR-0001/realtime", Some(&c.ann))
            .await;
        let second = app
            .get("/api/v1/meter/MTR-0002/realtime", Some(&c.ann))
            .await;
        assert_eq!(
            (
                first.data()["master"].as_bool(),
                second.data()["master"].as_bool()
            ),
            (Some(false), Some(true)),
            "one master per plant"
        );
        app.post(
            "/api/v1/meter/MTR-0002/master?master=false",
            json!({}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        let second = app
            .get("/api/v1/meter/MTR-0002/realtime", Some(&c.ann))
            .await;
        assert_eq!(second.data()["master"], false);

        // A visitor sees the meters but changes nothing.
        app.post(
            &format!("/api/v1/plant/{}/share", c.plant),
            json!({"account": "bob@example.com", "role": "visitor"}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        let seen = app
            .get("/api/v1/meter/MTR-0001/realtime", Some(&c.bob))
            .await;
        seen.expect_code(0);
        assert_eq!(seen.data()["editable"], false, "visitors get no buttons");
        for path in ["alias", "master", "delete"] {
            app.post(
                &format!("/api/v1/meter/MTR-0001/{path}"),
                json!({"alias": "Bob"}),
                Some(&c.bob),
            )
            .await
            .expect_code(2);
        }
        app.post("/api/v1/meter/MTR-0002/delete", json!({}), Some(&c.ann))
            .await
            .expect_code(0);
        app.get("/api/v1/meter/MTR-0002/realtime", Some(&c.ann))
            .await
            .expect_code(600);
        assert_eq!(
            app.get("/api/v1/meters", Some(&c.admin)).await.data()["total"],
            1
        );
    }
}

#[tokio::test]
async fn weather_stations_answer_under_both_names_with_their_field_types() {
    for app in spawn().await {
        let c = metered_plant(&app).await;
        for list_path in ["/api/v1/weatherStations", "/api/v1/meteorological"] {
            let list = app
                .get(
                    &format!("{list_path}?page=1&limit=10&status=-1&sn="),
                    Some(&c.ann),
                )
                .await;
            list.expect_code(0);
            let d = list.data();
            assert_eq!(d["total"], 1, "{list_path}");
            let w = &d["infos"][0];
            assert_eq!(
                (w["sn"].as_str(), w["status"].as_i64()),
                (Some("WS-0001"), Some(2))
            );
            for key in ["irradiance", "moduleTemp", "ambientTemp"] {
                numeric_string(w, key);
            }
            assert_eq!(w["ambientTemp"], "24.6");
            assert!(is_update_at(&w["updateAt"]));
        }
        for one in ["/api/v1/weatherStation", "/api/v1/meteorological"] {
            let count = app.get(&format!("{one}/status/count"), Some(&c.ann)).await;
            assert_eq!(
                count.data(),
                &json!({"total": 1, "normal": 0, "offline": 0, "warning": 1, "fault": 0, "upgrading": 0})
            );
            let rt = app
                .get(&format!("{one}/WS-0001/realtime"), Some(&c.ann))
                .await;
            rt.expect_code(0);
            let r = rt.data();
            for key in [
                "irradiance",
                "moduleTemp",
                "ambientTemp",
                "humidity",
                "windSpeed",
                "windDirection",
                "pressure",
                "todayIrradiation",
                "rainfall",
            ] {
                numeric_string(r, key);
            }
            assert_eq!(
                (r["irradiance"].as_str(), r["windDirection"].as_str()),
                (Some("812.0"), Some("225.0"))
            );
            assert_eq!(
                (r["sn"].as_str(), r["status"].as_i64()),
                (Some("WS-0001"), Some(2))
            );
            assert_eq!(r["editable"], true);
            assert_eq!(r["plant"]["name"], "Ann meter plant");
            assert!(r["time"].is_string() && is_update_at(&r["updateAt"]));
            let day = app.get(&format!("{one}/WS-0001/day"), Some(&c.ann)).await;
            day.expect_code(0);
            let labels: Vec<&str> = day.data()["infos"]
                .as_array()
                .map(|s| s.iter().filter_map(|s| s["label"].as_str()).collect())
                .unwrap_or_default();
            assert_eq!(
                labels,
                [
                    "irradiance",
                    "ambientTemp",
                    "moduleTemp",
                    "humidity",
                    "windSpeed"
                ]
            );
            assert_eq!(
                records(day.data(), "moduleTemp")
                    .first()
                    .map(|r| r.1.as_str()),
                Some("41.3")
            );
            app.get(&format!("{one}/WS-0001/realtime"), Some(&c.bob))
                .await
                .expect_code(600);
            app.get(&format!("{one}/MTR-0001/realtime"), Some(&c.ann))
                .await
                .expect_code(600);
        }
        let of_plant = app
            .get(
                &format!("/api/v1/plant/meteorological/{}/realtime", c.plant),
                Some(&c.ann),
            )
            .await;
        of_plant.expect_code(0);
        assert_eq!(of_plant.data()["sn"], "WS-0001");
        assert_eq!(of_plant.data()["ambientTemp"], "24.6");
        app.get(
            &format!("/api/v1/plant/meteorological/{}/realtime", c.plant),
            Some(&c.bob),
        )
        .await
        .expect_code(700);
        app.post(
            "/api/v1/meteorological/WS-0001/alias",
            json!({"alias": "Roof"}),
            Some(&c.bob),
        )
        .await
        .expect_code(600);
        app.post_form(
            "/api/v1/meteorological/WS-0001/alias",
            "alias=Roof",
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        let list = app.get("/api/v1/weatherStations", Some(&c.ann)).await;
        assert_eq!(list.data()["infos"][0]["alias"], "Roof");
        app.post(
            "/api/v1/weatherStation/WS-0001/delete",
            json!({}),
            Some(&c.bob),
        )
        .await
        .expect_code(600);
        app.post(
            "/api/v1/weatherStation/WS-0001/delete",
            json!({}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        let none = app
            .get(
                &format!("/api/v1/plant/meteorological/{}/realtime", c.plant),
                Some(&c.ann),
            )
            .await;
        none.expect_code(0);
        assert!(none.data().is_null(), "no station left");
        assert_eq!(
            app.get("/api/v1/meteorological", Some(&c.ann)).await.data()["total"],
            0
        );
        app.get("/api/v1/weatherStations", None).await.expect_401();
    }
}
