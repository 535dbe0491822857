//! History upkeep on every backend: closed plant-local days become blocks, reads answer the
//! same before and after, late reports are merged, retention drops only old blocks.

use crate::ingest_common;
use domain::DeviceFamily;
use domain::ids::DeviceId;

use std::time::Duration;

use chrono::{NaiveDate, TimeZone};
use chrono_tz::Tz;
use devices::history::{HistoryOptions, day_bounds, upkeep};
use ingest_common::*;
use serde_json::Value;
use store::testing::{TestResult, each_backend};
use store::{
    Store,
    telemetry::{DayRange, SampleRow, SampleWrite, TelemetryBatch},
};

const FIVE_MIN: i64 = 300_000;

/// Values of a hybrid inverter at report `i`: slow curves with decimals, a counter, a flag and
/// a text, as real readings mix them.
fn values(i: i64) -> String {
    let x = i as f64;
    format!(
        "{{\"today_pv_energy\":{:.1},\"pv1_power\":{},\"grid_voltage\":{:.1},\"battery_soc\":{},\
         \"temperature\":{:.1},\"grid_on\":{},\"work_mode\":\"{}\"}}",
        (x * 0.3) % 40.0,
        (i * 37) % 4000,
        229.0 + (x * 0.7).sin() * 2.0,
        40 + (i % 50),
        31.0 + (x * 0.05).cos() * 4.0,
        i % 97 != 0,
        if i % 288 < 100 {
            "selling first"
        } else {
            "zero export"
        }
    )
}

fn parsed(rows: &[SampleRow]) -> Vec<(i64, Value)> {
    rows.iter()
        .map(|r| (r.ts, serde_json::from_str(&r.payload).unwrap_or_default()))
        .collect()
}

/// A Madrid plant with inverter INV1; answers the device id.
async fn madrid_inverter(s: &Store) -> Result<DeviceId, Box<dyn std::error::Error>> {
    let ann = owner(s).await?;
    plant_with_gateway(s, ann, "Europe/Madrid", "GWH").await?;
    let gw = s.gateway_by_sn("GWH").await?.ok_or("no gateway")?.id;
    Ok(
        s.upsert_device("INV1", gw, DeviceFamily::Inverter, 2, "", "", None, 1)
            .await?,
    )
}

/// Samples every five minutes over `days` Madrid days from `first`.
async fn write_days(s: &Store, device: DeviceId, first: NaiveDate, days: i64) -> store::Result<()> {
    let (from, _) = day_bounds(chrono_tz::Europe::Madrid, first);
    let samples = (0..days * 288)
        .map(|i| SampleWrite {
            device_id: device,
            ts: from + i * FIVE_MIN,
            payload: values(i),
        })
        .collect();
    s.write_telemetry_batch(&TelemetryBatch {
        samples,
        energy: vec![],
    })
    .await?;
    Ok(())
}

fn options(grace_hours: u64, keep: Option<Duration>) -> HistoryOptions {
    HistoryOptions {
        grace: Duration::from_secs(grace_hours * 3600),
        keep,
        every: Duration::from_secs(600),
    }
}

#[tokio::test]
async fn closed_days_become_blocks_and_read_back_the_same() -> TestResult {
    each_backend(|s| async move {
        let inv = madrid_inverter(&s).await?;
        let tz = chrono_tz::Europe::Madrid;
        let first = NaiveDate::from_ymd_opt(2025, 6, 1).ok_or("date")?;
        write_days(&s, inv, first, 3).await?;
        let (from, _) = day_bounds(tz, first);
        let (_, end) = day_bounds(tz, first + chrono::Duration::days(2));
        let before = s.samples(inv, from, end, 100_000).await?;
        let thinned_before = s.samples_thinned(inv, from, end, 600_000).await?;
        assert_eq!(before.len(), 3 * 288);

        // The third day ended an hour ago: within the two hours' grace, it stays as rows.
        let (_, third_end) = day_bounds(tz, first + chrono::Duration::days(2));
        let done = upkeep(&s, third_end + 3_600_000, &options(2, None)).await?;
        assert_eq!((done.days, done.rows), (2, 2 * 288));
        let size = s.history_size().await?;
        assert_eq!((size.rows, size.blocks, size.block_samples), (288, 2, 576));
        assert_eq!(size.block_points, 576 * 7);
        let per_point = size.block_bytes as f64 / size.block_points as f64;
        assert!(per_point < 2.0, "{per_point:.2} bytes a point");

        assert_eq!(
            parsed(&s.samples(inv, from, end, 100_000).await?),
            parsed(&before)
        );
        assert_eq!(
            parsed(&s.samples_thinned(inv, from, end, 600_000).await?),
            parsed(&thinned_before)
        );
        // A range inside a block, and a limit, read as they did from rows.
        let mid = from + 100 * FIVE_MIN;
        assert_eq!(
            parsed(&s.samples(inv, mid, mid + 10 * FIVE_MIN, 4).await?),
            parsed(&before[100..104])
        );
        // Nothing more to do on a second pass at the same time.
        assert_eq!(
            upkeep(&s, third_end + 3_600_000, &options(2, None))
                .await?
                .days,
            0
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_late_report_for_a_compacted_day_is_read_and_merged_never_lost() -> TestResult {
    each_backend(|s| async move {
        let inv = madrid_inverter(&s).await?;
        let tz = chrono_tz::Europe::Madrid;
        let day = NaiveDate::from_ymd_opt(2025, 6, 1).ok_or("date")?;
        write_days(&s, inv, day, 1).await?;
        let (from, to) = day_bounds(tz, day);
        upkeep(&s, to + 10 * 3_600_000, &options(2, None)).await?;

        // A report between two others, and one repeating a stored time with other values.
        let late = SampleWrite {
            device_id: inv,
            ts: from + 7 * FIVE_MIN + 1_000,
            payload: r#"{"pv1_power":1234,"late":true}"#.into(),
        };
        let repeat = SampleWrite {
            device_id: inv,
            ts: from + 8 * FIVE_MIN,
            payload: r#"{"pv1_power":-1}"#.into(),
        };
        s.write_telemetry_batch(&TelemetryBatch {
            samples: vec![late.clone(), repeat],
            energy: vec![],
        })
        .await?;
        let check = |rows: Vec<SampleRow>| -> Result<(), String> {
            if rows.len() != 289 {
                return Err(format!("{} samples", rows.len()));
            }
            let got: Value = serde_json::from_str(&rows[8].payload).map_err(|e| e.to_string())?;
            let want: Value = serde_json::from_str(&late.payload).map_err(|e| e.to_string())?;
            if got != want || rows[8].ts != late.ts {
                return Err(format!("late report read as {}", rows[8].payload));
            }
            // The first report of a time wins, as in the samples table.
            let first: Value = serde_json::from_str(&values(8)).map_err(|e| e.to_string())?;
            let read: Value = serde_json::from_str(&rows[9].payload).map_err(|e| e.to_string())?;
            if read != first {
                return Err(format!("repeated time read as {}", rows[9].payload));
            }
            Ok(())
        };
        check(s.samples(inv, from, to, 1_000).await?)?;
        let done = upkeep(&s, to + 11 * 3_600_000, &options(2, None)).await?;
        assert_eq!((done.days, done.rows), (1, 2));
        let size = s.history_size().await?;
        assert_eq!((size.blocks, size.block_samples), (1, 289));
        check(s.samples(inv, from, to, 1_000).await?)?;
        Ok(())
    })
    .await
}

#[tokio::test]
async fn retention_drops_old_blocks_only_and_keeps_energy_and_rows() -> TestResult {
    each_backend(|s| async move {
        let inv = madrid_inverter(&s).await?;
        let tz = chrono_tz::Europe::Madrid;
        let old = NaiveDate::from_ymd_opt(2023, 1, 10).ok_or("date")?;
        let recent = NaiveDate::from_ymd_opt(2025, 1, 10).ok_or("date")?;
        write_days(&s, inv, old, 1).await?;
        write_days(&s, inv, recent, 1).await?;
        s.write_telemetry_batch(&TelemetryBatch {
            samples: vec![],
            energy: vec![store::telemetry::EnergyWrite {
                device_id: inv,
                plant_id: None,
                day: "2023-01-10".into(),
                metric: "pv".into(),
                value: 12.5,
                kind: store::telemetry::CounterKind::Daily,
                rank: 0,
            }],
        })
        .await?;
        let (_, recent_end) = day_bounds(tz, recent);
        let now = recent_end + 30 * 86_400_000;
        // Keeping a year: the 2023 day goes, the 2025 one stays; today's row stays.
        let (today_from, _) = day_bounds(tz, NaiveDate::from_ymd_opt(2025, 2, 9).ok_or("date")?);
        s.write_telemetry_batch(&TelemetryBatch {
            samples: vec![SampleWrite {
                device_id: inv,
                ts: today_from + 60_000,
                payload: values(0),
            }],
            energy: vec![],
        })
        .await?;
        let done = upkeep(
            &s,
            now,
            &options(2, Some(Duration::from_secs(365 * 86_400))),
        )
        .await?;
        assert_eq!(done.days, 2);
        assert_eq!(done.expired, 1);
        let size = s.history_size().await?;
        assert_eq!((size.blocks, size.rows), (1, 1));
        let (old_from, old_to) = day_bounds(tz, old);
        assert!(s.samples(inv, old_from, old_to, 10).await?.is_empty());
        let (recent_from, _) = day_bounds(tz, recent);
        assert_eq!(
            s.samples(inv, recent_from, recent_end, 1_000).await?.len(),
            288
        );
        let energy = s.device_energy(inv, &DayRange::day("2023-01-10")).await?;
        assert_eq!(energy.first().map(|e| e.kwh), Some(12.5));
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_device_without_a_plant_keeps_utc_days() -> TestResult {
    each_backend(|s| async move {
        // Samples of a device id that no longer exists (history outlives devices).
        let gone = DeviceId(987_654);
        let day = NaiveDate::from_ymd_opt(2025, 3, 3).ok_or("date")?;
        let from = chrono::Utc
            .from_utc_datetime(&day.and_hms_opt(0, 0, 0).ok_or("time")?)
            .timestamp_millis();
        let samples = (0..288)
            .map(|i| SampleWrite {
                device_id: gone,
                ts: from + i * FIVE_MIN,
                payload: values(i),
            })
            .collect();
        s.write_telemetry_batch(&TelemetryBatch {
            samples,
            energy: vec![],
        })
        .await?;
        let done = upkeep(&s, from + 86_400_000 + 3 * 3_600_000, &options(2, None)).await?;
        assert_eq!((done.days, done.rows), (1, 288));
        let utc: Tz = "UTC".parse()?;
        let (f, t) = day_bounds(utc, day);
        assert_eq!(s.samples(gone, f, t, 1_000).await?.len(), 288);
        Ok(())
    })
    .await
}
