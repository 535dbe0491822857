//! The day report's pieces from the plant's power curves (the same curves the plant's day
//! chart draws): the 5-minute points and the energy per hour. Hourly energy is the curve
//! integrated over each hour, then scaled so that the hours add up to the day's energy from
//! the rollups (what every other screen shows); a metric without a rollup keeps the integral.

use std::collections::BTreeMap;

use super::model::{EnergyRow, PowerPoint};
use crate::{curves::DayCurve, readings::round2};

/// The curves' labels in the order of [`PowerPoint`].
const CURVES: [&str; 4] = ["pv", "load", "grid", "battery"];
/// kWh of one 5-minute point of 1 W.
const KWH_PER_POINT_W: f64 = 5.0 / 60.0 / 1000.0;

fn value(raw: &str) -> Option<f64> {
    raw.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// `HH:MM` of a record time `YYYY-MM-DD HH:MM:SS`.
fn hhmm(time: &str) -> &str {
    time.get(11..16).unwrap_or(time)
}

/// One point per 5 minutes that any curve has, in time order.
pub(crate) fn power_points(curves: &[DayCurve]) -> Vec<PowerPoint> {
    let mut by_time: BTreeMap<String, PowerPoint> = BTreeMap::new();
    for s in curves {
        let Some(slot) = CURVES.iter().position(|c| *c == s.label) else {
            continue;
        };
        for r in &s.points {
            let p = by_time
                .entry(hhmm(&r.time).to_string())
                .or_insert_with(|| PowerPoint {
                    time: hhmm(&r.time).to_string(),
                    ..Default::default()
                });
            let v = value(&r.value);
            match slot {
                0 => p.pv = v,
                1 => p.load = v,
                2 => p.grid = v,
                _ => p.battery = v,
            }
        }
    }
    by_time.into_values().collect()
}

/// The day's totals per metric as the rollups hold them (`None`: no row for the metric).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct DayTotals {
    pub produced: Option<f64>,
    pub consumed: Option<f64>,
    pub imported: Option<f64>,
    pub exported: Option<f64>,
    pub charged: Option<f64>,
    pub discharged: Option<f64>,
}

/// Scales `hours` so that they add up to `total` (when both are positive).
fn fit(hours: &mut [f64; 24], total: Option<f64>) {
    let sum: f64 = hours.iter().sum();
    match total {
        Some(t) if sum > 0.0 => hours.iter_mut().for_each(|h| *h *= t / sum),
        Some(_) => hours.iter_mut().for_each(|h| *h = 0.0),
        None => {}
    }
}

/// 24 rows `00`..`23` of energy per hour (kWh, 2 decimals).
pub(crate) fn hourly(points: &[PowerPoint], totals: &DayTotals) -> Vec<EnergyRow> {
    let mut e = [[0.0f64; 24]; 6];
    for p in points {
        let Some(h) = p.time.get(..2).and_then(|h| h.parse::<usize>().ok()) else {
            continue;
        };
        if h > 23 {
            continue;
        }
        let kwh = |w: Option<f64>| w.unwrap_or(0.0) * KWH_PER_POINT_W;
        let (grid, battery) = (kwh(p.grid), kwh(p.battery));
        e[0][h] += kwh(p.pv).max(0.0);
        e[1][h] += kwh(p.load).max(0.0);
        e[2][h] += grid.max(0.0);
        e[3][h] += (-grid).max(0.0);
        e[4][h] += (-battery).max(0.0);
        e[5][h] += battery.max(0.0);
    }
    let t = totals;
    for (hours, total) in e.iter_mut().zip([
        t.produced,
        t.consumed,
        t.imported,
        t.exported,
        t.charged,
        t.discharged,
    ]) {
        fit(hours, total);
    }
    let r = round2;
    (0..24)
        .map(|h| EnergyRow {
            label: format!("{h:02}"),
            produced: r(e[0][h]),
            consumed: r(e[1][h]),
            imported: r(e[2][h]),
            exported: r(e[3][h]),
            charged: r(e[4][h]),
            discharged: r(e[5][h]),
            predicted: None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(time: &str, pv: f64, grid: f64) -> PowerPoint {
        PowerPoint {
            time: time.into(),
            pv: Some(pv),
            grid: Some(grid),
            ..Default::default()
        }
    }

    #[test]
    fn hours_follow_the_curve_and_add_up_to_the_days_energy() {
        // 12 points of 1200 W at 10:xx and 12 of 3600 W at 11:xx: 1.2 and 3.6 kWh,
        // scaled to the 4 kWh of the rollup.
        let mut points: Vec<PowerPoint> = (0..12)
            .map(|i| point(&format!("10:{:02}", i * 5), 1200.0, -600.0))
            .collect();
        points.extend((0..12).map(|i| point(&format!("11:{:02}", i * 5), 3600.0, 600.0)));
        let totals = DayTotals {
            produced: Some(4.0),
            ..Default::default()
        };
        let rows = hourly(&points, &totals);
        assert_eq!(rows.len(), 24);
        assert_eq!((rows[10].produced, rows[11].produced), (1.0, 3.0));
        // No rollup row for the grid: the integral stays.
        assert_eq!((rows[10].exported, rows[11].imported), (0.6, 0.6));
        // A rollup row of zero wins over the curve.
        let zero = DayTotals {
            produced: Some(0.0),
            ..Default::default()
        };
        assert_eq!(hourly(&points, &zero)[11].produced, 0.0);
    }

    #[test]
    fn points_merge_the_curves_by_time() {
        let s = |label: &'static str, v: &str| DayCurve {
            unit: "W",
            label,
            name: label,
            points: vec![crate::curves::CurvePoint {
                time: "2026-05-01 12:05:00".into(),
                value: v.into(),
            }],
        };
        let p = power_points(&[s("pv", "1500.0"), s("soc", "50.0"), s("grid", "-20.5")]);
        assert_eq!(p.len(), 1);
        assert_eq!(
            (p[0].time.as_str(), p[0].pv, p[0].grid, p[0].load),
            ("12:05", Some(1500.0), Some(-20.5), None)
        );
    }
}
