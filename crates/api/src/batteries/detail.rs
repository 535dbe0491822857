//! One battery stack: its identity and ratings, its latest values (with the charged and
//! discharged energy from the daily rollups, the cell grid and the packs) and its day curve.

use axum::extract::{Path, State};
use serde_json::{Value, json};
use store::telemetry::DayRange;

use super::{
    DELETE_KEY, FAMILY, VIEW_KEY,
    cells::{cell_json, cells_in, extreme_json, extremes},
    list::battery_item,
    packs::{pack_json, packs_in},
};
use crate::{
    AppState,
    device_common::{DateQuery, base_item, day_curve, device, live_fields_of, may_write, zone_of},
    envelope::{ApiResult, Data},
    extract::Query,
    plants::update_at,
    readings::{self, month_param, opt_text, today, year_param},
    session::CurrentUser,
};

/// A battery's identity and ratings: SN, model, versions, capacity, cycles, SOH, plant and
/// gateway.
#[utoipa::path(get, path = "/api/v1/battery/{sn}/info", tag = "batteries", params(("sn" = String, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with the list item's fields plus capacity, capacityRemaining (Ah), soh (numeric strings), cycles, packCount (integers), master, deletable (bools), masterSn; 600")))]
pub async fn info(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<Value>> {
    me.actor.require(VIEW_KEY)?;
    let d = device(&app, &me, &sn, FAMILY).await?;
    let r = readings::latest(&app, d.id).await?;
    let mut item = base_item(&d);
    battery_item(&d, r.as_ref(), &mut item);
    let tz = zone_of(&app, &me, &d).await?;
    live_fields_of(&app, &mut item, &d, r.as_ref(), tz).await?;
    let master_sn = match &d.parent_sn {
        Some(p) => app
            .store
            .device_visible(me.actor.plant_visibility(), me.id(), p)
            .await?
            .filter(|m| m.family == FAMILY)
            .map(|m| m.sn),
        None => None,
    };
    item.insert(
        "capacityRemaining".into(),
        opt_text(r.as_ref().and_then(|r| r.num("capacity_remaining"))),
    );
    item.insert("master".into(), Value::Bool(master_sn.is_none()));
    let deletable = may_write(&app, &me, &d, DELETE_KEY).await?;
    item.insert("deletable".into(), Value::Bool(deletable));
    item.insert("masterSn".into(), json!(master_sn));
    Ok(Data(Value::Object(item)))
}

/// Charged and discharged energy of one span, from the battery's daily rollups.
async fn energy(app: &AppState, device: i64, days: DayRange) -> ApiResult<(f64, f64)> {
    let rows = app.store.device_energy(device, &days).await?;
    let of = |m: &str| rows.iter().find(|e| e.metric == m).map_or(0.0, |e| e.kwh);
    Ok((of("charge"), of("discharge")))
}

/// The latest values of a battery stack.
#[utoipa::path(get, path = "/api/v1/battery/{sn}/realtime", tag = "batteries", params(("sn" = String, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {sn, status, soc, soh, voltage, current, tempMax, tempMin, capacity, capacityRemaining, chargeCurrentLimit, dischargeCurrentLimit, etodayChg, etodayDischg, emonthChg, emonthDischg, eyearChg, eyearDischg, etotalChg, etotalDischg (numeric strings or null; voltage and current never null), power (W, number, never null), cycles, packCount, alarmWord, faultWord (integers or null), charging, discharging, chargeRelay, dischargeRelay, balancing (booleans or null), cellMax, cellMin ({voltage, pack, cell} or null), cells:[{pack, no, voltage, temp (°C or null)}], packs:[...], time (plant-local), updateAt (UTC), stale (the data is past the offline bound), timezone}; 600")))]
pub async fn realtime(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<Value>> {
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
    let flag = |k: &str| {
        r.values
            .get(k)
            .and_then(Value::as_bool)
            .map_or(Value::Null, Value::Bool)
    };
    let int = |k: &str| json!(r.num(k).map(|v| v as i64));
    let text = |k: &str| opt_text(r.num(k));
    let mut body = json!({
        "sn": d.sn, "status": d.status,
        "soc": text("soc"), "soh": text("soh"),
        // Clients need these three as values even before the first report.
        "voltage": opt_text(Some(r.num("voltage").unwrap_or(0.0))),
        "current": opt_text(Some(r.num("current").unwrap_or(0.0))),
        "power": readings::round2(r.num("power").unwrap_or(0.0)),
        "tempMax": text("temperature_max"), "tempMin": text("temperature_min"),
        "capacity": text("capacity_full"), "capacityRemaining": text("capacity_remaining"),
        "chargeCurrentLimit": text("charge_current_limit"),
        "dischargeCurrentLimit": text("discharge_current_limit"),
        "cycles": int("cycles"), "packCount": packs.len(),
        "alarmWord": int("alarm_word"), "faultWord": int("fault_word"),
        "charging": flag("charging"), "discharging": flag("discharging"),
        "chargeRelay": flag("charge_relay_closed"), "dischargeRelay": flag("discharge_relay_closed"),
        "balancing": flag("balancing"),
        "etodayChg": opt_text(Some(today_c)), "etodayDischg": opt_text(Some(today_d)),
        "emonthChg": opt_text(Some(month_c)), "emonthDischg": opt_text(Some(month_d)),
        "eyearChg": opt_text(Some(year_c)), "eyearDischg": opt_text(Some(year_d)),
        "etotalChg": opt_text(Some(total_c)), "etotalDischg": opt_text(Some(total_d)),
        "cellMax": extreme_json(max), "cellMin": extreme_json(min),
        "cells": cells.iter().map(cell_json).collect::<Vec<_>>(),
        "packs": packs.iter().map(|p| pack_json(p, d.status, "pack")).collect::<Vec<_>>(),
        "time": (r.ts > 0).then(|| readings::local_time(r.ts, tz)),
        "updateAt": update_at(d.last_seen.unwrap_or(d.updated_at)),
    });
    if let Value::Object(map) = &mut body {
        live_fields_of(&app, map, &d, (r.ts > 0).then_some(&r), tz).await?;
    }
    Ok(Data(body))
}

/// A battery's day curve: SOC, power, voltage, current and highest temperature.
#[utoipa::path(get, path = "/api/v1/battery/{sn}/day", tag = "batteries", params(("sn" = String, Path), DateQuery), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {infos:[{unit, label (soc, power, voltage, current, temp), records:[{time, value (string), updateTime}]}]}; 600")))]
pub async fn day(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<Value>> {
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
