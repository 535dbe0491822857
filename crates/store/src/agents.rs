//! A company's agents (distributor companies): the principal's staff see the agents' plants.
//! Only what the customers side needs; the agents' own use cases add to this.

use domain::ids::CompanyId;

use crate::{Result, Store, conflict};

impl Store {
    /// Makes `agent_company` an agent of `company`; an agent serves one principal, so a second
    /// principal answers `Conflict("agents")`.
    pub async fn add_agent(
        &self,
        company: CompanyId,
        agent_company: CompanyId,
        now: i64,
    ) -> Result<i64> {
        scalar!(
            self,
            fetch_one,
            i64,
            "INSERT INTO agents (company_id, agent_company_id, created_at) VALUES ($1, $2, $3) \
             RETURNING id",
            company.0,
            agent_company.0,
            now
        )
        .map_err(|e| conflict(e, "agents"))
    }

    /// Whether `agent_company` is an agent of `company`.
    pub async fn is_agent_of(&self, company: CompanyId, agent_company: CompanyId) -> Result<bool> {
        Ok(scalar!(
            self,
            fetch_optional,
            i64,
            "SELECT id FROM agents WHERE company_id = $1 AND agent_company_id = $2",
            company.0,
            agent_company.0
        )?
        .is_some())
    }
}
