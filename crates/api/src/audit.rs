//! The audit log of remote control: every action of issue 7 (settings, power, debug, upgrades,
//! gateway actions) writes who did what to which device, when, and how it ended. Reading it
//! follows the plants' visibility: internal staff with `logger.management` read everything,
//! company staff their company's plants and colleagues, anyone else their own actions and the
//! plants they own.

use axum::extract::State;
use chrono::NaiveDate;
use domain::ids::PlantId;
use domain::{Code, DomainError, policy::PlantVisibility};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use store::{
    audit::{AuditFilter, AuditRow},
    log_pages::Author,
    plants::PlantRow,
};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    extract::{Query, num},
    paging::Page,
    session::CurrentUser,
    users::create_at,
};

const MAX_PAGE: i64 = 100;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list))
}

/// `me` as the author of a log entry about `plant`.
pub(crate) fn author<'a>(me: &'a CurrentUser, plant: Option<&PlantRow>) -> Author<'a> {
    service::audit::author(&me.actor, plant)
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct ListQuery {
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub page: Option<i64>,
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub limit: Option<i64>,
    /// Exact action, e.g. `setting.set`, `inverter.boot`.
    #[serde(default, deserialize_with = "num::opt_text")]
    #[param(value_type = Option<crate::text_enums::AuditAction>)]
    pub action: Option<String>,
    /// Part of the device or gateway SN.
    #[serde(default, alias = "sn", deserialize_with = "num::opt_text")]
    pub target: Option<String>,
    /// Part of the acting account.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub user: Option<String>,
    #[serde(default, alias = "stationId", deserialize_with = "num::opt_i64")]
    pub plant_id: Option<i64>,
    /// First day, `YYYY-MM-DD` (UTC), inclusive.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub sdate: Option<String>,
    /// Last day, `YYYY-MM-DD` (UTC), inclusive.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub edate: Option<String>,
}

/// A log filter's text: trimmed, with empty and `-1` (the screens' "any") as not given.
pub(crate) fn text(raw: &Option<String>) -> Option<String> {
    raw.as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "-1")
        .map(String::from)
}

/// Midnight UTC of a `YYYY-MM-DD` day (plus `days`), in milliseconds; empty is "not given".
fn day_ms(raw: &Option<String>, field: &str, days: i64) -> Result<Option<i64>, DomainError> {
    let Some(s) = text(raw) else { return Ok(None) };
    let day = NaiveDate::parse_from_str(&s, "%Y-%m-%d").map_err(|_| DomainError::invalid(field))?;
    let start = day
        .and_hms_opt(0, 0, 0)
        .ok_or_else(|| DomainError::invalid(field))?
        .and_utc()
        .timestamp_millis();
    Ok(Some(start + days * 86_400_000))
}

/// The paging and the plant and day window every log listing (audit, debug) reads.
pub(crate) struct LogWindow {
    pub page: i64,
    pub limit: i64,
    pub offset: i64,
    pub plant: Option<PlantId>,
    /// Milliseconds, inclusive (`sdate`'s midnight).
    pub from: Option<i64>,
    /// Milliseconds, exclusive (the midnight after `edate`).
    pub to: Option<i64>,
}

impl LogWindow {
    /// `page` from 1, `limit` 10 by default and up to 100; `plant` 0 or less is "any".
    pub(crate) fn parse(
        page: Option<i64>,
        limit: Option<i64>,
        plant: Option<i64>,
        sdate: &Option<String>,
        edate: &Option<String>,
    ) -> Result<LogWindow, DomainError> {
        let limit = limit.unwrap_or(10).clamp(1, MAX_PAGE);
        let page = page.unwrap_or(1).max(1);
        Ok(LogWindow {
            page,
            limit,
            offset: (page - 1) * limit,
            plant: plant.filter(|p| *p > 0).map(PlantId),
            from: day_ms(sdate, "sdate", 0)?,
            to: day_ms(edate, "edate", 1)?,
        })
    }

    /// The listing's answer: one page of `infos`.
    pub(crate) fn answer<T>(&self, total: i64, infos: Vec<T>) -> Data<Page<T>> {
        Data(Page {
            page_size: self.limit,
            page_number: self.page,
            total,
            infos,
        })
    }
}

/// Which log entries the caller reads: internal staff need `logger.management` and then read
/// all; anyone else what their plant visibility allows.
pub(crate) fn log_visibility(me: &CurrentUser) -> Result<PlantVisibility, DomainError> {
    if me.actor.is_internal() && !me.actor.has(domain::permissions::LOGGER_MANAGEMENT) {
        return Err(Code::NoPermission.into());
    }
    Ok(me.actor.plant_visibility())
}

impl ListQuery {
    fn filter(&self) -> Result<(AuditFilter, LogWindow), DomainError> {
        let w = LogWindow::parse(
            self.page,
            self.limit,
            self.plant_id,
            &self.sdate,
            &self.edate,
        )?;
        let filter = AuditFilter {
            action: text(&self.action),
            target: text(&self.target),
            user: text(&self.user),
            plant: w.plant,
            from: w.from,
            to: w.to,
            limit: w.limit,
            offset: w.offset,
        };
        Ok((filter, w))
    }
}

/// One action of the audit log.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    pub id: i64,
    /// The acting user.
    pub user_id: Option<i64>,
    pub account: String,
    /// The plant of the target, when the caller may see it.
    pub plant_id: Option<i64>,
    pub plant_name: Option<String>,
    /// e.g. `setting.set`, `inverter.boot`, `gateway.restart`.
    #[schema(value_type = crate::text_enums::AuditAction)]
    pub action: String,
    /// The device or gateway SN (a file name for `firmware.upload`).
    pub target: String,
    /// What the action was about; free-form: each action writes the facts of its own kind
    /// (`kind`, `params`, `reason`, `commandId`, ...). Null when there are none.
    #[schema(value_type = Option<std::collections::HashMap<String, Value>>)]
    pub detail: Option<Value>,
    /// `sent`, `succeeded`, `failed` or `refused`.
    #[schema(value_type = crate::text_enums::AuditResult)]
    pub result: String,
    pub command_id: Option<i64>,
    /// The command's status now, when the entry sent one.
    #[schema(value_type = Option<crate::commands::CommandState>)]
    pub command_status: Option<String>,
    pub create_at: String,
}

fn item(r: &AuditRow) -> AuditEntry {
    AuditEntry {
        id: r.id.0,
        user_id: r.user_id.map(|v| v.0),
        account: r.account.clone(),
        plant_id: r.plant_id.map(|v| v.0),
        plant_name: r.plant_name.clone(),
        action: r.action.clone(),
        target: r.target.clone(),
        detail: serde_json::from_str::<Value>(&r.detail)
            .ok()
            .filter(|v| !v.is_null()),
        result: r.result.clone(),
        command_id: r.command_id.map(|v| v.0),
        command_status: r.command_status.clone(),
        create_at: create_at(r.created_at),
    }
}

/// The audit log the caller may read, newest first, paged (`page` from 1, `limit` up to 100).
#[utoipa::path(get, path = "/api/v1/audit", tag = "audit", params(ListQuery), security(("bearer" = [])),
    responses((status = 200, description = "A page of entries, newest first; 2, 4 sdate/edate", body = Envelope<Page<AuditEntry>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<Data<Page<AuditEntry>>> {
    let visibility = log_visibility(&me)?;
    let (filter, w) = q.filter()?;
    let (rows, total) = app
        .store
        .audit_visible(visibility, me.id(), &filter)
        .await?;
    Ok(w.answer(total, rows.iter().map(item).collect()))
}
