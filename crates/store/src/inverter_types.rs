//! The inverter-type tree: primary titles (no parent) and their secondary labels, each label
//! naming the inverter type codes its firmware fits. A code belongs to one label at most (the
//! primary key of `inverter_type_codes`), so the firmware that fits an inverter is never
//! ambiguous. The rules (which parent, which moves) are the caller's; this keeps the rows.

use crate::{Conflict, Result, Store, audit::NewAudit, conflict};
use domain::ids::InverterTypeId;

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct InverterTypeRow {
    pub id: InverterTypeId,
    pub parent_id: Option<InverterTypeId>,
    pub name: String,
    pub sort: i64,
    pub created_at: i64,
    pub updated_at: i64,
    /// Firmware filed under this label (0 for a primary title).
    pub firmware_count: i64,
}

const COLUMNS: &str = "t.id, t.parent_id, t.name, t.sort, t.created_at, t.updated_at, \
    (SELECT CAST(COUNT(*) AS BIGINT) FROM firmware f \
     WHERE f.target = 'inverter' AND f.type_id = t.id) AS firmware_count";

impl Store {
    /// The whole tree, flat, by sort then id.
    pub async fn inverter_types(&self) -> Result<Vec<InverterTypeRow>> {
        let sql = format!("SELECT {COLUMNS} FROM inverter_types t ORDER BY t.sort, t.id");
        Ok(rows!(self, fetch_all, InverterTypeRow, &sql)?)
    }

    pub async fn inverter_type(&self, id: InverterTypeId) -> Result<Option<InverterTypeRow>> {
        let sql = format!("SELECT {COLUMNS} FROM inverter_types t WHERE t.id = $1");
        Ok(rows!(self, fetch_optional, InverterTypeRow, &sql, id)?)
    }

    /// Every `(code, label id)` pair, by code.
    pub async fn inverter_type_codes(&self) -> Result<Vec<(i64, InverterTypeId)>> {
        Ok(rows!(
            self,
            fetch_all,
            (i64, InverterTypeId),
            "SELECT code, type_id FROM inverter_type_codes ORDER BY code"
        )?)
    }

    /// The secondary label that holds inverter type `code`.
    pub async fn inverter_type_for_code(&self, code: i64) -> Result<Option<InverterTypeId>> {
        Ok(scalar!(
            self,
            fetch_optional,
            InverterTypeId,
            "SELECT type_id FROM inverter_type_codes WHERE code = $1",
            code
        )?)
    }

    /// Whether a sibling under `parent` (the primary titles for `None`), other than `except`,
    /// is called `name`.
    pub async fn inverter_type_name_taken(
        &self,
        parent: Option<InverterTypeId>,
        name: &str,
        except: Option<InverterTypeId>,
    ) -> Result<bool> {
        let n = scalar!(
            self,
            fetch_one,
            i64,
            "SELECT CAST(COUNT(*) AS BIGINT) FROM inverter_types \
             WHERE COALESCE(parent_id, 0) = COALESCE($1, 0) AND name = $2 \
             AND ($3 IS NULL OR id <> $3)",
            parent,
            name,
            except
        )?;
        Ok(n > 0)
    }

    /// Adds a title or label with its codes, and its audit entry (none for a seed or a store
    /// test: the entry, and its detail made from the new id), in one transaction. A taken name
    /// or code answers `Conflict::InverterTypeName`.
    pub async fn insert_inverter_type(
        &self,
        parent: Option<InverterTypeId>,
        name: &str,
        codes: &[i64],
        now: i64,
        audit: Option<(&NewAudit<'_>, &(dyn Fn(InverterTypeId) -> String + Sync))>,
    ) -> Result<InverterTypeId> {
        let out: Result<InverterTypeId> = in_tx!(self, |tx, sqlite| {
            let sort = tx_scalar!(
                tx,
                sqlite,
                i64,
                "SELECT CAST(COALESCE(MAX(sort), 0) + 1 AS BIGINT) FROM inverter_types \
                 WHERE COALESCE(parent_id, 0) = COALESCE($1, 0)",
                parent
            )?;
            let id = tx_scalar!(
                tx,
                sqlite,
                InverterTypeId,
                "INSERT INTO inverter_types (parent_id, name, sort, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $4) RETURNING id",
                parent,
                name,
                sort,
                now
            )
            .map_err(|e| conflict(e, Conflict::InverterTypeName))?;
            for code in codes {
                tx_exec!(
                    tx,
                    sqlite,
                    "INSERT INTO inverter_type_codes (code, type_id) VALUES ($1, $2)",
                    *code,
                    id
                )
                .map_err(|e| conflict(e, Conflict::InverterTypeName))?;
            }
            if let Some((entry, detail_of)) = audit {
                let detail = detail_of(id);
                let entry = NewAudit {
                    detail: &detail,
                    ..entry.clone()
                };
                audit_in_tx!(tx, sqlite, &entry)?;
            }
            Ok(id)
        });
        out
    }

    /// Renames a title or label and, when `codes` is given, replaces its codes, with `audit`,
    /// in one transaction; `false` (and no entry) when it is gone.
    pub async fn update_inverter_type(
        &self,
        id: InverterTypeId,
        name: &str,
        codes: Option<&[i64]>,
        now: i64,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<bool> {
        let out: Result<bool> = in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "UPDATE inverter_types SET name = $2, updated_at = $3 WHERE id = $1",
                id,
                name,
                now
            )
            .map_err(|e| conflict(e, Conflict::InverterTypeName))?;
            if n == 1
                && let Some(codes) = codes
            {
                tx_exec!(
                    tx,
                    sqlite,
                    "DELETE FROM inverter_type_codes WHERE type_id = $1",
                    id
                )?;
                for code in codes {
                    tx_exec!(
                        tx,
                        sqlite,
                        "INSERT INTO inverter_type_codes (code, type_id) VALUES ($1, $2)",
                        *code,
                        id
                    )
                    .map_err(|e| conflict(e, Conflict::InverterTypeName))?;
                }
            }
            if let Some(a) = audit.filter(|_| n == 1) {
                audit_in_tx!(tx, sqlite, a)?;
            }
            Ok(n == 1)
        });
        out
    }

    /// Files a label under another primary title, with `audit`, in one transaction; `false`
    /// (and no entry) when it is gone.
    pub async fn move_inverter_type(
        &self,
        id: InverterTypeId,
        parent: InverterTypeId,
        now: i64,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<bool> {
        let out: Result<bool> = in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "UPDATE inverter_types SET parent_id = $2, updated_at = $3 WHERE id = $1",
                id,
                parent,
                now
            )
            .map_err(|e| conflict(e, Conflict::InverterTypeNameAtTarget))?;
            if let Some(a) = audit.filter(|_| n == 1) {
                audit_in_tx!(tx, sqlite, a)?;
            }
            Ok(n == 1)
        });
        out
    }

    /// Deletes a title or label that has neither children nor firmware (its codes go with it),
    /// with `audit`, in one transaction; `false` (and no entry) when nothing was deleted.
    pub async fn delete_inverter_type(
        &self,
        id: InverterTypeId,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<bool> {
        Ok(exec_audited!(
            self,
            audit,
            "DELETE FROM inverter_types WHERE id = $1 \
             AND NOT EXISTS (SELECT 1 FROM inverter_types c WHERE c.parent_id = $1) \
             AND NOT EXISTS (SELECT 1 FROM firmware f WHERE f.target = 'inverter' AND f.type_id = $1)",
            id
        ) == 1)
    }
}
