//! The answers of the inverter endpoints, field by field as third-party clients read them
//! (docs/api-conventions.md): numeric strings stay strings, `null` where a value is unknown.
//! Every realtime answer says when its values were taken (`updateAt`, plant-local) and whether
//! they are past the inverter's offline bound (`stale`).

use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

use super::values::Vip;
use crate::readings;

/// The firmware the device reported (strings or null).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FirmwareVersions {
    pub master_ver: Option<String>,
    pub soft_ver: Option<String>,
    pub hard_ver: Option<String>,
    pub hmi_ver: Option<String>,
    pub bms_ver: Option<String>,
    /// The communication module's firmware, when the device reports it (else null, as the
    /// original mostly sends it).
    pub comm_ver: Option<String>,
}

/// The plant of a list item.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InverterPlant {
    pub id: i64,
    pub name: String,
    #[serde(rename = "type")]
    pub kind: i64,
    /// The display name of the plant's owner (nickname, else account).
    pub master: Option<String>,
    pub installer: String,
    pub email: String,
    pub phone: String,
}

/// The gateway of a list item.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InverterGateway {
    pub gsn: String,
    /// 1 online, 0 offline.
    pub status: i64,
}

/// An inverter as the lists show it (the original API's item).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InverterItem {
    pub id: i64,
    pub sn: String,
    pub alias: String,
    pub gsn: Option<String>,
    /// 0 offline, 1 normal, 2 warning, 3 fault, 4 upgrading.
    pub status: i64,
    /// Device type code (docs/overview.md).
    #[serde(rename = "type")]
    pub kind: i64,
    /// The kind as a stable key (`grid_tied`, `single_phase_lv_hybrid`, ...).
    pub type_key: &'static str,
    /// Always `RS485`: inverters talk Modbus RTU to their gateway.
    pub comm_type_name: &'static str,
    /// Customer (manufacturer) code; 0 when unknown.
    pub cust_code: i64,
    pub version: FirmwareVersions,
    pub model: String,
    /// PV power now (W); 0 once the values are stale.
    pub pac: f64,
    /// PV energy today (kWh).
    pub etoday: f64,
    /// PV energy in total (kWh).
    pub etotal: f64,
    /// `YYYY-MM-DDTHH:MM:SSZ`.
    pub update_at: String,
    pub create_at: String,
    /// 1 when online and switched on, else 0.
    pub opened: i64,
    pub plant: Option<InverterPlant>,
    pub plant_id: Option<i64>,
    #[serde(rename = "gatewayVO")]
    pub gateway_vo: Option<InverterGateway>,
    /// The Deye/Sunsynk family (protocol config `deye-*`).
    pub sunsynk_equip: bool,
    pub protocol_identifier: String,
    /// Always null: the original's numeric mode has no counterpart (see `typeKey`).
    pub equip_mode: Option<i64>,
    pub equip_type: i64,
    /// Rated power (W), or null.
    pub rate_power: Option<f64>,
    pub online: bool,
    /// The newest values are past the offline bound: `pac` reads 0, the rest is last known.
    pub stale: bool,
    /// The plant's time zone (UTC without a plant).
    pub timezone: String,
    /// The product the inverter is (`POST /inverter/product`); null when unknown.
    pub product_id: Option<i64>,
    pub product_name: Option<String>,
}

/// How many inverters the caller may see, per status.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InverterStatusCounts {
    pub total: i64,
    pub normal: i64,
    pub offline: i64,
    pub warning: i64,
    pub fault: i64,
    pub upgrading: i64,
}

/// One inverter: the list item plus its readings now and the caller's keys on it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InverterDetail {
    #[serde(flatten)]
    pub item: InverterItem,
    pub hybrid: bool,
    pub protocol: String,
    pub running_state: Option<f64>,
    pub mppt_count: Option<f64>,
    pub phase_count: Option<f64>,
    /// °C.
    pub dc_temp: Option<f64>,
    /// °C.
    pub igbt_temp: Option<f64>,
    /// `YYYY-MM-DDTHH:MM:SSZ`, or null before the first report.
    pub last_seen: Option<String>,
    /// The keys the caller holds on the inverter's plant.
    pub plant_permission: Vec<String>,
    /// PV energy this month and this year (kWh, plant-local calendar).
    pub emonth: f64,
    pub eyear: f64,
    /// The running state as the original names it (`Standby`, `SelfCheck`, `Normal`, `Alarm`,
    /// `Fault`); null before the first report.
    pub run_status: Option<&'static str>,
    /// The plant's picture (thumbnail URL); null without a plant or picture.
    pub thumb_url: Option<String>,
    /// The gateway's link as an int (1 WiFi, 2 GPRS, 3 4G, 4 Ethernet, 5 RS485), null otherwise.
    pub comm_type: Option<i64>,
    /// `Deye` for the Deye/Sunsynk family (protocol config `deye-*`), else null.
    pub brand: Option<&'static str>,
    /// The plant's address; null without a plant.
    pub address: Option<String>,
    /// The plant's owner (what the plant detail shows as `master`); null without a plant.
    pub user: Option<InverterUser>,
    /// The newest report's values by key, as the gateway decoded them: free-form JSON (numbers,
    /// strings, flags), the protocol config decides the keys.
    #[schema(value_type = Object)]
    pub values: Map<String, Value>,
}

/// A second battery bank's values (numeric strings, null without one).
#[derive(Debug, Default, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SecondBank {
    pub current2: Option<String>,
    pub voltage2: Option<String>,
    pub temp2: Option<String>,
    pub soc2: Option<String>,
    pub charge_volt2: Option<String>,
    pub discharge_volt2: Option<String>,
    pub charge_current_limit2: Option<String>,
    pub discharge_current_limit2: Option<String>,
    pub max_charge_current_limit2: Option<String>,
    pub max_discharge_current_limit2: Option<String>,
}

/// The owner of an inverter's plant.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InverterUser {
    pub id: i64,
    pub nickname: String,
    pub mobile: Option<String>,
    pub email: Option<String>,
}

/// One PV input now; values as numeric strings.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PvInput {
    pub id: i64,
    pub pv_no: i64,
    /// V.
    pub vpv: Option<String>,
    /// A.
    pub ipv: Option<String>,
    /// W.
    pub ppv: Option<String>,
    /// The input's part of the inverter's PV energy today (kWh).
    pub today_pv: String,
    pub sn: String,
    /// Plant-local `YYYY-MM-DD HH:MM:SS`.
    pub time: String,
}

/// An MPPT's string values (never sent: the protocols report one value set per MPPT).
#[derive(Debug, Serialize, ToSchema)]
pub struct MpptString {}

/// PV input now.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InputRealtime {
    /// kWh.
    pub etoday: f64,
    /// kWh.
    pub etotal: f64,
    /// PV power (whole W: typed clients read it as an int).
    pub pac: f64,
    /// The original's grid peak-shaving threshold (W, as text); null: no protocol reports it.
    #[serde(rename = "grid_tip_power")]
    pub grid_tip_power: Option<String>,
    #[serde(rename = "pvIV")]
    pub pv_iv: Vec<PvInput>,
    /// Always empty.
    #[serde(rename = "mpptIV")]
    pub mppt_iv: Vec<MpptString>,
    pub update_at: Option<String>,
    pub stale: bool,
}

/// The PV inputs alone.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PvIvRealtime {
    #[serde(rename = "pvIV")]
    pub pv_iv: Vec<PvInput>,
    /// Always empty.
    #[serde(rename = "mpptIV")]
    pub mppt_iv: Vec<MpptString>,
    pub update_at: Option<String>,
    pub stale: bool,
}

/// AC output now.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutputRealtime {
    pub vip: Vec<Vip>,
    /// W.
    pub p_inv: Option<f64>,
    /// W.
    pub pac: Option<f64>,
    /// Hz.
    pub fac: Option<f64>,
    /// °C.
    pub dc_temp: Option<f64>,
    /// °C.
    pub igbt_temp: Option<f64>,
    pub update_at: Option<String>,
    pub stale: bool,
}

/// The grid port (or the meter) now; energy figures are kWh as numeric strings.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GridRealtime {
    pub vip: Vec<Vip>,
    /// W.
    pub pac: Option<f64>,
    /// var (not in the shipped protocols).
    pub qac: Option<f64>,
    /// Hz.
    pub fac: Option<f64>,
    pub pf: Option<f64>,
    /// 1 connected, 0 not.
    pub status: Option<i64>,
    /// The grid relay: 1 closed, 0 open, null unknown (the original's spelling).
    pub ac_realy_status: Option<i64>,
    pub etoday_from: String,
    pub etoday_to: String,
    pub emonth_from: String,
    pub emonth_to: String,
    pub eyear_from: String,
    pub eyear_to: String,
    pub etotal_from: String,
    pub etotal_to: String,
    /// CT power per phase (W).
    pub limiter_power_arr: Vec<f64>,
    /// CT power (W).
    pub limiter_total_power: Option<f64>,
    pub update_at: Option<String>,
    pub stale: bool,
}

/// The load port now.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoadRealtime {
    /// kWh.
    pub total_used: f64,
    /// kWh.
    pub daily_used: f64,
    /// W.
    pub total_power: Option<f64>,
    pub smart_load_status: Option<f64>,
    /// Hz.
    pub load_fac: Option<f64>,
    #[serde(rename = "upsPowerL1")]
    pub ups_power_l1: Option<f64>,
    #[serde(rename = "upsPowerL2")]
    pub ups_power_l2: Option<f64>,
    #[serde(rename = "upsPowerL3")]
    pub ups_power_l3: Option<f64>,
    pub ups_power_total: Option<f64>,
    pub vip: Vec<Vip>,
    pub update_at: Option<String>,
    pub stale: bool,
}

/// The battery now. Text values are numeric strings; `power`, `current` and `voltage` are
/// never null (0 without a battery).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatteryRealtime {
    pub etoday_chg: String,
    pub etoday_dischg: String,
    pub emonth_chg: String,
    pub emonth_dischg: String,
    pub eyear_chg: String,
    pub eyear_dischg: String,
    pub etotal_chg: String,
    pub etotal_dischg: String,
    /// Always null (chemistry lives in the BMS screens).
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// Whole W (typed clients read it as an int).
    pub power: f64,
    /// Always null.
    pub capacity: Option<String>,
    /// Always null.
    pub correct_cap: Option<String>,
    pub current: String,
    pub voltage: String,
    pub temp: Option<String>,
    pub soc: Option<String>,
    pub charge_volt: Option<String>,
    pub discharge_volt: Option<String>,
    pub charge_current_limit: Option<String>,
    pub discharge_current_limit: Option<String>,
    pub max_charge_current_limit: Option<String>,
    pub max_discharge_current_limit: Option<String>,
    /// 0 idle, 1 charging, 2 discharging.
    pub status: Option<i64>,
    #[serde(rename = "batterySoc1")]
    pub battery_soc1: Option<String>,
    #[serde(rename = "batteryCurrent1")]
    pub battery_current1: Option<String>,
    #[serde(rename = "batteryVolt1")]
    pub battery_volt1: Option<String>,
    #[serde(rename = "batteryPower1")]
    pub battery_power1: Option<f64>,
    #[serde(rename = "batteryTemp1")]
    pub battery_temp1: Option<String>,
    #[serde(rename = "batteryStatus2")]
    pub battery_status2: Option<i64>,
    #[serde(rename = "batterySoc2")]
    pub battery_soc2: Option<String>,
    #[serde(rename = "batteryCurrent2")]
    pub battery_current2: Option<String>,
    #[serde(rename = "batteryVolt2")]
    pub battery_volt2: Option<String>,
    #[serde(rename = "batteryPower2")]
    pub battery_power2: Option<f64>,
    #[serde(rename = "batteryTemp2")]
    pub battery_temp2: Option<String>,
    pub number_of_batteries: i64,
    /// Always null.
    #[serde(rename = "batt1Factory")]
    pub batt1_factory: Option<String>,
    /// Always null.
    #[serde(rename = "batt2Factory")]
    pub batt2_factory: Option<String>,
    /// When the values were taken (plant-local `YYYY-MM-DD HH:MM:SS`); null without values.
    pub time: Option<String>,
    /// What the BMS reports (numbers: %, V, A, °C); null when it does not.
    pub bms_soc: Option<f64>,
    pub bms_volt: Option<f64>,
    pub bms_current: Option<f64>,
    pub bms_temp: Option<f64>,
    /// BMS firmware of the first and second bank (ints; null: not reported).
    #[serde(rename = "bms1Version1")]
    pub bms1_version1: Option<i64>,
    #[serde(rename = "bms1Version2")]
    pub bms1_version2: Option<i64>,
    #[serde(rename = "bms2Version1")]
    pub bms2_version1: Option<String>,
    #[serde(rename = "bms2Version2")]
    pub bms2_version2: Option<String>,
    /// The second bank's values as numeric strings; null without a second bank.
    #[serde(flatten)]
    pub bank2: SecondBank,
    pub update_at: Option<String>,
    pub stale: bool,
}

/// The backup (EPS) port now.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EpsRealtime {
    pub vip: Vec<Vip>,
    /// W.
    pub pac: Option<f64>,
    /// Hz.
    pub fac: Option<f64>,
    pub update_at: Option<String>,
    pub stale: bool,
}

/// The generator port now.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GenRealtime {
    /// kWh.
    pub gen_total: f64,
    /// kWh.
    pub gen_daily: f64,
    /// W.
    pub total_power: Option<f64>,
    /// Hz.
    pub gen_fac: Option<f64>,
    pub vip: Vec<Vip>,
    pub gen_on: Option<bool>,
    pub update_at: Option<String>,
    pub stale: bool,
}

/// A day curve (with its `date` and the plant's `timezone`) or energy bars (kWh, from the day
/// rollups; without `date` and `timezone`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeriesAnswer {
    /// Day curves only: the plant-local day, `YYYY-MM-DD`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// Day curves only: the plant's time zone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timezone: Option<String>,
    pub infos: Vec<readings::Series>,
}
