//! Weather stations (docs/api.md, "Batteries, meters and weather stations"): list, status
//! counts, realtime values, the day curve (irradiance, temperatures, humidity, wind), alias and
//! delete. Served under the original API's `/meteorological` paths and under
//! `/weatherStations` / `/weatherStation/{sn}` (the names the web app uses); both run the same
//! handlers. Temperatures are in °C: the web app converts them to the user's unit.

use utoipa_axum::{router::OpenApiRouter, routes};

use axum::extract::{Path, State};
use domain::DeviceFamily;
use serde::Serialize;
use store::devices::{DeviceFilter, DeviceListRow};
use utoipa::ToSchema;

use crate::{
    AppState,
    device_common::{
        AliasBody, DateQuery, DeviceCounts, DeviceItem, DeviceListQuery, EDIT_KEY, Live, VIEW_KEY,
        day_curve, device, family_counts, list_page, live_of, may_write, remove, rename, zone_of,
    },
    envelope::{Ack, ApiResult, Data, Done, Envelope},
    extract::{Body, Query},
    paging::Page,
    plants::update_at,
    readings::{self, Reading, SeriesList, opt_string},
    session::CurrentUser,
};

const FAMILY: DeviceFamily = DeviceFamily::WeatherStation;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(count))
        .routes(routes!(realtime))
        .routes(routes!(day))
        .routes(routes!(alias))
        .routes(routes!(delete))
        .routes(routes!(plant_realtime))
        .routes(routes!(meteorological::list))
        .routes(routes!(meteorological::count))
        .routes(routes!(meteorological::realtime))
        .routes(routes!(meteorological::day))
        .routes(routes!(meteorological::alias))
        .routes(routes!(meteorological::delete))
}

/// A weather station of the list: the common device fields and its latest irradiance and
/// temperatures.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StationItem {
    #[serde(flatten)]
    pub device: DeviceItem,
    #[serde(flatten)]
    pub live: Live,
    /// W/m², a numeric string.
    pub irradiance: Option<String>,
    /// °C, a numeric string.
    pub module_temp: Option<String>,
    /// °C, a numeric string.
    pub ambient_temp: Option<String>,
}

fn station_item(
    _: &DeviceListRow,
    r: Option<&Reading>,
    device: DeviceItem,
    live: Live,
) -> StationItem {
    let text = |k: &str| opt_string(r.and_then(|r| r.num(k)));
    StationItem {
        device,
        live,
        irradiance: text("irradiance"),
        module_temp: text("module_temperature"),
        ambient_temp: text("ambient_temperature"),
    }
}

/// A weather station with its latest values (numeric strings, `null` when not reported).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StationNow {
    #[serde(flatten)]
    pub device: DeviceItem,
    #[serde(flatten)]
    pub live: Live,
    /// The caller may rename or delete it.
    pub editable: bool,
    /// The newest report, plant-local `YYYY-MM-DD HH:MM:SS`.
    pub time: Option<String>,
    /// W/m².
    pub irradiance: Option<String>,
    /// °C.
    pub module_temp: Option<String>,
    /// °C.
    pub ambient_temp: Option<String>,
    /// %.
    pub humidity: Option<String>,
    /// m/s.
    pub wind_speed: Option<String>,
    /// Whole degrees.
    pub wind_direction: Option<String>,
    /// hPa.
    pub pressure: Option<String>,
    /// kWh/m².
    pub today_irradiation: Option<String>,
    /// mm.
    pub rainfall: Option<String>,
}

/// The weather stations the caller may see, paged, with their latest irradiance and
/// temperatures.
#[utoipa::path(get, path = "/api/v1/weatherStations", tag = "weather stations", params(DeviceListQuery), security(("bearer" = [])),
    responses((status = 200, description = "A page of weather stations; also GET /api/v1/meteorological; 2", body = Envelope<Page<StationItem>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<DeviceListQuery>,
) -> ApiResult<Data<Page<StationItem>>> {
    me.actor.require(VIEW_KEY)?;
    Ok(Data(list_page(&app, &me, &q, FAMILY, station_item).await?))
}

/// How many weather stations the caller may see, per status.
#[utoipa::path(get, path = "/api/v1/weatherStation/status/count", tag = "weather stations", security(("bearer" = [])),
    params(("plantId" = Option<i64>, Query, description = "only this plant's stations")),
    responses((status = 200, description = "Weather stations per status; also /api/v1/meteorological/status/count; 2", body = Envelope<DeviceCounts>)))]
pub async fn count(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<DeviceListQuery>,
) -> ApiResult<Data<DeviceCounts>> {
    me.actor.require(VIEW_KEY)?;
    Ok(Data(family_counts(&app, &me, FAMILY, &q).await?))
}

/// The latest values of a weather station.
#[utoipa::path(get, path = "/api/v1/weatherStation/{sn}/realtime", tag = "weather stations", params(("sn" = String, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The station and its latest values; also /api/v1/meteorological/{sn}/realtime; 600", body = Envelope<StationNow>)))]
pub async fn realtime(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<StationNow>> {
    me.actor.require(VIEW_KEY)?;
    let d = device(&app, &me, &sn, FAMILY).await?;
    Ok(Data(station_now(&app, &me, &d).await?))
}

/// A station's list item with its latest values.
async fn station_now(app: &AppState, me: &CurrentUser, d: &DeviceListRow) -> ApiResult<StationNow> {
    let tz = zone_of(app, me, d).await?;
    let r = readings::latest(app, d.id).await?.unwrap_or_default();
    let mut device = DeviceItem::of(d);
    device.update_at = update_at(d.last_seen.unwrap_or(d.updated_at));
    let live = live_of(d, (r.ts > 0).then_some(&r), tz);
    let text = |k: &str| opt_string(r.num(k));
    Ok(StationNow {
        device,
        live,
        editable: may_write(app, me, d, EDIT_KEY).await?,
        time: (r.ts > 0).then(|| readings::local_time(r.ts, tz)),
        irradiance: text("irradiance"),
        module_temp: text("module_temperature"),
        ambient_temp: text("ambient_temperature"),
        humidity: text("humidity"),
        wind_speed: text("wind_speed"),
        // Wind direction reads better as whole degrees.
        wind_direction: opt_string(r.num("wind_direction").map(f64::round)),
        pressure: text("pressure"),
        today_irradiation: text("today_irradiation"),
        rainfall: text("rainfall"),
    })
}

/// The weather station of a plant (the newest registered when it has several) with its latest
/// values, as the realtime call answers it; `null` when the plant has none. Anyone who sees the
/// plant may read it (it belongs to the plant's overview).
#[utoipa::path(get, path = "/api/v1/plant/meteorological/{stationId}/realtime", tag = "weather stations", params(("stationId" = String, Path, description = "the plant id")), security(("bearer" = [])),
    responses((status = 200, description = "The realtime answer of the plant's weather station, or null; 700", body = Envelope<Option<StationNow>>)))]
pub async fn plant_realtime(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<Option<StationNow>>> {
    let (plant, _) = crate::plants::visible(&app, &me, &id).await?;
    let filter = DeviceFilter {
        family: Some(FAMILY),
        plant: Some(plant.id),
        limit: 1,
        ..DeviceFilter::default()
    };
    let (stations, _) = app
        .store
        .devices_visible(me.actor.plant_visibility(), me.id(), &filter)
        .await?;
    Ok(Data(match stations.first() {
        Some(d) => Some(station_now(&app, &me, d).await?),
        None => None,
    }))
}

/// A weather station's day curve: irradiance, ambient and module temperature, humidity and
/// wind speed over a plant-local day.
#[utoipa::path(get, path = "/api/v1/weatherStation/{sn}/day", tag = "weather stations", params(("sn" = String, Path), DateQuery), security(("bearer" = [])),
    responses((status = 200, description = "Series labelled irradiance, ambientTemp, moduleTemp, humidity, windSpeed; also /api/v1/meteorological/{sn}/day; 600", body = Envelope<SeriesList>)))]
pub async fn day(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<SeriesList>> {
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
    request_body = AliasBody, responses((status = 200, description = "Envelope; also /api/v1/meteorological/{sn}/alias; 2, 4 alias, 600", body = Ack)))]
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
    responses((status = 200, description = "Envelope; also /api/v1/meteorological/{sn}/delete; 2, 600", body = Ack)))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Done> {
    remove(&app, &me, &sn, FAMILY).await
}

/// The same operations under their older name, `meteorological`, which clients written for the
/// original API call.
mod meteorological {
    use super::*;

    #[utoipa::path(get, path = "/api/v1/meteorological", tag = "weather stations", params(DeviceListQuery), security(("bearer" = [])),
        responses((status = 200, description = "As GET /api/v1/weatherStations", body = Envelope<Page<StationItem>>)))]
    pub async fn list(
        s: State<AppState>,
        me: CurrentUser,
        q: Query<DeviceListQuery>,
    ) -> ApiResult<Data<Page<StationItem>>> {
        super::list(s, me, q).await
    }

    #[utoipa::path(get, path = "/api/v1/meteorological/status/count", tag = "weather stations", security(("bearer" = [])),
        responses((status = 200, description = "As GET /api/v1/weatherStation/status/count", body = Envelope<DeviceCounts>)))]
    pub async fn count(
        s: State<AppState>,
        me: CurrentUser,
        q: Query<DeviceListQuery>,
    ) -> ApiResult<Data<DeviceCounts>> {
        super::count(s, me, q).await
    }

    #[utoipa::path(get, path = "/api/v1/meteorological/{sn}/realtime", tag = "weather stations", params(("sn" = String, Path)), security(("bearer" = [])),
        responses((status = 200, description = "As GET /api/v1/weatherStation/{sn}/realtime", body = Envelope<StationNow>)))]
    pub async fn realtime(
        s: State<AppState>,
        me: CurrentUser,
        sn: Path<String>,
    ) -> ApiResult<Data<StationNow>> {
        super::realtime(s, me, sn).await
    }

    #[utoipa::path(get, path = "/api/v1/meteorological/{sn}/day", tag = "weather stations", params(("sn" = String, Path), DateQuery), security(("bearer" = [])),
        responses((status = 200, description = "As GET /api/v1/weatherStation/{sn}/day", body = Envelope<SeriesList>)))]
    pub async fn day(
        s: State<AppState>,
        me: CurrentUser,
        sn: Path<String>,
        q: Query<DateQuery>,
    ) -> ApiResult<Data<SeriesList>> {
        super::day(s, me, sn, q).await
    }

    #[utoipa::path(post, path = "/api/v1/meteorological/{sn}/alias", tag = "weather stations", params(("sn" = String, Path), AliasBody), security(("bearer" = [])),
        request_body = AliasBody,
        responses((status = 200, description = "As POST /api/v1/weatherStation/{sn}/alias", body = Ack)))]
    pub async fn alias(
        s: State<AppState>,
        me: CurrentUser,
        sn: Path<String>,
        q: Query<AliasBody>,
        b: Body<AliasBody>,
    ) -> ApiResult<Done> {
        super::alias(s, me, sn, q, b).await
    }

    #[utoipa::path(post, path = "/api/v1/meteorological/{sn}/delete", tag = "weather stations", params(("sn" = String, Path)), security(("bearer" = [])),
        responses((status = 200, description = "As POST /api/v1/weatherStation/{sn}/delete", body = Ack)))]
    pub async fn delete(s: State<AppState>, me: CurrentUser, sn: Path<String>) -> ApiResult<Done> {
        super::delete(s, me, sn).await
    }
}
