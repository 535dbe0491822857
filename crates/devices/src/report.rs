//! What gateways send and how it reaches storage. The MQTT link parses payloads into these
//! types and hands them to the ingest pipeline as a [`Submission`]; the link acknowledges the
//! MQTT message only when the submission's `done` channel reports the data committed.
//!
//! Topics (all under the gateway's SN; see docs/device-protocol.md):
//! - `portal/v1/{gsn}/telemetry`  gateway → portal, [`Telemetry`]
//! - `portal/v1/{gsn}/status`     gateway → portal, [`GatewayStatus`] (retained; also the last will)
//! - `portal/v1/{gsn}/event`      gateway → portal, [`DeviceEvent`]
//! - `portal/v1/{gsn}/cmd`        portal → gateway, [`Command`]
//! - `portal/v1/{gsn}/reply`      gateway → portal, [`CommandReply`]

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use tokio::sync::{mpsc, oneshot};

use crate::{decode::RegisterBlock, decode::Value};

/// Payload format version: every payload carries `"v": 1`.
pub const PAYLOAD_VERSION: u32 = 1;
pub const TOPIC_ROOT: &str = "portal/v1";
/// Larger payloads are dropped and counted.
pub const MAX_PAYLOAD_BYTES: usize = 256 * 1024;

/// A reading's values as the simulator and tests build them.
pub type ValueMap = BTreeMap<String, Value>;

/// One report from a gateway: the readings of the devices behind it at one moment. `V` is how
/// the values are held: a map where they are made ([`Telemetry`]), the text as sent where
/// ingest reads them ([`Report`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound(deserialize = "V: Deserialize<'de> + Default"))]
pub struct Telemetry<V = ValueMap> {
    pub v: u32,
    /// Milliseconds since the epoch (UTC), when the gateway read the devices.
    pub ts: i64,
    pub devices: Vec<DeviceReading<V>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound(deserialize = "V: Deserialize<'de> + Default"))]
pub struct DeviceReading<V = ValueMap> {
    pub sn: String,
    /// A `DeviceFamily` name (`DeviceFamily::reported`). Text, not the enum: a family this
    /// portal does not know skips that one device (`unknown_family`), not the whole report.
    pub family: String,
    /// Inverter type code (docs/overview.md, "Entities") (0 for other families).
    #[serde(default, rename = "type")]
    pub type_code: i64,
    /// Protocol config code used to decode `raw` (and to describe `values`).
    #[serde(default)]
    pub protocol: String,
    #[serde(default)]
    pub model: String,
    /// The master battery of a slave pack.
    #[serde(default)]
    pub parent: Option<String>,
    /// Values the gateway decoded itself.
    #[serde(default)]
    pub values: V,
    /// Raw Modbus register blocks, decoded by the portal with `protocol`.
    #[serde(default)]
    pub raw: Vec<RegisterBlock>,
}

/// A telemetry report as ingest reads it: each reading's values left as the JSON text the
/// gateway sent (absent: none). Ingest checks that text in one pass and stores it as it came
/// (see `ingest::values`).
pub type Report = Telemetry<Option<Box<RawValue>>>;
pub type ReportReading = DeviceReading<Option<Box<RawValue>>>;

impl From<Telemetry> for Report {
    fn from(t: Telemetry) -> Report {
        Report {
            v: t.v,
            ts: t.ts,
            devices: t
                .devices
                .into_iter()
                .map(|d| ReportReading {
                    values: serde_json::value::to_raw_value(&d.values).ok(),
                    sn: d.sn,
                    family: d.family,
                    type_code: d.type_code,
                    protocol: d.protocol,
                    model: d.model,
                    parent: d.parent,
                    raw: d.raw,
                })
                .collect(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GatewayStatus {
    pub v: u32,
    pub online: bool,
    #[serde(default)]
    pub soft_ver: Option<String>,
    #[serde(default)]
    pub hard_ver: Option<String>,
    /// RSSI in dBm.
    #[serde(default)]
    pub signal: Option<i64>,
    #[serde(default)]
    pub comm_type: Option<String>,
    /// Seconds between telemetry reports.
    #[serde(default)]
    pub upload_cycle: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeviceEvent {
    pub v: u32,
    pub ts: i64,
    pub sn: String,
    pub code: String,
    /// `open` when the condition starts, `close` when it clears.
    pub action: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Command {
    pub v: u32,
    /// Correlation id: the reply carries it back.
    pub id: String,
    /// The device the command is for (the gateway's own SN for gateway commands).
    pub sn: String,
    /// `set_params`, `read_params`, `power_on`, `power_off`, `restart`, `upgrade`, `modbus_raw`...
    pub kind: String,
    #[serde(default)]
    pub params: serde_json::Value,
    pub timeout_ms: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommandReply {
    pub v: u32,
    pub id: String,
    /// 0 success; anything else is the device's failure code.
    pub code: i64,
    #[serde(default)]
    pub msg: String,
    #[serde(default)]
    pub data: serde_json::Value,
}

/// Something a gateway sent that storage must record, and where to say it is committed.
#[derive(Debug)]
pub struct Submission {
    pub gateway_sn: String,
    pub item: Item,
    /// Answered once the item is durably stored (or refused); the link acknowledges then.
    pub done: oneshot::Sender<Result<(), String>>,
}

#[derive(Debug)]
pub enum Item {
    Telemetry(Report),
    Status(GatewayStatus),
    Event(DeviceEvent),
    Reply(CommandReply),
}

/// Ingest answers `Err` starting with this when an item was not stored only for now (the
/// database failed): the link leaves the message unacknowledged so it comes again. Any other
/// `Err` refuses the item for good; the link counts it, drops it and acknowledges it.
pub const RETRY_PREFIX: &str = "retry: ";

/// An answer asking for the message again.
pub fn retry(why: &str) -> String {
    format!("{RETRY_PREFIX}{why}")
}

pub fn is_retryable(err: &str) -> bool {
    err.starts_with(RETRY_PREFIX)
}

pub type SubmissionTx = mpsc::Sender<Submission>;
pub type SubmissionRx = mpsc::Receiver<Submission>;

/// The topic a gateway uses for one kind of message.
pub fn topic(gateway_sn: &str, leaf: &str) -> String {
    format!("{TOPIC_ROOT}/{gateway_sn}/{leaf}")
}

/// Splits `portal/v1/{gsn}/{leaf}` into its gateway SN and leaf.
pub fn parse_topic(topic: &str) -> Option<(&str, &str)> {
    let rest = topic.strip_prefix(TOPIC_ROOT)?.strip_prefix('/')?;
    let (sn, leaf) = rest.split_once('/')?;
    if sn.is_empty() || leaf.is_empty() || leaf.contains('/') || sn.contains(['+', '#']) {
        return None;
    }
    Some((sn, leaf))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topics_round_trip_and_wildcards_or_extra_levels_are_refused() {
        assert_eq!(
            parse_topic(&topic("GW1", "telemetry")),
            Some(("GW1", "telemetry"))
        );
        assert_eq!(parse_topic("portal/v1/GW1/telemetry/x"), None);
        assert_eq!(parse_topic("portal/v1/+/telemetry"), None);
        assert_eq!(parse_topic("portal/v2/GW1/telemetry"), None);
        assert_eq!(parse_topic("portal/v1//telemetry"), None);
    }

    #[test]
    fn telemetry_parses_decoded_values_and_raw_blocks() {
        let json = r#"{"v":1,"ts":1700000000000,"devices":[{"sn":"INV1","family":"inverter","type":2,
            "protocol":"deye-hybrid-1ph","values":{"pv1_voltage":230.5,"serial":"ABC"},
            "raw":[{"kind":"holding","start":500,"words":[1,2,3]}]}]}"#;
        let t: Telemetry = serde_json::from_str(json).unwrap();
        assert_eq!(t.devices[0].values["pv1_voltage"], Value::Number(230.5));
        assert_eq!(t.devices[0].raw[0].words, vec![1, 2, 3]);
    }
}
