//! Meters (docs/api.md, "Batteries, meters and weather stations"): list, status counts,
//! realtime per phase, day curve, month/year/total energy from the daily rollups, alias, delete
//! and the plant's master meter. What weather stations and batteries share with them is in
//! [`crate::device_common`].

use axum::extract::{Path, State};
use chrono_tz::Tz;
use domain::DeviceFamily;
use domain::ids::DeviceId;
use serde::{Deserialize, Serialize};
use store::{
    devices::DeviceListRow,
    telemetry::{Bucket, DayRange},
};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    device_common::{
        AliasBody, DateQuery, DeviceCounts, DeviceItem, DeviceListQuery, EDIT_KEY, Live, VIEW_KEY,
        day_curve, device, energy_bars, family_counts, list_page, live_of, may_write, opt_round,
        remove, rename, zone_of,
    },
    envelope::{Ack, ApiResult, Data, Done, Envelope},
    extract::{Body, Query, num},
    paging::Page,
    plants::update_at,
    readings::{self, Reading, SeriesList, month_param, num_text, opt_string, year_param},
    session::CurrentUser,
};

const FAMILY: DeviceFamily = DeviceFamily::Meter;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(count))
        .routes(routes!(realtime))
        .routes(routes!(day))
        .routes(routes!(month))
        .routes(routes!(year))
        .routes(routes!(total))
        .routes(routes!(alias))
        .routes(routes!(delete))
        .routes(routes!(master))
}

const ENERGY: [(&str, &str); 2] = [("grid_import", "import"), ("grid_export", "export")];

/// A meter of the list: the common device fields, and its latest values.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MeterItem {
    #[serde(flatten)]
    pub device: DeviceItem,
    #[serde(flatten)]
    pub live: Live,
    /// The plant's master meter.
    pub master: bool,
    /// W.
    pub power: Option<f64>,
    /// Phase 1 voltage (V), a numeric string.
    pub voltage: Option<String>,
    /// Hz.
    pub frequency: Option<f64>,
    /// kWh, a numeric string.
    pub total_import: Option<String>,
    /// kWh, a numeric string.
    pub total_export: Option<String>,
}

fn meter_item(_: &DeviceListRow, r: Option<&Reading>, device: DeviceItem, live: Live) -> MeterItem {
    let num = |k: &str| r.and_then(|r| r.num(k));
    MeterItem {
        device,
        live,
        master: false,
        power: opt_round(num("power")),
        voltage: opt_string(num("voltage_l1")),
        frequency: opt_round(num("frequency")),
        total_import: opt_string(num("import_energy")),
        total_export: opt_string(num("export_energy")),
    }
}

/// The meters the caller may see, paged, with their latest power and counters.
#[utoipa::path(get, path = "/api/v1/meters", tag = "meters", params(DeviceListQuery), security(("bearer" = [])),
    responses((status = 200, description = "A page of meters; 2", body = Envelope<Page<MeterItem>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<DeviceListQuery>,
) -> ApiResult<Data<Page<MeterItem>>> {
    me.actor.require(VIEW_KEY)?;
    let mut page = list_page(&app, &me, &q, FAMILY, meter_item).await?;
    for item in &mut page.infos {
        item.master = app.store.is_master_meter(DeviceId(item.device.id)).await?;
    }
    Ok(Data(page))
}

/// How many meters the caller may see, per status.
#[utoipa::path(get, path = "/api/v1/meter/status/count", tag = "meters", security(("bearer" = [])),
    params(("plantId" = Option<i64>, Query, description = "only this plant's meters")),
    responses((status = 200, description = "Meters per status; 2", body = Envelope<DeviceCounts>)))]
pub async fn count(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<DeviceListQuery>,
) -> ApiResult<Data<DeviceCounts>> {
    me.actor.require(VIEW_KEY)?;
    Ok(Data(family_counts(&app, &me, FAMILY, &q).await?))
}

/// The latest values of a meter: per-phase voltage, current and power, totals, counters and
/// today's energy from the rollups.
#[utoipa::path(get, path = "/api/v1/meter/{sn}/realtime", tag = "meters", params(("sn" = String, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The meter and its latest values; 600", body = Envelope<MeterNow>)))]
pub async fn realtime(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<MeterNow>> {
    me.actor.require(VIEW_KEY)?;
    let d = device(&app, &me, &sn, FAMILY).await?;
    let tz = zone_of(&app, &me, &d).await?;
    let r = readings::latest(&app, d.id).await?.unwrap_or_default();
    let today = app
        .store
        .device_energy(d.id, &DayRange::day(&readings::today(tz).to_string()))
        .await?;
    let energy = |m: &str| today.iter().find(|e| e.metric == m).map_or(0.0, |e| e.kwh);
    let vip: Vec<Phase> = (1..=3)
        .filter(|l| r.num(&format!("voltage_l{l}")).is_some())
        .map(|l| Phase {
            volt: opt_string(r.num(&format!("voltage_l{l}"))),
            current: opt_string(r.num(&format!("current_l{l}"))),
            power: opt_round(r.num(&format!("power_l{l}"))),
        })
        .collect();
    let mut device = DeviceItem::of(&d);
    device.update_at = update_at(d.last_seen.unwrap_or(d.updated_at));
    let live = live_of(&d, (r.ts > 0).then_some(&r), tz);
    Ok(Data(MeterNow {
        device,
        live,
        master: app.store.is_master_meter(d.id).await?,
        editable: may_write(&app, &me, &d, EDIT_KEY).await?,
        vip,
        power: opt_round(r.num("power")),
        pf: opt_round(r.num("power_factor")),
        fac: opt_round(r.num("frequency")),
        total_import: opt_string(r.num("import_energy")),
        total_export: opt_string(r.num("export_energy")),
        etoday_import: num_text(energy("grid_import")),
        etoday_export: num_text(energy("grid_export")),
        time: (r.ts > 0).then(|| readings::local_time(r.ts, tz)),
    }))
}

/// One phase of a meter.
#[derive(Debug, Serialize, ToSchema)]
pub struct Phase {
    /// V, a numeric string.
    pub volt: Option<String>,
    /// A, a numeric string.
    pub current: Option<String>,
    /// W.
    pub power: Option<f64>,
}

/// A meter with its latest values.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MeterNow {
    #[serde(flatten)]
    pub device: DeviceItem,
    #[serde(flatten)]
    pub live: Live,
    /// The plant's master meter.
    pub master: bool,
    /// The caller may rename it, make it the master and delete it.
    pub editable: bool,
    /// The phases that report a voltage.
    pub vip: Vec<Phase>,
    /// W.
    pub power: Option<f64>,
    /// Power factor.
    pub pf: Option<f64>,
    /// Hz.
    pub fac: Option<f64>,
    /// kWh, a numeric string.
    pub total_import: Option<String>,
    /// kWh, a numeric string.
    pub total_export: Option<String>,
    /// kWh today (plant-local), a numeric string.
    pub etoday_import: String,
    /// kWh today (plant-local), a numeric string.
    pub etoday_export: String,
    /// The newest report, plant-local `YYYY-MM-DD HH:MM:SS`.
    pub time: Option<String>,
}

/// A meter's power over a plant-local day: total and per phase, in W.
#[utoipa::path(get, path = "/api/v1/meter/{sn}/day", tag = "meters", params(("sn" = String, Path), DateQuery), security(("bearer" = [])),
    responses((status = 200, description = "Series labelled power, powerL1..L3 (W); 600", body = Envelope<SeriesList>)))]
pub async fn day(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<SeriesList>> {
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
) -> ApiResult<Data<SeriesList>> {
    me.actor.require(VIEW_KEY)?;
    let d = device(app, me, sn, FAMILY).await?;
    let days = range(zone_of(app, me, &d).await?);
    Ok(Data(energy_bars(app, &d, days, bucket, &ENERGY).await?))
}

/// Import and export per day of a month (`date=YYYY-MM`), in kWh.
#[utoipa::path(get, path = "/api/v1/meter/{sn}/month", tag = "meters", params(("sn" = String, Path), DateQuery), security(("bearer" = [])),
    responses((status = 200, description = "Series import and export (kWh), records per YYYY-MM-DD; 600", body = Envelope<SeriesList>)))]
pub async fn month(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<SeriesList>> {
    bars(&app, &me, &sn, Bucket::Day, |tz| {
        let (y, m) = month_param(q.date.as_deref(), tz);
        DayRange::month(y, m)
    })
    .await
}

/// Import and export per month of a year (`date=YYYY`), in kWh.
#[utoipa::path(get, path = "/api/v1/meter/{sn}/year", tag = "meters", params(("sn" = String, Path), DateQuery), security(("bearer" = [])),
    responses((status = 200, description = "Series import and export (kWh), records per YYYY-MM; 600", body = Envelope<SeriesList>)))]
pub async fn year(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<SeriesList>> {
    bars(&app, &me, &sn, Bucket::Month, |tz| {
        DayRange::year(year_param(q.date.as_deref(), tz))
    })
    .await
}

/// Import and export per year, in kWh.
#[utoipa::path(get, path = "/api/v1/meter/{sn}/total", tag = "meters", params(("sn" = String, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Series import and export (kWh), records per YYYY; 600", body = Envelope<SeriesList>)))]
pub async fn total(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<SeriesList>> {
    bars(&app, &me, &sn, Bucket::Year, |_| DayRange::total()).await
}

/// Renames a meter (`station.edit` on its plant; empty restores the SN).
#[utoipa::path(post, path = "/api/v1/meter/{sn}/alias", tag = "meters", params(("sn" = String, Path), AliasBody), security(("bearer" = [])),
    request_body = AliasBody, responses((status = 200, description = "Envelope; 2, 4 alias, 600", body = Ack)))]
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
    responses((status = 200, description = "Envelope; 2, 600", body = Ack)))]
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
    request_body = MasterBody, responses((status = 200, description = "Envelope; 2, 4 plant, 600", body = Ack)))]
pub async fn master(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<MasterBody>,
    Body(b): Body<MasterBody>,
) -> ApiResult<Done> {
    let d = device(&app, &me, &sn, FAMILY).await?;
    let on = b.master.or(q.master).unwrap_or(true);
    service::devices::set_master_meter(&app.store, &me.actor, &d, EDIT_KEY, on).await?;
    Ok(Done)
}
