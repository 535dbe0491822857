//! Turning an MQTT message from a gateway into something the portal acts on, or a reason to
//! drop it. Pure: no I/O, so every refusal is unit-tested here.

use serde::Deserialize;

use crate::report::{
    CommandReply, DeviceEvent, GatewayStatus, Item, MAX_PAYLOAD_BYTES, PAYLOAD_VERSION, Report,
    parse_topic,
};

/// What an accepted message is for.
#[derive(Debug)]
pub enum Inbound {
    /// Goes to ingest.
    Item(Item),
    /// Updates a command (handled by the link, not ingest).
    Reply(CommandReply),
}

/// Why a message was dropped; the label of the `portal_mqtt_dropped_total` counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DropReason {
    /// Not `portal/v1/{sn}/{leaf}`.
    BadTopic,
    /// A leaf the portal does not read.
    UnknownLeaf,
    Oversized,
    /// Not JSON, or not the leaf's schema.
    Malformed,
    /// A `v` this portal does not speak.
    UnsupportedVersion,
    /// Read, but refused by ingest for good (unknown gateway, a timestamp out of range, too
    /// many devices): sending it again would not help.
    Refused,
}

impl DropReason {
    pub const ALL: [DropReason; 6] = [
        DropReason::BadTopic,
        DropReason::UnknownLeaf,
        DropReason::Oversized,
        DropReason::Malformed,
        DropReason::UnsupportedVersion,
        DropReason::Refused,
    ];

    pub fn label(self) -> &'static str {
        match self {
            DropReason::BadTopic => "bad_topic",
            DropReason::UnknownLeaf => "unknown_leaf",
            DropReason::Oversized => "oversized",
            DropReason::Malformed => "malformed",
            DropReason::UnsupportedVersion => "unsupported_version",
            DropReason::Refused => "refused",
        }
    }
}

/// Parses one message: the gateway SN from the topic and the payload by the topic's leaf.
pub fn parse(topic: &str, payload: &[u8]) -> Result<(String, Inbound), DropReason> {
    let (sn, leaf) = parse_topic(topic).ok_or(DropReason::BadTopic)?;
    if payload.len() > MAX_PAYLOAD_BYTES {
        return Err(DropReason::Oversized);
    }
    let inbound = match leaf {
        "telemetry" => Inbound::Item(Item::Telemetry(decode::<Report>(payload, |t| t.v)?)),
        "status" => Inbound::Item(Item::Status(decode::<GatewayStatus>(payload, |s| s.v)?)),
        "event" => Inbound::Item(Item::Event(decode::<DeviceEvent>(payload, |e| e.v)?)),
        "reply" => Inbound::Reply(decode::<CommandReply>(payload, |r| r.v)?),
        _ => return Err(DropReason::UnknownLeaf),
    };
    Ok((sn.to_string(), inbound))
}

fn decode<T: for<'de> Deserialize<'de>>(
    payload: &[u8],
    version: impl Fn(&T) -> u32,
) -> Result<T, DropReason> {
    match serde_json::from_slice::<T>(payload) {
        Ok(value) if version(&value) == PAYLOAD_VERSION => Ok(value),
        Ok(_) => Err(DropReason::UnsupportedVersion),
        // A future version may change the shape: say so rather than "malformed".
        Err(_) => match serde_json::from_slice::<VersionOnly>(payload) {
            Ok(VersionOnly { v: Some(v) }) if v != u64::from(PAYLOAD_VERSION) => {
                Err(DropReason::UnsupportedVersion)
            }
            _ => Err(DropReason::Malformed),
        },
    }
}

#[derive(Deserialize)]
struct VersionOnly {
    v: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn telemetry_status_event_and_reply_parse_by_leaf() {
        let t =
            br#"{"v":1,"ts":5,"devices":[{"sn":"INV1","family":"inverter","values":{"p":1.5}}]}"#;
        let Ok((sn, Inbound::Item(Item::Telemetry(t)))) = parse("portal/v1/GW1/telemetry", t)
        else {
            panic!("telemetry");
        };
        assert_eq!((sn.as_str(), t.devices.len()), ("GW1", 1));
        assert!(matches!(
            parse("portal/v1/GW1/status", br#"{"v":1,"online":false}"#),
            Ok((
                _,
                Inbound::Item(Item::Status(GatewayStatus { online: false, .. }))
            ))
        ));
        assert!(matches!(
            parse(
                "portal/v1/GW1/event",
                br#"{"v":1,"ts":1,"sn":"INV1","code":"F01","action":"open"}"#
            ),
            Ok((_, Inbound::Item(Item::Event(_))))
        ));
        assert!(matches!(
            parse("portal/v1/GW1/reply", br#"{"v":1,"id":"c1","code":0}"#),
            Ok((_, Inbound::Reply(CommandReply { code: 0, .. })))
        ));
    }

    #[test]
    fn bad_messages_are_refused_with_their_reason() {
        let cases: [(&str, &[u8], DropReason); 8] = [
            ("portal/v1/GW1", b"{}", DropReason::BadTopic),
            ("portal/v1/GW1/telemetry/x", b"{}", DropReason::BadTopic),
            ("portal/v1/GW1/cmd", br#"{"v":1}"#, DropReason::UnknownLeaf),
            (
                "portal/v1/GW1/telemetry",
                b"not json",
                DropReason::Malformed,
            ),
            (
                "portal/v1/GW1/telemetry",
                br#"{"v":1,"ts":"x"}"#,
                DropReason::Malformed,
            ),
            (
                "portal/v1/GW1/status",
                br#"{"online":true}"#,
                DropReason::Malformed,
            ),
            (
                "portal/v1/GW1/status",
                br#"{"v":2,"online":true}"#,
                DropReason::UnsupportedVersion,
            ),
            (
                "portal/v1/GW1/telemetry",
                br#"{"v":9,"other":[]}"#,
                DropReason::UnsupportedVersion,
            ),
        ];
        for (topic, payload, reason) in cases {
            assert_eq!(
                parse(topic, payload).err(),
                Some(reason),
                "{topic} {payload:?}"
            );
        }
    }

    #[test]
    fn payloads_over_the_limit_are_refused_before_parsing() {
        let big = vec![b' '; MAX_PAYLOAD_BYTES + 1];
        assert_eq!(
            parse("portal/v1/GW1/telemetry", &big).err(),
            Some(DropReason::Oversized)
        );
    }
}
