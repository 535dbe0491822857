//! The plant list's all-time energy, split where days close: the sum of a plant's closed days
//! is kept between requests (summing a year of day rows per plant was most of the list's
//! cost), and today's rows are added on each request. A kept sum is read again after
//! [`FRESH`], which picks up late reports for past days, and at once when the plant's day
//! changes.

use domain::ids::PlantId;
use std::{
    collections::HashMap,
    sync::Mutex,
    time::{Duration, Instant},
};

use crate::AppState;

const FRESH: Duration = Duration::from_secs(600);
const CAPACITY: usize = 100_000;

/// (plant, metric) -> (the day the sum stops before, the sum, when it was read).
type Entries = HashMap<(PlantId, &'static str), (String, f64, Instant)>;

#[derive(Debug, Default)]
pub struct TotalsCache {
    entries: Mutex<Entries>,
}

impl TotalsCache {
    /// The energy of `metric` of each plant over its days before its own today (`plants`:
    /// plant and today, `YYYY-MM-DD`).
    pub(crate) async fn closed_days(
        &self,
        app: &AppState,
        plants: &[(PlantId, String)],
        metric: &'static str,
    ) -> store::Result<HashMap<PlantId, f64>> {
        let now = Instant::now();
        let mut out = HashMap::new();
        // Plants to read, by the day their sum stops before.
        let mut missing: HashMap<&str, Vec<PlantId>> = HashMap::new();
        if let Ok(entries) = self.entries.lock() {
            for (plant, today) in plants {
                match entries.get(&(*plant, metric)) {
                    Some((day, kwh, at)) if day == today && now.duration_since(*at) < FRESH => {
                        out.insert(*plant, *kwh);
                    }
                    _ => missing.entry(today).or_default().push(*plant),
                }
            }
        }
        for (today, ids) in missing {
            let read = app.store.plants_energy_before(&ids, metric, today).await?;
            let mut sums: HashMap<_, f64> = ids.iter().map(|id| (*id, 0.0)).collect();
            for t in read {
                sums.insert(t.plant_id, t.kwh);
            }
            if let Ok(mut entries) = self.entries.lock() {
                if entries.len() > CAPACITY {
                    entries.clear();
                }
                for (plant, kwh) in &sums {
                    entries.insert((*plant, metric), (today.to_string(), *kwh, now));
                }
            }
            out.extend(sums);
        }
        Ok(out)
    }
}
