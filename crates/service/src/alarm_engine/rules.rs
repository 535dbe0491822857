//! A company's alarm rules: reading them (`company.info`), adding, rewriting and deleting them
//! (`company.edit`, as the company's other settings). Bad input answers 4 with the field
//! (`kind`, `severity`, `scope`, `scopeId`, `params.<field>`) and writes nothing; another
//! company's rule answers 4 `id`, exactly like a missing one. Every company starts with the
//! default rules ([`defaults`]), given once, on the engine's first tick after the company
//! exists or on the first read of its rules, whichever comes first.

use domain::{
    DomainError,
    alarm_rules::{Kind, Params, ParamsDraft, Scope, Severity},
    ids::{AlarmRuleId, CompanyId, PlantId},
    permissions,
    policy::Actor,
};
use serde_json::json;
use store::{
    Store,
    alarm_engine::rules::{RuleRow, RuleWrite},
    audit::{NewAudit, NewRowsAudit},
};

use crate::{Result, audit};

/// The right to read a company's rules.
pub const VIEW: &str = permissions::COMPANY_INFO;
/// The right to change them.
pub const EDIT: &str = permissions::COMPANY_EDIT;

/// A stored rule, read back into its types.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    pub id: AlarmRuleId,
    pub kind: Kind,
    pub enabled: bool,
    pub severity: Severity,
    pub scope: Scope,
    pub params: Params,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A stored rule's kind, severity, scope and parameters; `None` for a row no rule of today
/// reads (a kind a later version added), which the engine and the lists pass over.
pub fn parse(row: &RuleRow) -> Option<Rule> {
    let kind = Kind::parse(&row.kind)?;
    let draft: ParamsDraft = serde_json::from_str(&row.params).ok()?;
    Some(Rule {
        id: row.id,
        kind,
        enabled: row.enabled,
        severity: Severity::parse(&row.severity)?,
        scope: Scope::parse(&row.scope, row.scope_id).ok()?,
        params: Params::validate(kind, &draft).ok()?,
        created_at: row.created_at,
        updated_at: row.updated_at,
    })
}

/// The severity a kind's cases get unless the rule says otherwise (device_silent's tiers
/// choose their own).
pub fn default_severity(kind: Kind) -> Severity {
    match kind {
        Kind::DeviceSilent | Kind::NoProduction | Kind::EventCode => Severity::Alarm,
        _ => Severity::Warning,
    }
}

/// What a company starts with: every kind, enabled, with its defaults, over all its plants.
pub fn defaults() -> Vec<(Kind, Severity, String)> {
    Kind::ALL
        .into_iter()
        .map(|k| {
            let params = serde_json::to_string(&Params::default_for(k).to_draft())
                .unwrap_or_else(|_| "{}".into());
            (k, default_severity(k), params)
        })
        .collect()
}

/// Gives `company` the default rules if it never had them; whether it did now.
pub async fn seed(store: &Store, company: CompanyId, now: i64) -> Result<bool> {
    let defaults = defaults();
    let writes: Vec<RuleWrite<'_>> = defaults
        .iter()
        .map(|(k, s, p)| RuleWrite {
            kind: k.as_str(),
            enabled: true,
            severity: s.as_str(),
            scope: "all",
            scope_id: None,
            params: p,
        })
        .collect();
    Ok(store.seed_alarm_rules(company, &writes, now).await?)
}

/// The rules of `company`, oldest first (the defaults given first if it never had them).
pub async fn list(store: &Store, company: CompanyId, now: i64) -> Result<Vec<Rule>> {
    seed(store, company, now).await?;
    Ok(store
        .alarm_rules(company)
        .await?
        .iter()
        .filter_map(parse)
        .collect())
}

/// A rule as the request gave it; a field left out keeps the stored value (or its default).
#[derive(Debug, Clone, Default)]
pub struct RuleDraft<'a> {
    pub kind: Option<&'a str>,
    pub enabled: Option<bool>,
    pub severity: Option<&'a str>,
    pub scope: Option<&'a str>,
    pub scope_id: Option<i64>,
    pub params: Option<ParamsDraft>,
}

/// `given`'s fields over `stored`'s.
fn overlay(stored: ParamsDraft, given: ParamsDraft) -> ParamsDraft {
    ParamsDraft {
        warning_cycles: given.warning_cycles.or(stored.warning_cycles),
        alarm_cycles: given.alarm_cycles.or(stored.alarm_cycles),
        threshold_w: given.threshold_w.or(stored.threshold_w),
        minutes: given.minutes.or(stored.minutes),
        min_elevation_deg: given.min_elevation_deg.or(stored.min_elevation_deg),
        percent: given.percent.or(stored.percent),
        spread_mv: given.spread_mv.or(stored.spread_mv),
        drop_points: given.drop_points.or(stored.drop_points),
        days: given.days.or(stored.days),
        floor: given.floor.or(stored.floor),
        codes: given.codes.or(stored.codes),
        all_faults: given.all_faults.or(stored.all_faults),
    }
}

/// The checked rule: `stored` for an edit.
async fn checked(
    store: &Store,
    company: CompanyId,
    stored: Option<&Rule>,
    d: &RuleDraft<'_>,
) -> Result<(Kind, bool, Severity, Scope, Params)> {
    let kind = match (stored, d.kind.map(str::trim).filter(|k| !k.is_empty())) {
        (Some(r), None) => r.kind,
        (Some(r), Some(k)) if k == r.kind.as_str() => r.kind,
        (None, Some(k)) => Kind::parse(k).ok_or_else(|| DomainError::invalid("kind"))?,
        _ => return Err(DomainError::invalid("kind").into()),
    };
    let severity = match d.severity.map(str::trim).filter(|s| !s.is_empty()) {
        Some(s) => Severity::parse(s).ok_or_else(|| DomainError::invalid("severity"))?,
        None => stored.map_or(default_severity(kind), |r| r.severity),
    };
    let scope = match d.scope.map(str::trim).filter(|s| !s.is_empty()) {
        Some(s) => Scope::parse(s, d.scope_id)?,
        None => stored.map_or(Scope::All, |r| r.scope),
    };
    let owned = match scope {
        Scope::All => true,
        Scope::Customer(c) => store.company_has_customer_row(company, c).await?,
        Scope::Plant(p) => store.company_serves_plant(company, PlantId(p)).await?,
    };
    if !owned {
        return Err(DomainError::invalid("scopeId").into());
    }
    let base = stored.map(|r| r.params.to_draft()).unwrap_or_default();
    let params = Params::validate(kind, &overlay(base, d.params.clone().unwrap_or_default()))?;
    let enabled = d.enabled.unwrap_or(stored.is_none_or(|r| r.enabled));
    Ok((kind, enabled, severity, scope, params))
}

fn entry<'a>(
    actor: &'a Actor,
    action: &'a str,
    target: &'a str,
    detail: &'a str,
    now: i64,
) -> NewAudit<'a> {
    audit::admin_entry(audit::author(actor, None), action, target, detail, now)
}

/// One rule of `company`; 4 `id` otherwise.
pub async fn one(store: &Store, company: CompanyId, id: AlarmRuleId) -> Result<Rule> {
    Ok(store
        .alarm_rule(company, id)
        .await?
        .as_ref()
        .and_then(parse)
        .ok_or_else(|| DomainError::invalid("id"))?)
}

/// A new rule of `company`, with its audit entry.
pub async fn add(
    store: &Store,
    actor: &Actor,
    company: CompanyId,
    d: &RuleDraft<'_>,
    now: i64,
) -> Result<AlarmRuleId> {
    actor.require_writable()?;
    let (kind, enabled, severity, scope, params) = checked(store, company, None, d).await?;
    let params = serde_json::to_string(&params.to_draft()).unwrap_or_else(|_| "{}".into());
    let describe = |id: AlarmRuleId| {
        let detail = json!({"ruleId": id.0, "companyId": company.0, "kind": kind.as_str(),
            "enabled": enabled, "severity": severity.as_str(), "scope": scope.kind(),
            "scopeId": scope.id()});
        (format!("alarmRule:{}", id.0), detail.to_string())
    };
    let audit = NewRowsAudit {
        entry: entry(actor, domain::audit_action::ALARM_RULE_ADD, "", "", now),
        describe: &describe,
    };
    let write = RuleWrite {
        kind: kind.as_str(),
        enabled,
        severity: severity.as_str(),
        scope: scope.kind(),
        scope_id: scope.id(),
        params: &params,
    };
    Ok(store.insert_alarm_rule(company, &write, now, audit).await?)
}

/// Rewrites a rule of `company` (not its kind), with its audit entry.
pub async fn edit(
    store: &Store,
    actor: &Actor,
    company: CompanyId,
    id: AlarmRuleId,
    d: &RuleDraft<'_>,
    now: i64,
) -> Result<()> {
    actor.require_writable()?;
    let stored = one(store, company, id).await?;
    let (kind, enabled, severity, scope, params) =
        checked(store, company, Some(&stored), d).await?;
    let params_text = serde_json::to_string(&params.to_draft()).unwrap_or_else(|_| "{}".into());
    let target = format!("alarmRule:{}", id.0);
    let detail = json!({"ruleId": id.0, "companyId": company.0, "kind": kind.as_str(),
        "enabled": enabled, "severity": severity.as_str(), "scope": scope.kind(),
        "scopeId": scope.id(), "params": serde_json::to_value(params.to_draft()).ok()})
    .to_string();
    let audit = entry(
        actor,
        domain::audit_action::ALARM_RULE_EDIT,
        &target,
        &detail,
        now,
    );
    let write = RuleWrite {
        kind: kind.as_str(),
        enabled,
        severity: severity.as_str(),
        scope: scope.kind(),
        scope_id: scope.id(),
        params: &params_text,
    };
    if !store
        .update_alarm_rule(company, id, &write, &audit, now)
        .await?
    {
        return Err(DomainError::invalid("id").into());
    }
    Ok(())
}

/// Deletes a rule of `company`; its live cases close (they keep their history).
pub async fn delete(
    store: &Store,
    actor: &Actor,
    company: CompanyId,
    id: AlarmRuleId,
    now: i64,
) -> Result<()> {
    actor.require_writable()?;
    let target = format!("alarmRule:{}", id.0);
    let detail = json!({"ruleId": id.0, "companyId": company.0}).to_string();
    let audit = entry(
        actor,
        domain::audit_action::ALARM_RULE_DELETE,
        &target,
        &detail,
        now,
    );
    if !store.delete_alarm_rule(company, id, &audit, now).await? {
        return Err(DomainError::invalid("id").into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_cover_every_kind_and_read_back() {
        let d = defaults();
        assert_eq!(d.len(), Kind::ALL.len());
        for (k, _, p) in d {
            let draft: ParamsDraft = serde_json::from_str(&p).expect("json");
            assert_eq!(Params::validate(k, &draft), Ok(Params::default_for(k)));
        }
    }
}
