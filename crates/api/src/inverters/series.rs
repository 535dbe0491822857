//! An inverter's series: day curves from its samples (plant-local day, times in the plant's
//! zone) and month, year and total energy bars from the day rollups, never from raw samples.
//! Every answer is `{infos:[{unit, label, id, groupCode, name, records:[{time, value,
//! updateTime}]}]}`; `label` is a stable key (the web app translates it), `name` English.

use axum::extract::{Path, State};
use chrono::NaiveDate;
use serde::Deserialize;
use serde_json::{Value, json};
use store::telemetry::{Bucket, DayRange};
use utoipa::IntoParams;

use super::{Inverter, values, visible};
use crate::{
    AppState,
    envelope::{ApiResult, Data},
    extract::{Query, num},
    readings::{self, Column, Reading, Series},
    session::CurrentUser,
};

/// The ports with their own series under `/api/v1/inverter/{port}/{sn}/...`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Port {
    Grid,
    Load,
    Battery,
    Eps,
    Meter,
}

impl Port {
    pub const ALL: [Port; 5] = [
        Port::Grid,
        Port::Load,
        Port::Battery,
        Port::Eps,
        Port::Meter,
    ];

    pub fn path(self) -> &'static str {
        match self {
            Port::Grid => "grid",
            Port::Load => "load",
            Port::Battery => "battery",
            Port::Eps => "eps",
            Port::Meter => "meter",
        }
    }

    /// The day-curve columns of the port; the first is always answered, the others only when
    /// the inverter reports them (per-phase keys exist on three-phase models only).
    fn columns(self) -> Vec<Col> {
        let phased = |label: &str, name: &str, unit: &'static str, key: &str| -> Vec<Col> {
            (1..=3)
                .map(|l| {
                    Col::key(
                        &format!("{label}_l{l}"),
                        &format!("{name} L{l}"),
                        unit,
                        &format!("{key}_l{l}"),
                    )
                })
                .collect()
        };
        let mut cols = Vec::new();
        match self {
            Port::Grid => {
                cols.push(Col::key("grid_power", "Grid power", "W", "grid_power"));
                cols.extend(phased("grid_power", "Grid power", "W", "grid_power"));
                cols.extend(phased("grid_voltage", "Grid voltage", "V", "grid_voltage"));
                cols.push(Col::key(
                    "grid_frequency",
                    "Grid frequency",
                    "Hz",
                    "grid_frequency",
                ));
            }
            Port::Meter => {
                cols.push(Col::key("meter_power", "Meter power", "W", "grid_ct_power"));
                cols.extend(phased("meter_power", "Meter power", "W", "grid_ct_power"));
            }
            Port::Load => {
                cols.push(Col::key("load_power", "Load power", "W", "load_power"));
                cols.extend(phased("load_power", "Load power", "W", "load_power"));
                cols.push(Col::key(
                    "load_frequency",
                    "Load frequency",
                    "Hz",
                    "load_frequency",
                ));
            }
            Port::Eps => {
                cols.push(Col::key("eps_power", "EPS power", "W", "load_power"));
                cols.extend(phased("eps_power", "EPS power", "W", "load_power"));
                cols.extend(phased("eps_voltage", "EPS voltage", "V", "load_voltage"));
            }
            Port::Battery => {
                cols.push(Col::key(
                    "battery_power",
                    "Battery power",
                    "W",
                    "battery_power",
                ));
                cols.push(Col::key("soc", "SOC", "%", "battery_soc"));
                cols.push(Col::key(
                    "battery_voltage",
                    "Battery voltage",
                    "V",
                    "battery_voltage",
                ));
                cols.push(Col::key(
                    "battery_current",
                    "Battery current",
                    "A",
                    "battery_current",
                ));
                cols.push(Col::key(
                    "battery_temperature",
                    "Battery temperature",
                    "°C",
                    "battery_temperature",
                ));
                cols.push(Col::key(
                    "battery2_power",
                    "Battery 2 power",
                    "W",
                    "battery2_power",
                ));
                cols.push(Col::key(
                    "battery2_soc",
                    "Battery 2 SOC",
                    "%",
                    "battery2_soc",
                ));
            }
        }
        cols
    }

    /// The energy metrics of the port's month, year and total bars.
    fn metrics(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Port::Grid | Port::Meter => &[("grid_import", "Import"), ("grid_export", "Export")],
            // The backup port is not metered apart from the load.
            Port::Load | Port::Eps => &[("load", "Load")],
            Port::Battery => &[("charge", "Charge"), ("discharge", "Discharge")],
        }
    }
}

/// Month, year or total bars.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Span {
    Month,
    Year,
    Total,
}

impl Span {
    pub const ALL: [Span; 3] = [Span::Month, Span::Year, Span::Total];

    pub fn path(self) -> &'static str {
        match self {
            Span::Month => "month",
            Span::Year => "year",
            Span::Total => "total",
        }
    }

    /// The days a bar chart covers and its bar size: a month per day, a year per month,
    /// all time per year.
    fn range(self, date: Option<&str>, tz: chrono_tz::Tz) -> (DayRange, Bucket) {
        match self {
            Span::Month => {
                let (y, m) = readings::month_param(date, tz);
                (DayRange::month(y, m), Bucket::Day)
            }
            Span::Year => (
                DayRange::year(readings::year_param(date, tz)),
                Bucket::Month,
            ),
            Span::Total => (DayRange::total(), Bucket::Year),
        }
    }
}

/// Every energy metric of the inverter's own bars; PV first (`infos[0]`).
const INVERTER_METRICS: [(&str, &str); 7] = [
    ("pv", "PV"),
    ("load", "Load"),
    ("grid_import", "Import"),
    ("grid_export", "Export"),
    ("charge", "Charge"),
    ("discharge", "Discharge"),
    ("generator", "Generator"),
];

/// How a day-curve column reads a report (what `readings::Column` borrows).
type ReadFn<'a> = Box<dyn Fn(&Reading) -> Option<f64> + 'a>;

/// One day-curve column: a stable label, an English name, a unit, and the keys it reads
/// (summed when `sum`, else the first present).
pub(crate) struct Col {
    label: String,
    name: String,
    unit: &'static str,
    keys: Vec<String>,
    sum: bool,
}

impl Col {
    fn key(label: &str, name: &str, unit: &'static str, key: &str) -> Col {
        Col {
            label: label.into(),
            name: name.into(),
            unit,
            keys: vec![key.into()],
            sum: false,
        }
    }

    fn read(&self, r: &Reading) -> Option<f64> {
        let keys: Vec<&str> = self.keys.iter().map(String::as_str).collect();
        if self.sum {
            r.sum(&keys)
        } else {
            r.first(&keys)
        }
    }
}

#[derive(Debug, Default, Deserialize, IntoParams)]
pub struct DateQuery {
    /// `YYYY-MM-DD` (day), `YYYY-MM` (month) or `YYYY` (year); today in the plant's zone when
    /// absent.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub date: Option<String>,
    /// `output/day` only: comma-separated column names (`dc_temp,igbt_temp`).
    #[serde(default, deserialize_with = "num::opt_text")]
    pub column: Option<String>,
}

/// Series of `cols` over the inverter's samples of one local day. The first `keep` columns
/// are answered even when empty; the others only when the inverter reported them.
async fn day_curve(
    app: &AppState,
    inv: &Inverter,
    date: Option<&str>,
    cols: &[Col],
    keep: usize,
) -> ApiResult<Value> {
    let day: NaiveDate = readings::day_param(date, inv.tz);
    let (from, to) = readings::day_bounds(inv.tz, day);
    let samples = readings::day_samples(app, inv.row.id, from, to).await?;
    let reads: Vec<ReadFn<'_>> = cols
        .iter()
        .map(|c| Box::new(move |r: &Reading| c.read(r)) as ReadFn<'_>)
        .collect();
    let columns: Vec<Column<'_>> = cols
        .iter()
        .zip(&reads)
        .map(|(c, read)| Column {
            label: &c.label,
            unit: c.unit,
            read: read.as_ref(),
        })
        .collect();
    let series = readings::sample_series(&samples, &columns, inv.tz);
    let infos: Vec<Series> = series
        .into_iter()
        .zip(cols)
        .enumerate()
        .filter(|(i, (s, _))| *i < keep || !s.records.is_empty())
        .map(|(_, (mut s, c))| {
            s.name = Some(c.name.clone());
            s
        })
        .collect();
    Ok(json!({"date": day.to_string(), "timezone": inv.tz.name(), "infos": infos}))
}

/// Energy bars of `metrics` over a span.
async fn bars(
    app: &AppState,
    inv: &Inverter,
    span: Span,
    date: Option<&str>,
    metrics: &[(&str, &str)],
) -> ApiResult<Value> {
    let (range, bucket) = span.range(date, inv.tz);
    let points = app
        .store
        .device_energy_series(inv.row.id, &range, bucket)
        .await?;
    let infos: Vec<Series> = readings::energy_series(&points, metrics)
        .into_iter()
        .zip(metrics)
        .map(|(mut s, (metric, name))| {
            s.label = (*metric).to_string();
            s.name = Some((*name).to_string());
            s
        })
        .collect();
    Ok(json!({"infos": infos}))
}

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
    security(("bearer" = [])), responses((status = 200, description = "Envelope with {date, timezone, infos:[{unit, label, id, groupCode, name, records:[{time, value, updateTime}]}]}; 600")))]
pub async fn day(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<Value>> {
    let inv = visible(&app, &me, &sn).await?;
    Ok(Data(
        day_curve(&app, &inv, q.date.as_deref(), &inverter_columns(), 2).await?,
    ))
}

async fn inverter_bars(
    span: Span,
    app: AppState,
    me: CurrentUser,
    sn: String,
    q: DateQuery,
) -> ApiResult<Data<Value>> {
    let inv = visible(&app, &me, &sn).await?;
    Ok(Data(
        bars(&app, &inv, span, q.date.as_deref(), &INVERTER_METRICS).await?,
    ))
}

/// Energy per day of a month (`date=YYYY-MM`), one series per metric, `infos[0]` PV (kWh).
#[utoipa::path(get, path = "/api/v1/inverter/{sn}/month", tag = "inverters", params(("sn" = String, Path), DateQuery),
    security(("bearer" = [])), responses((status = 200, description = "Envelope with {infos:[...]} (kWh, from day rollups); 600")))]
pub async fn month(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<Value>> {
    inverter_bars(Span::Month, app, me, sn, q).await
}

/// Energy per month of a year (`date=YYYY`).
#[utoipa::path(get, path = "/api/v1/inverter/{sn}/year", tag = "inverters", params(("sn" = String, Path), DateQuery),
    security(("bearer" = [])), responses((status = 200, description = "Envelope with {infos:[...]} (kWh, from day rollups); 600")))]
pub async fn year(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<Value>> {
    inverter_bars(Span::Year, app, me, sn, q).await
}

/// Energy per year since the inverter first reported.
#[utoipa::path(get, path = "/api/v1/inverter/{sn}/total", tag = "inverters", params(("sn" = String, Path), DateQuery),
    security(("bearer" = [])), responses((status = 200, description = "Envelope with {infos:[...]}: infos[0].records[].value are decimal strings (kWh per year, from day rollups); 600")))]
pub async fn total(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<Value>> {
    inverter_bars(Span::Total, app, me, sn, q).await
}

/// Voltage, current and power of each PV input over a day.
#[utoipa::path(get, path = "/api/v1/inverter/{sn}/input/day", tag = "inverters", params(("sn" = String, Path), DateQuery),
    security(("bearer" = [])), responses((status = 200, description = "Envelope with {infos:[...]}: pvN_voltage (V), pvN_current (A), pvN_power (W) per input reported; 600")))]
pub async fn input_day(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<Value>> {
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
    security(("bearer" = [])), responses((status = 200, description = "Envelope with {infos:[...]} one series per requested column, values as strings; 600")))]
pub async fn output_day(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<Value>> {
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

/// One port's day curve (grid, load, battery, EPS or meter).
#[utoipa::path(get, path = "/api/v1/inverter/{kind}/{sn}/day", tag = "inverters",
    params(("kind" = String, Path, description = "grid, load, battery, eps or meter"), ("sn" = String, Path), DateQuery),
    security(("bearer" = [])), responses((status = 200, description = "Envelope with {date, timezone, infos:[...]}; 600")))]
pub async fn port_day(
    port: Port,
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<Value>> {
    let inv = visible(&app, &me, &sn).await?;
    let keep = if port == Port::Battery { 2 } else { 1 };
    Ok(Data(
        day_curve(&app, &inv, q.date.as_deref(), &port.columns(), keep).await?,
    ))
}

/// One port's energy bars: a month per day, a year per month, all time per year.
#[utoipa::path(get, path = "/api/v1/inverter/{kind}/{sn}/{span}", tag = "inverters",
    params(("kind" = String, Path, description = "grid, load, battery, eps or meter"), ("sn" = String, Path),
        ("span" = String, Path, description = "month, year or total"), DateQuery),
    security(("bearer" = [])), responses((status = 200, description = "Envelope with {infos:[...]} (kWh from day rollups; grid/meter import and export, load/eps load, battery charge and discharge); 600")))]
pub async fn port_energy(
    port: Port,
    span: Span,
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<Value>> {
    let inv = visible(&app, &me, &sn).await?;
    Ok(Data(
        bars(&app, &inv, span, q.date.as_deref(), port.metrics()).await?,
    ))
}

fn gen_columns() -> Vec<Col> {
    vec![Col::key("gen_power", "Generator power", "W", "gen_power")]
}

/// The generator's power over a day.
#[utoipa::path(get, path = "/api/v1/inverter/genMi/{sn}/day", tag = "inverters", params(("sn" = String, Path), DateQuery),
    security(("bearer" = [])), responses((status = 200, description = "Envelope with {date, timezone, infos:[gen_power]}; 600")))]
pub async fn gen_day(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<Value>> {
    let inv = visible(&app, &me, &sn).await?;
    Ok(Data(
        day_curve(&app, &inv, q.date.as_deref(), &gen_columns(), 1).await?,
    ))
}

/// The generator by the length of `date`: a day's power curve (`YYYY-MM-DD`), a month's daily
/// energy (`YYYY-MM`), a year's monthly energy (`YYYY`), or yearly energy (no date).
#[utoipa::path(get, path = "/api/v1/inverter/gen/{sn}/byDate", tag = "inverters", params(("sn" = String, Path), DateQuery),
    security(("bearer" = [])), responses((status = 200, description = "Envelope with {infos:[...]}; 600")))]
pub async fn gen_by_date(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<Value>> {
    let inv = visible(&app, &me, &sn).await?;
    let date = q.date.as_deref().map(str::trim).filter(|d| !d.is_empty());
    const GEN: [(&str, &str); 1] = [("generator", "Generator")];
    Ok(Data(match date.map(str::len) {
        Some(10..) => day_curve(&app, &inv, date, &gen_columns(), 1).await?,
        Some(7..=9) => bars(&app, &inv, Span::Month, date, &GEN).await?,
        Some(_) => bars(&app, &inv, Span::Year, date, &GEN).await?,
        None => bars(&app, &inv, Span::Total, None, &GEN).await?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_cover_their_days_in_bars_of_the_next_size_down() {
        let tz = chrono_tz::Tz::UTC;
        let (r, b) = Span::Month.range(Some("2026-02"), tz);
        assert_eq!(
            (r.from.as_str(), r.to.as_str(), b),
            ("2026-02-01", "2026-02-31", Bucket::Day)
        );
        let (r, b) = Span::Year.range(Some("2025"), tz);
        assert_eq!((r.from.as_str(), b), ("2025-01-01", Bucket::Month));
        assert_eq!(
            Span::Total.range(None, tz),
            (DayRange::total(), Bucket::Year)
        );
    }

    #[test]
    fn port_columns_start_with_the_ports_power() {
        for port in Port::ALL {
            let cols = port.columns();
            assert_eq!(cols[0].unit, "W", "{port:?}");
            assert!(!port.metrics().is_empty());
        }
        let pv = &inverter_columns()[0];
        let r = Reading::from_sample(0, r#"{"pv1_power":100,"pv2_power":50}"#);
        assert_eq!(pv.read(&r), Some(150.0));
    }
}
