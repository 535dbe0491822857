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

use chrono::{NaiveDate, NaiveTime};
use devices::events::EventSeverity;
use domain::{Code, DeviceFamily, Lang};
use serde::Serialize;
use store::{
    devices::DeviceListRow,
    messages::{EventFacts, EventListRow},
    occurrences::OccurrenceRow,
};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{AppState, envelope::ApiResult, plants::update_at, readings, session::CurrentUser};

/// Largest page an event list answers.
pub(crate) const MAX_PAGE: i64 = 200;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list::events))
        .routes(routes!(list::one_hour))
        .routes(routes!(list::detail))
        .routes(routes!(list::device_events))
        .routes(routes!(list::device_realtime))
        .routes(routes!(list::battery_events))
        .routes(routes!(counts::plant_events))
        .routes(routes!(counts::plant_count))
        .routes(routes!(counts::inverter_count))
        .routes(routes!(counts::overview_count))
        .routes(routes!(counts::user_count))
        .routes(routes!(workdata::inverter_events))
        .routes(routes!(workdata::battery_events))
        .routes(routes!(workdata::dynamic))
        .routes(routes!(workdata::inverter_events_download))
        .routes(routes!(workdata::battery_events_download))
        .routes(routes!(workdata::dynamic_download))
}

pub(crate) use service::event_catalogue::definition;

/// The wire level of a stored severity: 1 notice, 2 warning, 3 fault.
pub(crate) fn level(severity: &str) -> i64 {
    EventSeverity::from_key(severity).level()
}

/// Open while any device is in it, closed once recovered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum OpenState {
    Open,
    Closed,
}

impl OpenState {
    fn of(closed_at: Option<i64>) -> Self {
        if closed_at.is_none() {
            OpenState::Open
        } else {
            OpenState::Closed
        }
    }
}

/// How serious an event is: `info` a notice (needs nobody), `warning`, `fault`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Fault,
}

impl Severity {
    pub(crate) fn of(stored: &str) -> Self {
        match EventSeverity::from_key(stored) {
            EventSeverity::Info => Severity::Info,
            EventSeverity::Warning => Severity::Warning,
            EventSeverity::Fault => Severity::Fault,
        }
    }
}

/// The fields an event and an occurrence share.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventCommon {
    pub code: String,
    pub severity: Severity,
    /// 1 notice, 2 warning, 3 fault.
    pub level: i64,
    pub status: OpenState,
    /// In the plant's zone, `YYYY-MM-DD HH:MM:SS`.
    pub occur_time: String,
    /// In the plant's zone; null while open.
    pub recover_time: Option<String>,
    /// UTC, `YYYY-MM-DDTHH:MM:SSZ`.
    pub update_at: String,
    /// In the caller's language; null for a code the catalogue does not know.
    pub meaning: Option<String>,
    pub solution: Option<String>,
    /// The plant's zone.
    pub timezone: Option<String>,
}

impl EventCommon {
    /// What an event and an occurrence share, from the stored facts. Times: `occurTime` and
    /// `recoverTime` in the plant's zone, `updateAt` in UTC; meaning and solution in the
    /// caller's language.
    fn of(f: &EventFacts, lang: Lang) -> Self {
        let tz = readings::zone(f.plant_timezone.as_deref().unwrap_or("UTC"));
        let def = definition(f.family, &f.code);
        EventCommon {
            code: f.code.clone(),
            severity: Severity::of(&f.severity),
            level: level(&f.severity),
            status: OpenState::of(f.closed_at),
            occur_time: readings::local_time(f.opened_at, tz),
            recover_time: f.closed_at.map(|t| readings::local_time(t, tz)),
            update_at: update_at(f.closed_at.unwrap_or(f.opened_at)),
            meaning: def.map(|d| d.meaning(lang).to_string()),
            solution: def.map(|d| d.solution(lang).to_string()),
            timezone: f.plant_timezone.clone(),
        }
    }
}

/// One device's event.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventItem {
    #[serde(flatten)]
    pub common: EventCommon,
    pub id: i64,
    pub occurrence_id: i64,
    pub sn: Option<String>,
    pub alias: Option<String>,
    /// The device family; null when the device was deleted since.
    #[schema(value_type = Option<crate::openapi::DeviceFamilySchema>)]
    pub device_type: Option<DeviceFamily>,
    /// The device's type code.
    #[serde(rename = "type")]
    pub kind: Option<i64>,
    pub plant_id: Option<i64>,
    pub plant_name: Option<String>,
}

/// One device's event, as the lists of one device and the operation data answer it.
pub(crate) fn item(e: &EventListRow, lang: Lang) -> EventItem {
    let f = &e.facts;
    EventItem {
        common: EventCommon::of(f, lang),
        id: e.id.0,
        occurrence_id: e.occurrence_id.0,
        sn: f.device_sn.clone(),
        alias: f.device_alias.clone(),
        device_type: f.family,
        kind: f.type_code,
        plant_id: f.plant_id.map(|v| v.0),
        plant_name: f.plant_name.clone(),
    }
}

/// One device of an occurrence, with its own times and status.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OccurrenceDevice {
    /// Its event's id.
    pub id: i64,
    pub sn: Option<String>,
    pub alias: Option<String>,
    /// The device family; null when the device was deleted since.
    #[schema(value_type = Option<crate::openapi::DeviceFamilySchema>)]
    pub device_type: Option<DeviceFamily>,
    #[serde(rename = "type")]
    pub kind: Option<i64>,
    pub status: OpenState,
    pub occur_time: String,
    pub recover_time: Option<String>,
}

/// One device of an occurrence.
fn device(e: &EventListRow, tz: chrono_tz::Tz) -> OccurrenceDevice {
    let f = &e.facts;
    OccurrenceDevice {
        id: e.id.0,
        sn: f.device_sn.clone(),
        alias: f.device_alias.clone(),
        device_type: f.family,
        kind: f.type_code,
        status: OpenState::of(f.closed_at),
        occur_time: readings::local_time(f.opened_at, tz),
        recover_time: f.closed_at.map(|t| readings::local_time(t, tz)),
    }
}

/// One occurrence: the same event on one or more devices of a plant at the same time.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OccurrenceItem {
    #[serde(flatten)]
    pub common: EventCommon,
    /// The occurrence's id (its first event's).
    pub id: i64,
    pub occurrence_id: i64,
    /// Its first device's.
    pub sn: Option<String>,
    pub alias: Option<String>,
    /// The device family; null when the device was deleted since.
    #[schema(value_type = Option<crate::openapi::DeviceFamilySchema>)]
    pub device_type: Option<DeviceFamily>,
    #[serde(rename = "type")]
    pub kind: Option<i64>,
    pub plant_id: Option<i64>,
    pub plant_name: Option<String>,
    pub device_count: i64,
    /// Devices still in it.
    pub open_count: i64,
    pub devices: Vec<OccurrenceDevice>,
}

/// One occurrence: the fields of an event (its first device's `sn`, `alias`, `deviceType`,
/// `type`), open while any device is in it, recovered when the last one recovered, with
/// `deviceCount`, `openCount` and `devices` (each with its own times and status).
pub(crate) fn occurrence_item(
    o: &OccurrenceRow,
    members: &[EventListRow],
    lang: Lang,
) -> OccurrenceItem {
    let f = &o.facts;
    let tz = readings::zone(f.plant_timezone.as_deref().unwrap_or("UTC"));
    OccurrenceItem {
        common: EventCommon::of(f, lang),
        id: o.id.0,
        occurrence_id: o.id.0,
        sn: f.device_sn.clone(),
        alias: f.device_alias.clone(),
        device_type: f.family,
        kind: f.type_code,
        plant_id: f.plant_id.map(|v| v.0),
        plant_name: f.plant_name.clone(),
        device_count: o.devices,
        open_count: o.open_devices,
        devices: members
            .iter()
            .filter(|e| e.occurrence_id == o.id)
            .map(|e| device(e, tz))
            .collect(),
    }
}

/// Occurrences with their devices, as list items.
pub(crate) async fn occurrence_items(
    app: &AppState,
    rows: &[OccurrenceRow],
    lang: Lang,
) -> ApiResult<Vec<OccurrenceItem>> {
    let ids: Vec<_> = rows.iter().map(|o| o.id).collect();
    let members = app.store.occurrence_events(&ids).await?;
    Ok(rows
        .iter()
        .map(|o| occurrence_item(o, &members, lang))
        .collect())
}

/// Refuses callers without `event.view` (code 2): the events screen's route key.
pub(crate) fn require_view(me: &CurrentUser) -> ApiResult<()> {
    Ok(me.actor.require(domain::permissions::EVENT_VIEW)?)
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
    use domain::ids::{DeviceId, EventId, PlantId};
    use serde_json::json;

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
            id: EventId(1),
            occurrence_id: EventId(1),
            device_id: DeviceId(1),
            facts: EventFacts {
                plant_id: None,
                code: "F01".into(),
                severity: "fault".into(),
                opened_at: 0,
                closed_at: None,
                device_sn: None,
                family: Some(DeviceFamily::Inverter),
                type_code: None,
                device_alias: None,
                plant_name: None,
                plant_timezone: None,
            },
        };
        let v = serde_json::to_value(item(&e, Lang::En)).unwrap();
        assert!(v["meaning"].as_str().is_some_and(|m| !m.is_empty()));
        assert_eq!(v["status"], "open");
        assert_eq!(v["occurTime"], "1970-01-01 00:00:00");
        assert_eq!(v["level"], 3);
        let notice = EventListRow {
            facts: EventFacts {
                code: "F13".into(),
                severity: "info".into(),
                ..e.facts.clone()
            },
            ..e.clone()
        };
        assert_eq!(item(&notice, Lang::En).common.level, 1);
    }

    #[test]
    fn an_occurrence_lists_its_devices_and_stays_open_while_one_is() {
        let facts = |sn: &str, closed: Option<i64>| EventFacts {
            plant_id: Some(PlantId(1)),
            code: "F35".into(),
            severity: "warning".into(),
            opened_at: 0,
            closed_at: closed,
            device_sn: Some(sn.into()),
            family: Some(DeviceFamily::Inverter),
            type_code: Some(94),
            device_alias: None,
            plant_name: Some("Roof".into()),
            plant_timezone: Some("Europe/Madrid".into()),
        };
        let member = |id: i64, sn: &str, closed: Option<i64>| EventListRow {
            id: EventId(id),
            occurrence_id: EventId(10),
            device_id: DeviceId(id),
            facts: facts(sn, closed),
        };
        let members = [
            member(10, "INV1", Some(60_000)),
            member(11, "INV2", None),
            EventListRow {
                occurrence_id: EventId(12),
                ..member(12, "OTHER", None)
            },
        ];
        let o = OccurrenceRow {
            id: EventId(10),
            devices: 2,
            open_devices: 1,
            facts: facts("INV1", None),
        };
        let v = serde_json::to_value(occurrence_item(&o, &members, Lang::Es)).unwrap();
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
