//! A plant's peak PV power per closed local day: a rollup written by the first report that
//! needs the day and read by every later one, so a year report reads 365 rows instead of a
//! year of samples. Compaction deletes a plant-day's row when it changes the day's samples
//! ([`Store::compact_day`]), and the next report computes it again.

use crate::{Result, Store};
use domain::ids::PlantId;

/// The highest 5-minute PV power of a plant's local day and when it happened; `None` when no
/// inverter gave a PV figure that day.
#[derive(Debug, Clone, Copy, PartialEq, sqlx::FromRow)]
pub struct DayPeak {
    pub watts: Option<f64>,
    pub at: Option<i64>,
}

#[derive(sqlx::FromRow)]
struct PeakRow {
    day: String,
    watts: Option<f64>,
    at: Option<i64>,
}

impl Store {
    /// The stored peaks of a plant's days `from..=to` (`YYYY-MM-DD`), by day.
    pub async fn plant_power_peaks(
        &self,
        plant: PlantId,
        from: &str,
        to: &str,
    ) -> Result<Vec<(String, DayPeak)>> {
        let rows = rows!(
            self,
            fetch_all,
            PeakRow,
            "SELECT day, watts, at FROM plant_power_peaks \
             WHERE plant_id = $1 AND day >= $2 AND day <= $3 ORDER BY day",
            plant,
            from,
            to
        )?;
        Ok(rows
            .into_iter()
            .map(|r| {
                let peak = DayPeak {
                    watts: r.watts,
                    at: r.at,
                };
                (r.day, peak)
            })
            .collect())
    }

    /// Keeps the peaks of closed days of a plant, in one transaction; a day already stored
    /// is overwritten (two replicas computing the same day agree).
    pub async fn put_plant_power_peaks(
        &self,
        plant: PlantId,
        days: &[(String, DayPeak)],
    ) -> Result<()> {
        if days.is_empty() {
            return Ok(());
        }
        in_tx!(self, |tx, sqlite| {
            for (day, peak) in days {
                tx_exec!(
                    tx,
                    sqlite,
                    "INSERT INTO plant_power_peaks (plant_id, day, watts, at) VALUES ($1, $2, $3, $4) \
                     ON CONFLICT (plant_id, day) DO UPDATE SET watts = excluded.watts, at = excluded.at",
                    plant,
                    day.as_str(),
                    peak.watts,
                    peak.at
                )?;
            }
        });
        Ok(())
    }
}
