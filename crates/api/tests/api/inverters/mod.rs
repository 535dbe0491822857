//! Inverters over HTTP: the list and its client field types (docs/api-conventions.md, field by
//! field), one plant's list, counts, detail, every realtime port, day curves and the energy
//! bars from rollups, alias and delete rules, and tenancy (another tenant's inverter answers
//! 600 exactly like a missing one). Every test runs on SQLite and, when configured, PostgreSQL.

use crate::common;
use domain::DeviceFamily;
use domain::ids::PlantId;

use chrono::{Datelike, Duration, Utc};
use chrono_tz::Tz;
use common::{
    App,
    fixtures::{earlier_today, energy, is_update_at, madrid_plant, plant, sample},
    spawn,
};
use domain::user::BuiltinRole;
use serde_json::{Value, json};
use store::telemetry::TelemetryBatch;

mod access;
mod curves;
mod edit;
mod list;
mod realtime;

const TZ: &str = "Europe/Madrid";

struct ReportingInverters {
    ann: String,
    bob: String,
    ann_plant: i64,
    /// Single-phase LV hybrid (type 2) on Ann's plant.
    single: i64,
}

/// A storage plant of `token` in the test zone.
async fn eight_kw_storage_plant(app: &App, token: &str, name: &str) -> i64 {
    plant(app, token, madrid_plant(name, 2, 8)).await
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
async fn reporting_inverters(app: &App) -> ReportingInverters {
    let (ann_id, ann) = app
        .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let (bob_id, bob) = app
        .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let ann_plant = eight_kw_storage_plant(app, &ann, "Ann storage plant").await;
    let bob_plant = eight_kw_storage_plant(app, &bob, "Bob storage plant").await;
    let s = &app.store;
    let gw = s
        .create_gateway(
            "GW-ANN-0001",
            "KEY12345",
            "deye-hybrid-1ph",
            domain::time::now_ms(),
        )
        .await
        .expect("gateway");
    s.bind_gateway(gw, PlantId(ann_plant), ann_id, None, domain::time::now_ms())
        .await
        .expect("bind");
    let bgw = s
        .create_gateway(
            "GW-BOB-0001",
            "KEY12345",
            "deye-hybrid-1ph",
            domain::time::now_ms(),
        )
        .await
        .expect("gateway");
    s.bind_gateway(
        bgw,
        PlantId(bob_plant),
        bob_id,
        None,
        domain::time::now_ms(),
    )
    .await
    .expect("bind");
    let single = s
        .upsert_device(
            "2306012345",
            gw,
            DeviceFamily::Inverter,
            2,
            "deye-hybrid-1ph",
            "SUN-5K-SG03LP1",
            None,
            domain::time::now_ms(),
        )
        .await
        .expect("device");
    let three = s
        .upsert_device(
            "2306099999",
            gw,
            DeviceFamily::Inverter,
            93,
            "deye-hybrid-3ph-lv",
            "SUN-12K-SG04LP3",
            None,
            domain::time::now_ms(),
        )
        .await
        .expect("device");
    let bobs = s
        .upsert_device(
            "BOB-INV-01",
            bgw,
            DeviceFamily::Inverter,
            2,
            "deye-hybrid-1ph",
            "",
            None,
            domain::time::now_ms(),
        )
        .await
        .expect("device");
    // Two reports today 5 minutes apart (the newest is the realtime one), energy today and on
    // two earlier days of earlier months.
    let t = earlier_today(domain::time::now_ms(), 60_000);
    let day = today();
    let older = day - Duration::days(40);
    let oldest = chrono::NaiveDate::from_ymd_opt(day.year() - 1, 6, 15).expect("date");
    let mut batch = TelemetryBatch::default();
    for (device, values) in [
        (single, single_phase_values()),
        (three, three_phase_values()),
        (bobs, single_phase_values()),
    ] {
        batch
            .samples
            .push(sample(device.0, earlier_today(t, 300_000), &values));
        batch.samples.push(sample(device.0, t, &values));
    }
    for (d, kwh) in [(day, 12.5), (older, 20.0), (oldest, 7.25)] {
        let d = d.to_string();
        batch
            .energy
            .push(energy(single.0, ann_plant, &d, "pv", kwh));
        batch
            .energy
            .push(energy(single.0, ann_plant, &d, "charge", 3.0));
        batch
            .energy
            .push(energy(single.0, ann_plant, &d, "discharge", 2.0));
        batch
            .energy
            .push(energy(single.0, ann_plant, &d, "grid_import", 1.5));
        batch
            .energy
            .push(energy(single.0, ann_plant, &d, "grid_export", 4.0));
        batch
            .energy
            .push(energy(single.0, ann_plant, &d, "load", 9.0));
    }
    s.write_telemetry_batch(&batch).await.expect("telemetry");
    ReportingInverters {
        ann,
        bob,
        ann_plant,
        single: single.0,
    }
}

fn keys_present(v: &Value, keys: &[&str], ctx: &str) {
    for k in keys {
        assert!(
            v.as_object().is_some_and(|o| o.contains_key(*k)),
            "{ctx}: key {k} missing in {v}"
        );
    }
}
