//! Shared by the ingest tests: an owner, a plant with a bound gateway, a running ingest and
//! ways to submit telemetry to it as the MQTT link does.

#![allow(dead_code)]

use domain::ids::PlantId;
use std::{collections::BTreeMap, time::Duration};

use devices::{
    Value,
    ingest::{Ingest, IngestOptions},
    report::{DeviceReading, Item, Report, Submission, SubmissionTx, Telemetry},
};
use domain::{ids::UserId, user::UserKind};
use store::{Store, plants::PlantFields, telemetry::EnergyTotal, users::NewUser};
use tokio::sync::{mpsc, oneshot};

pub async fn owner(s: &Store) -> Result<UserId, store::StoreError> {
    s.create_user(&NewUser {
        account: "ann@example.com",
        email: "ann@example.com",
        mobile: "",
        password_hash: "h",
        nickname: "Ann",
        kind: UserKind::Owner,
        company: None,
        role: None,
        user_src: "web",
        now: 1,
    })
    .await
}

/// A plant in `tz` with a bound gateway `gsn`; answers the plant id.
pub async fn plant_with_gateway(
    s: &Store,
    user: UserId,
    tz: &str,
    gsn: &str,
) -> Result<PlantId, store::StoreError> {
    let fields = PlantFields {
        name: format!("Plant {gsn}"),
        plant_type: 2,
        total_power: 5.0,
        join_date: "2024-01-01".into(),
        currency: "EUR".into(),
        timezone: tz.into(),
        address: String::new(),
        lon: 0.0,
        lat: 30.0,
        image_url: String::new(),
        thumb_url: String::new(),
        principal: String::new(),
        phone: String::new(),
        email: String::new(),
        installer: String::new(),
        invest: 0.0,
        tilt: None,
        azimuth: None,
    };
    let plant = s.create_plant(user, None, user, &fields, 1).await?;
    let gw = s.create_gateway(gsn, "KEY", "", 1).await?;
    s.bind_gateway(gw, plant, user, None, 1).await?;
    Ok(plant)
}

pub fn spawn(s: &Store) -> (Ingest, SubmissionTx) {
    let (tx, rx) = mpsc::channel(10_000);
    let options = IngestOptions {
        max_wait: Duration::from_millis(5),
        ..IngestOptions::default()
    };
    (Ingest::spawn(s.clone(), rx, options), tx)
}

pub fn reading(sn: &str, family: &str, values: &[(&str, f64)]) -> DeviceReading {
    DeviceReading {
        sn: sn.into(),
        family: family.into(),
        type_code: if family == "inverter" { 2 } else { 0 },
        protocol: String::new(),
        model: String::new(),
        parent: None,
        values: values
            .iter()
            .map(|(k, v)| (k.to_string(), Value::Number(*v)))
            .collect::<BTreeMap<_, _>>(),
        raw: Vec::new(),
    }
}

pub async fn submit(
    tx: &SubmissionTx,
    gsn: &str,
    item: Item,
) -> Result<Result<(), String>, String> {
    let (done, answer) = oneshot::channel();
    tx.send(Submission {
        gateway_sn: gsn.into(),
        item,
        done,
    })
    .await
    .map_err(|e| e.to_string())?;
    answer.await.map_err(|e| e.to_string())
}

pub async fn telemetry(
    tx: &SubmissionTx,
    gsn: &str,
    ts: i64,
    devices: Vec<DeviceReading>,
) -> Result<(), String> {
    submit(
        tx,
        gsn,
        Item::Telemetry(Telemetry { v: 1, ts, devices }.into()),
    )
    .await?
}

/// Submits a telemetry message given as the JSON text a gateway publishes.
pub async fn telemetry_text(tx: &SubmissionTx, gsn: &str, json: &str) -> Result<(), String> {
    let report: Report = serde_json::from_str(json).map_err(|e| e.to_string())?;
    submit(tx, gsn, Item::Telemetry(report)).await?
}

/// The kWh of `metric` among `totals` (0 when absent).
pub fn kwh(totals: &[EnergyTotal], metric: &str) -> f64 {
    totals
        .iter()
        .find(|t| t.metric == metric)
        .map_or(0.0, |t| t.kwh)
}
