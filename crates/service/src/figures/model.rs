//! The plant figures as the API answers them (`GET /api/v1/plant/{id}/figures`) and a report
//! carries them: each figure's value (`null` when its inputs are missing, never 0) and its
//! basis, what it was computed from.

use serde::Serialize;
use utoipa::ToSchema;

/// What a figure was computed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum Basis {
    /// The plant's PV energy (and its capacity, for a yield).
    PvEnergy,
    /// The in-plane irradiation measured by the plant's weather station.
    Station,
    /// A clear-sky model at the plant's place, tilt and azimuth: an upper-bound reference.
    ClearSky,
    /// The clear-sky model with a tilt or azimuth the plant did not give (assumed).
    ClearSkyAssumed,
    /// The inverters' report intervals in daylight, without faults.
    Reports,
    /// The energy flows, the battery's charge from the grid taken out.
    GridCharge,
    /// The energy flows (no battery charged in the period).
    Energy,
    /// Inputs are missing: the value is null.
    Missing,
}

/// One figure: its value in the figure's unit and what it was computed from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ToSchema)]
pub struct Figure {
    /// Null when the inputs it needs are missing.
    pub value: Option<f64>,
    pub basis: Basis,
}

impl Figure {
    pub fn missing() -> Figure {
        Figure {
            value: None,
            basis: Basis::Missing,
        }
    }

    /// `value` with `basis`, or missing when there is no value.
    pub fn of(value: Option<f64>, basis: Basis) -> Figure {
        match value.filter(|v| v.is_finite()) {
            Some(v) => Figure {
                value: Some(v),
                basis,
            },
            None => Figure::missing(),
        }
    }
}

/// The orientation the clear-sky reference used.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrientationUsed {
    /// Degrees from the horizontal.
    pub tilt: f64,
    /// Degrees clockwise from north (180 south).
    pub azimuth: f64,
    /// The plant did not give it: tilt at the latitude (at most 35°), facing the equator.
    pub assumed: bool,
}

/// A plant's figures over a span of plant-local days (IEC 61724-1; docs/figures.md).
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlantFigures {
    /// First and last plant-local day, `YYYY-MM-DD`; days after today count nothing.
    pub from: String,
    pub to: String,
    /// Installed capacity, kWp.
    pub capacity: f64,
    /// PV energy of the period, kWh; null without PV readings.
    pub pv_energy: Option<f64>,
    /// Final yield Y_f, kWh/kWp.
    pub specific_yield: Figure,
    /// Reference yield Y_r of the days the performance ratio counts, h (kWh/kWp).
    pub reference_yield: Figure,
    /// Performance ratio PR = Y_f / Y_r over the days with production data (and, for a
    /// station, its readings), %.
    pub performance_ratio: Figure,
    /// Share of the inverters' daylight hours with reports and no fault, %.
    pub availability: Figure,
    /// Share of the PV energy used on site, %.
    pub self_consumption: Figure,
    /// Share of the consumption covered by solar energy, %.
    pub self_sufficiency: Figure,
    /// CO2 the PV energy avoided, kg.
    pub co2_avoided: Figure,
    /// The emission factor `co2Avoided` used, kg/kWh.
    pub co2_factor: f64,
    /// In-plane irradiation behind `referenceYield`, kWh/m²; null without one.
    pub irradiation: Option<f64>,
    /// Days whose production (and station readings) the performance ratio counts, and days of
    /// the period up to today.
    pub ratio_days: i64,
    pub days: i64,
    /// The orientation of the clear-sky reference; null when a station (or nothing) was used.
    pub orientation: Option<OrientationUsed>,
    /// Energy the battery took from the grid, kWh; null when not measured.
    pub grid_charge: Option<f64>,
    /// The inverters' daylight hours of the period and those with reports and no fault; null
    /// when availability is not measured.
    pub daylight_hours: Option<f64>,
    pub available_hours: Option<f64>,
}
