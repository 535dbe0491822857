//! An inverter's values now, per port: PV input (per MPPT), AC output (per phase), grid,
//! load, battery, EPS, meter and generator. Field names and types follow docs/api-conventions.md;
//! a value the inverter does not report is `null` (except where clients refuse null). Every
//! answer says when its values were taken (`updateAt`, plant-local) and whether they are past
//! the inverter's offline bound (`stale`: the last known values, not live ones).

use axum::extract::{Path, State};

use super::{
    Inverter,
    list::figures,
    values, visible,
    wire::{
        BatteryRealtime, EpsRealtime, GenRealtime, GridRealtime, InputRealtime, LoadRealtime,
        OutputRealtime, PvInput, PvIvRealtime, SecondBank,
    },
};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    readings::{self, Reading, local_time, num_text, round2},
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
            let points: Vec<(i64, f64)> = readings
                .iter()
                .filter_map(|r| values::input_power(r, *n).map(|p| (r.ts, p)))
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
) -> ApiResult<Vec<PvInput>> {
    let Some(r) = r else {
        return Ok(Vec::new());
    };
    let inputs = values::pv_inputs(r);
    let today = inputs_today(app, inv, &inputs, etoday).await?;
    Ok(inputs
        .iter()
        .zip(today)
        .map(|(n, kwh)| PvInput {
            id: *n as i64,
            pv_no: *n as i64,
            vpv: r.num(&format!("pv{n}_voltage")).map(num_text),
            ipv: r.num(&format!("pv{n}_current")).map(num_text),
            ppv: values::input_power(r, *n).map(num_text),
            today_pv: num_text(kwh),
            sn: inv.row.sn.clone(),
            time: local_time(r.ts, inv.tz),
        })
        .collect())
}

/// PV input now: `etoday`, `etotal` (kWh), `pac` (W) and `pvIV[]`. `mpptIV` stays empty: the
/// protocols report one value set per MPPT, not per string inside an MPPT.
#[utoipa::path(get, path = "/api/v1/inverter/{sn}/realtime/input", tag = "inverters", params(("sn" = String, Path)),
    security(("bearer" = [])), responses((status = 200, description = "PV input now; 600", body = Envelope<InputRealtime>)))]
pub async fn input(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<InputRealtime>> {
    let inv = visible(&app, &me, &sn).await?;
    let f = figures(&app, &inv).await?;
    let r = f.reading.as_ref();
    Ok(Data(InputRealtime {
        etoday: f.etoday,
        etotal: f.etotal,
        pac: r.and_then(values::pv_power).map_or(0.0, f64::round),
        grid_tip_power: None,
        pv_iv: pv_iv(&app, &inv, r, f.etoday).await?,
        mppt_iv: Vec::new(),
        update_at: r.map(|r| local_time(r.ts, inv.tz)),
        stale: inv.stale(r),
    }))
}

/// The PV inputs alone, as the detail screen polls them.
#[utoipa::path(get, path = "/api/v1/inverter/{sn}/pvIVRealtime", tag = "inverters", params(("sn" = String, Path)),
    security(("bearer" = [])), responses((status = 200, description = "The PV inputs now; 600", body = Envelope<PvIvRealtime>)))]
pub async fn pv_iv_realtime(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<PvIvRealtime>> {
    let inv = visible(&app, &me, &sn).await?;
    let f = figures(&app, &inv).await?;
    let r = f.reading;
    Ok(Data(PvIvRealtime {
        pv_iv: pv_iv(&app, &inv, r.as_ref(), f.etoday).await?,
        mppt_iv: Vec::new(),
        update_at: r.as_ref().map(|r| local_time(r.ts, inv.tz)),
        stale: inv.stale(r.as_ref()),
    }))
}

/// AC output now: `vip[]` per phase, `pInv` and `pac` (W), `fac` (Hz), and the temperatures
/// (°C) the output tab shows.
#[utoipa::path(get, path = "/api/v1/inverter/{sn}/realtime/output", tag = "inverters", params(("sn" = String, Path)),
    security(("bearer" = [])), responses((status = 200, description = "AC output now; 600", body = Envelope<OutputRealtime>)))]
pub async fn output(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<OutputRealtime>> {
    let inv = visible(&app, &me, &sn).await?;
    let r = inv.latest(&app).await?;
    let r = r.as_ref();
    let p = r
        .and_then(|r| values::port_power(r, values::OUTPUT))
        .map(round2);
    Ok(Data(OutputRealtime {
        vip: r
            .map(|r| values::vip(r, values::OUTPUT))
            .unwrap_or_default(),
        p_inv: p,
        pac: p,
        fac: values::number(r, "inverter_frequency"),
        dc_temp: values::number(r, "dc_temperature"),
        igbt_temp: values::number(r, "inverter_temperature"),
        update_at: r.map(|r| local_time(r.ts, inv.tz)),
        stale: inv.stale(r),
    }))
}

/// Battery status on the wire: 0 idle, 1 charging, 2 discharging (Deye: power > 0 discharges).
fn battery_status(power: Option<f64>) -> Option<i64> {
    match power {
        None => None,
        Some(p) if p > 1.0 => Some(2),
        Some(p) if p < -1.0 => Some(1),
        Some(_) => Some(0),
    }
}

async fn grid_or_meter(
    app: &AppState,
    inv: &Inverter,
    r: Option<&Reading>,
    ac: values::Ac,
) -> ApiResult<GridRealtime> {
    let [today, month, year, total] = inv.energy_spans(app).await?;
    let ct: Vec<f64> = (1..=3)
        .filter_map(|l| r.and_then(|r| r.num(&format!("grid_ct_power_l{l}"))))
        .map(round2)
        .collect();
    let ct = if ct.is_empty() {
        r.and_then(|r| r.num("grid_ct_power"))
            .map(|p| vec![round2(p)])
            .unwrap_or_default()
    } else {
        ct
    };
    Ok(GridRealtime {
        vip: r.map(|r| values::vip(r, ac)).unwrap_or_default(),
        // Whole W and var: typed clients read them as ints.
        pac: r.and_then(|r| values::port_power(r, ac)).map(f64::round),
        // Reactive power and power factor are not in the shipped protocols.
        qac: values::number(r, "grid_reactive_power").map(f64::round),
        fac: values::number(r, "grid_frequency"),
        pf: values::number(r, "grid_power_factor"),
        status: r.and_then(|r| r.num("grid_connected")).map(|v| v as i64),
        // The relay closes when the inverter is connected to the grid.
        ac_realy_status: r
            .and_then(|r| r.num("grid_connected"))
            .map(|v| i64::from(v != 0.0)),
        etoday_from: values::kwh_text(today.kwh("grid_import")),
        etoday_to: values::kwh_text(today.kwh("grid_export")),
        emonth_from: values::kwh_text(month.kwh("grid_import")),
        emonth_to: values::kwh_text(month.kwh("grid_export")),
        eyear_from: values::kwh_text(year.kwh("grid_import")),
        eyear_to: values::kwh_text(year.kwh("grid_export")),
        etotal_from: values::kwh_text(total.kwh("grid_import")),
        etotal_to: values::kwh_text(total.kwh("grid_export")),
        limiter_power_arr: ct,
        limiter_total_power: values::number(r, "grid_ct_power"),
        update_at: r.map(|r| local_time(r.ts, inv.tz)),
        stale: inv.stale(r),
    })
}

async fn load(app: &AppState, inv: &Inverter, r: Option<&Reading>) -> ApiResult<LoadRealtime> {
    let [today, _, _, total] = inv.energy_spans(app).await?;
    let ups = |l: usize| {
        let phased = r.and_then(|r| r.num(&format!("load_power_l{l}")));
        // A single-phase model reports its one line as the total.
        let single = if l == 1 && r.is_some_and(|r| values::phases(r, values::LOAD).is_empty()) {
            r.and_then(|r| r.num("load_power"))
        } else {
            None
        };
        phased.or(single).map(round2)
    };
    Ok(LoadRealtime {
        total_used: total.kwh("load"),
        daily_used: today.kwh("load"),
        total_power: r
            .and_then(|r| values::port_power(r, values::LOAD))
            .map(round2),
        // Smart-load (generator port) state is not in the shipped protocols.
        smart_load_status: values::number(r, "smart_load_status"),
        load_fac: values::number(r, "load_frequency"),
        ups_power_l1: ups(1),
        ups_power_l2: ups(2),
        ups_power_l3: ups(3),
        ups_power_total: r
            .and_then(|r| values::port_power(r, values::LOAD))
            .map(round2),
        vip: r.map(|r| values::vip(r, values::LOAD)).unwrap_or_default(),
        update_at: r.map(|r| local_time(r.ts, inv.tz)),
        stale: inv.stale(r),
    })
}

async fn battery(
    app: &AppState,
    inv: &Inverter,
    r: Option<&Reading>,
) -> ApiResult<BatteryRealtime> {
    let [today, month, year, total] = inv.energy_spans(app).await?;
    let has = |k: &str| r.and_then(|r| r.num(k)).is_some();
    let count = i64::from(has("battery_soc") || has("battery_voltage"))
        + i64::from(has("battery2_soc") || has("battery2_voltage"));
    // Clients parse these three without a null check: an inverter that reports no battery
    // answers zeros.
    let zero = |k: &str| r.and_then(|r| r.num(k)).unwrap_or(0.0);
    let power = zero("battery_power");
    Ok(BatteryRealtime {
        etoday_chg: values::kwh_text(today.kwh("charge")),
        etoday_dischg: values::kwh_text(today.kwh("discharge")),
        emonth_chg: values::kwh_text(month.kwh("charge")),
        emonth_dischg: values::kwh_text(month.kwh("discharge")),
        eyear_chg: values::kwh_text(year.kwh("charge")),
        eyear_dischg: values::kwh_text(year.kwh("discharge")),
        etotal_chg: values::kwh_text(total.kwh("charge")),
        etotal_dischg: values::kwh_text(total.kwh("discharge")),
        // Battery chemistry and capacity live in the BMS (the battery screens), not here.
        kind: None,
        power: power.round(),
        capacity: None,
        correct_cap: None,
        current: num_text(zero("battery_current")),
        voltage: num_text(zero("battery_voltage")),
        temp: values::text(r, "battery_temperature"),
        soc: values::text(r, "battery_soc"),
        charge_volt: values::text(r, "bms_charge_voltage"),
        discharge_volt: values::text(r, "bms_discharge_voltage"),
        charge_current_limit: values::text(r, "bms_charge_current_limit"),
        discharge_current_limit: values::text(r, "bms_discharge_current_limit"),
        max_charge_current_limit: values::text(r, "max_charge_current_limit"),
        max_discharge_current_limit: values::text(r, "max_discharge_current_limit"),
        status: battery_status(r.and_then(|r| r.num("battery_power"))),
        battery_soc1: values::text(r, "battery_soc"),
        battery_current1: values::text(r, "battery_current"),
        battery_volt1: values::text(r, "battery_voltage"),
        battery_power1: values::number(r, "battery_power"),
        battery_temp1: values::text(r, "battery_temperature"),
        battery_status2: battery_status(r.and_then(|r| r.num("battery2_power"))),
        battery_soc2: values::text(r, "battery2_soc"),
        battery_current2: values::text(r, "battery2_current"),
        battery_volt2: values::text(r, "battery2_voltage"),
        battery_power2: values::number(r, "battery2_power"),
        battery_temp2: values::text(r, "battery2_temperature"),
        number_of_batteries: count,
        batt1_factory: None,
        batt2_factory: None,
        time: r.map(|r| local_time(r.ts, inv.tz)),
        bms_soc: values::number(r, "bms_soc"),
        bms_volt: values::number(r, "bms_voltage"),
        bms_current: values::number(r, "bms_current"),
        bms_temp: values::number(r, "bms_temperature"),
        bms1_version1: None,
        bms1_version2: None,
        bms2_version1: None,
        bms2_version2: None,
        bank2: SecondBank {
            current2: values::text(r, "battery2_current"),
            voltage2: values::text(r, "battery2_voltage"),
            temp2: values::text(r, "battery2_temperature"),
            soc2: values::text(r, "battery2_soc"),
            ..SecondBank::default()
        },
        update_at: r.map(|r| local_time(r.ts, inv.tz)),
        stale: inv.stale(r),
    })
}

/// The backup (EPS) port: Deye measures it with its `load_*` registers.
fn eps(inv: &Inverter, r: Option<&Reading>) -> EpsRealtime {
    EpsRealtime {
        vip: r.map(|r| values::vip(r, values::LOAD)).unwrap_or_default(),
        pac: r
            .and_then(|r| values::port_power(r, values::LOAD))
            .map(round2),
        fac: values::number(r, "load_frequency"),
        update_at: r.map(|r| local_time(r.ts, inv.tz)),
        stale: inv.stale(r),
    }
}

/// The grid port's values now.
pub async fn grid(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<GridRealtime>> {
    let inv = visible(&app, &me, &sn).await?;
    let r = inv.latest(&app).await?;
    Ok(Data(
        grid_or_meter(&app, &inv, r.as_ref(), values::GRID).await?,
    ))
}

/// The meter's (external CT's) values now.
pub async fn meter(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<GridRealtime>> {
    let inv = visible(&app, &me, &sn).await?;
    let r = inv.latest(&app).await?;
    Ok(Data(
        grid_or_meter(&app, &inv, r.as_ref(), values::METER).await?,
    ))
}

/// The load port's values now.
pub async fn load_now(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<LoadRealtime>> {
    let inv = visible(&app, &me, &sn).await?;
    let r = inv.latest(&app).await?;
    Ok(Data(load(&app, &inv, r.as_ref()).await?))
}

/// The battery's values now.
pub async fn battery_now(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<BatteryRealtime>> {
    let inv = visible(&app, &me, &sn).await?;
    let r = inv.latest(&app).await?;
    Ok(Data(battery(&app, &inv, r.as_ref()).await?))
}

/// The backup (EPS) port's values now.
pub async fn eps_now(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<EpsRealtime>> {
    let inv = visible(&app, &me, &sn).await?;
    let r = inv.latest(&app).await?;
    Ok(Data(eps(&inv, r.as_ref())))
}

/// The generator port now: energy today and in total (kWh), power (W), frequency, `vip[]`.
#[utoipa::path(get, path = "/api/v1/inverter/gen/{sn}/realtime", tag = "inverters", params(("sn" = String, Path)),
    security(("bearer" = [])), responses((status = 200, description = "The generator port now; 600", body = Envelope<GenRealtime>)))]
pub async fn gen_realtime(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<GenRealtime>> {
    let inv = visible(&app, &me, &sn).await?;
    let r = inv.latest(&app).await?;
    let r = r.as_ref();
    let [today, _, _, total] = inv.energy_spans(&app).await?;
    let gen_ac = values::Ac {
        volt: "gen_voltage",
        current: None,
        power: "gen_power",
    };
    Ok(Data(GenRealtime {
        gen_total: total.kwh("generator"),
        gen_daily: today.kwh("generator"),
        total_power: values::number(r, "gen_power"),
        gen_fac: values::number(r, "gen_frequency"),
        vip: r.map(|r| values::vip(r, gen_ac)).unwrap_or_default(),
        gen_on: r.and_then(|r| r.num("gen_relay_closed")).map(|v| v != 0.0),
        update_at: r.map(|r| local_time(r.ts, inv.tz)),
        stale: inv.stale(r),
    }))
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
        assert_eq!(battery_status(Some(500.0)), Some(2));
        assert_eq!(battery_status(Some(-500.0)), Some(1));
        assert_eq!(battery_status(Some(0.0)), Some(0));
        assert_eq!(battery_status(None), None);
    }
}
