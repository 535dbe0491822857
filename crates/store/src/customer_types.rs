//! A company's tree of customer types. Codes are unique per company (the table's constraint);
//! a type is deleted only while no type is under it and no customer has it.

use domain::ids::{CompanyId, CustomerTypeId};

use crate::{
    Conflict, Result, Store,
    audit::{NewAudit, NewRowsAudit},
    conflict,
};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CustomerTypeRow {
    pub id: CustomerTypeId,
    pub company_id: CompanyId,
    pub parent_id: Option<CustomerTypeId>,
    pub code: String,
    pub name: String,
    pub remark: String,
    pub created_at: i64,
    /// Customers of this type (not counting the types below it).
    pub customers: i64,
}

/// What a type is written with (checked by `domain::customer`).
#[derive(Debug, Clone, Copy)]
pub struct TypeWrite<'a> {
    pub code: &'a str,
    pub name: &'a str,
    pub remark: &'a str,
    pub parent: Option<CustomerTypeId>,
}

/// How deleting a type ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeRemoval {
    Removed,
    Missing,
    HasChildren,
    HasCustomers,
}

const COLUMNS: &str = "t.id, t.company_id, t.parent_id, t.code, t.name, t.remark, t.created_at, \
    (SELECT COUNT(*) FROM customers c WHERE c.type_id = t.id) AS customers";

impl Store {
    /// Every type of `company`, by code.
    pub async fn customer_types(&self, company: CompanyId) -> Result<Vec<CustomerTypeRow>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM customer_types t WHERE t.company_id = $1 ORDER BY t.code, t.id"
        );
        Ok(rows!(self, fetch_all, CustomerTypeRow, &sql, company)?)
    }

    /// One type of `company`; another company's reads as `None`.
    pub async fn customer_type(
        &self,
        company: CompanyId,
        id: CustomerTypeId,
    ) -> Result<Option<CustomerTypeRow>> {
        let sql =
            format!("SELECT {COLUMNS} FROM customer_types t WHERE t.company_id = $1 AND t.id = $2");
        Ok(rows!(
            self,
            fetch_optional,
            CustomerTypeRow,
            &sql,
            company,
            id
        )?)
    }

    /// A new type; a code the company already uses answers `Conflict::CustomerTypeCode`.
    /// `audit` (none for a seed) is written with it, its detail given by the new id.
    pub async fn insert_customer_type(
        &self,
        company: CompanyId,
        t: &TypeWrite<'_>,
        now: i64,
        audit: Option<NewRowsAudit<'_, CustomerTypeId>>,
    ) -> Result<CustomerTypeId> {
        in_tx!(self, |tx, sqlite| {
            let id = tx_scalar!(
            tx,
            sqlite,
            CustomerTypeId,
            "INSERT INTO customer_types (company_id, parent_id, code, name, remark, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
            company,
            t.parent,
            t.code,
            t.name,
            t.remark,
            now
        )
        .map_err(|e| conflict(e, Conflict::CustomerTypeCode))?;
            if let Some(a) = &audit {
                let (target, detail) = (a.describe)(id);
                let entry = NewAudit {
                    target: &target,
                    detail: &detail,
                    ..a.entry.clone()
                };
                audit_in_tx!(tx, sqlite, &entry)?;
            }
            Ok(id)
        })
    }

    /// Rewrites a type; `false` when `company` has no such type, `Conflict::CustomerTypeCode`
    /// when the code is taken.
    pub async fn update_customer_type(
        &self,
        company: CompanyId,
        id: CustomerTypeId,
        t: &TypeWrite<'_>,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "UPDATE customer_types SET parent_id = $3, code = $4, name = $5, remark = $6 \
             WHERE company_id = $1 AND id = $2",
                company,
                id,
                t.parent,
                t.code,
                t.name,
                t.remark
            )
            .map_err(|e| conflict(e, Conflict::CustomerTypeCode))?;
            if n == 1 {
                audit_in_tx!(tx, sqlite, audit)?;
            }
            Ok(n == 1)
        })
    }

    /// Deletes a type unless a type is under it or a customer has it, in one statement (the
    /// check and the delete cannot be split by another writer), with `audit`; then tells why
    /// not.
    pub async fn delete_customer_type(
        &self,
        company: CompanyId,
        id: CustomerTypeId,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<TypeRemoval> {
        let n = exec_audited!(
            self,
            audit,
            "DELETE FROM customer_types WHERE company_id = $1 AND id = $2 \
             AND NOT EXISTS (SELECT 1 FROM customer_types ch WHERE ch.parent_id = $2) \
             AND NOT EXISTS (SELECT 1 FROM customers c WHERE c.type_id = $2)",
            company,
            id
        );
        if n == 1 {
            return Ok(TypeRemoval::Removed);
        }
        let Some(row) = self.customer_type(company, id).await? else {
            return Ok(TypeRemoval::Missing);
        };
        let children = scalar!(
            self,
            fetch_one,
            i64,
            "SELECT COUNT(*) FROM customer_types WHERE parent_id = $1",
            row.id
        )?;
        Ok(if children > 0 {
            TypeRemoval::HasChildren
        } else {
            TypeRemoval::HasCustomers
        })
    }
}
