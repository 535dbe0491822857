//! The settings routes per family (`dy/store`, `dy/store/.../threePhase`, `dy/grid`,
//! `mt/setting`, `gy/setting`, `asw`, `setting/uneet`) and which settings an inverter offers
//! from its register map: each route reads and sets its own inverters through the common use
//! case (a write reaches a fake gateway over a real device link as `set_params` and is audited),
//! refuses another family with 601 / 605 / 610, and a visitor of a shared plant may neither
//! read nor set. Also the gateway's upload cycle set from the portal. Every test runs on SQLite
//! and, when configured, PostgreSQL.

use crate::common;
use crate::fake_gateway;
use domain::DeviceFamily;
use domain::ids::GatewayId;

use std::time::Duration;

use common::{
    App,
    fixtures::{self, set_status},
    settings_maps::{store_map, store_params, writable_hybrids},
    spawn,
};
use fake_gateway::{FakeGateway, Mode, gateway, linked};
use serde_json::{Value, json};

struct FamilyInverters {
    ann: String,
    max: String,
    vic: String,
    bob: String,
}

/// Ann's plant with gateway GW-FAM01 and behind it one inverter per route: Deye single- and
/// three-phase hybrids (maps writing every setting), a Deye string inverter (on/off, active power
/// up to 110 %), a Deye micro inverter (on/off, active power, PV limit up to 800 W), another
/// brand's HV hybrid, an AISWEI
/// and an Uneet inverter, and a micro inverter whose brand has no map. Max (maintainer) and
/// Vic (visitor) share the plant; Bob is a stranger.
async fn family_inverters(app: &App) -> FamilyInverters {
    writable_hybrids(app).await;
    store_map(
        app,
        "deye-string-3ph",
        &[
            ("powerOn", None, None),
            ("activePowerLimit", Some(0.0), Some(110.0)),
        ],
    )
    .await;
    store_map(
        app,
        "deye-micro",
        &[
            ("powerOn", None, None),
            ("activePowerLimit", Some(0.0), Some(100.0)),
            ("pvMaxLimit", Some(0.0), Some(800.0)),
        ],
    )
    .await;
    store_params(app, "acme-hv", &["floatVolt", "batteryCap"]).await;
    store_params(app, "aiswei-asw-lt", &["zeroExportPower", "powerOn"]).await;
    store_params(app, "uneet-hyb", &["sysWorkMode", "zeroExportPower"]).await;
    let admin = fixtures::admin(app).await;
    let [ann, max, vic, bob] = fixtures::owners(app, ["ann", "max", "vic", "bob"]).await;
    let plant = fixtures::plant(app, &ann, fixtures::madrid_plant("Ann families", 2, 8)).await;
    let gw = fixtures::hybrid_gateway(app, &admin, &ann, plant, "GW-FAM01").await;
    for (sn, code, protocol) in [
        ("INV-FLP1", 2, "deye-hybrid-1ph"),
        ("INV-FLP3", 93, "deye-hybrid-3ph-lv"),
        ("INV-FHP3", 94, "deye-hybrid-3ph-hv"),
        ("INV-FSTR", 1, "deye-string-3ph"),
        ("INV-FMIC", 3, "deye-micro"),
        ("INV-FAHV", 21, "acme-hv"),
        ("INV-FASW", 1, "aiswei-asw-lt"),
        ("INV-FUNE", 2, "uneet-hyb"),
        ("INV-FACM", 3, "acme-micro"),
    ] {
        let id = app
            .store
            .upsert_device(
                sn,
                GatewayId(gw),
                DeviceFamily::Inverter,
                code,
                protocol,
                "M",
                None,
                1,
            )
            .await
            .expect("device");
        set_status(app, id.0, 1).await;
    }
    fixtures::share(app, &ann, plant, &fixtures::MAX_AND_VIC).await;
    FamilyInverters { ann, max, vic, bob }
}

fn keys(d: &Value) -> Vec<String> {
    let mut k: Vec<String> = d.as_object().expect("flat").keys().cloned().collect();
    k.sort();
    k
}

#[tokio::test]
async fn each_route_reads_its_own_inverters() {
    for app in spawn().await {
        let c = family_inverters(&app).await;
        let read = |path: String| {
            let app = &app;
            let token = c.ann.clone();
            async move { app.get(&format!("/api/v1/{path}"), Some(&token)).await }
        };
        let lp1 = read("dy/store/INV-FLP1/read".into()).await;
        let d = lp1.expect_code(0).data();
        assert_eq!(d["sn"], "INV-FLP1");
        assert_eq!(d["sysWorkMode"], "2");
        assert_eq!(d["sellTime1"], "00:00");
        assert!(d.as_object().expect("flat").values().all(Value::is_string));
        let battery = read("dy/store/INV-FLP1/battery".into()).await;
        let d = battery.expect_code(0).data();
        assert!(d.get("batteryCap").is_some() && d.get("sysWorkMode").is_none());
        let three = read("dy/store/INV-FLP3/threePhase/read".into()).await;
        assert_eq!(
            three.expect_code(0).data()["batteryMaxCurrentCharge"],
            "100"
        );
        let hv = read("dy/store/INV-FHP3/threePhase/battery".into()).await;
        assert_eq!(hv.expect_code(0).data()["floatVolt"], "400.0");
        let string = read("dy/grid/INV-FSTR/read".into()).await;
        assert_eq!(
            keys(string.expect_code(0).data()),
            ["activePowerLimit", "powerOn", "sn"],
            "the string map's settings, no more"
        );
        let micro = read("mt/setting/INV-FMIC/read".into()).await;
        assert_eq!(
            micro.expect_code(0).data(),
            &json!({"sn": "INV-FMIC", "activePowerLimit": "100", "pvMaxLimit": "800", "powerOn": "1"}),
            "the family default (5000 W) within the map's 800 W"
        );
        let gy = read("gy/setting/INV-FAHV/read".into()).await;
        assert_eq!(
            keys(gy.expect_code(0).data()),
            ["batteryCap", "floatVolt", "sn"]
        );
        read("gy/setting/INV-FHP3/limits".into())
            .await
            .expect_code(0);
        let asw = read("asw/INV-FASW/power".into()).await;
        assert_eq!(
            asw.expect_code(0).data(),
            &json!({"sn": "INV-FASW", "powerOn": "1"})
        );
        let uneet = read("setting/uneet/INV-FUNE/workMode".into()).await;
        assert_eq!(
            uneet.expect_code(0).data(),
            &json!({"sn": "INV-FUNE", "sysWorkMode": "2"})
        );
    }
}

#[tokio::test]
async fn another_family_gets_a_clear_code() {
    for app in spawn().await {
        let c = family_inverters(&app).await;
        for (path, code, msg) in [
            ("dy/store/INV-FLP3/read", 610, "Grid type error"),
            ("dy/store/INV-FLP1/threePhase/read", 610, "Grid type error"),
            ("dy/store/INV-FSTR/read", 605, "No configuration parameters"),
            ("dy/grid/INV-FLP1/read", 605, ""),
            ("dy/grid/INV-FMIC/read", 605, ""),
            (
                "dy/grid/INV-FASW/read",
                601,
                "Parameter setting of this brand",
            ),
            ("mt/setting/INV-FSTR/read", 605, ""),
            (
                "mt/setting/INV-FACM/read",
                601,
                "Parameter setting of this brand",
            ),
            ("gy/setting/INV-FLP3/read", 605, ""),
            ("asw/INV-FLP1/read", 601, ""),
            ("setting/uneet/INV-FASW/read", 601, ""),
            // The inverter offers nothing in the group.
            ("mt/setting/INV-FMIC/battery", 605, ""),
            ("dy/grid/INV-FSTR/grid", 605, ""),
            (
                "mt/setting/INV-FMIC/nonsense",
                4,
                "Parameter validation error: part",
            ),
            ("mt/setting/NOPE-0001/read", 600, ""),
        ] {
            let r = app.get(&format!("/api/v1/{path}"), Some(&c.ann)).await;
            r.expect_code(code);
            assert!(r.msg().starts_with(msg), "{path}: {}", r.msg());
        }
        // The same answers on a set.
        app.post(
            "/api/v1/dy/store/INV-FLP3/battery",
            json!({"batteryCap": "200"}),
            Some(&c.ann),
        )
        .await
        .expect_code(610);
        app.post_form("/api/v1/mt/setting/INV-FACM/power", "value=0", Some(&c.ann))
            .await
            .expect_code(601);
        // The common support says what the map offers.
        let s = app
            .get("/api/v1/inverter/setting/INV-FMIC/support", Some(&c.ann))
            .await;
        let d = s.expect_code(0).data();
        assert_eq!(d["family"], "micro");
        let groups: Vec<&str> = d["groups"]
            .as_array()
            .expect("groups")
            .iter()
            .map(|g| g["key"].as_str().expect("key"))
            .collect();
        assert_eq!(groups, ["limits", "power"]);
        assert_eq!(d["groups"][0]["fields"][0]["max"], json!(800.0));
        app.get("/api/v1/inverter/setting/INV-FACM/support", Some(&c.ann))
            .await
            .expect_code(601);
        let string = app
            .get("/api/v1/inverter/setting/INV-FSTR/support", Some(&c.ann))
            .await;
        assert_eq!(string.expect_code(0).data()["family"], "grid_tied");
    }
}

/// The next `set_params` the fake gateway received.
async fn next_set(gw: &mut FakeGateway) -> devices::report::Command {
    loop {
        let cmd = tokio::time::timeout(Duration::from_secs(10), gw.received.recv())
            .await
            .expect("a command")
            .expect("open");
        if cmd.kind == "set_params" {
            return cmd;
        }
    }
}

#[tokio::test]
async fn family_sets_go_through_the_common_use_case() {
    for app in spawn().await {
        let c = family_inverters(&app).await;
        let l = linked(app).await;
        let app = &l.app;
        let mut gw = gateway(&l, "GW-FAM01", "KEY12345", Mode::Answer).await;

        // A form field `value` on a one-field group.
        let r = app
            .post_form("/api/v1/mt/setting/INV-FMIC/power", "value=0", Some(&c.ann))
            .await;
        r.expect_code(0);
        assert_eq!(r.data()["changed"], json!(["powerOn"]));
        let id = r.data()["commandId"].as_i64().expect("command");
        let sent = next_set(&mut gw).await;
        assert_eq!(
            (sent.sn.as_str(), &sent.params),
            ("INV-FMIC", &json!({"powerOn": "0"}))
        );
        assert_eq!(
            fixtures::settled_command(app, &c.ann, id).await["status"],
            "succeeded"
        );
        let d = app
            .get("/api/v1/mt/setting/INV-FMIC/power", Some(&c.ann))
            .await;
        assert_eq!(d.expect_code(0).data()["powerOn"], "0", "read back");

        // The map's limit, a key the part does not have, a key the map does not write.
        for (body, field) in [
            (json!({"pvMaxLimit": "801"}), "pvMaxLimit"),
            (json!({"pvMaxLimit": "500", "powerOn": "1"}), "powerOn"),
            (json!({"zeroExportPower": "10"}), "zeroExportPower"),
            (json!({}), "no setting given"),
        ] {
            let r = app
                .post("/api/v1/mt/setting/INV-FMIC/limits", body, Some(&c.ann))
                .await;
            r.expect_code(4);
            assert!(r.msg().ends_with(field), "{}", r.msg());
        }
        app.post_form(
            "/api/v1/mt/setting/INV-FMIC/limits",
            "value=900",
            Some(&c.ann),
        )
        .await
        .expect_code(4);
        // `read` is not a set.
        app.post("/api/v1/mt/setting/INV-FMIC/read", json!({}), Some(&c.ann))
            .await
            .expect_code(4);

        // A time-of-use slot with the `time` query; keys of another slot are refused.
        let r = app
            .post(
                "/api/v1/dy/store/INV-FLP1/tou?time=2",
                json!({"sellTime2": "5:00", "cap2": 80, "mondayOn": false}),
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        let sent = next_set(&mut gw).await;
        assert_eq!(
            sent.params,
            json!({"sellTime2": "05:00", "cap2": "80", "mondayOn": "false"})
        );
        for (q, body) in [
            ("time=3", json!({"sellTime2": "06:00"})),
            ("time=7", json!({"sellTime2": "06:00"})),
            ("time=x", json!({"sellTime2": "06:00"})),
        ] {
            app.post(
                &format!("/api/v1/dy/store/INV-FLP1/tou?{q}"),
                body,
                Some(&c.ann),
            )
            .await
            .expect_code(4);
        }

        // Three-phase, grid-tied, HV, AISWEI and Uneet sets; the maintainer may set too.
        for (path, body, token) in [
            (
                "dy/store/INV-FLP3/threePhase/battery",
                json!({"batteryMaxCurrentCharge": "150"}),
                &c.max,
            ),
            (
                "dy/grid/INV-FSTR/limits",
                json!({"activePowerLimit": "80"}),
                &c.ann,
            ),
            (
                "gy/setting/INV-FAHV/battery",
                json!({"floatVolt": "420.5"}),
                &c.ann,
            ),
            (
                "asw/INV-FASW/limits",
                json!({"zeroExportPower": "0"}),
                &c.ann,
            ),
            (
                "setting/uneet/INV-FUNE/workMode",
                json!({"sysWorkMode": "1"}),
                &c.ann,
            ),
        ] {
            let r = app
                .post(&format!("/api/v1/{path}"), body.clone(), Some(token))
                .await;
            r.expect_code(0);
            let id = r.data()["commandId"].as_i64().expect("command");
            assert_eq!(next_set(&mut gw).await.params, body, "{path}");
            assert_eq!(
                fixtures::settled_command(app, &c.ann, id).await["status"],
                "succeeded",
                "{path}"
            );
        }

        // Every write is audited as the common set's.
        let r = app
            .get("/api/v1/audit?action=setting.set&limit=50", Some(&c.ann))
            .await;
        let d = r.expect_code(0).data();
        assert_eq!(d["total"], 7, "{d}");

        // Visitors may neither read nor set; strangers do not see the inverter.
        app.get("/api/v1/mt/setting/INV-FMIC/read", Some(&c.vic))
            .await
            .expect_code(2);
        app.post_form("/api/v1/mt/setting/INV-FMIC/power", "value=1", Some(&c.vic))
            .await
            .expect_code(2);
        app.post(
            "/api/v1/dy/store/INV-FLP1/workMode",
            json!({"sysWorkMode": "1"}),
            Some(&c.vic),
        )
        .await
        .expect_code(2);
        app.post_form("/api/v1/mt/setting/INV-FMIC/power", "value=1", Some(&c.bob))
            .await
            .expect_code(600);
        assert!(
            tokio::time::timeout(Duration::from_millis(300), gw.received.recv())
                .await
                .is_err(),
            "nothing refused reached the device"
        );
    }
}

#[tokio::test]
async fn the_upload_cycle_is_set_on_the_gateway_itself() {
    for app in spawn().await {
        let c = family_inverters(&app).await;
        let url = "/api/v1/gateway/GW-FAM01/uploadCycle";
        // Without the device link (the gateway has never connected): offline or no link.
        let r = app
            .post(url, json!({"uploadCycle": 60}), Some(&c.ann))
            .await;
        assert!(matches!(r.code(), 602 | 606), "{}", r.code());
        let l = linked(app).await;
        let app = &l.app;
        let mut gw = gateway(&l, "GW-FAM01", "KEY12345", Mode::Answer).await;
        let r = app
            .post(url, json!({"uploadCycle": 60}), Some(&c.ann))
            .await;
        let d = r.expect_code(0).data();
        assert_eq!(
            (&d["kind"], &d["deviceSn"], &d["status"]),
            (
                &json!("set_params"),
                &json!("GW-FAM01"),
                &json!("succeeded")
            )
        );
        let sent = next_set(&mut gw).await;
        assert_eq!(
            (sent.sn.as_str(), &sent.params),
            ("GW-FAM01", &json!({"uploadCycle": "60"}))
        );
        // A form with `value`, as text.
        let r = app.post_form(url, "value=3600", Some(&c.ann)).await;
        r.expect_code(0);
        assert_eq!(
            next_set(&mut gw).await.params,
            json!({"uploadCycle": "3600"})
        );
        for body in [
            json!({"uploadCycle": 9}),
            json!({"uploadCycle": 3601}),
            json!({"uploadCycle": 12.5}),
            json!({"uploadCycle": "often"}),
            json!({}),
        ] {
            let r = app.post(url, body, Some(&c.ann)).await;
            r.expect_code(4);
            assert_eq!(r.msg(), "Parameter validation error: uploadCycle");
        }
        app.post(url, json!({"uploadCycle": 60}), Some(&c.vic))
            .await
            .expect_code(2);
        app.post(url, json!({"uploadCycle": 60}), Some(&c.bob))
            .await
            .expect_code(305);
    }
}
