//! Batteries over HTTP on every backend: the master list and counts, info, realtime values with
//! cell extremes and packs, the day curve, slave packs (in the master's report and on their
//! own), delete, field types one by one, and tenancy (another tenant's battery answers 600).

mod health;

use crate::common;
use domain::DeviceFamily;
use domain::ids::GatewayId;

use chrono::Utc;
use chrono_tz::Europe::Madrid;
use common::{
    App,
    fixtures::{
        People, bound_gateway, energy, is_update_at, numeric_string, people, plant, sample,
    },
    spawn,
};
use serde_json::json;
use store::telemetry::{CounterKind, EnergyWrite, TelemetryBatch};

struct BatteryPlant {
    admin: String,
    ann: String,
    bob: String,
    plant: i64,
    master: i64,
}

/// Ann's plant with a gateway, an inverter, a battery stack (two packs in its report) and one
/// pack registered on its own; the stack has reported twice today.
async fn battery_plant(app: &App) -> BatteryPlant {
    let People { admin, ann, bob } = people(app).await;
    let plant = plant(
        app,
        &ann,
        json!({"name": "Ann storage plant", "type": 2, "currency": "EUR",
            "timezone": "Europe/Madrid", "lon": -3.7, "lat": 40.4, "totalPower": 5}),
    )
    .await;
    let gw = bound_gateway(app, &admin, &ann, plant, "GW-BAT-01").await;
    let now = domain::time::now_ms();
    let s = &app.store;
    let inverter = s
        .upsert_device(
            "INV-BAT-01",
            GatewayId(gw),
            DeviceFamily::Inverter,
            2,
            "p",
            "SUN-5K",
            None,
            now,
        )
        .await
        .expect("inverter");
    let master = s
        .upsert_device(
            "BAT-0001",
            GatewayId(gw),
            DeviceFamily::Battery,
            0,
            "bms-lv-stack",
            "SIM-BMS",
            Some("INV-BAT-01"),
            now,
        )
        .await
        .expect("battery");
    let slave = s
        .upsert_device(
            "BAT-0001-X",
            GatewayId(gw),
            DeviceFamily::Battery,
            0,
            "bms-lv-stack",
            "SIM-BMS",
            Some("BAT-0001"),
            now,
        )
        .await
        .expect("slave");
    let report = |soc: f64| {
        json!({
            "serial_number": "BAT-0001", "pack_count": 2, "soc": soc, "soh": 98, "voltage": 52.4,
            "current": -20.5, "power": -1074, "temperature_max": 27.5, "temperature_min": 24.1,
            "cell_voltage_max": 3.31, "cell_voltage_min": 3.262, "cycles": 41,
            "capacity_full": 195.3, "capacity_remaining": 146.5, "charge_current_limit": 100,
            "discharge_current_limit": 100, "charging": true, "discharging": false,
            "charge_relay_closed": true, "discharge_relay_closed": false, "balancing": false,
            "alarm_word": 0, "fault_word": 0,
            "pack1_serial_number": "BAT-0001-P1", "pack1_soc": soc, "pack1_soh": 98,
            "pack1_voltage": 52.4, "pack1_current": -10.2, "pack1_temperature": 26,
            "pack1_cell_voltage_max": 3.301, "pack1_cell_voltage_min": 3.262, "pack1_cycles": 41,
            "pack2_serial_number": "BAT-0001-P2", "pack2_soc": soc, "pack2_soh": 97,
            "pack2_voltage": 52.4, "pack2_current": -10.3, "pack2_temperature": 27.5,
            "pack2_cell_voltage_max": 3.31, "pack2_cell_voltage_min": 3.27, "pack2_cycles": 40,
        })
    };
    let today = Utc::now().with_timezone(&Madrid).date_naive();
    let energy = |metric: &str, value: f64| EnergyWrite {
        kind: CounterKind::Lifetime,
        rank: 2,
        ..energy(master.0, plant, today, metric, value)
    };
    let batch = TelemetryBatch {
        samples: vec![
            sample(master.0, now - 60_000, &report(70.0)),
            sample(master.0, now, &report(75.0)),
            sample(
                slave.0,
                now,
                &json!({"soc": 74, "voltage": 52.3, "cycles": 12}),
            ),
        ],
        energy: vec![
            energy("charge", 100.0),
            energy("charge", 102.5),
            energy("discharge", 50.0),
            energy("discharge", 51.0),
        ],
    };
    s.write_telemetry_batch(&batch).await.expect("telemetry");
    s.apply_statuses(&[(master, 1, true), (inverter, 1, true)], &[])
        .await
        .expect("statuses");
    BatteryPlant {
        admin,
        ann,
        bob,
        plant,
        master: master.0,
    }
}

#[tokio::test]
async fn the_list_shows_masters_with_the_client_field_types() {
    for app in spawn().await {
        let c = battery_plant(&app).await;
        let list = app
            .get(
                "/api/v1/batteries?page=1&limit=10&status=-1&sn=&plantId=&lan=en",
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
            (Some(1), Some(10), Some(1)),
            "the pack registered on its own is not a master: {}",
            list.text()
        );
        let b = &d["infos"][0];
        assert_eq!(b["sn"], "BAT-0001");
        assert_eq!(b["id"].as_i64(), Some(c.master));
        assert_eq!(b["status"], 1);
        assert_eq!(b["parentSn"], "INV-BAT-01");
        assert_eq!(b["plant"]["id"].as_i64(), Some(c.plant));
        assert_eq!(b["plantName"], "Ann storage plant");
        assert_eq!(b["gsn"], "GW-BAT-01");
        for key in ["soc", "soh", "voltage", "current", "temp", "capacity"] {
            numeric_string(b, key);
        }
        assert_eq!(b["soc"], "75.0");
        assert!(b["power"].is_number(), "{}", b["power"]);
        assert_eq!(b["cycles"], 41);
        assert_eq!(b["packCount"], 2);
        assert!(b["online"].is_boolean());
        assert!(is_update_at(&b["updateAt"]), "{}", b["updateAt"]);
        assert!(b["createAt"].is_string());
        assert!(b["alias"].is_string() && b["devName"] == "BAT-0001");

        for (filter, total) in [
            ("status=1", 1),
            ("status=0", 0),
            ("sn=bat-00", 1),
            ("sn=nothing", 0),
            (&format!("plantId={}", c.plant) as &str, 1),
            ("plantId=999999", 0),
            ("gsn=GW-BAT-01", 1),
            ("page=2&limit=1", 1),
        ] {
            let r = app
                .get(&format!("/api/v1/batteries?{filter}"), Some(&c.ann))
                .await;
            assert_eq!(
                r.data()["total"].as_i64(),
                Some(total),
                "{filter}: {}",
                r.text()
            );
        }
        let page2 = app
            .get("/api/v1/batteries?page=2&limit=1", Some(&c.ann))
            .await;
        assert_eq!(page2.data()["infos"].as_array().map(Vec::len), Some(0));

        let count = app.get("/api/v1/batteries/count", Some(&c.ann)).await;
        count.expect_code(0);
        assert_eq!(
            count.data(),
            &json!({"total": 1, "normal": 1, "offline": 0, "warning": 0, "fault": 0, "upgrading": 0})
        );
        let bob = app.get("/api/v1/batteries", Some(&c.bob)).await;
        assert_eq!(bob.data()["total"], 0);
        let bob_count = app.get("/api/v1/batteries/count", Some(&c.bob)).await;
        assert_eq!(bob_count.data()["total"], 0);
        let admin = app.get("/api/v1/batteries", Some(&c.admin)).await;
        assert_eq!(admin.data()["total"], 1);
        app.get("/api/v1/batteries", None).await.expect_401();
    }
}

#[tokio::test]
async fn info_and_realtime_have_every_field_with_its_type() {
    for app in spawn().await {
        let c = battery_plant(&app).await;
        let info = app.get("/api/v1/battery/BAT-0001/info", Some(&c.ann)).await;
        info.expect_code(0);
        let i = info.data();
        assert_eq!(i["sn"], "BAT-0001");
        assert_eq!(i["model"], "SIM-BMS");
        assert!(i["versions"].is_object());
        numeric_string(i, "capacity");
        numeric_string(i, "capacityRemaining");
        numeric_string(i, "soh");
        assert_eq!(
            (i["cycles"].as_i64(), i["packCount"].as_i64()),
            (Some(41), Some(2))
        );
        assert_eq!(
            (i["master"].as_bool(), i["masterSn"].is_null()),
            (Some(true), true)
        );
        assert_eq!(i["gsn"], "GW-BAT-01");
        assert_eq!(i["deletable"], false, "owners hold no battery.delete");
        let admin_info = app
            .get("/api/v1/battery/BAT-0001/info", Some(&c.admin))
            .await;
        assert_eq!(admin_info.data()["deletable"], true);
        let pack_info = app
            .get("/api/v1/battery/BAT-0001-X/info", Some(&c.ann))
            .await;
        assert_eq!(pack_info.data()["master"], false);
        assert_eq!(pack_info.data()["masterSn"], "BAT-0001");

        let rt = app
            .get("/api/v1/battery/BAT-0001/realtime?sn=&lan", Some(&c.ann))
            .await;
        rt.expect_code(0);
        let r = rt.data();
        for key in [
            "soc",
            "soh",
            "voltage",
            "current",
            "tempMax",
            "tempMin",
            "capacity",
            "capacityRemaining",
            "chargeCurrentLimit",
            "dischargeCurrentLimit",
            "etodayChg",
            "etodayDischg",
            "emonthChg",
            "emonthDischg",
            "eyearChg",
            "eyearDischg",
            "etotalChg",
            "etotalDischg",
        ] {
            numeric_string(r, key);
        }
        assert_eq!(
            (r["soc"].as_str(), r["current"].as_str()),
            (Some("75.0"), Some("-20.5"))
        );
        assert_eq!(r["power"].as_f64(), Some(-1074.0));
        assert_eq!(
            (r["etodayChg"].as_str(), r["etodayDischg"].as_str()),
            (Some("2.5"), Some("1.0"))
        );
        assert_eq!(r["etotalChg"], "2.5", "totals come from the day rows");
        assert_eq!(r["status"], 1);
        assert_eq!(
            (r["cycles"].as_i64(), r["packCount"].as_i64()),
            (Some(41), Some(2))
        );
        assert_eq!(
            (r["alarmWord"].as_i64(), r["faultWord"].as_i64()),
            (Some(0), Some(0))
        );
        assert_eq!(
            (
                &r["charging"],
                &r["discharging"],
                &r["chargeRelay"],
                &r["dischargeRelay"],
                &r["balancing"]
            ),
            (
                &json!(true),
                &json!(false),
                &json!(true),
                &json!(false),
                &json!(false)
            )
        );
        assert_eq!(
            r["cellMax"],
            json!({"voltage": "3.310", "pack": 2, "cell": null})
        );
        assert_eq!(
            r["cellMin"],
            json!({"voltage": "3.262", "pack": 1, "cell": null})
        );
        assert_eq!(r["cells"], json!([]), "this BMS lists no single cells");
        let packs = r["packs"].as_array().expect("packs");
        assert_eq!(packs.len(), 2);
        assert_eq!(packs[1]["sn"], "BAT-0001-P2");
        assert!(r["time"].is_string() && is_update_at(&r["updateAt"]));
    }
}

#[tokio::test]
async fn the_day_curve_and_the_packs_come_from_the_reports() {
    for app in spawn().await {
        let c = battery_plant(&app).await;
        let day = app
            .get("/api/v1/battery/BAT-0001/day?lan=en", Some(&c.ann))
            .await;
        day.expect_code(0);
        let infos = day.data()["infos"].as_array().expect("infos");
        let labels: Vec<&str> = infos.iter().filter_map(|s| s["label"].as_str()).collect();
        assert_eq!(labels, ["soc", "power", "voltage", "current", "temp"]);
        let soc = &infos[0];
        assert_eq!(soc["unit"], "%");
        let records = soc["records"].as_array().expect("records");
        assert_eq!(records.len(), 2);
        assert_eq!(
            (records[0]["value"].as_str(), records[1]["value"].as_str()),
            (Some("70.0"), Some("75.0"))
        );
        assert!(records[0]["time"].as_str().is_some_and(|t| t.len() == 19));
        for key in ["unit", "label", "id", "groupCode", "name", "records"] {
            assert!(soc.get(key).is_some(), "{key}");
        }
        let other_day = app
            .get("/api/v1/battery/BAT-0001/day?date=2020-01-01", Some(&c.ann))
            .await;
        assert_eq!(other_day.data()["infos"][0]["records"], json!([]));

        for path in [
            format!("/api/v1/batteries/{}/slave", c.master),
            "/api/v1/batteries/BAT-0001/slave".to_string(),
        ] {
            let packs = app.get(&path, Some(&c.ann)).await;
            packs.expect_code(0);
            let d = packs.data();
            assert_eq!(d["total"], 3, "{}", packs.text());
            let p = &d["infos"][0];
            assert_eq!(
                (p["no"].as_i64(), p["sn"].as_str(), p["source"].as_str()),
                (Some(1), Some("BAT-0001-P1"), Some("pack"))
            );
            for key in [
                "soc",
                "soh",
                "voltage",
                "current",
                "temp",
                "cellVoltMax",
                "cellVoltMin",
            ] {
                numeric_string(p, key);
            }
            assert_eq!(p["cellVoltMin"], "3.262");
            assert_eq!(p["cycles"], 41);
            let own = &d["infos"][2];
            assert_eq!(
                (
                    own["no"].as_i64(),
                    own["sn"].as_str(),
                    own["source"].as_str()
                ),
                (Some(3), Some("BAT-0001-X"), Some("device"))
            );
            assert_eq!(own["soc"], "74.0");
            assert!(own["soh"].is_null());
        }
    }
}

#[tokio::test]
async fn another_tenants_battery_answers_like_a_missing_one_and_only_holders_delete() {
    for app in spawn().await {
        let c = battery_plant(&app).await;
        let paths = [
            "/api/v1/battery/BAT-0001/info".to_string(),
            "/api/v1/battery/BAT-0001/realtime".to_string(),
            "/api/v1/battery/BAT-0001/day".to_string(),
            format!("/api/v1/batteries/{}/slave", c.master),
            "/api/v1/battery/NO-SUCH-BAT/info".to_string(),
            "/api/v1/battery/INV-BAT-01/info".to_string(),
        ];
        for path in &paths {
            app.get(path, Some(&c.bob)).await.expect_code(600);
        }
        app.get("/api/v1/battery/NO-SUCH-BAT/realtime", Some(&c.ann))
            .await
            .expect_code(600);
        app.get("/api/v1/battery/INV-BAT-01/realtime", Some(&c.ann))
            .await
            .expect_code(600);
        app.post("/api/v1/battery/BAT-0001/delete", json!({}), Some(&c.bob))
            .await
            .expect_code(600);
        // A visitor sees the battery but may not remove it.
        app.post(
            &format!("/api/v1/plant/{}/share", c.plant),
            json!({"account": "bob@example.com", "role": "visitor"}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        app.get("/api/v1/battery/BAT-0001/info", Some(&c.bob))
            .await
            .expect_code(0);
        app.post("/api/v1/battery/BAT-0001/delete", json!({}), Some(&c.bob))
            .await
            .expect_code(2);
        // Owners hold no battery.delete key in their built-in role.
        app.post("/api/v1/battery/BAT-0001/delete", json!({}), Some(&c.ann))
            .await
            .expect_code(2);
        app.post(
            &format!("/api/v1/battery/{}/delete", c.master),
            json!({}),
            Some(&c.admin),
        )
        .await
        .expect_code(0);
        app.get("/api/v1/battery/BAT-0001/info", Some(&c.ann))
            .await
            .expect_code(600);
        assert!(
            app.store
                .device_by_sn("BAT-0001-X")
                .await
                .expect("read")
                .is_none(),
            "its registered packs go with it"
        );
        assert!(
            app.store
                .device_by_sn("INV-BAT-01")
                .await
                .expect("read")
                .is_some()
        );
        let list = app.get("/api/v1/batteries", Some(&c.ann)).await;
        assert_eq!(list.data()["total"], 0);
    }
}
