//! The energy hub's JSON shapes. Times are `YYYY-MM-DDTHH:MM:SSZ`.

use domain::energy_hub::{AddressInput, DeviceInput, EnrollmentInput};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::extract::num;

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Program {
    pub id: i64,
    pub name: String,
    pub long_name: String,
    pub description: String,
    pub retailer: String,
    /// `local` (built in) or `vtn`.
    #[schema(value_type = crate::text_enums::ProgramSource)]
    pub source: &'static str,
    #[schema(required)]
    pub vtn_name: Option<String>,
    pub auto_accept: bool,
    pub active: bool,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Address {
    #[serde(default)]
    #[schema(max_length = 64)]
    pub country: Option<String>,
    #[serde(default)]
    #[schema(max_length = 64)]
    pub region: Option<String>,
    #[serde(default)]
    #[schema(max_length = 64)]
    pub locality: Option<String>,
    /// The one part a service address may leave out.
    #[serde(default)]
    #[schema(max_length = 64)]
    pub extended_address: Option<String>,
    #[serde(default)]
    #[schema(max_length = 64)]
    pub street_address: Option<String>,
    #[serde(default)]
    #[schema(max_length = 64)]
    pub postal_code: Option<String>,
}

impl Address {
    pub fn input(&self) -> AddressInput {
        AddressInput {
            country: self.country.clone(),
            region: self.region.clone(),
            locality: self.locality.clone(),
            extended_address: self.extended_address.clone(),
            street_address: self.street_address.clone(),
            postal_code: self.postal_code.clone(),
        }
    }
}

/// One device of an enrollment (capacities in kW, storage in kWh).
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Device {
    #[serde(default)]
    #[schema(max_length = 64)]
    pub sn: Option<String>,
    #[serde(default)]
    #[schema(max_length = 32)]
    pub manufacturer: Option<String>,
    #[serde(default)]
    #[schema(max_length = 32)]
    pub model: Option<String>,
    /// `YYYY-MM-DD`, not in the future.
    #[serde(default)]
    #[schema(max_length = 10)]
    pub install_date: Option<String>,
    #[serde(default, deserialize_with = "num::opt_f64")]
    #[schema(minimum = 0, maximum = 1000)]
    pub charge_capacity: Option<f64>,
    #[serde(default, deserialize_with = "num::opt_f64")]
    #[schema(minimum = 0, maximum = 1000)]
    pub discharge_capacity: Option<f64>,
    #[serde(default, deserialize_with = "num::opt_f64")]
    #[schema(minimum = 0, maximum = 10000)]
    pub storage_capacity: Option<f64>,
}

impl Device {
    pub fn input(&self) -> DeviceInput {
        DeviceInput {
            sn: self.sn.clone(),
            manufacturer: self.manufacturer.clone(),
            model: self.model.clone(),
            install_date: self.install_date.clone(),
            charge_capacity: self.charge_capacity,
            discharge_capacity: self.discharge_capacity,
            storage_capacity: self.storage_capacity,
        }
    }
}

/// An enrollment as created or edited (`id` given: edit a pending or rejected one).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnrollmentRequest {
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub id: Option<i64>,
    #[serde(default, deserialize_with = "num::opt_i64")]
    #[schema(value_type = i64)]
    pub program_id: Option<i64>,
    #[serde(default, deserialize_with = "num::opt_i64")]
    #[schema(value_type = i64)]
    pub station_id: Option<i64>,
    /// Digits only, 1-16.
    #[serde(default)]
    #[schema(value_type = String, min_length = 1, max_length = 16)]
    pub source_account_number: Option<String>,
    /// Lower-case letters, digits, `_` and `-`, 1-16.
    #[serde(default)]
    #[schema(value_type = String, min_length = 1, max_length = 16)]
    pub utility_account_number: Option<String>,
    #[serde(default)]
    #[schema(value_type = String, min_length = 1, max_length = 32)]
    pub first_name: Option<String>,
    #[serde(default)]
    #[schema(value_type = String, min_length = 1, max_length = 32)]
    pub last_name: Option<String>,
    #[serde(default)]
    #[schema(value_type = String)]
    pub email: Option<String>,
    #[serde(default)]
    #[schema(value_type = Address)]
    pub service_address: Option<Address>,
    /// The service address when absent.
    #[serde(default)]
    pub mailing_address: Option<Address>,
    /// 1 to 10.
    #[serde(default)]
    #[schema(value_type = Vec<Device>, min_items = 1, max_items = 10)]
    pub devices: Option<Vec<Device>>,
    /// 1-100 %.
    #[serde(default, deserialize_with = "num::opt_i64")]
    #[schema(value_type = i64, minimum = 1, maximum = 100)]
    pub participation_level: Option<i64>,
    /// An IANA zone name.
    #[serde(default)]
    #[schema(value_type = String)]
    pub time_zone: Option<String>,
}

impl EnrollmentRequest {
    pub fn input(&self) -> EnrollmentInput {
        EnrollmentInput {
            source_account_number: self.source_account_number.clone(),
            utility_account_number: self.utility_account_number.clone(),
            first_name: self.first_name.clone(),
            last_name: self.last_name.clone(),
            email: self.email.clone(),
            service_address: self.service_address.as_ref().map(Address::input),
            mailing_address: self.mailing_address.as_ref().map(Address::input),
            participation_level: self.participation_level,
            time_zone: self.time_zone.clone(),
            devices: self
                .devices
                .as_ref()
                .map(|d| d.iter().map(Device::input).collect()),
        }
    }
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AddressOut {
    pub country: String,
    pub region: String,
    pub locality: String,
    pub extended_address: String,
    pub street_address: String,
    pub postal_code: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeviceOut {
    pub sn: String,
    pub manufacturer: String,
    pub model: String,
    pub install_date: String,
    pub charge_capacity: f64,
    pub discharge_capacity: f64,
    pub storage_capacity: f64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Enrollment {
    pub id: i64,
    pub program_id: i64,
    pub program_name: String,
    /// `local` or `vtn`.
    #[schema(value_type = crate::text_enums::ProgramSource)]
    pub source: &'static str,
    pub station_id: i64,
    pub station_name: String,
    /// `pending`, `accepted`, `rejected` or `unenrolled`.
    #[schema(value_type = crate::text_enums::EnrollmentStatus)]
    pub status: &'static str,
    pub reason: String,
    /// Report payload types the utility's events ask for that the portal cannot produce
    /// (VTN programmes; those reports are not sent).
    pub unsupported_reports: Vec<String>,
    pub opted_out: bool,
    pub source_account_number: String,
    pub utility_account_number: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub service_address: AddressOut,
    pub mailing_address: AddressOut,
    pub participation_level: i64,
    pub time_zone: String,
    pub devices: Vec<DeviceOut>,
    /// What the caller may do now: join, resubmit, quit, optOut, optIn, accept, reject.
    #[schema(value_type = Vec<crate::text_enums::EnrollmentAction>)]
    pub allowed_actions: Vec<&'static str>,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnrollmentState {
    pub id: i64,
    #[schema(value_type = crate::text_enums::EnrollmentStatus)]
    pub status: &'static str,
    pub reason: String,
    pub opted_out: bool,
    #[schema(value_type = Vec<crate::text_enums::EnrollmentAction>)]
    pub allowed_actions: Vec<&'static str>,
    pub updated_at: String,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct DevicesRequest {
    /// 1 to 10.
    #[serde(default)]
    #[schema(value_type = Vec<Device>, min_items = 1, max_items = 10)]
    pub devices: Option<Vec<Device>>,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ActionRequest {
    /// join, resubmit, quit, optOut, optIn; the utility: accept, reject.
    #[serde(default)]
    #[schema(value_type = crate::text_enums::EnrollmentAction)]
    pub action: Option<String>,
    /// Required (1-200) to reject.
    #[serde(default)]
    #[schema(max_length = 200)]
    pub reason: Option<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TimeZone {
    pub id: &'static str,
    /// `+01:00`.
    pub offset: String,
    pub label: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Station {
    pub id: i64,
    pub name: String,
    pub time_zone: String,
    pub address: String,
    /// In a pending or accepted enrollment.
    pub enrolled: bool,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MasterDevice {
    pub sn: String,
    pub manufacturer: String,
    pub model: String,
    pub install_date: String,
    /// kW.
    pub rated_power: f64,
    pub charge_capacity: f64,
    pub discharge_capacity: f64,
    /// kWh (0 when unknown).
    pub storage_capacity: f64,
    pub has_battery: bool,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    pub id: i64,
    pub program_id: i64,
    pub program_name: String,
    #[schema(value_type = crate::text_enums::ProgramSource)]
    pub source: &'static str,
    pub name: String,
    pub priority: i64,
    pub start_date: String,
    /// Minutes.
    pub duration: i64,
    pub end_date: String,
    /// `discharge` or `exportLimit` (`charge` only from a utility's server).
    #[schema(value_type = crate::text_enums::EventKind)]
    pub kind: &'static str,
    pub target_kw: f64,
    /// kW: the target for a discharge event, 0 for an export limit.
    pub power_discharge: f64,
    /// `pending`, `active`, `completed` or `cancelled`.
    #[schema(value_type = crate::text_enums::EventStatus)]
    pub status: &'static str,
    /// Every enrollment of the caller taking part is opted out.
    pub opted_out: bool,
    /// Enrolled plants taking part (of those the caller sees).
    pub plants: i64,
    pub created_at: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IntervalOut {
    pub id: i64,
    pub start_date: String,
    pub end_date: String,
    #[schema(value_type = crate::text_enums::EventKind)]
    pub kind: &'static str,
    pub target_kw: f64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DispatchOutcome {
    pub station_id: i64,
    pub station_name: String,
    pub sn: String,
    #[schema(value_type = crate::text_enums::DispatchState)]
    pub state: String,
    pub error: String,
    pub updated_at: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportOutcome {
    pub payload_type: String,
    #[schema(required)]
    pub sent_at: Option<String>,
    pub error: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventDetail {
    #[serde(flatten)]
    pub event: Event,
    pub intervals: Vec<IntervalOut>,
    pub dispatches: Vec<DispatchOutcome>,
    pub reports: Vec<ReportOutcome>,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CancelRequest {
    /// Opt only this enrollment out.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub enrollment_id: Option<i64>,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProgramRequest {
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub id: Option<i64>,
    #[serde(default)]
    #[schema(value_type = String, min_length = 1, max_length = 64)]
    pub name: Option<String>,
    #[serde(default)]
    #[schema(max_length = 128)]
    pub long_name: Option<String>,
    #[serde(default)]
    #[schema(max_length = 500)]
    pub description: Option<String>,
    #[serde(default)]
    #[schema(max_length = 64)]
    pub retailer: Option<String>,
    #[serde(default, deserialize_with = "num::opt_bool")]
    pub auto_accept: Option<bool>,
    #[serde(default, deserialize_with = "num::opt_bool")]
    pub active: Option<bool>,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventRequest {
    #[serde(default, deserialize_with = "num::opt_i64")]
    #[schema(value_type = i64)]
    pub program_id: Option<i64>,
    #[serde(default)]
    #[schema(value_type = String, min_length = 1, max_length = 64)]
    pub name: Option<String>,
    /// RFC 3339; at most 5 minutes in the past.
    #[serde(default)]
    #[schema(value_type = String)]
    pub start: Option<String>,
    /// 5-1440.
    #[serde(default, deserialize_with = "num::opt_i64")]
    #[schema(value_type = i64, minimum = 5, maximum = 1440)]
    pub duration_minutes: Option<i64>,
    /// `discharge` or `exportLimit`.
    #[serde(default)]
    #[schema(value_type = String)]
    pub kind: Option<String>,
    /// 0-10000 kW.
    #[serde(default, deserialize_with = "num::opt_f64")]
    #[schema(value_type = f64, minimum = 0, maximum = 10000)]
    pub target_kw: Option<f64>,
    /// 0-100, lower wins (0 when absent).
    #[serde(default, deserialize_with = "num::opt_i64")]
    #[schema(minimum = 0, maximum = 100)]
    pub priority: Option<i64>,
}
