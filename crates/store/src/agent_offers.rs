//! Consent to being a company's agent. A principal's request waits in `agent_offers` until the
//! asked company's administrator accepts it (it becomes the row of `agents`, the accepted
//! relation every visibility rule reads) or declines it, or the principal withdraws it. The
//! agent company may end an accepted agency at any time. Every change writes its audit row in
//! the same transaction.

use domain::ids::AgentOfferId;
use domain::ids::{AgentId, CompanyId, UserId};

use crate::{Conflict, Result, Store, audit::NewAudit, conflict};

/// A pending request as both companies see it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AgentOfferRow {
    pub id: AgentOfferId,
    /// The principal asking.
    pub company_id: CompanyId,
    pub company_name: String,
    /// The company asked to become its agent.
    pub agent_company_id: CompanyId,
    pub agent_company_name: String,
    pub message: String,
    pub created_at: i64,
}

/// The company an agent company serves, as the agent company sees it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PrincipalRow {
    /// The agency's id (`agents.id`).
    pub id: AgentId,
    pub company_id: CompanyId,
    pub company_name: String,
    pub created_at: i64,
}

const SELECT: &str = "SELECT o.id, o.company_id, c.name AS company_name, o.agent_company_id, \
    a.name AS agent_company_name, o.message, o.created_at \
    FROM agent_offers o JOIN companies c ON c.id = o.company_id \
    JOIN companies a ON a.id = o.agent_company_id";

impl Store {
    /// Records `company`'s request to `agent`; a second one answers `Conflict::AgentOffer`.
    pub async fn insert_agent_offer(
        &self,
        company: CompanyId,
        agent: CompanyId,
        message: &str,
        by: UserId,
        audit: &NewAudit<'_>,
        now: i64,
    ) -> Result<AgentOfferId> {
        in_tx!(self, |tx, sqlite| {
            let id = tx_scalar!(
                tx,
                sqlite,
                AgentOfferId,
                "INSERT INTO agent_offers (company_id, agent_company_id, message, created_by, \
                 created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id",
                company,
                agent,
                message,
                by,
                now
            )
            .map_err(|e| conflict(e, Conflict::AgentOffer))?;
            audit_in_tx!(tx, sqlite, audit)?;
            Ok(id)
        })
    }

    /// Whether `company` already waits for `agent` to answer.
    pub async fn agent_offer_pending(&self, company: CompanyId, agent: CompanyId) -> Result<bool> {
        Ok(scalar!(
            self,
            fetch_optional,
            i64,
            "SELECT id FROM agent_offers WHERE company_id = $1 AND agent_company_id = $2",
            company,
            agent
        )?
        .is_some())
    }

    /// One pending request that `company` made or was asked.
    pub async fn agent_offer(
        &self,
        id: AgentOfferId,
        company: CompanyId,
    ) -> Result<Option<AgentOfferRow>> {
        let sql =
            format!("{SELECT} WHERE o.id = $1 AND (o.company_id = $2 OR o.agent_company_id = $2)");
        Ok(rows!(
            self,
            fetch_optional,
            AgentOfferRow,
            &sql,
            id,
            company
        )?)
    }

    /// The requests `company` made (`made`) or was asked, newest first, at most `limit`.
    pub async fn agent_offers(
        &self,
        company: CompanyId,
        made: bool,
        limit: i64,
    ) -> Result<Vec<AgentOfferRow>> {
        let column = if made {
            "o.company_id"
        } else {
            "o.agent_company_id"
        };
        let sql = format!(
            "{SELECT} WHERE {column} = $1 ORDER BY o.id DESC {}",
            crate::sql::page(limit, 0)
        );
        Ok(rows!(self, fetch_all, AgentOfferRow, &sql, company)?)
    }

    /// `agent` accepts request `id`: it becomes the agency, and every other request to `agent`
    /// goes (an agent serves one principal). `None` when no such request waits for `agent`;
    /// `Conflict::AgentTaken` when `agent` already serves a principal.
    pub async fn accept_agent_offer(
        &self,
        id: AgentOfferId,
        agent: CompanyId,
        audit: &NewAudit<'_>,
        now: i64,
    ) -> Result<Option<(AgentId, CompanyId)>> {
        in_tx!(self, |tx, sqlite| {
            let principal = tx_scalar!(
                tx,
                sqlite,
                Option<CompanyId>,
                "SELECT MAX(company_id) FROM agent_offers WHERE id = $1 AND agent_company_id = $2",
                id,
                agent
            )?;
            let Some(principal) = principal else {
                return Ok(None);
            };
            let agency = tx_scalar!(
                tx,
                sqlite,
                AgentId,
                "INSERT INTO agents (company_id, agent_company_id, created_at) \
                 VALUES ($1, $2, $3) RETURNING id",
                principal,
                agent,
                now
            )
            .map_err(|e| conflict(e, Conflict::AgentTaken))?;
            tx_exec!(
                tx,
                sqlite,
                "DELETE FROM agent_offers WHERE agent_company_id = $1",
                agent
            )?;
            audit_in_tx!(tx, sqlite, audit)?;
            Ok(Some((agency, principal)))
        })
    }

    /// Ends a pending request that `company` made (withdraws) or was asked (declines); `false`
    /// when it has none such.
    pub async fn end_agent_offer(
        &self,
        id: AgentOfferId,
        company: CompanyId,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        in_tx!(self, |tx, sqlite| {
            let gone = tx_exec!(
                tx,
                sqlite,
                "DELETE FROM agent_offers WHERE id = $1 \
                 AND (company_id = $2 OR agent_company_id = $2)",
                id,
                company
            )?;
            if gone == 1 {
                audit_in_tx!(tx, sqlite, audit)?;
            }
            Ok(gone == 1)
        })
    }

    /// The principal `agent` serves, if any.
    pub async fn principal(&self, agent: CompanyId) -> Result<Option<PrincipalRow>> {
        Ok(rows!(
            self,
            fetch_optional,
            PrincipalRow,
            "SELECT a.id, a.company_id, c.name AS company_name, a.created_at FROM agents a \
             JOIN companies c ON c.id = a.company_id WHERE a.agent_company_id = $1",
            agent
        )?)
    }

    /// `agent` stops serving its principal; `false` when it served none.
    pub async fn leave_agency(&self, agent: CompanyId, audit: &NewAudit<'_>) -> Result<bool> {
        in_tx!(self, |tx, sqlite| {
            let gone = tx_exec!(
                tx,
                sqlite,
                "DELETE FROM agents WHERE agent_company_id = $1",
                agent
            )?;
            if gone == 1 {
                audit_in_tx!(tx, sqlite, audit)?;
            }
            Ok(gone == 1)
        })
    }
}
