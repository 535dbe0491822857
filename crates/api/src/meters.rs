//! Meters (SPEC section 7 "Events, meters, batteries"): list, status counts, realtime per
//! phase, day curve, month/year/total energy from the daily rollups, alias, delete and the
//! plant's master meter. The first half holds what every device screen of this kind shares
//! (weather stations and batteries use it too): lookup by SN with the visibility rule of
//! `store::devices`, the common list item, paging, alias, delete and the write check.

use axum::{
    Router,
    extract::{Path, State},
    routing::{get, post},
};
use chrono_tz::Tz;
use domain::{Code, DomainError, policy::PlantAccess};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use store::{
    devices::{DeviceFilter, DeviceListRow, StatusCounts},
    plants::PlantRow,
    telemetry::{Bucket, DayRange, SampleRow},
};
use utoipa::{IntoParams, ToSchema};

use crate::{
    AppState,
    envelope::{ApiResult, Data, Done},
    extract::{Body, Query, num},
    now_ms,
    plants::update_at,
    readings::{
        self, Column, DAY_SAMPLES, Reading, day_bounds, day_param, month_param, opt_text, round2,
        sample_series, year_param, zone,
    },
    session::CurrentUser,
    users::create_at,
};

const MAX_PAGE: i64 = 100;
/// Device names (SPEC section 5: at most 32 bytes).
pub(crate) const ALIAS_MAX: usize = 32;
/// Meters and weather stations have no keys of their own in the catalogue: reading them is
/// part of the equipment menu, and changing them is editing the plant they belong to.
pub(crate) const VIEW_KEY: &str = "equip.view";
pub(crate) const EDIT_KEY: &str = "station.edit";
const FAMILY: &str = "meter";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/meters", get(list))
        .route("/api/v1/meter/status/count", get(count))
        .route("/api/v1/meter/{sn}/realtime", get(realtime))
        .route("/api/v1/meter/{sn}/day", get(day))
        .route("/api/v1/meter/{sn}/month", get(month))
        .route("/api/v1/meter/{sn}/year", get(year))
        .route("/api/v1/meter/{sn}/total", get(total))
        .route("/api/v1/meter/{sn}/alias", post(alias))
        .route("/api/v1/meter/{sn}/delete", post(delete))
        .route("/api/v1/meter/{sn}/master", post(master))
}

// ---- shared by the device screens -------------------------------------------------------

/// `page`, `limit` and the filters of a device list; `-1` and empty values mean "any".
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct DeviceListQuery {
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub page: Option<i64>,
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub limit: Option<i64>,
    /// Device status (0 offline, 1 normal, 2 warning, 3 fault, 4 upgrading); -1 any.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub status: Option<i64>,
    /// Part of the SN, any case.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub sn: Option<String>,
    /// Only the devices of this plant.
    #[serde(default, alias = "stationId", deserialize_with = "num::opt_i64")]
    pub plant_id: Option<i64>,
    /// Only the devices behind this gateway.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub gsn: Option<String>,
}

fn given(s: &Option<String>) -> Option<String> {
    s.as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "-1")
        .map(String::from)
}

impl DeviceListQuery {
    /// `(limit, page)`: 10 per page by default, at most 100, pages from 1.
    pub(crate) fn paging(&self) -> (i64, i64) {
        (
            self.limit.unwrap_or(10).clamp(1, MAX_PAGE),
            self.page.unwrap_or(1).max(1),
        )
    }

    pub(crate) fn status(&self) -> Option<i64> {
        self.status.filter(|s| *s >= 0)
    }

    pub(crate) fn sn(&self) -> Option<String> {
        given(&self.sn)
    }

    pub(crate) fn filter(&self, family: &str) -> DeviceFilter {
        let (limit, page) = self.paging();
        DeviceFilter {
            family: Some(family.into()),
            status: self.status(),
            sn: self.sn(),
            plant: self.plant_id.filter(|p| *p > 0),
            gateway_sn: given(&self.gsn),
            limit,
            offset: (page - 1) * limit,
            ..DeviceFilter::default()
        }
    }
}

/// A device of `family` named by its SN (or, when no device has that SN, its numeric id), if
/// the caller may see it; 600 otherwise, exactly like a missing one.
pub(crate) async fn device(
    app: &AppState,
    me: &CurrentUser,
    raw: &str,
    family: &str,
) -> ApiResult<DeviceListRow> {
    let raw = raw.trim();
    let visibility = me.actor.plant_visibility();
    let mut found = app.store.device_visible(visibility, me.id(), raw).await?;
    if found.is_none()
        && let Ok(id) = raw.parse::<i64>()
        && let Some(sn) = app.store.device_sn(id).await?
    {
        found = app.store.device_visible(visibility, me.id(), &sn).await?;
    }
    found
        .filter(|d| d.family == family)
        .ok_or_else(|| Code::InverterMissing.into())
}

/// The device's plant as the caller sees it.
pub(crate) async fn plant_of(
    app: &AppState,
    me: &CurrentUser,
    d: &DeviceListRow,
) -> ApiResult<Option<PlantRow>> {
    Ok(match d.plant_id {
        Some(id) => app.store.plant(id, me.id()).await?,
        None => None,
    })
}

/// The time zone series of this device are drawn in: its plant's, UTC when it has none.
pub(crate) async fn zone_of(app: &AppState, me: &CurrentUser, d: &DeviceListRow) -> ApiResult<Tz> {
    Ok(plant_of(app, me, d)
        .await?
        .map_or(Tz::UTC, |p| zone(&p.timezone)))
}

/// Changing a device needs a writable account, the role key `key`, and a plant the caller
/// owns or manages for their company: people the plant is only shared with may look, not
/// change (code 2).
pub(crate) async fn require_device_write(
    app: &AppState,
    me: &CurrentUser,
    d: &DeviceListRow,
    key: &str,
) -> ApiResult<()> {
    me.actor.require_writable()?;
    me.actor.require(key)?;
    if let Some(plant) = plant_of(app, me, d).await? {
        match me.actor.plant_access(&plant.scope()) {
            Some(PlantAccess::Owner | PlantAccess::Internal | PlantAccess::Company) => {}
            _ => return Err(Code::NoPermission.into()),
        }
    }
    Ok(())
}

/// Whether [`require_device_write`] would let the caller change the device (screens hide the
/// buttons otherwise).
pub(crate) async fn may_write(
    app: &AppState,
    me: &CurrentUser,
    d: &DeviceListRow,
    key: &str,
) -> ApiResult<bool> {
    match require_device_write(app, me, d, key).await {
        Ok(()) => Ok(true),
        Err(crate::envelope::ApiError::Domain(_)) => Ok(false),
        Err(e) => Err(e),
    }
}

fn versions(raw: &str) -> Value {
    serde_json::from_str::<Map<String, Value>>(raw).map_or_else(|_| json!({}), Value::Object)
}

/// The fields every device list item and detail carries.
pub(crate) fn base_item(d: &DeviceListRow) -> Map<String, Value> {
    let seen = d.last_seen.unwrap_or(d.updated_at).max(d.updated_at);
    let plant = match (d.plant_id, &d.plant_name) {
        (Some(id), Some(name)) => json!({"id": id, "name": name, "type": d.plant_type}),
        _ => Value::Null,
    };
    let gateway = match &d.gateway_sn {
        Some(gsn) => json!({"gsn": gsn, "status": i64::from(d.gateway_online.unwrap_or(false))}),
        None => Value::Null,
    };
    let body = json!({
        "id": d.id, "sn": d.sn, "alias": d.alias,
        "devName": if d.alias.is_empty() { &d.sn } else { &d.alias },
        "status": d.status, "online": d.online, "type": d.type_code, "model": d.model,
        "protocol": d.protocol, "parentSn": d.parent_sn, "versions": versions(&d.versions),
        "plantId": d.plant_id, "plantName": d.plant_name, "plant": plant,
        "gsn": d.gateway_sn, "gatewayVO": gateway,
        "updateAt": update_at(seen), "createAt": create_at(d.created_at),
    });
    match body {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// A page of devices of `family`; `extra` adds each item's own fields from its latest values.
pub(crate) async fn list_page(
    app: &AppState,
    me: &CurrentUser,
    q: &DeviceListQuery,
    family: &str,
    extra: impl Fn(&DeviceListRow, Option<&Reading>, &mut Map<String, Value>),
) -> ApiResult<Value> {
    let (limit, page) = q.paging();
    let (rows, total) = app
        .store
        .devices_visible(me.actor.plant_visibility(), me.id(), &q.filter(family))
        .await?;
    let mut infos = Vec::with_capacity(rows.len());
    for d in &rows {
        let latest = readings::latest(&app, d.id).await?;
        let mut item = base_item(d);
        extra(d, latest.as_ref(), &mut item);
        infos.push(Value::Object(item));
    }
    Ok(json!({"pageSize": limit, "pageNumber": page, "total": total, "infos": infos}))
}

pub(crate) fn counts_json(c: &StatusCounts) -> Value {
    json!({
        "total": c.total, "normal": c.normal, "offline": c.offline, "warning": c.warning,
        "fault": c.fault, "upgrading": c.upgrading,
    })
}

/// `{alias}` as JSON or a form; the query's `alias` is read too.
#[derive(Debug, Default, Deserialize, ToSchema, IntoParams)]
pub struct AliasBody {
    #[serde(default, alias = "name", deserialize_with = "num::opt_text")]
    pub alias: Option<String>,
}

/// A device name: trimmed, at most 32 bytes; empty clears it (the SN shows instead).
pub(crate) fn parse_alias(raw: Option<&str>) -> Result<String, DomainError> {
    let alias = raw.ok_or_else(|| DomainError::invalid("alias"))?.trim();
    if alias.len() > ALIAS_MAX || alias.chars().any(char::is_control) {
        return Err(DomainError::invalid("alias"));
    }
    Ok(alias.to_string())
}

pub(crate) async fn rename(
    app: &AppState,
    me: &CurrentUser,
    sn: &str,
    family: &str,
    alias: Option<&str>,
) -> ApiResult<Done> {
    let d = device(app, me, sn, family).await?;
    require_device_write(app, me, &d, EDIT_KEY).await?;
    let alias = parse_alias(alias)?;
    app.store.set_device_alias(d.id, &alias, now_ms()).await?;
    Ok(Done)
}

pub(crate) async fn remove(
    app: &AppState,
    me: &CurrentUser,
    sn: &str,
    family: &str,
) -> ApiResult<Done> {
    let d = device(app, me, sn, family).await?;
    require_device_write(app, me, &d, EDIT_KEY).await?;
    app.store.delete_device(d.id).await?;
    Ok(Done)
}

/// `date=YYYY-MM-DD` (today in the plant's zone by default).
#[derive(Debug, Default, Deserialize, IntoParams)]
pub struct DateQuery {
    #[serde(default, deserialize_with = "num::opt_text")]
    pub date: Option<String>,
}

/// The day curve of a device: its samples of the plant-local day, one series per
/// `(label, unit, key)` column.
pub(crate) async fn day_curve(
    app: &AppState,
    me: &CurrentUser,
    d: &DeviceListRow,
    date: Option<&str>,
    columns: &[(&str, &'static str, &str)],
) -> ApiResult<Value> {
    let tz = zone_of(app, me, d).await?;
    let (from, to) = day_bounds(tz, day_param(date, tz));
    let samples = app.store.samples(d.id, from, to, DAY_SAMPLES).await?;
    Ok(json!({"infos": key_series(&samples, columns, tz)}))
}

fn key_series(samples: &[SampleRow], columns: &[(&str, &'static str, &str)], tz: Tz) -> Value {
    let reads: Vec<_> = columns
        .iter()
        .map(|(_, _, key)| move |r: &Reading| r.num(key))
        .collect();
    let columns: Vec<Column<'_>> = columns
        .iter()
        .zip(&reads)
        .map(|((label, unit, _), read)| Column { label, unit, read })
        .collect();
    json!(sample_series(samples, &columns, tz))
}

/// A number for numeric fields (2 decimals), `null` when missing.
pub(crate) fn opt_num(v: Option<f64>) -> Value {
    v.map_or(Value::Null, |v| json!(round2(v)))
}

// ---- meters -----------------------------------------------------------------------------

const ENERGY: [(&str, &str); 2] = [("grid_import", "import"), ("grid_export", "export")];

fn meter_item(_: &DeviceListRow, r: Option<&Reading>, item: &mut Map<String, Value>) {
    let num = |k: &str| r.and_then(|r| r.num(k));
    item.insert("power".into(), opt_num(num("power")));
    item.insert("voltage".into(), opt_text(num("voltage_l1")));
    item.insert("frequency".into(), opt_num(num("frequency")));
    item.insert("totalImport".into(), opt_text(num("import_energy")));
    item.insert("totalExport".into(), opt_text(num("export_energy")));
}

/// The meters the caller may see, paged, with their latest power and counters.
#[utoipa::path(get, path = "/api/v1/meters", tag = "meters", params(DeviceListQuery), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {pageSize, pageNumber, total, infos:[{id, sn, alias, devName, status, online, type, model, protocol, parentSn, versions, plantId, plantName, plant, gsn, gatewayVO, updateAt, createAt, master (bool), power (W, number), voltage, frequency, totalImport, totalExport (numeric strings)}]}; 2")))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<DeviceListQuery>,
) -> ApiResult<Data<Value>> {
    me.actor.require(VIEW_KEY)?;
    let mut page = list_page(&app, &me, &q, FAMILY, meter_item).await?;
    if let Some(infos) = page["infos"].as_array_mut() {
        for item in infos {
            let id = item["id"].as_i64().unwrap_or_default();
            item["master"] = Value::Bool(app.store.is_master_meter(id).await?);
        }
    }
    Ok(Data(page))
}

/// How many meters the caller may see, per status.
#[utoipa::path(get, path = "/api/v1/meter/status/count", tag = "meters", security(("bearer" = [])),
    params(("plantId" = Option<i64>, Query, description = "only this plant's meters")),
    responses((status = 200, description = "Envelope with {total, normal, offline, warning, fault, upgrading} (integers); 2")))]
pub async fn count(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<DeviceListQuery>,
) -> ApiResult<Data<Value>> {
    me.actor.require(VIEW_KEY)?;
    let c = app
        .store
        .device_counts(
            me.actor.plant_visibility(),
            me.id(),
            Some(FAMILY),
            q.plant_id.filter(|p| *p > 0),
        )
        .await?;
    Ok(Data(counts_json(&c)))
}

/// The latest values of a meter: per-phase voltage, current and power, totals, counters and
/// today's energy from the rollups.
#[utoipa::path(get, path = "/api/v1/meter/{sn}/realtime", tag = "meters", params(("sn" = String, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with the list item's fields (alias, plant, gsn...) plus {sn, status, master, vip:[{volt, current (numeric strings), power (number)}], power, pf, fac (numbers), totalImport, totalExport, etodayImport, etodayExport (numeric strings), editable (bool: alias, master and delete allowed), time, updateAt}; 600")))]
pub async fn realtime(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<Value>> {
    me.actor.require(VIEW_KEY)?;
    let d = device(&app, &me, &sn, FAMILY).await?;
    let tz = zone_of(&app, &me, &d).await?;
    let r = readings::latest(&app, d.id)
        .await?
        .unwrap_or_default();
    let today = app
        .store
        .device_energy(d.id, &DayRange::day(&readings::today(tz).to_string()))
        .await?;
    let energy = |m: &str| today.iter().find(|e| e.metric == m).map(|e| e.kwh);
    let vip: Vec<Value> = (1..=3)
        .filter(|l| r.num(&format!("voltage_l{l}")).is_some())
        .map(|l| {
            json!({
                "volt": opt_text(r.num(&format!("voltage_l{l}"))),
                "current": opt_text(r.num(&format!("current_l{l}"))),
                "power": opt_num(r.num(&format!("power_l{l}"))),
            })
        })
        .collect();
    let mut body = base_item(&d);
    let values = json!({
        "sn": d.sn, "status": d.status, "master": app.store.is_master_meter(d.id).await?,
        "editable": may_write(&app, &me, &d, EDIT_KEY).await?,
        "vip": vip, "power": opt_num(r.num("power")), "pf": opt_num(r.num("power_factor")),
        "fac": opt_num(r.num("frequency")),
        "totalImport": opt_text(r.num("import_energy")),
        "totalExport": opt_text(r.num("export_energy")),
        "etodayImport": opt_text(Some(energy("grid_import").unwrap_or(0.0))),
        "etodayExport": opt_text(Some(energy("grid_export").unwrap_or(0.0))),
        "time": (r.ts > 0).then(|| readings::local_time(r.ts, tz)),
        "updateAt": update_at(d.last_seen.unwrap_or(d.updated_at)),
    });
    if let Value::Object(values) = values {
        body.extend(values);
    }
    Ok(Data(Value::Object(body)))
}

/// A meter's power over a plant-local day: total and per phase, in W.
#[utoipa::path(get, path = "/api/v1/meter/{sn}/day", tag = "meters", params(("sn" = String, Path), DateQuery), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {infos:[{unit, label (power, powerL1..L3), id, groupCode, name, records:[{time, value (string), updateTime}]}]}; 600")))]
pub async fn day(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<Value>> {
    me.actor.require(VIEW_KEY)?;
    let d = device(&app, &me, &sn, FAMILY).await?;
    let columns = [
        ("power", "W", "power"),
        ("powerL1", "W", "power_l1"),
        ("powerL2", "W", "power_l2"),
        ("powerL3", "W", "power_l3"),
    ];
    Ok(Data(
        day_curve(&app, &me, &d, q.date.as_deref(), &columns).await?,
    ))
}

/// Energy bars of a device from its daily rollups (never from raw samples).
pub(crate) async fn energy_bars(
    app: &AppState,
    d: &DeviceListRow,
    days: DayRange,
    bucket: Bucket,
    metrics: &[(&str, &str)],
) -> ApiResult<Value> {
    let points = app.store.device_energy_series(d.id, &days, bucket).await?;
    Ok(json!({"infos": readings::energy_series(&points, metrics)}))
}

/// Import and export per day of a month (`date=YYYY-MM`), in kWh.
#[utoipa::path(get, path = "/api/v1/meter/{sn}/month", tag = "meters", params(("sn" = String, Path), DateQuery), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {infos:[{unit kWh, label import|export, records:[{time YYYY-MM-DD, value}]}]}; 600")))]
pub async fn month(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<Value>> {
    me.actor.require(VIEW_KEY)?;
    let d = device(&app, &me, &sn, FAMILY).await?;
    let (y, m) = month_param(q.date.as_deref(), zone_of(&app, &me, &d).await?);
    Ok(Data(
        energy_bars(&app, &d, DayRange::month(y, m), Bucket::Day, &ENERGY).await?,
    ))
}

/// Import and export per month of a year (`date=YYYY`), in kWh.
#[utoipa::path(get, path = "/api/v1/meter/{sn}/year", tag = "meters", params(("sn" = String, Path), DateQuery), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {infos:[{unit kWh, label import|export, records:[{time YYYY-MM, value}]}]}; 600")))]
pub async fn year(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<Value>> {
    me.actor.require(VIEW_KEY)?;
    let d = device(&app, &me, &sn, FAMILY).await?;
    let y = year_param(q.date.as_deref(), zone_of(&app, &me, &d).await?);
    Ok(Data(
        energy_bars(&app, &d, DayRange::year(y), Bucket::Month, &ENERGY).await?,
    ))
}

/// Import and export per year, in kWh.
#[utoipa::path(get, path = "/api/v1/meter/{sn}/total", tag = "meters", params(("sn" = String, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {infos:[{unit kWh, label import|export, records:[{time YYYY, value}]}]}; 600")))]
pub async fn total(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<Value>> {
    me.actor.require(VIEW_KEY)?;
    let d = device(&app, &me, &sn, FAMILY).await?;
    Ok(Data(
        energy_bars(&app, &d, DayRange::total(), Bucket::Year, &ENERGY).await?,
    ))
}

/// Renames a meter (`station.edit` on its plant; empty restores the SN).
#[utoipa::path(post, path = "/api/v1/meter/{sn}/alias", tag = "meters", params(("sn" = String, Path), AliasBody), security(("bearer" = [])),
    request_body = AliasBody, responses((status = 200, description = "Envelope; 2, 4 alias, 600")))]
pub async fn alias(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<AliasBody>,
    Body(b): Body<AliasBody>,
) -> ApiResult<Done> {
    let raw = b.alias.or(q.alias);
    rename(&app, &me, &sn, FAMILY, raw.as_deref()).await
}

/// Removes a meter from the registry (`station.edit` on its plant); its history stays.
#[utoipa::path(post, path = "/api/v1/meter/{sn}/delete", tag = "meters", params(("sn" = String, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Envelope; 2, 600")))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Done> {
    remove(&app, &me, &sn, FAMILY).await
}

/// `master` true (the default) or false.
#[derive(Debug, Default, Deserialize, ToSchema, IntoParams)]
pub struct MasterBody {
    #[serde(default, alias = "isMaster", deserialize_with = "num::opt_bool")]
    pub master: Option<bool>,
}

/// Makes the meter its plant's master meter (the others of the plant stop being master), or
/// with `master=false` clears it. A meter on no plant answers 4 `plant`.
#[utoipa::path(post, path = "/api/v1/meter/{sn}/master", tag = "meters", params(("sn" = String, Path), MasterBody), security(("bearer" = [])),
    request_body = MasterBody, responses((status = 200, description = "Envelope; 2, 4 plant, 600")))]
pub async fn master(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<MasterBody>,
    Body(b): Body<MasterBody>,
) -> ApiResult<Done> {
    let d = device(&app, &me, &sn, FAMILY).await?;
    require_device_write(&app, &me, &d, EDIT_KEY).await?;
    let plant = d.plant_id.ok_or_else(|| DomainError::invalid("plant"))?;
    let on = b.master.or(q.master).unwrap_or(true);
    app.store.set_master_meter(plant, d.id, on).await?;
    Ok(Done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_are_at_most_32_bytes_and_may_be_cleared() {
        assert_eq!(
            parse_alias(Some("  Grid meter ")).as_deref(),
            Ok("Grid meter")
        );
        assert_eq!(parse_alias(Some("")).as_deref(), Ok(""));
        assert!(parse_alias(Some(&"é".repeat(17))).is_err(), "34 bytes");
        assert!(parse_alias(Some("a\nb")).is_err());
        assert_eq!(
            parse_alias(None).unwrap_err().detail.as_deref(),
            Some("alias")
        );
    }

    #[test]
    fn list_filters_read_minus_one_and_empty_as_any() {
        let q = DeviceListQuery {
            page: Some(3),
            limit: Some(500),
            status: Some(-1),
            sn: Some(" -1 ".into()),
            plant_id: Some(0),
            gsn: Some("GW1".into()),
        };
        let f = q.filter("meter");
        assert_eq!((f.limit, f.offset), (100, 200));
        assert_eq!((f.status, f.sn, f.plant), (None, None, None));
        assert_eq!(f.gateway_sn.as_deref(), Some("GW1"));
        assert_eq!(f.family.as_deref(), Some("meter"));
    }
}
