//! A report's peak power over closed days: computed from samples the first time, kept per
//! plant-day afterwards (the same figure from the kept rows), and a late report for a closed
//! day counted once compaction has merged it.

use crate::common;
use domain::ids::PlantId;

use chrono::{Datelike, Duration, NaiveTime, TimeZone, Utc};
use chrono_tz::Europe::London;
use common::{
    App,
    fixtures::{People, bound_gateway, inverter, people, plant, sample},
    spawn,
};
use serde_json::{Value, json};
use store::telemetry::TelemetryBatch;

/// Local midnight of a London day, ms.
fn midnight(day: chrono::NaiveDate) -> i64 {
    London
        .from_local_datetime(&day.and_time(NaiveTime::MIN))
        .earliest()
        .map_or(0, |t| t.timestamp_millis())
}

async fn write(app: &App, inverter: i64, ts: i64, pv: f64) {
    app.store
        .write_telemetry_batch(&TelemetryBatch {
            samples: vec![sample(inverter, ts, &json!({ "pv1_power": pv }))],
            energy: vec![],
        })
        .await
        .expect("telemetry");
}

async fn month_peak(app: &App, plant: i64, month: &str, who: &str) -> (f64, String) {
    let r = app
        .get(
            &format!("/api/v1/report/plant/{plant}?type=month&date={month}"),
            Some(who),
        )
        .await;
    r.expect_code(0);
    let s: &Value = &r.data()["summary"];
    (
        s["peakPower"].as_f64().unwrap_or_default(),
        s["peakPowerAt"].as_str().unwrap_or_default().to_string(),
    )
}

#[tokio::test]
async fn a_closed_days_peak_is_kept_and_a_late_report_counts_after_compaction() {
    for app in spawn().await {
        let People { admin, ann, .. } = people(&app).await;
        let p = plant(
            &app,
            &ann,
            json!({"name": "Peak plant", "type": 1, "currency": "GBP",
                "timezone": "Europe/London", "lon": -0.7, "lat": 51.3, "totalPower": 8}),
        )
        .await;
        let gw = bound_gateway(&app, &admin, &ann, p, "GW-PEAK-01").await;
        let now = domain::time::now_ms();
        let inverter = inverter(&app, gw, "INV-PEAK-1").await;
        // Last month, days 3 and 4: 3 kW at 10:00 and 5 kW at 12:00 local time.
        let today = Utc::now().with_timezone(&London).date_naive();
        let last_month = (today.with_day(1).expect("day 1") - Duration::days(1))
            .with_day(1)
            .expect("day 1");
        let month = last_month.format("%Y-%m").to_string();
        let (d3, d4) = (
            last_month + Duration::days(2),
            last_month + Duration::days(3),
        );
        let hour = 3_600_000;
        write(&app, inverter, midnight(d3) + 10 * hour, 3000.0).await;
        write(&app, inverter, midnight(d4) + 12 * hour, 5000.0).await;

        let first = month_peak(&app, p, &month, &ann).await;
        assert_eq!(first.0, 5000.0, "{}", app.backend);
        assert_eq!(first.1, format!("{} 12:00:00", d4.format("%Y-%m-%d")));
        let kept = app
            .store
            .plant_power_peaks(PlantId(p), &format!("{month}-01"), &format!("{month}-31"))
            .await
            .expect("peaks");
        let days_in_month = (today.with_day(1).expect("day 1") - last_month).num_days();
        assert_eq!(
            kept.len() as i64,
            days_in_month,
            "every day of the month is kept"
        );
        assert!(
            kept.iter()
                .any(|(d, k)| *d == d4.format("%Y-%m-%d").to_string() && k.watts == Some(5000.0)),
            "{kept:?}"
        );
        // Kept rows answer the same as the samples did.
        assert_eq!(month_peak(&app, p, &month, &ann).await, first);

        // A late report of day 3, higher than anything: counted once compaction merged it.
        write(&app, inverter, midnight(d3) + 14 * hour, 7000.0).await;
        devices::history::upkeep(
            &app.store,
            now,
            &devices::history::HistoryOptions::default(),
        )
        .await
        .expect("compaction");
        let after = month_peak(&app, p, &month, &ann).await;
        assert_eq!(after.0, 7000.0, "{}", app.backend);
        assert_eq!(after.1, format!("{} 14:00:00", d3.format("%Y-%m-%d")));
    }
}
