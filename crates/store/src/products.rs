//! Products and their hardware versions (the catalogue firmware, inverters and the plant wizard
//! refer to). A product and its hardware list are written together in one transaction.

use domain::ids::{DeviceId, HardwareId, InverterTypeId};
use domain::{
    ids::ProductId,
    product::{Category, Product},
};

use crate::{Conflict, Result, Store, audit::NewAudit, conflict};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ProductRow {
    pub id: ProductId,
    pub category: String,
    pub name: String,
    pub part_number: String,
    pub manufacturer: String,
    pub type_id: Option<InverterTypeId>,
    /// The secondary label's name.
    pub type_name: Option<String>,
    pub rated_power: Option<f64>,
    pub remark: String,
    /// Firmware files that name the product.
    pub firmware_count: i64,
    /// Devices that are this product.
    pub device_count: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct HardwareRow {
    pub id: HardwareId,
    pub product_id: ProductId,
    pub product_name: String,
    pub version: String,
    pub remark: String,
}

/// What a product listing asks for.
#[derive(Debug, Clone, Default)]
pub struct ProductFilter {
    /// Part of the name, part number or manufacturer, any case.
    pub keyword: Option<String>,
    pub category: Option<Category>,
    pub limit: i64,
    pub offset: i64,
}

/// Why an edit or a removal did not happen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    Missing,
    /// The edit drops a hardware version a firmware file of the product names.
    HardwareInUse(String),
    /// Firmware, devices or manuals refer to the product.
    InUse,
}

const COLUMNS: &str = "pr.id, pr.category, pr.name, pr.part_number, pr.manufacturer, pr.type_id, \
    t.name AS type_name, pr.rated_power, pr.remark, \
    (SELECT COUNT(*) FROM firmware f WHERE f.product_id = pr.id) AS firmware_count, \
    (SELECT COUNT(*) FROM devices d WHERE d.product_id = pr.id) AS device_count, \
    pr.created_at, pr.updated_at";
const FROM: &str = "FROM products pr LEFT JOIN inverter_types t ON t.id = pr.type_id";
const CONDITIONS: &str = "($1 IS NULL OR LOWER(pr.name) LIKE $1 OR LOWER(pr.part_number) LIKE $1 \
    OR LOWER(pr.manufacturer) LIKE $1) AND ($2 IS NULL OR pr.category = $2)";

impl Store {
    /// A page of products, newest first, with the total before paging.
    pub async fn products(&self, f: &ProductFilter) -> Result<(Vec<ProductRow>, i64)> {
        let keyword = f
            .keyword
            .as_ref()
            .map(|k| format!("%{}%", k.to_lowercase()));
        let category = f.category.map(Category::as_str);
        let bounds = crate::sql::page(f.limit, f.offset);
        let sql =
            format!("SELECT {COLUMNS} {FROM} WHERE {CONDITIONS} ORDER BY pr.id DESC {bounds}");
        let page = rows!(
            self,
            fetch_all,
            ProductRow,
            &sql,
            keyword.as_deref(),
            category
        )?;
        let count_sql = format!("SELECT COUNT(*) {FROM} WHERE {CONDITIONS}");
        let total = scalar!(
            self,
            fetch_one,
            i64,
            &count_sql,
            keyword.as_deref(),
            category
        )?;
        Ok((page, total))
    }

    /// Every product of a category, by name.
    pub async fn products_of(&self, category: Category) -> Result<Vec<ProductRow>> {
        let sql = format!("SELECT {COLUMNS} {FROM} WHERE pr.category = $1 ORDER BY pr.name, pr.id");
        Ok(rows!(self, fetch_all, ProductRow, &sql, category.as_str())?)
    }

    pub async fn product(&self, id: ProductId) -> Result<Option<ProductRow>> {
        let sql = format!("SELECT {COLUMNS} {FROM} WHERE pr.id = $1");
        Ok(rows!(self, fetch_optional, ProductRow, &sql, id)?)
    }

    pub async fn product_by_part_number(&self, part_number: &str) -> Result<Option<ProductRow>> {
        let sql = format!("SELECT {COLUMNS} {FROM} WHERE pr.part_number = $1");
        Ok(rows!(self, fetch_optional, ProductRow, &sql, part_number)?)
    }

    /// Hardware versions of one product (or of every product), by product then version.
    pub async fn hardware(&self, product: Option<ProductId>) -> Result<Vec<HardwareRow>> {
        Ok(rows!(
            self,
            fetch_all,
            HardwareRow,
            "SELECT h.id, h.product_id, pr.name AS product_name, h.version, h.remark \
             FROM hardware_versions h JOIN products pr ON pr.id = h.product_id \
             WHERE ($1 IS NULL OR h.product_id = $1) ORDER BY h.product_id, h.version, h.id",
            product
        )?)
    }

    /// Adds a product and its hardware versions in one transaction; a taken part number
    /// answers `Conflict::PartNumber` and writes nothing.
    pub async fn insert_product(
        &self,
        p: &Product,
        now: i64,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<ProductId> {
        Ok(in_tx!(self, |tx, sqlite| {
            let id = tx_scalar!(
                tx,
                sqlite,
                ProductId,
                "INSERT INTO products (category, name, part_number, manufacturer, type_id, \
                 rated_power, remark, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING id",
                p.category.as_str(),
                p.name.as_str(),
                p.part_number.as_str(),
                p.manufacturer.as_str(),
                p.type_id,
                p.rated_power,
                p.remark.as_str(),
                now
            )
            .map_err(|e| conflict(e, Conflict::PartNumber))?;
            for version in &p.hardware {
                tx_exec!(tx, sqlite, INSERT_HARDWARE, id, version, now)?;
            }
            if let Some(audit) = audit {
                audit_new_in_tx!(tx, sqlite, audit, id)?;
            }
            id
        }))
    }

    /// Replaces a product and its hardware list in one transaction. A version that leaves the
    /// list while a firmware file of the product names it refuses the whole edit; nothing is
    /// written then.
    pub async fn update_product(
        &self,
        id: ProductId,
        p: &Product,
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<std::result::Result<(), Refusal>> {
        Ok(in_tx!(self, |tx, sqlite| {
            let current: Vec<String> = {
                let sql = "SELECT version FROM hardware_versions WHERE product_id = $1";
                let sql = if sqlite {
                    crate::sql::for_sqlite(sql)
                } else {
                    sql.into()
                };
                sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(sql.into_owned()))
                    .bind(id)
                    .fetch_all(&mut *tx)
                    .await?
            };
            let named: Vec<String> = {
                let sql = "SELECT DISTINCT hardware_version FROM firmware \
                           WHERE product_id = $1 AND hardware_version <> ''";
                let sql = if sqlite {
                    crate::sql::for_sqlite(sql)
                } else {
                    sql.into()
                };
                sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(sql.into_owned()))
                    .bind(id)
                    .fetch_all(&mut *tx)
                    .await?
            };
            let removed: Vec<&String> =
                current.iter().filter(|v| !p.hardware.contains(v)).collect();
            if let Some(v) = removed.iter().find(|v| named.contains(v)) {
                Err(Refusal::HardwareInUse((*v).clone()))
            } else {
                let n = tx_exec!(
                    tx,
                    sqlite,
                    "UPDATE products SET category = $2, name = $3, part_number = $4, \
                     manufacturer = $5, type_id = $6, rated_power = $7, remark = $8, \
                     updated_at = $9 WHERE id = $1",
                    id,
                    p.category.as_str(),
                    p.name.as_str(),
                    p.part_number.as_str(),
                    p.manufacturer.as_str(),
                    p.type_id,
                    p.rated_power,
                    p.remark.as_str(),
                    now
                )
                .map_err(|e| conflict(e, Conflict::PartNumber))?;
                if n == 0 {
                    Err(Refusal::Missing)
                } else {
                    for v in removed {
                        tx_exec!(
                            tx,
                            sqlite,
                            "DELETE FROM hardware_versions WHERE product_id = $1 AND version = $2",
                            id,
                            v
                        )?;
                    }
                    for v in p.hardware.iter().filter(|v| !current.contains(v)) {
                        tx_exec!(tx, sqlite, INSERT_HARDWARE, id, v, now)?;
                    }
                    audit_in_tx!(tx, sqlite, audit)?;
                    Ok(())
                }
            }
        }))
    }

    /// Removes a product (its hardware versions go with it), only while no firmware, no device
    /// and no manual refers to it; the condition is part of the statement.
    pub async fn delete_product(
        &self,
        id: ProductId,
        audit: &NewAudit<'_>,
    ) -> Result<std::result::Result<(), Refusal>> {
        let deleted = in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "DELETE FROM products WHERE id = $1 \
             AND NOT EXISTS (SELECT 1 FROM firmware f WHERE f.product_id = $1) \
             AND NOT EXISTS (SELECT 1 FROM devices d WHERE d.product_id = $1) \
             AND NOT EXISTS (SELECT 1 FROM manuals m WHERE m.product_id = $1)",
                id
            )?;
            if n == 1 {
                audit_in_tx!(tx, sqlite, audit)?;
            }
            n == 1
        });
        if deleted {
            return Ok(Ok(()));
        }
        Ok(Err(if self.product(id).await?.is_some() {
            Refusal::InUse
        } else {
            Refusal::Missing
        }))
    }

    /// Whether `type_id` is a secondary label of the inverter-type tree (one with a parent).
    pub async fn is_secondary_label(&self, type_id: InverterTypeId) -> Result<bool> {
        Ok(scalar!(
            self,
            fetch_optional,
            i64,
            "SELECT id FROM inverter_types WHERE id = $1 AND parent_id IS NOT NULL",
            type_id
        )?
        .is_some())
    }

    /// The secondary label holding an inverter type code, if any.
    pub async fn label_of_code(&self, code: i64) -> Result<Option<InverterTypeId>> {
        Ok(scalar!(
            self,
            fetch_optional,
            InverterTypeId,
            "SELECT type_id FROM inverter_type_codes WHERE code = $1",
            code
        )?)
    }

    /// Files the firmware nobody uploaded (the demo's own files) of one label, or the gateway
    /// software when `type_id` is 0, under a product and hardware version, where no product
    /// is named yet. Uploads by a person are never touched.
    pub async fn file_seeded_firmware(
        &self,
        target: &str,
        type_id: InverterTypeId,
        product: ProductId,
        hardware_version: &str,
    ) -> Result<u64> {
        Ok(exec!(
            self,
            "UPDATE firmware SET product_id = $1, hardware_version = $2 \
             WHERE target = $3 AND type_id = $4 AND product_id IS NULL AND created_by IS NULL",
            product,
            hardware_version,
            target,
            type_id
        )?)
    }

    /// Sets (or clears) the product a device is; `false` when the device does not exist.
    pub async fn set_device_product(
        &self,
        device: DeviceId,
        product: Option<ProductId>,
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "UPDATE devices SET product_id = $2, updated_at = $3 WHERE id = $1",
                device,
                product,
                now
            )?;
            if n == 1 {
                audit_in_tx!(tx, sqlite, audit)?;
            }
            Ok(n == 1)
        })
    }
}

impl Store {
    /// Gives the device with `sn` a product unless it has one; answers whether it did.
    pub async fn set_device_product_if_unset(&self, sn: &str, product: ProductId) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE devices SET product_id = $2 WHERE sn = $1 AND product_id IS NULL",
            sn,
            product
        )? == 1)
    }
}

const INSERT_HARDWARE: &str = "INSERT INTO hardware_versions (product_id, version, remark, \
    created_at) VALUES ($1, $2, '', $3)";
