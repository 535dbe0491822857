//! The calm wait: a report from a gateway at a calm pace waits for company before its batch is
//! written (`IngestOptions::calm_wait`), and a gateway that reports back to back does not.

use crate::ingest_common;

use std::time::{Duration, Instant};

use chrono::Utc;
use devices::ingest::{Ingest, IngestOptions};
use ingest_common::*;
use store::testing::{TestResult, each_backend};
use tokio::sync::mpsc;

#[tokio::test]
async fn a_calm_report_waits_for_company_and_one_sent_back_to_back_does_not() -> TestResult {
    each_backend(|s| async move {
        let ann = owner(&s).await?;
        plant_with_gateway(&s, ann, "UTC", "GWQ").await?;
        let (tx, rx) = mpsc::channel(100);
        // long enough to tell apart from a commit on a loaded machine
        let calm_wait = Duration::from_secs(2);
        let options = IngestOptions {
            calm_wait,
            ..IngestOptions::default()
        };
        let ingest = Ingest::spawn(s.clone(), rx, options);
        let ts = Utc::now().timestamp_millis() - 60_000;
        let report = |i: i64| vec![reading("Q1", "inverter", &[("pv1_power", i as f64)])];

        // the gateway's first report since the worker started: calm
        let started = Instant::now();
        telemetry(&tx, "GWQ", ts, report(1)).await?;
        let calm = started.elapsed();
        assert!(
            calm >= calm_wait,
            "a calm report was written after {calm:?}"
        );

        // its next, straight after the acknowledgement: no wait
        let started = Instant::now();
        telemetry(&tx, "GWQ", ts + 1000, report(2)).await?;
        let hurried = started.elapsed();
        assert!(
            hurried < calm_wait,
            "a report sent back to back waited {hurried:?}"
        );

        drop(tx);
        ingest.join().await;
        Ok(())
    })
    .await
}
