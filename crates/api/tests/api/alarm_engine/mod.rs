//! The alarm engine end to end: a company's rules over HTTP (rights, validation), and for each
//! rule kind a case opened by readings written the way ingest writes them and closed on
//! recovery, by calling the engine's tick with a chosen `now`; the night, an offline gateway and
//! a second tick open nothing more; a user who cannot see the plant neither sees nor
//! acknowledges its case.

use crate::common;

mod acknowledge;
mod cases;
mod delivery;
mod device_silent;
mod digest;
mod events;
mod production;
mod push;
mod rules;

use common::{App, fixtures};
use domain::{
    DeviceFamily,
    ids::{CompanyId, DeviceId, GatewayId, PlantId, UserId},
    user::BuiltinRole,
};
use serde_json::Value;
use store::{plants::PlantFields, telemetry::TelemetryBatch};

const MIN: i64 = 60_000;
/// 2027-06-21T12:00:00Z: the sun some 72 degrees over Madrid.
const NOON: i64 = 1_813_579_200_000;
/// 2027-06-21T00:00:00Z: night in Madrid.
const MIDNIGHT: i64 = 1_813_536_000_000;
/// The gateways' upload cycle (the default), seconds.
const CYCLE: i64 = 300;

/// A company with an administrator, a staff member and a customer (Ann) whose plant it
/// serves, with one gateway; Bob owns nothing of it.
struct World {
    company: CompanyId,
    admin: String,
    staff: String,
    ann: String,
    ann_id: UserId,
    bob: String,
    plant: PlantId,
    gateway: GatewayId,
    gateway_sn: String,
}

async fn world(app: &App) -> World {
    let company = app.company("Sunny Installers").await;
    let (_, admin) = app
        .signed_in("ivan@example.com", BuiltinRole::CompanyAdmin, Some(company))
        .await;
    let (_, staff) = app
        .signed_in("sara@example.com", BuiltinRole::CompanyStaff, Some(company))
        .await;
    let (ann_id, ann) = app
        .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let (_, bob) = app
        .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let plant = plant(app, ann_id, company, "North roof").await;
    let gateway_sn = "GWALARM01".to_string();
    let gateway = gateway(app, plant, ann_id, company, &gateway_sn).await;
    World {
        company,
        admin,
        staff,
        ann,
        ann_id,
        bob,
        plant,
        gateway,
        gateway_sn,
    }
}

async fn plant(app: &App, owner: UserId, company: CompanyId, name: &str) -> PlantId {
    let fields = PlantFields {
        plant_type: 2,
        ..crate::alarm_mail::fields(name)
    };
    app.store
        .create_plant(owner, Some(company), owner, &fields, domain::time::now_ms())
        .await
        .expect("plant")
}

async fn gateway(
    app: &App,
    plant: PlantId,
    owner: UserId,
    company: CompanyId,
    sn: &str,
) -> GatewayId {
    let id = app
        .store
        .create_gateway(sn, "KEY12345", "", domain::time::now_ms())
        .await
        .expect("gateway");
    app.store
        .bind_gateway(id, plant, owner, Some(company), domain::time::now_ms())
        .await
        .expect("bound");
    id
}

async fn device(app: &App, gateway: GatewayId, sn: &str, family: DeviceFamily) -> DeviceId {
    app.store
        .upsert_device(
            sn,
            gateway,
            family,
            2,
            "p",
            "M1",
            None,
            domain::time::now_ms(),
        )
        .await
        .expect("device")
}

/// The gateway's newest message arrived at `at`.
async fn heard(app: &App, sn: &str, at: i64) {
    app.store
        .gateways_heard(&[(sn.to_string(), at)])
        .await
        .expect("heard");
}

/// Reports of `device` at each of `times`, each with `payload`.
async fn report(app: &App, device: DeviceId, times: &[i64], payload: &Value) {
    let batch = TelemetryBatch {
        samples: times
            .iter()
            .map(|t| fixtures::sample(device.0, *t, payload))
            .collect(),
        energy: Vec::new(),
    };
    app.store
        .write_telemetry_batch(&batch)
        .await
        .expect("telemetry");
}

/// One engine tick at `now`.
async fn tick(app: &App, now: i64) -> jobs::alarm_engine::Tick {
    jobs::alarm_engine::tick(&app.store, now)
        .await
        .expect("tick")
}

/// The cases `token` sees with `query` (`state=open&kind=...`).
async fn cases(app: &App, token: &str, query: &str) -> Vec<Value> {
    let r = app
        .get(
            &format!("/api/v1/alarm/cases?limit=100&{query}"),
            Some(token),
        )
        .await;
    r.expect_code(0);
    r.data()["infos"].as_array().cloned().unwrap_or_default()
}

/// Only the rule of `kind` stays enabled in `company`, so a test sees its cases alone.
async fn only(app: &App, w: &World, kind: &str) {
    let r = app.get("/api/v1/alarm/rules", Some(&w.admin)).await;
    r.expect_code(0);
    for rule in r.data().as_array().expect("rules") {
        let enabled = rule["kind"] == kind;
        let id = rule["id"].as_i64().expect("id");
        app.post(
            &format!("/api/v1/alarm/rule/{id}"),
            serde_json::json!({"enabled": enabled}),
            Some(&w.admin),
        )
        .await
        .expect_code(0);
    }
}
