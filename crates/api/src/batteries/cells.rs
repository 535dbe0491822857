//! The cell-voltage grid of a stack and where its highest and lowest cell are.

use serde::Serialize;
use utoipa::ToSchema;

use super::{
    MAX_CELLS, MAX_PACKS,
    packs::{Pack, declared},
};
use crate::readings::{Reading, opt_string};

/// One cell a report lists: `cell{n}_voltage` (stack) or `pack{p}_cell{n}_voltage`, with the
/// cell's temperature when the BMS reports one (`…_temperature`, or `…_temp`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Cell {
    pack: Option<u32>,
    no: u32,
    voltage: f64,
    temp: Option<f64>,
}

pub(super) fn cells_in(r: &Reading) -> Vec<Cell> {
    let cell = |prefix: &str, pack: Option<u32>, no: u32| {
        let voltage = r.num(&format!("{prefix}_voltage"))?;
        let temp = r
            .num(&format!("{prefix}_temperature"))
            .or_else(|| r.num(&format!("{prefix}_temp")));
        Some(Cell {
            pack,
            no,
            voltage,
            temp,
        })
    };
    let mut cells: Vec<Cell> = (1..=MAX_CELLS)
        .filter_map(|n| cell(&format!("cell{n}"), None, n))
        .collect();
    for p in (1..=MAX_PACKS).filter(|p| declared(r, *p)) {
        cells.extend((1..=MAX_CELLS).filter_map(|n| cell(&format!("pack{p}_cell{n}"), Some(p), n)));
    }
    cells
}

/// One cell of the grid.
#[derive(Debug, Serialize, ToSchema)]
pub struct CellItem {
    /// Its pack, null for a cell of the stack's own list.
    pub pack: Option<u32>,
    pub no: u32,
    /// V, three decimals.
    pub voltage: String,
    /// °C, when the BMS reports cell temperatures.
    pub temp: Option<String>,
}

pub(super) fn cell_item(c: &Cell) -> CellItem {
    CellItem {
        pack: c.pack,
        no: c.no,
        voltage: format!("{:.3}", c.voltage),
        temp: opt_string(c.temp),
    }
}

/// Where the highest and the lowest cell voltage of a stack are: `(voltage, pack, cell)`.
/// From the listed cells when the BMS lists them; else from the packs' extremes (pack known,
/// cell not), else from the stack's own summary.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Extreme {
    voltage: f64,
    pack: Option<u32>,
    cell: Option<u32>,
}

pub(super) fn extremes(
    r: &Reading,
    packs: &[Pack],
    cells: &[Cell],
) -> (Option<Extreme>, Option<Extreme>) {
    let pick = |better: fn(f64, f64) -> bool| {
        cells
            .iter()
            .copied()
            .reduce(|a, b| if better(b.voltage, a.voltage) { b } else { a })
            .map(|c| Extreme {
                voltage: c.voltage,
                pack: c.pack,
                cell: Some(c.no),
            })
    };
    let from_packs = |value: fn(&Pack) -> Option<f64>, better: fn(f64, f64) -> bool| {
        packs
            .iter()
            .filter_map(|p| value(p).map(|v| (p.no, v)))
            .reduce(|a, b| if better(b.1, a.1) { b } else { a })
            .map(|(no, v)| Extreme {
                voltage: v,
                pack: Some(no),
                cell: None,
            })
    };
    let summary = |key: &str| {
        r.num(key).map(|v| Extreme {
            voltage: v,
            pack: None,
            cell: None,
        })
    };
    let max = pick(|a, b| a > b)
        .or_else(|| from_packs(|p| p.cell_max, |a, b| a > b))
        .or_else(|| summary("cell_voltage_max"));
    let min = pick(|a, b| a < b)
        .or_else(|| from_packs(|p| p.cell_min, |a, b| a < b))
        .or_else(|| summary("cell_voltage_min"));
    (max, min)
}

/// Where the highest or lowest cell voltage is.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExtremeItem {
    /// V, three decimals.
    pub voltage: String,
    pub pack: Option<u32>,
    pub cell: Option<u32>,
}

pub(super) fn extreme_item(e: Option<Extreme>) -> Option<ExtremeItem> {
    e.map(|e| ExtremeItem {
        voltage: format!("{:.3}", e.voltage),
        pack: e.pack,
        cell: e.cell,
    })
}

#[cfg(test)]
mod tests {
    use super::super::packs::packs_in;
    use super::*;

    fn reading(json: &str) -> Reading {
        Reading::from_sample(1, json)
    }

    #[test]
    fn extremes_come_from_cells_then_packs_then_the_summary() {
        let with_cells = reading(
            r#"{"pack1_cell1_voltage":3.301,"pack1_cell2_voltage":3.352,"pack2_cell1_voltage":3.288,
                "cell_voltage_max":3.4}"#,
        );
        let cells = cells_in(&with_cells);
        assert_eq!(cells.len(), 3);
        let (max, min) = extremes(&with_cells, &[], &cells);
        assert_eq!(
            max,
            Some(Extreme {
                voltage: 3.352,
                pack: Some(1),
                cell: Some(2)
            })
        );
        assert_eq!((min.unwrap().pack, min.unwrap().cell), (Some(2), Some(1)));

        let by_pack = reading(
            r#"{"pack_count":2,"pack1_cell_voltage_max":3.31,"pack1_cell_voltage_min":3.29,
                "pack2_cell_voltage_max":3.33,"pack2_cell_voltage_min":3.27}"#,
        );
        let packs = packs_in(&by_pack);
        let (max, min) = extremes(&by_pack, &packs, &[]);
        assert_eq!((max.unwrap().voltage, max.unwrap().pack), (3.33, Some(2)));
        assert_eq!((min.unwrap().voltage, min.unwrap().pack), (3.27, Some(2)));
        assert_eq!(max.unwrap().cell, None);

        // Cells of a slot past the declared count are a departed pack's, not the stack's.
        let stale =
            reading(r#"{"pack_count":1,"pack1_cell1_voltage":3.30,"pack2_cell1_voltage":2.10}"#);
        let cells = cells_in(&stale);
        assert_eq!(cells.len(), 1);
        assert_eq!(
            extremes(&stale, &packs_in(&stale), &cells)
                .1
                .unwrap()
                .voltage,
            3.30
        );

        let summary = reading(r#"{"cell_voltage_max":3.4,"cell_voltage_min":3.2}"#);
        let (max, min) = extremes(&summary, &[], &[]);
        assert_eq!((max.unwrap().voltage, max.unwrap().pack), (3.4, None));
        assert_eq!(min.unwrap().voltage, 3.2);
        assert_eq!(extremes(&reading("{}"), &[], &[]), (None, None));
    }

    #[test]
    fn cells_carry_their_temperature_when_the_bms_reports_one() {
        let r = reading(
            r#"{"cell1_voltage":3.3,"cell1_temperature":24.5,"cell2_voltage":3.31,
                "pack2_cell1_voltage":3.29,"pack2_cell1_temp":26,"pack2_cell2_temperature":27}"#,
        );
        let cells = cells_in(&r);
        let temps: Vec<(Option<u32>, u32, Option<f64>)> =
            cells.iter().map(|c| (c.pack, c.no, c.temp)).collect();
        // A temperature without a voltage is no cell of the grid.
        assert_eq!(
            temps,
            [
                (None, 1, Some(24.5)),
                (None, 2, None),
                (Some(2), 1, Some(26.0))
            ]
        );
        assert_eq!(
            serde_json::to_value(cell_item(&cells[0])).unwrap(),
            serde_json::json!({"pack": null, "no": 1, "voltage": "3.300", "temp": "24.5"})
        );
        assert!(serde_json::to_value(cell_item(&cells[1])).unwrap()["temp"].is_null());
    }
}
