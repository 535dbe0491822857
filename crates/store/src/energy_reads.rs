//! Set-based reads for plant and device lists: one query per page of plants or devices (not
//! one per row) for the latest values and the PV energy of today and of all time. A list of 50
//! stays a handful of queries whatever the page holds.

use domain::DeviceFamily;
use domain::ids::{DeviceId, PlantId};

use crate::{Result, Store, sql::placeholders, telemetry::SampleRow};

/// When one device of a plant last reported.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct PlantDeviceStamp {
    pub plant_id: PlantId,
    pub device_id: DeviceId,
    #[sqlx(try_from = "String")]
    pub family: DeviceFamily,
    /// The upload cycle (s) of the device's gateway (the gateways' default when it has none):
    /// what tells a fresh reading from a stale one.
    pub upload_cycle: i64,
    pub ts: i64,
}

/// One plant's energy of one metric on one day.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct PlantDayEnergy {
    pub plant_id: PlantId,
    pub day: String,
    pub kwh: f64,
}

/// One plant's energy of one metric over all its days.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct PlantTotalEnergy {
    pub plant_id: PlantId,
    pub kwh: f64,
}

/// One device's energy of one metric on one day.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct DeviceDayEnergy {
    pub device_id: DeviceId,
    pub day: String,
    pub kwh: f64,
}

/// One device's energy of one metric over all its days.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct DeviceTotalEnergy {
    pub device_id: DeviceId,
    pub kwh: f64,
}

impl Store {
    /// The energy of `metric` of these devices on days from `since` on (`YYYY-MM-DD`), per
    /// device and day, one query: callers pick each device's own today (a device list's page
    /// spans plants in different zones).
    pub async fn devices_energy_since(
        &self,
        devices: &[DeviceId],
        metric: &str,
        since: &str,
    ) -> Result<Vec<DeviceDayEnergy>> {
        if devices.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT device_id, day, kwh FROM energy_daily \
             WHERE metric = $1 AND day >= $2 AND device_id IN ({}) ORDER BY device_id, day",
            placeholders(3, devices.len())
        );
        Ok(with_ids!(
            self,
            DeviceDayEnergy,
            sql,
            [metric, since],
            devices
        )?)
    }

    /// The energy of `metric` of these devices over all their days, one query (devices
    /// without a row are left out).
    pub async fn devices_energy_total(
        &self,
        devices: &[DeviceId],
        metric: &str,
    ) -> Result<Vec<DeviceTotalEnergy>> {
        if devices.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT device_id, SUM(kwh) AS kwh FROM energy_daily \
             WHERE metric = $1 AND device_id IN ({}) GROUP BY device_id",
            placeholders(2, devices.len())
        );
        Ok(with_ids!(self, DeviceTotalEnergy, sql, [metric], devices)?)
    }

    /// When each device of these plants last reported, one query. The values are read apart
    /// ([`Store::latest_samples`]), for the devices whose newest sample a caller has not seen.
    pub async fn plants_latest_stamps(&self, plants: &[PlantId]) -> Result<Vec<PlantDeviceStamp>> {
        if plants.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT d.plant_id, l.device_id, d.family, COALESCE(g.upload_cycle, 300) AS upload_cycle, \
             l.ts FROM devices d \
             JOIN device_latest l ON l.device_id = d.id \
             LEFT JOIN gateways g ON g.id = d.gateway_id WHERE d.plant_id IN ({}) \
             ORDER BY d.plant_id, l.device_id",
            placeholders(1, plants.len())
        );
        Ok(with_ids!(self, PlantDeviceStamp, sql, [], plants)?)
    }

    /// The newest sample of each of these devices, one query.
    pub async fn latest_samples(&self, devices: &[DeviceId]) -> Result<Vec<SampleRow>> {
        if devices.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT device_id, ts, payload FROM device_latest WHERE device_id IN ({}) \
             ORDER BY device_id",
            placeholders(1, devices.len())
        );
        Ok(with_ids!(self, SampleRow, sql, [], devices)?)
    }

    /// The energy of `metric` of these plants on days from `since` on (`YYYY-MM-DD`), per
    /// plant and day: callers pick each plant's own today (plants live in different zones).
    pub async fn plants_energy_since(
        &self,
        plants: &[PlantId],
        metric: &str,
        since: &str,
    ) -> Result<Vec<PlantDayEnergy>> {
        if plants.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT plant_id, day, kwh FROM plant_energy_daily \
             WHERE metric = $1 AND day >= $2 AND plant_id IN ({}) ORDER BY plant_id, day",
            placeholders(3, plants.len())
        );
        Ok(with_ids!(
            self,
            PlantDayEnergy,
            sql,
            [metric, since],
            plants
        )?)
    }

    /// The energy of `metric` of these plants over every day before `before` (`YYYY-MM-DD`):
    /// the closed part of their all-time energy (sums of day rows), one query.
    pub async fn plants_energy_before(
        &self,
        plants: &[PlantId],
        metric: &str,
        before: &str,
    ) -> Result<Vec<PlantTotalEnergy>> {
        if plants.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT plant_id, SUM(kwh) AS kwh FROM plant_energy_daily \
             WHERE metric = $1 AND day < $2 AND plant_id IN ({}) GROUP BY plant_id",
            placeholders(3, plants.len())
        );
        Ok(with_ids!(
            self,
            PlantTotalEnergy,
            sql,
            [metric, before],
            plants
        )?)
    }
    /// The energy of `metric` of these plants over the days from `from` and before `before`
    /// (`YYYY-MM-DD`), per plant, one query (plants without a row are left out).
    pub async fn plants_energy_between(
        &self,
        plants: &[PlantId],
        metric: &str,
        from: &str,
        before: &str,
    ) -> Result<Vec<PlantTotalEnergy>> {
        if plants.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT plant_id, SUM(kwh) AS kwh FROM plant_energy_daily \
             WHERE metric = $1 AND day >= $2 AND day < $3 AND plant_id IN ({}) GROUP BY plant_id",
            placeholders(4, plants.len())
        );
        Ok(with_ids!(
            self,
            PlantTotalEnergy,
            sql,
            [metric, from, before],
            plants
        )?)
    }
}
