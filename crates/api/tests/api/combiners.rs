//! Combiner boxes over HTTP on every backend: list with filters, status counts, realtime per
//! string with the weak-string flag and the state bits, day curves of the string currents,
//! month energy, alias and delete, and tenancy (another tenant's box answers 600).

use crate::common;
use domain::DeviceFamily;
use domain::ids::GatewayId;

use chrono::Utc;
use chrono_tz::Europe::Madrid;
use common::{
    App,
    fixtures::{People, bound_gateway, earlier_today, energy, is_update_at, people, plant, sample},
    spawn,
};
use serde_json::{Value, json};
use store::telemetry::{EnergyWrite, TelemetryBatch};

struct CombinerPlant {
    ann: String,
    bob: String,
    plant: i64,
}

/// Eight strings at 640 V, string 3 at `weak` A and the others near 8 A.
fn report(weak: f64, status_word: u32) -> Value {
    let mut v = json!({"power": 38000, "bus_voltage": 641.2, "total_current": 59.3,
        "temperature": 38.4, "status_word": status_word, "today_energy": 21.5,
        "total_energy": 15234.7});
    for n in 1..=8 {
        let a = if n == 3 {
            weak
        } else {
            8.0 + f64::from(n) / 10.0
        };
        v[format!("string{n}_current")] = json!(a);
        v[format!("string{n}_voltage")] = json!(640.0);
    }
    v
}

/// Ann's plant with a combiner box that reported twice today (string 3 weak in the newest
/// report, switch open) and a second box that never reported.
async fn combiner_plant(app: &App) -> CombinerPlant {
    let People { admin, ann, bob } = people(app).await;
    let plant = plant(
        app,
        &ann,
        json!({"name": "Ann string plant", "type": 1, "currency": "EUR",
            "timezone": "Europe/Madrid", "lon": -3.7, "lat": 40.4, "totalPower": 50}),
    )
    .await;
    let gw = bound_gateway(app, &admin, &ann, plant, "GW-CMB-01").await;
    let now = domain::time::now_ms();
    let s = &app.store;
    let add = |sn: &'static str| {
        s.upsert_device(
            sn,
            GatewayId(gw),
            DeviceFamily::Combiner,
            0,
            "combiner-dc16",
            "SIM-CB16",
            None,
            now,
        )
    };
    let cmb = add("CMB-0001").await.expect("combiner");
    let quiet = add("CMB-0002").await.expect("combiner 2");
    let today = Utc::now().with_timezone(&Madrid).date_naive();
    let earlier = earlier_today(now, 300_000);
    let batch = TelemetryBatch {
        samples: vec![
            sample(cmb.0, earlier, &report(7.9, 0)),
            sample(cmb.0, now, &report(2.5, 4)),
        ],
        energy: vec![EnergyWrite {
            rank: 3,
            ..energy(cmb.0, plant, today, "pv", 21.5)
        }],
    };
    s.write_telemetry_batch(&batch).await.expect("telemetry");
    s.apply_statuses(&[(cmb, 2, true), (quiet, 0, false)], &[])
        .await
        .expect("statuses");
    CombinerPlant { ann, bob, plant }
}

#[tokio::test]
async fn the_combiner_list_counts_and_realtime_show_each_string() {
    for app in spawn().await {
        let c = combiner_plant(&app).await;
        let list = app
            .get(
                "/api/v1/combiners?page=1&limit=10&status=-1&sn=&plantId=&lan=en",
                Some(&c.ann),
            )
            .await;
        list.expect_code(0);
        let d = list.data();
        assert_eq!(d["total"].as_i64(), Some(2));
        let item = d["infos"]
            .as_array()
            .and_then(|i| i.iter().find(|m| m["sn"] == "CMB-0001"))
            .expect("combiner in list");
        assert_eq!(item["status"].as_i64(), Some(2));
        assert_eq!(item["strings"].as_i64(), Some(8));
        assert_eq!(item["weakStrings"], json!([3]));
        assert_eq!(item["power"].as_f64(), Some(38000.0));
        assert_eq!(item["plant"]["id"].as_i64(), Some(c.plant));
        assert!(is_update_at(&item["updateAt"]));
        for (filter, total) in [
            ("status=2", 1),
            ("status=0", 1),
            ("sn=0002", 1),
            ("plantId=999", 0),
        ] {
            let r = app
                .get(&format!("/api/v1/combiners?{filter}"), Some(&c.ann))
                .await;
            assert_eq!(r.data()["total"].as_i64(), Some(total), "{filter}");
        }
        let count = app.get("/api/v1/combiner/status/count", Some(&c.ann)).await;
        assert_eq!(
            count.data(),
            &json!({"total": 2, "normal": 0, "offline": 1, "warning": 1, "fault": 0, "upgrading": 0})
        );

        let rt = app
            .get("/api/v1/combiner/CMB-0001/realtime", Some(&c.ann))
            .await;
        rt.expect_code(0);
        let r = rt.data();
        let strings = r["strings"].as_array().expect("strings");
        assert_eq!(strings.len(), 8);
        assert_eq!(
            strings[2],
            json!({"no": 3, "current": 2.5, "voltage": 640.0, "power": 1600.0, "weak": true})
        );
        assert_eq!(strings[0]["weak"], false);
        assert_eq!(r["judged"], true);
        assert_eq!(
            (r["fuseBlown"].as_bool(), r["surgeTripped"].as_bool()),
            (Some(false), Some(false))
        );
        assert_eq!(r["switchOpen"], true);
        assert_eq!(r["etoday"].as_f64(), Some(21.5));
        assert_eq!(r["etotal"].as_f64(), Some(15234.7));
        assert_eq!(r["busVoltage"].as_f64(), Some(641.2));
        assert_eq!(r["editable"], true);
        assert!(r["time"].is_string());

        let empty = app
            .get("/api/v1/combiner/CMB-0002/realtime", Some(&c.ann))
            .await;
        empty.expect_code(0);
        assert_eq!(empty.data()["strings"], json!([]));
        assert_eq!(empty.data()["judged"], false);
        assert!(empty.data()["fuseBlown"].is_null());

        assert_eq!(
            app.get("/api/v1/combiners", Some(&c.bob)).await.data()["total"],
            0
        );
        app.get("/api/v1/combiners", None).await.expect_401();
    }
}

#[tokio::test]
async fn day_curves_carry_the_strings_that_reported_and_month_the_energy() {
    for app in spawn().await {
        let c = combiner_plant(&app).await;
        let day = app
            .get("/api/v1/combiner/CMB-0001/day?lan=en", Some(&c.ann))
            .await;
        day.expect_code(0);
        let infos = day.data()["infos"].as_array().expect("series");
        let labels: Vec<&str> = infos.iter().filter_map(|s| s["label"].as_str()).collect();
        assert_eq!(labels.len(), 9, "{labels:?}");
        assert_eq!(labels[0], "string1");
        assert_eq!(labels[8], "power");
        let third = &infos[2];
        assert_eq!(third["unit"], "A");
        let values: Vec<&str> = third["records"]
            .as_array()
            .map(|r| r.iter().filter_map(|r| r["value"].as_str()).collect())
            .unwrap_or_default();
        assert_eq!(values, ["7.9", "2.5"]);

        let today = Utc::now().with_timezone(&Madrid).date_naive().to_string();
        let month = app
            .get(
                &format!("/api/v1/combiner/CMB-0001/month?date={}", &today[..7]),
                Some(&c.ann),
            )
            .await;
        month.expect_code(0);
        let energy = &month.data()["infos"][0];
        assert_eq!(
            (energy["label"].as_str(), energy["unit"].as_str()),
            (Some("energy"), Some("kWh"))
        );
        assert_eq!(energy["records"][0]["value"], "21.5");
        assert_eq!(energy["records"][0]["time"], today);
    }
}

#[tokio::test]
async fn another_tenant_sees_no_combiner_and_only_editors_rename_or_delete() {
    for app in spawn().await {
        let c = combiner_plant(&app).await;
        for path in [
            "/api/v1/combiner/CMB-0001/realtime",
            "/api/v1/combiner/CMB-0001/day",
            "/api/v1/combiner/CMB-0001/month",
            "/api/v1/combiner/NO-SUCH/realtime",
        ] {
            app.get(path, Some(&c.bob)).await.expect_code(600);
        }
        app.post(
            "/api/v1/combiner/CMB-0001/alias",
            json!({"alias": "Mine"}),
            Some(&c.bob),
        )
        .await
        .expect_code(600);
        app.post("/api/v1/combiner/CMB-0001/delete", json!({}), Some(&c.bob))
            .await
            .expect_code(600);
        app.post(
            "/api/v1/combiner/CMB-0001/alias",
            json!({"alias": "x".repeat(33)}),
            Some(&c.ann),
        )
        .await
        .expect_code(4);
        app.post(
            "/api/v1/combiner/CMB-0001/alias",
            json!({"alias": "Roof east"}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        let rt = app
            .get("/api/v1/combiner/CMB-0001/realtime", Some(&c.ann))
            .await;
        assert_eq!(rt.data()["devName"], "Roof east");
        // A visitor the plant is shared with sees the box but changes nothing.
        app.post(
            &format!("/api/v1/plant/{}/share", c.plant),
            json!({"account": "bob@example.com", "role": "visitor"}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        let seen = app
            .get("/api/v1/combiner/CMB-0001/realtime", Some(&c.bob))
            .await;
        seen.expect_code(0);
        assert_eq!(seen.data()["editable"], false);
        for path in ["alias", "delete"] {
            app.post(
                &format!("/api/v1/combiner/CMB-0001/{path}"),
                json!({"alias": "Bob"}),
                Some(&c.bob),
            )
            .await
            .expect_code(2);
        }
        // A gateway's SN is no combiner.
        app.get("/api/v1/combiner/GW-CMB-01/realtime", Some(&c.ann))
            .await
            .expect_code(600);
        app.post("/api/v1/combiner/CMB-0002/delete", json!({}), Some(&c.ann))
            .await
            .expect_code(0);
        assert_eq!(
            app.get("/api/v1/combiners", Some(&c.ann)).await.data()["total"],
            1
        );
    }
}
