//! Device events (faults, warnings and notices) as users read them: the event list with its
//! filters, the events of one device or plant, counts for the overview screens, the last hour,
//! and the operation-data downloads. Events are read through `store::messages` and
//! `store::occurrences`, which apply the plants' visibility rule: another tenant's events are
//! simply not there.
//!
//! Lists for people (the events screen, a plant's events, the last hour, messages) answer one
//! item per occurrence: the same event on several devices of a plant at the same time is one
//! item listing the devices. The lists of one device and the operation-data lists and
//! downloads answer every device's event.

pub(crate) mod counts;
pub(crate) mod list;
pub(crate) mod workdata;

use axum::{Router, routing::get};
use chrono::{NaiveDate, NaiveTime};
use devices::{
    DeviceFamily,
    events::{EventDef, EventSeverity},
};
use domain::{Code, Lang};
use serde_json::{Value, json};
use store::{devices::DeviceListRow, messages::EventListRow, occurrences::OccurrenceRow};

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
pub(crate) fn definition(family: Option<&str>, code: &str) -> Option<&'static EventDef> {
    match family.and_then(self::family) {
        Some(f) => devices::events::lookup(f, code),
        None => devices::events::catalogue().iter().find(|d| d.code == code),
    }
}

/// The wire level of a stored severity: 1 notice, 2 warning, 3 fault.
pub(crate) fn level(severity: &str) -> i64 {
    EventSeverity::from_key(severity).level()
}

/// The fields an event and an occurrence share. Times: `occurTime`/`recoverTime` in the
/// plant's zone (`YYYY-MM-DD HH:MM:SS`), `updateAt` in UTC; meaning and solution in the
/// caller's language.
struct Common<'a> {
    code: &'a str,
    family: Option<&'a str>,
    severity: &'a str,
    opened_at: i64,
    closed_at: Option<i64>,
    timezone: Option<&'a str>,
}

impl Common<'_> {
    fn json(&self, lang: Lang) -> Value {
        let tz = readings::zone(self.timezone.unwrap_or("UTC"));
        let def = definition(self.family, self.code);
        json!({
            "code": self.code,
            "severity": self.severity,
            "level": level(self.severity),
            "status": if self.closed_at.is_none() { "open" } else { "closed" },
            "occurTime": readings::local_time(self.opened_at, tz),
            "recoverTime": self.closed_at.map(|t| readings::local_time(t, tz)),
            "updateAt": update_at(self.closed_at.unwrap_or(self.opened_at)),
            "meaning": def.map(|d| d.meaning(lang)),
            "solution": def.map(|d| d.solution(lang)),
            "timezone": self.timezone,
        })
    }
}

fn merge(mut base: Value, extra: Value) -> Value {
    if let (Some(b), Value::Object(e)) = (base.as_object_mut(), extra) {
        b.extend(e);
    }
    base
}

/// One device's event, as the lists of one device and the operation data answer it.
pub(crate) fn item(e: &EventListRow, lang: Lang) -> Value {
    let common = Common {
        code: &e.code,
        family: e.family.as_deref(),
        severity: &e.severity,
        opened_at: e.opened_at,
        closed_at: e.closed_at,
        timezone: e.plant_timezone.as_deref(),
    };
    merge(
        common.json(lang),
        json!({
            "id": e.id,
            "occurrenceId": e.occurrence_id,
            "sn": e.device_sn,
            "alias": e.device_alias,
            "deviceType": e.family,
            "type": e.type_code,
            "plantId": e.plant_id,
            "plantName": e.plant_name,
        }),
    )
}

/// One device of an occurrence.
fn device(e: &EventListRow, tz: chrono_tz::Tz) -> Value {
    json!({
        "id": e.id,
        "sn": e.device_sn,
        "alias": e.device_alias,
        "deviceType": e.family,
        "type": e.type_code,
        "status": if e.closed_at.is_none() { "open" } else { "closed" },
        "occurTime": readings::local_time(e.opened_at, tz),
        "recoverTime": e.closed_at.map(|t| readings::local_time(t, tz)),
    })
}

/// One occurrence: the fields of an event (its first device's `sn`, `alias`, `deviceType`,
/// `type`), open while any device is in it, recovered when the last one recovered, with
/// `deviceCount`, `openCount` and `devices` (each with its own times and status).
pub(crate) fn occurrence_item(o: &OccurrenceRow, members: &[EventListRow], lang: Lang) -> Value {
    let common = Common {
        code: &o.code,
        family: o.family.as_deref(),
        severity: &o.severity,
        opened_at: o.opened_at,
        closed_at: o.closed_at,
        timezone: o.plant_timezone.as_deref(),
    };
    let tz = readings::zone(o.plant_timezone.as_deref().unwrap_or("UTC"));
    let devices: Vec<Value> = members
        .iter()
        .filter(|e| e.occurrence_id == o.id)
        .map(|e| device(e, tz))
        .collect();
    merge(
        common.json(lang),
        json!({
            "id": o.id,
            "occurrenceId": o.id,
            "sn": o.device_sn,
            "alias": o.device_alias,
            "deviceType": o.family,
            "type": o.type_code,
            "plantId": o.plant_id,
            "plantName": o.plant_name,
            "deviceCount": o.devices,
            "openCount": o.open_devices,
            "devices": devices,
        }),
    )
}

/// Occurrences with their devices, as list items.
pub(crate) async fn occurrence_items(
    app: &AppState,
    rows: &[OccurrenceRow],
    lang: Lang,
) -> ApiResult<Vec<Value>> {
    let ids: Vec<i64> = rows.iter().map(|o| o.id).collect();
    let members = app.store.occurrence_events(&ids).await?;
    Ok(rows
        .iter()
        .map(|o| occurrence_item(o, &members, lang))
        .collect())
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

/// Severity from what clients send: `info` (or `notice`)/`warning`/`fault`, or the levels
/// 1/2/3.
pub(crate) fn severity(raw: Option<&str>) -> Option<String> {
    match raw?.trim().to_ascii_lowercase().as_str() {
        "info" | "notice" | "1" => Some("info".into()),
        "warning" | "alarm" | "2" => Some("warning".into()),
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
        assert_eq!(severity(Some("info")).as_deref(), Some("info"));
        assert_eq!(severity(Some("1")).as_deref(), Some("info"));
        assert_eq!(severity(Some("-1")), None);
        assert_eq!(open_state(Some("open")), Some(true));
        assert_eq!(open_state(Some("0")), Some(false));
        assert_eq!(open_state(Some("-1")), None);
    }

    #[test]
    fn events_read_their_catalogue_text() {
        let e = EventListRow {
            id: 1,
            occurrence_id: 1,
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
        assert_eq!(v["level"], 3);
        let notice = EventListRow {
            code: "F13".into(),
            severity: "info".into(),
            ..e.clone()
        };
        assert_eq!(item(&notice, Lang::En)["level"], 1);
    }

    #[test]
    fn an_occurrence_lists_its_devices_and_stays_open_while_one_is() {
        let member = |id: i64, sn: &str, closed: Option<i64>| EventListRow {
            id,
            occurrence_id: 10,
            device_id: id,
            plant_id: Some(1),
            code: "F35".into(),
            severity: "warning".into(),
            opened_at: 0,
            closed_at: closed,
            device_sn: Some(sn.into()),
            family: Some("inverter".into()),
            type_code: Some(94),
            device_alias: None,
            plant_name: Some("Roof".into()),
            plant_timezone: Some("Europe/Madrid".into()),
        };
        let members = [
            member(10, "INV1", Some(60_000)),
            member(11, "INV2", None),
            EventListRow {
                occurrence_id: 12,
                ..member(12, "OTHER", None)
            },
        ];
        let o = OccurrenceRow {
            id: 10,
            plant_id: Some(1),
            code: "F35".into(),
            severity: "warning".into(),
            opened_at: 0,
            closed_at: None,
            devices: 2,
            open_devices: 1,
            device_sn: Some("INV1".into()),
            family: Some("inverter".into()),
            type_code: Some(94),
            device_alias: None,
            plant_name: Some("Roof".into()),
            plant_timezone: Some("Europe/Madrid".into()),
        };
        let v = occurrence_item(&o, &members, Lang::Es);
        assert_eq!(v["status"], "open");
        assert_eq!(
            (v["deviceCount"].as_i64(), v["openCount"].as_i64()),
            (Some(2), Some(1))
        );
        let sns: Vec<_> = v["devices"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|d| d["sn"].clone())
            .collect();
        assert_eq!(sns, vec![json!("INV1"), json!("INV2")]);
        assert_eq!(v["devices"][0]["status"], "closed");
        assert_eq!(v["devices"][0]["recoverTime"], "1970-01-01 01:01:00");
        assert_eq!(v["meaning"], "Sin red de CA");
    }
}
