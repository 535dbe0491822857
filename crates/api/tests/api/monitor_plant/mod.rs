//! Plant monitoring over HTTP on every backend: the live flow (plant and inverter), realtime
//! figures and income, power curves and energy bars that agree across day, month, year and
//! total, device checks, weather, the generation download, the plant list and detail figures,
//! field types one by one, and tenancy (another tenant's plant answers 700 like a missing one).

use crate::common;
use domain::DeviceFamily;
use domain::ids::GatewayId;

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

mod access;
mod devices;
mod empty;
mod energy;
mod flow;

struct MonitoredPlant {
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
async fn monitored_plant(app: &App) -> MonitoredPlant {
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
    let add = |sn: &'static str, family: DeviceFamily, code: i64, protocol: &'static str| {
        s.upsert_device(sn, GatewayId(gw), family, code, protocol, "SIM", None, now)
    };
    let inverter = add("INV-MON-1", DeviceFamily::Inverter, 2, "deye-hybrid-1ph")
        .await
        .expect("inverter");
    let meter = add("MTR-MON-1", DeviceFamily::Meter, 0, "meter-3ph")
        .await
        .expect("meter");
    let bms = add("BMS-MON-1", DeviceFamily::Battery, 0, "bms-lv-stack")
        .await
        .expect("bms");
    let station = add(
        "WS-MON-1",
        DeviceFamily::WeatherStation,
        0,
        "weather-station",
    )
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
        |day: NaiveDate, metric: &str, value: f64| energy(inverter.0, plant, day, metric, value);
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
            sample(inverter.0, at(120_000), &inverter_report),
            sample(inverter.0, at(60_000), &inverter_report),
            sample(meter.0, at(60_000), &json!({"power": -400})),
            sample(bms.0, at(60_000), &json!({"power": -1500, "soc": 56})),
            sample(
                station.0,
                at(600_000),
                &json!({"ambient_temperature": 18.5, "irradiance": 600}),
            ),
            sample(
                station.0,
                at(60_000),
                &json!({"ambient_temperature": 21, "wind_speed": 3.2, "wind_direction": 225,
                    "irradiance": 650, "rainfall": 0, "humidity": 55.5}),
            ),
        ],
        energy: writes,
    };
    s.write_telemetry_batch(&batch).await.expect("telemetry");
    MonitoredPlant {
        ann,
        bob,
        plant,
        today,
        pv_days,
    }
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
