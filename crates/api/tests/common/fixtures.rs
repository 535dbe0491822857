//! Fixture pieces the monitoring tests share (batteries, meters and weather stations, plant
//! monitoring, inverters): the people, a plant, a gateway bound to it, samples and energy rows,
//! and the checks of the client field types.

use domain::user::BuiltinRole;
use serde_json::Value;
use store::telemetry::{CounterKind, EnergyWrite, SampleWrite};

use super::App;

/// The internal admin, and Ann and Bob (plant owners), signed in: their access tokens.
pub struct People {
    pub admin: String,
    pub ann: String,
    pub bob: String,
}

pub async fn people(app: &App) -> People {
    let (_, admin) = app
        .signed_in("admin@example.com", BuiltinRole::InternalAdmin, None)
        .await;
    let (_, ann) = app
        .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let (_, bob) = app
        .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
        .await;
    People { admin, ann, bob }
}

/// A plant created over HTTP by `token` from `body`: its id.
pub async fn plant(app: &App, token: &str, body: Value) -> i64 {
    let r = app.post("/api/v1/plant", body, Some(token)).await;
    r.expect_code(0);
    r.data().as_i64().expect("plant id")
}

/// Gateway `sn` created by the admin and bound by the plant's owner to `plant`: its id.
pub async fn bound_gateway(app: &App, admin: &str, owner: &str, plant: i64, sn: &str) -> i64 {
    let key = serde_json::json!({"sn": sn, "key": "KEY123"});
    app.post("/api/v1/gateway/create", key.clone(), Some(admin))
        .await
        .expect_code(0);
    app.post(&format!("/api/v1/plant/{plant}/gateway"), key, Some(owner))
        .await
        .expect_code(0);
    app.store
        .gateway_by_sn(sn)
        .await
        .expect("gateway")
        .expect("gateway row")
        .id
}

/// A report of `device_id` at `ts`.
pub fn sample(device_id: i64, ts: i64, payload: &Value) -> SampleWrite {
    SampleWrite {
        device_id,
        ts,
        payload: payload.to_string(),
    }
}

/// A day's energy row of `metric` (kWh), a daily counter of rank 0; change `kind` and `rank`
/// with `EnergyWrite { rank: 2, ..energy(..) }`.
pub fn energy(device: i64, plant: i64, day: impl ToString, metric: &str, kwh: f64) -> EnergyWrite {
    EnergyWrite {
        device_id: device,
        plant_id: Some(plant),
        day: day.to_string(),
        metric: metric.into(),
        value: kwh,
        kind: CounterKind::Daily,
        rank: 0,
    }
}

/// `updateAt`: UTC as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn is_update_at(v: &Value) -> bool {
    v.as_str().is_some_and(|s| {
        s.len() == 20 && chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%SZ").is_ok()
    })
}

/// `v[key]` is a number sent as a string (API_CONVENTIONS.md).
#[track_caller]
pub fn numeric_string(v: &Value, key: &str) {
    let s = v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} is not a string: {}", v[key]));
    assert!(s.parse::<f64>().is_ok(), "{key}: {s}");
}
