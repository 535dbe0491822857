//! The packs of a stack as its reports describe them: the `pack{n}_*` groups of the master's
//! report, or the summary of a pack that reports on its own.

use serde::Serialize;
use store::devices::DeviceListRow;
use utoipa::ToSchema;

use super::MAX_PACKS;
use crate::readings::{Reading, opt_string};

/// One pack of a stack, from the master's report or from its own.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Pack {
    pub no: u32,
    pub sn: String,
    pub soc: Option<f64>,
    pub soh: Option<f64>,
    pub voltage: Option<f64>,
    pub current: Option<f64>,
    pub temp: Option<f64>,
    pub cell_max: Option<f64>,
    pub cell_min: Option<f64>,
    pub cycles: Option<f64>,
}

/// Whether pack `n` is one the stack declares (`pack_count`; every slot when it declares
/// none): a slot past the count holds what a pack reported before it left, not a live pack.
pub(super) fn declared(r: &Reading, n: u32) -> bool {
    r.num("pack_count")
        .map(|c| c.clamp(0.0, MAX_PACKS as f64) as u32)
        .is_none_or(|c| n <= c)
}

/// The packs a stack report describes: `pack_count` of them when it says, else every
/// `pack{n}_*` group present.
pub(super) fn packs_in(r: &Reading) -> Vec<Pack> {
    (1..=MAX_PACKS)
        .filter(|n| declared(r, *n))
        .filter_map(|n| {
            let key = |k: &str| format!("pack{n}_{k}");
            let num = |k: &str| r.num(&key(k));
            let sn = r.text(&key("serial_number")).map(str::trim).unwrap_or("");
            let pack = Pack {
                no: n,
                sn: sn.to_string(),
                soc: num("soc"),
                soh: num("soh"),
                voltage: num("voltage"),
                current: num("current"),
                temp: num("temperature"),
                cell_max: num("cell_voltage_max"),
                cell_min: num("cell_voltage_min"),
                cycles: num("cycles"),
            };
            let values = [
                pack.soc,
                pack.soh,
                pack.voltage,
                pack.current,
                pack.temp,
                pack.cell_max,
                pack.cell_min,
                pack.cycles,
            ];
            (!sn.is_empty() || values.iter().any(Option::is_some)).then_some(pack)
        })
        .collect()
}

/// A pack that reports on its own, read like the master's summary.
pub(super) fn pack_device(no: u32, d: &DeviceListRow, r: Option<&Reading>) -> Pack {
    let num = |k: &str| r.and_then(|r| r.num(k));
    Pack {
        no,
        sn: d.sn.clone(),
        soc: num("soc"),
        soh: num("soh"),
        voltage: num("voltage"),
        current: num("current"),
        temp: num("temperature_max").or_else(|| num("temperature")),
        cell_max: num("cell_voltage_max"),
        cell_min: num("cell_voltage_min"),
        cycles: num("cycles"),
    }
}

pub(super) fn pack_item(p: &Pack, status: i64, source: PackSource) -> PackItem {
    PackItem {
        no: p.no,
        sn: p.sn.clone(),
        status,
        source,
        soc: opt_string(p.soc),
        soh: opt_string(p.soh),
        voltage: opt_string(p.voltage),
        current: opt_string(p.current),
        temp: opt_string(p.temp),
        cell_volt_max: opt_cell(p.cell_max),
        cell_volt_min: opt_cell(p.cell_min),
        cycles: p.cycles.map(|c| c as i64),
    }
}

/// One pack of a stack (numeric strings, `null` when not reported).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PackItem {
    /// Its place in the stack, from 1.
    pub no: u32,
    pub sn: String,
    /// The device status of the stack (or of the pack when it reports on its own).
    pub status: i64,
    pub source: PackSource,
    /// %.
    pub soc: Option<String>,
    /// %.
    pub soh: Option<String>,
    /// V.
    pub voltage: Option<String>,
    /// A.
    pub current: Option<String>,
    /// °C.
    pub temp: Option<String>,
    /// V, three decimals.
    pub cell_volt_max: Option<String>,
    /// V, three decimals.
    pub cell_volt_min: Option<String>,
    pub cycles: Option<i64>,
}

/// Where a pack's values come from.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PackSource {
    /// The master's report.
    Pack,
    /// The pack's own reports.
    Device,
}

/// Cell voltages keep millivolts: three decimals.
fn opt_cell(v: Option<f64>) -> Option<String> {
    v.map(|v| format!("{v:.3}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_follow_the_declared_count_and_skip_empty_slots() {
        let r = Reading::from_sample(
            1,
            r#"{"pack_count":2,"pack1_serial_number":"B-P1","pack1_soc":80,"pack1_cell_voltage_max":3.31,
                "pack2_soc":79,"pack3_serial_number":"stale","pack3_soc":1}"#,
        );
        let packs = packs_in(&r);
        assert_eq!(packs.len(), 2);
        assert_eq!((packs[0].no, packs[0].sn.as_str()), (1, "B-P1"));
        assert_eq!((packs[1].no, packs[1].soc), (2, Some(79.0)));
        let undeclared = Reading::from_sample(1, r#"{"pack1_soc":50,"pack3_voltage":52.1}"#);
        let nos: Vec<u32> = packs_in(&undeclared).iter().map(|p| p.no).collect();
        assert_eq!(nos, [1, 3]);
    }
}
