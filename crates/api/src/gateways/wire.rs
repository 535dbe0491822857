//! What the gateway routes answer.

use serde::Serialize;
use utoipa::ToSchema;

/// A gateway's plant.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GatewayPlant {
    pub id: i64,
    /// Null when the caller may not see the plant.
    pub name: Option<String>,
}

/// The account holding a gateway.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GatewayCustomer {
    pub id: i64,
    /// Its nickname, or its account when it has none.
    pub nickname: String,
    pub account: String,
}

/// One gateway as the list answers it (the original API's item, plus its plant and customer).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Gateway {
    pub id: i64,
    pub sn: String,
    /// The registration key (the gateway's MQTT password): always null in the list; the detail
    /// gives it to those who may edit the gateway.
    pub key: Option<String>,
    pub alias: String,
    /// 1 online, 0 offline.
    pub status: i64,
    /// 1 WiFi, 2 GPRS, 3 4G, 4 Ethernet, 5 RS485; null for a link without a code (the name is
    /// `commTypeName`).
    pub comm_type: Option<i64>,
    pub comm_type_name: String,
    /// Signal strength, dBm.
    pub signal: Option<i64>,
    pub soft_ver: String,
    pub hard_ver: String,
    /// `YYYY-MM-DDTHH:MM:SSZ`: the newest of its last message and its last change.
    pub update_at: String,
    /// Always null: the original numbers its protocols; here a protocol is a named config
    /// (`proto`).
    pub protocol_type: Option<i64>,
    /// The protocol config its reports are decoded with.
    pub proto: String,
    pub model: String,
    /// The time of its newest message (telemetry, status, event or reply), UTC
    /// `YYYY-MM-DD HH:MM:SS`; null before the first.
    pub lldt: Option<String>,
    /// The same as `YYYY-MM-DDTHH:MM:SSZ`.
    pub last_message_at: Option<String>,
    /// Seconds between reports.
    pub upload_cycle: i64,
    /// When it last signed in (a new MQTT connection), ms since the epoch; null before the
    /// portal saw one. Later than a restart's `acceptedAt`: the gateway restarted and is back.
    pub signed_in_at: Option<i64>,
    /// Its alias, or its SN when it has none.
    pub dev_name: String,
    pub online: bool,
    pub plant_id: Option<i64>,
    pub plant_name: Option<String>,
    pub plant: Option<GatewayPlant>,
    /// The account holding it.
    pub customer_id: Option<i64>,
    pub customer_name: Option<String>,
    pub customer: Option<GatewayCustomer>,
    pub create_at: String,
}

/// A device behind a gateway.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GatewayDevice {
    pub id: i64,
    pub sn: String,
    #[schema(value_type = crate::openapi::DeviceFamilySchema)]
    pub family: domain::DeviceFamily,
    /// The device's type code.
    #[serde(rename = "type")]
    pub kind: i64,
    pub alias: String,
    pub model: String,
    pub protocol: String,
    /// Rated power, kW.
    pub rate_power: f64,
    pub parent_sn: Option<String>,
    pub status: i64,
    pub online: bool,
    pub plant_id: Option<i64>,
    /// `YYYY-MM-DDTHH:MM:SSZ`; null before its first report.
    pub last_seen: Option<String>,
    pub update_at: String,
}

/// One gateway with the devices behind it. `key` (in the list item's fields), `keyPending`
/// and `keyChangedAt` are given only to those who may edit the gateway (`keyEditable`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GatewayDetail {
    #[serde(flatten)]
    pub gateway: Gateway,
    pub devices: Vec<GatewayDevice>,
    /// Whether the caller may read and rotate the key.
    pub key_editable: bool,
    /// Whether a rotated key waits for the gateway to take it; absent unless `keyEditable`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_pending: Option<bool>,
    /// When the key last changed, `YYYY-MM-DDTHH:MM:SSZ` (null if never); absent unless
    /// `keyEditable`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, required = false)]
    pub key_changed_at: Option<Option<String>>,
}

/// How many gateways the caller may see.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GatewayCounts {
    pub total: i64,
    pub online: i64,
    pub offline: i64,
}

/// One gateway's outcome in a batch (restart) or in the check before one.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GatewayOutcome {
    pub sn: String,
    /// Succeeded (a restart) or ready (a check).
    pub success: bool,
    /// The command's status (`succeeded`, `failed`, `timed_out`, ...), `refused` when the
    /// portal refused it, `ok` when a check found it ready.
    pub status: String,
    /// 0, the device's result code, or the refusal's code.
    pub code: i64,
    pub msg: String,
    /// The command sent; null when none was.
    pub command_id: Option<i64>,
    /// The gateway acted on; null when none was (a refusal, a check).
    pub gateway_id: Option<i64>,
    /// When the gateway accepted the command (its reply said so), ms since the epoch; null
    /// unless it succeeded. A restarted gateway is back once its `signedInAt` is later.
    pub accepted_at: Option<i64>,
}

/// What the check before a batch found: nothing is done yet, so how many gateways are ready
/// and how many would be refused, with each one's reason.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GatewayCheck {
    pub total: usize,
    pub ready: usize,
    pub refused: usize,
    pub items: Vec<GatewayOutcome>,
}

/// A replaced gateway.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GatewayReplaced {
    pub old_sn: String,
    pub new_sn: String,
    pub plant_id: i64,
    /// How many devices moved to the new gateway.
    pub devices: u64,
}

/// A gateway's protocol config after the change.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GatewayProtocol {
    pub sn: String,
    pub protocol: String,
}

/// One row of an imported sheet.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GatewayImportRow {
    /// The sheet's own row number, from 1.
    pub row: u32,
    pub sn: String,
    /// 0 imported (or importable), else the refusal's code.
    pub code: i64,
    pub msg: String,
    /// `created` (or would be, in a check), `duplicate` (SN already registered or taken, or
    /// repeated in the file) or `invalid` (`msg` says which field).
    pub result: ImportResult,
}

/// A row's outcome in a word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ImportResult {
    Created,
    Duplicate,
    Invalid,
}

/// A batch import's totals and every row's outcome. The shape of `BatchOutcome`, but its
/// rows are under `results`, the key third-party clients read.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GatewayImport {
    pub total: usize,
    pub succeeded: usize,
    pub failed: usize,
    pub results: Vec<GatewayImportRow>,
}
