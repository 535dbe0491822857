//! The battery health pass: a battery's days with reports become rows (a day without reports
//! none), a second pass computes only the newest day again, and while another replica holds
//! the lease (PostgreSQL) the pass does nothing. Late reports for days the pass has gone by
//! are counted once the history compaction has merged them.

use domain::{DeviceFamily, ids::DeviceId};
use store::{
    Store,
    telemetry::{SampleWrite, TelemetryBatch},
};

use crate::common::stores;

const DAY_MS: i64 = 24 * 3600 * 1000;

#[tokio::test]
async fn days_with_reports_become_rows_once_under_the_lease() {
    for (backend, store) in stores().await {
        let gw = store.create_gateway("GWH1", "K", "", 1).await.expect("gw");
        let b = store
            .upsert_device("BATH1", gw, DeviceFamily::Battery, 0, "", "", None, 1)
            .await
            .expect("battery");
        // No plant: UTC days. Reports at noon three and one days ago.
        let now = domain::time::now_ms();
        let noon = |days: i64| (now / DAY_MS - days) * DAY_MS + DAY_MS / 2;
        let sample = |ts: i64, soh: f64| SampleWrite {
            device_id: b,
            ts,
            payload: format!(
                r#"{{"soc":50,"soh":{soh},"cell1_voltage":3.3,"cell2_voltage":3.31}}"#
            ),
        };
        let batch = TelemetryBatch {
            samples: vec![sample(noon(3), 97.0), sample(noon(1), 96.0)],
            energy: vec![],
        };
        store.write_telemetry_batch(&batch).await.expect("samples");
        let done = jobs::battery_health::tick(&store, now)
            .await
            .expect("pass")
            .expect("lease");
        assert_eq!((done.batteries, done.days), (1, 2), "[{backend}]");
        let rows = store
            .battery_health_days(b, "0000-00-00", "9999-99-99")
            .await
            .expect("rows");
        let sohs: Vec<Option<f64>> = rows.iter().map(|r| r.soh).collect();
        assert_eq!(sohs, [Some(97.0), Some(96.0)], "[{backend}]");
        assert_eq!(rows[1].spread_mv, Some(10.0), "[{backend}]");
        // Again: the newest day only (up to today, which has no reports).
        let again = jobs::battery_health::tick(&store, now)
            .await
            .expect("pass")
            .expect("lease");
        assert_eq!(again.days, 1, "[{backend}]");
        if backend == "postgres" {
            let held = store
                .try_lease(store::leases::BATTERY_HEALTH)
                .await
                .expect("lease")
                .expect("free");
            let other = store.clone();
            let skipped = jobs::battery_health::tick(&other, now).await.expect("pass");
            assert_eq!(skipped, None, "another replica holds the lease");
            held.release().await.expect("release");
        }
    }
}

async fn pass(store: &Store, now: i64) -> service::battery_health::Refreshed {
    jobs::battery_health::tick(store, now)
        .await
        .expect("pass")
        .expect("lease")
}

async fn sohs(store: &Store, b: DeviceId) -> Vec<(String, Option<f64>)> {
    store
        .battery_health_days(b, "0000-00-00", "9999-99-99")
        .await
        .expect("rows")
        .into_iter()
        .map(|r| (r.day, r.soh))
        .collect()
}

#[tokio::test]
async fn late_reports_for_passed_days_are_counted_once_compaction_merged_them() {
    for (backend, store) in stores().await {
        let gw = store.create_gateway("GWH2", "K", "", 1).await.expect("gw");
        let b = store
            .upsert_device("BATH2", gw, DeviceFamily::Battery, 0, "", "", None, 1)
            .await
            .expect("battery");
        // No plant: UTC days. Reports at noon three days ago and yesterday.
        let now = domain::time::now_ms();
        let noon = |days: i64| (now / DAY_MS - days) * DAY_MS + DAY_MS / 2;
        let sample = |ts: i64, soh: f64| SampleWrite {
            device_id: b,
            ts,
            payload: format!(r#"{{"soc":50,"soh":{soh}}}"#),
        };
        let write = |samples: Vec<SampleWrite>| {
            let store = store.clone();
            async move {
                let batch = TelemetryBatch {
                    samples,
                    energy: vec![],
                };
                store.write_telemetry_batch(&batch).await.expect("samples");
            }
        };
        write(vec![sample(noon(3), 97.0), sample(noon(1), 96.0)]).await;
        pass(&store, now).await;
        let day = |days: i64| {
            chrono::DateTime::from_timestamp_millis(noon(days))
                .unwrap_or_default()
                .format("%Y-%m-%d")
                .to_string()
        };
        assert_eq!(
            sohs(&store, b).await,
            [(day(3), Some(97.0)), (day(1), Some(96.0))],
            "[{backend}]"
        );
        // Late, after the pass went by: 91 % an hour after noon three days ago, and 90 % two
        // days ago, a day without any report until now.
        write(vec![
            sample(noon(3) + 3_600_000, 91.0),
            sample(noon(2), 90.0),
        ])
        .await;
        pass(&store, now).await;
        assert_eq!(
            sohs(&store, b).await.len(),
            2,
            "not before compaction: [{backend}]"
        );
        // The history compaction merges them (no grace) and marks the days.
        let options = devices::history::HistoryOptions {
            grace: std::time::Duration::ZERO,
            keep: None,
            every: std::time::Duration::from_secs(600),
        };
        devices::history::upkeep(&store, now, &options)
            .await
            .expect("compaction");
        let done = pass(&store, now).await;
        // Three days ago: the median of 97 and 91 is 94.
        assert_eq!(
            sohs(&store, b).await,
            [
                (day(3), Some(94.0)),
                (day(2), Some(90.0)),
                (day(1), Some(96.0))
            ],
            "[{backend}]"
        );
        assert!(done.days >= 3, "[{backend}] {done:?}");
        // The marks are spent: the next pass computes the newest day only.
        assert_eq!(pass(&store, now).await.days, 1, "[{backend}]");
    }
}
