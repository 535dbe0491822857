//! Two ingest workers on one database, as two replicas behind a shared subscription: a
//! device's reports alternate between them, and the status-word events they open and close
//! must follow the reports as one worker's would (issue 19). Each worker used to keep the open
//! events it had read, so a fault that cleared on one replica and came back on the other was
//! not opened again, and one that came and cleared on different replicas stayed open.

use crate::ingest_common;

use std::time::Duration;

use chrono::Utc;
use devices::ingest::{Ingest, IngestOptions};
use ingest_common::*;
use store::testing::{TestResult, each_backend};
use store::{Store, events::EventFilter};
use tokio::sync::mpsc;

fn replica(s: &Store) -> (Ingest, devices::report::SubmissionTx) {
    let (tx, rx) = mpsc::channel(100);
    let options = IngestOptions {
        max_wait: Duration::from_millis(5),
        shared: true,
        ..IngestOptions::default()
    };
    (Ingest::spawn(s.clone(), rx, options), tx)
}

/// An inverter reading with fault bit F33 set or not.
fn fault(on: bool) -> devices::report::DeviceReading {
    let f3 = if on { 1.0 } else { 0.0 };
    reading(
        "INVR",
        "inverter",
        &[
            ("fault_word_1", 0.0),
            ("fault_word_2", 0.0),
            ("fault_word_3", f3),
            ("fault_word_4", 0.0),
            ("warning_word", 0.0),
        ],
    )
}

#[tokio::test]
async fn status_word_events_follow_reports_that_alternate_between_replicas() -> TestResult {
    each_backend(|s| async move {
        let ann = owner(&s).await?;
        plant_with_gateway(&s, ann, "UTC", "GWR").await?;
        let (_a, a) = replica(&s);
        let (_b, b) = replica(&s);
        let t0 = Utc::now().timestamp_millis() - 600_000;
        // (replica, fault bit) per report, a minute apart: on at A, still on at B (B reads
        // that it is open), off at A, on again at B, off at A.
        let steps = [(&a, true), (&b, true), (&a, false), (&b, true), (&a, false)];
        for (i, (tx, on)) in steps.into_iter().enumerate() {
            let ts = t0 + i as i64 * 60_000;
            telemetry(tx, "GWR", ts, vec![fault(on)]).await?;
        }
        let inv = s.device_by_sn("INVR").await?.ok_or("inverter")?;
        let (events, _) = s
            .events(&EventFilter {
                device: Some(inv.id),
                limit: 10,
                ..EventFilter::default()
            })
            .await?;
        let mut spans: Vec<(i64, Option<i64>)> = events
            .iter()
            .filter(|e| e.code == "F33")
            .map(|e| {
                (
                    (e.opened_at - t0) / 60_000,
                    e.closed_at.map(|c| (c - t0) / 60_000),
                )
            })
            .collect();
        spans.sort();
        assert_eq!(
            spans,
            vec![(0, Some(2)), (3, Some(4))],
            "F33 open from..to (minutes)"
        );
        Ok(())
    })
    .await
}
