//! Who may publish and subscribe what. Pure rules, shared by the embedded broker's hooks and
//! documented for external brokers (docs/device-protocol.md gives the Mosquitto equivalent).
//!
//! - A gateway (username = its SN) publishes only `portal/v1/{sn}/{telemetry,status,event,reply}`
//!   and subscribes only `portal/v1/{sn}/cmd`; its last will, if any, is its own status topic.
//! - The portal's own client subscribes `portal/v1/+/{telemetry,status,event,reply}` (or one
//!   gateway's) and publishes `portal/v1/{sn}/cmd`.

use crate::report::{TOPIC_ROOT, parse_topic};

/// Leaves a gateway publishes to.
pub const UPLINK_LEAVES: [&str; 4] = ["telemetry", "status", "event", "reply"];
/// The leaf the portal publishes commands to.
pub const CMD_LEAF: &str = "cmd";

/// Who is connected, as established at authentication.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Identity {
    Gateway(String),
    Portal,
}

impl Identity {
    pub fn may_publish(&self, topic: &str) -> bool {
        let Some((sn, leaf)) = parse_topic(topic) else {
            return false;
        };
        match self {
            Identity::Gateway(own) => sn == own && UPLINK_LEAVES.contains(&leaf),
            Identity::Portal => leaf == CMD_LEAF && !sn.contains(['+', '#']),
        }
    }

    /// `filter` without any `$share/{group}/` prefix (the broker strips it before asking).
    pub fn may_subscribe(&self, filter: &str) -> bool {
        match self {
            Identity::Gateway(own) => {
                valid_sn(own) && filter == crate::report::topic(own, CMD_LEAF)
            }
            Identity::Portal => {
                let Some(rest) = filter
                    .strip_prefix(TOPIC_ROOT)
                    .and_then(|r| r.strip_prefix('/'))
                else {
                    return false;
                };
                let Some((sn, leaf)) = rest.split_once('/') else {
                    return false;
                };
                (sn == "+" || valid_sn(sn)) && UPLINK_LEAVES.contains(&leaf)
            }
        }
    }

    /// The last will a client may leave: a gateway only on its own status topic, the portal none.
    pub fn may_leave_will(&self, topic: &str) -> bool {
        match self {
            Identity::Gateway(own) => topic == crate::report::topic(own, "status"),
            Identity::Portal => false,
        }
    }
}

/// An SN usable as one topic level: not empty, no wildcard, separator or control character,
/// and not starting with `$` (reserved for broker topics).
pub fn valid_sn(sn: &str) -> bool {
    !sn.is_empty()
        && sn.len() <= 64
        && !sn.starts_with('$')
        && !sn
            .chars()
            .any(|c| matches!(c, '+' | '#' | '/') || c.is_control())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gw(sn: &str) -> Identity {
        Identity::Gateway(sn.into())
    }

    #[test]
    fn a_gateway_publishes_only_its_own_uplink_topics() {
        let a = gw("GWA");
        for leaf in UPLINK_LEAVES {
            assert!(a.may_publish(&format!("portal/v1/GWA/{leaf}")), "{leaf}");
            assert!(!a.may_publish(&format!("portal/v1/GWB/{leaf}")), "{leaf}");
        }
        assert!(!a.may_publish("portal/v1/GWA/cmd"));
        assert!(!a.may_publish("portal/v1/GWA/telemetry/extra"));
        assert!(!a.may_publish("portal/v1/+/telemetry"));
        assert!(!a.may_publish("other/GWA/telemetry"));
    }

    #[test]
    fn a_gateway_subscribes_only_its_own_command_topic() {
        let a = gw("GWA");
        assert!(a.may_subscribe("portal/v1/GWA/cmd"));
        for f in [
            "portal/v1/GWB/cmd",
            "portal/v1/+/cmd",
            "portal/v1/#",
            "#",
            "portal/v1/GWA/#",
            "portal/v1/GWA/telemetry",
            "portal/v1/GWA/+",
        ] {
            assert!(!a.may_subscribe(f), "{f}");
        }
    }

    #[test]
    fn the_portal_reads_every_uplink_and_writes_only_commands() {
        let p = Identity::Portal;
        assert!(p.may_subscribe("portal/v1/+/telemetry"));
        assert!(p.may_subscribe("portal/v1/GWA/reply"));
        assert!(!p.may_subscribe("portal/v1/+/cmd"));
        assert!(!p.may_subscribe("portal/v1/#"));
        assert!(!p.may_subscribe("#"));
        assert!(p.may_publish("portal/v1/GWA/cmd"));
        assert!(!p.may_publish("portal/v1/GWA/telemetry"));
    }

    #[test]
    fn last_wills_point_at_the_gateways_own_status() {
        assert!(gw("GWA").may_leave_will("portal/v1/GWA/status"));
        assert!(!gw("GWA").may_leave_will("portal/v1/GWB/status"));
        assert!(!gw("GWA").may_leave_will("portal/v1/GWA/telemetry"));
        assert!(!Identity::Portal.may_leave_will("portal/v1/GWA/status"));
    }

    #[test]
    fn serial_numbers_with_topic_syntax_are_not_valid() {
        assert!(valid_sn("GW-0001_a"));
        for bad in ["", "a/b", "a+", "#", "$SYS", "a\u{0}b"] {
            assert!(!valid_sn(bad), "{bad:?}");
        }
    }
}
