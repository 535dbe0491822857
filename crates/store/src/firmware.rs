//! The firmware catalogue: files filed under a secondary label of the inverter-type tree (or
//! gateway software, label 0), with their product, hardware version, change logs and an
//! enabled flag. The file itself lives under the data directory; the row names it. Which
//! inverters a file fits follows from its label's type codes (`inverter_type_codes`).

use crate::{
    Conflict, Result, Store,
    audit::{NewAudit, noting},
    conflict,
};
use domain::ids::{FirmwareId, InverterTypeId, ProductId, UserId};

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
    pub id: FirmwareId,
    pub target: String,
    /// The secondary label of the inverter-type tree; 0 for gateway software.
    pub type_id: InverterTypeId,
    pub name: String,
    pub file_name: String,
    pub stored_name: String,
    pub size: i64,
    pub version: String,
    /// The Chinese change log.
    pub change_log: String,
    pub change_log_en: String,
    pub product_id: Option<ProductId>,
    pub hardware_version: String,
    /// `iap` or `isp`.
    pub upgrade_mode: String,
    pub firmware_type: String,
    pub enabled: bool,
    pub created_by: Option<UserId>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A firmware row with the names screens show beside it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct FirmwareListRow {
    #[sqlx(flatten)]
    pub firmware: FirmwareRow,
    pub type_name: Option<String>,
    pub parent_type_id: Option<InverterTypeId>,
    pub parent_type_name: Option<String>,
    pub manufacturer: Option<String>,
    pub product_name: Option<String>,
    pub part_number: Option<String>,
    /// The uploader's nickname, else account.
    pub creator: Option<String>,
    /// An upgrade queued, sending or upgrading uses the file.
    pub in_use: bool,
}

/// The fields an upload or an edit writes (an edit keeps the file unless `file` is set).
#[derive(Debug, Clone)]
pub struct FirmwareFields<'a> {
    pub type_id: InverterTypeId,
    pub name: &'a str,
    pub version: &'a str,
    pub change_log: &'a str,
    pub change_log_en: &'a str,
    pub product_id: Option<ProductId>,
    pub hardware_version: &'a str,
    pub upgrade_mode: &'a str,
    pub firmware_type: &'a str,
    pub enabled: bool,
}

/// A stored file: the uploaded name, the name under the data directory and its size.
#[derive(Debug, Clone, Copy)]
pub struct FirmwareFile<'a> {
    pub file_name: &'a str,
    pub stored_name: &'a str,
    pub size: i64,
}

#[derive(Debug, Clone)]
pub struct NewFirmware<'a> {
    pub target: FirmwareTarget,
    pub fields: FirmwareFields<'a>,
    pub file: FirmwareFile<'a>,
    pub created_by: Option<UserId>,
    pub now: i64,
}

/// What a firmware listing asks for.
#[derive(Debug, Clone, Default)]
pub struct FirmwareFilter {
    pub target: Option<FirmwareTarget>,
    /// Lower-case part of the name, file name, version or part number.
    pub keyword: Option<String>,
    /// A secondary label, or a primary title (its labels).
    pub type_id: Option<InverterTypeId>,
    pub enabled: Option<bool>,
    pub limit: i64,
    pub offset: i64,
}

const COLUMNS: &str = "f.id, f.target, f.type_id, f.name, f.file_name, f.stored_name, f.size, \
    f.version, f.change_log, f.change_log_en, f.product_id, f.hardware_version, f.upgrade_mode, \
    f.firmware_type, f.enabled, f.created_by, f.created_at, f.updated_at";

/// An upgrade that has not ended holds its file.
pub(crate) const IN_USE: &str = "EXISTS (SELECT 1 FROM upgrades up WHERE up.firmware_id = f.id \
    AND up.state IN ('queued', 'sending', 'upgrading'))";

const LIST_COLUMNS: &str = "t.name AS type_name, pt.id AS parent_type_id, \
    pt.name AS parent_type_name, pr.manufacturer, pr.name AS product_name, pr.part_number, \
    COALESCE(NULLIF(u.nickname, ''), u.account) AS creator";
const LIST_FROM: &str = "FROM firmware f \
    LEFT JOIN inverter_types t ON t.id = f.type_id \
    LEFT JOIN inverter_types pt ON pt.id = t.parent_id \
    LEFT JOIN products pr ON pr.id = f.product_id \
    LEFT JOIN users u ON u.id = f.created_by";
const LIST_FILTER: &str = "($1 IS NULL OR f.target = $1) \
    AND ($2 IS NULL OR LOWER(f.name) LIKE $2 OR LOWER(f.file_name) LIKE $2 \
        OR LOWER(f.version) LIKE $2 OR LOWER(COALESCE(pr.part_number, '')) LIKE $2) \
    AND ($3 IS NULL OR f.type_id = $3 OR t.parent_id = $3) \
    AND ($4 IS NULL OR f.enabled = $4)";

impl Store {
    /// Adds a firmware file with its audit entry (`None`: a seeded catalogue, no one's
    /// action), whose detail gains the new id as `firmId`. The same version twice for one
    /// target and label answers `Conflict::FirmwareVersion` (the spec's 4002).
    pub async fn insert_firmware(
        &self,
        f: &NewFirmware<'_>,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<FirmwareId> {
        let x = &f.fields;
        let id = in_tx!(self, |tx, sqlite| {
            let id = tx_scalar!(
                tx,
                sqlite,
                FirmwareId,
                "INSERT INTO firmware (target, type_id, name, file_name, stored_name, size, \
                 version, change_log, change_log_en, product_id, hardware_version, upgrade_mode, \
                 firmware_type, enabled, created_by, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16) \
                 RETURNING id",
                f.target.as_str(),
                x.type_id,
                x.name,
                f.file.file_name,
                f.file.stored_name,
                f.file.size,
                x.version,
                x.change_log,
                x.change_log_en,
                x.product_id,
                x.hardware_version,
                x.upgrade_mode,
                x.firmware_type,
                x.enabled,
                f.created_by,
                f.now
            )
            .map_err(|e| conflict(e, Conflict::FirmwareVersion))?;
            if let Some(a) = audit {
                let detail = noting(a.detail, "firmId", id.0);
                audit_in_tx!(
                    tx,
                    sqlite,
                    &NewAudit {
                        detail: &detail,
                        ..a.clone()
                    }
                )?;
            }
            id
        });
        Ok(id)
    }

    /// Rewrites a firmware's fields, and its file when `file` is given, with its audit entry;
    /// `false` (nothing written) when it is gone. A duplicate version answers
    /// `Conflict::FirmwareVersion`.
    pub async fn update_firmware(
        &self,
        id: FirmwareId,
        x: &FirmwareFields<'_>,
        file: Option<FirmwareFile<'_>>,
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        let (file_name, stored_name, size) = match file {
            Some(f) => (Some(f.file_name), Some(f.stored_name), Some(f.size)),
            None => (None, None, None),
        };
        let found = in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "UPDATE firmware SET type_id = $2, name = $3, version = $4, change_log = $5, \
                 change_log_en = $6, product_id = $7, hardware_version = $8, upgrade_mode = $9, \
                 firmware_type = $10, enabled = $11, updated_at = $12, \
                 file_name = COALESCE($13, file_name), stored_name = COALESCE($14, stored_name), \
                 size = COALESCE($15, size) WHERE id = $1",
                id,
                x.type_id,
                x.name,
                x.version,
                x.change_log,
                x.change_log_en,
                x.product_id,
                x.hardware_version,
                x.upgrade_mode,
                x.firmware_type,
                x.enabled,
                now,
                file_name,
                stored_name,
                size
            )
            .map_err(|e| conflict(e, Conflict::FirmwareVersion))?;
            if n == 1 {
                audit_in_tx!(tx, sqlite, audit)?;
            }
            n == 1
        });
        Ok(found)
    }

    pub async fn firmware(&self, id: FirmwareId) -> Result<Option<FirmwareRow>> {
        let sql = format!("SELECT {COLUMNS} FROM firmware f WHERE f.id = $1");
        Ok(rows!(self, fetch_optional, FirmwareRow, &sql, id)?)
    }

    /// One firmware with its names.
    pub async fn firmware_item(&self, id: FirmwareId) -> Result<Option<FirmwareListRow>> {
        let sql = format!(
            "SELECT {COLUMNS}, {LIST_COLUMNS}, {IN_USE} AS in_use {LIST_FROM} WHERE f.id = $1"
        );
        Ok(rows!(self, fetch_optional, FirmwareListRow, &sql, id)?)
    }

    /// A page of firmware, newest first, with the total before paging.
    pub async fn firmware_page(&self, q: &FirmwareFilter) -> Result<(Vec<FirmwareListRow>, i64)> {
        let keyword = q
            .keyword
            .as_ref()
            .map(|k| format!("%{}%", k.to_lowercase()));
        let target = q.target.map(FirmwareTarget::as_str);
        let bounds = crate::sql::page(q.limit, q.offset);
        let sql = format!(
            "SELECT {COLUMNS}, {LIST_COLUMNS}, {IN_USE} AS in_use {LIST_FROM} \
             WHERE {LIST_FILTER} ORDER BY f.created_at DESC, f.id DESC {bounds}"
        );
        let page = rows!(
            self,
            fetch_all,
            FirmwareListRow,
            &sql,
            target,
            keyword.as_deref(),
            q.type_id,
            q.enabled
        )?;
        let count_sql = format!("SELECT CAST(COUNT(*) AS BIGINT) {LIST_FROM} WHERE {LIST_FILTER}");
        let total = scalar!(
            self,
            fetch_one,
            i64,
            &count_sql,
            target,
            keyword.as_deref(),
            q.type_id,
            q.enabled
        )?;
        Ok((page, total))
    }

    /// Every version for a target and label (enabled or not), newest first: the version rules
    /// compare a new upload against all of them.
    pub async fn firmware_versions(
        &self,
        target: FirmwareTarget,
        type_id: InverterTypeId,
    ) -> Result<Vec<FirmwareRow>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM firmware f WHERE f.target = $1 AND f.type_id = $2 \
             ORDER BY f.created_at DESC, f.id DESC"
        );
        Ok(rows!(
            self,
            fetch_all,
            FirmwareRow,
            &sql,
            target.as_str(),
            type_id
        )?)
    }

    /// The enabled firmware for a target and label, newest first.
    pub async fn enabled_firmware(
        &self,
        target: FirmwareTarget,
        type_id: InverterTypeId,
    ) -> Result<Vec<FirmwareRow>> {
        Ok(self
            .firmware_versions(target, type_id)
            .await?
            .into_iter()
            .filter(|f| f.enabled)
            .collect())
    }

    /// The enabled inverter firmware whose label holds inverter type `code`, newest first.
    pub async fn enabled_firmware_for_code(&self, code: i64) -> Result<Vec<FirmwareRow>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM firmware f JOIN inverter_type_codes c ON c.type_id = f.type_id \
             WHERE c.code = $1 AND f.target = 'inverter' AND f.enabled \
             ORDER BY f.created_at DESC, f.id DESC"
        );
        Ok(rows!(self, fetch_all, FirmwareRow, &sql, code)?)
    }

    /// Whether another firmware of `target` (not `except`) has this name, any case.
    pub async fn firmware_name_taken(
        &self,
        target: FirmwareTarget,
        name: &str,
        except: Option<FirmwareId>,
    ) -> Result<bool> {
        let n = scalar!(
            self,
            fetch_one,
            i64,
            "SELECT CAST(COUNT(*) AS BIGINT) FROM firmware \
             WHERE target = $1 AND LOWER(name) = LOWER($2) AND ($3 IS NULL OR id <> $3)",
            target.as_str(),
            name,
            except
        )?;
        Ok(n > 0)
    }

    /// Whether product `id` exists (firmware may name one).
    pub async fn firmware_product_exists(&self, id: ProductId) -> Result<bool> {
        let n = scalar!(
            self,
            fetch_one,
            i64,
            "SELECT CAST(COUNT(*) AS BIGINT) FROM products WHERE id = $1",
            id
        )?;
        Ok(n > 0)
    }

    /// Whether an upgrade queued, sending or upgrading uses firmware `id`.
    pub async fn firmware_in_use(&self, id: FirmwareId) -> Result<bool> {
        let sql =
            format!("SELECT CAST(COUNT(*) AS BIGINT) FROM firmware f WHERE f.id = $1 AND {IN_USE}");
        Ok(scalar!(self, fetch_one, i64, &sql, id)? > 0)
    }

    /// Deletes each firmware of `doomed` that no running upgrade uses, with its audit entry,
    /// in one transaction; answers the ids deleted (the others are missing or in use, and
    /// their entries are not written).
    pub async fn delete_unused_firmware(
        &self,
        doomed: &[(FirmwareId, NewAudit<'_>)],
    ) -> Result<Vec<FirmwareId>> {
        let sql = format!(
            "DELETE FROM firmware WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM firmware f WHERE f.id = $1 AND {IN_USE})"
        );
        Ok(in_tx!(self, |tx, sqlite| {
            let mut deleted = Vec::new();
            for (id, audit) in doomed {
                if tx_exec!(tx, sqlite, &sql, *id)? == 1 {
                    audit_in_tx!(tx, sqlite, audit)?;
                    deleted.push(*id);
                }
            }
            deleted
        }))
    }
}
