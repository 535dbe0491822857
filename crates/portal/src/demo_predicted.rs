//! Predicted generation for the demo plants: this year's expected energy per month, so the
//! month and year charts and the reports show predicted beside actual from the first start.
//! A plant that already has predictions for the year (imported, or from an earlier start)
//! keeps them.

use chrono::Datelike;
use sim::fleet::GatewaySpec;
use store::{Store, reports::Prediction};

/// Expected kWh of month `m` (1-12) for `kwp` at latitude `lat`: full-load hours a day that
/// fall with the latitude, and seasons that deepen with it (fitted to what the simulator
/// produces, so the demo's actual-to-predicted ratio sits near 100%).
fn month_kwh(kwp: f64, lat: f64, year: i32, m: u32) -> f64 {
    let hours_per_day = 3.7 - 0.03 * lat.abs();
    let summer = if lat >= 0.0 { 6.5 } else { 12.5 };
    let swing = ((lat.abs() - 12.0) / 42.0).clamp(0.0, 0.95);
    let season = 1.0 + swing * (2.0 * std::f64::consts::PI * (f64::from(m) - summer) / 12.0).cos();
    let days = chrono::NaiveDate::from_ymd_opt(year, m, 1)
        .and_then(|d| d.checked_add_months(chrono::Months::new(1)))
        .and_then(|d| d.pred_opt())
        .map_or(30, |d| d.day());
    (kwp * hours_per_day.max(1.0) * season * f64::from(days)).round()
}

pub async fn prepare(store: &Store, fleet: &[GatewaySpec]) -> anyhow::Result<()> {
    let year = chrono::Utc::now().year();
    let mut rows = Vec::new();
    for gw in fleet {
        let Some(plant) = store.gateway_by_sn(&gw.sn).await?.and_then(|g| g.plant_id) else {
            continue;
        };
        if rows.iter().any(|p: &Prediction| p.plant_id == plant)
            || !store
                .plant_predictions(plant, i64::from(year))
                .await?
                .is_empty()
        {
            continue;
        }
        rows.extend((1..=12).map(|m| Prediction {
            plant_id: plant,
            year: i64::from(year),
            month: i64::from(m),
            day: 0,
            kwh: month_kwh(gw.plant.pv_kwp, gw.plant.lat, year, m),
        }));
    }
    store
        .upsert_predictions(&rows, domain::time::now_ms())
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summer_months_expect_more_on_either_hemisphere() {
        assert!(month_kwh(5.0, 51.0, 2026, 6) > 2.0 * month_kwh(5.0, 51.0, 2026, 12));
        assert!(month_kwh(5.0, -33.9, 2026, 1) > month_kwh(5.0, -33.9, 2026, 7));
        // About 2.5 kWh per kWp a day over the year at 40 degrees.
        let year: f64 = (1..=12).map(|m| month_kwh(1.0, 40.0, 2026, m)).sum();
        assert!((850.0..980.0).contains(&year), "{year}");
    }
}
