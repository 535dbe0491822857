//! Batteries (SPEC section 7 "Events, meters, batteries"): the list of battery stacks (masters),
//! counts, info, realtime values (SOC, SOH, voltage, current, power, temperatures, cell voltages
//! with their extremes, relays, cycles, capacities), the day curve, the slave packs of a stack
//! and delete.
//!
//! A stack's BMS reports its packs inside its own report (`pack{n}_*` keys of the
//! `bms-lv-stack` config); a pack that reports on its own is a battery device whose
//! `parent_sn` is the master's SN, while a master's `parent_sn` is its inverter. So "masters"
//! are the batteries whose parent is not a battery.

use std::collections::HashSet;

use axum::{
    Router,
    extract::{Path, State},
    routing::{get, post},
};
use serde_json::{Map, Value, json};
use store::{
    devices::{DeviceFilter, DeviceListRow, StatusCounts},
    telemetry::DayRange,
};

use crate::{
    AppState,
    device_common::{
        DateQuery, DeviceListQuery, base_item, counts_json, day_curve, device, items,
        live_fields_of, may_write, opt_num, page_json, require_device_write, zone_of,
    },
    envelope::{ApiResult, Data, Done},
    extract::Query,
    plants::update_at,
    readings::{self, Reading, month_param, opt_text, today, year_param},
    session::CurrentUser,
};

const FAMILY: &str = "battery";
const VIEW_KEY: &str = "battery.list.view";
const DELETE_KEY: &str = "battery.delete";
/// Packs a stack report may describe (`pack1_*` .. `pack16_*`).
const MAX_PACKS: u32 = 16;
/// Cells a report may list per pack or stack.
const MAX_CELLS: u32 = 64;
/// Batteries one listing considers when telling masters from packs.
const MAX_BATTERIES: i64 = 20_000;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/batteries", get(list))
        .route("/api/v1/batteries/count", get(count))
        .route("/api/v1/battery/{sn}/info", get(info))
        .route("/api/v1/battery/{sn}/realtime", get(realtime))
        .route("/api/v1/battery/{sn}/day", get(day))
        .route("/api/v1/batteries/{id}/slave", get(slaves))
        .route("/api/v1/battery/{id}/delete", post(delete))
}

/// The batteries that are stack masters: those whose parent is not itself a battery.
fn masters(all: Vec<DeviceListRow>) -> Vec<DeviceListRow> {
    let batteries: HashSet<String> = all.iter().map(|d| d.sn.clone()).collect();
    all.into_iter()
        .filter(|d| d.parent_sn.as_ref().is_none_or(|p| !batteries.contains(p)))
        .collect()
}

/// Every master the caller may see (of one plant when asked), newest first.
async fn visible_masters(
    app: &AppState,
    me: &CurrentUser,
    plant: Option<i64>,
) -> ApiResult<Vec<DeviceListRow>> {
    // The shared filter cannot say "whose parent is not a battery", so the caller's batteries
    // (a few per plant) are read once and told apart here.
    let filter = DeviceFilter {
        family: Some(FAMILY.into()),
        plant,
        limit: MAX_BATTERIES,
        ..DeviceFilter::default()
    };
    let (all, _) = app
        .store
        .devices_visible(me.actor.plant_visibility(), me.id(), &filter)
        .await?;
    Ok(masters(all))
}

/// The packs registered as devices of their own under the stack `d` (the caller sees).
async fn packs_registered(
    app: &AppState,
    me: &CurrentUser,
    d: &DeviceListRow,
) -> ApiResult<Vec<DeviceListRow>> {
    let filter = DeviceFilter {
        family: Some(FAMILY.into()),
        parent_sn: Some(d.sn.clone()),
        limit: MAX_PACKS as i64 * 4,
        ..DeviceFilter::default()
    };
    let (children, _) = app
        .store
        .devices_visible(me.actor.plant_visibility(), me.id(), &filter)
        .await?;
    Ok(children)
}

fn counts(rows: &[DeviceListRow]) -> StatusCounts {
    let mut c = StatusCounts::default();
    for d in rows {
        c.total += 1;
        match d.status {
            0 => c.offline += 1,
            1 => c.normal += 1,
            2 => c.warning += 1,
            3 => c.fault += 1,
            4 => c.upgrading += 1,
            _ => {}
        }
    }
    c
}

/// One pack of a stack, from the master's report or from its own.
#[derive(Debug, Clone, PartialEq)]
struct Pack {
    no: u32,
    sn: String,
    soc: Option<f64>,
    soh: Option<f64>,
    voltage: Option<f64>,
    current: Option<f64>,
    temp: Option<f64>,
    cell_max: Option<f64>,
    cell_min: Option<f64>,
    cycles: Option<f64>,
}

/// The packs a stack report describes: `pack_count` of them when it says, else every
/// `pack{n}_*` group present.
fn packs_in(r: &Reading) -> Vec<Pack> {
    let declared = r
        .num("pack_count")
        .map(|n| n.clamp(0.0, MAX_PACKS as f64) as u32);
    (1..=MAX_PACKS)
        .filter(|n| declared.is_none_or(|d| *n <= d))
        .filter_map(|n| {
            let key = |k: &str| format!("pack{n}_{k}");
            let num = |k: &str| r.num(&key(k));
            let sn = r.text(&key("serial_number")).map(str::trim).unwrap_or("");
            let pack = Pack {
                no: n,
                sn: sn.to_string(),
                soc: num("soc"),
                soh: num("soh"),
                voltage: num("voltage"),
                current: num("current"),
                temp: num("temperature"),
                cell_max: num("cell_voltage_max"),
                cell_min: num("cell_voltage_min"),
                cycles: num("cycles"),
            };
            let values = [
                pack.soc,
                pack.soh,
                pack.voltage,
                pack.current,
                pack.temp,
                pack.cell_max,
                pack.cell_min,
                pack.cycles,
            ];
            (!sn.is_empty() || values.iter().any(Option::is_some)).then_some(pack)
        })
        .collect()
}

/// A pack that reports on its own, read like the master's summary.
fn pack_device(no: u32, d: &DeviceListRow, r: Option<&Reading>) -> Pack {
    let num = |k: &str| r.and_then(|r| r.num(k));
    Pack {
        no,
        sn: d.sn.clone(),
        soc: num("soc"),
        soh: num("soh"),
        voltage: num("voltage"),
        current: num("current"),
        temp: num("temperature_max").or_else(|| num("temperature")),
        cell_max: num("cell_voltage_max"),
        cell_min: num("cell_voltage_min"),
        cycles: num("cycles"),
    }
}

fn pack_json(p: &Pack, status: i64, source: &str) -> Value {
    json!({
        "no": p.no, "sn": p.sn, "status": status, "source": source,
        "soc": opt_text(p.soc), "soh": opt_text(p.soh), "voltage": opt_text(p.voltage),
        "current": opt_text(p.current), "temp": opt_text(p.temp),
        "cellVoltMax": opt_cell(p.cell_max), "cellVoltMin": opt_cell(p.cell_min),
        "cycles": p.cycles.map(|c| c as i64),
    })
}

/// Cell voltages keep millivolts: three decimals.
fn opt_cell(v: Option<f64>) -> Value {
    v.map_or(Value::Null, |v| Value::String(format!("{v:.3}")))
}

/// One cell a report lists: `cell{n}_voltage` (stack) or `pack{p}_cell{n}_voltage`, with the
/// cell's temperature when the BMS reports one (`…_temperature`, or `…_temp`).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Cell {
    pack: Option<u32>,
    no: u32,
    voltage: f64,
    temp: Option<f64>,
}

fn cells_in(r: &Reading) -> Vec<Cell> {
    let cell = |prefix: &str, pack: Option<u32>, no: u32| {
        let voltage = r.num(&format!("{prefix}_voltage"))?;
        let temp = r
            .num(&format!("{prefix}_temperature"))
            .or_else(|| r.num(&format!("{prefix}_temp")));
        Some(Cell {
            pack,
            no,
            voltage,
            temp,
        })
    };
    let mut cells: Vec<Cell> = (1..=MAX_CELLS)
        .filter_map(|n| cell(&format!("cell{n}"), None, n))
        .collect();
    for p in 1..=MAX_PACKS {
        cells.extend((1..=MAX_CELLS).filter_map(|n| cell(&format!("pack{p}_cell{n}"), Some(p), n)));
    }
    cells
}

fn cell_json(c: &Cell) -> Value {
    json!({"pack": c.pack, "no": c.no, "voltage": format!("{:.3}", c.voltage),
        "temp": opt_text(c.temp)})
}

/// Where the highest and the lowest cell voltage of a stack are: `(voltage, pack, cell)`.
/// From the listed cells when the BMS lists them; else from the packs' extremes (pack known,
/// cell not), else from the stack's own summary.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Extreme {
    voltage: f64,
    pack: Option<u32>,
    cell: Option<u32>,
}

fn extremes(r: &Reading, packs: &[Pack], cells: &[Cell]) -> (Option<Extreme>, Option<Extreme>) {
    let pick = |better: fn(f64, f64) -> bool| {
        cells
            .iter()
            .copied()
            .reduce(|a, b| if better(b.voltage, a.voltage) { b } else { a })
            .map(|c| Extreme {
                voltage: c.voltage,
                pack: c.pack,
                cell: Some(c.no),
            })
    };
    let from_packs = |value: fn(&Pack) -> Option<f64>, better: fn(f64, f64) -> bool| {
        packs
            .iter()
            .filter_map(|p| value(p).map(|v| (p.no, v)))
            .reduce(|a, b| if better(b.1, a.1) { b } else { a })
            .map(|(no, v)| Extreme {
                voltage: v,
                pack: Some(no),
                cell: None,
            })
    };
    let summary = |key: &str| {
        r.num(key).map(|v| Extreme {
            voltage: v,
            pack: None,
            cell: None,
        })
    };
    let max = pick(|a, b| a > b)
        .or_else(|| from_packs(|p| p.cell_max, |a, b| a > b))
        .or_else(|| summary("cell_voltage_max"));
    let min = pick(|a, b| a < b)
        .or_else(|| from_packs(|p| p.cell_min, |a, b| a < b))
        .or_else(|| summary("cell_voltage_min"));
    (max, min)
}

fn extreme_json(e: Option<Extreme>) -> Value {
    match e {
        Some(e) => json!({"voltage": format!("{:.3}", e.voltage), "pack": e.pack, "cell": e.cell}),
        None => Value::Null,
    }
}

fn battery_item(_: &DeviceListRow, r: Option<&Reading>, item: &mut Map<String, Value>) {
    let num = |k: &str| r.and_then(|r| r.num(k));
    item.insert("soc".into(), opt_text(num("soc")));
    item.insert("soh".into(), opt_text(num("soh")));
    item.insert("voltage".into(), opt_text(num("voltage")));
    item.insert("current".into(), opt_text(num("current")));
    item.insert("power".into(), opt_num(num("power")));
    item.insert("temp".into(), opt_text(num("temperature_max")));
    item.insert("capacity".into(), opt_text(num("capacity_full")));
    item.insert("cycles".into(), json!(num("cycles").map(|c| c as i64)));
    let packs = r.map_or(0, |r| packs_in(r).len());
    item.insert("packCount".into(), json!(packs));
}

/// The battery stacks (masters) the caller may see, paged, with their latest values.
#[utoipa::path(get, path = "/api/v1/batteries", tag = "batteries", params(DeviceListQuery), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {pageSize, pageNumber, total, infos:[{id, sn, alias, devName, status, online, model, parentSn (the inverter), versions, plantId, plantName, plant, gsn, gatewayVO, updateAt, createAt, soc, soh, voltage, current, temp, capacity (numeric strings), power (W, number), cycles, packCount (integers)}]}; 2")))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<DeviceListQuery>,
) -> ApiResult<Data<Value>> {
    me.actor.require(VIEW_KEY)?;
    let (limit, page) = q.paging();
    let sn = q.sn().map(|s| s.to_uppercase());
    let status = q.status();
    let gsn = q.filter(FAMILY).gateway_sn;
    let rows: Vec<DeviceListRow> = visible_masters(&app, &me, q.plant_id.filter(|p| *p > 0))
        .await?
        .into_iter()
        .filter(|d| status.is_none_or(|s| d.status == s))
        .filter(|d| sn.as_ref().is_none_or(|s| d.sn.to_uppercase().contains(s)))
        .filter(|d| gsn.is_none() || d.gateway_sn == gsn)
        .collect();
    let total = rows.len();
    let shown = rows
        .iter()
        .skip(((page - 1) * limit) as usize)
        .take(limit as usize);
    let infos = items(&app, &me, shown, battery_item).await?;
    Ok(Data(page_json(limit, page, total, infos)))
}

/// How many battery stacks the caller may see, per status.
#[utoipa::path(get, path = "/api/v1/batteries/count", tag = "batteries", security(("bearer" = [])),
    params(("plantId" = Option<i64>, Query, description = "only this plant's batteries")),
    responses((status = 200, description = "Envelope with {total, normal, offline, warning, fault, upgrading} (integers); 2")))]
pub async fn count(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<DeviceListQuery>,
) -> ApiResult<Data<Value>> {
    me.actor.require(VIEW_KEY)?;
    let rows = visible_masters(&app, &me, q.plant_id.filter(|p| *p > 0)).await?;
    Ok(Data(counts_json(&counts(&rows))))
}

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

/// The packs of a battery stack: those in the master's report, then packs that report on
/// their own (battery devices whose parent is this master).
#[utoipa::path(get, path = "/api/v1/batteries/{id}/slave", tag = "batteries", params(("id" = String, Path, description = "the master's id or SN")), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {total, infos:[{no, sn, status, source (pack|device), soc, soh, voltage, current, temp, cellVoltMax, cellVoltMin (numeric strings or null), cycles (integer or null)}]}; 600")))]
pub async fn slaves(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<Value>> {
    me.actor.require(VIEW_KEY)?;
    let d = device(&app, &me, &id, FAMILY).await?;
    let r = readings::latest(&app, d.id).await?.unwrap_or_default();
    let packs = packs_in(&r);
    let mut infos: Vec<Value> = packs
        .iter()
        .map(|p| pack_json(p, d.status, "pack"))
        .collect();
    let listed: HashSet<&str> = packs.iter().map(|p| p.sn.as_str()).collect();
    let children = packs_registered(&app, &me, &d).await?;
    let mut no = packs.iter().map(|p| p.no).max().unwrap_or(0);
    for c in children
        .iter()
        .rev()
        .filter(|c| !listed.contains(c.sn.as_str()))
    {
        no += 1;
        let latest = readings::latest(&app, c.id).await?;
        infos.push(pack_json(
            &pack_device(no, c, latest.as_ref()),
            c.status,
            "device",
        ));
    }
    Ok(Data(json!({"total": infos.len(), "infos": infos})))
}

/// Removes a battery stack and the packs registered under it (`battery.delete`, on a plant
/// the caller owns or manages). Their history stays.
#[utoipa::path(post, path = "/api/v1/battery/{id}/delete", tag = "batteries", params(("id" = String, Path, description = "id or SN")), security(("bearer" = [])),
    responses((status = 200, description = "Envelope; 2, 600")))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Done> {
    me.actor.require(VIEW_KEY)?;
    let d = device(&app, &me, &id, FAMILY).await?;
    require_device_write(&app, &me, &d, DELETE_KEY).await?;
    let children = packs_registered(&app, &me, &d).await?;
    for c in &children {
        app.store.delete_device(c.id).await?;
    }
    app.store.delete_device(d.id).await?;
    Ok(Done)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(json: &str) -> Reading {
        Reading::from_sample(1, json)
    }

    fn row(sn: &str, parent: Option<&str>) -> DeviceListRow {
        DeviceListRow {
            id: 1,
            sn: sn.into(),
            gateway_id: None,
            plant_id: None,
            family: FAMILY.into(),
            type_code: 0,
            protocol: String::new(),
            alias: String::new(),
            model: String::new(),
            rated_power: 0.0,
            versions: "{}".into(),
            parent_sn: parent.map(String::from),
            status: 1,
            online: true,
            last_seen: None,
            created_at: 0,
            updated_at: 0,
            plant_name: None,
            plant_type: None,
            plant_owner: None,
            gateway_sn: None,
            gateway_online: None,
            gateway_comm_type: None,
        }
    }

    #[test]
    fn masters_are_batteries_whose_parent_is_not_a_battery() {
        let all = vec![
            row("BAT1", Some("INV1")),
            row("BAT1-P2", Some("BAT1")),
            row("BAT2", None),
        ];
        let sns: Vec<String> = masters(all).into_iter().map(|d| d.sn).collect();
        assert_eq!(sns, ["BAT1", "BAT2"]);
    }

    #[test]
    fn packs_follow_the_declared_count_and_skip_empty_slots() {
        let r = reading(
            r#"{"pack_count":2,"pack1_serial_number":"B-P1","pack1_soc":80,"pack1_cell_voltage_max":3.31,
                "pack2_soc":79,"pack3_serial_number":"stale","pack3_soc":1}"#,
        );
        let packs = packs_in(&r);
        assert_eq!(packs.len(), 2);
        assert_eq!((packs[0].no, packs[0].sn.as_str()), (1, "B-P1"));
        assert_eq!((packs[1].no, packs[1].soc), (2, Some(79.0)));
        let undeclared = reading(r#"{"pack1_soc":50,"pack3_voltage":52.1}"#);
        let nos: Vec<u32> = packs_in(&undeclared).iter().map(|p| p.no).collect();
        assert_eq!(nos, [1, 3]);
    }

    #[test]
    fn extremes_come_from_cells_then_packs_then_the_summary() {
        let with_cells = reading(
            r#"{"pack1_cell1_voltage":3.301,"pack1_cell2_voltage":3.352,"pack2_cell1_voltage":3.288,
                "cell_voltage_max":3.4}"#,
        );
        let cells = cells_in(&with_cells);
        assert_eq!(cells.len(), 3);
        let (max, min) = extremes(&with_cells, &[], &cells);
        assert_eq!(
            max,
            Some(Extreme {
                voltage: 3.352,
                pack: Some(1),
                cell: Some(2)
            })
        );
        assert_eq!((min.unwrap().pack, min.unwrap().cell), (Some(2), Some(1)));

        let by_pack = reading(
            r#"{"pack_count":2,"pack1_cell_voltage_max":3.31,"pack1_cell_voltage_min":3.29,
                "pack2_cell_voltage_max":3.33,"pack2_cell_voltage_min":3.27}"#,
        );
        let packs = packs_in(&by_pack);
        let (max, min) = extremes(&by_pack, &packs, &[]);
        assert_eq!((max.unwrap().voltage, max.unwrap().pack), (3.33, Some(2)));
        assert_eq!((min.unwrap().voltage, min.unwrap().pack), (3.27, Some(2)));
        assert_eq!(max.unwrap().cell, None);

        let summary = reading(r#"{"cell_voltage_max":3.4,"cell_voltage_min":3.2}"#);
        let (max, min) = extremes(&summary, &[], &[]);
        assert_eq!((max.unwrap().voltage, max.unwrap().pack), (3.4, None));
        assert_eq!(min.unwrap().voltage, 3.2);
        assert_eq!(extremes(&reading("{}"), &[], &[]), (None, None));
    }

    #[test]
    fn cells_carry_their_temperature_when_the_bms_reports_one() {
        let r = reading(
            r#"{"cell1_voltage":3.3,"cell1_temperature":24.5,"cell2_voltage":3.31,
                "pack2_cell1_voltage":3.29,"pack2_cell1_temp":26,"pack2_cell2_temperature":27}"#,
        );
        let cells = cells_in(&r);
        let temps: Vec<(Option<u32>, u32, Option<f64>)> =
            cells.iter().map(|c| (c.pack, c.no, c.temp)).collect();
        // A temperature without a voltage is no cell of the grid.
        assert_eq!(
            temps,
            [
                (None, 1, Some(24.5)),
                (None, 2, None),
                (Some(2), 1, Some(26.0))
            ]
        );
        assert_eq!(
            cell_json(&cells[0]),
            json!({"pack": null, "no": 1, "voltage": "3.300", "temp": "24.5"})
        );
        assert!(cell_json(&cells[1])["temp"].is_null());
    }

    #[test]
    fn counts_add_up_per_status() {
        let mut a = row("A00001", None);
        a.status = 0;
        let b = row("B00001", None);
        let c = counts(&[a, b]);
        assert_eq!((c.total, c.offline, c.normal), (2, 1, 1));
    }
}
