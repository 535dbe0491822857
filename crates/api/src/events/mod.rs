//! Device events (warnings and faults) as users read them: the event list with its filters, the
//! events of one device or plant, counts for the overview screens, the last hour, and the
//! operation-data downloads. Events are read through `store::messages`, which applies the
//! plants' visibility rule: another tenant's events are simply not there.

pub(crate) mod counts;
pub(crate) mod list;
pub(crate) mod workdata;

use axum::{Router, routing::get};
use chrono::{NaiveDate, NaiveTime};
use devices::{DeviceFamily, events::EventDef};
use domain::{Code, Lang};
use serde_json::{Value, json};
use store::{devices::DeviceListRow, messages::EventListRow};

use crate::{AppState, envelope::ApiResult, plants::update_at, readings, session::CurrentUser};

/// Largest page an event list answers.
pub(crate) const MAX_PAGE: i64 = 200;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/events", get(list::events))
        .route("/api/v1/event/oneHour", get(list::one_hour))
        .route("/api/v1/event/detail/{id}", get(list::detail))
        .route("/api/v1/event/{sn}", get(list::device_events))
        .route("/api/v1/event/{sn}/realtime", get(list::device_realtime))
        .route("/api/v1/battery/events", get(list::battery_events))
        .route("/api/v1/plant/{id}/events", get(counts::plant_events))
        .route("/api/v1/plant/{id}/eventCount", get(counts::plant_count))
        .route(
            "/api/v1/plant/{id}/inverterCount",
            get(counts::inverter_count),
        )
        .route("/api/v1/overview/eventCount", get(counts::overview_count))
        .route("/api/v1/user/{id}/eventCount", get(counts::user_count))
        .route("/api/v1/workdata/event", get(workdata::inverter_events))
        .route(
            "/api/v1/workdata/battery/event",
            get(workdata::battery_events),
        )
        .route("/api/v1/workdata/dynamic", get(workdata::dynamic))
        .route(
            "/api/v1/workdata/event/download",
            get(workdata::inverter_events_download),
        )
        .route(
            "/api/v1/workdata/battery/event/download",
            get(workdata::battery_events_download),
        )
        .route(
            "/api/v1/workdata/dynamic/download",
            get(workdata::dynamic_download),
        )
}

/// The catalogue family of a stored family name.
pub(crate) fn family(name: &str) -> Option<DeviceFamily> {
    serde_json::from_value(Value::String(name.to_string())).ok()
}

/// The catalogue entry of an event: by the device's family, or (device deleted since) the
/// first family that knows the code.
pub(crate) fn definition(e: &EventListRow) -> Option<&'static EventDef> {
    match e.family.as_deref().and_then(family) {
        Some(f) => devices::events::lookup(f, &e.code),
        None => devices::events::catalogue()
            .iter()
            .find(|d| d.code == e.code),
    }
}

/// One event as every list answers it. Times: `occurTime`/`recoverTime` in the plant's zone
/// (`YYYY-MM-DD HH:MM:SS`), `updateAt` in UTC; meaning and solution in the caller's language.
pub(crate) fn item(e: &EventListRow, lang: Lang) -> Value {
    let tz = readings::zone(e.plant_timezone.as_deref().unwrap_or("UTC"));
    let def = definition(e);
    json!({
        "id": e.id,
        "code": e.code,
        "sn": e.device_sn,
        "alias": e.device_alias,
        "deviceType": e.family,
        "type": e.type_code,
        "severity": e.severity,
        "level": if e.severity == "fault" { 3 } else { 2 },
        "status": if e.closed_at.is_none() { "open" } else { "closed" },
        "occurTime": readings::local_time(e.opened_at, tz),
        "recoverTime": e.closed_at.map(|t| readings::local_time(t, tz)),
        "updateAt": update_at(e.closed_at.unwrap_or(e.opened_at)),
        "meaning": def.map(|d| d.meaning(lang)),
        "solution": def.map(|d| d.solution(lang)),
        "plantId": e.plant_id,
        "plantName": e.plant_name,
        "timezone": e.plant_timezone,
    })
}

/// Refuses callers without `event.view` (code 2): the events screen's route key.
pub(crate) fn require_view(me: &CurrentUser) -> ApiResult<()> {
    Ok(me.actor.require("event.view")?)
}

/// The device named by a path SN if the caller may see it; 600 otherwise (another tenant's
/// device answers exactly like a missing one).
pub(crate) async fn visible_device(
    app: &AppState,
    me: &CurrentUser,
    sn: &str,
) -> ApiResult<DeviceListRow> {
    Ok(app
        .store
        .device_visible(me.actor.plant_visibility(), me.id(), sn.trim())
        .await?
        .ok_or(Code::InverterMissing)?)
}

/// `[from, to)` in UTC milliseconds of an inclusive `sdate`..`edate` day range
/// (`YYYY-MM-DD`); unreadable dates mean "no bound".
pub(crate) fn day_range(sdate: Option<&str>, edate: Option<&str>) -> (Option<i64>, Option<i64>) {
    let day = |s: Option<&str>| {
        s.and_then(|s| NaiveDate::parse_from_str(s.get(..10).unwrap_or(s), "%Y-%m-%d").ok())
    };
    let ms = |d: NaiveDate| d.and_time(NaiveTime::MIN).and_utc().timestamp_millis();
    let from = day(sdate).map(ms);
    let to = day(edate).and_then(|d| d.succ_opt()).map(ms);
    (from, to)
}

/// Severity from what clients send: `warning`/`fault`, or the status codes 2/3.
pub(crate) fn severity(raw: Option<&str>) -> Option<String> {
    match raw?.trim().to_ascii_lowercase().as_str() {
        "warning" | "2" => Some("warning".into()),
        "fault" | "3" => Some("fault".into()),
        _ => None,
    }
}

/// Open/closed from what clients send: `open`/`closed`, or 1/0; anything else is "any".
pub(crate) fn open_state(raw: Option<&str>) -> Option<bool> {
    match raw?.trim().to_ascii_lowercase().as_str() {
        "open" | "1" => Some(true),
        "closed" | "0" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn day_ranges_include_the_end_day() {
        let (from, to) = day_range(Some("2026-01-01"), Some("2026-01-01"));
        assert_eq!(to.zip(from).map(|(t, f)| t - f), Some(86_400_000));
        assert_eq!(day_range(Some("junk"), None), (None, None));
    }

    #[test]
    fn severities_and_states_read_words_and_codes() {
        assert_eq!(severity(Some("3")).as_deref(), Some("fault"));
        assert_eq!(severity(Some("Warning")).as_deref(), Some("warning"));
        assert_eq!(severity(Some("-1")), None);
        assert_eq!(open_state(Some("open")), Some(true));
        assert_eq!(open_state(Some("0")), Some(false));
        assert_eq!(open_state(Some("-1")), None);
    }

    #[test]
    fn events_read_their_catalogue_text() {
        let e = EventListRow {
            id: 1,
            device_id: 1,
            plant_id: None,
            code: "F01".into(),
            severity: "fault".into(),
            opened_at: 0,
            closed_at: None,
            device_sn: None,
            family: Some("inverter".into()),
            type_code: None,
            device_alias: None,
            plant_name: None,
            plant_timezone: None,
        };
        let v = item(&e, Lang::En);
        assert!(v["meaning"].as_str().is_some_and(|m| !m.is_empty()));
        assert_eq!(v["status"], "open");
        assert_eq!(v["occurTime"], "1970-01-01 00:00:00");
    }
}
