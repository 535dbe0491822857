//! When each PV input of an inverter last produced (`alarm_string_inputs`), so that the
//! `string_low` rule tells a dead string from an input no string is wired to (docs/alarms.md).
//! The engine reads a batch's rows at once and writes one only when it changed by the hour.

use domain::ids::DeviceId;

use crate::{Result, Store, sql::placeholders};

/// One inverter's inputs: per input (pv1 first), when it last produced (ms), if ever.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StringInputs {
    pub device_id: DeviceId,
    pub produced: Vec<Option<i64>>,
}

#[derive(sqlx::FromRow)]
struct Row {
    device_id: DeviceId,
    produced: String,
}

impl Store {
    /// The rows of these inverters that have one.
    pub async fn alarm_string_inputs(&self, devices: &[DeviceId]) -> Result<Vec<StringInputs>> {
        if devices.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT device_id, produced FROM alarm_string_inputs WHERE device_id IN ({})",
            placeholders(1, devices.len())
        );
        let rows = with_ids!(self, Row, sql, [], devices)?;
        Ok(rows
            .into_iter()
            .map(|r| StringInputs {
                device_id: r.device_id,
                // A row that does not read is taken as "nothing produced yet".
                produced: serde_json::from_str(&r.produced).unwrap_or_default(),
            })
            .collect())
    }

    /// Keeps an inverter's row (replacing the one there).
    pub async fn put_alarm_string_inputs(&self, row: &StringInputs, now: i64) -> Result<()> {
        let produced = serde_json::to_string(&row.produced).unwrap_or_else(|_| "[]".into());
        exec!(
            self,
            "INSERT INTO alarm_string_inputs (device_id, produced, updated_at) VALUES ($1, $2, $3) \
             ON CONFLICT (device_id) DO UPDATE SET produced = excluded.produced, \
             updated_at = excluded.updated_at",
            row.device_id,
            produced,
            now
        )?;
        Ok(())
    }
}
