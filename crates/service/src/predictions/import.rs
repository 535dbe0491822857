//! Importing predicted generation: every row is checked on its own, its figures by [`parse`]
//! and its plant by the actor's rights (`station.edit` on a plant they see), and the valid rows
//! are stored together in one transaction, replacing earlier figures of the same plant and
//! period.

use domain::permissions::STATION_EDIT;
use std::collections::{HashMap, HashSet, hash_map::Entry};

use domain::{Code, DomainError, ids::PlantId, policy::Actor};
use store::{Store, reports::Prediction};

use crate::{Result, local_time::days_in_month};

/// Largest figure a row may carry, kWh (a 1 GWp plant makes about 0.2 TWh a month).
const MAX_KWH: f64 = 1e9;

/// The cells of one row: Plant ID, Year, Month, Day (empty for the whole month), Expected kWh.
pub type Cells = [String; 5];

/// Checks one row's figures (4 `plantId`, `year` 2000-2100, `month`, `day` of the month,
/// `kwh` from 0 to 1e9); the plant is checked by [`import`].
pub fn parse(cells: &Cells) -> std::result::Result<Prediction, DomainError> {
    let int = |s: &str, field: &str| s.parse::<i64>().map_err(|_| DomainError::invalid(field));
    let plant_id = PlantId(int(&cells[0], "plantId")?);
    let year = int(&cells[1], "year").and_then(|y| {
        (2000..=2100)
            .contains(&y)
            .then_some(y)
            .ok_or_else(|| DomainError::invalid("year"))
    })?;
    let month = int(&cells[2], "month").and_then(|m| {
        (1..=12)
            .contains(&m)
            .then_some(m)
            .ok_or_else(|| DomainError::invalid("month"))
    })?;
    let day = match cells[3].as_str() {
        "" => 0,
        s => {
            let last = i64::from(days_in_month(year as i32, month as u32));
            int(s, "day").and_then(|d| {
                (1..=last)
                    .contains(&d)
                    .then_some(d)
                    .ok_or_else(|| DomainError::invalid("day"))
            })?
        }
    };
    let kwh = cells[4]
        .parse::<f64>()
        .ok()
        .filter(|k| k.is_finite() && (0.0..MAX_KWH).contains(k))
        .ok_or_else(|| DomainError::invalid("kwh"))?;
    Ok(Prediction {
        plant_id,
        year,
        month,
        day,
        kwh,
    })
}

/// Whether the actor may set the plant's predictions (`station.edit` on a plant they see); a
/// plant they cannot see answers like a missing one (4 `plantId`).
async fn may_edit(
    store: &Store,
    actor: &Actor,
    plant: PlantId,
) -> std::result::Result<(), DomainError> {
    let not_found = || DomainError::invalid("plantId");
    match crate::plants::visible(store, actor, plant).await {
        Ok((row, _)) => actor
            .require_on_plant(&row.scope(), STATION_EDIT)
            .map(|_| ())
            .map_err(|_| not_found()),
        Err(_) => Err(not_found()),
    }
}

/// Checks every row (in order) and, unless `dry_run`, stores the valid ones in one
/// transaction. Answers each row's outcome: its figures, or why it was refused (also a row
/// repeating an earlier one's plant and period). A read-only account may only try (2).
pub async fn import(
    store: &Store,
    actor: &Actor,
    rows: &[Cells],
    dry_run: bool,
    now: i64,
) -> Result<Vec<std::result::Result<Prediction, DomainError>>> {
    if !dry_run {
        actor.require_writable()?;
    }
    let mut allowed: HashMap<PlantId, std::result::Result<(), DomainError>> = HashMap::new();
    let mut seen = HashSet::new();
    let mut outcomes = Vec::with_capacity(rows.len());
    for cells in rows {
        let mut outcome = parse(cells);
        if let Ok(p) = &outcome {
            if let Entry::Vacant(slot) = allowed.entry(p.plant_id) {
                slot.insert(may_edit(store, actor, p.plant_id).await);
            }
            if let Some(Err(e)) = allowed.get(&p.plant_id) {
                outcome = Err(e.clone());
            } else if !seen.insert((p.plant_id, p.year, p.month, p.day)) {
                outcome = Err(DomainError::with_detail(
                    Code::InvalidParameter,
                    "row repeated in the file",
                ));
            }
        }
        outcomes.push(outcome);
    }
    let good: Vec<Prediction> = outcomes.iter().filter_map(|o| o.clone().ok()).collect();
    if !dry_run && !good.is_empty() {
        store.upsert_predictions(&good, now).await?;
        tracing::info!(rows = good.len(), by = %actor.id, "predicted generation imported");
    }
    Ok(outcomes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(v: [&str; 5]) -> [String; 5] {
        v.map(String::from)
    }

    #[test]
    fn rows_are_checked_field_by_field() {
        let ok = parse(&cells(["7", "2026", "2", "", "310.5"])).unwrap();
        assert_eq!((ok.plant_id, ok.day, ok.kwh), (PlantId(7), 0, 310.5));
        assert_eq!(
            parse(&cells(["7", "2026", "2", "28", "10"])).unwrap().day,
            28
        );
        for (row, field) in [
            (["x", "2026", "2", "", "1"], "plantId"),
            (["7", "1999", "2", "", "1"], "year"),
            (["7", "2026", "13", "", "1"], "month"),
            (["7", "2026", "2", "29", "1"], "day"),
            (["7", "2026", "2", "", "-1"], "kwh"),
            (["7", "2026", "2", "", "lots"], "kwh"),
        ] {
            assert_eq!(
                parse(&cells(row)).unwrap_err().detail.as_deref(),
                Some(field)
            );
        }
    }
}
