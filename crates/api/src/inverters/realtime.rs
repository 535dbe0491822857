//! An inverter's values now, per port: PV input (per MPPT), AC output (per phase), grid,
//! load, battery, EPS, meter and generator. Field names and types follow docs/api-conventions.md;
//! a value the inverter does not report is `null` (except where clients refuse null). Every
//! answer says when its values were taken (`updateAt`, plant-local) and whether they are past
//! the inverter's offline bound (`stale`: the last known values, not live ones).

use axum::extract::{Path, State};
use serde_json::{Value, json};

use super::{Inverter, Port, list::figures, values, visible};
use crate::{
    AppState,
    envelope::{ApiResult, Data},
    readings::{self, Reading, local_time, num_text, opt_text, round2},
    session::CurrentUser,
};

/// How much each PV input made of today's PV power, in W·h-like units (trapezoids between
/// today's reports, oldest first). Gaps between reports count: an hour between two reports
/// still tells how the inputs shared the sun. A single report weighs its
/// power now.
fn input_weight(points: &[(i64, f64)]) -> f64 {
    match points {
        [] => 0.0,
        [(_, p)] => p.max(0.0),
        _ => points
            .windows(2)
            .map(|w| (w[0].1 + w[1].1).max(0.0) / 2.0 * (w[1].0 - w[0].0) as f64)
            .sum(),
    }
}

/// Splits the inverter's PV energy of today (`etoday`, kWh, from its own counter) over its
/// inputs by their weights. Inverters count PV energy in total, not per input, so this is the
/// one way the inputs' figures add up to the inverter's; with no weight at all (no power yet)
/// they share it evenly.
pub fn split_today(etoday: f64, weights: &[f64]) -> Vec<f64> {
    let total: f64 = weights.iter().sum();
    if weights.is_empty() || etoday <= 0.0 {
        return vec![0.0; weights.len()];
    }
    if total <= 0.0 {
        return vec![etoday / weights.len() as f64; weights.len()];
    }
    weights.iter().map(|w| etoday * w / total).collect()
}

/// Each PV input's energy today: the inverter's PV energy today split by what each input
/// made of it ([`split_today`]).
async fn inputs_today(
    app: &AppState,
    inv: &Inverter,
    inputs: &[usize],
    etoday: f64,
) -> ApiResult<Vec<f64>> {
    if inputs.is_empty() {
        return Ok(Vec::new());
    }
    let (from, to) = readings::day_bounds(inv.tz, readings::today(inv.tz));
    let samples = readings::day_samples(app, inv.row.id, from, to).await?;
    let readings: Vec<Reading> = samples
        .iter()
        .map(|s| Reading::from_sample(s.ts, &s.payload))
        .collect();
    let weights: Vec<f64> = inputs
        .iter()
        .map(|n| {
            let key = format!("pv{n}_power");
            let points: Vec<(i64, f64)> = readings
                .iter()
                .filter_map(|r| r.num(&key).map(|p| (r.ts, p)))
                .collect();
            input_weight(&points)
        })
        .collect();
    Ok(split_today(etoday, &weights))
}

/// `pvIV[]`: one item per PV input (each Deye input is its own MPPT), values as strings;
/// `todayPv` is the input's part of the inverter's PV energy today (`etoday`, kWh).
async fn pv_iv(
    app: &AppState,
    inv: &Inverter,
    r: Option<&Reading>,
    etoday: f64,
) -> ApiResult<Vec<Value>> {
    let Some(r) = r else {
        return Ok(Vec::new());
    };
    let inputs = values::pv_inputs(r);
    let today = inputs_today(app, inv, &inputs, etoday).await?;
    Ok(inputs
        .iter()
        .zip(today)
        .map(|(n, kwh)| {
            json!({
                "id": n, "pvNo": n,
                "vpv": opt_text(r.num(&format!("pv{n}_voltage"))),
                "ipv": opt_text(r.num(&format!("pv{n}_current"))),
                "ppv": opt_text(r.num(&format!("pv{n}_power"))),
                "todayPv": num_text(kwh),
                "sn": inv.row.sn, "time": local_time(r.ts, inv.tz),
            })
        })
        .collect())
}

/// PV input now: `etoday`, `etotal` (kWh), `pac` (W) and `pvIV[]`. `mpptIV` stays empty: the
/// protocols report one value set per MPPT, not per string inside an MPPT.
#[utoipa::path(get, path = "/api/v1/inverter/{sn}/realtime/input", tag = "inverters", params(("sn" = String, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Envelope with {etoday, etotal, pac, pvIV:[{id, pvNo, vpv, ipv, ppv, todayPv, sn, time}], mpptIV:[]}; 600")))]
pub async fn input(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<Value>> {
    let inv = visible(&app, &me, &sn).await?;
    let f = figures(&app, &inv).await?;
    let r = f.reading.as_ref();
    Ok(Data(json!({
        "etoday": f.etoday, "etotal": f.etotal,
        "pac": r.and_then(values::pv_power).map_or(0.0, round2),
        "pvIV": pv_iv(&app, &inv, r, f.etoday).await?, "mpptIV": [],
        "updateAt": r.map(|r| local_time(r.ts, inv.tz)), "stale": inv.stale(r),
    })))
}

/// The PV inputs alone, as the detail screen polls them.
#[utoipa::path(get, path = "/api/v1/inverter/{sn}/pvIVRealtime", tag = "inverters", params(("sn" = String, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Envelope with {pvIV:[...], mpptIV:[], updateAt}; 600")))]
pub async fn pv_iv_realtime(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<Value>> {
    let inv = visible(&app, &me, &sn).await?;
    let f = figures(&app, &inv).await?;
    let r = f.reading;
    Ok(Data(json!({
        "pvIV": pv_iv(&app, &inv, r.as_ref(), f.etoday).await?, "mpptIV": [],
        "updateAt": r.as_ref().map(|r| local_time(r.ts, inv.tz)), "stale": inv.stale(r.as_ref()),
    })))
}

/// AC output now: `vip[]` per phase, `pInv` and `pac` (W), `fac` (Hz), and the temperatures
/// (°C) the output tab shows.
#[utoipa::path(get, path = "/api/v1/inverter/{sn}/realtime/output", tag = "inverters", params(("sn" = String, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Envelope with {vip:[{volt, current, power}], pInv, pac, fac, dcTemp, igbtTemp, updateAt}; 600")))]
pub async fn output(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<Value>> {
    let inv = visible(&app, &me, &sn).await?;
    let r = inv.latest(&app).await?;
    let r = r.as_ref();
    let p = r
        .and_then(|r| values::port_power(r, values::OUTPUT))
        .map(round2);
    Ok(Data(json!({
        "vip": r.map(|r| values::vip(r, values::OUTPUT)).unwrap_or_default(),
        "pInv": p, "pac": p,
        "fac": values::number(r, "inverter_frequency"),
        "dcTemp": values::number(r, "dc_temperature"),
        "igbtTemp": values::number(r, "inverter_temperature"),
        "updateAt": r.map(|r| local_time(r.ts, inv.tz)), "stale": inv.stale(r),
    })))
}

/// Battery status on the wire: 0 idle, 1 charging, 2 discharging (Deye: power > 0 discharges).
fn battery_status(power: Option<f64>) -> Value {
    match power {
        None => Value::Null,
        Some(p) if p > 1.0 => json!(2),
        Some(p) if p < -1.0 => json!(1),
        Some(_) => json!(0),
    }
}

async fn grid_or_meter(
    app: &AppState,
    inv: &Inverter,
    r: Option<&Reading>,
    ac: values::Ac,
) -> ApiResult<Value> {
    let [today, month, year, total] = inv.energy_spans(app).await?;
    let ct: Vec<Value> = (1..=3)
        .filter_map(|l| r.and_then(|r| r.num(&format!("grid_ct_power_l{l}"))))
        .map(|p| json!(round2(p)))
        .collect();
    let ct = if ct.is_empty() {
        r.and_then(|r| r.num("grid_ct_power"))
            .map(|p| vec![json!(round2(p))])
            .unwrap_or_default()
    } else {
        ct
    };
    Ok(json!({
        "vip": r.map(|r| values::vip(r, ac)).unwrap_or_default(),
        "pac": r.and_then(|r| values::port_power(r, ac)).map(round2),
        // Reactive power and power factor are not in the shipped protocols.
        "qac": values::number(r, "grid_reactive_power"),
        "fac": values::number(r, "grid_frequency"),
        "pf": values::number(r, "grid_power_factor"),
        "status": r.and_then(|r| r.num("grid_connected")).map(|v| v as i64),
        "etodayFrom": values::kwh_text(today.kwh("grid_import")),
        "etodayTo": values::kwh_text(today.kwh("grid_export")),
        "emonthFrom": values::kwh_text(month.kwh("grid_import")),
        "emonthTo": values::kwh_text(month.kwh("grid_export")),
        "eyearFrom": values::kwh_text(year.kwh("grid_import")),
        "eyearTo": values::kwh_text(year.kwh("grid_export")),
        "etotalFrom": values::kwh_text(total.kwh("grid_import")),
        "etotalTo": values::kwh_text(total.kwh("grid_export")),
        "limiterPowerArr": ct,
        "limiterTotalPower": values::number(r, "grid_ct_power"),
        "updateAt": r.map(|r| local_time(r.ts, inv.tz)), "stale": inv.stale(r),
    }))
}

async fn load(app: &AppState, inv: &Inverter, r: Option<&Reading>) -> ApiResult<Value> {
    let [today, _, _, total] = inv.energy_spans(app).await?;
    let ups = |l: usize| {
        let phased = r.and_then(|r| r.num(&format!("load_power_l{l}")));
        // A single-phase model reports its one line as the total.
        let single = if l == 1 && r.is_some_and(|r| values::phases(r, values::LOAD).is_empty()) {
            r.and_then(|r| r.num("load_power"))
        } else {
            None
        };
        phased.or(single).map_or(Value::Null, |p| json!(round2(p)))
    };
    Ok(json!({
        "totalUsed": total.kwh("load"), "dailyUsed": today.kwh("load"),
        "totalPower": r.and_then(|r| values::port_power(r, values::LOAD)).map(round2),
        // Smart-load (generator port) state is not in the shipped protocols.
        "smartLoadStatus": values::number(r, "smart_load_status"),
        "loadFac": values::number(r, "load_frequency"),
        "upsPowerL1": ups(1), "upsPowerL2": ups(2), "upsPowerL3": ups(3),
        "upsPowerTotal": r.and_then(|r| values::port_power(r, values::LOAD)).map(round2),
        "vip": r.map(|r| values::vip(r, values::LOAD)).unwrap_or_default(),
        "updateAt": r.map(|r| local_time(r.ts, inv.tz)), "stale": inv.stale(r),
    }))
}

async fn battery(app: &AppState, inv: &Inverter, r: Option<&Reading>) -> ApiResult<Value> {
    let [today, month, year, total] = inv.energy_spans(app).await?;
    let has = |k: &str| r.and_then(|r| r.num(k)).is_some();
    let count = i64::from(has("battery_soc") || has("battery_voltage"))
        + i64::from(has("battery2_soc") || has("battery2_voltage"));
    // Clients parse these three without a null check: an inverter that reports no battery
    // answers zeros.
    let zero = |k: &str| r.and_then(|r| r.num(k)).unwrap_or(0.0);
    let power = zero("battery_power");
    Ok(json!({
        "etodayChg": values::kwh_text(today.kwh("charge")),
        "etodayDischg": values::kwh_text(today.kwh("discharge")),
        "emonthChg": values::kwh_text(month.kwh("charge")),
        "emonthDischg": values::kwh_text(month.kwh("discharge")),
        "eyearChg": values::kwh_text(year.kwh("charge")),
        "eyearDischg": values::kwh_text(year.kwh("discharge")),
        "etotalChg": values::kwh_text(total.kwh("charge")),
        "etotalDischg": values::kwh_text(total.kwh("discharge")),
        // Battery chemistry and capacity live in the BMS (the battery screens), not here.
        "type": Value::Null,
        "power": round2(power),
        "capacity": Value::Null, "correctCap": Value::Null,
        "current": num_text(zero("battery_current")),
        "voltage": num_text(zero("battery_voltage")),
        "temp": values::text(r, "battery_temperature"),
        "soc": values::text(r, "battery_soc"),
        "chargeVolt": values::text(r, "bms_charge_voltage"),
        "dischargeVolt": values::text(r, "bms_discharge_voltage"),
        "chargeCurrentLimit": values::text(r, "bms_charge_current_limit"),
        "dischargeCurrentLimit": values::text(r, "bms_discharge_current_limit"),
        "maxChargeCurrentLimit": values::text(r, "max_charge_current_limit"),
        "maxDischargeCurrentLimit": values::text(r, "max_discharge_current_limit"),
        "status": battery_status(r.and_then(|r| r.num("battery_power"))),
        "batterySoc1": values::text(r, "battery_soc"),
        "batteryCurrent1": values::text(r, "battery_current"),
        "batteryVolt1": values::text(r, "battery_voltage"),
        "batteryPower1": values::number(r, "battery_power"),
        "batteryTemp1": values::text(r, "battery_temperature"),
        "batteryStatus2": battery_status(r.and_then(|r| r.num("battery2_power"))),
        "batterySoc2": values::text(r, "battery2_soc"),
        "batteryCurrent2": values::text(r, "battery2_current"),
        "batteryVolt2": values::text(r, "battery2_voltage"),
        "batteryPower2": values::number(r, "battery2_power"),
        "batteryTemp2": values::text(r, "battery2_temperature"),
        "numberOfBatteries": count,
        "batt1Factory": Value::Null, "batt2Factory": Value::Null,
        "updateAt": r.map(|r| local_time(r.ts, inv.tz)), "stale": inv.stale(r),
    }))
}

/// The backup (EPS) port: Deye measures it with its `load_*` registers.
fn eps(inv: &Inverter, r: Option<&Reading>) -> Value {
    json!({
        "vip": r.map(|r| values::vip(r, values::LOAD)).unwrap_or_default(),
        "pac": r.and_then(|r| values::port_power(r, values::LOAD)).map(round2),
        "fac": values::number(r, "load_frequency"),
        "updateAt": r.map(|r| local_time(r.ts, inv.tz)), "stale": inv.stale(r),
    })
}

/// One port's values now (grid, load, battery, EPS or meter).
#[utoipa::path(get, path = "/api/v1/inverter/{kind}/{sn}/realtime", tag = "inverters",
    params(("kind" = String, Path, description = "grid, load, battery, eps or meter"), ("sn" = String, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Envelope. grid/meter: {vip, pac, qac, fac, pf, status, etodayFrom, etodayTo, etotalFrom, etotalTo (numeric strings), limiterPowerArr, limiterTotalPower}; load: {totalUsed, dailyUsed, totalPower, smartLoadStatus, loadFac, upsPowerL1..3, upsPowerTotal, vip}; battery: every key of docs/api-conventions.md (power, current, voltage never null); eps: {vip, pac, fac}; 600")))]
pub async fn port(
    port: Port,
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<Value>> {
    let inv = visible(&app, &me, &sn).await?;
    let r = inv.latest(&app).await?;
    let r = r.as_ref();
    Ok(Data(match port {
        Port::Grid => grid_or_meter(&app, &inv, r, values::GRID).await?,
        Port::Meter => grid_or_meter(&app, &inv, r, values::METER).await?,
        Port::Load => load(&app, &inv, r).await?,
        Port::Battery => battery(&app, &inv, r).await?,
        Port::Eps => eps(&inv, r),
    }))
}

/// The generator port now: energy today and in total (kWh), power (W), frequency, `vip[]`.
#[utoipa::path(get, path = "/api/v1/inverter/gen/{sn}/realtime", tag = "inverters", params(("sn" = String, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Envelope with {genTotal, genDaily, totalPower, genFac, vip[], genOn}; 600")))]
pub async fn gen_realtime(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<Value>> {
    let inv = visible(&app, &me, &sn).await?;
    let r = inv.latest(&app).await?;
    let r = r.as_ref();
    let [today, _, _, total] = inv.energy_spans(&app).await?;
    let gen_ac = values::Ac {
        volt: "gen_voltage",
        current: None,
        power: "gen_power",
    };
    Ok(Data(json!({
        "genTotal": total.kwh("generator"), "genDaily": today.kwh("generator"),
        "totalPower": values::number(r, "gen_power"),
        "genFac": values::number(r, "gen_frequency"),
        "vip": r.map(|r| values::vip(r, gen_ac)).unwrap_or_default(),
        "genOn": r.and_then(|r| r.num("gen_relay_closed")).map(|v| v != 0.0),
        "updateAt": r.map(|r| local_time(r.ts, inv.tz)), "stale": inv.stale(r),
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_inputs_share_the_inverters_pv_energy_by_what_each_made() {
        let hour = 3_600_000;
        // Hourly reports (a gateway that uploads rarely): PV1 makes three times PV2's power.
        let pv1: Vec<(i64, f64)> = (0..5).map(|i| (i * hour, 3000.0)).collect();
        let pv2: Vec<(i64, f64)> = (0..5).map(|i| (i * hour, 1000.0)).collect();
        let weights = [input_weight(&pv1), input_weight(&pv2)];
        assert_eq!(split_today(32.4, &weights), vec![24.3, 8.1]);
        let sum: f64 = split_today(32.4, &weights).iter().sum();
        assert!(
            (sum - 32.4).abs() < 1e-9,
            "the inputs add up to the inverter"
        );
        // One report so far: its power now tells the shares.
        assert_eq!(
            split_today(
                2.0,
                &[input_weight(&[(0, 300.0)]), input_weight(&[(0, 100.0)])]
            ),
            vec![1.5, 0.5]
        );
        assert_eq!(split_today(3.0, &[0.0, 0.0, 0.0]), vec![1.0, 1.0, 1.0]);
        assert_eq!(split_today(0.0, &weights), vec![0.0, 0.0]);
        assert!(split_today(5.0, &[]).is_empty());
    }

    #[test]
    fn battery_status_follows_the_sign_of_power() {
        assert_eq!(battery_status(Some(500.0)), json!(2));
        assert_eq!(battery_status(Some(-500.0)), json!(1));
        assert_eq!(battery_status(Some(0.0)), json!(0));
        assert_eq!(battery_status(None), Value::Null);
    }
}
