//! Store contract for the battery health days: a day kept and replaced, read by span, the
//! newest day, the batteries with their zone, and a device's oldest sample in rows or blocks.

use domain::DeviceFamily;
use domain::ids::{DeviceId, GatewayId};
use store::testing::{TestResult, each_backend};
use store::{
    Store,
    battery_health::HealthDayRow,
    telemetry::{SampleWrite, TelemetryBatch},
};

async fn battery(s: &Store) -> Result<DeviceId, Box<dyn std::error::Error>> {
    let gw: GatewayId = s.create_gateway("GWB1", "K", "", 1).await?;
    let inv = s
        .upsert_device("INVB1", gw, DeviceFamily::Inverter, 2, "", "", None, 1)
        .await?;
    let _ = inv;
    Ok(s.upsert_device(
        "BATB1",
        gw,
        DeviceFamily::Battery,
        0,
        "",
        "",
        Some("INVB1"),
        1,
    )
    .await?)
}

fn day(device: DeviceId, day: &str, soh: Option<f64>) -> HealthDayRow {
    HealthDayRow {
        soh,
        high_pack: Some(2),
        high_cell: Some(16),
        cycle_kind: Some("discharge".into()),
        cycle_start: Some(1_700_000_000_000),
        measured_ah: Some(98.5),
        samples: 288,
        updated_at: 5,
        ..HealthDayRow::empty(device, day)
    }
}

#[tokio::test]
async fn health_days_are_kept_replaced_and_read_by_span() -> TestResult {
    each_backend(|s| async move {
        let b = battery(&s).await?;
        assert_eq!(s.battery_health_last_day(b).await?, None);
        s.put_battery_health_day(&day(b, "2026-01-02", Some(97.0)))
            .await?;
        s.put_battery_health_day(&day(b, "2026-01-01", None))
            .await?;
        // The same day again replaces it.
        s.put_battery_health_day(&day(b, "2026-01-02", Some(96.5)))
            .await?;
        let rows = s.battery_health_days(b, "2026-01-01", "2026-01-31").await?;
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0], day(b, "2026-01-01", None));
        assert_eq!(rows[1].soh, Some(96.5));
        assert_eq!(rows[1].cycle_start, Some(1_700_000_000_000));
        assert_eq!(
            s.battery_health_days(b, "2026-01-02", "2026-01-02")
                .await?
                .len(),
            1
        );
        assert_eq!(
            s.battery_health_last_day(b).await?.as_deref(),
            Some("2026-01-02")
        );
        let zones = s.battery_zones().await?;
        assert_eq!(zones.len(), 1, "the inverter is no battery");
        assert_eq!((zones[0].device_id, zones[0].timezone.clone()), (b, None));
        Ok(())
    })
    .await
}

#[tokio::test]
async fn the_oldest_sample_is_found_in_rows_and_blocks() -> TestResult {
    each_backend(|s| async move {
        let b = battery(&s).await?;
        assert_eq!(s.oldest_sample(b).await?, None);
        let sample = |ts: i64| SampleWrite {
            device_id: b,
            ts,
            payload: r#"{"soc":50}"#.into(),
        };
        let batch = TelemetryBatch {
            samples: vec![sample(86_400_000 + 1000), sample(2 * 86_400_000 + 1000)],
            energy: vec![],
        };
        s.write_telemetry_batch(&batch).await?;
        assert_eq!(s.oldest_sample(b).await?, Some(86_400_000 + 1000));
        // The first day compacted into its block: still found.
        s.compact_day(b, "1970-01-02", 86_400_000, 2 * 86_400_000)
            .await?;
        assert_eq!(s.oldest_sample(b).await?, Some(86_400_000 + 1000));
        Ok(())
    })
    .await
}
