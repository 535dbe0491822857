//! What the engine evaluates, read a batch of plants at a time so that a tick's memory does not
//! grow with the fleet: the plants a rule watches (by id, after a cursor), their devices with
//! their gateways' liveness and newest report, and their open events.

use domain::DeviceFamily;
use domain::ids::{CompanyId, DeviceId, EventId, PlantId};

use crate::{Result, Store, sql::placeholders};

/// A plant a rule watches.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct ScopePlant {
    pub id: PlantId,
    pub lat: f64,
    pub lon: f64,
    pub timezone: String,
    /// kWp.
    pub total_power: f64,
}

/// A device of a watched plant, its gateway's liveness and its newest report.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct DeviceState {
    pub id: DeviceId,
    pub plant_id: PlantId,
    pub sn: String,
    #[sqlx(try_from = "String")]
    pub family: DeviceFamily,
    /// When its newest report was taken.
    pub last_seen: Option<i64>,
    pub gateway_online: Option<bool>,
    pub gateway_last_online: Option<i64>,
    /// Seconds; the gateways' default when it has none.
    pub upload_cycle: i64,
    /// The newest report's values (JSON text).
    pub payload: Option<String>,
}

/// An open event of a device of a watched plant.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct OpenEvent {
    pub id: EventId,
    pub plant_id: PlantId,
    pub device_id: DeviceId,
    pub sn: String,
    pub code: String,
    pub severity: String,
    pub opened_at: i64,
}

impl Store {
    /// Up to `limit` plants (by id, after `after`) that `company` serves and the scope names:
    /// `all`, `customer` (`scope_id` a customers row of the company) or `plant`.
    pub async fn alarm_scope_plants(
        &self,
        company: CompanyId,
        scope: &str,
        scope_id: Option<i64>,
        after: PlantId,
        limit: i64,
    ) -> Result<Vec<ScopePlant>> {
        let sql = format!(
            "SELECT p.id, p.lat, p.lon, p.timezone, p.total_power FROM plants p \
             WHERE p.id > $2 AND {} AND ($3 = 'all' OR ($3 = 'plant' AND p.id = $4) \
             OR ($3 = 'customer' AND p.owner_id IN \
                 (SELECT c.user_id FROM customers c WHERE c.id = $4 AND c.company_id = $1))) \
             ORDER BY p.id {}",
            crate::plants::company_serves("$1", "p.owner_id", "p.company_id"),
            crate::sql::page(limit, 0)
        );
        Ok(rows!(
            self, fetch_all, ScopePlant, &sql, company, after, scope, scope_id
        )?)
    }

    /// The inverters, batteries, meters and weather stations of these plants with their gateway and newest
    /// report; `with_payload` reads the reports' values too.
    pub async fn alarm_devices(
        &self,
        plants: &[PlantId],
        with_payload: bool,
    ) -> Result<Vec<DeviceState>> {
        if plants.is_empty() {
            return Ok(Vec::new());
        }
        let payload = if with_payload {
            "l.payload"
        } else {
            "CAST(NULL AS TEXT) AS payload"
        };
        let sql = format!(
            "SELECT d.id, d.plant_id, d.sn, d.family, COALESCE(l.ts, d.last_seen) AS last_seen, \
             g.online AS gateway_online, g.last_online AS gateway_last_online, \
             COALESCE(g.upload_cycle, 300) AS upload_cycle, {payload} FROM devices d \
             LEFT JOIN device_latest l ON l.device_id = d.id \
             LEFT JOIN gateways g ON g.id = d.gateway_id \
             WHERE d.family IN ('inverter', 'battery', 'meter', 'weather_station') AND d.plant_id IN ({}) \
             ORDER BY d.plant_id, d.id",
            placeholders(1, plants.len())
        );
        Ok(with_ids!(self, DeviceState, sql, [], plants)?)
    }

    /// The open events of the devices of these plants.
    pub async fn alarm_open_events(&self, plants: &[PlantId]) -> Result<Vec<OpenEvent>> {
        if plants.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT e.id, d.plant_id, e.device_id, d.sn, e.code, e.severity, e.opened_at \
             FROM events e JOIN devices d ON d.id = e.device_id \
             WHERE e.closed_at IS NULL AND d.plant_id IN ({}) ORDER BY e.id",
            placeholders(1, plants.len())
        );
        Ok(with_ids!(self, OpenEvent, sql, [], plants)?)
    }
}
