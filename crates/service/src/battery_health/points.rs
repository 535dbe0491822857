//! A stored battery report as the health figures read it: SOC, SOH, cycles, capacity, voltage,
//! current, power and where its highest and lowest cell are. The keys are the shipped BMS
//! configs' (`bms-lv-stack`, `bms-hv-stack`): cells as `cell{n}_voltage` in the stack's own
//! list or `pack{p}_cell{n}_voltage` for the packs the report declares (`pack_count`), else the
//! summary `cell_voltage_max` / `cell_voltage_min` (where the cell is not known).

use domain::battery_health::{CellExtreme, CellId, Point};

use crate::readings::Reading;

/// Packs a report may describe, cells a report may list per pack or stack (as the battery
/// pages read them).
const MAX_PACKS: u32 = 16;
const MAX_CELLS: u32 = 64;

fn cells(r: &Reading) -> Vec<(CellId, f64)> {
    let mut found: Vec<(CellId, f64)> = (1..=MAX_CELLS)
        .filter_map(|n| {
            let v = r.num(&format!("cell{n}_voltage"))?;
            Some((
                CellId {
                    pack: None,
                    cell: n,
                },
                v,
            ))
        })
        .collect();
    // A slot past the declared count is a departed pack's, not the stack's.
    let declared = r
        .num("pack_count")
        .map_or(MAX_PACKS, |c| c.clamp(0.0, f64::from(MAX_PACKS)) as u32);
    for p in 1..=declared {
        found.extend((1..=MAX_CELLS).filter_map(|n| {
            let v = r.num(&format!("pack{p}_cell{n}_voltage"))?;
            Some((
                CellId {
                    pack: Some(p),
                    cell: n,
                },
                v,
            ))
        }));
    }
    found.retain(|(_, v)| v.is_finite() && *v > 0.0);
    found
}

/// The health figures of one stored report (`payload`, a JSON object) at `ts`.
pub fn point_of(ts: i64, payload: &str) -> Point {
    let r = Reading::from_sample(ts, payload);
    let listed = cells(&r);
    let pick = |higher: bool| {
        listed
            .iter()
            .copied()
            .reduce(|a, b| {
                let better = if higher { b.1 > a.1 } else { b.1 < a.1 };
                if better { b } else { a }
            })
            .map(|(cell, voltage)| CellExtreme {
                voltage,
                cell: Some(cell),
            })
    };
    let summary = |key: &str| {
        r.num(key).map(|voltage| CellExtreme {
            voltage,
            cell: None,
        })
    };
    Point {
        ts,
        soc: r.num("soc"),
        soh: r.num("soh").filter(|v| *v > 0.0),
        bms_cycles: r.num("cycles"),
        capacity_ah: r.num("capacity_full").filter(|v| *v > 0.0),
        voltage: r.num("voltage").filter(|v| *v > 0.0),
        current: r.num("current"),
        power: r.num("power"),
        high: pick(true).or_else(|| summary("cell_voltage_max")),
        low: pick(false).or_else(|| summary("cell_voltage_min")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_read_from_the_declared_packs_else_the_summary() {
        let p = point_of(
            7,
            r#"{"soc":55,"soh":97,"cycles":12,"capacity_full":200,"voltage":52.1,"current":-3,
                "power":-156,"pack_count":1,"pack1_cell1_voltage":3.301,"pack1_cell2_voltage":3.342,
                "pack2_cell1_voltage":2.1,"cell_voltage_max":3.5}"#,
        );
        assert_eq!(
            (p.soc, p.soh, p.capacity_ah),
            (Some(55.0), Some(97.0), Some(200.0))
        );
        let high = p.high.unwrap();
        assert_eq!(high.voltage, 3.342);
        assert_eq!(
            high.cell,
            Some(CellId {
                pack: Some(1),
                cell: 2
            })
        );
        // Pack 2 is past the declared count: its cell is not the lowest.
        assert_eq!(p.low.unwrap().voltage, 3.301);

        let summary = point_of(1, r#"{"cell_voltage_max":3.4,"cell_voltage_min":3.35}"#);
        assert_eq!(summary.high.unwrap().cell, None);
        assert_eq!(summary.low.unwrap().voltage, 3.35);
        let none = point_of(1, "{}");
        assert_eq!((none.soh, none.high, none.current), (None, None, None));
    }
}
