//! A company's alarm rules on the wire.

use axum::extract::{Path, State};
use domain::{
    alarm_rules::ParamsDraft,
    ids::{AlarmRuleId, CompanyId},
};
use serde::{Deserialize, Serialize};
use service::{
    alarm_engine::rules::{self, EDIT, Rule, RuleDraft, VIEW},
    customers::company_for,
};
use utoipa::{IntoParams, ToSchema};

use crate::{
    AppState,
    envelope::{Ack, ApiResult, Data, Done, Envelope},
    extract::{Body, Query, num},
    plants::update_at,
    session::CurrentUser,
    text_enums,
    users::path_id,
};
use domain::time::now_ms;

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct RuleQuery {
    /// Internal administrators choose the company; everyone else gets their own.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub company_id: Option<i64>,
}

fn asked(raw: Option<i64>) -> Option<CompanyId> {
    raw.filter(|c| *c > 0).map(CompanyId)
}

/// A rule's parameters: each kind reads its own fields (docs/alarms.md lists them with their
/// ranges and defaults); the others are absent.
#[derive(Debug, Default, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AlarmParams {
    /// device_silent: missed upload cycles before a warning, 2 to 100 (3).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "num::opt_i64"
    )]
    pub warning_cycles: Option<i64>,
    /// device_silent: missed upload cycles before an alarm, more than `warningCycles`, up to
    /// 1000 (6).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "num::opt_i64"
    )]
    pub alarm_cycles: Option<i64>,
    /// no_production: PV below this counts as nothing, W, 0 to 10000 (10).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "num::opt_f64"
    )]
    pub threshold_w: Option<f64>,
    /// no_production, string_low: for how long, 15 to 720 (60).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "num::opt_i64"
    )]
    pub minutes: Option<i64>,
    /// no_production: the sun at least this high, degrees, 5 to 60 (15).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "num::opt_f64"
    )]
    pub min_elevation_deg: Option<f64>,
    /// low_yield (50), string_low (40): how far below the median, %, 10 to 90.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "num::opt_f64"
    )]
    pub percent: Option<f64>,
    /// cell_spread: highest minus lowest cell voltage above this, mV, 10 to 2000 (200).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "num::opt_f64"
    )]
    pub spread_mv: Option<f64>,
    /// soh_falling: SOH points lost over `days`, 1 to 50 (5).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "num::opt_f64"
    )]
    pub drop_points: Option<f64>,
    /// soh_falling: over how many days, 1 to 365 (30).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "num::opt_i64"
    )]
    pub days: Option<i64>,
    /// soh_falling: SOH below this fires whatever the drop, %, 0 to 100 (70).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "num::opt_f64"
    )]
    pub floor: Option<f64>,
    /// event_code: the event codes (at most 50, letters, digits, `-`, `_`, up to 16 each).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub codes: Option<Vec<String>>,
    /// event_code: every fault too (true when no codes are given).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "num::opt_bool"
    )]
    pub all_faults: Option<bool>,
}

impl From<AlarmParams> for ParamsDraft {
    fn from(p: AlarmParams) -> Self {
        ParamsDraft {
            warning_cycles: p.warning_cycles,
            alarm_cycles: p.alarm_cycles,
            threshold_w: p.threshold_w,
            minutes: p.minutes,
            min_elevation_deg: p.min_elevation_deg,
            percent: p.percent,
            spread_mv: p.spread_mv,
            drop_points: p.drop_points,
            days: p.days,
            floor: p.floor,
            codes: p.codes,
            all_faults: p.all_faults,
        }
    }
}

impl From<ParamsDraft> for AlarmParams {
    fn from(p: ParamsDraft) -> Self {
        AlarmParams {
            warning_cycles: p.warning_cycles,
            alarm_cycles: p.alarm_cycles,
            threshold_w: p.threshold_w,
            minutes: p.minutes,
            min_elevation_deg: p.min_elevation_deg,
            percent: p.percent,
            spread_mv: p.spread_mv,
            drop_points: p.drop_points,
            days: p.days,
            floor: p.floor,
            codes: p.codes,
            all_faults: p.all_faults,
        }
    }
}

/// An alarm rule of the company.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AlarmRule {
    pub id: i64,
    #[schema(value_type = text_enums::AlarmRuleKind)]
    pub kind: String,
    pub enabled: bool,
    /// The severity of its cases (device_silent's tiers choose their own).
    #[schema(value_type = text_enums::AlarmSeverity)]
    pub severity: String,
    #[schema(value_type = text_enums::AlarmScope)]
    pub scope: String,
    /// The customer (a customer list id) or plant the scope names; null for `all`.
    pub scope_id: Option<i64>,
    /// Every parameter of its kind, defaults filled in.
    pub params: AlarmParams,
    /// `YYYY-MM-DDTHH:MM:SSZ`.
    pub create_at: String,
    pub update_at: String,
}

fn wire(r: Rule) -> AlarmRule {
    AlarmRule {
        id: r.id.0,
        kind: r.kind.as_str().into(),
        enabled: r.enabled,
        severity: r.severity.as_str().into(),
        scope: r.scope.kind().into(),
        scope_id: r.scope.id(),
        params: r.params.to_draft().into(),
        create_at: update_at(r.created_at),
        update_at: update_at(r.updated_at),
    }
}

/// The company's alarm rules, oldest first (a company starts with one default rule per kind).
#[utoipa::path(get, path = "/api/v1/alarm/rules", tag = "alarms", params(RuleQuery),
    security(("bearer" = [])), responses((status = 200, description = "The rules; 2", body = Envelope<Vec<AlarmRule>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<RuleQuery>,
) -> ApiResult<Data<Vec<AlarmRule>>> {
    let company = company_for(&me.actor, asked(q.company_id), VIEW)?;
    let rules = rules::list(&app.store, company, now_ms()).await?;
    Ok(Data(rules.into_iter().map(wire).collect()))
}

/// A rule as sent: a field left out keeps the stored value (a new rule: its default).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RuleRequest {
    /// Required for a new rule; an edit cannot change it.
    #[serde(default, deserialize_with = "num::opt_text")]
    #[schema(value_type = Option<text_enums::AlarmRuleKind>)]
    pub kind: Option<String>,
    #[serde(default, deserialize_with = "num::opt_bool")]
    pub enabled: Option<bool>,
    #[serde(default, deserialize_with = "num::opt_text")]
    #[schema(value_type = Option<text_enums::AlarmSeverity>)]
    pub severity: Option<String>,
    #[serde(default, deserialize_with = "num::opt_text")]
    #[schema(value_type = Option<text_enums::AlarmScope>)]
    pub scope: Option<String>,
    /// A customer of the company (its customer list id) or a plant it serves.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub scope_id: Option<i64>,
    #[serde(default)]
    pub params: Option<AlarmParams>,
    /// Internal administrators choose the company.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub company_id: Option<i64>,
}

impl RuleRequest {
    fn draft(&self) -> RuleDraft<'_> {
        RuleDraft {
            kind: self.kind.as_deref(),
            enabled: self.enabled,
            severity: self.severity.as_deref(),
            scope: self.scope.as_deref(),
            scope_id: self.scope_id,
            params: self.params.clone().map(Into::into),
        }
    }
}

/// A new rule; bad input answers 4 with the field (`kind`, `severity`, `scope`, `scopeId`,
/// `params.<field>`).
#[utoipa::path(post, path = "/api/v1/alarm/rule", tag = "alarms", request_body = RuleRequest,
    security(("bearer" = [])), responses((status = 200, description = "The new rule's id; 2, 4", body = Envelope<i64>)))]
pub async fn add(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<RuleRequest>,
) -> ApiResult<Data<i64>> {
    let company = company_for(&me.actor, asked(req.company_id), EDIT)?;
    let id = rules::add(&app.store, &me.actor, company, &req.draft(), now_ms()).await?;
    Ok(Data(id.0))
}

/// Rewrites a rule (switch it on or off, tune it, scope it); another company's rule answers
/// 4 `id`.
#[utoipa::path(post, path = "/api/v1/alarm/rule/{id}", tag = "alarms", request_body = RuleRequest,
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Saved; 2, 4", body = Ack)))]
pub async fn edit(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Body(req): Body<RuleRequest>,
) -> ApiResult<Done> {
    let company = company_for(&me.actor, asked(req.company_id), EDIT)?;
    let id = AlarmRuleId(path_id(&id)?);
    rules::edit(&app.store, &me.actor, company, id, &req.draft(), now_ms()).await?;
    Ok(Done)
}

/// Deletes a rule; its live cases close and keep their history.
#[utoipa::path(post, path = "/api/v1/alarm/rule/{id}/delete", tag = "alarms",
    params(("id" = i64, Path), RuleQuery), security(("bearer" = [])),
    responses((status = 200, description = "Deleted; 2, 4", body = Ack)))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<RuleQuery>,
) -> ApiResult<Done> {
    let company = company_for(&me.actor, asked(q.company_id), EDIT)?;
    let id = AlarmRuleId(path_id(&id)?);
    rules::delete(&app.store, &me.actor, company, id, now_ms()).await?;
    Ok(Done)
}
