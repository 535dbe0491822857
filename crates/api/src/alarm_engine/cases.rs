//! Alarm cases on the wire.

use axum::extract::{Path, State};
use domain::{
    alarm_rules::{CaseState, Kind, Severity},
    ids::{AlarmCaseId, PlantId},
};
use serde::{Deserialize, Serialize};
use service::alarm_engine::cases;
use store::alarm_engine::cases::{CaseFilter, CaseRow, HistoryRow};
use utoipa::{IntoParams, ToSchema};

use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    extract::{Body, Query, num},
    paging::{Page, Paging},
    plants::update_at,
    session::CurrentUser,
    text_enums,
    users::path_id,
};
use domain::time::now_ms;

/// The case list's filters; a value outside its set means any.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct CaseQuery {
    /// `open`, `acknowledged` or `closed`.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub state: Option<String>,
    /// A rule kind.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub kind: Option<String>,
    /// `warning` or `alarm`.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub severity: Option<String>,
    #[serde(default, alias = "stationId", deserialize_with = "num::opt_i64")]
    pub plant_id: Option<i64>,
}

/// An alarm case.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AlarmCase {
    pub id: i64,
    /// The rule that opened it; null once the rule is deleted.
    pub rule_id: Option<i64>,
    #[schema(value_type = text_enums::AlarmRuleKind)]
    pub kind: String,
    #[schema(value_type = text_enums::AlarmSeverity)]
    pub severity: String,
    #[schema(value_type = text_enums::AlarmCaseState)]
    pub state: String,
    pub plant_id: i64,
    pub plant_name: String,
    /// The device it is about; null for a plant-wide case (no_production, low_yield).
    pub device_sn: Option<String>,
    /// What it is about within the plant: '' the plant, a device SN, `SN/pv2` a string,
    /// `SN/F13` an event code.
    pub subject: String,
    /// The last figure seen, in the kind's unit (device_silent missed cycles, no_production W,
    /// low_yield % short, string_low W, cell_spread mV, soh_falling SOH %, event_code 0).
    pub value: f64,
    /// What the figure was computed from.
    #[schema(value_type = Object)]
    pub detail: serde_json::Value,
    /// `YYYY-MM-DDTHH:MM:SSZ`.
    pub opened_at: String,
    /// When the figure last changed.
    pub seen_at: String,
    pub acknowledged_at: Option<String>,
    /// The account that acknowledged it.
    pub acknowledged_by: Option<String>,
    pub ack_comment: Option<String>,
    pub closed_at: Option<String>,
}

fn wire(c: CaseRow) -> AlarmCase {
    AlarmCase {
        id: c.id.0,
        rule_id: c.rule_id.map(|r| r.0),
        kind: c.kind,
        severity: c.severity,
        state: c.state,
        plant_id: c.plant_id.0,
        plant_name: c.plant_name,
        device_sn: c.device_sn,
        subject: c.subject,
        value: (c.value * 100.0).round() / 100.0,
        detail: serde_json::from_str(&c.detail).unwrap_or_else(|_| serde_json::json!({})),
        opened_at: update_at(c.opened_at),
        seen_at: update_at(c.seen_at),
        acknowledged_at: c.acknowledged_at.map(update_at),
        acknowledged_by: c.acknowledged_account,
        ack_comment: c.ack_comment,
        closed_at: c.closed_at.map(update_at),
    }
}

/// One line of a case's history.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AlarmCaseEvent {
    #[schema(value_type = text_enums::AlarmCaseAction)]
    pub action: String,
    /// `YYYY-MM-DDTHH:MM:SSZ`.
    pub at: String,
    #[schema(value_type = text_enums::AlarmSeverity)]
    pub severity: String,
    pub value: Option<f64>,
    /// Who acknowledged; null for the engine's own lines.
    pub account: Option<String>,
    pub comment: Option<String>,
}

fn event(h: HistoryRow) -> AlarmCaseEvent {
    AlarmCaseEvent {
        action: h.action,
        at: update_at(h.at),
        severity: h.severity,
        value: h.value.map(|v| (v * 100.0).round() / 100.0),
        account: h.account,
        comment: h.comment,
    }
}

/// A case with its history, oldest line first.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AlarmCaseDetail {
    pub case: AlarmCase,
    pub history: Vec<AlarmCaseEvent>,
}

/// The cases on the plants the caller may see: live ones first (alarms before warnings, the
/// oldest first), then closed ones (the latest first).
#[utoipa::path(get, path = "/api/v1/alarm/cases", tag = "alarms", params(CaseQuery, Paging),
    security(("bearer" = [])), responses((status = 200, description = "A page of cases; 2", body = Envelope<Page<AlarmCase>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<CaseQuery>,
    paging: Paging,
) -> ApiResult<Data<Page<AlarmCase>>> {
    let word = |s: &Option<String>| s.as_deref().map(str::trim).map(String::from);
    let filter = CaseFilter {
        state: word(&q.state).filter(|s| CaseState::parse(s).is_some()),
        kind: word(&q.kind).filter(|k| Kind::parse(k).is_some()),
        severity: word(&q.severity).filter(|s| Severity::parse(s).is_some()),
        plant: q.plant_id.filter(|p| *p > 0).map(PlantId),
        limit: paging.limit(),
        offset: paging.offset(),
    };
    let (rows, total) = cases::list(&app.store, &me.actor, &filter).await?;
    Ok(Data(Page::new(
        paging,
        total,
        rows.into_iter().map(wire).collect(),
    )))
}

/// One case with its history; a case on a plant the caller cannot see answers 4 `id`.
#[utoipa::path(get, path = "/api/v1/alarm/case/{id}", tag = "alarms", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "The case; 2, 4", body = Envelope<AlarmCaseDetail>)))]
pub async fn one(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<AlarmCaseDetail>> {
    let id = AlarmCaseId(path_id(&id)?);
    let (case, history) = cases::detail(&app.store, &me.actor, id).await?;
    Ok(Data(AlarmCaseDetail {
        case: wire(case),
        history: history.into_iter().map(event).collect(),
    }))
}

/// An acknowledgement, with an optional comment.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AckRequest {
    /// At most 500 characters.
    #[serde(default, deserialize_with = "num::opt_text")]
    #[schema(max_length = 500)]
    pub comment: Option<String>,
}

/// Acknowledges an open case (someone is on it): who, when and the comment are kept; the
/// case closes by itself on recovery. Acknowledging it again changes nothing; a closed case
/// answers 4 `state`, a long comment 4 `comment`, a case the caller cannot see 4 `id`.
#[utoipa::path(post, path = "/api/v1/alarm/case/{id}/acknowledge", tag = "alarms",
    params(("id" = i64, Path)), request_body = AckRequest, security(("bearer" = [])),
    responses((status = 200, description = "The case as it is now; 2, 4", body = Envelope<AlarmCase>)))]
pub async fn acknowledge(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Body(req): Body<AckRequest>,
) -> ApiResult<Data<AlarmCase>> {
    let id = AlarmCaseId(path_id(&id)?);
    let case =
        cases::acknowledge(&app.store, &me.actor, id, req.comment.as_deref(), now_ms()).await?;
    Ok(Data(wire(case)))
}
