//! The answers of the monitoring endpoints, as they go on the wire.

use domain::DeviceFamily;
use serde::Serialize;
use utoipa::ToSchema;

use crate::{plants::DictEntry, readings};

/// A plant's headline figures now (`GET /plant/{id}/realtime`, and the detail's `realtime`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Realtime {
    /// Current PV power, W (fresh data only).
    pub pac: f64,
    /// Energy today, this month, this year and all time, kWh.
    pub etoday: f64,
    pub emonth: f64,
    pub eyear: f64,
    pub etotal: f64,
    /// Today's income, in the plant's currency.
    pub income: f64,
    /// `pac` over the installed capacity (0..1).
    pub efficiency: f64,
    /// The newest data, `YYYY-MM-DDTHH:MM:SSZ`.
    pub update_at: String,
    /// No fresh data: the figures are the last known.
    pub stale: bool,
    /// Every inverter with fresh data reports itself switched off (and at least one has
    /// fresh data): screens show the plant as Off, not Normal. `status` is unchanged.
    pub switched_off: bool,
    pub currency: DictEntry,
    /// Installed capacity, kWp.
    pub total_power: f64,
    pub invest: f64,
}

/// One point of a series.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlantSeriesPoint {
    /// Plant-local time (`HH:MM` of a day, the day, month or year of a bar).
    pub time: String,
    /// The value as a numeric string.
    pub value: String,
    #[schema(required)]
    pub update_time: Option<String>,
}

/// One named series of a plant's curves or bars.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlantSeries {
    /// `W`, `%` or `kWh`.
    pub unit: String,
    /// The metric key (`pv`, `load`, `grid`, `battery`, `soc`, `generator`, or an energy
    /// metric such as `grid_import`).
    pub label: String,
    #[schema(required)]
    pub id: Option<i64>,
    #[schema(required)]
    pub group_code: Option<String>,
    /// For people.
    #[schema(required)]
    pub name: Option<String>,
    pub records: Vec<PlantSeriesPoint>,
}

impl From<readings::Series> for PlantSeries {
    fn from(s: readings::Series) -> Self {
        PlantSeries {
            unit: s.unit.into(),
            label: s.label,
            id: s.id,
            group_code: s.group_code,
            name: s.name,
            records: s
                .records
                .into_iter()
                .map(|r| PlantSeriesPoint {
                    time: r.time,
                    value: r.value,
                    update_time: r.update_time,
                })
                .collect(),
        }
    }
}

/// The series of one period.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlantSeriesList {
    pub infos: Vec<PlantSeries>,
}

/// Where today's energy came from and went, kWh (2 decimals).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GenerationUse {
    pub load: f64,
    pub pv: f64,
    pub battery_charge: f64,
    pub grid_sell: f64,
    pub grid_buy: f64,
    pub battery_discharge: f64,
    pub generator: f64,
}

/// A device of a plant with its status.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlantDevice {
    pub id: i64,
    pub sn: String,
    #[schema(value_type = crate::openapi::DeviceFamilySchema)]
    pub family: DeviceFamily,
    pub alias: String,
    pub model: String,
    /// The device's type code within its family.
    #[serde(rename = "type")]
    pub kind: i64,
    pub status: i64,
    #[schema(required)]
    pub parent_sn: Option<String>,
    /// When it last reported, `YYYY-MM-DDTHH:MM:SSZ`; null if never.
    #[schema(required)]
    pub update_at: Option<String>,
    /// That is past its offline bound (or it never reported).
    pub stale: bool,
    /// Whether an inverter reports itself switched on; null for other devices and before the
    /// first report.
    #[schema(required)]
    pub power_on: Option<bool>,
}

/// Which kinds of device a plant has.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeviceKinds {
    pub meter: bool,
    /// A BMS, or a hybrid inverter reporting battery values.
    pub battery: bool,
    /// A weather station.
    pub meteorological: bool,
}

/// A weather station of a plant, as a product.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WeatherProduct {
    pub id: i64,
    /// Its alias, else its model, else its serial number.
    pub product_name: String,
    /// Always empty.
    pub icon: String,
    pub status: i64,
    pub sn: String,
}

/// The latest values of a weather station: numeric strings, null when not reported.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StationValues {
    pub sn: String,
    pub alias: String,
    pub status: i64,
    /// The newest data, `YYYY-MM-DDTHH:MM:SSZ`; null before the first report.
    #[schema(required)]
    pub update_at: Option<String>,
    /// W/m².
    #[schema(required)]
    pub irradiance: Option<String>,
    /// °C.
    #[schema(required)]
    pub module_temp: Option<String>,
    /// °C.
    #[schema(required)]
    pub ambient_temp: Option<String>,
    /// %.
    #[schema(required)]
    pub humidity: Option<String>,
    /// m/s.
    #[schema(required)]
    pub wind_speed: Option<String>,
    /// Degrees.
    #[schema(required)]
    pub wind_direction: Option<String>,
    /// hPa.
    #[schema(required)]
    pub pressure: Option<String>,
    /// mm.
    #[schema(required)]
    pub rainfall: Option<String>,
    /// Today's irradiation, kWh/m².
    #[schema(required)]
    pub today_irradiation: Option<String>,
}

/// The weather now: strings, null when unknown.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CurrentWeather {
    /// The sky in the caller's language (from the station's irradiance and rain).
    #[schema(required)]
    pub desc: Option<String>,
    /// °C.
    #[schema(required)]
    pub curr_temp: Option<String>,
    /// m/s.
    #[schema(required)]
    pub wind_speed: Option<String>,
    /// Whole degrees.
    #[schema(required)]
    pub wind_direction: Option<String>,
    /// `HH:MM`, plant-local; null in polar day or night.
    #[schema(required)]
    pub sunrise: Option<String>,
    #[schema(required)]
    pub sunset: Option<String>,
    /// Always null.
    #[schema(required)]
    pub icon_url: Option<String>,
    /// Today's lowest and highest temperature, °C.
    #[schema(required)]
    pub temp_min_c: Option<String>,
    #[schema(required)]
    pub temp_max_c: Option<String>,
}

/// The weather at a plant or a position.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Weather {
    /// Null when neither a plant nor a position is known.
    #[schema(required)]
    pub curr_wea: Option<CurrentWeather>,
    /// The plant the weather is of, if any.
    #[schema(required)]
    pub plant_id: Option<i64>,
}

/// The live energy flow of a plant or inverter. Powers are magnitudes in whole W; the
/// direction flags say which way they flow. Fields fixed at 0 or false are kept for clients
/// that read them.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FlowAnswer {
    /// The (first) inverter's type code.
    pub cust_code: i64,
    /// 1 when the plant has a meter.
    pub meter_code: i64,
    pub pv_power: f64,
    pub batt_power: f64,
    pub grid_or_meter_power: f64,
    pub load_or_eps_power: f64,
    pub gen_power: f64,
    /// Always 0.
    pub min_power: i64,
    /// Mean state of charge of the batteries, %; 0 when unknown.
    pub soc: f64,
    pub pv_to: bool,
    pub to_load: bool,
    /// The battery charges.
    pub to_bat: bool,
    /// The battery discharges.
    pub bat_to: bool,
    /// Exporting.
    pub to_grid: bool,
    /// Importing.
    pub grid_to: bool,
    pub gen_to: bool,
    pub min_to: bool,
    pub exists_gen: bool,
    pub exists_min: bool,
    pub gen_on: bool,
    pub micro_on: bool,
    pub exists_meter: bool,
    pub exists_grid: bool,
    pub exists_battery: bool,
    pub bms_comm_fault_flag: bool,
    pub exist_think_power: bool,
    /// The (first) inverter's protocol.
    pub protocol_identifier: String,
    pub batt_power2: i64,
    pub smart_load_power: i64,
    pub ups_load_power: i64,
    pub home_load_power: f64,
    pub charge_pile_power: i64,
    pub to_smart_load: bool,
    pub to_ups_load: bool,
    pub to_home_load: bool,
    pub to_charge_pile: bool,
    pub exists_three_load: bool,
    pub exists_smart_load: bool,
    pub exists_charge_pile: bool,
    /// Always null.
    #[schema(required)]
    pub pv: Option<f64>,
    /// When the newest data was taken, plant-local; null before the first report.
    #[schema(required)]
    pub time: Option<String>,
    /// The same, `YYYY-MM-DDTHH:MM:SSZ`.
    #[schema(required)]
    pub update_at: Option<String>,
    /// No fresh data: powers read 0.
    pub stale: bool,
}
