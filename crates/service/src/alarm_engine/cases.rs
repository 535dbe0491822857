//! Alarm cases as people see them: the list and one case with its history (whoever may see
//! the plant and has the events screen, `event.view`), and acknowledging a case, with its
//! audit entry in the same transaction. A case on a plant the caller cannot see answers 4 `id`,
//! exactly like a missing one.

use domain::{DomainError, alarm_rules::CaseState, ids::AlarmCaseId, permissions, policy::Actor};
use serde_json::json;
use store::{
    Store,
    alarm_engine::cases::{CaseFilter, CaseRow, HistoryRow},
    audit::NewAudit,
};

use crate::{Result, audit};

/// The right to read and acknowledge cases: the events screen's.
pub const VIEW: &str = permissions::EVENT_VIEW;
/// The longest acknowledgement comment, characters.
pub const MAX_COMMENT: usize = 500;

/// A page of the cases the caller may see, with the total.
pub async fn list(store: &Store, actor: &Actor, f: &CaseFilter) -> Result<(Vec<CaseRow>, i64)> {
    actor.require(VIEW)?;
    Ok(store
        .alarm_cases_visible(actor.plant_visibility(), actor.id, f)
        .await?)
}

/// One case the caller may see; 4 `id` otherwise.
pub async fn one(store: &Store, actor: &Actor, id: AlarmCaseId) -> Result<CaseRow> {
    actor.require(VIEW)?;
    Ok(store
        .alarm_case_visible(actor.plant_visibility(), actor.id, id)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?)
}

/// One case with its history.
pub async fn detail(
    store: &Store,
    actor: &Actor,
    id: AlarmCaseId,
) -> Result<(CaseRow, Vec<HistoryRow>)> {
    let case = one(store, actor, id).await?;
    let history = store.alarm_case_history(case.id).await?;
    Ok((case, history))
}

/// Acknowledges an open case, with the caller's optional comment (at most 500 characters, 4
/// `comment`). A case acknowledged already stays as it was (the first acknowledgement
/// counts); a closed one answers 4 `state`.
pub async fn acknowledge(
    store: &Store,
    actor: &Actor,
    id: AlarmCaseId,
    comment: Option<&str>,
    now: i64,
) -> Result<CaseRow> {
    actor.require_writable()?;
    let case = one(store, actor, id).await?;
    let comment = comment.map(str::trim).filter(|c| !c.is_empty());
    if comment.is_some_and(|c| c.chars().count() > MAX_COMMENT) {
        return Err(DomainError::invalid("comment").into());
    }
    match CaseState::parse(&case.state) {
        Some(CaseState::Open) => {}
        Some(CaseState::Acknowledged) => return Ok(case),
        _ => return Err(DomainError::invalid("state").into()),
    }
    let plant = store.plant(case.plant_id, actor.id).await?;
    let target = format!("alarmCase:{}", case.id.0);
    let detail = json!({"caseId": case.id.0, "kind": case.kind, "severity": case.severity,
        "deviceSn": case.device_sn, "comment": comment})
    .to_string();
    let entry = NewAudit {
        by: audit::author(actor, plant.as_ref()),
        action: domain::audit_action::ALARM_CASE_ACKNOWLEDGE,
        target: &target,
        detail: &detail,
        result: audit::SUCCEEDED,
        command_id: None,
        now,
    };
    // Closed (or acknowledged by someone else) between the read and the write: read it again.
    store
        .acknowledge_alarm_case(case.id, actor.id, comment, &entry, now)
        .await?;
    let after = one(store, actor, id).await?;
    if after.state == CaseState::Closed.as_str() && after.acknowledged_at.is_none() {
        return Err(DomainError::invalid("state").into());
    }
    Ok(after)
}
