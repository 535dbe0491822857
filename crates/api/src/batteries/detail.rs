//! One battery stack: its identity and ratings, its latest values (with the charged and
//! discharged energy from the daily rollups, the cell grid and the packs) and its day curve.

use axum::extract::{Path, State};
use domain::ids::DeviceId;
use serde::Serialize;
use serde_json::Value;
use store::telemetry::DayRange;
use utoipa::ToSchema;

use super::{
    DELETE_KEY, FAMILY, VIEW_KEY,
    cells::{CellItem, ExtremeItem, cell_item, cells_in, extreme_item, extremes},
    list::{BatteryItem, battery_item},
    packs::{PackItem, PackSource, pack_item, packs_in},
};
use crate::{
    AppState,
    device_common::{DateQuery, DeviceItem, Live, day_curve, device, live_of, may_write, zone_of},
    envelope::{ApiResult, Data, Envelope},
    extract::Query,
    plants::update_at,
    readings::{self, SeriesList, month_param, num_text, opt_string, today, year_param},
    session::CurrentUser,
};

/// A battery's identity and ratings: SN, model, versions, capacity, cycles, SOH, plant and
/// gateway.
#[utoipa::path(get, path = "/api/v1/battery/{sn}/info", tag = "batteries", params(("sn" = String, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The battery; 600", body = Envelope<BatteryInfo>)))]
pub async fn info(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<BatteryInfo>> {
    me.actor.require(VIEW_KEY)?;
    let d = device(&app, &me, &sn, FAMILY).await?;
    let r = readings::latest(&app, d.id).await?;
    let tz = zone_of(&app, &me, &d).await?;
    let live = live_of(&d, r.as_ref(), tz);
    let item = battery_item(&d, r.as_ref(), DeviceItem::of(&d), live);
    let master_sn = match &d.parent_sn {
        Some(p) => app
            .store
            .device_visible(me.actor.plant_visibility(), me.id(), p)
            .await?
            .filter(|m| m.family == FAMILY)
            .map(|m| m.sn),
        None => None,
    };
    Ok(Data(BatteryInfo {
        item,
        capacity_remaining: opt_string(r.as_ref().and_then(|r| r.num("capacity_remaining"))),
        master: master_sn.is_none(),
        deletable: may_write(&app, &me, &d, DELETE_KEY).await?,
        master_sn,
    }))
}

/// A battery's identity, ratings and latest values.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatteryInfo {
    #[serde(flatten)]
    pub item: BatteryItem,
    /// Ah, a numeric string.
    pub capacity_remaining: Option<String>,
    /// A stack's master (not a pack behind one).
    pub master: bool,
    /// The caller may delete it.
    pub deletable: bool,
    /// The master it hangs from, when the caller sees it.
    pub master_sn: Option<String>,
}

/// Charged and discharged energy of one span, from the battery's daily rollups.
async fn energy(app: &AppState, device: DeviceId, days: DayRange) -> ApiResult<(f64, f64)> {
    let rows = app.store.device_energy(device, &days).await?;
    let of = |m: &str| rows.iter().find(|e| e.metric == m).map_or(0.0, |e| e.kwh);
    Ok((of("charge"), of("discharge")))
}

/// The latest values of a battery stack.
#[utoipa::path(get, path = "/api/v1/battery/{sn}/realtime", tag = "batteries", params(("sn" = String, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The stack's latest values; 600", body = Envelope<BatteryNow>)))]
pub async fn realtime(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<BatteryNow>> {
    me.actor.require(VIEW_KEY)?;
    let d = device(&app, &me, &sn, FAMILY).await?;
    let tz = zone_of(&app, &me, &d).await?;
    let r = readings::latest(&app, d.id).await?.unwrap_or_default();
    let day = today(tz);
    let (y, m) = month_param(None, tz);
    let (today_c, today_d) = energy(&app, d.id, DayRange::day(&day.to_string())).await?;
    let (month_c, month_d) = energy(&app, d.id, DayRange::month(y, m)).await?;
    let (year_c, year_d) = energy(&app, d.id, DayRange::year(year_param(None, tz))).await?;
    let (total_c, total_d) = energy(&app, d.id, DayRange::total()).await?;
    let packs = packs_in(&r);
    let cells = cells_in(&r);
    let (max, min) = extremes(&r, &packs, &cells);
    let flag = |k: &str| r.values.get(k).and_then(Value::as_bool);
    let int = |k: &str| r.num(k).map(|v| v as i64);
    let text = |k: &str| opt_string(r.num(k));
    let live = live_of(&d, (r.ts > 0).then_some(&r), tz);
    Ok(Data(BatteryNow {
        sn: d.sn.clone(),
        status: d.status,
        soc: text("soc"),
        soh: text("soh"),
        // Clients need these three as values even before the first report.
        voltage: num_text(r.num("voltage").unwrap_or(0.0)),
        current: num_text(r.num("current").unwrap_or(0.0)),
        power: readings::round2(r.num("power").unwrap_or(0.0)),
        temp_max: text("temperature_max"),
        temp_min: text("temperature_min"),
        capacity: text("capacity_full"),
        capacity_remaining: text("capacity_remaining"),
        charge_current_limit: text("charge_current_limit"),
        discharge_current_limit: text("discharge_current_limit"),
        cycles: int("cycles"),
        pack_count: packs.len() as i64,
        alarm_word: int("alarm_word"),
        fault_word: int("fault_word"),
        charging: flag("charging"),
        discharging: flag("discharging"),
        charge_relay: flag("charge_relay_closed"),
        discharge_relay: flag("discharge_relay_closed"),
        balancing: flag("balancing"),
        etoday_chg: num_text(today_c),
        etoday_dischg: num_text(today_d),
        emonth_chg: num_text(month_c),
        emonth_dischg: num_text(month_d),
        eyear_chg: num_text(year_c),
        eyear_dischg: num_text(year_d),
        etotal_chg: num_text(total_c),
        etotal_dischg: num_text(total_d),
        cell_max: extreme_item(max),
        cell_min: extreme_item(min),
        cells: cells.iter().map(cell_item).collect(),
        packs: packs
            .iter()
            .map(|p| pack_item(p, d.status, PackSource::Pack))
            .collect(),
        time: (r.ts > 0).then(|| readings::local_time(r.ts, tz)),
        update_at: update_at(d.last_seen.unwrap_or(d.updated_at)),
        live,
    }))
}

/// A battery stack's latest values: numeric strings, `null` when not reported; energy in kWh
/// from the daily rollups (plant-local today, month, year and in all).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatteryNow {
    pub sn: String,
    pub status: i64,
    /// %.
    pub soc: Option<String>,
    /// %.
    pub soh: Option<String>,
    /// V, never null.
    pub voltage: String,
    /// A, never null.
    pub current: String,
    /// W, a number, never null.
    pub power: f64,
    /// °C.
    pub temp_max: Option<String>,
    /// °C.
    pub temp_min: Option<String>,
    /// Ah.
    pub capacity: Option<String>,
    /// Ah.
    pub capacity_remaining: Option<String>,
    /// A.
    pub charge_current_limit: Option<String>,
    /// A.
    pub discharge_current_limit: Option<String>,
    pub cycles: Option<i64>,
    pub pack_count: i64,
    pub alarm_word: Option<i64>,
    pub fault_word: Option<i64>,
    pub charging: Option<bool>,
    pub discharging: Option<bool>,
    pub charge_relay: Option<bool>,
    pub discharge_relay: Option<bool>,
    pub balancing: Option<bool>,
    pub etoday_chg: String,
    pub etoday_dischg: String,
    pub emonth_chg: String,
    pub emonth_dischg: String,
    pub eyear_chg: String,
    pub eyear_dischg: String,
    pub etotal_chg: String,
    pub etotal_dischg: String,
    pub cell_max: Option<ExtremeItem>,
    pub cell_min: Option<ExtremeItem>,
    pub cells: Vec<CellItem>,
    pub packs: Vec<PackItem>,
    /// The newest report, plant-local `YYYY-MM-DD HH:MM:SS`.
    pub time: Option<String>,
    /// UTC.
    pub update_at: String,
    #[serde(flatten)]
    pub live: Live,
}

/// A battery's day curve: SOC, power, voltage, current and highest temperature.
#[utoipa::path(get, path = "/api/v1/battery/{sn}/day", tag = "batteries", params(("sn" = String, Path), DateQuery), security(("bearer" = [])),
    responses((status = 200, description = "Series labelled soc, power, voltage, current, temp; 600", body = Envelope<SeriesList>)))]
pub async fn day(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<SeriesList>> {
    me.actor.require(VIEW_KEY)?;
    let columns = [
        ("soc", "%", "soc"),
        ("power", "W", "power"),
        ("voltage", "V", "voltage"),
        ("current", "A", "current"),
        ("temp", "°C", "temperature_max"),
    ];
    let date = q.date.as_deref();
    Ok(Data(
        day_curve(&app, &me, &sn, FAMILY, date, &columns).await?,
    ))
}
