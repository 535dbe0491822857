//! Plant monitoring over HTTP on every backend: the live flow (plant and inverter), realtime
//! figures and income, power curves and energy bars that agree across day, month, year and
//! total, device checks, weather, the generation download, the plant list and detail figures,
//! field types one by one, and tenancy (another tenant's plant answers 700 like a missing one).

use crate::common;

use std::io::Cursor;

use calamine::{Data as XlsData, Reader, Xlsx};
use chrono::{Datelike, Duration, NaiveDate, NaiveTime, TimeZone, Utc};
use chrono_tz::Europe::London;
use common::{
    App,
    fixtures::{People, bound_gateway, energy, is_update_at, people, plant, sample},
    spawn,
};
use domain::user::BuiltinRole;
use serde_json::{Value, json};
use store::telemetry::{EnergyWrite, TelemetryBatch};

struct Cast {
    ann: String,
    bob: String,
    plant: i64,
    today: NaiveDate,
    /// PV energy written per day.
    pv_days: Vec<(NaiveDate, f64)>,
}

const LAT: f64 = 51.32;
const LON: f64 = -0.72;

/// Ann's storage plant (8 kWp, 0.20 GBP/kWh) with a hybrid inverter, a grid meter, a BMS and a
/// weather station, each with fresh reports, and PV energy on four days.
async fn cast(app: &App) -> Cast {
    let People { admin, ann, bob } = people(app).await;
    let plant = plant(
        app,
        &ann,
        json!({"name": "Ann storage plant", "type": 2, "currency": "GBP",
            "timezone": "Europe/London", "lon": LON, "lat": LAT, "totalPower": 8,
            "charges": [{"type": 1, "price": 0.2}]}),
    )
    .await;
    let gw = bound_gateway(app, &admin, &ann, plant, "GW-MON-01").await;
    let now = domain::time::now_ms();
    let s = &app.store;
    let add = |sn: &'static str, family: &'static str, code: i64, protocol: &'static str| {
        s.upsert_device(sn, gw, family, code, protocol, "SIM", None, now)
    };
    let inverter = add("INV-MON-1", "inverter", 2, "deye-hybrid-1ph")
        .await
        .expect("inverter");
    let meter = add("MTR-MON-1", "meter", 0, "meter-3ph")
        .await
        .expect("meter");
    let bms = add("BMS-MON-1", "battery", 0, "bms-lv-stack")
        .await
        .expect("bms");
    let station = add("WS-MON-1", "weather_station", 0, "weather-station")
        .await
        .expect("station");
    let inverter_report = json!({
        "pv1_power": 3000, "pv2_power": 1000, "battery_power": -1500, "grid_ct_power": -500,
        "grid_power": -500, "load_power": 2000, "battery_soc": 55, "gen_power": 0,
    });
    let today = Utc::now().with_timezone(&London).date_naive();
    let pv_days = vec![
        (today, 10.0),
        (today - Duration::days(1), 12.5),
        (today - Duration::days(40), 20.0),
        (today - Duration::days(400), 30.0),
    ];
    let energy =
        |day: NaiveDate, metric: &str, value: f64| energy(inverter, plant, day, metric, value);
    let mut writes: Vec<EnergyWrite> = pv_days
        .iter()
        .map(|(d, kwh)| energy(*d, "pv", *kwh))
        .collect();
    writes.extend([
        energy(today, "load", 8.0),
        energy(today, "charge", 3.0),
        energy(today, "grid_export", 1.5),
        energy(today, "grid_import", 0.5),
    ]);
    // `ago` ms before now, but never before the plant's midnight: just after it, the readings
    // would fall on yesterday and today's minimum and curves would lose them.
    let midnight = London
        .from_local_datetime(&today.and_time(NaiveTime::MIN))
        .earliest()
        .map_or(0, |t| t.timestamp_millis());
    let at = |ago: i64| (now - ago).max(midnight + 600 - ago / 1000);
    let batch = TelemetryBatch {
        samples: vec![
            sample(inverter, at(120_000), &inverter_report),
            sample(inverter, at(60_000), &inverter_report),
            sample(meter, at(60_000), &json!({"power": -400})),
            sample(bms, at(60_000), &json!({"power": -1500, "soc": 56})),
            sample(
                station,
                at(600_000),
                &json!({"ambient_temperature": 18.5, "irradiance": 600}),
            ),
            sample(
                station,
                at(60_000),
                &json!({"ambient_temperature": 21, "wind_speed": 3.2, "wind_direction": 225,
                    "irradiance": 650, "rainfall": 0, "humidity": 55.5}),
            ),
        ],
        energy: writes,
    };
    s.write_telemetry_batch(&batch).await.expect("telemetry");
    Cast {
        ann,
        bob,
        plant,
        today,
        pv_days,
    }
}

fn is_local_time(v: &Value) -> bool {
    v.as_str()
        .is_some_and(|s| chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").is_ok())
}

fn is_hhmm(v: &Value) -> bool {
    v.as_str()
        .is_some_and(|s| s.len() == 5 && chrono::NaiveTime::parse_from_str(s, "%H:%M").is_ok())
}

/// The records of one series, checking the record shape on the way.
#[track_caller]
fn records(answer: &Value, label: &str) -> Vec<(String, f64)> {
    let series = answer["infos"]
        .as_array()
        .expect("infos array")
        .iter()
        .find(|s| s["label"] == label)
        .unwrap_or_else(|| panic!("no series {label} in {answer}"));
    for key in ["unit", "label", "id", "groupCode", "name", "records"] {
        assert!(series.get(key).is_some(), "series key {key}");
    }
    assert!(series["unit"].is_string());
    series["records"]
        .as_array()
        .expect("records")
        .iter()
        .map(|r| {
            assert!(r.get("updateTime").is_some(), "updateTime present");
            let value = r["value"].as_str().expect("value is a string");
            (
                r["time"].as_str().expect("time is a string").to_string(),
                value.parse::<f64>().expect("value parses"),
            )
        })
        .collect()
}

fn labels(answer: &Value) -> Vec<String> {
    answer["infos"]
        .as_array()
        .expect("infos")
        .iter()
        .filter_map(|s| s["label"].as_str().map(String::from))
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.011
}

const FLOW_NUMBERS: [&str; 13] = [
    "pvPower",
    "battPower",
    "gridOrMeterPower",
    "loadOrEpsPower",
    "soc",
    "genPower",
    "minPower",
    "battPower2",
    "smartLoadPower",
    "upsLoadPower",
    "homeLoadPower",
    "chargePilePower",
    "custCode",
];
const FLOW_FLAGS: [&str; 23] = [
    "toBat",
    "toGrid",
    "pvTo",
    "toLoad",
    "batTo",
    "gridTo",
    "genTo",
    "minTo",
    "existsGen",
    "existsMin",
    "genOn",
    "microOn",
    "existsMeter",
    "existsGrid",
    "bmsCommFaultFlag",
    "existThinkPower",
    "toSmartLoad",
    "toUpsLoad",
    "toHomeLoad",
    "toChargePile",
    "existsThreeLoad",
    "existsSmartLoad",
    "existsChargePile",
];

#[track_caller]
fn check_flow_types(f: &Value) {
    for key in FLOW_NUMBERS {
        assert!(f[key].is_number(), "{key} is a number: {}", f[key]);
    }
    for key in FLOW_FLAGS {
        assert!(f[key].is_boolean(), "{key} is a boolean: {}", f[key]);
    }
    assert!(f["meterCode"].is_number());
    assert!(f["protocolIdentifier"].is_string());
    assert!(f.get("pv").is_some_and(Value::is_null), "pv is null");
    assert!(f.get("time").is_some(), "time present");
}

#[tokio::test]
async fn the_live_flow_has_every_strict_field_with_its_direction() {
    for app in spawn().await {
        let c = cast(&app).await;
        let r = app
            .get(
                &format!("/api/v1/plant/energy/{}/flow?date=&page&limit=1", c.plant),
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        let f = r.data();
        check_flow_types(f);
        assert_eq!(f["pvPower"].as_f64(), Some(4000.0), "[{}]", app.backend);
        assert_eq!(f["battPower"].as_f64(), Some(1500.0));
        assert_eq!(
            f["gridOrMeterPower"].as_f64(),
            Some(400.0),
            "the meter wins"
        );
        assert_eq!(f["loadOrEpsPower"].as_f64(), Some(2000.0));
        assert_eq!(f["soc"].as_f64(), Some(55.0));
        for (key, expected) in [
            ("toBat", true),
            ("batTo", false),
            ("toGrid", true),
            ("gridTo", false),
            ("pvTo", true),
            ("toLoad", true),
            ("existsMeter", true),
            ("existsGrid", true),
            ("existsBattery", true),
            ("existsGen", false),
        ] {
            assert_eq!(f[key].as_bool(), Some(expected), "{key}");
        }
        assert!(is_local_time(&f["time"]), "{}", f["time"]);

        let inv = app
            .get("/api/v1/inverter/INV-MON-1/flow", Some(&c.ann))
            .await;
        inv.expect_code(0);
        let i = inv.data();
        check_flow_types(i);
        assert_eq!(i["gridOrMeterPower"].as_f64(), Some(500.0), "its own CT");
        assert_eq!(i["existsMeter"].as_bool(), Some(false));
        assert_eq!(i["pvPower"].as_f64(), Some(4000.0));
        assert_eq!(i["custCode"].as_i64(), Some(2));
        assert_eq!(i["protocolIdentifier"], "deye-hybrid-1ph");
        app.get("/api/v1/inverter/MTR-MON-1/flow", Some(&c.ann))
            .await
            .expect_code(600);
    }
}

#[tokio::test]
async fn realtime_income_and_energy_agree_across_day_month_year_and_total() {
    for app in spawn().await {
        let c = cast(&app).await;
        let in_month: f64 = c
            .pv_days
            .iter()
            .filter(|(d, _)| d.year() == c.today.year() && d.month() == c.today.month())
            .map(|(_, k)| k)
            .sum();
        let in_year: f64 = c
            .pv_days
            .iter()
            .filter(|(d, _)| d.year() == c.today.year())
            .map(|(_, k)| k)
            .sum();
        let total: f64 = c.pv_days.iter().map(|(_, k)| k).sum();

        let r = app
            .get(
                &format!("/api/v1/plant/{}/realtime?id={}", c.plant, c.plant),
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        let rt = r.data();
        for key in [
            "pac",
            "etoday",
            "emonth",
            "eyear",
            "etotal",
            "income",
            "efficiency",
            "totalPower",
        ] {
            assert!(rt[key].is_number(), "realtime.{key}: {}", rt[key]);
        }
        assert!(is_update_at(&rt["updateAt"]), "{}", rt["updateAt"]);
        assert!(rt["currency"]["id"].is_number());
        assert_eq!(rt["currency"]["code"], "GBP");
        assert_eq!(rt["currency"]["text"], "£");
        assert_eq!(rt["pac"].as_f64(), Some(4000.0), "[{}]", app.backend);
        assert_eq!(rt["etoday"].as_f64(), Some(10.0));
        assert!(close(rt["emonth"].as_f64().unwrap_or(-1.0), in_month));
        assert!(close(rt["eyear"].as_f64().unwrap_or(-1.0), in_year));
        assert!(close(rt["etotal"].as_f64().unwrap_or(-1.0), total));
        assert_eq!(rt["income"].as_f64(), Some(2.0), "10 kWh at 0.20");
        assert_eq!(rt["efficiency"].as_f64(), Some(0.5), "4 kW of 8 kWp");
        assert_eq!(rt["totalPower"].as_f64(), Some(8.0));

        let uses = app
            .get(
                &format!("/api/v1/plant/energy/{}/generation/use", c.plant),
                Some(&c.ann),
            )
            .await;
        uses.expect_code(0);
        let u = uses.data();
        assert_eq!(
            (
                u["load"].as_f64(),
                u["pv"].as_f64(),
                u["batteryCharge"].as_f64(),
                u["gridSell"].as_f64()
            ),
            (Some(8.0), Some(10.0), Some(3.0), Some(1.5))
        );

        let get = |path: String| {
            let app = &app;
            let token = c.ann.clone();
            async move {
                let r = app.get(&path, Some(&token)).await;
                r.expect_code(0);
                r.json["data"].clone()
            }
        };
        let p = c.plant;
        let month = get(format!(
            "/api/v1/plant/energy/{p}/month?lan=en&date={}&id={p}",
            c.today.format("%Y-%m")
        ))
        .await;
        let year = get(format!(
            "/api/v1/plant/energy/{p}/year?lan=en&date={}",
            c.today.year()
        ))
        .await;
        let all = get(format!("/api/v1/plant/energy/{p}/total?lan=en")).await;
        let sum = |v: &Value| records(v, "pv").iter().map(|(_, k)| k).sum::<f64>();
        assert!(close(sum(&month), in_month), "month bars {month}");
        assert!(close(sum(&year), in_year), "year bars {year}");
        assert!(close(sum(&all), total), "total bars {all}");
        let today_bar = records(&month, "pv")
            .into_iter()
            .find(|(t, _)| *t == c.today.to_string())
            .map(|(_, k)| k);
        assert_eq!(today_bar, Some(10.0), "the day's bar is the day's energy");
        assert_eq!(records(&month, "load").len(), 1);
        assert_eq!(
            labels(&month),
            [
                "pv",
                "load",
                "grid_import",
                "grid_export",
                "charge",
                "discharge",
                "generator"
            ]
        );
        let this_month = format!("{}", c.today.format("%Y-%m"));
        assert!(
            records(&year, "pv")
                .iter()
                .any(|(t, k)| *t == this_month && close(*k, in_month))
        );

        let day = get(format!(
            "/api/v1/plant/energy/{p}/day?lan=en&date={}&id={p}",
            c.today
        ))
        .await;
        assert_eq!(labels(&day), ["pv", "load", "grid", "battery", "soc"]);
        let pv = records(&day, "pv");
        assert!(
            !pv.is_empty() && pv.iter().all(|(_, w)| *w == 4000.0),
            "{day}"
        );
        assert!(pv.iter().all(|(t, _)| t.starts_with(&c.today.to_string())));
        assert!(records(&day, "grid").iter().all(|(_, w)| *w == -400.0));
        assert!(records(&day, "battery").iter().all(|(_, w)| *w == -1500.0));
        assert!(records(&day, "soc").iter().all(|(_, s)| *s == 55.0));

        let power_day = get(format!("/api/v1/plant/{p}/power/day?date={}", c.today)).await;
        assert_eq!(labels(&power_day), ["pv"]);
        let power_total = get(format!("/api/v1/plant/{p}/power/total")).await;
        assert_eq!(labels(&power_total), ["pv"]);
        assert!(close(sum(&power_total), total));
        app.get(&format!("/api/v1/plant/{p}/power/week"), Some(&c.ann))
            .await
            .expect_code(4);

        // The plant list and detail carry the same figures.
        let list = app
            .get("/api/v1/plants?page=1&limit=10&name=&status=", Some(&c.ann))
            .await;
        list.expect_code(0);
        let item = &list.data()["infos"][0];
        assert_eq!(item["pac"].as_f64(), Some(4000.0));
        assert_eq!(item["etoday"].as_f64(), Some(10.0));
        assert!(close(item["etotal"].as_f64().unwrap_or(-1.0), total));
        assert_eq!(item["efficiency"].as_f64(), Some(0.5));
        assert!(is_update_at(&item["updateAt"]));
        let detail = app
            .get(&format!("/api/v1/plant/{p}?lan=en&id={p}"), Some(&c.ann))
            .await;
        detail.expect_code(0);
        let d = &detail.data()["realtime"];
        for key in [
            "pac",
            "efficiency",
            "etoday",
            "emonth",
            "eyear",
            "etotal",
            "totalPower",
            "invest",
            "income",
        ] {
            assert!(d[key].is_number(), "detail realtime.{key}: {}", d[key]);
        }
        assert_eq!(d["currency"]["code"], "GBP");
        assert_eq!(d["pac"].as_f64(), Some(4000.0));
        assert_eq!(d["etoday"].as_f64(), Some(10.0));
        assert_eq!(d["income"].as_f64(), Some(2.0));
        assert!(is_update_at(&d["updateAt"]));
    }
}

#[tokio::test]
async fn devices_weather_and_the_generation_download_read_the_plants_own_data() {
    for app in spawn().await {
        let c = cast(&app).await;
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

#[tokio::test]
async fn a_grid_tied_plant_without_data_answers_zeros_and_no_battery() {
    for app in spawn().await {
        let (_, cy) = app
            .signed_in("cy@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let r = app
            .post(
                "/api/v1/plant",
                json!({"name": "Cy empty plant", "type": 1, "currency": "EUR",
                    "timezone": "Europe/Madrid", "lon": 2.0, "lat": 41.0, "totalPower": 0}),
                Some(&cy),
            )
            .await;
        r.expect_code(0);
        let p = r.data().as_i64().expect("id");
        let flow = app
            .get(&format!("/api/v1/plant/energy/{p}/flow"), Some(&cy))
            .await;
        flow.expect_code(0);
        let f = flow.data();
        check_flow_types(f);
        assert_eq!(f["pvPower"].as_f64(), Some(0.0));
        assert_eq!(f["existsBattery"].as_bool(), Some(false));
        assert!(f["time"].is_null());
        let rt = app
            .get(&format!("/api/v1/plant/{p}/realtime"), Some(&cy))
            .await;
        rt.expect_code(0);
        assert_eq!(rt.data()["etotal"].as_f64(), Some(0.0));
        assert_eq!(rt.data()["efficiency"].as_f64(), Some(0.0));
        assert_eq!(rt.data()["income"].as_f64(), Some(0.0));
        assert!(is_update_at(&rt.data()["updateAt"]));
        let check = app
            .get(&format!("/api/v1/plant/{p}/check/device"), Some(&cy))
            .await;
        assert_eq!(
            check.data(),
            &json!({"meter": false, "battery": false, "meteorological": false})
        );
        let info = app
            .get(
                &format!("/api/v1/getWeatherStationInfo?stationId={p}"),
                Some(&cy),
            )
            .await;
        info.expect_code(0);
        assert!(info.data().is_null());
        let products = app
            .get(
                &format!("/api/v1/getWeatherStationProduct?stationId={p}"),
                Some(&cy),
            )
            .await;
        assert_eq!(products.data(), &json!([]));
        let day = app
            .get(&format!("/api/v1/plant/energy/{p}/day"), Some(&cy))
            .await;
        day.expect_code(0);
        assert_eq!(labels(day.data()), ["pv", "load", "grid"]);
        let total = app
            .get(&format!("/api/v1/plant/energy/{p}/total"), Some(&cy))
            .await;
        assert!(records(total.data(), "pv").is_empty());
        let w = app
            .get(&format!("/api/v1/weather?stationId={p}"), Some(&cy))
            .await;
        w.expect_code(0);
        assert!(w.data()["currWea"]["desc"].is_null());
        assert!(is_hhmm(&w.data()["currWea"]["sunset"]));
    }
}

#[tokio::test]
async fn another_tenants_plant_answers_exactly_like_a_missing_one() {
    for app in spawn().await {
        let c = cast(&app).await;
        let p = c.plant;
        let paths = |id: i64| {
            vec![
                format!("/api/v1/plant/{id}/realtime"),
                format!("/api/v1/plant/{id}/power/day"),
                format!("/api/v1/plant/{id}/power/year"),
                format!("/api/v1/plant/energy/{id}/flow"),
                format!("/api/v1/plant/energy/{id}/generation/use"),
                format!("/api/v1/plant/energy/{id}/day"),
                format!("/api/v1/plant/energy/{id}/month"),
                format!("/api/v1/plant/energy/{id}/year"),
                format!("/api/v1/plant/energy/{id}/total"),
                format!("/api/v1/plant/{id}/check/device"),
                format!("/api/v1/plant/{id}/devices"),
                format!("/api/v1/getWeatherStationInfo?stationId={id}"),
                format!("/api/v1/getWeatherStationProduct?stationId={id}"),
                format!("/api/v1/weather?stationId={id}"),
                format!("/api/v1/plant/generation/download?id={id}"),
            ]
        };
        for (theirs, missing) in paths(p).iter().zip(paths(p + 1000)) {
            let a = app.get(theirs, Some(&c.bob)).await;
            a.expect_code(700);
            let b = app.get(&missing, Some(&c.bob)).await;
            b.expect_code(700);
            assert_eq!(a.json, b.json, "{theirs}");
            app.get(theirs, None).await.expect_401();
        }
        app.get("/api/v1/inverter/INV-MON-1/flow", Some(&c.bob))
            .await
            .expect_code(600);
        // Bob's weather at Ann's position knows nothing of her station.
        let w = app
            .get(&format!("/api/v1/weather?lonLat={LAT},{LON}"), Some(&c.bob))
            .await;
        w.expect_code(0);
        assert!(w.data()["currWea"]["currTemp"].is_null());
        assert!(w.data()["plantId"].is_null());
    }
}
