//! The inverter's own day curves: the overview curve (PV, AC output, grid, load, battery,
//! SOC, generator), each PV input, and the output-side columns a client names.

use axum::extract::{Path, State};

use super::{Col, DateQuery, day_curve};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    extract::Query,
    inverters::wire::SeriesAnswer,
    inverters::{values, visible},
    session::CurrentUser,
};

/// The inverter's own day curve: PV power, AC output, grid, load, battery power and SOC.
fn inverter_columns() -> Vec<Col> {
    vec![
        Col {
            label: "pv_power".into(),
            name: "PV power".into(),
            unit: "W",
            keys: (1..=values::MAX_PV_INPUTS)
                .map(|n| format!("pv{n}_power"))
                .collect(),
            sum: true,
        },
        Col::key("ac_power", "AC output", "W", "inverter_power"),
        Col::key("grid_power", "Grid power", "W", "grid_power"),
        Col::key("load_power", "Load power", "W", "load_power"),
        Col::key("battery_power", "Battery power", "W", "battery_power"),
        Col::key("soc", "SOC", "%", "battery_soc"),
        Col::key("gen_power", "Generator power", "W", "gen_power"),
    ]
}

/// The day curve of the inverter (`infos[0]` is PV power in W).
#[utoipa::path(get, path = "/api/v1/inverter/{sn}/day", tag = "inverters", params(("sn" = String, Path), DateQuery),
    security(("bearer" = [])), responses((status = 200, description = "The day curve, `infos[0]` PV power (W); 600", body = Envelope<SeriesAnswer>)))]
pub async fn day(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<SeriesAnswer>> {
    let inv = visible(&app, &me, &sn).await?;
    Ok(Data(
        day_curve(&app, &inv, q.date.as_deref(), &inverter_columns(), 2).await?,
    ))
}

/// Voltage, current and power of each PV input over a day.
#[utoipa::path(get, path = "/api/v1/inverter/{sn}/input/day", tag = "inverters", params(("sn" = String, Path), DateQuery),
    security(("bearer" = [])), responses((status = 200, description = "The day curve: pvN_voltage (V), pvN_current (A), pvN_power (W) per input reported; 600", body = Envelope<SeriesAnswer>)))]
pub async fn input_day(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<SeriesAnswer>> {
    let inv = visible(&app, &me, &sn).await?;
    let mut cols = Vec::new();
    for n in 1..=values::MAX_PV_INPUTS {
        for (q, unit, name) in [
            ("voltage", "V", "voltage"),
            ("current", "A", "current"),
            ("power", "W", "power"),
        ] {
            let key = format!("pv{n}_{q}");
            cols.push(Col::key(&key, &format!("PV{n} {name}"), unit, &key));
        }
    }
    Ok(Data(
        day_curve(&app, &inv, q.date.as_deref(), &cols, 0).await?,
    ))
}

/// Output-side columns over a day: the `column` names asked for (`dc_temp,igbt_temp`,
/// `pac`, `fac`, `vac1`..), each answered as its own series labelled with the name asked;
/// temperatures in °C.
#[utoipa::path(get, path = "/api/v1/inverter/{sn}/output/day", tag = "inverters", params(("sn" = String, Path), DateQuery),
    security(("bearer" = [])), responses((status = 200, description = "The day curve, one series per requested column; 600", body = Envelope<SeriesAnswer>)))]
pub async fn output_day(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<SeriesAnswer>> {
    let inv = visible(&app, &me, &sn).await?;
    let asked: Vec<String> = match q.column.as_deref() {
        Some(c) => c
            .split(',')
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .take(20)
            .map(String::from)
            .collect(),
        None => Vec::new(),
    };
    let asked = if asked.is_empty() {
        values::DEFAULT_OUTPUT_COLUMNS
            .iter()
            .map(|c| (*c).to_string())
            .collect()
    } else {
        asked
    };
    let cols: Vec<Col> = asked
        .iter()
        .map(|name| {
            let (unit, keys) = values::output_column(name).unwrap_or(("", &[]));
            Col {
                label: name.clone(),
                name: name.clone(),
                unit,
                keys: keys.iter().map(|k| (*k).to_string()).collect(),
                sum: false,
            }
        })
        .collect();
    let keep = cols.len();
    Ok(Data(
        day_curve(&app, &inv, q.date.as_deref(), &cols, keep).await?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::readings::Reading;

    #[test]
    fn pv_power_sums_every_input() {
        let pv = &inverter_columns()[0];
        let r = Reading::from_sample(0, r#"{"pv1_power":100,"pv2_power":50}"#);
        assert_eq!(pv.read(&r), Some(150.0));
    }
}
