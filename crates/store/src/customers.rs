//! A company's customers: the owner accounts it serves, each with an optional type and a
//! remark. Every read and write names the company, so another company's customer is simply
//! not found. Removing a customer removes only this row: the account and its plants stay.

use domain::ids::{CompanyId, CustomerId, CustomerTypeId, UserId};

use crate::{Conflict, Result, Store, audit::NewAudit, conflict};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CustomerRow {
    pub id: CustomerId,
    pub company_id: CompanyId,
    pub user_id: UserId,
    pub account: String,
    pub nickname: String,
    pub name: String,
    pub email: String,
    pub mobile: String,
    pub type_id: Option<CustomerTypeId>,
    pub type_name: Option<String>,
    pub remark: String,
    /// Plants the account owns.
    pub plants: i64,
    pub created_at: i64,
    /// The account is disabled (by an internal administrator or the operator).
    pub disabled: bool,
}

/// A customer as a picker lists it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CustomerPick {
    pub id: CustomerId,
    pub user_id: UserId,
    pub account: String,
    pub nickname: String,
}

/// What a customer listing asks for.
#[derive(Debug, Clone, Default)]
pub struct CustomerFilter {
    /// Lower-case part of the account, nickname or name.
    pub name: Option<String>,
    pub type_id: Option<CustomerTypeId>,
    pub limit: i64,
    pub offset: i64,
}

const COLUMNS: &str = "c.id, c.company_id, c.user_id, u.account, u.nickname, u.name, u.email, \
    u.mobile, c.type_id, t.name AS type_name, c.remark, \
    (SELECT COUNT(*) FROM plants p WHERE p.owner_id = c.user_id) AS plants, c.created_at, \
    u.disabled";
const FROM: &str = "FROM customers c JOIN users u ON u.id = c.user_id \
    LEFT JOIN customer_types t ON t.id = c.type_id";

impl Store {
    /// A page of `company`'s customers, newest first, with the total before paging. A type
    /// filter takes the customers of that type and of every type below it.
    pub async fn customers(
        &self,
        company: CompanyId,
        f: &CustomerFilter,
    ) -> Result<(Vec<CustomerRow>, i64)> {
        let name = f.name.as_ref().map(|n| format!("%{}%", n.to_lowercase()));
        let conditions = "c.company_id = $1 AND ($2 IS NULL OR LOWER(u.account) LIKE $2 \
            OR LOWER(u.nickname) LIKE $2 OR LOWER(u.name) LIKE $2) \
            AND ($3 IS NULL OR c.type_id IN (WITH RECURSIVE below(id) AS ( \
                SELECT CAST($3 AS BIGINT) \
                UNION ALL SELECT ct.id FROM customer_types ct JOIN below ON ct.parent_id = below.id) \
            SELECT id FROM below))";
        let bounds = crate::sql::page(f.limit, f.offset);
        let sql = format!("SELECT {COLUMNS} {FROM} WHERE {conditions} ORDER BY c.id DESC {bounds}");
        let type_id = f.type_id;
        let page = rows!(
            self,
            fetch_all,
            CustomerRow,
            &sql,
            company,
            name.as_deref(),
            type_id
        )?;
        let count_sql = format!("SELECT COUNT(*) {FROM} WHERE {conditions}");
        let total = scalar!(
            self,
            fetch_one,
            i64,
            &count_sql,
            company,
            name.as_deref(),
            type_id
        )?;
        Ok((page, total))
    }

    /// Every customer of `company`, by account, for pickers.
    pub async fn customer_picks(&self, company: CompanyId) -> Result<Vec<CustomerPick>> {
        Ok(rows!(
            self,
            fetch_all,
            CustomerPick,
            "SELECT c.id, c.user_id, u.account, u.nickname FROM customers c \
             JOIN users u ON u.id = c.user_id WHERE c.company_id = $1 ORDER BY u.account",
            company
        )?)
    }

    /// One customer of `company`; another company's reads as `None`.
    pub async fn customer(
        &self,
        company: CompanyId,
        id: CustomerId,
    ) -> Result<Option<CustomerRow>> {
        let sql = format!("SELECT {COLUMNS} {FROM} WHERE c.company_id = $1 AND c.id = $2");
        Ok(rows!(self, fetch_optional, CustomerRow, &sql, company, id)?)
    }

    /// Makes `user` a customer of `company` with a type and a remark; an existing customer
    /// answers `Conflict::Customer`.
    pub async fn insert_customer(
        &self,
        company: CompanyId,
        user: UserId,
        type_id: Option<CustomerTypeId>,
        remark: &str,
        now: i64,
    ) -> Result<CustomerId> {
        scalar!(
            self,
            fetch_one,
            CustomerId,
            "INSERT INTO customers (company_id, user_id, type_id, remark, created_at) \
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
            company,
            user,
            type_id,
            remark,
            now
        )
        .map_err(|e| conflict(e, Conflict::Customer))
    }

    /// Sets a customer's type and remark, with `audit`; `false` when `company` has no such
    /// customer.
    pub async fn update_customer(
        &self,
        company: CompanyId,
        id: CustomerId,
        type_id: Option<CustomerTypeId>,
        remark: &str,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<bool> {
        Ok(exec_audited!(
            self,
            audit,
            "UPDATE customers SET type_id = $3, remark = $4 WHERE company_id = $1 AND id = $2",
            company,
            id,
            type_id,
            remark
        ) == 1)
    }

    /// Ends the relationship, with `audit`: the account, its plants and their history stay.
    pub async fn delete_customer(
        &self,
        company: CompanyId,
        id: CustomerId,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<bool> {
        Ok(exec_audited!(
            self,
            audit,
            "DELETE FROM customers WHERE company_id = $1 AND id = $2",
            company,
            id
        ) == 1)
    }

    /// The company serving `user` as its customer (the oldest relationship when several do).
    pub async fn company_of_customer(&self, user: UserId) -> Result<Option<CompanyId>> {
        Ok(scalar!(
            self,
            fetch_optional,
            CompanyId,
            "SELECT company_id FROM customers WHERE user_id = $1 ORDER BY id LIMIT 1",
            user
        )?)
    }
}
