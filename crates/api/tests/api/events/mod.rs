//! Events over HTTP: the `/events` list of docs/api-conventions.md, a plant's events and counts, a
//! device's events, the last hour, user and overview counts, messages (count, list, read) and
//! the operation-data downloads; another tenant's events are never listed.

use crate::common;
use domain::DeviceFamily;
use domain::ids::{DeviceId, PlantId};

use common::{App, fixtures, spawn};
use domain::user::BuiltinRole;
use serde_json::{Value, json};

mod counts;
mod detection;
mod list;
mod messages;
mod operation_data;

struct EventPlants {
    admin: String,
    ann_id: i64,
    ann: String,
    bob: String,
    ann_plant: i64,
    bob_plant: i64,
    /// Ann's inverter, battery; Bob's inverter (device ids).
    ann_inv: i64,
    ann_bat: i64,
    bob_inv: i64,
}

/// A gateway on `plant` with the given devices behind it; answers the device ids.
async fn gateway(
    app: &App,
    admin: &str,
    owner: &str,
    plant: i64,
    sn: &str,
    devices: &[(&str, DeviceFamily, i64)],
) -> Vec<i64> {
    app.post(
        "/api/v1/gateway/create",
        json!({"sn": sn, "key": "KEY12345", "protocol": "deye-hybrid-1ph"}),
        Some(admin),
    )
    .await
    .expect_code(0);
    app.post(
        &format!("/api/v1/plant/{plant}/gateway"),
        json!({"sn": sn, "key": "KEY12345"}),
        Some(owner),
    )
    .await
    .expect_code(0);
    let gw = app
        .store
        .gateway_by_sn(sn)
        .await
        .expect("gateway")
        .expect("registered")
        .id;
    let mut ids = Vec::new();
    for (dsn, family, type_code) in devices {
        ids.push(
            app.store
                .upsert_device(dsn, gw, *family, *type_code, "p", "M1", None, 1)
                .await
                .expect("device")
                .0,
        );
    }
    ids
}

async fn event_plants(app: &App) -> EventPlants {
    let (_, admin) = app
        .signed_in("admin@example.com", BuiltinRole::InternalAdmin, None)
        .await;
    let (ann_id, ann) = app
        .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let (_, bob) = app
        .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let ann_plant = fixtures::storage_plant(app, &ann, "Ann home plant").await;
    let bob_plant = fixtures::storage_plant(app, &bob, "Bob home plant").await;
    let ann_devices = gateway(
        app,
        &admin,
        &ann,
        ann_plant,
        "GW-ANN01",
        &[
            ("INV-ANN01", DeviceFamily::Inverter, 2),
            ("BAT-ANN01", DeviceFamily::Battery, 0),
        ],
    )
    .await;
    let bob_devices = gateway(
        app,
        &admin,
        &bob,
        bob_plant,
        "GW-BOB01",
        &[("INV-BOB01", DeviceFamily::Inverter, 2)],
    )
    .await;
    EventPlants {
        admin,
        ann_id: ann_id.0,
        ann,
        bob,
        ann_plant,
        bob_plant,
        ann_inv: ann_devices[0],
        ann_bat: ann_devices[1],
        bob_inv: bob_devices[0],
    }
}

/// Ann: an open fault and a closed warning on her inverter, an open battery fault. Bob: one
/// open warning.
async fn events(app: &App, c: &EventPlants) {
    let t = domain::time::now_ms();
    let s = &app.store;
    assert!(
        s.open_event(
            DeviceId(c.ann_inv),
            Some(PlantId(c.ann_plant)),
            "F01",
            "fault",
            t - 60_000
        )
        .await
        .expect("event")
    );
    assert!(
        s.open_event(
            DeviceId(c.ann_inv),
            Some(PlantId(c.ann_plant)),
            "W02",
            "warning",
            t - 7_200_000
        )
        .await
        .expect("event")
    );
    assert!(
        s.close_event(DeviceId(c.ann_inv), "W02", t - 3_000_000)
            .await
            .expect("event")
    );
    let battery_code = devices::events::of_family(devices::DeviceFamily::Battery)
        .find(|e| e.severity == devices::events::EventSeverity::Fault)
        .expect("a battery fault")
        .code
        .clone();
    assert!(
        s.open_event(
            DeviceId(c.ann_bat),
            Some(PlantId(c.ann_plant)),
            &battery_code,
            "fault",
            t - 30_000
        )
        .await
        .expect("event")
    );
    assert!(
        s.open_event(
            DeviceId(c.bob_inv),
            Some(PlantId(c.bob_plant)),
            "W02",
            "warning",
            t - 10_000
        )
        .await
        .expect("event")
    );
}

/// Every key of an event item with its JSON type.
#[track_caller]
fn assert_event(e: &Value) {
    for key in [
        "code",
        "sn",
        "deviceType",
        "severity",
        "status",
        "occurTime",
        "updateAt",
    ] {
        assert!(e[key].is_string(), "{key} string: {e}");
    }
    for key in ["meaning", "solution"] {
        assert!(e[key].as_str().is_some_and(|s| !s.is_empty()), "{key}: {e}");
    }
    for key in ["id", "plantId", "type", "level"] {
        assert!(e[key].is_i64(), "{key} int: {e}");
    }
    assert!(e["plantName"].is_string(), "{e}");
    assert!(matches!(
        e["severity"].as_str(),
        Some("info" | "warning" | "fault")
    ));
    assert!(matches!(e["status"].as_str(), Some("open" | "closed")));
    assert!(e["recoverTime"].is_null() || e["recoverTime"].is_string());
    assert_eq!(e["status"] == "open", e["recoverTime"].is_null(), "{e}");
    let occur = e["occurTime"].as_str().unwrap_or_default();
    assert_eq!(occur.len(), 19, "YYYY-MM-DD HH:MM:SS: {occur}");
    let update = e["updateAt"].as_str().unwrap_or_default();
    assert!(update.len() == 20 && update.ends_with('Z'), "{update}");
}
