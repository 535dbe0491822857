//! Ingest throughput on SQLite: 1,000 devices × 100 values per report, submitted through the
//! channel as the MQTT link would, measured until every submission is answered (committed).
//! Run by hand: `cargo test --release -p devices --test devices ingest_throughput -- --ignored --nocapture`.

use std::{collections::BTreeMap, time::Instant};

use chrono::Utc;
use devices::{
    Value,
    ingest::{Ingest, IngestOptions},
    report::{DeviceReading, Item, Submission, Telemetry},
};
use tokio::sync::{mpsc, oneshot};

type TestResult = Result<(), Box<dyn std::error::Error>>;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "benchmark; run by hand in release"]
async fn ingest_sustains_100k_points_per_second_on_sqlite() -> TestResult {
    let s = store::testing::sqlite().await?;
    let gateways = 100;
    let per_gateway = 10;
    for g in 0..gateways {
        s.create_gateway(&format!("GW{g}"), "K", "", 1).await?;
    }
    let (tx, rx) = mpsc::channel(20_000);
    let ingest = Ingest::spawn(s.clone(), rx, IngestOptions::default());
    let rounds = 20;
    let base = Utc::now().timestamp_millis() - 3_600_000;
    let started = Instant::now();
    let mut answers = Vec::new();
    let mut points = 0u64;
    for r in 0..rounds {
        for g in 0..gateways {
            let devices: Vec<DeviceReading> = (0..per_gateway)
                .map(|d| DeviceReading {
                    sn: format!("INV{g}-{d}"),
                    family: "inverter".into(),
                    type_code: 2,
                    protocol: "deye-hybrid-1ph".into(),
                    model: String::new(),
                    parent: None,
                    values: (0..100)
                        .map(|k| {
                            let key = if k == 0 {
                                "today_pv_energy".to_string()
                            } else {
                                format!("v{k}")
                            };
                            (key, Value::Number(f64::from(r * 100 + k) * 0.5))
                        })
                        .collect::<BTreeMap<_, _>>(),
                    raw: Vec::new(),
                })
                .collect();
            points += 100 * per_gateway as u64;
            let (done, answer) = oneshot::channel();
            tx.send(Submission {
                gateway_sn: format!("GW{g}"),
                item: Item::Telemetry(
                    Telemetry {
                        v: 1,
                        ts: base + i64::from(r) * 1000,
                        devices,
                    }
                    .into(),
                ),
                done,
            })
            .await?;
            answers.push(answer);
        }
    }
    for a in answers {
        a.await??;
    }
    let secs = started.elapsed().as_secs_f64();
    let reports = f64::from(rounds) * f64::from(gateways) * per_gateway as f64;
    println!(
        "ingest: {reports} device reports, {points} points in {secs:.2} s = {:.0} points/s, {:.0} device reports/s",
        points as f64 / secs,
        reports / secs
    );
    // Realtime read of a device's latest values while idle (cache hit).
    let id = s.device_by_sn("INV0-0").await?.ok_or("device")?.id;
    let t = Instant::now();
    for _ in 0..1000 {
        ingest.latest(id).await?;
    }
    println!(
        "latest read: {:.1} µs each",
        t.elapsed().as_secs_f64() * 1000.0
    );
    drop(tx);
    ingest.join().await;
    Ok(())
}
