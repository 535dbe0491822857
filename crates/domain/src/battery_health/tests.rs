use super::*;

const STEP: i64 = 5 * 60_000;

/// A 100 Ah stack at 50 V reporting every 5 minutes from `soc0` with `amps` (positive
/// discharging) for `steps` intervals: each interval moves amps / 12 Ah, amps / 12 % of SOC.
fn swing(soc0: f64, amps: f64, steps: usize) -> Vec<Point> {
    (0..=steps)
        .map(|k| Point {
            ts: k as i64 * STEP,
            soc: Some(soc0 - amps / 12.0 * k as f64),
            soh: Some(98.0),
            capacity_ah: Some(100.0),
            voltage: Some(50.0),
            current: Some(amps),
            power: Some(amps * 50.0),
            ..Point::default()
        })
        .collect()
}

#[test]
fn a_full_discharge_measures_the_capacity() {
    // 96 % down at 20 A: 1.6667 % per step, first at or below 20 % after 46 steps (19.33 %).
    // Moved: 46 × 20 A × 1/12 h = 76.667 Ah over 76.667 points of SOC: 100 Ah, 5 kWh at 50 V.
    let cycles = measured_cycles(&swing(96.0, 20.0, 50));
    assert_eq!(cycles.len(), 1);
    let c = cycles[0];
    assert_eq!(c.kind, SwingKind::Discharge);
    assert_eq!((c.start_ts, c.end_ts), (0, 46 * STEP));
    assert!((c.soc_to - 19.333_333).abs() < 1e-5, "{}", c.soc_to);
    assert!((c.ah.unwrap() - 76.666_667).abs() < 1e-5);
    assert!((c.capacity_ah - 100.0).abs() < 1e-9, "{}", c.capacity_ah);
    assert!((c.capacity_kwh.unwrap() - 5.0).abs() < 1e-9);
    assert_eq!(c.bms_ah, Some(98.0));
}

#[test]
fn a_full_charge_measures_the_capacity_too() {
    // 18 % up at 30 A (2.5 % a step): 95 % after 31 steps (95.5 %), 77.5 Ah over 77.5 points.
    let cycles = measured_cycles(&swing(18.0, -30.0, 35));
    assert_eq!(cycles.len(), 1);
    let c = cycles[0];
    assert_eq!(c.kind, SwingKind::Charge);
    assert_eq!(c.end_ts, 31 * STEP);
    assert!((c.capacity_ah - 100.0).abs() < 1e-9);
    assert!((c.ah.unwrap() - 77.5).abs() < 1e-9);
}

#[test]
fn the_swing_starts_at_the_last_full_report() {
    // An hour resting at 97 % first: the swing counts from the last of those reports.
    let mut points: Vec<Point> = (0..12)
        .map(|k| Point {
            ts: k * STEP,
            soc: Some(97.0),
            current: Some(0.0),
            voltage: Some(50.0),
            capacity_ah: Some(100.0),
            ..Point::default()
        })
        .collect();
    points.extend(swing(96.0, 20.0, 50).into_iter().map(|mut p| {
        p.ts += 12 * STEP;
        p
    }));
    let c = measured_cycles(&points);
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].start_ts, 12 * STEP);
    assert!((c[0].capacity_ah - 100.0).abs() < 1e-9);
}

#[test]
fn a_partial_swing_measures_nothing() {
    // Never full: 90 % down to 15 %.
    assert!(measured_cycles(&swing(90.0, 20.0, 50)).is_empty());
    // Full, but only down to 30 %.
    assert!(measured_cycles(&swing(96.0, 20.0, 39)).is_empty());
}

#[test]
fn a_hole_in_the_reports_spoils_the_swing() {
    let mut points = swing(96.0, 20.0, 50);
    // Twenty minutes missing in the middle.
    points.remove(20);
    points.remove(20);
    points.remove(20);
    assert!(measured_cycles(&points).is_empty());
}

#[test]
fn without_current_the_energy_over_the_mean_voltage_stands_in() {
    let mut points = swing(96.0, 20.0, 50);
    for p in &mut points {
        p.current = None;
    }
    let c = measured_cycles(&points);
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].ah, None);
    // 3.8333 kWh / 50 V = 76.667 Ah over 76.667 points.
    assert!((c[0].capacity_ah - 100.0).abs() < 1e-9);
}

#[test]
fn an_implausible_capacity_is_left_out() {
    // The BMS says 300 Ah: 100 Ah measured is a third of it, a re-calibration, not a capacity.
    let mut points = swing(96.0, 20.0, 50);
    for p in &mut points {
        p.capacity_ah = Some(300.0);
    }
    assert!(measured_cycles(&points).is_empty());
}

#[test]
fn a_day_has_its_median_soh_widest_spread_and_usual_extreme_cells() {
    let cell = |pack, cell| Some(CellId { pack, cell });
    let at = |ts: i64, soh: f64, hi: f64, hi_cell, lo: f64, lo_cell, power: f64| Point {
        ts,
        soh: Some(soh),
        bms_cycles: Some(40.0 + ts as f64 / STEP as f64),
        voltage: Some(52.0),
        power: Some(power),
        high: Some(CellExtreme {
            voltage: hi,
            cell: hi_cell,
        }),
        low: Some(CellExtreme {
            voltage: lo,
            cell: lo_cell,
        }),
        ..Point::default()
    };
    let points = [
        at(
            0,
            98.0,
            3.350,
            cell(Some(1), 4),
            3.300,
            cell(Some(2), 9),
            1200.0,
        ),
        at(
            STEP,
            97.0,
            3.362,
            cell(Some(1), 4),
            3.310,
            cell(Some(2), 9),
            1200.0,
        ),
        at(
            2 * STEP,
            99.0,
            3.340,
            cell(Some(2), 1),
            3.315,
            cell(None, 3),
            -600.0,
        ),
        // An hour later: the interval before is a hole, integrated as nothing.
        at(
            14 * STEP,
            98.0,
            3.330,
            cell(Some(2), 1),
            3.320,
            cell(Some(2), 9),
            -600.0,
        ),
    ];
    let d = summarise_day(&points);
    assert_eq!(d.soh, Some(98.0));
    assert_eq!(d.bms_cycles, Some(54.0));
    // 3.362 - 3.310 = 52 mV.
    assert_eq!(d.spread_mv, Some(52.0));
    // Cell 1.4 and 2.1 were highest twice each: the first in order wins.
    assert_eq!(d.high_cell, cell(Some(1), 4));
    assert_eq!(d.low_cell, cell(Some(2), 9));
    // 1.2 kW × 5 min = 0.1 kWh out; (1.2 - 0.6) / 2 kW × 5 min = 0.025 kWh out next.
    assert!((d.discharge_kwh.unwrap() - 0.125).abs() < 1e-12);
    assert_eq!(d.charge_kwh, Some(0.0));
    assert_eq!(d.samples, 4);
    assert_eq!(d.capacity_ah, None);
}

#[test]
fn a_day_without_readings_has_no_figures_rather_than_zeros() {
    let d = summarise_day(&[Point {
        ts: 0,
        ..Point::default()
    }]);
    assert_eq!(
        (d.soh, d.spread_mv, d.discharge_kwh, d.high_cell),
        (None, None, None, None)
    );
}

#[test]
fn equivalent_cycles_divide_the_discharge_by_one_full_discharge() {
    // 100 Ah × 50 V = 5 kWh a cycle; 12.5 kWh out is 2.5 cycles.
    assert_eq!(equivalent_cycles(12.5, 100.0, 50.0), Some(2.5));
    assert_eq!(equivalent_cycles(12.5, 0.0, 50.0), None);
}

#[test]
fn the_comparison_is_measured_over_claimed() {
    let claimed = bms_capacity(Some(98.0), Some(200.0));
    assert_eq!(claimed, Some(196.0));
    let c = compare(186.2, claimed).unwrap();
    assert!((c.ratio_pct - 95.0).abs() < 1e-9);
    assert!((c.difference_ah + 9.8).abs() < 1e-9);
    assert_eq!(compare(186.2, None), None);
    assert_eq!(bms_capacity(None, Some(200.0)), None);
}
