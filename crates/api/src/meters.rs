//! Meters (docs/api.md, "Batteries, meters and weather stations"): list, status counts,
//! realtime per phase, day curve, month/year/total energy from the daily rollups, alias, delete
//! and the plant's master meter. What weather stations and batteries share with them is in
//! [`crate::device_common`].

use axum::{
    Router,
    extract::{Path, State},
    routing::{get, post},
};
use chrono_tz::Tz;
use domain::DomainError;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use store::{
    devices::DeviceListRow,
    telemetry::{Bucket, DayRange},
};
use utoipa::{IntoParams, ToSchema};

use crate::{
    AppState,
    device_common::{
        AliasBody, DateQuery, DeviceListQuery, EDIT_KEY, VIEW_KEY, base_item, day_curve, device,
        energy_bars, family_counts, list_page, live_fields_of, may_write, opt_num, remove, rename,
        require_device_write, zone_of,
    },
    envelope::{ApiResult, Data, Done},
    extract::{Body, Query, num},
    plants::update_at,
    readings::{self, Reading, month_param, opt_text, year_param},
    session::CurrentUser,
};

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
    Ok(Data(family_counts(&app, &me, FAMILY, &q).await?))
}

/// The latest values of a meter: per-phase voltage, current and power, totals, counters and
/// today's energy from the rollups.
#[utoipa::path(get, path = "/api/v1/meter/{sn}/realtime", tag = "meters", params(("sn" = String, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with the list item's fields (alias, plant, gsn...) plus {sn, status, master, vip:[{volt, current (numeric strings), power (number)}], power, pf, fac (numbers), totalImport, totalExport, etodayImport, etodayExport (numeric strings), editable (bool: alias, master and delete allowed), time (plant-local), updateAt (UTC), stale (the data is past the offline bound), timezone}; 600")))]
pub async fn realtime(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<Value>> {
    me.actor.require(VIEW_KEY)?;
    let d = device(&app, &me, &sn, FAMILY).await?;
    let tz = zone_of(&app, &me, &d).await?;
    let r = readings::latest(&app, d.id).await?.unwrap_or_default();
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
    live_fields_of(&app, &mut body, &d, (r.ts > 0).then_some(&r), tz).await?;
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
    let columns = [
        ("power", "W", "power"),
        ("powerL1", "W", "power_l1"),
        ("powerL2", "W", "power_l2"),
        ("powerL3", "W", "power_l3"),
    ];
    let date = q.date.as_deref();
    Ok(Data(
        day_curve(&app, &me, &sn, FAMILY, date, &columns).await?,
    ))
}

/// Import and export of a meter per `bucket` over the days `range` picks in the plant's zone.
async fn bars(
    app: &AppState,
    me: &CurrentUser,
    sn: &str,
    bucket: Bucket,
    range: impl FnOnce(Tz) -> DayRange,
) -> ApiResult<Data<Value>> {
    me.actor.require(VIEW_KEY)?;
    let d = device(app, me, sn, FAMILY).await?;
    let days = range(zone_of(app, me, &d).await?);
    Ok(Data(energy_bars(app, &d, days, bucket, &ENERGY).await?))
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
    bars(&app, &me, &sn, Bucket::Day, |tz| {
        let (y, m) = month_param(q.date.as_deref(), tz);
        DayRange::month(y, m)
    })
    .await
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
    bars(&app, &me, &sn, Bucket::Month, |tz| {
        DayRange::year(year_param(q.date.as_deref(), tz))
    })
    .await
}

/// Import and export per year, in kWh.
#[utoipa::path(get, path = "/api/v1/meter/{sn}/total", tag = "meters", params(("sn" = String, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {infos:[{unit kWh, label import|export, records:[{time YYYY, value}]}]}; 600")))]
pub async fn total(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<Value>> {
    bars(&app, &me, &sn, Bucket::Year, |_| DayRange::total()).await
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
