//! A battery's health per plant-local day (docs/battery-health.md): rows the battery health
//! job computes from the samples (`service::battery_health`), read by the battery's health
//! screen, so a year reads 365 rows instead of a year of samples.

use domain::{DeviceFamily, ids::DeviceId};

use crate::{Result, Store, history::DeviceZone};

/// One day of one battery; `None` where the day's reports did not give the figure.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct HealthDayRow {
    pub device_id: DeviceId,
    /// `YYYY-MM-DD`, plant-local.
    pub day: String,
    /// %, the median the BMS reported.
    pub soh: Option<f64>,
    /// The BMS's cycle count (the day's highest).
    pub bms_cycles: Option<f64>,
    /// Ah, the BMS's full capacity.
    pub capacity_ah: Option<f64>,
    /// V, the mean stack voltage.
    pub voltage: Option<f64>,
    pub discharge_kwh: Option<f64>,
    pub charge_kwh: Option<f64>,
    /// Equivalent full cycles of the day.
    pub efc: Option<f64>,
    pub spread_mv: Option<f64>,
    pub high_pack: Option<i64>,
    pub high_cell: Option<i64>,
    pub low_pack: Option<i64>,
    pub low_cell: Option<i64>,
    /// `discharge` or `charge`: the widest full swing that ended this day, if any.
    pub cycle_kind: Option<String>,
    pub cycle_start: Option<i64>,
    pub cycle_end: Option<i64>,
    pub cycle_soc_from: Option<f64>,
    pub cycle_soc_to: Option<f64>,
    pub cycle_ah: Option<f64>,
    pub cycle_kwh: Option<f64>,
    pub measured_ah: Option<f64>,
    pub measured_kwh: Option<f64>,
    /// The BMS's SOH × full capacity at the swing's end, Ah.
    pub bms_ah: Option<f64>,
    pub samples: i64,
    pub updated_at: i64,
}

impl HealthDayRow {
    /// A day of `device` with no figures yet.
    pub fn empty(device_id: DeviceId, day: &str) -> HealthDayRow {
        HealthDayRow {
            device_id,
            day: day.to_string(),
            soh: None,
            bms_cycles: None,
            capacity_ah: None,
            voltage: None,
            discharge_kwh: None,
            charge_kwh: None,
            efc: None,
            spread_mv: None,
            high_pack: None,
            high_cell: None,
            low_pack: None,
            low_cell: None,
            cycle_kind: None,
            cycle_start: None,
            cycle_end: None,
            cycle_soc_from: None,
            cycle_soc_to: None,
            cycle_ah: None,
            cycle_kwh: None,
            measured_ah: None,
            measured_kwh: None,
            bms_ah: None,
            samples: 0,
            updated_at: 0,
        }
    }
}

/// A battery day whose samples changed after it was computed.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct StaleDay {
    pub id: i64,
    pub device_id: DeviceId,
    /// `YYYY-MM-DD`, plant-local.
    pub day: String,
}

const COLUMNS: &str = "device_id, day, soh, bms_cycles, capacity_ah, voltage, discharge_kwh, \
    charge_kwh, efc, spread_mv, high_pack, high_cell, low_pack, low_cell, cycle_kind, \
    cycle_start, cycle_end, cycle_soc_from, cycle_soc_to, cycle_ah, cycle_kwh, measured_ah, \
    measured_kwh, bms_ah, samples, updated_at";

impl Store {
    /// The stored days of a battery `from..=to` (`YYYY-MM-DD`), oldest first.
    pub async fn battery_health_days(
        &self,
        device: DeviceId,
        from: &str,
        to: &str,
    ) -> Result<Vec<HealthDayRow>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM battery_health_days \
             WHERE device_id = $1 AND day >= $2 AND day <= $3 ORDER BY day"
        );
        Ok(rows!(
            self,
            fetch_all,
            HealthDayRow,
            &sql,
            device,
            from,
            to
        )?)
    }

    /// The newest day stored for a battery.
    pub async fn battery_health_last_day(&self, device: DeviceId) -> Result<Option<String>> {
        Ok(scalar!(
            self,
            fetch_one,
            Option<String>,
            "SELECT MAX(day) FROM battery_health_days WHERE device_id = $1",
            device
        )?)
    }

    /// Keeps one day of a battery; a day stored already is replaced (a day computed again,
    /// or by two replicas, comes out the same).
    pub async fn put_battery_health_day(&self, r: &HealthDayRow) -> Result<()> {
        let sql = format!(
            "INSERT INTO battery_health_days ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, \
             $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, \
             $25, $26) ON CONFLICT (device_id, day) DO UPDATE SET soh = excluded.soh, \
             bms_cycles = excluded.bms_cycles, capacity_ah = excluded.capacity_ah, \
             voltage = excluded.voltage, discharge_kwh = excluded.discharge_kwh, \
             charge_kwh = excluded.charge_kwh, efc = excluded.efc, \
             spread_mv = excluded.spread_mv, high_pack = excluded.high_pack, \
             high_cell = excluded.high_cell, low_pack = excluded.low_pack, \
             low_cell = excluded.low_cell, cycle_kind = excluded.cycle_kind, \
             cycle_start = excluded.cycle_start, cycle_end = excluded.cycle_end, \
             cycle_soc_from = excluded.cycle_soc_from, cycle_soc_to = excluded.cycle_soc_to, \
             cycle_ah = excluded.cycle_ah, cycle_kwh = excluded.cycle_kwh, \
             measured_ah = excluded.measured_ah, measured_kwh = excluded.measured_kwh, \
             bms_ah = excluded.bms_ah, samples = excluded.samples, \
             updated_at = excluded.updated_at"
        );
        exec!(
            self,
            &sql,
            r.device_id,
            &r.day,
            r.soh,
            r.bms_cycles,
            r.capacity_ah,
            r.voltage,
            r.discharge_kwh,
            r.charge_kwh,
            r.efc,
            r.spread_mv,
            r.high_pack,
            r.high_cell,
            r.low_pack,
            r.low_cell,
            r.cycle_kind.as_deref(),
            r.cycle_start,
            r.cycle_end,
            r.cycle_soc_from,
            r.cycle_soc_to,
            r.cycle_ah,
            r.cycle_kwh,
            r.measured_ah,
            r.measured_kwh,
            r.bms_ah,
            r.samples,
            r.updated_at
        )?;
        Ok(())
    }

    /// Every battery with its plant's time zone name (none without a plant).
    pub async fn battery_zones(&self) -> Result<Vec<DeviceZone>> {
        Ok(rows!(
            self,
            fetch_all,
            DeviceZone,
            "SELECT d.id AS device_id, p.timezone FROM devices d \
             LEFT JOIN plants p ON p.id = d.plant_id WHERE d.family = $1 ORDER BY d.id",
            DeviceFamily::Battery.as_str()
        )?)
    }

    /// The time of a device's oldest stored sample, as a row or in a block.
    pub async fn oldest_sample(&self, device: DeviceId) -> Result<Option<i64>> {
        let row = scalar!(
            self,
            fetch_one,
            Option<i64>,
            "SELECT MIN(ts) FROM samples WHERE device_id = $1",
            device
        )?;
        let block = scalar!(
            self,
            fetch_one,
            Option<i64>,
            "SELECT MIN(first_ts) FROM sample_blocks WHERE device_id = $1",
            device
        )?;
        Ok(match (row, block) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        })
    }

    /// Up to `limit` marks of battery days to compute again (late reports merged by the
    /// history compaction, [`Store::compact_day`]), the oldest mark first.
    pub async fn battery_health_stale(&self, limit: i64) -> Result<Vec<StaleDay>> {
        let sql = format!(
            "SELECT id, device_id, day FROM battery_health_stale ORDER BY id {}",
            crate::sql::page(limit, 0)
        );
        Ok(rows!(self, fetch_all, StaleDay, &sql)?)
    }

    /// Deletes the marks read (by id: a mark made since, even for the same day, stays).
    pub async fn clear_battery_health_stale(&self, ids: &[i64]) -> Result<()> {
        if ids.is_empty() {
            return Ok(());
        }
        in_tx!(self, |tx, sqlite| {
            for id in ids {
                tx_exec!(
                    tx,
                    sqlite,
                    "DELETE FROM battery_health_stale WHERE id = $1",
                    *id
                )?;
            }
            Ok::<(), crate::StoreError>(())
        })
    }
}
