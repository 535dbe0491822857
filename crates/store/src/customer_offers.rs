//! Consent to being a company's customer. A company's request waits in `customer_offers` until
//! the owner accepts it (it becomes a row of `customers`, the accepted relation every
//! visibility rule reads), declines it, or the company withdraws it. The owner may end an
//! accepted relation at any time. Every change writes its audit row in the same transaction.

use domain::ids::CustomerOfferId;
use domain::ids::{CompanyId, CustomerId, CustomerTypeId, UserId};

use crate::{Conflict, Result, Store, audit::NewAudit, conflict};

/// A pending request as the company and the owner see it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CustomerOfferRow {
    pub id: CustomerOfferId,
    pub company_id: CompanyId,
    pub company_name: String,
    pub user_id: UserId,
    pub account: String,
    pub nickname: String,
    pub type_id: Option<CustomerTypeId>,
    pub remark: String,
    pub message: String,
    /// The account of the staff member who asked; "" when it has gone since.
    pub created_by: String,
    pub created_at: i64,
}

/// A company an owner is a customer of, as the owner sees it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ServingCompanyRow {
    /// The relation's id (`customers.id`).
    pub id: CustomerId,
    pub company_id: CompanyId,
    pub company_name: String,
    pub created_at: i64,
}

/// What a new request carries.
#[derive(Debug, Clone)]
pub struct NewCustomerOffer<'a> {
    pub company: CompanyId,
    pub user: UserId,
    pub type_id: Option<CustomerTypeId>,
    pub remark: &'a str,
    pub message: &'a str,
    pub by: UserId,
    pub now: i64,
}

/// Who ends a pending request: the owner asked (declines) or the company (withdraws).
#[derive(Debug, Clone, Copy)]
pub enum OfferSide {
    Asked(UserId),
    Offering(CompanyId),
}

const SELECT: &str = "SELECT o.id, o.company_id, c.name AS company_name, o.user_id, u.account, \
    u.nickname, o.type_id, o.remark, o.message, COALESCE(b.account, '') AS created_by, o.created_at \
    FROM customer_offers o JOIN companies c ON c.id = o.company_id \
    JOIN users u ON u.id = o.user_id LEFT JOIN users b ON b.id = o.created_by";

impl Store {
    /// Records a company's request; a second one for the same account answers
    /// `Conflict::CustomerOffer`.
    pub async fn insert_customer_offer(
        &self,
        o: &NewCustomerOffer<'_>,
        audit: &NewAudit<'_>,
    ) -> Result<CustomerOfferId> {
        in_tx!(self, |tx, sqlite| {
            let id = tx_scalar!(
                tx,
                sqlite,
                CustomerOfferId,
                "INSERT INTO customer_offers (company_id, user_id, type_id, remark, message, \
                 created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                o.company,
                o.user,
                o.type_id,
                o.remark,
                o.message,
                o.by,
                o.now
            )
            .map_err(|e| conflict(e, Conflict::CustomerOffer))?;
            audit_in_tx!(tx, sqlite, audit)?;
            Ok(id)
        })
    }

    /// Whether `company` already waits for `user` to answer.
    pub async fn customer_offer_pending(&self, company: CompanyId, user: UserId) -> Result<bool> {
        Ok(scalar!(
            self,
            fetch_optional,
            i64,
            "SELECT id FROM customer_offers WHERE company_id = $1 AND user_id = $2",
            company,
            user
        )?
        .is_some())
    }

    /// One pending request, if `side` may see it (its owner, or the company that made it).
    pub async fn customer_offer(
        &self,
        id: CustomerOfferId,
        side: OfferSide,
    ) -> Result<Option<CustomerOfferRow>> {
        let (user, company) = side.ids();
        let sql = format!("{SELECT} WHERE o.id = $1 AND (o.user_id = $2 OR o.company_id = $3)");
        Ok(rows!(
            self,
            fetch_optional,
            CustomerOfferRow,
            &sql,
            id,
            user,
            company
        )?)
    }

    /// `company`'s pending requests, newest first, at most `limit`.
    pub async fn customer_offers_made(
        &self,
        company: CompanyId,
        limit: i64,
    ) -> Result<Vec<CustomerOfferRow>> {
        let sql = format!(
            "{SELECT} WHERE o.company_id = $1 ORDER BY o.id DESC {}",
            crate::sql::page(limit, 0)
        );
        Ok(rows!(self, fetch_all, CustomerOfferRow, &sql, company)?)
    }

    /// The requests waiting for `user`'s answer, newest first, at most `limit`.
    pub async fn customer_offers_received(
        &self,
        user: UserId,
        limit: i64,
    ) -> Result<Vec<CustomerOfferRow>> {
        let sql = format!(
            "{SELECT} WHERE o.user_id = $1 ORDER BY o.id DESC {}",
            crate::sql::page(limit, 0)
        );
        Ok(rows!(self, fetch_all, CustomerOfferRow, &sql, user)?)
    }

    /// `user` accepts request `id`: it becomes an accepted relation (an existing one, e.g. from
    /// a plant offer, stays as it is). `None` when no such request waits for `user`.
    pub async fn accept_customer_offer(
        &self,
        id: CustomerOfferId,
        user: UserId,
        audit: &NewAudit<'_>,
        now: i64,
    ) -> Result<Option<CompanyId>> {
        in_tx!(self, |tx, sqlite| {
            let moved = tx_exec!(
                tx,
                sqlite,
                "INSERT INTO customers (company_id, user_id, type_id, remark, created_at) \
                 SELECT company_id, user_id, type_id, remark, $3 FROM customer_offers \
                 WHERE id = $1 AND user_id = $2 \
                 ON CONFLICT (company_id, user_id) DO NOTHING",
                id,
                user,
                now
            )?;
            let company = tx_scalar!(
                tx,
                sqlite,
                Option<i64>,
                "SELECT MAX(company_id) FROM customer_offers WHERE id = $1 AND user_id = $2",
                id,
                user
            )?;
            if company.is_some() {
                tx_exec!(tx, sqlite, "DELETE FROM customer_offers WHERE id = $1", id)?;
                audit_in_tx!(tx, sqlite, audit)?;
            }
            tracing::debug!(offer = %id, moved, "customer offer accepted");
            Ok(company.map(CompanyId))
        })
    }

    /// Ends a pending request (declined by the owner or withdrawn by the company); `false`
    /// when `side` has no such request.
    pub async fn end_customer_offer(
        &self,
        id: CustomerOfferId,
        side: OfferSide,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        let (user, company) = side.ids();
        in_tx!(self, |tx, sqlite| {
            let gone = tx_exec!(
                tx,
                sqlite,
                "DELETE FROM customer_offers WHERE id = $1 AND (user_id = $2 OR company_id = $3)",
                id,
                user,
                company
            )?;
            if gone == 1 {
                audit_in_tx!(tx, sqlite, audit)?;
            }
            Ok(gone == 1)
        })
    }

    /// The companies `user` is a customer of, oldest first.
    pub async fn serving_companies(&self, user: UserId) -> Result<Vec<ServingCompanyRow>> {
        Ok(rows!(
            self,
            fetch_all,
            ServingCompanyRow,
            "SELECT cu.id, cu.company_id, c.name AS company_name, cu.created_at \
             FROM customers cu JOIN companies c ON c.id = cu.company_id \
             WHERE cu.user_id = $1 ORDER BY cu.id",
            user
        )?)
    }

    /// `user` ends being a customer (relation `id`); `false` when it is not theirs.
    pub async fn leave_customer(
        &self,
        id: CustomerId,
        user: UserId,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        in_tx!(self, |tx, sqlite| {
            let gone = tx_exec!(
                tx,
                sqlite,
                "DELETE FROM customers WHERE id = $1 AND user_id = $2",
                id,
                user
            )?;
            if gone == 1 {
                audit_in_tx!(tx, sqlite, audit)?;
            }
            Ok(gone == 1)
        })
    }

    /// Every permission the roles of `company`'s staff hold: the widest a member of its staff
    /// may have.
    pub async fn company_staff_permissions(&self, company: CompanyId) -> Result<Vec<String>> {
        Ok(scalar!(
            self,
            fetch_all,
            String,
            "SELECT DISTINCT rp.permission FROM users u \
             JOIN role_permissions rp ON rp.role_id = u.role_id \
             WHERE u.company_id = $1 AND u.kind = 'company' ORDER BY rp.permission",
            company
        )?)
    }
}

impl OfferSide {
    /// The owner and the company to match, one of them `None` (matching nothing).
    fn ids(self) -> (Option<UserId>, Option<CompanyId>) {
        match self {
            OfferSide::Asked(u) => (Some(u), None),
            OfferSide::Offering(c) => (None, Some(c)),
        }
    }
}
