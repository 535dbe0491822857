//! One gateway's messages in the communication log, and one message's payload.

use axum::extract::State;
use chrono::{NaiveDate, NaiveDateTime};
use domain::DomainError;
use domain::ids::CommEntryId;
use serde::{Deserialize, Serialize};
use service::gateways::GatewayRef;
use store::comm_log::{CommFilter, CommRow};
use utoipa::{IntoParams, ToSchema};

use super::{require_reader, visible_gateway, visible_gateway_id};
use crate::{
    AppState,
    audit::text,
    envelope::{ApiResult, Data, Envelope},
    extract::{Query, num},
    paging::{Page, Paging},
    session::CurrentUser,
};

/// The longest `kind` filter accepted (kinds are topic leaves such as `telemetry`).
const KIND_MAX: usize = 32;

/// `YYYY-MM-DD HH:MM:SS` (UTC), as the log lists a message's time.
fn time(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .format("%Y-%m-%d %H:%M:%S")
        .to_string()
}

/// The two ways a message travels; the log records no other.
fn direction_schema() -> utoipa::openapi::Object {
    crate::openapi::one_of_text(
        "`up` (the gateway sent it) or `down` (the portal published it).",
        ["up", "down"],
    )
}

/// A message as a gateway's listing shows it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LogMessage {
    pub id: i64,
    /// The gateway's SN.
    pub sn: String,
    /// `up` (the gateway sent it) or `down` (the portal published it).
    #[schema(schema_with = direction_schema)]
    pub direction: String,
    /// `telemetry`, `status`, `event`, `reply`, `will` (the last will the broker published for
    /// the gateway), `command`, or another topic leaf the gateway used.
    pub kind: String,
    pub topic: String,
    /// The payload's size in bytes.
    pub size: i64,
    /// The payload's first 120 characters.
    pub summary: String,
    /// The command a `command` or `reply` belongs to, when known.
    pub command_id: Option<i64>,
    /// `YYYY-MM-DD HH:MM:SS` (UTC).
    pub time: String,
    /// The same instant in milliseconds.
    pub at: i64,
}

/// One message with its stored payload.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LogContent {
    pub id: i64,
    pub sn: String,
    #[schema(schema_with = direction_schema)]
    pub direction: String,
    pub kind: String,
    pub topic: String,
    /// The whole payload's size in bytes.
    pub size: i64,
    /// Whether `payload` is cut (only its first 64 KiB are stored).
    pub truncated: bool,
    /// The payload as sent when it is UTF-8 text, else as hex.
    pub payload: String,
    pub command_id: Option<i64>,
    pub time: String,
    pub at: i64,
}

fn message(r: CommRow) -> LogMessage {
    LogMessage {
        id: r.id.0,
        sn: r.gateway_sn,
        direction: r.direction,
        kind: r.kind,
        topic: r.topic,
        size: r.size,
        summary: r.payload,
        command_id: r.command_id.map(|v| v.0),
        time: time(r.at),
        at: r.at,
    }
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct PageQuery {
    /// The gateway's SN (required).
    #[serde(default, alias = "gsn", deserialize_with = "num::opt_text")]
    pub sn: Option<String>,
    /// `up` or `down`.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub direction: Option<String>,
    /// `telemetry`, `status`, `event`, `reply`, `will`, `command`...
    #[serde(default, deserialize_with = "num::opt_text")]
    pub kind: Option<String>,
    /// From, inclusive: `YYYY-MM-DD HH:MM:SS` or `YYYY-MM-DD` (UTC).
    #[serde(default, deserialize_with = "num::opt_text")]
    pub sdate: Option<String>,
    /// To, inclusive: `YYYY-MM-DD HH:MM:SS` (that second) or `YYYY-MM-DD` (that whole day), UTC.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub edate: Option<String>,
}

/// A time bound in milliseconds: a day's midnight (the next one for an end) or a second (the
/// next one for an end, so the bound is exclusive); empty is "not given".
fn bound(raw: &Option<String>, field: &str, end: bool) -> Result<Option<i64>, DomainError> {
    let Some(s) = text(raw) else { return Ok(None) };
    let (instant, step) = match NaiveDateTime::parse_from_str(&s, "%Y-%m-%d %H:%M:%S") {
        Ok(t) => (t, 1000),
        Err(_) => {
            let day = NaiveDate::parse_from_str(&s, "%Y-%m-%d")
                .map_err(|_| DomainError::invalid(field))?;
            let midnight = day
                .and_hms_opt(0, 0, 0)
                .ok_or_else(|| DomainError::invalid(field))?;
            (midnight, 86_400_000)
        }
    };
    let ms = instant.and_utc().timestamp_millis();
    Ok(Some(if end { ms + step } else { ms }))
}

impl PageQuery {
    fn filter(&self, paging: Paging) -> Result<CommFilter, DomainError> {
        let direction = text(&self.direction);
        if direction
            .as_deref()
            .is_some_and(|d| d != "up" && d != "down")
        {
            return Err(DomainError::invalid("direction"));
        }
        let kind = text(&self.kind);
        if kind
            .as_deref()
            .is_some_and(|k| k.len() > KIND_MAX || !k.bytes().all(|b| b.is_ascii_graphic()))
        {
            return Err(DomainError::invalid("kind"));
        }
        Ok(CommFilter {
            direction,
            kind,
            from: bound(&self.sdate, "sdate", false)?,
            to: bound(&self.edate, "edate", true)?,
            limit: paging.limit(),
            offset: paging.offset(),
        })
    }
}

/// A gateway's messages, newest first, paged (`page` from 1, `limit` up to 100); 4 `sn` when
/// the gateway is missing or not visible.
#[utoipa::path(get, path = "/api/v1/logger/page", tag = "logger", params(PageQuery, Paging), security(("bearer" = [])),
    responses((status = 200, description = "A page of messages, newest first; 2, 4 sn/direction/kind/sdate/edate", body = Envelope<Page<LogMessage>>)))]
pub async fn page(
    State(app): State<AppState>,
    me: CurrentUser,
    paging: Paging,
    Query(q): Query<PageQuery>,
) -> ApiResult<Data<Page<LogMessage>>> {
    require_reader(&me.actor)?;
    let sn = text(&q.sn).ok_or_else(|| DomainError::invalid("sn"))?;
    let filter = q.filter(paging)?;
    let (gateway, _) = visible_gateway(&app, &me, GatewayRef::Sn(&sn), "sn").await?;
    let (rows, total) = app.store.comm_log_page(gateway.id, &filter).await?;
    Ok(Data(Page::new(
        paging,
        total,
        rows.into_iter().map(message).collect(),
    )))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct ContentQuery {
    /// The message's id.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub id: Option<i64>,
}

/// One message with its stored payload; 4 `id` when it is missing or its gateway is not
/// visible.
#[utoipa::path(get, path = "/api/v1/logger/content", tag = "logger", params(ContentQuery), security(("bearer" = [])),
    responses((status = 200, description = "The message; 2, 4 id", body = Envelope<LogContent>)))]
pub async fn content(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ContentQuery>,
) -> ApiResult<Data<LogContent>> {
    require_reader(&me.actor)?;
    let id = q.id.ok_or_else(|| DomainError::invalid("id"))?;
    let r = app
        .store
        .comm_log_entry(CommEntryId(id))
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?;
    visible_gateway_id(&app, &me, r.gateway_id, "id").await?;
    Ok(Data(LogContent {
        id: r.id.0,
        sn: r.gateway_sn,
        direction: r.direction,
        kind: r.kind,
        topic: r.topic,
        size: r.size,
        truncated: r.truncated,
        payload: r.payload,
        command_id: r.command_id.map(|v| v.0),
        time: time(r.at),
        at: r.at,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_take_a_second_or_a_whole_day() {
        let day = Some("2026-01-02".to_string());
        let second = Some("2026-01-02 03:04:05".to_string());
        let midnight = 1_767_312_000_000;
        assert_eq!(bound(&day, "sdate", false), Ok(Some(midnight)));
        assert_eq!(bound(&day, "edate", true), Ok(Some(midnight + 86_400_000)));
        let t = midnight + (3 * 3600 + 4 * 60 + 5) * 1000;
        assert_eq!(bound(&second, "sdate", false), Ok(Some(t)));
        assert_eq!(bound(&second, "edate", true), Ok(Some(t + 1000)));
        assert_eq!(bound(&None, "sdate", false), Ok(None));
        assert_eq!(
            bound(&Some("02/01/2026".into()), "sdate", false),
            Err(DomainError::invalid("sdate"))
        );
    }
}
