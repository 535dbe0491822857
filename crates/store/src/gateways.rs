//! The registry of gateways and devices: what exists, and which plant it belongs to.

use crate::{Result, Store, conflict};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct GatewayRow {
    pub id: i64,
    pub sn: String,
    pub reg_key: String,
    pub alias: String,
    pub protocol: String,
    pub model: String,
    pub comm_type: String,
    pub soft_ver: String,
    pub hard_ver: String,
    pub signal: Option<i64>,
    pub upload_cycle: i64,
    pub plant_id: Option<i64>,
    pub owner_id: Option<i64>,
    pub company_id: Option<i64>,
    pub online: bool,
    pub last_online: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DeviceRow {
    pub id: i64,
    pub sn: String,
    pub gateway_id: Option<i64>,
    pub plant_id: Option<i64>,
    pub family: String,
    pub type_code: i64,
    pub protocol: String,
    pub alias: String,
    pub model: String,
    pub rated_power: f64,
    pub versions: String,
    pub parent_sn: Option<String>,
    pub status: i64,
    pub online: bool,
    pub last_seen: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
}

const GATEWAY_COLUMNS: &str = "id, sn, reg_key, alias, protocol, model, comm_type, soft_ver, \
    hard_ver, signal, upload_cycle, plant_id, owner_id, company_id, online, last_online, \
    created_at, updated_at";
const DEVICE_COLUMNS: &str = "id, sn, gateway_id, plant_id, family, type_code, protocol, alias, \
    model, rated_power, versions, parent_sn, status, online, last_seen, created_at, updated_at";

impl Store {
    /// Registers a gateway (SN and registration key); a known SN answers `Conflict("gateways")`.
    pub async fn create_gateway(
        &self,
        sn: &str,
        reg_key: &str,
        protocol: &str,
        now: i64,
    ) -> Result<i64> {
        scalar!(
            self,
            fetch_one,
            i64,
            "INSERT INTO gateways (sn, reg_key, protocol, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $4) RETURNING id",
            sn,
            reg_key,
            protocol,
            now
        )
        .map_err(|e| conflict(e, "gateways"))
    }

    pub async fn gateway_by_sn(&self, sn: &str) -> Result<Option<GatewayRow>> {
        let sql = format!("SELECT {GATEWAY_COLUMNS} FROM gateways WHERE sn = $1");
        Ok(rows!(self, fetch_optional, GatewayRow, &sql, sn)?)
    }

    pub async fn gateway(&self, id: i64) -> Result<Option<GatewayRow>> {
        let sql = format!("SELECT {GATEWAY_COLUMNS} FROM gateways WHERE id = $1");
        Ok(rows!(self, fetch_optional, GatewayRow, &sql, id)?)
    }

    pub async fn plant_gateways(&self, plant: i64) -> Result<Vec<GatewayRow>> {
        let sql = format!("SELECT {GATEWAY_COLUMNS} FROM gateways WHERE plant_id = $1 ORDER BY sn");
        Ok(rows!(self, fetch_all, GatewayRow, &sql, plant)?)
    }

    /// Binds a gateway and the devices behind it to a plant, recording who bound it.
    pub async fn bind_gateway(
        &self,
        gateway: i64,
        plant: i64,
        owner: i64,
        company: Option<i64>,
        now: i64,
    ) -> Result<bool> {
        let n = exec!(
            self,
            "UPDATE gateways SET plant_id = $2, owner_id = $3, company_id = $4, updated_at = $5 \
             WHERE id = $1",
            gateway,
            plant,
            owner,
            company,
            now
        )?;
        exec!(
            self,
            "UPDATE devices SET plant_id = $2, updated_at = $3 WHERE gateway_id = $1",
            gateway,
            plant,
            now
        )?;
        Ok(n == 1)
    }

    /// Unbinds a gateway and its devices from their plant; history stays with the plant.
    pub async fn unbind_gateway(&self, gateway: i64, now: i64) -> Result<bool> {
        exec!(
            self,
            "UPDATE devices SET plant_id = NULL, updated_at = $2 WHERE gateway_id = $1",
            gateway,
            now
        )?;
        Ok(exec!(
            self,
            "UPDATE gateways SET plant_id = NULL, owner_id = NULL, company_id = NULL, \
             updated_at = $2 WHERE id = $1",
            gateway,
            now
        )? == 1)
    }

    pub async fn device_by_sn(&self, sn: &str) -> Result<Option<DeviceRow>> {
        let sql = format!("SELECT {DEVICE_COLUMNS} FROM devices WHERE sn = $1");
        Ok(rows!(self, fetch_optional, DeviceRow, &sql, sn)?)
    }

    pub async fn gateway_devices(&self, gateway: i64) -> Result<Vec<DeviceRow>> {
        let sql = format!("SELECT {DEVICE_COLUMNS} FROM devices WHERE gateway_id = $1 ORDER BY sn");
        Ok(rows!(self, fetch_all, DeviceRow, &sql, gateway)?)
    }

    pub async fn plant_devices(&self, plant: i64) -> Result<Vec<DeviceRow>> {
        let sql =
            format!("SELECT {DEVICE_COLUMNS} FROM devices WHERE plant_id = $1 ORDER BY family, sn");
        Ok(rows!(self, fetch_all, DeviceRow, &sql, plant)?)
    }

    /// Records a device a gateway reports, or updates what it says about an existing one. The
    /// device follows its gateway's plant.
    #[allow(clippy::too_many_arguments)]
    pub async fn upsert_device(
        &self,
        sn: &str,
        gateway: i64,
        family: &str,
        type_code: i64,
        protocol: &str,
        model: &str,
        parent_sn: Option<&str>,
        now: i64,
    ) -> Result<i64> {
        Ok(scalar!(
            self,
            fetch_one,
            i64,
            "INSERT INTO devices (sn, gateway_id, plant_id, family, type_code, protocol, model, \
             parent_sn, created_at, updated_at) \
             VALUES ($1, $2, (SELECT plant_id FROM gateways WHERE id = $2), $3, $4, $5, $6, $7, $8, $8) \
             ON CONFLICT (sn) DO UPDATE SET gateway_id = $2, \
               plant_id = (SELECT plant_id FROM gateways WHERE id = $2), family = $3, \
               type_code = $4, protocol = $5, model = $6, parent_sn = $7, updated_at = $8 \
             RETURNING id",
            sn,
            gateway,
            family,
            type_code,
            protocol,
            model,
            parent_sn,
            now
        )?)
    }
}
