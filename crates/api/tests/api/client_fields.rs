//! The inverter detail and the input, grid and battery realtime answers as the stricter public
//! clients of the original API read them: every key their models name, with the JSON type they
//! parse it as (a Java/Gson `int` fails on a fraction, a Go client asserts numbers). The key
//! lists are data below, each naming its source. Every test runs on SQLite and, when
//! configured, PostgreSQL.

use crate::common;
use domain::DeviceFamily;
use domain::ids::GatewayId;

use common::{
    App,
    fixtures::{self, sample, set_status},
    spawn,
};
use serde_json::{Map, Value, json};
use store::telemetry::TelemetryBatch;

const SN: &str = "INV-CF01";

/// What a key must be.
#[derive(Clone, Copy, Debug)]
enum Ty {
    /// A JSON string.
    Str,
    /// A JSON number.
    Num,
    /// A whole JSON number (Gson `int`).
    Int,
    /// A string or null.
    StrOrNull,
    /// A number or null.
    NumOrNull,
    /// A whole number or null.
    IntOrNull,
    /// An object.
    Obj,
    /// An array.
    Arr,
    /// A string holding a number, or null (Gson `String`, parsed by clients with `float()`).
    NumTextOrNull,
}

fn check(answer: &str, d: &Map<String, Value>, keys: &[(&str, Ty)]) {
    for (k, ty) in keys {
        let v = d.get(*k).unwrap_or_else(|| panic!("{answer}: {k} missing"));
        let whole = |v: &Value| v.as_f64().is_some_and(|n| n.fract() == 0.0);
        let ok = match ty {
            Ty::Str => v.is_string(),
            Ty::Num => v.is_number(),
            Ty::Int => whole(v),
            Ty::StrOrNull => v.is_string() || v.is_null(),
            Ty::NumOrNull => v.is_number() || v.is_null(),
            Ty::IntOrNull => whole(v) || v.is_null(),
            Ty::Obj => v.is_object(),
            Ty::Arr => v.is_array(),
            Ty::NumTextOrNull => {
                v.is_null() || v.as_str().is_some_and(|s| s.parse::<f64>().is_ok())
            }
        };
        assert!(ok, "{answer}: {k} is {v}, wanted {ty:?}");
    }
}

/// `GET /api/v1/inverter/{sn}`: the keys of the public sample answer in synkctl
/// (hammingweight/synkctl, `rest/testdata/details.json`), typed as that sample and the
/// `sunsynk-python` 0.4.1 inverter model send them.
const DETAIL: &[(&str, Ty)] = &[
    ("address", Ty::StrOrNull),
    ("alias", Ty::Str),
    ("brand", Ty::StrOrNull),
    ("commType", Ty::IntOrNull),
    ("custCode", Ty::Int),
    ("emonth", Ty::Num),
    ("equipType", Ty::Int),
    ("etoday", Ty::Num),
    ("etotal", Ty::Num),
    ("eyear", Ty::Num),
    ("gsn", Ty::StrOrNull),
    ("model", Ty::Str),
    ("opened", Ty::Int),
    ("pac", Ty::Num),
    ("plant", Ty::Obj),
    ("protocolIdentifier", Ty::Str),
    ("ratePower", Ty::NumOrNull),
    ("runStatus", Ty::StrOrNull),
    ("sn", Ty::Str),
    ("status", Ty::Int),
    ("thumbUrl", Ty::StrOrNull),
    ("type", Ty::Int),
    ("updateAt", Ty::Str),
    ("user", Ty::Obj),
    ("version", Ty::Obj),
];

const DETAIL_USER: &[(&str, Ty)] = &[
    ("id", Ty::IntOrNull),
    ("nickname", Ty::StrOrNull),
    ("mobile", Ty::StrOrNull),
    ("email", Ty::StrOrNull),
];

const DETAIL_VERSION: &[(&str, Ty)] = &[
    ("masterVer", Ty::StrOrNull),
    ("softVer", Ty::StrOrNull),
    ("hardVer", Ty::StrOrNull),
    ("hmiVer", Ty::StrOrNull),
    ("bmsVer", Ty::StrOrNull),
    ("commVer", Ty::StrOrNull),
];

/// `GET /api/v1/inverter/{sn}/realtime/input`: the openHAB sunsynk binding's
/// `RealTimeInData` (openhab-addons, bundles/org.openhab.binding.sunsynk: `pac` an `int`,
/// `grid_tip_power` a `String`) and synkctl's `rest/testdata/input.json`.
const INPUT: &[(&str, Ty)] = &[
    ("pac", Ty::Int),
    ("grid_tip_power", Ty::StrOrNull),
    ("etoday", Ty::Num),
    ("etotal", Ty::Num),
    ("pvIV", Ty::Arr),
    ("mpptIV", Ty::Arr),
];

/// `GET /api/v1/inverter/grid/{sn}/realtime`: the binding's `Grid` (`pac`, `qac`, `status`
/// ints) and synkctl's README sample (`acRealyStatus` a number, which it reads as 1 or 0).
const GRID: &[(&str, Ty)] = &[
    ("pac", Ty::IntOrNull),
    ("qac", Ty::IntOrNull),
    ("fac", Ty::NumOrNull),
    ("pf", Ty::NumOrNull),
    ("status", Ty::IntOrNull),
    ("acRealyStatus", Ty::IntOrNull),
    ("etodayFrom", Ty::NumTextOrNull),
    ("etodayTo", Ty::NumTextOrNull),
    ("etotalFrom", Ty::NumTextOrNull),
    ("etotalTo", Ty::NumTextOrNull),
    ("limiterTotalPower", Ty::NumOrNull),
    ("limiterPowerArr", Ty::Arr),
    ("vip", Ty::Arr),
];

/// `GET /api/v1/inverter/battery/{sn}/realtime`: the binding's `Battery` (openhab-addons,
/// bundles/org.openhab.binding.sunsynk, `api/dto/Battery.java`) and synkctl's
/// `rest/testdata/battery.json`.
const BATTERY: &[(&str, Ty)] = &[
    ("time", Ty::StrOrNull),
    ("etodayChg", Ty::NumTextOrNull),
    ("etodayDischg", Ty::NumTextOrNull),
    ("emonthChg", Ty::NumTextOrNull),
    ("emonthDischg", Ty::NumTextOrNull),
    ("eyearChg", Ty::NumTextOrNull),
    ("eyearDischg", Ty::NumTextOrNull),
    ("etotalChg", Ty::NumTextOrNull),
    ("etotalDischg", Ty::NumTextOrNull),
    ("type", Ty::IntOrNull),
    ("power", Ty::Int),
    ("capacity", Ty::NumTextOrNull),
    ("correctCap", Ty::NumTextOrNull),
    ("bmsSoc", Ty::NumOrNull),
    ("bmsVolt", Ty::NumOrNull),
    ("bmsCurrent", Ty::NumOrNull),
    ("bmsTemp", Ty::NumOrNull),
    ("current", Ty::NumTextOrNull),
    ("voltage", Ty::NumTextOrNull),
    ("temp", Ty::NumTextOrNull),
    ("soc", Ty::NumTextOrNull),
    ("chargeVolt", Ty::NumTextOrNull),
    ("dischargeVolt", Ty::NumTextOrNull),
    ("chargeCurrentLimit", Ty::NumTextOrNull),
    ("dischargeCurrentLimit", Ty::NumTextOrNull),
    ("maxChargeCurrentLimit", Ty::NumTextOrNull),
    ("maxDischargeCurrentLimit", Ty::NumTextOrNull),
    ("bms1Version1", Ty::IntOrNull),
    ("bms1Version2", Ty::IntOrNull),
    ("current2", Ty::NumTextOrNull),
    ("voltage2", Ty::NumTextOrNull),
    ("temp2", Ty::NumTextOrNull),
    ("soc2", Ty::NumTextOrNull),
    ("chargeVolt2", Ty::NumTextOrNull),
    ("dischargeVolt2", Ty::NumTextOrNull),
    ("chargeCurrentLimit2", Ty::NumTextOrNull),
    ("dischargeCurrentLimit2", Ty::NumTextOrNull),
    ("maxChargeCurrentLimit2", Ty::NumTextOrNull),
    ("maxDischargeCurrentLimit2", Ty::NumTextOrNull),
    ("bms2Version1", Ty::StrOrNull),
    ("bms2Version2", Ty::StrOrNull),
    ("status", Ty::IntOrNull),
    ("batterySoc1", Ty::NumTextOrNull),
    ("batteryCurrent1", Ty::NumTextOrNull),
    ("batteryVolt1", Ty::NumTextOrNull),
    ("batteryPower1", Ty::NumOrNull),
    ("batteryTemp1", Ty::NumTextOrNull),
    ("batteryStatus2", Ty::IntOrNull),
    ("batterySoc2", Ty::NumTextOrNull),
    ("batteryCurrent2", Ty::NumTextOrNull),
    ("batteryVolt2", Ty::NumTextOrNull),
    ("batteryPower2", Ty::NumOrNull),
    ("batteryTemp2", Ty::NumTextOrNull),
    ("numberOfBatteries", Ty::IntOrNull),
    ("batt1Factory", Ty::StrOrNull),
    ("batt2Factory", Ty::StrOrNull),
];

/// Ann's plant (with an address) with a hybrid reporting fractional powers, BMS values and a
/// second bank; Bob is a stranger.
async fn reporting_hybrid(app: &App) -> (String, String) {
    let admin = fixtures::admin(app).await;
    let [ann, bob] = fixtures::owners(app, ["ann", "bob"]).await;
    let mut body = fixtures::madrid_plant("Fields", 2, 5);
    body["address"] = json!("Calle Mayor 1, Madrid");
    let plant = fixtures::plant(app, &ann, body).await;
    let gw = fixtures::hybrid_gateway(app, &admin, &ann, plant, "GW-CF01").await;
    let id = app
        .store
        .upsert_device(
            SN,
            GatewayId(gw),
            DeviceFamily::Inverter,
            2,
            "deye-hybrid-1ph",
            "SUN-5K",
            None,
            1,
        )
        .await
        .expect("device");
    set_status(app, id.0, 1).await;
    let values = json!({
        "running_state": 2, "rated_power": 5000, "pv1_voltage": 310.5, "pv1_current": 4.2,
        "pv1_power": 1304.4, "grid_power": 460.6, "grid_ct_power": 455, "grid_frequency": 49.98,
        "grid_connected": true, "battery_soc": 67, "battery_power": -300.7,
        "battery_voltage": 52.1, "battery_current": -5.76, "battery_temperature": 24.5,
        "bms_soc": 68, "bms_voltage": 52.2, "bms_current": -5.5, "bms_temperature": 25.1,
        "battery2_soc": 70, "battery2_voltage": 52.3, "battery2_current": -1.5,
        "battery2_temperature": 23.0, "battery2_power": -78,
    });
    let mut batch = TelemetryBatch::default();
    batch
        .samples
        .push(sample(id.0, domain::time::now_ms() - 30_000, &values));
    app.store
        .write_telemetry_batch(&batch)
        .await
        .expect("telemetry");
    (ann, bob)
}

fn object(v: &Value) -> &Map<String, Value> {
    v.as_object().expect("an object")
}

#[tokio::test]
async fn the_detail_carries_every_field_clients_read_with_their_types() {
    for app in spawn().await {
        let (ann, bob) = reporting_hybrid(&app).await;
        let url = format!("/api/v1/inverter/{SN}");
        let r = app.get(&url, Some(&ann)).await;
        let d = object(r.expect_code(0).data());
        check("detail", d, DETAIL);
        check("detail.user", object(&d["user"]), DETAIL_USER);
        check("detail.version", object(&d["version"]), DETAIL_VERSION);
        assert_eq!(d["runStatus"], "Normal");
        assert_eq!(d["brand"], "Deye");
        assert_eq!(d["address"], "Calle Mayor 1, Madrid");
        assert!(d["user"]["id"].is_i64());
        assert_eq!(d["user"]["email"], "ann@example.com");
        // Another tenant's inverter answers as one that does not exist.
        app.get(&url, Some(&bob)).await.expect_code(600);
        app.get("/api/v1/inverter/NOPE", Some(&ann))
            .await
            .expect_code(600);
    }
}

#[tokio::test]
async fn input_grid_and_battery_realtime_carry_the_clients_fields() {
    for app in spawn().await {
        let (ann, bob) = reporting_hybrid(&app).await;
        let input = format!("/api/v1/inverter/{SN}/realtime/input");
        let r = app.get(&input, Some(&ann)).await;
        let d = object(r.expect_code(0).data());
        check("input", d, INPUT);
        assert_eq!(d["pac"], json!(1304.0), "whole watts");
        assert_eq!(d["grid_tip_power"], Value::Null);

        let grid = format!("/api/v1/inverter/grid/{SN}/realtime");
        let r = app.get(&grid, Some(&ann)).await;
        let d = object(r.expect_code(0).data());
        check("grid", d, GRID);
        assert_eq!(d["acRealyStatus"], json!(1));

        let battery = format!("/api/v1/inverter/battery/{SN}/realtime?sn={SN}&lan");
        let r = app.get(&battery, Some(&ann)).await;
        let d = object(r.expect_code(0).data());
        check("battery", d, BATTERY);
        assert_eq!(d["power"], json!(-301.0), "whole watts");
        assert_eq!(
            (&d["bmsSoc"], &d["bmsVolt"], &d["bmsCurrent"], &d["bmsTemp"]),
            (&json!(68.0), &json!(52.2), &json!(-5.5), &json!(25.1))
        );
        assert_eq!(
            (&d["soc2"], &d["voltage2"]),
            (&json!("70.0"), &json!("52.3"))
        );
        assert!(d["time"].as_str().is_some_and(|t| t.len() == 19));

        // Another tenant's inverter answers as one that does not exist.
        for url in [&input, &grid, &battery] {
            app.get(url, Some(&bob)).await.expect_code(600);
        }
    }
}
