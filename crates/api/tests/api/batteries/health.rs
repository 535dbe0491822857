//! A battery's health over HTTP on every backend: a synthetic full discharge fed through the
//! real ingest path, the daily rows computed as the battery health job does, and the capacity
//! measured from it checked against the hand-computed value; the span's bounds; and tenancy
//! (another tenant's battery answers 600).

use std::{collections::BTreeMap, time::Duration};

use chrono::{Duration as Days, Utc};
use devices::{
    Value,
    ingest::{Ingest, IngestOptions},
    report::{DeviceReading, Item, Submission, SubmissionTx, Telemetry},
};
use serde_json::json;
use tokio::sync::{mpsc, oneshot};

use crate::common::{
    App,
    fixtures::{People, bound_gateway, people, plant},
    spawn,
};

const STEP_MS: i64 = 5 * 60_000;

/// One report of the stack at step `k` of a discharge at 20 A and 50 V from 96 % SOC of a
/// 100 Ah stack: 1.6667 points of SOC a step. Cell 3 is the highest, cell 1 the lowest.
fn report(k: i64) -> DeviceReading {
    let values = [
        ("soc", 96.0 - 20.0 / 12.0 * k as f64),
        ("soh", 97.0),
        ("cycles", 40.0),
        ("capacity_full", 100.0),
        ("voltage", 50.0),
        ("current", 20.0),
        ("power", 1000.0),
        ("cell1_voltage", 3.290),
        ("cell2_voltage", 3.300),
        ("cell3_voltage", 3.315),
    ];
    DeviceReading {
        sn: "BAT-H1".into(),
        family: "battery".into(),
        type_code: 0,
        protocol: "bms-lv-stack".into(),
        model: "SIM-BMS".into(),
        parent: None,
        values: values
            .iter()
            .map(|(k, v)| (k.to_string(), Value::Number(*v)))
            .collect::<BTreeMap<_, _>>(),
        raw: Vec::new(),
    }
}

async fn send(tx: &SubmissionTx, ts: i64, reading: DeviceReading) {
    let (done, answer) = oneshot::channel();
    let item = Item::Telemetry(
        Telemetry {
            v: 1,
            ts,
            devices: vec![reading],
        }
        .into(),
    );
    tx.send(Submission {
        gateway_sn: "GW-HEALTH".into(),
        item,
        done,
    })
    .await
    .expect("ingest running");
    answer
        .await
        .expect("ingest answers")
        .expect("report accepted");
}

/// Ann's UTC plant with a bound gateway, and 50 reports of a full discharge of its battery
/// from 06:00 two days ago, through ingest; the health days computed. Answers the day.
async fn discharged(app: &App, p: &People) -> String {
    let plant = plant(
        app,
        &p.ann,
        json!({"name": "Ann health plant", "type": 2, "currency": "EUR",
            "timezone": "UTC", "lon": 0.0, "lat": 40.0, "totalPower": 5}),
    )
    .await;
    bound_gateway(app, &p.admin, &p.ann, plant, "GW-HEALTH").await;
    let (tx, rx) = mpsc::channel(100);
    let options = IngestOptions {
        max_wait: Duration::from_millis(5),
        ..IngestOptions::default()
    };
    let ingest = Ingest::spawn(app.store.clone(), rx, options);
    let day = Utc::now().date_naive() - Days::days(2);
    let start = day
        .and_hms_opt(6, 0, 0)
        .expect("06:00")
        .and_utc()
        .timestamp_millis();
    for k in 0..50 {
        send(&tx, start + k * STEP_MS, report(k)).await;
    }
    drop(tx);
    ingest.join().await;
    let done = service::battery_health::refresh_all(&app.store, domain::time::now_ms())
        .await
        .expect("health days");
    assert_eq!(done.batteries, 1);
    assert_eq!(done.days, 1, "only the day with reports has a row");
    day.format("%Y-%m-%d").to_string()
}

#[tokio::test]
async fn a_full_discharge_through_ingest_measures_the_capacity() {
    for app in spawn().await {
        let p = people(&app).await;
        let day = discharged(&app, &p).await;
        let r = app.get("/api/v1/battery/BAT-H1/health", Some(&p.ann)).await;
        r.expect_code(0);
        let h = r.data();
        assert_eq!(h["sn"], "BAT-H1");
        let days = h["days"].as_array().expect("days");
        assert_eq!(days.len(), 1, "{}", r.text());
        let d = &days[0];
        assert_eq!(d["day"], day.as_str());
        assert_eq!(d["soh"], 97.0);
        assert_eq!(d["bmsCycles"], 40.0);
        // 3.315 - 3.290 V, the same cells in every report.
        assert_eq!(d["spreadMv"], 25.0);
        assert_eq!(d["highCell"], json!({"pack": null, "cell": 3}));
        assert_eq!(d["lowCell"], json!({"pack": null, "cell": 1}));
        // No energy counters: 49 intervals of 1 kW × 5 min = 4.083 kWh out, from the power;
        // over one full discharge of 100 Ah × 50 V = 5 kWh: 0.817 cycles.
        assert_eq!(d["dischargeKwh"], 4.08);
        assert_eq!(d["chargeKwh"], 0.0);
        assert_eq!(d["efcDay"], 0.817);
        assert_eq!(h["efcTotal"], 0.82);

        // The swing: from the report at 96 % to the first at or below 20 % (step 46, 19.33 %):
        // 46 × 20 A × 5 min = 76.667 Ah over 76.667 points of SOC = 100.0 Ah; 3.833 kWh over
        // them = 5.0 kWh. The BMS claims 97 % × 100 Ah = 97 Ah: 103.1 %, 3.0 Ah more.
        let cycles = h["cycles"].as_array().expect("cycles");
        assert_eq!(cycles.len(), 1, "{}", r.text());
        let c = &cycles[0];
        assert_eq!(c["kind"], "discharge");
        assert_eq!(c["start"], format!("{day} 06:00:00"));
        assert_eq!(c["end"], format!("{day} 09:50:00"));
        assert_eq!(c["socFrom"], 96.0);
        assert_eq!(c["movedAh"], 76.67);
        assert_eq!(c["movedKwh"], 3.833);
        assert_eq!(c["measuredAh"], 100.0);
        assert_eq!(c["measuredKwh"], 5.0);
        assert_eq!(c["bmsAh"], 97.0);
        assert_eq!(c["ratioPct"], 103.1);
        assert_eq!(c["differenceAh"], 3.0);
        assert_eq!(
            (h["soh"].clone(), h["bmsAh"].clone()),
            (json!(97.0), json!(97.0))
        );

        // A span without the day: no days, no cycles, the figures null rather than 0.
        let empty = app
            .get(
                "/api/v1/battery/BAT-H1/health?from=2020-01-01&to=2020-01-31",
                Some(&p.ann),
            )
            .await;
        empty.expect_code(0);
        let e = empty.data();
        assert_eq!(e["days"], json!([]));
        assert!(e["soh"].is_null() && e["bmsAh"].is_null() && e["efcTotal"].is_null());
        // Computing again changes nothing.
        service::battery_health::refresh_all(&app.store, domain::time::now_ms())
            .await
            .expect("again");
        let again = app.get("/api/v1/battery/BAT-H1/health", Some(&p.ann)).await;
        assert_eq!(again.data()["cycles"], h["cycles"]);
    }
}

#[tokio::test]
async fn the_span_is_checked_and_others_batteries_are_not_found() {
    for app in spawn().await {
        let p = people(&app).await;
        discharged(&app, &p).await;
        for (query, field) in [
            ("from=2026-02-01&to=2026-01-01", "to"),
            ("from=2010-01-01&to=2026-01-01", "to"),
            ("from=01/02/2026", "from"),
            ("to=2026-1-1", "to"),
        ] {
            let r = app
                .get(
                    &format!("/api/v1/battery/BAT-H1/health?{query}"),
                    Some(&p.ann),
                )
                .await;
            r.expect_code(4);
            assert!(r.text().contains(field), "{query}: {}", r.text());
        }
        app.get("/api/v1/battery/BAT-H1/health", Some(&p.bob))
            .await
            .expect_code(600);
        app.get("/api/v1/battery/NO-SUCH/health", Some(&p.ann))
            .await
            .expect_code(600);
    }
}
