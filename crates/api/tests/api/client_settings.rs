//! The settings read and write as the stricter public clients of the original API use them:
//! every key of the original for every kind of inverter (hybrids, high-voltage, grid-tied,
//! micro and string), each value a string in the original's format (the integers and flags a
//! Java/Gson client parses as `int`, the switches it parses as `boolean`), the whole set echoed
//! back with the keys that cannot be written ignored, and battery currents limited by the
//! model (115 A on a 12 kW hybrid, refused above the model's maximum). Every test runs on
//! SQLite and, when configured, PostgreSQL.

use crate::common;
use crate::fake_gateway;
use domain::DeviceFamily;
use domain::ids::GatewayId;

use common::{
    App,
    fixtures::{self, sample, set_status},
    spawn,
};
use fake_gateway::{Mode, gateway, linked};
use serde_json::{Map, Value, json};
use store::telemetry::TelemetryBatch;

/// Every key of the original's read, from the public client models (the file names them).
const ORIGINAL_KEYS: &str = include_str!("data/settings_keys.txt");

fn original_keys() -> Vec<&'static str> {
    ORIGINAL_KEYS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// Keys the openHAB sunsynk binding (openhab-addons, bundles/org.openhab.binding.sunsynk,
/// `api/dto/Settings.java`) declares `int`: Gson fails the whole answer on a value that is not
/// an integer (a `"false"` here marked the inverter offline).
fn gson_ints() -> Vec<String> {
    let mut keys: Vec<String> = ["sysWorkMode", "energyMode", "peakAndVallery"]
        .map(String::from)
        .to_vec();
    for i in 1..=6 {
        keys.extend([
            format!("cap{i}"),
            format!("sellTime{i}Pac"),
            format!("time{i}On"),
        ]);
    }
    keys
}

/// Keys the same DTO declares `boolean`: the original sends them as `"true"`/`"false"`.
fn gson_booleans() -> Vec<String> {
    (1..=6)
        .flat_map(|i| [format!("time{i}on"), format!("genTime{i}on")])
        .chain(
            [
                "mondayOn",
                "tuesdayOn",
                "wednesdayOn",
                "thursdayOn",
                "fridayOn",
                "saturdayOn",
                "sundayOn",
            ]
            .map(String::from),
        )
        .collect()
}

/// Flags the original writes `"0"`/`"1"` (public sample answers and the Home Assistant
/// integrations that switch them: `peakAndVallery` "1", `solarSell` "0", `sellTime1En` "0").
fn digit_flags() -> Vec<String> {
    [
        "solarSell",
        "peakAndVallery",
        "gridPeakShaving",
        "genChargeOn",
    ]
    .map(String::from)
    .into_iter()
    .chain((1..=6).map(|i| format!("sellTime{i}En")))
    .collect()
}

/// Settings our catalogue has beyond the original's keys (the portal's own screens use them).
const OWN_KEYS: [&str; 7] = [
    "gridFreq",
    "genChargeCurrent",
    "genMaxRunTime",
    "powerOn",
    "activePowerLimit",
    "exportLimitMode",
    "exportLimitRate",
];

struct InverterKinds {
    ann: String,
    vic: String,
    bob: String,
    /// `(sn, type code, protocol, rated power W)`.
    inverters: Vec<(&'static str, i64, &'static str, f64)>,
}

const LV_5KW: &str = "INV-CS-LV5";
const LV_12KW: &str = "INV-CS-LV12";
const HV: &str = "INV-CS-HV";
const GRID_TIED: &str = "INV-CS-GT";
const MICRO: &str = "INV-CS-MI";
const STRING: &str = "INV-CS-ST";

/// Ann's plant with gateway GW-CS01 (key KEY12345) and behind it one inverter of every kind, each
/// having reported its rated power; Vic (visitor) shares the plant; Bob is a stranger.
async fn inverter_kinds(app: &App) -> InverterKinds {
    common::settings_maps::writable_hybrids(app).await;
    let admin = fixtures::admin(app).await;
    let [ann, vic, bob] = fixtures::owners(app, ["ann", "vic", "bob"]).await;
    let plant = fixtures::plant(app, &ann, fixtures::madrid_plant("Clients", 2, 12)).await;
    let gw = fixtures::hybrid_gateway(app, &admin, &ann, plant, "GW-CS01").await;
    let inverters = vec![
        (LV_5KW, 2, "deye-hybrid-1ph", 5_000.0),
        (LV_12KW, 93, "deye-hybrid-3ph-lv", 12_000.0),
        (HV, 94, "deye-hybrid-3ph-hv", 12_000.0),
        (GRID_TIED, 1, "deye-hybrid-1ph", 5_000.0),
        (MICRO, 3, "deye-hybrid-1ph", 800.0),
        (STRING, 0, "deye-hybrid-1ph", 20_000.0),
    ];
    let mut batch = TelemetryBatch::default();
    for (sn, code, protocol, rated) in &inverters {
        let id = app
            .store
            .upsert_device(
                sn,
                GatewayId(gw),
                DeviceFamily::Inverter,
                *code,
                protocol,
                "M",
                None,
                1,
            )
            .await
            .expect("device");
        set_status(app, id.0, 1).await;
        let values = json!({"rated_power": rated, "running_state": 2});
        batch
            .samples
            .push(sample(id.0, domain::time::now_ms() - 60_000, &values));
    }
    app.store
        .write_telemetry_batch(&batch)
        .await
        .expect("telemetry");
    fixtures::share(app, &ann, plant, &[("vic@example.com", "visitor")]).await;
    InverterKinds {
        ann,
        vic,
        bob,
        inverters,
    }
}

fn read_url(sn: &str) -> String {
    format!("/api/v1/common/setting/{sn}/read")
}

fn set_url(sn: &str) -> String {
    format!("/api/v1/common/setting/{sn}/set")
}

/// Checks one read against the original's key set and types; answers the flat object.
fn assert_original_shape(sn: &str, d: &Map<String, Value>) {
    for k in original_keys() {
        assert!(d.contains_key(k), "{sn}: {k} missing");
    }
    for (k, v) in d {
        assert!(v.is_string(), "{sn}: {k} is {v}, not a string");
        assert!(
            k == "sn" || original_keys().contains(&k.as_str()) || OWN_KEYS.contains(&k.as_str()),
            "{sn}: {k} is not a key of the original"
        );
    }
    let text = |k: &str| d[k].as_str().unwrap_or_default().to_string();
    assert_eq!(text("sn"), sn);
    for k in gson_ints() {
        assert!(text(&k).parse::<i32>().is_ok(), "{sn}: {k}={}", text(&k));
    }
    for k in gson_booleans() {
        assert!(
            ["true", "false"].contains(&text(&k).as_str()),
            "{sn}: {k}={}",
            text(&k)
        );
    }
    for k in digit_flags() {
        assert!(
            ["0", "1"].contains(&text(&k).as_str()),
            "{sn}: {k}={}",
            text(&k)
        );
    }
    for i in 1..=6 {
        let t = text(&format!("sellTime{i}"));
        let ok = t.len() == 5
            && t.as_bytes()[2] == b':'
            && t[..2].parse::<u8>().is_ok_and(|h| h < 24)
            && t[3..].parse::<u8>().is_ok_and(|m| m < 60);
        assert!(ok, "{sn}: sellTime{i}={t}");
        // The integer twin follows the switch.
        let on = text(&format!("time{i}on")) == "true";
        assert_eq!(text(&format!("time{i}On")), if on { "1" } else { "0" });
    }
}

#[tokio::test]
async fn every_inverter_reads_every_original_key_in_the_originals_types() {
    assert_eq!(original_keys().len(), 350);
    for app in spawn().await {
        let c = inverter_kinds(&app).await;
        for (sn, ..) in &c.inverters {
            let r = app.get(&read_url(sn), Some(&c.ann)).await;
            r.expect_code(0);
            let d = r.data().as_object().expect("flat object");
            assert_original_shape(sn, d);
        }
        // A hybrid's own values, in the original's format.
        let d = app.get(&read_url(LV_5KW), Some(&c.ann)).await;
        let d = d.expect_code(0).data();
        assert_eq!(d["peakAndVallery"], "0");
        assert_eq!(d["sysWorkMode"], "2");
        assert_eq!(d["mondayOn"], "true");
        assert_eq!(d["time1on"], "false");
        assert_eq!(d["beep"], "0");
        // A micro inverter has none of them: every key as a device without it shows it.
        let d = app.get(&read_url(MICRO), Some(&c.ann)).await;
        let d = d.expect_code(0).data();
        assert_eq!(
            (&d["cap1"], &d["sellTime1"], &d["time1on"], &d["batteryCap"]),
            (&json!("0"), &json!("00:00"), &json!("false"), &json!("0"))
        );
        // The grid-tied one carries its own limits over them.
        let d = app.get(&read_url(GRID_TIED), Some(&c.ann)).await;
        let d = d.expect_code(0).data();
        assert_eq!(
            (&d["pvMaxLimit"], &d["cap1"]),
            (&json!("5000"), &json!("0"))
        );

        // The visitor may not read settings; a stranger does not see the inverter.
        app.get(&read_url(MICRO), Some(&c.vic)).await.expect_code(2);
        app.get(&read_url(LV_12KW), Some(&c.bob))
            .await
            .expect_code(600);
        app.get(&read_url(MICRO), Some(&c.bob))
            .await
            .expect_code(600);
    }
}

#[tokio::test]
async fn the_whole_set_echoed_back_writes_and_battery_currents_follow_the_model() {
    for app in spawn().await {
        let c = inverter_kinds(&app).await;
        let l = linked(app).await;
        let _gw = gateway(&l, "GW-CS01", "KEY12345", Mode::Answer).await;
        let app = &l.app;
        let read = |sn: &'static str| {
            let token = c.ann.clone();
            async move {
                app.get(&read_url(sn), Some(&token))
                    .await
                    .expect_code(0)
                    .data()
                    .as_object()
                    .expect("flat")
                    .clone()
            }
        };
        // pysunsynkweb enables charging by echoing the read with 115 A: a 12 kW hybrid takes
        // it; keys the inverter cannot write (`beep`, `time1On`...) are ignored.
        let mut body = read(LV_12KW).await;
        body.insert("batteryMaxCurrentCharge".into(), json!("115"));
        body.insert("peakAndVallery".into(), json!("1"));
        let r = app
            .post(&set_url(LV_12KW), Value::Object(body), Some(&c.ann))
            .await;
        r.expect_code(0);
        assert!(r.data()["commandId"].as_i64().is_some());
        let mut changed: Vec<&str> = r.data()["changed"]
            .as_array()
            .expect("changed")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        changed.sort_unstable();
        assert_eq!(changed, ["batteryMaxCurrentCharge", "peakAndVallery"]);
        // Up to the model's maximum (240 A), not beyond.
        let r = app
            .post(
                &set_url(LV_12KW),
                json!({"batteryMaxCurrentDischarge": "240"}),
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        for (sn, amps) in [(LV_12KW, "241"), (LV_5KW, "121"), (HV, "51")] {
            let mut body = read(sn).await;
            body.insert("batteryMaxCurrentCharge".into(), json!(amps));
            body.insert("cap1".into(), json!("55"));
            let r = app
                .post(&set_url(sn), Value::Object(body), Some(&c.ann))
                .await;
            r.expect_code(4);
            assert_eq!(
                r.msg(),
                "Parameter validation error: batteryMaxCurrentCharge",
                "{sn}"
            );
            // Nothing was sent: the read still shows the value before.
            assert_ne!(read(sn).await["cap1"], "55", "{sn}");
        }
        // The settings screen shows each model's maximum.
        for (sn, max) in [(LV_5KW, 120.0), (LV_12KW, 240.0), (HV, 50.0)] {
            let r = app
                .get(
                    &format!("/api/v1/inverter/setting/{sn}/support"),
                    Some(&c.ann),
                )
                .await;
            let field = r.expect_code(0).data()["groups"]
                .as_array()
                .expect("groups")
                .iter()
                .flat_map(|g| g["fields"].as_array().cloned().unwrap_or_default())
                .find(|f| f["key"] == "batteryMaxCurrentCharge")
                .expect("battery current field");
            assert_eq!(field["max"].as_f64(), Some(max), "{sn}");
        }
        // A 5 kW hybrid takes 115 A too (its maximum is 120 A).
        let r = app
            .post(
                &set_url(LV_5KW),
                json!({"batteryMaxCurrentCharge": 115}),
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        // A bad flag in the echoed set is refused with its name.
        let mut body = read(LV_5KW).await;
        body.insert("peakAndVallery".into(), json!("yes"));
        let r = app
            .post(&set_url(LV_5KW), Value::Object(body), Some(&c.ann))
            .await;
        r.expect_code(4);
        assert_eq!(r.msg(), "Parameter validation error: peakAndVallery");
        // The visitor may not write; a stranger does not see the inverter.
        app.post(
            &set_url(LV_12KW),
            json!({"batteryMaxCurrentCharge": "115"}),
            Some(&c.vic),
        )
        .await
        .expect_code(2);
        app.post(
            &set_url(LV_12KW),
            json!({"batteryMaxCurrentCharge": "115"}),
            Some(&c.bob),
        )
        .await
        .expect_code(600);
    }
}
