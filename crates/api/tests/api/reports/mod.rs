//! Plant reports, predicted generation and the monthly report e-mail over HTTP on every
//! backend: the report's figures equal the plant energy endpoints', the workbook carries the
//! same numbers, another tenant's plant answers 4 `id`, the predicted import checks row by
//! row, the charts gain a `predicted` series, and the monthly job queues one mail per month.

use crate::common;
use domain::DeviceFamily;
use domain::ids::{GatewayId, PlantId};

use std::io::Cursor;

use calamine::{Data as XlsData, Reader, Xlsx};
use chrono::{Datelike, Duration, NaiveDate, NaiveTime, TimeZone, Utc};
use chrono_tz::Europe::London;
use common::{
    App,
    fixtures::{People, bound_gateway, energy, people, plant, sample},
    spawn,
};
use serde_json::{Value, json};
use store::telemetry::{EnergyWrite, TelemetryBatch};

struct ReportedPlant {
    ann: String,
    bob: String,
    plant: i64,
    bob_plant: i64,
    today: NaiveDate,
}

/// Ann's storage plant (0.20 GBP/kWh) with a hybrid inverter: energy on every day of this
/// month so far and of last month, PV readings through today, one fault today. Bob has a
/// plant of his own.
async fn reported_plant(app: &App) -> ReportedPlant {
    let People { admin, ann, bob } = people(app).await;
    let plant = plant(
        app,
        &ann,
        json!({"name": "Ann report plant", "type": 2, "currency": "GBP",
            "timezone": "Europe/London", "lon": -0.7, "lat": 51.3, "totalPower": 8,
            "charges": [{"type": 1, "price": 0.2}]}),
    )
    .await;
    let bob_plant = common::fixtures::plant(
        app,
        &bob,
        json!({"name": "Bob plant", "type": 1, "currency": "GBP", "timezone": "Europe/London", "lon": 0, "lat": 51, "totalPower": 3}),
    )
    .await;
    let gw = bound_gateway(app, &admin, &ann, plant, "GW-REP-01").await;
    let now = domain::time::now_ms();
    let s = &app.store;
    let inverter = s
        .upsert_device(
            "INV-REP-1",
            GatewayId(gw),
            DeviceFamily::Inverter,
            2,
            "deye-hybrid-1ph",
            "SIM",
            None,
            now,
        )
        .await
        .expect("inverter");
    let today = Utc::now().with_timezone(&London).date_naive();
    let mut writes: Vec<EnergyWrite> = Vec::new();
    let first = (today.with_day(1).expect("day 1") - Duration::days(1))
        .with_day(1)
        .expect("day 1");
    let mut d = first;
    let mut n = 0.0;
    while d <= today {
        n += 1.0;
        for (metric, kwh) in [
            ("pv", 10.0 + n / 4.0),
            ("load", 8.0 + n / 10.0),
            ("grid_import", 1.25),
            ("grid_export", 2.5),
            ("charge", 3.0),
            ("discharge", 2.0),
        ] {
            writes.push(energy(inverter.0, plant, d, metric, kwh));
        }
        // Half a kWh of the charge came from the grid (ingest's interval sums).
        writes.push(EnergyWrite {
            kind: store::telemetry::CounterKind::Sum,
            ..energy(inverter.0, plant, d, "grid_charge", 0.5)
        });
        d += Duration::days(1);
    }
    let midnight = London
        .from_local_datetime(&today.and_time(NaiveTime::MIN))
        .earliest()
        .map_or(0, |t| t.timestamp_millis());
    // A reading every 5 minutes from midnight to now: PV peaks at 2400 W mid-way (in the
    // middle reading, so also when the day is minutes old and has only one or two).
    let steps = ((now - midnight) / 300_000).max(1);
    let middle = steps / 2;
    let samples = (0..steps)
        .map(|i| {
            let off_peak = (i - middle).abs() as f64 / middle.max(1) as f64;
            let pv = 2400.0 - 1800.0 * off_peak;
            let report = json!({"pv1_power": pv, "load_power": 500, "grid_power": 100,
                "battery_power": -200, "battery_soc": 60});
            sample(inverter.0, midnight + i * 300_000 + 1000, &report)
        })
        .collect();
    s.write_telemetry_batch(&TelemetryBatch {
        samples,
        energy: writes,
    })
    .await
    .expect("telemetry");
    s.open_event(
        inverter,
        Some(PlantId(plant)),
        "F01",
        "fault",
        (midnight + 60_000).min(now),
    )
    .await
    .expect("event");
    ReportedPlant {
        ann,
        bob,
        plant,
        bob_plant,
        today,
    }
}

/// `label`'s records of an energy answer as (time, kWh).
fn records(answer: &Value, label: &str) -> Vec<(String, f64)> {
    answer["infos"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|s| s["label"] == label)
        .flat_map(|s| s["records"].as_array().cloned().unwrap_or_default())
        .map(|r| {
            let v = r["value"]
                .as_str()
                .and_then(|v| v.parse().ok())
                .unwrap_or(f64::NAN);
            (r["time"].as_str().unwrap_or_default().to_string(), v)
        })
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.011
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or(f64::NAN)
}

mod figures;
mod monthly;
mod predicted;
