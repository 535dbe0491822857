//! The firmware catalogue (minimal): files uploaded for an inverter type code or for gateways,
//! with an enabled flag. The file itself lives under the data directory; the row names it.

use crate::{Result, Store, conflict};

/// What a firmware file is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirmwareTarget {
    Inverter,
    Gateway,
}

impl FirmwareTarget {
    pub fn as_str(self) -> &'static str {
        match self {
            FirmwareTarget::Inverter => "inverter",
            FirmwareTarget::Gateway => "gateway",
        }
    }

    pub fn parse(s: &str) -> Option<FirmwareTarget> {
        match s {
            "inverter" => Some(FirmwareTarget::Inverter),
            "gateway" => Some(FirmwareTarget::Gateway),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct FirmwareRow {
    pub id: i64,
    pub target: String,
    /// The inverter type code; 0 for gateway firmware.
    pub type_code: i64,
    pub name: String,
    pub file_name: String,
    pub stored_name: String,
    pub size: i64,
    pub version: String,
    pub change_log: String,
    pub enabled: bool,
    pub created_by: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
}

#[derive(Debug, Clone)]
pub struct NewFirmware<'a> {
    pub target: FirmwareTarget,
    pub type_code: i64,
    pub name: &'a str,
    pub file_name: &'a str,
    pub stored_name: &'a str,
    pub size: i64,
    pub version: &'a str,
    pub change_log: &'a str,
    pub enabled: bool,
    pub created_by: Option<i64>,
    pub now: i64,
}

const COLUMNS: &str = "id, target, type_code, name, file_name, stored_name, size, version, \
    change_log, enabled, created_by, created_at, updated_at";

impl Store {
    /// Adds a firmware file. The same version twice for one target and type answers
    /// `Conflict("firmware")` (the spec's 4002).
    pub async fn insert_firmware(&self, f: &NewFirmware<'_>) -> Result<i64> {
        scalar!(
            self,
            fetch_one,
            i64,
            "INSERT INTO firmware (target, type_code, name, file_name, stored_name, size, \
             version, change_log, enabled, created_by, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) RETURNING id",
            f.target.as_str(),
            f.type_code,
            f.name,
            f.file_name,
            f.stored_name,
            f.size,
            f.version,
            f.change_log,
            f.enabled,
            f.created_by,
            f.now
        )
        .map_err(|e| conflict(e, "firmware"))
    }

    pub async fn firmware(&self, id: i64) -> Result<Option<FirmwareRow>> {
        let sql = format!("SELECT {COLUMNS} FROM firmware WHERE id = $1");
        Ok(rows!(self, fetch_optional, FirmwareRow, &sql, id)?)
    }

    /// Every version for a target and type (enabled or not), newest first: the version rules
    /// compare a new upload against all of them.
    pub async fn firmware_versions(
        &self,
        target: FirmwareTarget,
        type_code: i64,
    ) -> Result<Vec<FirmwareRow>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM firmware WHERE target = $1 AND type_code = $2 \
             ORDER BY created_at DESC, id DESC"
        );
        Ok(rows!(
            self,
            fetch_all,
            FirmwareRow,
            &sql,
            target.as_str(),
            type_code
        )?)
    }

    /// The enabled firmware for a target and type, newest first.
    pub async fn enabled_firmware(
        &self,
        target: FirmwareTarget,
        type_code: i64,
    ) -> Result<Vec<FirmwareRow>> {
        Ok(self
            .firmware_versions(target, type_code)
            .await?
            .into_iter()
            .filter(|f| f.enabled)
            .collect())
    }

    /// Turns a firmware file on or off; answers whether it exists.
    pub async fn set_firmware_enabled(&self, id: i64, enabled: bool, now: i64) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE firmware SET enabled = $2, updated_at = $3 WHERE id = $1",
            id,
            enabled,
            now
        )? == 1)
    }
}
