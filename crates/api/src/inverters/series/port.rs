//! The series of one port of an inverter (grid, load, battery, EPS, meter): its day curve
//! and its energy bars, under `/api/v1/inverter/{port}/{sn}/...`.

use axum::extract::{Path, State};

use super::{Col, DateQuery, Span, bars, day_curve};
use crate::{
    AppState,
    envelope::{ApiResult, Data},
    extract::Query,
    inverters::visible,
    inverters::wire::SeriesAnswer,
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
    #[cfg(test)]
    pub const ALL: [Port; 5] = [
        Port::Grid,
        Port::Load,
        Port::Battery,
        Port::Eps,
        Port::Meter,
    ];

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

/// One port's day curve (grid, load, battery, EPS or meter).
pub async fn port_day(
    port: Port,
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<SeriesAnswer>> {
    let inv = visible(&app, &me, &sn).await?;
    let keep = if port == Port::Battery { 2 } else { 1 };
    Ok(Data(
        day_curve(&app, &inv, q.date.as_deref(), &port.columns(), keep).await?,
    ))
}

/// One port's energy bars: a month per day, a year per month, all time per year.
pub async fn port_energy(
    port: Port,
    span: Span,
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<SeriesAnswer>> {
    let inv = visible(&app, &me, &sn).await?;
    Ok(Data(
        bars(&app, &inv, span, q.date.as_deref(), port.metrics()).await?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn port_columns_start_with_the_ports_power() {
        for port in Port::ALL {
            let cols = port.columns();
            assert_eq!(cols[0].unit, "W", "{port:?}");
            assert!(!port.metrics().is_empty());
        }
    }
}
