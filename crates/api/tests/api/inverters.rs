//! Inverters over HTTP: the list and its client field types (docs/api-conventions.md, field by
//! field), one plant's list, counts, detail, every realtime port, day curves and the energy
//! bars from rollups, alias and delete rules, and tenancy (another tenant's inverter answers
//! 600 exactly like a missing one). Every test runs on SQLite and, when configured, PostgreSQL.

use crate::common;

use chrono::{Datelike, Duration, Utc};
use chrono_tz::Tz;
use common::{
    App,
    fixtures::{energy, is_update_at, plant, sample},
    spawn,
};
use domain::user::BuiltinRole;
use serde_json::{Value, json};
use store::telemetry::TelemetryBatch;

const TZ: &str = "Europe/Madrid";

struct Cast {
    ann: String,
    bob: String,
    ann_plant: i64,
    /// Single-phase LV hybrid (type 2) on Ann's plant.
    single: i64,
}

/// A storage plant of `token` in the test zone.
async fn storage_plant(app: &App, token: &str, name: &str) -> i64 {
    let body = json!({"name": name, "type": 2, "currency": "EUR", "timezone": TZ,
        "lon": -3.7, "lat": 40.4, "totalPower": 8});
    plant(app, token, body).await
}

fn now() -> i64 {
    domain::time::now_ms()
}

/// Today in the plant's zone, as `YYYY-MM-DD`.
fn today() -> chrono::NaiveDate {
    let tz: Tz = TZ.parse().expect("tz");
    Utc::now().with_timezone(&tz).date_naive()
}

fn single_phase_values() -> Value {
    json!({
        "pv1_voltage": 310.5, "pv1_current": 4.2, "pv1_power": 1304,
        "pv2_voltage": 298.0, "pv2_current": 3.1, "pv2_power": 924,
        "inverter_voltage": 230.8, "inverter_current": 0.3, "inverter_power": -50,
        "inverter_frequency": 50.01, "grid_voltage_l1": 231.2, "grid_current_l1": 2.0,
        "grid_power": 460, "grid_ct_power": 455, "grid_frequency": 49.98,
        "grid_connected": true, "load_power": 2100, "load_frequency": 50.0,
        "battery_soc": 67, "battery_power": -300, "battery_voltage": 52.1,
        "battery_current": -5.76, "battery_temperature": 24.5,
        "bms_charge_voltage": 56.4, "bms_discharge_voltage": 47.0,
        "bms_charge_current_limit": 100, "bms_discharge_current_limit": 100,
        "dc_temperature": 41.5, "inverter_temperature": 38.2, "running_state": 2,
        "mppt_count": 2, "phase_count": 1, "rated_power": 5000,
        "gen_power": 0, "gen_relay_closed": false,
    })
}

fn three_phase_values() -> Value {
    let mut v = json!({"running_state": 2, "pv1_power": 3000, "pv1_voltage": 600.0,
        "pv1_current": 5.0, "grid_power": 900, "grid_ct_power": 880,
        "load_power": 1500, "battery_power": 100, "battery_soc": 55, "battery_voltage": 52.0,
        "battery_current": 1.9});
    for l in 1..=3 {
        v[format!("grid_voltage_l{l}")] = json!(230.0 + l as f64);
        v[format!("grid_current_l{l}")] = json!(1.3);
        v[format!("grid_power_l{l}")] = json!(300);
        v[format!("grid_ct_power_l{l}")] = json!(290 + l);
        v[format!("inverter_voltage_l{l}")] = json!(230.0);
        v[format!("inverter_current_l{l}")] = json!(4.0);
        v[format!("inverter_power_l{l}")] = json!(920);
        v[format!("load_voltage_l{l}")] = json!(229.0);
        v[format!("load_power_l{l}")] = json!(500);
    }
    v
}

/// Ann (owner) with a plant, a gateway and two inverters reporting; Bob with his own.
async fn cast(app: &App) -> Cast {
    let (ann_id, ann) = app
        .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let (bob_id, bob) = app
        .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let ann_plant = storage_plant(app, &ann, "Ann storage plant").await;
    let bob_plant = storage_plant(app, &bob, "Bob storage plant").await;
    let s = &app.store;
    let gw = s
        .create_gateway("GW-ANN-0001", "KEY12345", "deye-hybrid-1ph", now())
        .await
        .expect("gateway");
    s.bind_gateway(gw, ann_plant, ann_id.0, None, now())
        .await
        .expect("bind");
    let bgw = s
        .create_gateway("GW-BOB-0001", "KEY12345", "deye-hybrid-1ph", now())
        .await
        .expect("gateway");
    s.bind_gateway(bgw, bob_plant, bob_id.0, None, now())
        .await
        .expect("bind");
    let single = s
        .upsert_device(
            "2306012345",
            gw,
            "inverter",
            2,
            "deye-hybrid-1ph",
            "SUN-5K-SG03LP1",
            None,
            now(),
        )
        .await
        .expect("device");
    let three = s
        .upsert_device(
            "2306099999",
            gw,
            "inverter",
            93,
            "deye-hybrid-3ph-lv",
            "SUN-12K-SG04LP3",
            None,
            now(),
        )
        .await
        .expect("device");
    let bobs = s
        .upsert_device(
            "BOB-INV-01",
            bgw,
            "inverter",
            2,
            "deye-hybrid-1ph",
            "",
            None,
            now(),
        )
        .await
        .expect("device");
    // Two reports today 5 minutes apart (the newest is the realtime one), energy today and on
    // two earlier days of earlier months.
    let t = now() - 60_000;
    let day = today();
    let older = day - Duration::days(40);
    let oldest = chrono::NaiveDate::from_ymd_opt(day.year() - 1, 6, 15).expect("date");
    let mut batch = TelemetryBatch::default();
    for (device, values) in [
        (single, single_phase_values()),
        (three, three_phase_values()),
        (bobs, single_phase_values()),
    ] {
        batch.samples.push(sample(device, t - 300_000, &values));
        batch.samples.push(sample(device, t, &values));
    }
    for (d, kwh) in [(day, 12.5), (older, 20.0), (oldest, 7.25)] {
        let d = d.to_string();
        batch.energy.push(energy(single, ann_plant, &d, "pv", kwh));
        batch
            .energy
            .push(energy(single, ann_plant, &d, "charge", 3.0));
        batch
            .energy
            .push(energy(single, ann_plant, &d, "discharge", 2.0));
        batch
            .energy
            .push(energy(single, ann_plant, &d, "grid_import", 1.5));
        batch
            .energy
            .push(energy(single, ann_plant, &d, "grid_export", 4.0));
        batch
            .energy
            .push(energy(single, ann_plant, &d, "load", 9.0));
    }
    s.write_telemetry_batch(&batch).await.expect("telemetry");
    Cast {
        ann,
        bob,
        ann_plant,
        single,
    }
}

fn is_num_text(v: &Value) -> bool {
    v.as_str().is_some_and(|s| s.parse::<f64>().is_ok())
}

fn keys_present(v: &Value, keys: &[&str], ctx: &str) {
    for k in keys {
        assert!(
            v.as_object().is_some_and(|o| o.contains_key(*k)),
            "{ctx}: key {k} missing in {v}"
        );
    }
}

fn find<'a>(infos: &'a Value, sn: &str) -> &'a Value {
    infos
        .as_array()
        .and_then(|a| a.iter().find(|i| i["sn"] == sn))
        .unwrap_or_else(|| panic!("{sn} not in {infos}"))
}

fn assert_item_types(i: &Value, ctx: &str) {
    assert!(i["sn"].is_string(), "{ctx}: sn");
    assert!(i["id"].is_i64(), "{ctx}: id");
    assert!(i["alias"].is_string(), "{ctx}: alias");
    assert!(i["gsn"].is_string(), "{ctx}: gsn");
    assert!(i["status"].is_i64(), "{ctx}: status");
    assert!(i["type"].is_i64(), "{ctx}: type");
    assert_eq!(i["commTypeName"], "RS485", "{ctx}");
    assert!(i["custCode"].is_i64(), "{ctx}: custCode");
    keys_present(
        &i["version"],
        &["masterVer", "softVer", "hardVer", "hmiVer", "bmsVer"],
        ctx,
    );
    assert!(i["model"].is_string(), "{ctx}: model");
    assert!(i["pac"].is_number(), "{ctx}: pac");
    assert!(i["etoday"].is_number(), "{ctx}: etoday");
    assert!(i["etotal"].is_number(), "{ctx}: etotal");
    assert!(
        is_update_at(&i["updateAt"]),
        "{ctx}: updateAt {}",
        i["updateAt"]
    );
    assert!(i["opened"].is_i64(), "{ctx}: opened");
    let p = &i["plant"];
    assert!(
        p["id"].is_i64() && p["name"].is_string() && p["type"].is_i64(),
        "{ctx}"
    );
    // sunsynk-python types it a string: an int fails its whole list.
    assert!(
        p["master"].is_string(),
        "{ctx}: plant.master {}",
        p["master"]
    );
    keys_present(p, &["installer", "email", "phone"], ctx);
    assert!(i["gatewayVO"]["gsn"].is_string(), "{ctx}: gatewayVO.gsn");
    assert!(i["gatewayVO"]["status"].is_i64(), "{ctx}: gatewayVO.status");
    assert!(i["sunsynkEquip"].is_boolean(), "{ctx}: sunsynkEquip");
    assert!(
        i["protocolIdentifier"].is_string(),
        "{ctx}: protocolIdentifier"
    );
    keys_present(i, &["equipMode", "equipType", "ratePower"], ctx);
    // An int or null for sunsynk-python; never the kind's text (that is `typeKey`).
    assert!(
        i["equipMode"].is_null() || i["equipMode"].is_i64(),
        "{ctx}: equipMode {}",
        i["equipMode"]
    );
}

#[tokio::test]
async fn the_list_has_the_client_field_types_filters_and_paging() {
    for app in spawn().await {
        let c = cast(&app).await;
        let r = app
            .get(
                "/api/v1/inverters?page=1&limit=10&total=0&status=-1&sn=&plantId=&type=-2&softVer=&hmiVer=&agentCompanyId=-1&gsn=",
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        let d = r.data();
        assert_eq!(d["total"], 2, "{}: only Ann's inverters", app.backend);
        assert_eq!(
            (d["pageSize"].as_i64(), d["pageNumber"].as_i64()),
            (Some(10), Some(1))
        );
        for i in d["infos"].as_array().expect("infos") {
            assert_item_types(i, app.backend);
        }
        let single = find(&d["infos"], "2306012345");
        assert_eq!(single["type"], 2);
        assert_eq!(single["status"], 1, "reporting makes it normal");
        assert_eq!(single["opened"], 1);
        assert_eq!(single["sunsynkEquip"], true);
        assert_eq!(single["protocolIdentifier"], "deye-hybrid-1ph");
        assert_eq!(single["pac"], 2228.0, "sum of the PV inputs");
        assert_eq!(single["etoday"], 12.5);
        assert_eq!(single["etotal"], 39.75, "all days from rollups");
        assert_eq!(single["ratePower"], 5000.0);
        assert_eq!(single["gsn"], "GW-ANN-0001");
        assert_eq!(single["plant"]["id"].as_i64(), Some(c.ann_plant));
        assert_eq!(single["plant"]["name"], "Ann storage plant");

        // Filters: type, SN part, gateway, status, and paging.
        let only = |q: &str| {
            let q = q.to_string();
            let app = &app;
            let ann = c.ann.clone();
            async move {
                let r = app.get(&format!("/api/v1/inverters?{q}"), Some(&ann)).await;
                r.expect_code(0);
                r.data().clone()
            }
        };
        assert_eq!(only("type=93").await["infos"][0]["sn"], "2306099999");
        assert_eq!(only("type=93").await["total"], 1);
        assert_eq!(only("sn=012345").await["total"], 1);
        assert_eq!(only("gsn=GW-ANN-0001").await["total"], 2);
        assert_eq!(only("gsn=GW-BOB-0001").await["total"], 0);
        assert_eq!(only("status=0").await["total"], 0);
        assert_eq!(only("status=1").await["total"], 2);
        let p = only("page=2&limit=1").await;
        assert_eq!(
            (p["total"].as_i64(), p["infos"].as_array().map(Vec::len)),
            (Some(2), Some(1))
        );
        assert_eq!(only(&format!("plantId={}", c.ann_plant)).await["total"], 2);
        assert_eq!(only("type=-1&lan&id=").await["total"], 2, "lenient query");
    }
}

#[tokio::test]
async fn a_plants_inverters_and_counts_follow_the_callers_plants() {
    for app in spawn().await {
        let c = cast(&app).await;
        let url = format!(
            "/api/v1/plant/{}/inverters?page=1&limit=10&status=-1&sn=&id={}&type=-2",
            c.ann_plant, c.ann_plant
        );
        let r = app.get(&url, Some(&c.ann)).await;
        r.expect_code(0);
        assert_eq!(r.data()["total"], 2);
        for i in r.data()["infos"].as_array().expect("infos") {
            assert_item_types(i, app.backend);
        }
        let one = app
            .get(
                &format!("/api/v1/plant/{}/inverters?limit=1&type=-1", c.ann_plant),
                Some(&c.ann),
            )
            .await;
        assert_eq!(one.data()["infos"].as_array().map(Vec::len), Some(1));
        app.get(&url, Some(&c.bob)).await.expect_code(700);

        let count = app.get("/api/v1/inverters/count", Some(&c.ann)).await;
        count.expect_code(0);
        let d = count.data();
        for k in [
            "total",
            "normal",
            "offline",
            "warning",
            "fault",
            "upgrading",
        ] {
            assert!(d[k].is_i64(), "{k}");
        }
        assert_eq!(
            (d["total"].as_i64(), d["normal"].as_i64()),
            (Some(2), Some(2))
        );
        let bobs = app.get("/api/v1/inverters/count", Some(&c.bob)).await;
        assert_eq!(bobs.data()["total"], 1);
    }
}

#[tokio::test]
async fn the_detail_is_the_list_item_with_readings_and_the_callers_keys() {
    for app in spawn().await {
        let c = cast(&app).await;
        let r = app.get("/api/v1/inverter/2306012345", Some(&c.ann)).await;
        r.expect_code(0);
        let d = r.data();
        assert_item_types(d, app.backend);
        assert_eq!(d["typeKey"], "single_phase_lv_hybrid");
        assert_eq!(d["hybrid"], true);
        assert_eq!(d["timezone"], TZ);
        assert_eq!(d["dcTemp"], 41.5, "°C as stored");
        assert_eq!(d["values"]["battery_soc"], 67);
        let keys: Vec<&str> = d["plantPermission"]
            .as_array()
            .expect("keys")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert!(keys.contains(&"inverter.alias") && keys.contains(&"station.edit"));
        app.get("/api/v1/inverter/NO-SUCH-SN", Some(&c.ann))
            .await
            .expect_code(600);
    }
}

#[tokio::test]
async fn realtime_input_and_output_have_the_strict_fields() {
    for app in spawn().await {
        let c = cast(&app).await;
        let r = app
            .get("/api/v1/inverter/2306012345/realtime/input", Some(&c.ann))
            .await;
        r.expect_code(0);
        let d = r.data();
        assert!(d["etoday"].is_number() && d["etotal"].is_number() && d["pac"].is_number());
        assert_eq!(d["mpptIV"], json!([]));
        let pv = d["pvIV"].as_array().expect("pvIV");
        assert_eq!(pv.len(), 2, "two inputs reported");
        for (n, i) in pv.iter().enumerate() {
            assert_eq!(i["pvNo"], n as i64 + 1);
            assert!(i["id"].is_i64());
            for k in ["vpv", "ipv", "ppv", "todayPv"] {
                assert!(is_num_text(&i[k]), "{k}: {}", i[k]);
            }
            assert_eq!(i["sn"], "2306012345");
            let time = i["time"].as_str().expect("time");
            assert!(chrono::NaiveDateTime::parse_from_str(time, "%Y-%m-%d %H:%M:%S").is_ok());
        }
        assert_eq!(pv[0]["vpv"], "310.5");
        assert_eq!(pv[0]["ppv"], "1304.0");
        // The inputs share the inverter's PV energy today by what each made (1304 W : 924 W
        // all day here), so they add up to its `etoday` however rarely it reports.
        let kwh = |i: &Value| -> f64 {
            i["todayPv"]
                .as_str()
                .and_then(|s| s.parse().ok())
                .expect("kWh")
        };
        let etoday = d["etoday"].as_f64().expect("etoday");
        assert!(etoday > 1.0, "{etoday}");
        assert!((kwh(&pv[0]) + kwh(&pv[1]) - etoday).abs() < 0.02);
        let share = kwh(&pv[0]) / (kwh(&pv[0]) + kwh(&pv[1]));
        assert!((share - 1304.0 / 2228.0).abs() < 0.01, "{share}");

        let iv = app
            .get("/api/v1/inverter/2306012345/pvIVRealtime", Some(&c.ann))
            .await;
        iv.expect_code(0);
        assert_eq!(iv.data()["pvIV"].as_array().map(Vec::len), Some(2));

        let out = app
            .get("/api/v1/inverter/2306012345/realtime/output", Some(&c.ann))
            .await;
        out.expect_code(0);
        let d = out.data();
        assert_eq!(
            d["vip"],
            json!([{"volt": "230.8", "current": "0.3", "power": -50.0}])
        );
        assert!(d["pInv"].is_number() && d["pac"].is_number());
        assert_eq!(d["fac"], 50.01);
        let three = app
            .get("/api/v1/inverter/2306099999/realtime/output", Some(&c.ann))
            .await;
        let vip = three.data()["vip"].as_array().expect("vip").clone();
        assert_eq!(vip.len(), 3, "one per phase");
        for v in &vip {
            assert!(v["volt"].is_string() && v["current"].is_string() && v["power"].is_number());
        }
    }
}

#[tokio::test]
async fn grid_load_battery_generator_eps_and_meter_realtime_have_their_fields() {
    for app in spawn().await {
        let c = cast(&app).await;
        let get = |port: &str, sn: &str| {
            let url = format!("/api/v1/inverter/{port}/{sn}/realtime?sn=&lan");
            let app = &app;
            let ann = c.ann.clone();
            async move {
                let r = app.get(&url, Some(&ann)).await;
                r.expect_code(0);
                r.data().clone()
            }
        };
        let grid = get("grid", "2306012345").await;
        keys_present(
            &grid,
            &[
                "vip",
                "pac",
                "qac",
                "fac",
                "pf",
                "status",
                "etodayFrom",
                "etodayTo",
                "etotalFrom",
                "etotalTo",
                "limiterPowerArr",
                "limiterTotalPower",
            ],
            "grid",
        );
        for k in ["etodayFrom", "etodayTo", "etotalFrom", "etotalTo"] {
            assert!(is_num_text(&grid[k]), "{k}: {}", grid[k]);
        }
        assert_eq!(grid["etodayFrom"], "1.5");
        assert_eq!(grid["etotalTo"], "12.0");
        assert_eq!(grid["pac"], 460.0);
        assert_eq!(grid["status"], 1);
        assert!(grid["limiterPowerArr"].is_array());
        let grid3 = get("grid", "2306099999").await;
        assert_eq!(grid3["vip"].as_array().map(Vec::len), Some(3));
        assert_eq!(grid3["limiterPowerArr"], json!([291.0, 292.0, 293.0]));

        let load = get("load", "2306012345").await;
        keys_present(
            &load,
            &[
                "totalUsed",
                "dailyUsed",
                "totalPower",
                "smartLoadStatus",
                "loadFac",
                "upsPowerL1",
                "upsPowerL2",
                "upsPowerL3",
                "upsPowerTotal",
            ],
            "load",
        );
        assert_eq!(
            (load["dailyUsed"].as_f64(), load["totalUsed"].as_f64()),
            (Some(9.0), Some(27.0))
        );
        assert_eq!(load["totalPower"], 2100.0);

        let bat = get("battery", "2306012345").await;
        let all = [
            "etodayChg",
            "etodayDischg",
            "emonthChg",
            "emonthDischg",
            "eyearChg",
            "eyearDischg",
            "etotalChg",
            "etotalDischg",
            "type",
            "power",
            "capacity",
            "correctCap",
            "current",
            "voltage",
            "temp",
            "soc",
            "chargeVolt",
            "dischargeVolt",
            "chargeCurrentLimit",
            "dischargeCurrentLimit",
            "maxChargeCurrentLimit",
            "maxDischargeCurrentLimit",
            "status",
            "batterySoc1",
            "batteryCurrent1",
            "batteryVolt1",
            "batteryPower1",
            "batteryTemp1",
            "batteryStatus2",
            "batterySoc2",
            "batteryCurrent2",
            "batteryVolt2",
            "batteryPower2",
            "batteryTemp2",
            "numberOfBatteries",
            "batt1Factory",
            "batt2Factory",
        ];
        keys_present(&bat, &all, "battery");
        assert!(bat["power"].is_number(), "power never null");
        assert!(is_num_text(&bat["current"]) && is_num_text(&bat["voltage"]));
        for k in ["etodayChg", "etotalChg", "etotalDischg", "temp", "soc"] {
            assert!(is_num_text(&bat[k]), "{k}: {}", bat[k]);
        }
        assert_eq!(bat["soc"], "67.0");
        assert_eq!(bat["etotalChg"], "9.0");
        assert_eq!(bat["status"], 1, "negative power charges");
        assert_eq!(bat["numberOfBatteries"], 1);
        // A reading without a battery still answers numbers for power, current and voltage.
        let bare = get("battery", "2306099999").await;
        assert!(bare["power"].is_number() && bare["current"].is_string());

        let eps = get("eps", "2306099999").await;
        assert_eq!(eps["vip"].as_array().map(Vec::len), Some(3));
        assert_eq!(eps["pac"], 1500.0);
        let meter = get("meter", "2306012345").await;
        assert_eq!(meter["pac"], 455.0);
        assert!(is_num_text(&meter["etodayFrom"]));

        let generator = app
            .get("/api/v1/inverter/gen/2306012345/realtime", Some(&c.ann))
            .await;
        generator.expect_code(0);
        keys_present(
            generator.data(),
            &["genTotal", "genDaily", "totalPower", "genFac", "vip"],
            "gen",
        );
        assert_eq!(generator.data()["totalPower"], 0.0);
    }
}

fn values_of(series: &Value) -> Vec<f64> {
    series["records"]
        .as_array()
        .expect("records")
        .iter()
        .map(|r| {
            r["value"]
                .as_str()
                .and_then(|s| s.parse().ok())
                .unwrap_or_else(|| panic!("value not a decimal string: {r}"))
        })
        .collect()
}

#[tokio::test]
async fn day_curves_and_energy_bars_agree_with_the_rollups() {
    for app in spawn().await {
        let c = cast(&app).await;
        let day = today();
        let r = app
            .get(
                &format!("/api/v1/inverter/2306012345/day?date={day}&lan=en"),
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        let infos = &r.data()["infos"];
        assert_eq!(infos[0]["label"], "pv_power");
        assert_eq!(infos[0]["unit"], "W");
        assert_eq!(values_of(&infos[0]), vec![2228.0, 2228.0]);
        keys_present(
            &infos[0],
            &["unit", "label", "id", "groupCode", "name", "records"],
            "series",
        );
        keys_present(
            &infos[0]["records"][0],
            &["time", "value", "updateTime"],
            "record",
        );

        let month = app
            .get(
                &format!(
                    "/api/v1/inverter/2306012345/month?date={}",
                    &day.to_string()[..7]
                ),
                Some(&c.ann),
            )
            .await;
        assert_eq!(month.data()["infos"][0]["label"], "pv");
        assert_eq!(values_of(&month.data()["infos"][0]), vec![12.5]);
        let year = app
            .get(
                &format!("/api/v1/inverter/2306012345/year?date={}", day.year()),
                Some(&c.ann),
            )
            .await;
        let year_sum: f64 = values_of(&year.data()["infos"][0]).iter().sum();
        let older = day - Duration::days(40);
        let expected = if older.year() == day.year() {
            32.5
        } else {
            12.5
        };
        assert_eq!(year_sum, expected);
        let total = app
            .get("/api/v1/inverter/2306012345/total?lan=en", Some(&c.ann))
            .await;
        total.expect_code(0);
        let total_sum: f64 = values_of(&total.data()["infos"][0]).iter().sum();
        assert_eq!(total_sum, 39.75, "total = sum of every day");
        let list = app.get("/api/v1/inverter/2306012345", Some(&c.ann)).await;
        assert_eq!(list.data()["etotal"].as_f64(), Some(total_sum));

        // Ports: battery day curve with SOC, bars of charge and discharge.
        let bat = app
            .get(
                &format!("/api/v1/inverter/battery/2306012345/day?date={day}"),
                Some(&c.ann),
            )
            .await;
        bat.expect_code(0);
        assert_eq!(bat.data()["infos"][1]["label"], "soc");
        assert_eq!(values_of(&bat.data()["infos"][1]), vec![67.0, 67.0]);
        let bat_total = app
            .get("/api/v1/inverter/battery/2306012345/total", Some(&c.ann))
            .await;
        let labels: Vec<&Value> = bat_total.data()["infos"]
            .as_array()
            .expect("infos")
            .iter()
            .map(|s| &s["label"])
            .collect();
        assert_eq!(labels, [&json!("charge"), &json!("discharge")]);
        for port in ["grid", "load", "eps", "meter"] {
            for span in ["day", "month", "year", "total"] {
                let r = app
                    .get(
                        &format!("/api/v1/inverter/{port}/2306099999/{span}"),
                        Some(&c.ann),
                    )
                    .await;
                r.expect_code(0);
                assert!(r.data()["infos"].is_array(), "{port}/{span}");
            }
        }
        let grid3 = app
            .get("/api/v1/inverter/grid/2306099999/day", Some(&c.ann))
            .await;
        let labels: Vec<String> = grid3.data()["infos"]
            .as_array()
            .expect("infos")
            .iter()
            .filter_map(|s| s["label"].as_str().map(String::from))
            .collect();
        assert!(labels.contains(&"grid_power_l3".to_string()), "{labels:?}");

        // Requested output columns come back as string-valued series, in order.
        let out = app
            .get(
                &format!("/api/v1/inverter/2306012345/output/day?date={day}&lan=en&column=dc_temp,igbt_temp"),
                Some(&c.ann),
            )
            .await;
        out.expect_code(0);
        let infos = &out.data()["infos"];
        assert_eq!(infos[0]["label"], "dc_temp");
        assert_eq!(infos[1]["label"], "igbt_temp");
        assert_eq!(infos[0]["unit"], "°C");
        assert_eq!(values_of(&infos[0]), vec![41.5, 41.5]);
        assert_eq!(values_of(&infos[1]), vec![38.2, 38.2]);
        let input = app
            .get("/api/v1/inverter/2306012345/input/day", Some(&c.ann))
            .await;
        assert_eq!(
            input.data()["infos"].as_array().map(Vec::len),
            Some(6),
            "2 inputs x V, I, P"
        );

        for url in [
            "/api/v1/inverter/genMi/2306012345/day",
            "/api/v1/inverter/gen/2306012345/byDate",
            "/api/v1/inverter/gen/2306012345/byDate?date=2026",
        ] {
            app.get(url, Some(&c.ann)).await.expect_code(0);
        }
        // An earlier day has no samples: empty records, not an error.
        let empty = app
            .get(
                "/api/v1/inverter/2306012345/day?date=2001-01-01",
                Some(&c.ann),
            )
            .await;
        assert_eq!(empty.data()["infos"][0]["records"], json!([]));
    }
}

#[tokio::test]
async fn another_tenants_inverter_answers_600_everywhere() {
    for app in spawn().await {
        let c = cast(&app).await;
        let r = app.get("/api/v1/inverters", Some(&c.bob)).await;
        assert_eq!(r.data()["total"], 1);
        assert_eq!(r.data()["infos"][0]["sn"], "BOB-INV-01");
        for path in [
            "",
            "/realtime/input",
            "/realtime/output",
            "/pvIVRealtime",
            "/input/day",
            "/output/day",
            "/day",
            "/month",
            "/year",
            "/total",
        ] {
            app.get(&format!("/api/v1/inverter/2306012345{path}"), Some(&c.bob))
                .await
                .expect_code(600);
        }
        for port in ["grid", "load", "battery", "eps", "meter", "gen"] {
            app.get(
                &format!("/api/v1/inverter/{port}/2306012345/realtime"),
                Some(&c.bob),
            )
            .await
            .expect_code(600);
        }
        app.post(
            "/api/v1/inverter/2306012345/alias",
            json!({"alias": "mine"}),
            Some(&c.bob),
        )
        .await
        .expect_code(600);
        app.post(
            "/api/v1/inverter/2306012345/delete",
            json!({}),
            Some(&c.bob),
        )
        .await
        .expect_code(600);
        // The message is the catalogue's, the same as for an SN nobody has.
        let theirs = app.get("/api/v1/inverter/2306012345", Some(&c.bob)).await;
        let missing = app.get("/api/v1/inverter/NOPE", Some(&c.bob)).await;
        assert_eq!(theirs.json, missing.json);
    }
}

#[tokio::test]
async fn renaming_keeps_to_32_bytes_and_needs_the_alias_key_on_the_plant() {
    for app in spawn().await {
        let c = cast(&app).await;
        let url = "/api/v1/inverter/2306012345/alias";
        let r = app
            .post(url, json!({"alias": "a".repeat(33)}), Some(&c.ann))
            .await;
        r.expect_code(4);
        // 11 Chinese characters are 33 bytes.
        app.post(url, json!({"alias": "逆".repeat(11)}), Some(&c.ann))
            .await
            .expect_code(4);
        app.post(url, json!({"alias": "  Roof east  "}), Some(&c.ann))
            .await
            .expect_code(0);
        let d = app.get("/api/v1/inverter/2306012345", Some(&c.ann)).await;
        assert_eq!(d.data()["alias"], "Roof east");
        // A form body works too.
        app.post_form(url, "alias=Garage", Some(&c.ann))
            .await
            .expect_code(0);
        let d = app.get("/api/v1/inverter/2306012345", Some(&c.ann)).await;
        assert_eq!(d.data()["alias"], "Garage");

        // A visitor sees the inverter but may neither rename nor delete it.
        app.post(
            &format!("/api/v1/plant/{}/share", c.ann_plant),
            json!({"account": "bob@example.com", "role": "visitor"}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        app.get("/api/v1/inverter/2306012345", Some(&c.bob))
            .await
            .expect_code(0);
        app.post(url, json!({"alias": "Bob's"}), Some(&c.bob))
            .await
            .expect_code(2);
        app.post(
            "/api/v1/inverter/2306012345/delete",
            json!({}),
            Some(&c.bob),
        )
        .await
        .expect_code(2);
    }
}

#[tokio::test]
async fn deleting_an_inverter_keeps_its_history() {
    for app in spawn().await {
        let c = cast(&app).await;
        app.post(
            "/api/v1/inverter/2306012345/delete",
            json!({}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        app.get("/api/v1/inverter/2306012345", Some(&c.ann))
            .await
            .expect_code(600);
        let list = app.get("/api/v1/inverters", Some(&c.ann)).await;
        assert_eq!(list.data()["total"], 1);
        let kept = app.store.latest_sample(c.single).await.expect("latest");
        assert!(kept.is_some(), "history stays");
        let plant_energy = app
            .store
            .plant_energy(c.ann_plant, &store::telemetry::DayRange::total())
            .await
            .expect("energy");
        assert!(
            plant_energy
                .iter()
                .any(|e| e.metric == "pv" && e.kwh > 39.0)
        );
        app.post(
            "/api/v1/inverter/2306012345/delete",
            json!({}),
            Some(&c.ann),
        )
        .await
        .expect_code(600);
    }
}

#[tokio::test]
async fn company_staff_see_no_owners_inverters_and_no_token_is_401() {
    for app in spawn().await {
        cast(&app).await;
        let company = app.company("Acme Solar").await;
        let (_, staff) = app
            .signed_in(
                "staff@example.com",
                BuiltinRole::CompanyStaff,
                Some(company),
            )
            .await;
        // Company staff hold inverter.view but see none of the owners' plants.
        let r = app.get("/api/v1/inverters", Some(&staff)).await;
        r.expect_code(0);
        assert_eq!(r.data()["total"], 0);
        app.get("/api/v1/inverter/2306012345", Some(&staff))
            .await
            .expect_code(600);
        app.get("/api/v1/inverters", None).await.expect_401();
    }
}
