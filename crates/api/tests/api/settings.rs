//! Inverter parameter settings and power on/off over HTTP: support per family (601 other
//! brands, 605 without settings), the read's shape (a flat object, every value a string, the
//! keys clients echo), validation per field kind (code 4 naming the field), a write applied by
//! a fake gateway over a real device link and followed to `succeeded` through the command
//! status, the applied values read back while offline, refusals (offline 602, upgrading 603,
//! state 604, no link 606, visitors 2, strangers 600), a timeout, a device failure, custom
//! profile limits, and boot/shutdown. Every test runs on SQLite and, when configured,
//! PostgreSQL.

use crate::common;
use crate::fake_gateway;

use std::time::Duration;

use common::{
    App,
    fixtures::{self, set_status},
    settings_maps, spawn,
};
use fake_gateway::{Linked, Mode, gateway, linked};
use serde_json::{Map, Value, json};

const INV: &str = "INV-SET01";

struct Cast {
    ann: String,
    max: String,
    vic: String,
    bob: String,
    inverter: i64,
}

/// Ann owns a plant with gateway GW-SET01 (key KEY12345) and behind it a 48 V hybrid (INV-SET01,
/// Normal), an HV hybrid, a grid-tied inverter (the hybrid maps writing every setting), a micro
/// inverter whose map writes no micro setting and another brand's hybrid without a map; Max
/// (maintainer) and Vic (visitor) share the plant; Bob is a stranger.
async fn cast(app: &App) -> Cast {
    settings_maps::writable_hybrids(app).await;
    settings_maps::store_params(app, "deye-micro-old", &["sellTime1", "batteryCap"]).await;
    let admin = fixtures::admin(app).await;
    let [ann, max, vic, bob] = fixtures::owners(app, ["ann", "max", "vic", "bob"]).await;
    let body = fixtures::madrid_plant("Ann settings plant", 2, 8);
    let plant = fixtures::plant(app, &ann, body).await;
    let gw = fixtures::hybrid_gateway(app, &admin, &ann, plant, "GW-SET01").await;
    let mut inverter = 0;
    for (sn, code, protocol) in [
        (INV, 2, "deye-hybrid-1ph"),
        ("INV-SETHV", 94, "deye-hybrid-3ph-hv"),
        ("INV-SETGT", 1, "deye-hybrid-1ph"),
        ("INV-SETMI", 3, "deye-micro-old"),
        ("INV-SETAC", 2, "acme-x"),
    ] {
        let id = app
            .store
            .upsert_device(sn, gw, "inverter", code, protocol, "M", None, 1)
            .await
            .expect("device");
        set_status(app, id, 1).await;
        if sn == INV {
            inverter = id;
        }
    }
    fixtures::share(app, &ann, plant, &fixtures::MAX_AND_VIC).await;
    Cast {
        ann,
        max,
        vic,
        bob,
        inverter,
    }
}

fn read_url(sn: &str) -> String {
    format!("/api/v1/common/setting/{sn}/read")
}

fn set_url(sn: &str) -> String {
    format!("/api/v1/common/setting/{sn}/set")
}

/// Polls the command status until it is final.
async fn settle(app: &App, token: &str, id: i64) -> Value {
    let until = tokio::time::Instant::now() + Duration::from_secs(15);
    loop {
        let r = app.get(&format!("/api/v1/command/{id}"), Some(token)).await;
        r.expect_code(0);
        let c = r.data().clone();
        if !matches!(c["status"].as_str(), Some("sent" | "acknowledged")) {
            return c;
        }
        assert!(tokio::time::Instant::now() < until, "never final: {c}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until the portal has GW-SET01 offline.
async fn wait_offline(app: &App) {
    let until = tokio::time::Instant::now() + Duration::from_secs(15);
    while app
        .store
        .gateway_by_sn("GW-SET01")
        .await
        .expect("gateway")
        .is_some_and(|g| g.online)
    {
        assert!(tokio::time::Instant::now() < until, "gateway stays online");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The command status, key by key with its JSON type.
#[track_caller]
fn assert_command(c: &Value, kind: &str, sn: &str) {
    assert!(c["id"].is_i64(), "{c}");
    assert_eq!(c["kind"], kind);
    assert_eq!(c["deviceSn"], sn);
    assert_eq!(c["gatewaySn"], "GW-SET01");
    assert!(c["status"].is_string(), "{c}");
    assert!(c["message"].is_string(), "{c}");
    assert!(c.get("result").is_some(), "{c}");
    assert!(c["resultCode"].is_i64() || c["resultCode"].is_null(), "{c}");
    let create = c["createAt"].as_str().expect("createAt");
    assert!(create.ends_with("+00:00") && create.len() == 29, "{create}");
    let update = c["updateAt"].as_str().expect("updateAt");
    assert!(update.ends_with('Z') && update.len() == 20, "{update}");
}

#[tokio::test]
async fn support_answers_the_family_or_the_specs_refusals() {
    for app in spawn().await {
        let c = cast(&app).await;
        let url = |sn: &str| format!("/api/v1/inverter/setting/{sn}/support");
        let r = app.get(&url(INV), Some(&c.ann)).await;
        r.expect_code(0);
        let d = r.data();
        assert_eq!(d["support"], true);
        assert_eq!(d["family"], "hybrid_lv");
        assert_eq!(d["editable"], true);
        let groups: Vec<&str> = d["groups"]
            .as_array()
            .expect("groups")
            .iter()
            .map(|g| g["key"].as_str().expect("key"))
            .collect();
        assert_eq!(
            groups,
            [
                "workMode",
                "battery",
                "grid",
                "timeOfUse",
                "generator",
                "limits",
                "power"
            ]
        );
        let fields: Vec<&Value> = d["groups"]
            .as_array()
            .expect("groups")
            .iter()
            .flat_map(|g| g["fields"].as_array().expect("fields"))
            .collect();
        let amps = fields
            .iter()
            .find(|f| f["key"] == "batteryMaxCurrentCharge")
            .expect("amps");
        assert_eq!(
            (
                &amps["type"],
                &amps["unit"],
                &amps["decimals"],
                &amps["max"]
            ),
            (&json!("number"), &json!("A"), &json!(0), &json!(240.0))
        );
        let day = fields.iter().find(|f| f["key"] == "mondayOn").expect("day");
        assert_eq!(day["type"], "bool");
        let mode = fields
            .iter()
            .find(|f| f["key"] == "battMode")
            .expect("mode");
        assert_eq!(mode["choices"], json!(["-1", "0", "1"]));

        // The visitor sees the inverter but may not change its settings.
        let r = app.get(&url(INV), Some(&c.vic)).await;
        r.expect_code(0);
        assert_eq!(r.data()["editable"], false);
        let hv = app.get(&url("INV-SETHV"), Some(&c.ann)).await;
        assert_eq!(hv.expect_code(0).data()["family"], "hybrid_hv");
        let gt = app.get(&url("INV-SETGT"), Some(&c.ann)).await;
        let gt_groups = gt.expect_code(0).data()["groups"]
            .as_array()
            .expect("g")
            .len();
        assert_eq!(gt_groups, 3, "grid-tied: grid, limits and power");
        let micro = app.get(&url("INV-SETMI"), Some(&c.ann)).await;
        micro.expect_code(605);
        assert_eq!(micro.msg(), "No configuration parameters");
        app.get(&url("INV-SETAC"), Some(&c.ann))
            .await
            .expect_code(601);
        app.get(&url(INV), Some(&c.bob)).await.expect_code(600);
        app.get(&url("NOPE-0001"), Some(&c.ann))
            .await
            .expect_code(600);
    }
}

#[tokio::test]
async fn a_read_is_flat_every_value_a_string_with_the_keys_clients_echo() {
    for app in spawn().await {
        let c = cast(&app).await;
        let r = app.get(&read_url(INV), Some(&c.ann)).await;
        r.expect_code(0);
        let d = r.data().as_object().expect("flat object");
        for (k, v) in d {
            assert!(v.is_string(), "{k} is {v}");
        }
        assert_eq!(d["sn"], INV);
        let mut required = vec![
            "sn".to_string(),
            "safetyType".into(),
            "battMode".into(),
            "zeroExportPower".into(),
            "batteryMaxCurrentCharge".into(),
            "batteryMaxCurrentDischarge".into(),
        ];
        for i in 1..=6 {
            for k in [
                format!("sellTime{i}"),
                format!("sellTime{i}Pac"),
                format!("sellTime{i}Volt"),
                format!("cap{i}"),
                format!("time{i}on"),
                format!("genTime{i}on"),
            ] {
                required.push(k);
            }
        }
        // pysunsynkweb changes one setting by writing back these keys from the read: without
        // any of them it fails before sending anything.
        for k in [
            "solarSell",
            "pvMaxLimit",
            "energyMode",
            "peakAndVallery",
            "sysWorkMode",
            "solarMaxSellPower",
            "gridPeakShaving",
            "generatorStartCap",
            "batteryLowCap",
        ] {
            required.push(k.into());
        }
        for i in 1..=6 {
            required.push(format!("sellTime{i}En"));
        }
        for day in [
            "monday",
            "tuesday",
            "wednesday",
            "thursday",
            "friday",
            "saturday",
            "sunday",
        ] {
            required.push(format!("{day}On"));
        }
        for k in &required {
            assert!(d.contains_key(k), "{k} missing");
        }
        assert_eq!(d["sellTime1"], "00:00");
        assert_eq!(d["mondayOn"], "true");

        // The maintainer reads too; the visitor and strangers do not.
        app.get(&read_url(INV), Some(&c.max)).await.expect_code(0);
        app.get(&read_url(INV), Some(&c.vic)).await.expect_code(2);
        app.get(&read_url(INV), Some(&c.bob)).await.expect_code(600);
        // A micro inverter's read answers as the original's does (tests/client_settings.rs).
        app.get(&read_url("INV-SETMI"), Some(&c.ann))
            .await
            .expect_code(0);
        app.get(&read_url("INV-SETAC"), Some(&c.ann))
            .await
            .expect_code(601);
    }
}

#[tokio::test]
async fn every_field_kind_is_validated_and_the_error_names_the_field() {
    for app in spawn().await {
        let c = cast(&app).await;
        for (key, value) in [
            ("batteryMaxCurrentCharge", json!("241")),
            ("batteryMaxCurrentCharge", json!("12.5")),
            ("floatVolt", json!("53.65")),
            ("floatVolt", json!("99999999")),
            ("sellTime2", json!("24:00")),
            ("sellTime2", json!("8h")),
            ("time3on", json!("yes")),
            ("mondayOn", json!(null)),
            ("battMode", json!("7")),
            ("cap4", json!(-1)),
            ("pvMaxLimit", json!("100000")),
            ("sellTime5En", json!("on")),
            ("gridPeakShaving", json!("2")),
            ("peakAndVallery", json!(null)),
        ] {
            let r = app
                .post(&set_url(INV), json!({ key: value }), Some(&c.ann))
                .await;
            r.expect_code(4);
            assert_eq!(
                r.msg(),
                format!("Parameter validation error: {key}"),
                "{key}={value}"
            );
        }
        // Nothing known to the family: 4.
        app.post(&set_url(INV), json!({"sn": INV, "foo": "1"}), Some(&c.ann))
            .await
            .expect_code(4);
        // Echoing the read back unchanged sends nothing (no device link needed).
        let read = app.get(&read_url(INV), Some(&c.ann)).await;
        let echo = read.data().clone();
        let r = app.post(&set_url(INV), echo, Some(&c.ann)).await;
        r.expect_code(0);
        assert_eq!(r.data()["commandId"], Value::Null);
        assert_eq!(r.data()["changed"], json!([]));
        // A change without the device link: connection failed.
        let r = app
            .post(&set_url(INV), json!({"cap1": "90"}), Some(&c.ann))
            .await;
        r.expect_code(606);
        assert_eq!(r.msg(), "Connection failed");
        // The visitor may not write; a stranger does not see the inverter.
        app.post(&set_url(INV), json!({"cap1": "90"}), Some(&c.vic))
            .await
            .expect_code(2);
        app.post(&set_url(INV), json!({"cap1": "90"}), Some(&c.bob))
            .await
            .expect_code(600);
        app.post(&set_url("INV-SETAC"), json!({"cap1": "90"}), Some(&c.ann))
            .await
            .expect_code(601);
    }
}

#[tokio::test]
async fn a_time_of_use_write_is_applied_by_the_device_and_read_back_offline() {
    for app in spawn().await {
        let c = cast(&app).await;
        let l: Linked = linked(app).await;
        let mut gw = gateway(&l, "GW-SET01", "KEY12345", Mode::Answer).await;
        let app = &l.app;
        // Clients read the whole set, change some keys and echo everything back; flags may
        // be booleans.
        let mut body: Map<String, Value> = app
            .get(&read_url(INV), Some(&c.ann))
            .await
            .expect_code(0)
            .data()
            .as_object()
            .expect("flat")
            .clone();
        body.insert("sellTime2".into(), json!("6:30"));
        body.insert("sellTime2Pac".into(), json!(3500));
        body.insert("cap2".into(), json!("80"));
        body.insert("time2on".into(), json!(true));
        body.insert("sundayOn".into(), json!(false));
        let r = app
            .post(&set_url(INV), Value::Object(body), Some(&c.ann))
            .await;
        r.expect_code(0);
        let id = r.data()["commandId"].as_i64().expect("command id");
        let mut changed: Vec<String> = r.data()["changed"]
            .as_array()
            .expect("changed")
            .iter()
            .map(|k| k.as_str().expect("key").to_string())
            .collect();
        changed.sort();
        assert_eq!(
            changed,
            ["cap2", "sellTime2", "sellTime2Pac", "sundayOn", "time2on"]
        );
        // Only the changed keys went to the device, as strings.
        let sent = loop {
            let cmd = tokio::time::timeout(Duration::from_secs(10), gw.received.recv())
                .await
                .expect("a command")
                .expect("open");
            if cmd.kind == "set_params" {
                break cmd;
            }
        };
        assert_eq!(
            sent.params,
            json!({"cap2": "80", "sellTime2": "06:30", "sellTime2Pac": "3500",
                "sundayOn": "false", "time2on": "true"})
        );
        let status = settle(app, &c.ann, id).await;
        assert_command(&status, "set_params", INV);
        assert_eq!(status["status"], "succeeded");
        // The device goes offline: the read answers the applied values.
        drop(gw);
        set_status(app, c.inverter, 0).await;
        let d = app.get(&read_url(INV), Some(&c.ann)).await;
        let d = d.expect_code(0).data();
        assert_eq!(
            (&d["sellTime2"], &d["cap2"], &d["time2on"], &d["sundayOn"]),
            (
                &json!("06:30"),
                &json!("80"),
                &json!("true"),
                &json!("false")
            )
        );
        // ... and writes are refused with the spec's message.
        let r = app
            .post(&set_url(INV), json!({"cap1": "50"}), Some(&c.ann))
            .await;
        r.expect_code(602);
        assert_eq!(r.msg(), "Device offline (turn on power or check network)");
        // Upgrading: refused too.
        set_status(app, c.inverter, 4).await;
        let r = app
            .post(&set_url(INV), json!({"cap1": "50"}), Some(&c.ann))
            .await;
        r.expect_code(603);
        assert_eq!(r.msg(), "Device is upgrading");
        // A stranger cannot read the command's status.
        app.get(&format!("/api/v1/command/{id}"), Some(&c.bob))
            .await
            .expect_code(4);
        app.get("/api/v1/command/999999", Some(&c.ann))
            .await
            .expect_code(4);
    }
}

#[tokio::test]
async fn the_maintainer_writes_a_silent_device_times_out_and_a_refusal_fails() {
    for app in spawn().await {
        let c = cast(&app).await;
        let l = linked(app).await;
        let app = &l.app;
        {
            let _gw = gateway(&l, "GW-SET01", "KEY12345", Mode::Silent).await;
            let r = app
                .post(&set_url(INV), json!({"cap3": "55"}), Some(&c.max))
                .await;
            r.expect_code(0);
            let id = r.data()["commandId"].as_i64().expect("id");
            let open = app
                .get(&format!("/api/v1/command/{id}"), Some(&c.max))
                .await;
            assert_eq!(open.expect_code(0).data()["status"], "sent");
            // The sweeper's pass after the deadline (a minute) times it out.
            app.store
                .time_out_commands(domain::time::now_ms() + 120_000)
                .await
                .expect("sweep");
            let status = settle(app, &c.max, id).await;
            assert_eq!(status["status"], "timed_out");
            // Not applied: the read still shows the default.
            set_status(app, c.inverter, 0).await;
            let d = app.get(&read_url(INV), Some(&c.ann)).await;
            assert_eq!(d.expect_code(0).data()["cap3"], "100");
            set_status(app, c.inverter, 1).await;
        }
        // The silent gateway is gone (its last will says offline) before another connects.
        wait_offline(app).await;
        let _gw = gateway(&l, "GW-SET01", "KEY12345", Mode::Refuse).await;
        // The gateway's devices went offline with it; they are back once they report.
        set_status(app, c.inverter, 1).await;
        let r = app
            .post(&set_url(INV), json!({"cap3": "56"}), Some(&c.ann))
            .await;
        let id = r.expect_code(0).data()["commandId"].as_i64().expect("id");
        let status = settle(app, &c.ann, id).await;
        assert_eq!(status["status"], "failed");
        assert_eq!(status["resultCode"], 2);
        assert_eq!(status["message"], "refused by the device");
    }
}

#[tokio::test]
async fn power_on_and_off_with_the_specs_refusals() {
    for app in spawn().await {
        let c = cast(&app).await;
        // Without the device link: connection failed.
        app.get(&format!("/api/v1/inverter/{INV}/shutdown"), Some(&c.ann))
            .await
            .expect_code(606);
        let l = linked(app).await;
        let app = &l.app;
        let mut gw = gateway(&l, "GW-SET01", "KEY12345", Mode::Answer).await;
        for (path, kind) in [("shutdown", "power_off"), ("boot", "power_on")] {
            let r = app
                .get(&format!("/api/v1/inverter/{INV}/{path}"), Some(&c.ann))
                .await;
            r.expect_code(0);
            assert_command(r.data(), kind, INV);
            let id = r.data()["id"].as_i64().expect("id");
            assert_eq!(settle(app, &c.ann, id).await["status"], "succeeded");
            let cmd = tokio::time::timeout(Duration::from_secs(10), gw.received.recv())
                .await
                .expect("command")
                .expect("open");
            assert_eq!(cmd.kind, kind);
        }
        // Maintainers may, visitors and strangers may not.
        app.get(&format!("/api/v1/inverter/{INV}/boot"), Some(&c.max))
            .await
            .expect_code(0);
        app.get(&format!("/api/v1/inverter/{INV}/boot"), Some(&c.vic))
            .await
            .expect_code(2);
        app.get(&format!("/api/v1/inverter/{INV}/boot"), Some(&c.bob))
            .await
            .expect_code(600);
        // A faulted inverter may be switched off but not on.
        set_status(app, c.inverter, 3).await;
        let r = app
            .get(&format!("/api/v1/inverter/{INV}/boot"), Some(&c.ann))
            .await;
        r.expect_code(604);
        assert_eq!(
            r.msg(),
            "The current state forbids remote debug, upgrade or power on/off"
        );
        app.get(&format!("/api/v1/inverter/{INV}/shutdown"), Some(&c.ann))
            .await
            .expect_code(0);
        set_status(app, c.inverter, 4).await;
        app.get(&format!("/api/v1/inverter/{INV}/shutdown"), Some(&c.ann))
            .await
            .expect_code(603);
        set_status(app, c.inverter, 0).await;
        app.get(&format!("/api/v1/inverter/{INV}/boot"), Some(&c.ann))
            .await
            .expect_code(602);
        // The gateway goes away: the dispatcher refuses as offline too.
        set_status(app, c.inverter, 1).await;
        drop(gw);
        wait_offline(app).await;
        app.get(&format!("/api/v1/inverter/{INV}/boot"), Some(&c.ann))
            .await
            .expect_code(602);
    }
}

#[tokio::test]
async fn custom_profiles_hold_six_parameters_and_a_user_six_profiles() {
    for app in spawn().await {
        let c = cast(&app).await;
        let url = "/api/v1/inverter/params/custom";
        let r = app.get("/api/v1/inverter/params", Some(&c.ann)).await;
        let d = r.expect_code(0).data();
        assert_eq!(
            (d["maxParams"].as_i64(), d["maxProfiles"].as_i64()),
            (Some(6), Some(6))
        );
        let infos = d["infos"].as_array().expect("infos");
        assert!(!infos.is_empty() && infos.len() <= 30);
        assert!(infos.iter().all(|f| f["group"] != "timeOfUse"));
        let hv = app
            .get("/api/v1/inverter/params?sn=INV-SETHV", Some(&c.ann))
            .await;
        assert_eq!(hv.expect_code(0).data()["family"], "hybrid_hv");

        let r = app
            .post(
                url,
                json!({"name": "Night charge", "params": {"battMode": "1", "zeroExportPower": 30, "solarSell": true}}),
                Some(&c.ann),
            )
            .await;
        let p = r.expect_code(0).data().clone();
        assert!(p["id"].is_i64());
        assert_eq!(p["name"], "Night charge");
        assert_eq!(
            p["params"],
            json!({"battMode": "1", "zeroExportPower": "30", "solarSell": "1"})
        );
        assert!(p["createAt"].is_string() && p["updateAt"].is_string());
        // Limits and rules.
        let seven = json!({"battMode": "1", "zeroExportPower": "1", "solarSell": "true",
            "sysWorkMode": "0", "energyMode": "0", "batteryCap": "100", "pf": "1.00"});
        app.post(
            url,
            json!({"name": "Too many", "params": seven}),
            Some(&c.ann),
        )
        .await
        .expect_code(4);
        let r = app
            .post(
                url,
                json!({"name": "Slots", "params": {"sellTime1": "01:00"}}),
                Some(&c.ann),
            )
            .await;
        r.expect_code(4);
        assert_eq!(r.msg(), "Parameter validation error: sellTime1");
        app.post(
            url,
            json!({"name": "Range", "params": {"batteryLowCap": "101"}}),
            Some(&c.ann),
        )
        .await
        .expect_code(4);
        app.post(
            url,
            json!({"name": "", "params": {"battMode": "1"}}),
            Some(&c.ann),
        )
        .await
        .expect_code(4);
        let dup = app
            .post(
                url,
                json!({"name": "Night charge", "params": {"battMode": "0"}}),
                Some(&c.ann),
            )
            .await;
        dup.expect_code(4);
        assert_eq!(dup.msg(), "Parameter validation error: name");
        for i in 2..=6 {
            app.post(
                url,
                json!({"name": format!("P{i}"), "params": {"cap1": "50"}}),
                Some(&c.ann),
            )
            .await
            .expect_code(4); // cap1 is a time-of-use value, not selectable
            app.post(
                url,
                json!({"name": format!("P{i}"), "params": {"batteryLowCap": "25"}}),
                Some(&c.ann),
            )
            .await
            .expect_code(0);
        }
        let r = app
            .post(
                url,
                json!({"name": "P7", "params": {"batteryLowCap": "25"}}),
                Some(&c.ann),
            )
            .await;
        r.expect_code(4);
        assert!(r.msg().contains("at most 6"), "{}", r.msg());
        let list = app.get(url, Some(&c.ann)).await;
        let list = list.expect_code(0).data().as_array().expect("list").clone();
        assert_eq!(list.len(), 6);
        // Change and delete; another user's profile is not theirs to touch.
        let id = p["id"].as_i64().expect("id");
        let r = app
            .post(
                url,
                json!({"id": id, "name": "Night", "params": {"battMode": "0"}}),
                Some(&c.ann),
            )
            .await;
        assert_eq!(r.expect_code(0).data()["params"], json!({"battMode": "0"}));
        app.post(url, json!({"id": id, "delete": true}), Some(&c.bob))
            .await
            .expect_code(4);
        assert_eq!(
            app.get(url, Some(&c.bob)).await.expect_code(0).data(),
            &json!([])
        );
        let r = app
            .post(url, json!({"id": id, "delete": true}), Some(&c.ann))
            .await;
        assert_eq!(r.expect_code(0).data(), &Value::Null);
        let list = app.get(url, Some(&c.ann)).await;
        assert_eq!(
            list.expect_code(0).data().as_array().expect("list").len(),
            5
        );
    }
}
