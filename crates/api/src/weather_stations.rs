//! Weather stations (docs/api.md, "Batteries, meters and weather stations"): list, status
//! counts, realtime values, the day curve (irradiance, temperatures, humidity, wind), alias and
//! delete. Served under the original API's `/meteorological` paths and under
//! `/weatherStations` / `/weatherStation/{sn}` (the names the web app uses); both run the same
//! handlers. Temperatures are in °C: the web app converts them to the user's unit.

use axum::{
    Router,
    extract::{Path, State},
    routing::{get, post},
};
use serde_json::{Map, Value, json};
use store::devices::{DeviceFilter, DeviceListRow};

use crate::{
    AppState,
    device_common::{
        AliasBody, DateQuery, DeviceListQuery, EDIT_KEY, VIEW_KEY, base_item, day_curve, device,
        family_counts, list_page, live_fields_of, may_write, remove, rename, zone_of,
    },
    envelope::{ApiResult, Data, Done},
    extract::{Body, Query},
    plants::update_at,
    readings::{self, Reading, opt_text},
    session::CurrentUser,
};

const FAMILY: &str = "weather_station";

pub fn router() -> Router<AppState> {
    let mut r = Router::new();
    for (list_path, one) in [
        ("/api/v1/weatherStations", "/api/v1/weatherStation"),
        ("/api/v1/meteorological", "/api/v1/meteorological"),
    ] {
        r = r
            .route(list_path, get(list))
            .route(&format!("{one}/status/count"), get(count))
            .route(&format!("{one}/{{sn}}/realtime"), get(realtime))
            .route(&format!("{one}/{{sn}}/day"), get(day))
            .route(&format!("{one}/{{sn}}/alias"), post(alias))
            .route(&format!("{one}/{{sn}}/delete"), post(delete));
    }
    r.route(
        "/api/v1/plant/meteorological/{stationId}/realtime",
        get(plant_realtime),
    )
}

/// Latest values: the wire name and the key in the station's report.
const VALUES: [(&str, &str); 9] = [
    ("irradiance", "irradiance"),
    ("moduleTemp", "module_temperature"),
    ("ambientTemp", "ambient_temperature"),
    ("humidity", "humidity"),
    ("windSpeed", "wind_speed"),
    ("windDirection", "wind_direction"),
    ("pressure", "pressure"),
    ("todayIrradiation", "today_irradiation"),
    ("rainfall", "rainfall"),
];

fn station_item(_: &DeviceListRow, r: Option<&Reading>, item: &mut Map<String, Value>) {
    for (wire, key) in &VALUES[..3] {
        item.insert((*wire).into(), opt_text(r.and_then(|r| r.num(key))));
    }
}

/// The weather stations the caller may see, paged, with their latest irradiance and
/// temperatures.
#[utoipa::path(get, path = "/api/v1/weatherStations", tag = "weather stations", params(DeviceListQuery), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {pageSize, pageNumber, total, infos:[{id, sn, alias, devName, status, online, model, plantId, plantName, plant, gsn, gatewayVO, updateAt, createAt, irradiance, moduleTemp, ambientTemp (numeric strings, °C)}]}; also GET /api/v1/meteorological; 2")))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<DeviceListQuery>,
) -> ApiResult<Data<Value>> {
    me.actor.require(VIEW_KEY)?;
    Ok(Data(list_page(&app, &me, &q, FAMILY, station_item).await?))
}

/// How many weather stations the caller may see, per status.
#[utoipa::path(get, path = "/api/v1/weatherStation/status/count", tag = "weather stations", security(("bearer" = [])),
    params(("plantId" = Option<i64>, Query, description = "only this plant's stations")),
    responses((status = 200, description = "Envelope with {total, normal, offline, warning, fault, upgrading}; also /api/v1/meteorological/status/count; 2")))]
pub async fn count(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<DeviceListQuery>,
) -> ApiResult<Data<Value>> {
    me.actor.require(VIEW_KEY)?;
    Ok(Data(family_counts(&app, &me, FAMILY, &q).await?))
}

/// The latest values of a weather station.
#[utoipa::path(get, path = "/api/v1/weatherStation/{sn}/realtime", tag = "weather stations", params(("sn" = String, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with the list item's fields (alias, plant, gsn...) plus {sn, alias, status, irradiance (W/m²), moduleTemp, ambientTemp (°C), humidity (%), windSpeed (m/s), windDirection (°), pressure (hPa), todayIrradiation (kWh/m²), rainfall (mm) as numeric strings or null, editable (bool), time (plant-local), updateAt, stale (the data is past the offline bound), timezone (the plant's)}; also /api/v1/meteorological/{sn}/realtime; 600")))]
pub async fn realtime(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<Value>> {
    me.actor.require(VIEW_KEY)?;
    let d = device(&app, &me, &sn, FAMILY).await?;
    Ok(Data(station_now(&app, &me, &d).await?))
}

/// A station's list item with its latest values.
async fn station_now(app: &AppState, me: &CurrentUser, d: &DeviceListRow) -> ApiResult<Value> {
    let tz = zone_of(app, me, d).await?;
    let r = readings::latest(app, d.id).await?.unwrap_or_default();
    let mut body = Value::Object(base_item(d));
    let head = json!({
        "sn": d.sn, "alias": d.alias, "status": d.status,
        "editable": may_write(app, me, d, EDIT_KEY).await?,
        "time": (r.ts > 0).then(|| readings::local_time(r.ts, tz)),
        "updateAt": update_at(d.last_seen.unwrap_or(d.updated_at)),
    });
    if let (Value::Object(body), Value::Object(head)) = (&mut body, head) {
        body.extend(head);
        live_fields_of(app, body, d, (r.ts > 0).then_some(&r), tz).await?;
    }
    for (wire, key) in VALUES {
        body[wire] = opt_text(r.num(key));
    }
    // Wind direction reads better as whole degrees.
    body["windDirection"] = opt_text(r.num("wind_direction").map(f64::round));
    Ok(body)
}

/// The weather station of a plant (the newest registered when it has several) with its latest
/// values, as the realtime call answers it; `null` when the plant has none. Anyone who sees the
/// plant may read it (it belongs to the plant's overview).
#[utoipa::path(get, path = "/api/v1/plant/meteorological/{stationId}/realtime", tag = "weather stations", params(("stationId" = String, Path, description = "the plant id")), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with the realtime answer of the plant's weather station, or null; 700")))]
pub async fn plant_realtime(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<Value>> {
    let (plant, _) = crate::plants::visible(&app, &me, &id).await?;
    let filter = DeviceFilter {
        family: Some(FAMILY.into()),
        plant: Some(plant.id),
        limit: 1,
        ..DeviceFilter::default()
    };
    let (stations, _) = app
        .store
        .devices_visible(me.actor.plant_visibility(), me.id(), &filter)
        .await?;
    Ok(Data(match stations.first() {
        Some(d) => station_now(&app, &me, d).await?,
        None => Value::Null,
    }))
}

/// A weather station's day curve: irradiance, ambient and module temperature, humidity and
/// wind speed over a plant-local day.
#[utoipa::path(get, path = "/api/v1/weatherStation/{sn}/day", tag = "weather stations", params(("sn" = String, Path), DateQuery), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {infos:[{unit, label (irradiance, ambientTemp, moduleTemp, humidity, windSpeed), records:[{time, value (string), updateTime}]}]}; also /api/v1/meteorological/{sn}/day; 600")))]
pub async fn day(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<Value>> {
    me.actor.require(VIEW_KEY)?;
    let columns = [
        ("irradiance", "W/m²", "irradiance"),
        ("ambientTemp", "°C", "ambient_temperature"),
        ("moduleTemp", "°C", "module_temperature"),
        ("humidity", "%", "humidity"),
        ("windSpeed", "m/s", "wind_speed"),
    ];
    let date = q.date.as_deref();
    Ok(Data(
        day_curve(&app, &me, &sn, FAMILY, date, &columns).await?,
    ))
}

/// Renames a weather station (`station.edit` on its plant; empty restores the SN).
#[utoipa::path(post, path = "/api/v1/weatherStation/{sn}/alias", tag = "weather stations", params(("sn" = String, Path), AliasBody), security(("bearer" = [])),
    request_body = AliasBody, responses((status = 200, description = "Envelope; also /api/v1/meteorological/{sn}/alias; 2, 4 alias, 600")))]
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

/// Removes a weather station from the registry (`station.edit` on its plant).
#[utoipa::path(post, path = "/api/v1/weatherStation/{sn}/delete", tag = "weather stations", params(("sn" = String, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Envelope; also /api/v1/meteorological/{sn}/delete; 2, 600")))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Done> {
    remove(&app, &me, &sn, FAMILY).await
}
