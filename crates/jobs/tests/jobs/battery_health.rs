//! The battery health pass: a battery's days with reports become rows (a day without reports
//! none), a second pass computes only the newest day again, and while another replica holds
//! the lease (PostgreSQL) the pass does nothing.

use domain::DeviceFamily;
use store::telemetry::{SampleWrite, TelemetryBatch};

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
