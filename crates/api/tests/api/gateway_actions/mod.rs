//! Gateway actions over HTTP with a real device link: restart one, a comma list and a batch
//! (mixed results with totals and reasons, a timeout), the batch check, replace (the plant keeps
//! its devices and history), protocol change and the settings switch; refusals for offline,
//! upgrading, permissions; every action in the audit log.

use crate::common;
use crate::fake_gateway;
use domain::DeviceFamily;
use domain::ids::{DeviceId, PlantId};

use common::{App, fixtures, spawn};
use fake_gateway::{Mode, gateway, linked};
use serde_json::{Value, json};
use store::{
    commands::NewCommand,
    telemetry::{DayRange, TelemetryBatch},
};

struct ActionGateways {
    admin: String,
    ann: String,
    max: String,
    vic: String,
    bob: String,
    plant: i64,
    inverter: i64,
}

/// Ann's plant holds GW-ACT01 (answers; inverter INV-ACT01 with history behind it), GW-ACT02
/// (silent), GW-ACT03 (never connects); GW-NEW01 is free stock; Bob holds GW-BOB01. Max
/// maintains Ann's plant, Vic visits it.
async fn action_gateways(app: &App) -> ActionGateways {
    let admin = fixtures::admin(app).await;
    let [ann, max, vic, bob] = fixtures::owners(app, ["ann", "max", "vic", "bob"]).await;
    let mut plants = Vec::new();
    for (token, name) in [(&ann, "Ann plant"), (&bob, "Bob plant")] {
        plants.push(fixtures::plant(app, token, fixtures::madrid_plant(name, 1, 5)).await);
    }
    for sn in ["GW-ACT01", "GW-ACT02", "GW-ACT03", "GW-NEW01", "GW-BOB01"] {
        fixtures::register_hybrid_gateway(app, &admin, sn).await;
    }
    for (token, plant, sn) in [
        (&ann, plants[0], "GW-ACT01"),
        (&ann, plants[0], "GW-ACT02"),
        (&ann, plants[0], "GW-ACT03"),
        (&bob, plants[1], "GW-BOB01"),
    ] {
        fixtures::bind_gateway(app, token, plant, sn).await;
    }
    let gw = app
        .store
        .gateway_by_sn("GW-ACT01")
        .await
        .expect("gateway")
        .expect("registered");
    let inverter = app
        .store
        .upsert_device(
            "INV-ACT01",
            gw.id,
            DeviceFamily::Inverter,
            2,
            "p",
            "SUN-5K",
            None,
            1,
        )
        .await
        .expect("device");
    let mut batch = TelemetryBatch::default();
    let pv = json!({"pv1_power": 1200.0});
    batch.samples.push(fixtures::sample(
        inverter.0,
        domain::time::now_ms() - 60_000,
        &pv,
    ));
    let day = "2026-01-15";
    batch
        .energy
        .push(fixtures::energy(inverter.0, plants[0], day, "pv", 12.5));
    app.store
        .write_telemetry_batch(&batch)
        .await
        .expect("telemetry");
    fixtures::share(app, &ann, plants[0], &fixtures::MAX_AND_VIC).await;
    ActionGateways {
        admin,
        ann,
        max,
        vic,
        bob,
        plant: plants[0],
        inverter: inverter.0,
    }
}

/// A batch answer: totals and items, key by key with JSON types.
#[track_caller]
fn assert_batch(d: &Value) {
    assert_totals(d, ["total", "succeeded", "failed"]);
}

/// A check's answer: ready and refused, never "succeeded" (nothing was done yet).
#[track_caller]
fn assert_check(d: &Value) {
    assert_totals(d, ["total", "ready", "refused"]);
}

#[track_caller]
fn assert_totals(d: &Value, keys: [&str; 3]) {
    let obj = d.as_object().expect("batch object");
    assert_eq!(obj.len(), 4, "{d}");
    for k in keys {
        assert!(d[k].is_u64(), "{k} int: {d}");
    }
    let items = d["items"].as_array().expect("items");
    assert_eq!(d["total"].as_u64(), Some(items.len() as u64));
    for i in items {
        let o = i.as_object().expect("item");
        assert_eq!(o.len(), 8, "{i}");
        assert!(
            i["sn"].is_string() && i["status"].is_string() && i["msg"].is_string(),
            "{i}"
        );
        assert!(i["success"].is_boolean() && i["code"].is_i64(), "{i}");
        assert!(i["commandId"].is_i64() || i["commandId"].is_null(), "{i}");
        assert!(i["gatewayId"].is_i64() || i["gatewayId"].is_null(), "{i}");
        // Only an accepted restart has a time of acceptance.
        assert_eq!(i["acceptedAt"].is_i64(), i["status"] == "succeeded", "{i}");
        assert!(i["acceptedAt"].is_i64() || i["acceptedAt"].is_null(), "{i}");
    }
}

fn item<'a>(d: &'a Value, sn: &str) -> &'a Value {
    d["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|i| i["sn"] == sn)
        .unwrap_or_else(|| panic!("{sn} not in {d}"))
}

async fn audit_results(app: &App, admin: &str, action: &str) -> Vec<String> {
    let r = app
        .get(
            &format!("/api/v1/audit?action={action}&limit=100"),
            Some(admin),
        )
        .await;
    r.expect_code(0);
    r.data()["infos"]
        .as_array()
        .expect("infos")
        .iter()
        .map(|a| {
            format!(
                "{}:{}",
                a["target"].as_str().unwrap_or(""),
                a["result"].as_str().unwrap_or("")
            )
        })
        .collect()
}

mod protocol;
mod replace;
mod restart;
