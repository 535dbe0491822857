//! The live energy flow of a plant or of one inverter: one computation ([`compute`]) from the
//! devices' latest readings, one wire shape ([`Flow::answer`]) with the strict fields of
//! docs/api-conventions.md. Powers are magnitudes in W; the direction flags say which way they
//! flow. Readings past their device's offline bound ([`super::live`]) add nothing: the flow of a
//! silent plant is marked `stale`, not drawn from old numbers.

use super::{PlantCtx, live::Cycles, wire::FlowAnswer};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    plants::update_at,
    readings::{self, Reading},
    session::CurrentUser,
};
use axum::extract::{Path, State};
use chrono_tz::Tz;
use domain::{Code, DeviceFamily};

pub(crate) use service::{
    curves::battery_port,
    readings::{inverter_grid, pv_power},
};

/// One device's newest reading as the flow reads it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Source<'a> {
    pub family: DeviceFamily,
    pub reading: &'a Reading,
    /// Recent enough to describe now ([`super::live`]): a stale reading adds no power.
    pub fresh: bool,
    /// A BMS, or an inverter with a battery port (see [`battery_port`]).
    pub battery_port: bool,
}

/// Signed powers of a plant (or one inverter) at one moment.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Flow {
    pub pv: f64,
    /// Positive discharges the battery, negative charges it.
    pub battery: f64,
    /// Positive imports from the grid, negative exports.
    pub grid: f64,
    pub load: f64,
    pub generator: f64,
    /// Mean state of charge of the batteries, %.
    pub soc: Option<f64>,
    pub has_battery: bool,
    pub has_meter: bool,
    pub has_grid: bool,
    pub has_generator: bool,
    pub bms_fault: bool,
    /// When the newest reading was taken (ms), if any.
    pub time: Option<i64>,
    /// No reading is fresh: the powers are not known now (all read 0) and screens show the
    /// last data as stale.
    pub stale: bool,
}

fn add(total: &mut Option<f64>, v: Option<f64>) {
    if let Some(v) = v {
        *total = Some(total.unwrap_or(0.0) + v);
    }
}

/// Whether a source reports a battery: a BMS that reported, or a hybrid inverter reporting
/// battery values (a hybrid without a battery connected reports none).
fn reports_battery(s: &Source<'_>) -> bool {
    s.battery_port
        && (s.family == DeviceFamily::Battery
            || s.reading.num("battery_soc").is_some()
            || s.reading.num("battery_power").is_some())
}

/// The flow from the devices' latest readings. Inverters give PV, load, battery and
/// generator; a grid meter, when there is one, measures the grid connection better than an
/// inverter's CT and wins; a BMS fills in battery power and SOC when no inverter reports them.
/// Only fresh readings count, so an offline plant shows no flow; battery values count only
/// from devices with a battery port (`has_bms`: the plant has a BMS registered). Load not
/// reported is what the other flows leave (the balance of the node).
pub(crate) fn compute(sources: &[Source<'_>], has_meter: bool, has_bms: bool) -> Flow {
    let (mut pv, mut inv_battery, mut inv_grid, mut load, mut generator) =
        (None, None, None, None, None);
    let (mut meter_grid, mut bms_battery) = (None, None);
    let (mut socs, mut bms_socs) = (Vec::new(), Vec::new());
    let mut bms_fault = false;
    for s in sources.iter().filter(|s| s.fresh) {
        let r = s.reading;
        match s.family {
            DeviceFamily::Inverter => {
                add(&mut pv, pv_power(r));
                add(&mut inv_grid, inverter_grid(r));
                add(&mut load, r.num("load_power"));
                add(&mut generator, r.num("gen_power"));
                if s.battery_port {
                    add(&mut inv_battery, r.num("battery_power"));
                    socs.extend(r.num("battery_soc"));
                    bms_fault |= r.num("fault_bms_comm").is_some_and(|v| v != 0.0)
                        || r.num("warning_bms_lost").is_some_and(|v| v != 0.0);
                }
            }
            DeviceFamily::Meter => add(&mut meter_grid, r.num("power")),
            DeviceFamily::Battery => {
                add(&mut bms_battery, r.num("power"));
                bms_socs.extend(r.num("soc"));
            }
            _ => {}
        }
    }
    let has_battery = has_bms || sources.iter().any(reports_battery);
    // The state of charge is the last known one even when its reading is stale: a battery
    // keeps its charge while the plant is silent (its powers, unknown now, read as idle).
    if socs.is_empty() && bms_socs.is_empty() {
        for s in sources.iter().filter(|s| s.battery_port) {
            match s.family {
                DeviceFamily::Inverter => socs.extend(s.reading.num("battery_soc")),
                DeviceFamily::Battery => bms_socs.extend(s.reading.num("soc")),
                _ => {}
            }
        }
    }
    let soc_list = if socs.is_empty() { bms_socs } else { socs };
    let soc = (has_battery && !soc_list.is_empty())
        .then(|| soc_list.iter().sum::<f64>() / soc_list.len() as f64);
    let grid = meter_grid.or(inv_grid);
    let battery = inv_battery.or(bms_battery).unwrap_or(0.0);
    let (pv, grid_w, generator_w) = (
        pv.unwrap_or(0.0),
        grid.unwrap_or(0.0),
        generator.unwrap_or(0.0),
    );
    let load = load.unwrap_or_else(|| (pv + battery + grid_w + generator_w).max(0.0));
    Flow {
        pv,
        battery,
        grid: grid_w,
        load,
        generator: generator_w,
        soc,
        has_battery,
        has_meter,
        has_grid: has_meter || sources.iter().any(|s| inverter_grid(s.reading).is_some()),
        has_generator: generator_w > 0.0
            || sources
                .iter()
                .any(|s| s.reading.num("gen_power").is_some_and(|v| v > 0.0)),
        bms_fault,
        time: sources.iter().map(|s| s.reading.ts).max(),
        stale: !sources.iter().any(|s| s.fresh),
    }
}

/// Whole watts: the flow diagram has no use for fractions.
fn w(v: f64) -> f64 {
    v.abs().round()
}

impl Flow {
    /// The wire payload: every field docs/api-conventions.md lists for the flow, plus
    /// `existsBattery` (the web app hides the battery node of a plant without a battery with
    /// it), `updateAt` (the newest data, UTC; null before the first report) and `stale`.
    pub fn answer(&self, tz: Tz, protocol: &str, cust_code: i64) -> FlowAnswer {
        let on = |v: f64| w(v) > 0.0;
        FlowAnswer {
            cust_code,
            meter_code: i64::from(self.has_meter),
            pv_power: w(self.pv),
            batt_power: w(self.battery),
            grid_or_meter_power: w(self.grid),
            load_or_eps_power: w(self.load),
            gen_power: w(self.generator),
            min_power: 0,
            soc: self.soc.map_or(0.0, readings::round2),
            pv_to: on(self.pv),
            to_load: on(self.load),
            to_bat: self.battery < 0.0 && on(self.battery),
            bat_to: self.battery > 0.0 && on(self.battery),
            to_grid: self.grid < 0.0 && on(self.grid),
            grid_to: self.grid > 0.0 && on(self.grid),
            gen_to: on(self.generator),
            min_to: false,
            exists_gen: self.has_generator,
            exists_min: false,
            gen_on: on(self.generator),
            micro_on: false,
            exists_meter: self.has_meter,
            exists_grid: self.has_grid,
            exists_battery: self.has_battery,
            bms_comm_fault_flag: self.bms_fault,
            exist_think_power: false,
            protocol_identifier: protocol.into(),
            batt_power2: 0,
            smart_load_power: 0,
            ups_load_power: 0,
            home_load_power: w(self.load),
            charge_pile_power: 0,
            to_smart_load: false,
            to_ups_load: false,
            to_home_load: on(self.load),
            to_charge_pile: false,
            exists_three_load: false,
            exists_smart_load: false,
            exists_charge_pile: false,
            pv: None,
            time: self.time.map(|t| readings::local_time(t, tz)),
            // When the newest data was taken (UTC) and whether it is too old to be live.
            update_at: self.time.map(update_at),
            stale: self.stale,
        }
    }
}

/// The plant's flow now (`date`, `page`, `limit` are accepted and ignored: the flow is live).
#[utoipa::path(get, path = "/api/v1/plant/energy/{id}/flow", tag = "monitoring",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The flow; 700", body = Envelope<FlowAnswer>)))]
pub async fn plant_flow(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<FlowAnswer>> {
    let ctx = PlantCtx::load(&app, &me, &id).await?;
    let latest = ctx.latest(&app).await?;
    let sources: Vec<Source<'_>> = latest.iter().map(super::Latest::source).collect();
    let flow = compute(
        &sources,
        ctx.has(DeviceFamily::Meter),
        ctx.has(DeviceFamily::Battery),
    );
    let first = ctx.of(DeviceFamily::Inverter).next();
    Ok(Data(flow.answer(
        ctx.tz,
        first.map_or("", |d| d.protocol.as_str()),
        first.map_or(0, |d| d.type_code),
    )))
}

/// One inverter's flow now, same payload as the plant's (600 when it is not visible).
#[utoipa::path(get, path = "/api/v1/inverter/{sn}/flow", tag = "monitoring",
    params(("sn" = String, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The flow of one inverter; 600", body = Envelope<FlowAnswer>)))]
pub async fn inverter_flow(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<FlowAnswer>> {
    let device = app
        .store
        .device_visible(me.actor.plant_visibility(), me.id(), sn.trim())
        .await?
        .filter(|d| d.family == DeviceFamily::Inverter)
        .ok_or(Code::InverterMissing)?;
    let tz = match device.plant_id {
        Some(plant) => app
            .store
            .plant(plant, me.id())
            .await?
            .map_or(Tz::UTC, |p| readings::zone(&p.timezone)),
        None => Tz::UTC,
    };
    let latest = readings::latest(&app, device.id).await?;
    let cycles = Cycles::of_gateways(&app, &[device.gateway_id]).await?;
    let now = domain::time::now_ms();
    let sources: Vec<Source<'_>> = latest
        .iter()
        .map(|r| Source {
            family: DeviceFamily::Inverter,
            reading: r,
            fresh: !cycles.stale(device.gateway_id, Some(r.ts), now),
            battery_port: battery_port(DeviceFamily::Inverter, device.type_code),
        })
        .collect();
    let flow = compute(&sources, false, false);
    Ok(Data(flow.answer(tz, &device.protocol, device.type_code)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn reading(ts: i64, json: &str) -> Reading {
        Reading::from_sample(ts, json)
    }

    /// A fresh reading of a device of `family` (a hybrid when it is an inverter).
    fn live(family: DeviceFamily, r: &Reading) -> Source<'_> {
        Source {
            family,
            reading: r,
            fresh: true,
            battery_port: battery_port(family, 2),
        }
    }

    #[test]
    fn a_charging_battery_and_exporting_grid_point_away_from_the_inverter() {
        let r = reading(
            1_000,
            r#"{"pv1_power":3000,"pv2_power":1000,"battery_power":-1500,"grid_ct_power":-500,
                "load_power":2000,"battery_soc":55}"#,
        );
        let f = compute(&[live(DeviceFamily::Inverter, &r)], false, false);
        assert_eq!(
            (f.pv, f.battery, f.grid, f.load),
            (4000.0, -1500.0, -500.0, 2000.0)
        );
        let j = serde_json::to_value(f.answer(Tz::UTC, "deye", 2)).unwrap();
        assert_eq!(j["toBat"], true);
        assert_eq!(j["batTo"], false);
        assert_eq!(j["toGrid"], true);
        assert_eq!(j["gridTo"], false);
        assert_eq!(j["battPower"], 1500.0);
        assert_eq!(j["gridOrMeterPower"], 500.0);
        assert_eq!(j["soc"], 55.0);
        assert!(j["pv"].is_null());
        assert_eq!(j["time"], "1970-01-01 00:00:01");
        assert_eq!(j["updateAt"], "1970-01-01T00:00:01Z");
        assert_eq!(j["stale"], false);
    }

    #[test]
    fn a_meter_measures_the_grid_and_a_bms_fills_in_the_battery() {
        let inv = reading(
            1_000,
            r#"{"pv1_power":500,"grid_ct_power":100,"load_power":900}"#,
        );
        let meter = reading(1_000, r#"{"power":400}"#);
        let bms = reading(1_000, r#"{"power":0,"soc":80}"#);
        let f = compute(
            &[
                live(DeviceFamily::Inverter, &inv),
                live(DeviceFamily::Meter, &meter),
                live(DeviceFamily::Battery, &bms),
            ],
            true,
            true,
        );
        assert_eq!(f.grid, 400.0);
        assert_eq!(f.soc, Some(80.0));
        assert!(f.has_battery && f.has_meter && f.has_grid);
    }

    #[test]
    fn stale_readings_show_no_flow_and_missing_load_is_the_balance() {
        let old = reading(0, r#"{"pv1_power":3000,"load_power":100,"battery_soc":64}"#);
        let stale = Source {
            fresh: false,
            ..live(DeviceFamily::Inverter, &old)
        };
        let f = compute(&[stale], false, false);
        assert_eq!((f.pv, f.load, f.battery), (0.0, 0.0, 0.0));
        assert_eq!(f.soc, Some(64.0), "the last known charge stays");
        assert_eq!(f.time, Some(0));
        assert!(f.stale);
        let j = serde_json::to_value(f.answer(Tz::UTC, "", 2)).unwrap();
        assert_eq!(
            (j["stale"].clone(), j["pvTo"].clone()),
            (json!(true), json!(false))
        );
        assert_eq!(j["updateAt"], "1970-01-01T00:00:00Z");
        let no_load = reading(0, r#"{"pv1_power":3000,"grid_power":-1000}"#);
        assert_eq!(
            compute(&[live(DeviceFamily::Inverter, &no_load)], false, false).load,
            2000.0
        );
    }

    #[test]
    fn a_plant_that_never_reported_is_stale_without_a_time() {
        let f = compute(&[], false, false);
        assert!(f.stale);
        let j = serde_json::to_value(f.answer(Tz::UTC, "", 1)).unwrap();
        assert!(j["updateAt"].is_null() && j["time"].is_null());
    }

    #[test]
    fn a_grid_tied_inverter_has_no_battery_whatever_its_registers_say() {
        // The hybrid protocol a grid-tied model shares still carries battery registers.
        let r = reading(
            0,
            r#"{"pv1_power":3000,"grid_power":-3000,"battery_soc":60,"battery_power":0}"#,
        );
        let grid_tied = Source {
            battery_port: battery_port(DeviceFamily::Inverter, 1),
            ..live(DeviceFamily::Inverter, &r)
        };
        let f = compute(&[grid_tied], false, false);
        assert!(!f.has_battery);
        assert_eq!(f.soc, None);
        let j = serde_json::to_value(f.answer(Tz::UTC, "", 1)).unwrap();
        assert_eq!(
            (j["soc"].clone(), j["existsBattery"].clone()),
            (json!(0.0), json!(false))
        );
        for code in [1, 10, 11, 3, 0] {
            assert!(!battery_port(DeviceFamily::Inverter, code), "type {code}");
        }
        for code in [2, 21, 22, 93, 94, 5] {
            assert!(battery_port(DeviceFamily::Inverter, code), "type {code}");
        }
        assert!(!battery_port(DeviceFamily::Meter, 0));
    }

    #[test]
    fn a_hybrid_without_a_battery_connected_has_none() {
        let r = reading(0, r#"{"pv1_power":3000,"grid_power":-3000}"#);
        assert!(!compute(&[live(DeviceFamily::Inverter, &r)], false, false).has_battery);
        assert!(
            compute(&[live(DeviceFamily::Inverter, &r)], false, true).has_battery,
            "a registered BMS"
        );
    }
}
