//! Devices and weather of a plant: which kinds of device it has, its weather stations, and the
//! current weather. Weather comes from the plant's own weather station; no external provider
//! is needed (sunrise and sunset are computed from the position with NOAA's equations).

use axum::extract::{Path, State};
use chrono::{Duration, FixedOffset, NaiveDate, Offset, TimeZone, Utc};
use chrono_tz::Tz;
use domain::{DeviceFamily, Lang, policy::PlantVisibility};
use serde::Deserialize;
use store::plants::{PlantFilter, PlantRow};
use utoipa::IntoParams;

use super::{
    PlantCtx,
    wire::{CurrentWeather, DeviceKinds, StationValues, Weather, WeatherProduct},
};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope, current_lang},
    extract::{Query, num},
    plants::update_at,
    readings::{self, Reading},
    session::CurrentUser,
};

/// Which kinds of device a plant has. A battery counts when there is a BMS or a hybrid
/// inverter reports battery values (a battery without its own BMS link).
#[utoipa::path(get, path = "/api/v1/plant/{id}/check/device", tag = "monitoring",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The kinds of device the plant has; 700", body = Envelope<DeviceKinds>)))]
pub async fn check_device(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<DeviceKinds>> {
    let ctx = PlantCtx::load(&app, &me, &id).await?;
    let latest = ctx.latest(&app).await?;
    let sources: Vec<_> = latest.iter().map(super::Latest::source).collect();
    // The flow's rule: a BMS, or a hybrid inverter reporting a battery.
    let battery = super::flow::compute(&sources, false, ctx.has(DeviceFamily::Battery)).has_battery;
    Ok(Data(DeviceKinds {
        meter: ctx.has(DeviceFamily::Meter),
        battery,
        meteorological: ctx.has(DeviceFamily::WeatherStation),
    }))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct StationQuery {
    /// The plant (`stationId`, `plantId` or `id`).
    #[serde(
        default,
        alias = "plantId",
        alias = "id",
        deserialize_with = "num::opt_text"
    )]
    pub station_id: Option<String>,
}

fn plant_param(q: &StationQuery) -> String {
    q.station_id.clone().unwrap_or_default()
}

/// The plant's weather stations as products: `[{id, productName, icon, status}]`.
#[utoipa::path(get, path = "/api/v1/getWeatherStationProduct", tag = "monitoring",
    params(StationQuery), security(("bearer" = [])),
    responses((status = 200, description = "The stations; 700", body = Envelope<Vec<WeatherProduct>>)))]
pub async fn station_products(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<StationQuery>,
) -> ApiResult<Data<Vec<WeatherProduct>>> {
    let ctx = PlantCtx::load(&app, &me, &plant_param(&q)).await?;
    let items = ctx
        .of(DeviceFamily::WeatherStation)
        .map(|d| {
            let name = [&d.alias, &d.model, &d.sn]
                .into_iter()
                .find(|s| !s.is_empty())
                .cloned()
                .unwrap_or_default();
            WeatherProduct {
                id: d.id.0,
                product_name: name,
                icon: String::new(),
                status: d.status,
                sn: d.sn.clone(),
            }
        })
        .collect();
    Ok(Data(items))
}

/// The latest values of the plant's (first) weather station, or `null` when it has none.
#[utoipa::path(get, path = "/api/v1/getWeatherStationInfo", tag = "monitoring",
    params(StationQuery), security(("bearer" = [])),
    responses((status = 200, description = "The station's values, or null; 700", body = Envelope<Option<StationValues>>)))]
pub async fn station_info(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<StationQuery>,
) -> ApiResult<Data<Option<StationValues>>> {
    let ctx = PlantCtx::load(&app, &me, &plant_param(&q)).await?;
    let Some(station) = ctx.of(DeviceFamily::WeatherStation).next() else {
        return Ok(Data(None));
    };
    let r = readings::latest(&app, station.id)
        .await?
        .unwrap_or_default();
    let has = r.ts > 0;
    let text = |key: &str| r.num(key).map(readings::num_text);
    Ok(Data(Some(StationValues {
        sn: station.sn.clone(),
        alias: station.alias.clone(),
        status: station.status,
        update_at: has.then(|| update_at(r.ts)),
        irradiance: text("irradiance"),
        module_temp: text("module_temperature"),
        ambient_temp: text("ambient_temperature"),
        humidity: text("humidity"),
        wind_speed: text("wind_speed"),
        wind_direction: text("wind_direction"),
        pressure: text("pressure"),
        rainfall: text("rainfall"),
        today_irradiation: text("today_irradiation"),
    })))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct WeatherQuery {
    /// `YYYY-MM-DD` (sunrise and sunset of that day); today by default.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub date: Option<String>,
    /// `<lat>,<lon>`: the weather at a plant of the caller at that position.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub lon_lat: Option<String>,
    /// The plant, when known (wins over `lonLat`).
    #[serde(
        default,
        alias = "plantId",
        alias = "id",
        deserialize_with = "num::opt_text"
    )]
    pub station_id: Option<String>,
}

/// `<lat>,<lon>` as clients send it.
fn parse_lat_lon(raw: &str) -> Option<(f64, f64)> {
    let (lat, lon) = raw.split_once(',')?;
    let (lat, lon): (f64, f64) = (lat.trim().parse().ok()?, lon.trim().parse().ok()?);
    ((-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lon)).then_some((lat, lon))
}

/// The caller's plant nearest to a position, within about a kilometre.
async fn plant_at(
    app: &AppState,
    visibility: PlantVisibility,
    me: &CurrentUser,
    lat: f64,
    lon: f64,
) -> ApiResult<Option<PlantRow>> {
    let filter = PlantFilter {
        limit: 5000,
        ..Default::default()
    };
    let (rows, _) = app.store.plants(visibility, me.id(), &filter).await?;
    let distance = |p: &PlantRow| (p.lat - lat).powi(2) + (p.lon - lon).powi(2);
    Ok(rows
        .into_iter()
        .filter(|p| distance(p) < 0.01_f64.powi(2))
        .min_by(|a, b| distance(a).total_cmp(&distance(b))))
}

/// Minutes after 00:00 UTC of sunrise and sunset on `day` at a position (NOAA's equations);
/// `None` during polar day or night.
pub(crate) fn sun_times(lat: f64, lon: f64, day: NaiveDate) -> Option<(f64, f64)> {
    // The sun's position at noon UTC of the day (domain::sun: the same equations as the
    // fleet dashboard's daylight).
    let noon_utc = day.and_hms_opt(12, 0, 0)?.and_utc().timestamp_millis();
    let sun = domain::sun::position(noon_utc);
    let (decl, eq_time) = (sun.declination, sun.equation_of_time);
    let latr = lat.to_radians();
    let cos_ha =
        90.833_f64.to_radians().cos() / (latr.cos() * decl.cos()) - latr.tan() * decl.tan();
    if !(-1.0..=1.0).contains(&cos_ha) {
        return None;
    }
    let ha = cos_ha.acos().to_degrees();
    let noon = 720.0 - 4.0 * lon - eq_time;
    Some((noon - 4.0 * ha, noon + 4.0 * ha))
}

/// `HH:MM` of a UTC minute of `day`, in the zone `offset_of` gives.
fn clock(
    day: NaiveDate,
    minutes: f64,
    to_local: &dyn Fn(chrono::DateTime<Utc>) -> String,
) -> String {
    let start = Utc.from_utc_datetime(&day.and_time(chrono::NaiveTime::MIN));
    to_local(start + Duration::seconds((minutes * 60.0).round() as i64))
}

/// Whole degrees from north, 0 to 359, as text: clients read the direction with `int()`, so
/// neither a compass point nor a decimal would parse.
fn wind_degrees(degrees: f64) -> String {
    format!("{}", (degrees.round() as i64).rem_euclid(360))
}

/// A short description of the sky from the station: rain, night, or how much of the expected
/// clear-sky sunlight arrives.
fn describe(r: &Reading, daylight: bool, lang: Lang) -> Option<&'static str> {
    let text = |en, zh, es| match lang {
        Lang::En => en,
        Lang::Zh => zh,
        Lang::Es => es,
    };
    if r.num("rainfall").is_some_and(|v| v > 0.0) {
        return Some(text("Rain", "雨", "Lluvia"));
    }
    if !daylight {
        return Some(text("Night", "夜间", "Noche"));
    }
    let irradiance = r.num("irradiance")?;
    Some(if irradiance >= 500.0 {
        text("Sunny", "晴", "Soleado")
    } else if irradiance >= 150.0 {
        text("Partly cloudy", "多云", "Parcialmente nublado")
    } else {
        text("Cloudy", "阴", "Nublado")
    })
}

/// The current weather at a plant: `currWea{desc, currTemp, windSpeed, windDirection (whole
/// degrees), sunrise, sunset, iconUrl, tempMinC, tempMaxC}`, all strings or null. Values come from the plant's
/// weather station; without one (or without a matching plant) only sunrise and sunset are
/// known.
#[utoipa::path(get, path = "/api/v1/weather", tag = "monitoring",
    params(WeatherQuery), security(("bearer" = [])),
    responses((status = 200, description = "The weather; 700 for a plant not visible", body = Envelope<Weather>)))]
pub async fn weather(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<WeatherQuery>,
) -> ApiResult<Data<Weather>> {
    let position = q.lon_lat.as_deref().and_then(parse_lat_lon);
    let ctx = match (&q.station_id, position) {
        (Some(id), _) => Some(PlantCtx::load(&app, &me, id).await?),
        (None, Some((lat, lon))) => {
            match plant_at(&app, me.actor.plant_visibility(), &me, lat, lon).await? {
                Some(p) => Some(PlantCtx::load(&app, &me, &p.id.to_string()).await?),
                None => None,
            }
        }
        (None, None) => None,
    };
    let (lat, lon) = match (&ctx, position) {
        (Some(c), _) => (c.plant.lat, c.plant.lon),
        (None, Some(p)) => p,
        (None, None) => {
            return Ok(Data(Weather {
                curr_wea: None,
                plant_id: None,
            }));
        }
    };
    let tz: Option<Tz> = ctx.as_ref().map(|c| c.tz);
    // Without a plant the zone is the position's mean solar offset.
    let offset = FixedOffset::east_opt(((lon / 15.0).round() as i32) * 3600).unwrap_or(Utc.fix());
    let to_local = |t: chrono::DateTime<Utc>| match tz {
        Some(tz) => t.with_timezone(&tz).format("%H:%M").to_string(),
        None => t.with_timezone(&offset).format("%H:%M").to_string(),
    };
    let today = match tz {
        Some(tz) => readings::today(tz),
        None => Utc::now().with_timezone(&offset).date_naive(),
    };
    let day = q
        .date
        .as_deref()
        .and_then(|d| NaiveDate::parse_from_str(d.get(..10).unwrap_or(d), "%Y-%m-%d").ok())
        .unwrap_or(today);
    let sun = sun_times(lat, lon, day);
    let now_minutes = {
        let now = Utc::now();
        let midnight = Utc.from_utc_datetime(&day.and_time(chrono::NaiveTime::MIN));
        (now - midnight).num_seconds() as f64 / 60.0
    };
    // Polar day and night both read as daylight: the irradiance then tells the sky.
    let daylight = sun.is_none_or(|(rise, set)| now_minutes >= rise && now_minutes <= set);

    let station = ctx
        .as_ref()
        .and_then(|c| c.of(DeviceFamily::WeatherStation).next());
    let (mut reading, mut min_max) = (None, None);
    if let (Some(c), Some(s)) = (&ctx, station) {
        let cycles = super::live::Cycles::of_gateways(&app, &[s.gateway_id]).await?;
        // A station that stopped reporting says nothing about the weather now.
        reading = readings::latest(&app, s.id)
            .await?
            .filter(|r| !cycles.stale(s.gateway_id, Some(r.ts), domain::time::now_ms()));
        let (from, to) = readings::day_bounds(c.tz, readings::today(c.tz));
        let temps: Vec<f64> = readings::day_samples(&app, s.id, from, to)
            .await?
            .iter()
            .filter_map(|x| Reading::from_sample(x.ts, &x.payload).num("ambient_temperature"))
            .collect();
        if !temps.is_empty() {
            min_max = Some((
                temps.iter().copied().fold(f64::INFINITY, f64::min),
                temps.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            ));
        }
    }
    let num = |key: &str| reading.as_ref().and_then(|r| r.num(key));
    Ok(Data(Weather {
        curr_wea: Some(CurrentWeather {
            desc: reading
                .as_ref()
                .and_then(|r| describe(r, daylight, current_lang()))
                .map(Into::into),
            curr_temp: num("ambient_temperature").map(readings::num_text),
            wind_speed: num("wind_speed").map(readings::num_text),
            wind_direction: num("wind_direction").map(wind_degrees),
            sunrise: sun.map(|(rise, _)| clock(day, rise, &to_local)),
            sunset: sun.map(|(_, set)| clock(day, set, &to_local)),
            icon_url: None,
            temp_min_c: min_max.map(|m| readings::num_text(m.0)),
            temp_max_c: min_max.map(|m| readings::num_text(m.1)),
        }),
        plant_id: ctx.as_ref().map(|c| c.plant.id.0),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hhmm(minutes: f64) -> String {
        let m = minutes.round() as i64;
        format!("{:02}:{:02}", m.div_euclid(60), m.rem_euclid(60))
    }

    #[test]
    fn sunrise_and_sunset_match_published_tables() {
        // London, 21 June 2026: sunrise 03:43 UTC, sunset 20:21 UTC (timeanddate.com).
        let day = NaiveDate::from_ymd_opt(2026, 6, 21).expect("date");
        let (rise, set) = sun_times(51.5074, -0.1278, day).expect("sun");
        assert!((rise - (3.0 * 60.0 + 43.0)).abs() <= 2.0, "{}", hhmm(rise));
        assert!((set - (20.0 * 60.0 + 21.0)).abs() <= 2.0, "{}", hhmm(set));
        // Quito on the equator: about 12 hours of day.
        let (rise, set) = sun_times(-0.18, -78.47, day).expect("sun");
        assert!(((set - rise) / 60.0 - 12.1).abs() < 0.2);
        // Tromsø in June: the sun does not set.
        assert_eq!(sun_times(69.65, 18.96, day), None);
    }

    #[test]
    fn positions_and_directions_read_like_clients_send_them() {
        assert_eq!(parse_lat_lon("51.32,-0.72"), Some((51.32, -0.72)));
        assert_eq!(parse_lat_lon("abc"), None);
        assert_eq!(parse_lat_lon("95,0"), None);
        assert_eq!(wind_degrees(225.0), "225");
        assert_eq!(wind_degrees(359.6), "0");
        assert_eq!(wind_degrees(-90.2), "270");
    }
}
