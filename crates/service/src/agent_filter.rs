//! The `agentCompanyId` filter of the plant, gateway and inverter lists: which company's rows
//! a caller may narrow a list to.

use domain::{ids::CompanyId, policy::Actor, user::UserKind};
use store::Store;

use crate::Result;

/// What a list is narrowed to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompanyFilter {
    /// No filter (`-1`, absent or empty).
    Any,
    /// Only the rows of this company.
    Only(CompanyId),
    /// A company the caller may not narrow to: the list is empty, whatever else it holds.
    Nothing,
}

/// Internal staff may name any company; company staff one of their company's agent
/// companies; anyone else no company at all.
pub async fn agent_company(
    store: &Store,
    actor: &Actor,
    asked: Option<i64>,
) -> Result<CompanyFilter> {
    let Some(asked) = asked.filter(|c| *c > 0).map(CompanyId) else {
        return Ok(CompanyFilter::Any);
    };
    if actor.is_internal() {
        return Ok(CompanyFilter::Only(asked));
    }
    let principal = match (actor.kind, actor.company) {
        (UserKind::Company, Some(c)) => c,
        _ => return Ok(CompanyFilter::Nothing),
    };
    Ok(if store.is_agent_of(principal, asked).await? {
        CompanyFilter::Only(asked)
    } else {
        CompanyFilter::Nothing
    })
}
