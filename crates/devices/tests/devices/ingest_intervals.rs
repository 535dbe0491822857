//! The day metrics ingest integrates over report intervals (docs/figures.md), end to end on
//! every backend: the battery's grid charge from consecutive power samples, counted once
//! whatever comes again, late or to another replica; the inverters' available hours in
//! daylight; a weather station's irradiation from its irradiance.

use crate::ingest_common;

use std::time::Duration;

use chrono::{Duration as Days, NaiveDate, TimeZone, Utc};
use chrono_tz::Tz;
use devices::{
    ingest::{Ingest, IngestOptions},
    report::{DeviceReading, SubmissionTx},
};
use ingest_common::*;
use store::testing::{TestResult, each_backend};
use store::{Store, telemetry::DayRange};
use tokio::sync::mpsc;

const TZ: &str = "Europe/Madrid";

/// `hh:mm` of the day before yesterday in Madrid, in ms (so every report is in the past).
fn at(hh: u32, mm: u32) -> Result<i64, String> {
    let tz: Tz = TZ.parse().map_err(|_| "zone")?;
    let day = past_day()?;
    let naive = day.and_hms_opt(hh, mm, 0).ok_or("bad time")?;
    Ok(tz
        .from_local_datetime(&naive)
        .single()
        .ok_or("ambiguous time")?
        .timestamp_millis())
}

fn past_day() -> Result<NaiveDate, String> {
    let tz: Tz = TZ.parse().map_err(|_| "zone")?;
    Ok(Utc::now().with_timezone(&tz).date_naive() - Days::days(2))
}

/// A hybrid at night: no PV, `load` W, the battery taking `charge` W.
fn hybrid(load: f64, charge: f64) -> DeviceReading {
    reading(
        "INVG",
        "inverter",
        &[
            ("pv1_power", 0.0),
            ("load_power", load),
            ("battery_power", -charge),
        ],
    )
}

async fn metric(s: &Store, plant: domain::ids::PlantId, metric: &str) -> Result<f64, String> {
    let day = DayRange::day(&past_day()?.format("%Y-%m-%d").to_string());
    let totals = s
        .plant_energy(plant, &day)
        .await
        .map_err(|e| e.to_string())?;
    Ok(kwh(&totals, metric))
}

fn replica(s: &Store, shared: bool) -> (Ingest, SubmissionTx) {
    let (tx, rx) = mpsc::channel(100);
    let options = IngestOptions {
        max_wait: Duration::from_millis(5),
        shared,
        ..IngestOptions::default()
    };
    (Ingest::spawn(s.clone(), rx, options), tx)
}

#[tokio::test]
async fn a_night_charge_from_the_grid_is_integrated_once() -> TestResult {
    each_backend(|s| async move {
        let ann = owner(&s).await?;
        let plant = plant_with_gateway(&s, ann, TZ, "GWG").await?;
        let (ingest, tx) = spawn(&s);
        // 02:00 2 kW, 02:05 3 kW, 02:10 3 kW: (2 + 3) / 2 × 5 min + 3 × 5 min = 0.4583 kWh.
        telemetry(&tx, "GWG", at(2, 0)?, vec![hybrid(400.0, 2000.0)]).await?;
        telemetry(&tx, "GWG", at(2, 5)?, vec![hybrid(400.0, 3000.0)]).await?;
        telemetry(&tx, "GWG", at(2, 10)?, vec![hybrid(400.0, 3000.0)]).await?;
        let expected = 2.5 / 12.0 + 3.0 / 12.0;
        let got = metric(&s, plant, "grid_charge").await?;
        assert!((got - expected).abs() < 1e-9, "{got} vs {expected}");
        // The same report again, and a late one: nothing more.
        telemetry(&tx, "GWG", at(2, 10)?, vec![hybrid(400.0, 3000.0)]).await?;
        telemetry(&tx, "GWG", at(2, 2)?, vec![hybrid(400.0, 9000.0)]).await?;
        assert!((metric(&s, plant, "grid_charge").await? - expected).abs() < 1e-9);
        // After a restart the next interval starts from the stored report: 3 kW × 5 min more.
        drop(tx);
        ingest.join().await;
        let (_again, tx) = spawn(&s);
        telemetry(&tx, "GWG", at(2, 15)?, vec![hybrid(400.0, 3000.0)]).await?;
        let expected = expected + 0.25;
        let got = metric(&s, plant, "grid_charge").await?;
        assert!((got - expected).abs() < 1e-9, "{got} vs {expected}");
        // An hour and a half of silence is a gap, not a charge.
        telemetry(&tx, "GWG", at(3, 45)?, vec![hybrid(400.0, 3000.0)]).await?;
        assert!((metric(&s, plant, "grid_charge").await? - expected).abs() < 1e-9);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn replicas_taking_turns_count_each_interval_once() -> TestResult {
    each_backend(|s| async move {
        let ann = owner(&s).await?;
        let plant = plant_with_gateway(&s, ann, TZ, "GWS").await?;
        let (_a, a) = replica(&s, true);
        let (_b, b) = replica(&s, true);
        // Reports five minutes apart, alternating between the replicas, 1 kW all along: each
        // replica integrates from the report the other stored, so 4 intervals = 1/3 kWh.
        for (i, tx) in [&a, &b, &a, &b, &a].into_iter().enumerate() {
            let ts = at(1, 0)? + i as i64 * 300_000;
            let r = reading(
                "INVS",
                "inverter",
                &[
                    ("pv1_power", 0.0),
                    ("load_power", 200.0),
                    ("battery_power", -1000.0),
                ],
            );
            telemetry(tx, "GWS", ts, vec![r]).await?;
        }
        let got = metric(&s, plant, "grid_charge").await?;
        assert!((got - 1.0 / 3.0).abs() < 1e-9, "{got}");
        Ok(())
    })
    .await
}

#[tokio::test]
async fn inverters_are_available_in_daylight_and_stations_count_irradiation() -> TestResult {
    each_backend(|s| async move {
        let ann = owner(&s).await?;
        // The fixture's plant stands at 30° N, 0° E: the sun is well up at noon in Madrid.
        let plant = plant_with_gateway(&s, ann, TZ, "GWA").await?;
        let (_ingest, tx) = spawn(&s);
        let inv = |fault: f64| {
            reading(
                "INVA",
                "inverter",
                &[("pv_power", 900.0), ("fault_word_3", fault)],
            )
        };
        let ws = |g: f64| reading("WSA", "weather_station", &[("irradiance", g)]);
        // 12:00 and 12:10 fine, 12:20 a fault (F33): the first 10 minutes available, the next
        // half (the fault state integrated like a power), 15 of 20.
        telemetry(&tx, "GWA", at(12, 0)?, vec![inv(0.0), ws(800.0)]).await?;
        telemetry(&tx, "GWA", at(12, 10)?, vec![inv(0.0), ws(900.0)]).await?;
        telemetry(&tx, "GWA", at(12, 20)?, vec![inv(1.0), ws(1000.0)]).await?;
        let hours = metric(&s, plant, "available_h").await?;
        assert!((hours - 15.0 / 60.0).abs() < 1e-9, "{hours}");
        // (800 + 900) / 2 and (900 + 1000) / 2 W/m² for 10 minutes each: 0.3 kWh/m².
        let station = s.device_by_sn("WSA").await?.ok_or("station")?;
        let day = DayRange::day(&past_day()?.format("%Y-%m-%d").to_string());
        let h = kwh(&s.device_energy(station.id, &day).await?, "irradiation");
        assert!((h - 0.3).abs() < 1e-9, "{h}");
        // A station counting its own day reads its counter.
        let counted = reading(
            "WSB",
            "weather_station",
            &[("irradiance", 500.0), ("today_irradiation", 4.25)],
        );
        telemetry(&tx, "GWA", at(12, 30)?, vec![counted.clone()]).await?;
        telemetry(&tx, "GWA", at(12, 40)?, vec![counted]).await?;
        let other = s.device_by_sn("WSB").await?.ok_or("station")?;
        let h = kwh(&s.device_energy(other.id, &day).await?, "irradiation");
        assert_eq!(h, 4.25);
        Ok(())
    })
    .await
}
