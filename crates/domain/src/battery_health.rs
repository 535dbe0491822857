//! A battery's health from its reports (docs/battery-health.md): per plant-local day the BMS's
//! state of health, its cycle count, the spread between the highest and the lowest cell and
//! the energy moved; and a capacity measured from the reports themselves whenever the battery
//! swings from near full to near empty (or back), to hold next to what the BMS claims.
//!
//! Everything here is pure: the caller turns stored samples into [`Point`]s in time order.
//! Signs follow the BMS: current and power are positive while the battery discharges.

use std::collections::BTreeMap;

/// At or above this SOC (%) the battery counts as full: a swing starts or ends here.
pub const FULL_SOC: f64 = 95.0;
/// At or below this SOC (%) it counts as empty.
pub const EMPTY_SOC: f64 = 20.0;
/// The least SOC change (percentage points) a swing must cover to measure a capacity: the
/// SOC is reported in whole percent, so over 70 points its rounding is at most 1.4 %.
pub const MIN_SWING: f64 = 70.0;
/// Two reports further apart than this leave a hole: nothing is integrated across it and a
/// swing with a hole in it measures nothing (the charge moved meanwhile is unknown).
pub const MAX_GAP_MS: i64 = 15 * 60_000;
/// A measured capacity outside this share of the rated capacity is not believed (a BMS that
/// re-calibrates its SOC mid-swing, a counter reset): it is left out, not shown.
pub const PLAUSIBLE_SHARE: (f64, f64) = (0.5, 1.5);
/// A swing is looked for this far back from the day it ends in.
pub const LOOKBACK_MS: i64 = 24 * 3_600_000;

/// A cell of the stack: its pack (none for the stack's own list) and its number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CellId {
    pub pack: Option<u32>,
    pub cell: u32,
}

/// The highest or the lowest cell voltage of one report, V, and where it is when known.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellExtreme {
    pub voltage: f64,
    pub cell: Option<CellId>,
}

/// What one report says about the battery's health; `None` where it says nothing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Point {
    /// Epoch milliseconds.
    pub ts: i64,
    /// %.
    pub soc: Option<f64>,
    /// % (the BMS's state of health).
    pub soh: Option<f64>,
    /// The BMS's own cycle count.
    pub bms_cycles: Option<f64>,
    /// Ah: the BMS's full (rated) capacity.
    pub capacity_ah: Option<f64>,
    /// V.
    pub voltage: Option<f64>,
    /// A, positive discharging.
    pub current: Option<f64>,
    /// W, positive discharging.
    pub power: Option<f64>,
    pub high: Option<CellExtreme>,
    pub low: Option<CellExtreme>,
}

/// One day's health, from the reports of that day.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DaySummary {
    /// The median of the day's reported SOH, %.
    pub soh: Option<f64>,
    /// The highest cycle count the BMS reported that day.
    pub bms_cycles: Option<f64>,
    /// The median of the reported full capacity, Ah.
    pub capacity_ah: Option<f64>,
    /// The mean stack voltage, V.
    pub voltage: Option<f64>,
    /// The day's largest difference between the highest and lowest cell, mV.
    pub spread_mv: Option<f64>,
    /// The cell that was the highest in the most reports.
    pub high_cell: Option<CellId>,
    /// The cell that was the lowest in the most reports.
    pub low_cell: Option<CellId>,
    /// Energy out and in, kWh, integrated from the reported power (`None` without power).
    pub discharge_kwh: Option<f64>,
    pub charge_kwh: Option<f64>,
    pub samples: usize,
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    v.retain(|x| x.is_finite());
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

/// The cell named most often; of equal counts the first in (pack, cell) order.
fn most_often(cells: impl Iterator<Item = CellId>) -> Option<CellId> {
    let mut counts: BTreeMap<CellId, usize> = BTreeMap::new();
    for c in cells {
        *counts.entry(c).or_default() += 1;
    }
    counts
        .into_iter()
        .fold(None, |best: Option<(CellId, usize)>, (c, n)| match best {
            Some((_, m)) if m >= n => best,
            _ => Some((c, n)),
        })
        .map(|(c, _)| c)
}

/// The trapezoid of `value` over the interval from `a` to `b`, in value-hours; `None` when the
/// interval is a hole or either end lacks the value.
fn trapezoid(a: &Point, b: &Point, value: fn(&Point) -> Option<f64>) -> Option<f64> {
    let dt = b.ts - a.ts;
    if !(0..=MAX_GAP_MS).contains(&dt) {
        return None;
    }
    Some((value(a)? + value(b)?) / 2.0 * dt as f64 / 3_600_000.0)
}

/// The health of one day from its reports (oldest first, all of that day).
pub fn summarise_day(points: &[Point]) -> DaySummary {
    let spread = points
        .iter()
        .filter_map(|p| Some((p.high?.voltage - p.low?.voltage) * 1000.0))
        .filter(|s| s.is_finite() && *s >= 0.0)
        .fold(None, |m: Option<f64>, s| Some(m.map_or(s, |m| m.max(s))));
    let mut out_wh = None;
    let mut in_wh = None;
    for w in points.windows(2) {
        if let Some(wh) = trapezoid(&w[0], &w[1], |p| p.power) {
            let (side, amount) = if wh >= 0.0 {
                (&mut out_wh, wh)
            } else {
                (&mut in_wh, -wh)
            };
            *side = Some(side.unwrap_or(0.0) + amount);
            // The other direction was measured too, as nothing.
            let other = if wh >= 0.0 { &mut in_wh } else { &mut out_wh };
            other.get_or_insert(0.0);
        }
    }
    let volts: Vec<f64> = points.iter().filter_map(|p| p.voltage).collect();
    DaySummary {
        soh: median(points.iter().filter_map(|p| p.soh).collect()),
        bms_cycles: points
            .iter()
            .filter_map(|p| p.bms_cycles)
            .fold(None, |m: Option<f64>, c| Some(m.map_or(c, |m| m.max(c)))),
        capacity_ah: median(points.iter().filter_map(|p| p.capacity_ah).collect()),
        voltage: (!volts.is_empty()).then(|| volts.iter().sum::<f64>() / volts.len() as f64),
        spread_mv: spread.map(|s| (s * 10.0).round() / 10.0),
        high_cell: most_often(points.iter().filter_map(|p| p.high?.cell)),
        low_cell: most_often(points.iter().filter_map(|p| p.low?.cell)),
        discharge_kwh: out_wh.map(|wh| wh / 1000.0),
        charge_kwh: in_wh.map(|wh| wh / 1000.0),
        samples: points.len(),
    }
}

/// Equivalent full cycles: the energy discharged over the energy of one full discharge at the
/// rated capacity (`capacity_ah` × `voltage`, the stack's mean voltage standing in for its
/// nominal one). `None` without a positive capacity and voltage.
pub fn equivalent_cycles(discharge_kwh: f64, capacity_ah: f64, voltage: f64) -> Option<f64> {
    let full_kwh = capacity_ah * voltage / 1000.0;
    (full_kwh.is_finite() && full_kwh > 0.0 && discharge_kwh.is_finite())
        .then(|| discharge_kwh.max(0.0) / full_kwh)
}

/// Which way a swing went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SwingKind {
    /// From full down to empty.
    Discharge,
    /// From empty up to full.
    Charge,
}

impl SwingKind {
    pub fn key(self) -> &'static str {
        match self {
            SwingKind::Discharge => "discharge",
            SwingKind::Charge => "charge",
        }
    }

    pub fn from_key(key: &str) -> Option<SwingKind> {
        match key {
            "discharge" => Some(SwingKind::Discharge),
            "charge" => Some(SwingKind::Charge),
            _ => None,
        }
    }
}

/// A capacity measured over one swing between full and empty.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeasuredCycle {
    pub kind: SwingKind,
    /// The last report at full (discharge) or empty (charge) before the swing, ms.
    pub start_ts: i64,
    /// The first report at the other end, ms.
    pub end_ts: i64,
    pub soc_from: f64,
    pub soc_to: f64,
    /// Ah moved over the swing (net, from the current), when the current was reported.
    pub ah: Option<f64>,
    /// kWh moved over the swing (net, from the power), when the power was reported.
    pub kwh: Option<f64>,
    /// The capacity: Ah moved / ΔSOC; from the energy over the mean voltage when there is no
    /// current.
    pub capacity_ah: f64,
    /// The energy capacity: kWh moved / ΔSOC (what the battery delivers, or takes, per full
    /// swing at its terminals).
    pub capacity_kwh: Option<f64>,
    /// What the BMS claims at the swing's end: its SOH × its rated capacity, Ah.
    pub bms_ah: Option<f64>,
}

/// Integrals since the last anchor; `None` once an interval lacked the value.
#[derive(Clone, Copy)]
struct Sums {
    ah: Option<f64>,
    wh: Option<f64>,
    volts: f64,
    n: usize,
}

const ZERO: Sums = Sums {
    ah: Some(0.0),
    wh: Some(0.0),
    volts: 0.0,
    n: 0,
};

/// Every full swing the reports (oldest first) hold: from the last report at or above
/// [`FULL_SOC`] to the first at or below [`EMPTY_SOC`] after it (a discharge), or back (a
/// charge), covering at least [`MIN_SWING`] points of SOC with no hole longer than
/// [`MAX_GAP_MS`]. A partial swing measures nothing.
pub fn measured_cycles(points: &[Point]) -> Vec<MeasuredCycle> {
    let mut found = Vec::new();
    let mut anchor: Option<(SwingKind, usize)> = None;
    let mut sums = ZERO;
    for (i, p) in points.iter().enumerate() {
        if i > 0 && anchor.is_some() {
            let prev = &points[i - 1];
            if p.ts - prev.ts > MAX_GAP_MS {
                anchor = None;
            } else {
                sums.ah = sums
                    .ah
                    .and_then(|a| Some(a + trapezoid(prev, p, |q| q.current)?));
                sums.wh = sums
                    .wh
                    .and_then(|w| Some(w + trapezoid(prev, p, |q| q.power)?));
            }
        }
        if let Some(v) = p.voltage {
            sums.volts += v;
            sums.n += 1;
        }
        let Some(soc) = p.soc else {
            anchor = None;
            continue;
        };
        let at = if soc >= FULL_SOC {
            Some(SwingKind::Discharge)
        } else if soc <= EMPTY_SOC {
            Some(SwingKind::Charge)
        } else {
            None
        };
        let Some(next) = at else { continue };
        if let Some((kind, start)) = anchor
            && kind != next
            && let Some(c) = measure(kind, &points[start], p, sums)
        {
            found.push(c);
        }
        anchor = Some((next, i));
        sums = ZERO;
        if let Some(v) = p.voltage {
            sums.volts = v;
            sums.n = 1;
        }
    }
    found
}

fn measure(kind: SwingKind, from: &Point, to: &Point, sums: Sums) -> Option<MeasuredCycle> {
    let (soc_from, soc_to) = (from.soc?, to.soc?);
    let swing = (soc_from - soc_to).abs();
    if swing < MIN_SWING {
        return None;
    }
    // Out of the battery on the way down, into it on the way up.
    let sign = match kind {
        SwingKind::Discharge => 1.0,
        SwingKind::Charge => -1.0,
    };
    let ah = sums.ah.map(|a| a * sign);
    let kwh = sums.wh.map(|w| w * sign / 1000.0);
    let mean_v = (sums.n > 0).then(|| sums.volts / sums.n as f64);
    let moved_ah = ah.or_else(|| Some(kwh? * 1000.0 / mean_v.filter(|v| *v > 0.0)?))?;
    let capacity_ah = moved_ah / (swing / 100.0);
    if let Some(rated) = to.capacity_ah.filter(|r| *r > 0.0) {
        let share = capacity_ah / rated;
        if !(PLAUSIBLE_SHARE.0..=PLAUSIBLE_SHARE.1).contains(&share) {
            return None;
        }
    } else if capacity_ah <= 0.0 {
        return None;
    }
    Some(MeasuredCycle {
        kind,
        start_ts: from.ts,
        end_ts: to.ts,
        soc_from,
        soc_to,
        ah,
        kwh,
        capacity_ah,
        capacity_kwh: kwh.map(|k| k / (swing / 100.0)),
        bms_ah: bms_capacity(to.soh, to.capacity_ah),
    })
}

/// What the BMS claims the battery holds now: SOH × rated capacity, Ah.
pub fn bms_capacity(soh: Option<f64>, capacity_ah: Option<f64>) -> Option<f64> {
    let (soh, cap) = (soh?, capacity_ah?);
    (soh.is_finite() && cap.is_finite() && soh > 0.0 && cap > 0.0).then(|| soh / 100.0 * cap)
}

/// A measured capacity next to the BMS's claim.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Comparison {
    /// measured / claimed, %.
    pub ratio_pct: f64,
    /// measured - claimed, Ah.
    pub difference_ah: f64,
}

pub fn compare(measured_ah: f64, bms_ah: Option<f64>) -> Option<Comparison> {
    let bms = bms_ah.filter(|b| b.is_finite() && *b > 0.0)?;
    Some(Comparison {
        ratio_pct: measured_ah / bms * 100.0,
        difference_ah: measured_ah - bms,
    })
}

#[cfg(test)]
mod tests;
