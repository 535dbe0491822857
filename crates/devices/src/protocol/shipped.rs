//! Configs shipped with the portal, embedded at build time. They seed the database on first
//! start; administrators edit the stored copies, never these files at run time.

use super::ProtocolConfig;
use crate::error::Error;

/// (file stem, JSON) of every shipped config; the stem equals the config's code.
const SHIPPED: &[(&str, &str)] = &[
    (
        "deye-hybrid-1ph",
        include_str!("../../protocols/deye-hybrid-1ph.json"),
    ),
    (
        "deye-hybrid-3ph-lv",
        include_str!("../../protocols/deye-hybrid-3ph-lv.json"),
    ),
    (
        "deye-hybrid-3ph-hv",
        include_str!("../../protocols/deye-hybrid-3ph-hv.json"),
    ),
    (
        "deye-string-3ph",
        include_str!("../../protocols/deye-string-3ph.json"),
    ),
    (
        "deye-micro",
        include_str!("../../protocols/deye-micro.json"),
    ),
    (
        "growatt-tl3x",
        include_str!("../../protocols/growatt-tl3x.json"),
    ),
    ("meter-3ph", include_str!("../../protocols/meter-3ph.json")),
    (
        "bms-lv-stack",
        include_str!("../../protocols/bms-lv-stack.json"),
    ),
    (
        "bms-hv-stack",
        include_str!("../../protocols/bms-hv-stack.json"),
    ),
    (
        "weather-station",
        include_str!("../../protocols/weather-station.json"),
    ),
    (
        "combiner-dc16",
        include_str!("../../protocols/combiner-dc16.json"),
    ),
];

pub fn shipped_json() -> &'static [(&'static str, &'static str)] {
    SHIPPED
}

/// Parses every shipped config (a test checks they parse and validate).
pub fn shipped() -> Result<Vec<ProtocolConfig>, Error> {
    SHIPPED
        .iter()
        .map(|(_, json)| ProtocolConfig::from_json(json))
        .collect()
}
