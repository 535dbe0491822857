//! Operation data: inverter and battery events, and a device's dynamic data (its samples over
//! a date range with chosen columns), as pages and as spreadsheet downloads.

use domain::ids::PlantId;
use std::collections::{BTreeMap, BTreeSet};

use axum::{extract::State, response::Response};
use chrono::NaiveDate;
use domain::{Code, DeviceFamily, DomainError, Lang};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use store::messages::EventFacts;
use utoipa::{IntoParams, ToSchema};

use super::{EventItem, definition, item, list::EventQuery, visible_device};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope, current_lang},
    extract::{Query, num},
    paging::Page,
    readings::{self, Reading},
    session::CurrentUser,
    xlsx::{self, Cell, Sheet},
};

const VIEW: [&str; 2] = [
    domain::permissions::WORKDATA_VIEW,
    domain::permissions::EVENT_VIEW,
];
const EXPORT: [&str; 2] = [
    domain::permissions::WORKDATA_EXPORT,
    domain::permissions::EVENT_EXPORT,
];
/// Longest date range of dynamic data, in days.
const MAX_DAYS: i64 = 31;
/// Most samples one dynamic-data request reads (a month at one report a minute).
const MAX_SAMPLES: i64 = 50_000;
/// Most events one download writes.
const MAX_EVENTS: i64 = 50_000;

fn require(me: &CurrentUser, keys: &[&str]) -> ApiResult<()> {
    if keys.iter().any(|k| me.actor.has(k)) {
        Ok(())
    } else {
        Err(Code::NoPermission.into())
    }
}

async fn family_page(
    app: &AppState,
    me: &CurrentUser,
    q: &EventQuery,
    family: DeviceFamily,
) -> ApiResult<Page<EventItem>> {
    let (page, limit) = q.paging(10);
    let mut f = q.filter(page, limit);
    f.family = Some(family);
    let (rows, total) = app
        .store
        .events_visible(me.actor.plant_visibility(), me.id(), &f)
        .await?;
    let lang = current_lang();
    Ok(Page {
        page_size: limit,
        page_number: page,
        total,
        infos: rows.iter().map(|e| item(e, lang)).collect(),
    })
}

/// Inverter events with the list filters, paged.
#[utoipa::path(get, path = "/api/v1/workdata/event", tag = "events", params(EventQuery), security(("bearer" = [])),
    responses((status = 200, description = "A page of inverter events", body = Envelope<Page<EventItem>>)))]
pub async fn inverter_events(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<EventQuery>,
) -> ApiResult<Data<Page<EventItem>>> {
    require(&me, &VIEW)?;
    Ok(Data(
        family_page(&app, &me, &q, DeviceFamily::Inverter).await?,
    ))
}

/// Battery events with the list filters, paged.
#[utoipa::path(get, path = "/api/v1/workdata/battery/event", tag = "events", params(EventQuery), security(("bearer" = [])),
    responses((status = 200, description = "A page of battery events", body = Envelope<Page<EventItem>>)))]
pub async fn battery_events(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<EventQuery>,
) -> ApiResult<Data<Page<EventItem>>> {
    require(&me, &VIEW)?;
    Ok(Data(
        family_page(&app, &me, &q, DeviceFamily::Battery).await?,
    ))
}

fn event_headers(lang: Lang) -> Vec<String> {
    let words: [&str; 11] = match lang {
        Lang::En => [
            "Occurred",
            "Recovered",
            "Plant",
            "SN",
            "Device type",
            "Code",
            "Severity",
            "Status",
            "Meaning",
            "Solution",
            "Time zone",
        ],
        Lang::Zh => [
            "发生时间",
            "恢复时间",
            "电站",
            "序列号",
            "设备类型",
            "代码",
            "级别",
            "状态",
            "含义",
            "处理建议",
            "时区",
        ],
        Lang::Es => [
            "Inicio",
            "Recuperación",
            "Planta",
            "N.º de serie",
            "Tipo de equipo",
            "Código",
            "Gravedad",
            "Estado",
            "Significado",
            "Solución",
            "Zona horaria",
        ],
    };
    words.iter().map(|s| (*s).to_string()).collect()
}

fn event_words(e: &EventFacts, lang: Lang) -> (&'static str, &'static str) {
    let severity = match (e.severity.as_str(), lang) {
        ("fault", Lang::En) => "Fault",
        ("fault", Lang::Zh) => "故障",
        ("fault", Lang::Es) => "Fallo",
        ("info", Lang::En) => "Notice",
        ("info", Lang::Zh) => "提示",
        ("info", Lang::Es) => "Aviso",
        (_, Lang::En) => "Warning",
        (_, Lang::Zh) => "告警",
        (_, Lang::Es) => "Advertencia",
    };
    let status = match (e.closed_at.is_none(), lang) {
        (true, Lang::En) => "Open",
        (true, Lang::Zh) => "未恢复",
        (true, Lang::Es) => "Abierto",
        (false, Lang::En) => "Recovered",
        (false, Lang::Zh) => "已恢复",
        (false, Lang::Es) => "Recuperado",
    };
    (severity, status)
}

async fn events_download(
    app: &AppState,
    me: &CurrentUser,
    q: &EventQuery,
    family: DeviceFamily,
    file: &str,
) -> ApiResult<Response> {
    require(me, &EXPORT)?;
    let lang = current_lang();
    let mut sheet = Sheet::new(family.as_str(), event_headers(lang));
    let batch = 1000;
    let mut page = 1;
    loop {
        let mut f = q.filter(page, batch);
        f.family = Some(family);
        let (rows, total) = app
            .store
            .events_visible(me.actor.plant_visibility(), me.id(), &f)
            .await?;
        for e in rows.iter().map(|r| &r.facts) {
            let tz = readings::zone(e.plant_timezone.as_deref().unwrap_or("UTC"));
            let def = definition(e.family, &e.code);
            let (severity, status) = event_words(e, lang);
            sheet.push(vec![
                readings::local_time(e.opened_at, tz).into(),
                e.closed_at.map(|t| readings::local_time(t, tz)).into(),
                e.plant_name.clone().into(),
                e.device_sn.clone().into(),
                e.family.map(DeviceFamily::as_str).into(),
                e.code.as_str().into(),
                severity.into(),
                status.into(),
                def.map(|d| d.meaning(lang)).into(),
                def.map(|d| d.solution(lang)).into(),
                tz.name().into(),
            ]);
        }
        if rows.is_empty() || page * batch >= total.min(MAX_EVENTS) {
            break;
        }
        page += 1;
    }
    xlsx::download(file, &[sheet])
}

/// `inverter-events.xlsx`: inverter events with the list filters.
#[utoipa::path(get, path = "/api/v1/workdata/event/download", tag = "events", params(EventQuery), security(("bearer" = [])),
    responses((status = 200, description = "An .xlsx attachment; 2 without an export permission", content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", body = Vec<u8>)))]
pub async fn inverter_events_download(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<EventQuery>,
) -> ApiResult<Response> {
    events_download(
        &app,
        &me,
        &q,
        DeviceFamily::Inverter,
        "inverter-events.xlsx",
    )
    .await
}

/// `battery-events.xlsx`: battery events with the list filters.
#[utoipa::path(get, path = "/api/v1/workdata/battery/event/download", tag = "events", params(EventQuery), security(("bearer" = [])),
    responses((status = 200, description = "An .xlsx attachment; 2 without an export permission", content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", body = Vec<u8>)))]
pub async fn battery_events_download(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<EventQuery>,
) -> ApiResult<Response> {
    events_download(&app, &me, &q, DeviceFamily::Battery, "battery-events.xlsx").await
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct DynamicQuery {
    /// The device's SN.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub sn: Option<String>,
    /// First day (`YYYY-MM-DD`, plant time); `date` names a single day.
    #[serde(default, alias = "date", deserialize_with = "num::opt_text")]
    pub sdate: Option<String>,
    /// Last day, inclusive; at most 31 days after `sdate`.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub edate: Option<String>,
    /// Value keys, comma separated; every key the device reported when absent.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub column: Option<String>,
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub page: Option<i64>,
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub limit: Option<i64>,
}

/// A device's samples over the range, and the columns to show.
struct Dynamic {
    columns: Vec<String>,
    readings: Vec<Reading>,
    tz: chrono_tz::Tz,
}

/// Reads what a dynamic-data request names: 600 for a device the caller cannot see, 4 (`sn`,
/// `sdate`, `edate`) for a missing SN or an unreadable or too long range.
async fn dynamic_data(app: &AppState, me: &CurrentUser, q: &DynamicQuery) -> ApiResult<Dynamic> {
    let sn =
        q.sn.as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .ok_or_else(|| DomainError::invalid("sn"))?;
    let device = visible_device(app, me, sn).await?;
    let tz = readings::zone(
        &app.store
            .plant(device.plant_id.unwrap_or(PlantId(0)), me.id())
            .await?
            .map(|p| p.timezone)
            .unwrap_or_default(),
    );
    let parse = |s: Option<&str>, field: &str| -> ApiResult<Option<NaiveDate>> {
        match s.map(str::trim).filter(|s| !s.is_empty()) {
            None => Ok(None),
            Some(s) => NaiveDate::parse_from_str(s.get(..10).unwrap_or(s), "%Y-%m-%d")
                .map(Some)
                .map_err(|_| DomainError::invalid(field).into()),
        }
    };
    let first = parse(q.sdate.as_deref(), "sdate")?.unwrap_or_else(|| readings::today(tz));
    let last = parse(q.edate.as_deref(), "edate")?.unwrap_or(first);
    let days = (last - first).num_days();
    if !(0..MAX_DAYS).contains(&days) {
        return Err(DomainError::invalid("edate").into());
    }
    let (from, _) = readings::day_bounds(tz, first);
    let (_, to) = readings::day_bounds(tz, last);
    let samples = app.store.samples(device.id, from, to, MAX_SAMPLES).await?;
    let readings: Vec<Reading> = samples
        .iter()
        .map(|s| Reading::from_sample(s.ts, &s.payload))
        .collect();
    let asked: Vec<String> = q
        .column
        .as_deref()
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(String::from)
        .collect();
    let columns = if asked.is_empty() {
        // Every key any report carried, in a stable order.
        let keys: BTreeSet<&String> = readings.iter().flat_map(|r| r.values.keys()).collect();
        keys.into_iter().cloned().collect()
    } else {
        asked
    };
    Ok(Dynamic {
        columns,
        readings,
        tz,
    })
}

/// A value as text: numbers as the short numeric strings of series, text as it is.
fn text(r: &Reading, key: &str) -> Option<String> {
    match r.values.get(key)? {
        Value::String(s) => Some(s.clone()),
        Value::Null => None,
        _ => r.num(key).map(readings::num_text),
    }
}

/// A device's samples over a date range, with the chosen columns as strings, paged.
#[utoipa::path(get, path = "/api/v1/workdata/dynamic", tag = "events", params(DynamicQuery), security(("bearer" = [])),
    responses((status = 200, description = "A page of samples; 4, 600", body = Envelope<DynamicPage>)))]
pub async fn dynamic(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<DynamicQuery>,
) -> ApiResult<Data<DynamicPage>> {
    require(&me, &VIEW)?;
    let d = dynamic_data(&app, &me, &q).await?;
    let limit = q.limit.unwrap_or(50).clamp(1, 500);
    let page = q.page.unwrap_or(1).max(1);
    let start = usize::try_from((page - 1) * limit).unwrap_or(usize::MAX);
    let infos: Vec<BTreeMap<String, Option<String>>> = d
        .readings
        .iter()
        .rev()
        .skip(start)
        .take(limit as usize)
        .map(|r| {
            let mut row = BTreeMap::new();
            row.insert("time".into(), Some(readings::local_time(r.ts, d.tz)));
            for c in &d.columns {
                row.insert(c.clone(), text(r, c));
            }
            row
        })
        .collect();
    Ok(Data(DynamicPage {
        page_size: limit,
        page_number: page,
        total: d.readings.len() as i64,
        columns: d.columns,
        infos,
    }))
}

/// A page of a device's samples, newest first.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DynamicPage {
    pub page_size: i64,
    pub page_number: i64,
    pub total: i64,
    /// The value keys shown.
    pub columns: Vec<String>,
    /// One row per sample: `time` (plant-local `YYYY-MM-DD HH:MM:SS`) and each column's value
    /// as a numeric string or null.
    pub infos: Vec<BTreeMap<String, Option<String>>>,
}

/// `dynamic-<sn>.xlsx`: a device's samples over a date range with the chosen columns.
#[utoipa::path(get, path = "/api/v1/workdata/dynamic/download", tag = "events", params(DynamicQuery), security(("bearer" = [])),
    responses((status = 200, description = "An .xlsx attachment; 2, 4, 600", content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", body = Vec<u8>)))]
pub async fn dynamic_download(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<DynamicQuery>,
) -> ApiResult<Response> {
    require(&me, &EXPORT)?;
    let d = dynamic_data(&app, &me, &q).await?;
    let time = match current_lang() {
        Lang::En => "Time",
        Lang::Zh => "时间",
        Lang::Es => "Hora",
    };
    let mut headers = vec![format!("{time} ({})", d.tz.name())];
    headers.extend(d.columns.iter().cloned());
    let mut sheet = Sheet::new("Data", headers);
    for r in &d.readings {
        let mut row: Vec<Cell> = vec![readings::local_time(r.ts, d.tz).into()];
        for c in &d.columns {
            row.push(match r.values.get(c) {
                Some(Value::String(s)) => s.as_str().into(),
                _ => r.num(c).into(),
            });
        }
        sheet.push(row);
    }
    let sn = q.sn.as_deref().unwrap_or_default().trim();
    xlsx::download(&format!("dynamic-{sn}.xlsx"), &[sheet])
}
