//! A company's agents: other companies (distributors) whose plants and gateways it looks after.
//! An agent company serves one principal.

use domain::ids::{AgentId, CompanyId};

use crate::{Conflict, Result, Store, audit::NewAudit, conflict};

/// An agent as the agents screen lists it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AgentRow {
    pub id: AgentId,
    pub company_id: CompanyId,
    pub agent_company_id: CompanyId,
    pub company_name: String,
    pub admin_account: String,
    pub contact_name: String,
    pub phone: String,
    pub email: String,
    pub plants: i64,
    pub gateways: i64,
    pub created_at: i64,
}

const SELECT: &str = "SELECT a.id, a.company_id, a.agent_company_id, c.name AS company_name, \
    COALESCE(u.account, '') AS admin_account, c.contact_name, c.phone, c.email, \
    (SELECT COUNT(*) FROM plants p WHERE p.company_id = a.agent_company_id) AS plants, \
    (SELECT COUNT(*) FROM gateways g WHERE g.company_id = a.agent_company_id) AS gateways, \
    a.created_at \
    FROM agents a JOIN companies c ON c.id = a.agent_company_id \
    LEFT JOIN users u ON u.id = c.admin_id";

impl Store {
    /// A page of `company`'s agents whose name contains `name` (any case), oldest first, and
    /// the total.
    pub async fn agents(
        &self,
        company: CompanyId,
        name: Option<&str>,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<AgentRow>, i64)> {
        let pattern = format!("%{}%", name.unwrap_or("").trim().to_lowercase());
        let bounds = crate::sql::page(limit, offset);
        let sql = format!(
            "{SELECT} WHERE a.company_id = $1 AND LOWER(c.name) LIKE $2 ORDER BY a.id \
             {bounds}"
        );
        let rows = rows!(self, fetch_all, AgentRow, &sql, company, &pattern)?;
        let total: i64 = scalar!(
            self,
            fetch_one,
            i64,
            "SELECT COUNT(*) FROM agents a JOIN companies c ON c.id = a.agent_company_id \
             WHERE a.company_id = $1 AND LOWER(c.name) LIKE $2",
            company,
            &pattern
        )?;
        Ok((rows, total))
    }

    /// One agent of `company`; another company's answers `None`.
    pub async fn agent(&self, company: CompanyId, id: AgentId) -> Result<Option<AgentRow>> {
        let sql = format!("{SELECT} WHERE a.id = $1 AND a.company_id = $2");
        Ok(rows!(self, fetch_optional, AgentRow, &sql, id, company)?)
    }

    /// The principal company of agent entry `id`.
    pub async fn agent_company_of(&self, id: AgentId) -> Result<Option<CompanyId>> {
        Ok(scalar!(
            self,
            fetch_optional,
            CompanyId,
            "SELECT company_id FROM agents WHERE id = $1",
            id
        )?)
    }

    /// The company `agent` is an agent of.
    pub async fn principal_of(&self, agent: CompanyId) -> Result<Option<CompanyId>> {
        Ok(scalar!(
            self,
            fetch_optional,
            CompanyId,
            "SELECT company_id FROM agents WHERE agent_company_id = $1",
            agent
        )?)
    }

    /// Makes `agent` an agent of `company`; an agent company that already serves someone
    /// answers `Conflict::AgentTaken`.
    pub async fn create_agent(
        &self,
        company: CompanyId,
        agent: CompanyId,
        now: i64,
    ) -> Result<AgentId> {
        let id = scalar!(
            self,
            fetch_one,
            AgentId,
            "INSERT INTO agents (company_id, agent_company_id, created_at) VALUES ($1, $2, $3) \
             RETURNING id",
            company,
            agent,
            now
        )
        .map_err(|e| conflict(e, Conflict::AgentTaken))?;
        Ok(id)
    }

    /// Ends an agency, with `audit`; `false` when `company` has no such agent.
    pub async fn delete_agent(
        &self,
        company: CompanyId,
        id: AgentId,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<bool> {
        Ok(exec_audited!(
            self,
            audit,
            "DELETE FROM agents WHERE id = $1 AND company_id = $2",
            id,
            company
        ) == 1)
    }

    /// Whether `agent_company` is an agent of `company`.
    pub async fn is_agent_of(&self, company: CompanyId, agent_company: CompanyId) -> Result<bool> {
        Ok(scalar!(
            self,
            fetch_optional,
            i64,
            "SELECT id FROM agents WHERE company_id = $1 AND agent_company_id = $2",
            company,
            agent_company
        )?
        .is_some())
    }
}
