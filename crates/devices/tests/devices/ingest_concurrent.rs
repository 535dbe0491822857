//! Ingest with several batch writes in flight (PostgreSQL's default; forced here on every
//! backend): every report is answered after its commit, the newest report of a device wins
//! whatever order batches commit in, a plant's day sums every device's day, and a gateway's
//! status applies after the reports it sent before it.

use crate::ingest_common;

use std::time::Duration;

use chrono::Utc;
use devices::{
    ingest::{Ingest, IngestOptions},
    report::{GatewayStatus, Item, Submission, Telemetry},
};
use ingest_common::*;
use store::telemetry::DayRange;
use store::testing::{TestResult, each_backend};
use tokio::sync::{mpsc, oneshot};

const DEVICES: i64 = 20;
const REPORTS: i64 = 300;

#[tokio::test]
async fn batches_written_at_once_keep_the_newest_values_and_whole_plant_days() -> TestResult {
    each_backend(|s| async move {
        let ann = owner(&s).await?;
        let plant = plant_with_gateway(&s, ann, "UTC", "GWC").await?;
        let (tx, rx) = mpsc::channel(10_000);
        // Small batches, four at a time: many writes overlap, each holding a few devices.
        let options = IngestOptions {
            max_batch: 7,
            max_wait: Duration::ZERO,
            writes_in_flight: 4,
            ..IngestOptions::default()
        };
        let ingest = Ingest::spawn(s.clone(), rx, options);
        // Reports a second apart from an hour ago, so all on today's UTC day (or yesterday's
        // just after midnight: the day is read from the last report).
        let base = Utc::now().timestamp_millis() - 3_600_000;
        let mut answers = Vec::new();
        for i in 0..REPORTS {
            let (done, answer) = oneshot::channel();
            let device = format!("C{}", i % DEVICES);
            let values = [("today_pv_energy", i as f64 * 0.1), ("pv1_power", i as f64)];
            tx.send(Submission {
                gateway_sn: "GWC".into(),
                item: Item::Telemetry(
                    Telemetry {
                        v: 1,
                        ts: base + i * 1000,
                        devices: vec![reading(&device, "inverter", &values)],
                    }
                    .into(),
                ),
                done,
            })
            .await?;
            answers.push(answer);
        }
        // Sent behind the reports, without waiting for them: it must apply after them.
        let offline = Item::Status(GatewayStatus {
            v: 1,
            online: false,
            soft_ver: None,
            hard_ver: None,
            signal: None,
            comm_type: None,
            upload_cycle: None,
        });
        let status = submit(&tx, "GWC", offline);
        for a in answers {
            a.await??;
        }
        status.await??;

        let last = base + (REPORTS - 1) * 1000;
        let day = chrono::DateTime::from_timestamp_millis(last)
            .ok_or("time")?
            .format("%Y-%m-%d")
            .to_string();
        let mut plant_pv = 0.0;
        for d in 0..DEVICES {
            let row = s.device_by_sn(&format!("C{d}")).await?.ok_or("device")?;
            let newest = (0..REPORTS)
                .rev()
                .find(|i| i % DEVICES == d)
                .ok_or("none")?;
            let latest = s.latest_sample(row.id).await?.ok_or("latest")?;
            assert_eq!(latest.ts, base + newest * 1000, "C{d} latest");
            let cached = ingest.latest(row.id).await?.ok_or("cached")?;
            assert_eq!(cached.ts, latest.ts, "C{d} cached");
            assert_eq!(row.last_seen, Some(latest.ts), "C{d} last seen");
            assert!(!row.online, "C{d} online after its gateway went offline");
            let samples = s.samples(row.id, 0, i64::MAX, 1_000).await?;
            assert_eq!(samples.len() as i64, REPORTS / DEVICES, "C{d} samples");
            let energy = s.device_energy(row.id, &DayRange::day(&day)).await?;
            let pv = energy.iter().find(|e| e.metric == "pv").map(|e| e.kwh);
            plant_pv += pv.ok_or("no pv")?;
        }
        let plant_energy = s.plant_energy(plant, &DayRange::day(&day)).await?;
        let sum = plant_energy
            .iter()
            .find(|e| e.metric == "pv")
            .map(|e| e.kwh);
        let sum = sum.ok_or("no plant pv")?;
        assert!(
            (sum - plant_pv).abs() < 1e-6,
            "plant {sum} != devices {plant_pv}"
        );
        drop(tx);
        ingest.join().await;
        Ok(())
    })
    .await
}
