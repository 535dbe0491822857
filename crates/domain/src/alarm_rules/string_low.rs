//! `string_low`: one PV input (MPPT/string) of an inverter giving more than the rule's percent
//! less than the median of its siblings on the same inverter, in every report of the rule's
//! minutes of daylight. In a dim hour (siblings' median below [`MIN_MEDIAN_W`]) nothing is
//! judged.
//!
//! Which inputs are strings: an input reading a panel voltage of at least [`STRING_VOLTAGE`]
//! is one. An input below it gives nothing, and is either unused (no string was ever wired to
//! it) or dead (a blown fuse, an unplugged connector: the most common string fault). The
//! reports cannot tell the two apart at one moment; their past can: a dead string produced
//! before. So an input without voltage is judged (as giving its power, about 0 W) only when it
//! [`produced`] within [`LOOKBACK_MS`] before now ([`judged_power`]). The engine remembers when
//! each input last produced ([`remember`]).

use super::{Severity, Verdict, median};

/// Siblings giving less than this (W) say nothing about a string.
pub const MIN_MEDIAN_W: f64 = 100.0;
/// The sun's height (degrees) from which strings are compared.
pub const MIN_ELEVATION_DEG: f64 = 15.0;
/// An input with less than this panel voltage (V) gives nothing: no string, or a dead one.
pub const STRING_VOLTAGE: f64 = 50.0;
/// An input giving at least this (W) at a panel voltage produces: a string is wired to it.
pub const PRODUCING_W: f64 = 10.0;
/// An input that has not produced for this long (ms, 30 days) is not taken as a string: one
/// never wired, or a string removed for good (its case, if any, closes).
pub const LOOKBACK_MS: i64 = 30 * 86_400_000;
/// When each input last produced is written again at most this often (ms): a lookback of a
/// month does not need the minute.
pub const REMEMBER_EVERY_MS: i64 = 3_600_000;

/// Whether an input giving `power` (W) at `voltage` (V, when reported) produces.
pub fn produced(power: Option<f64>, voltage: Option<f64>) -> bool {
    power.is_some_and(|p| p >= PRODUCING_W) && voltage.is_none_or(|v| v >= STRING_VOLTAGE)
}

/// An input's power as the rule compares it, `None` when it is no string: an input with a
/// panel voltage (or without a voltage reading) gives its power; one below [`STRING_VOLTAGE`]
/// is a dead string (its power, about 0 W) when it last produced (`produced_at`) within
/// [`LOOKBACK_MS`] of `now`, else no string.
pub fn judged_power(
    power: Option<f64>,
    voltage: Option<f64>,
    produced_at: Option<i64>,
    now: i64,
) -> Option<f64> {
    let power = power?;
    if voltage.is_none_or(|v| v >= STRING_VOLTAGE) {
        return Some(power);
    }
    produced_at
        .filter(|t| now - t <= LOOKBACK_MS)
        .map(|_| power.max(0.0))
}

/// When each input last produced, after a report at `ts` of `inputs` (power, voltage per
/// input, pv1 first) over what was known (`known`, the same order; shorter when fewer inputs
/// were seen).
pub fn remember(
    known: &[Option<i64>],
    inputs: &[(Option<f64>, Option<f64>)],
    ts: i64,
) -> Vec<Option<i64>> {
    (0..known.len().max(inputs.len()))
        .map(|i| {
            let before = known.get(i).copied().flatten();
            let now = inputs.get(i).filter(|(p, v)| produced(*p, *v)).map(|_| ts);
            before.max(now)
        })
        .collect()
}

/// Whether `after` is worth writing over `before`: an input produced for the first time, or
/// [`REMEMBER_EVERY_MS`] after it was last written.
pub fn worth_writing(before: &[Option<i64>], after: &[Option<i64>]) -> bool {
    after
        .iter()
        .enumerate()
        .any(|(i, a)| match (before.get(i).copied().flatten(), a) {
            (None, Some(_)) => true,
            (Some(b), Some(a)) => a - b >= REMEMBER_EVERY_MS,
            _ => false,
        })
}

/// Whether input `i` of one report is low: `powers[k]` is input k's power, `None` when it is no
/// string. `None` when it cannot be told (no siblings, dim).
pub fn low_in(powers: &[Option<f64>], i: usize, percent: f64) -> Option<bool> {
    let own = powers.get(i).copied().flatten()?;
    let siblings: Vec<f64> = powers
        .iter()
        .enumerate()
        .filter(|(k, _)| *k != i)
        .filter_map(|(_, p)| *p)
        .collect();
    let m = median(&siblings)?;
    if m < MIN_MEDIAN_W {
        return None;
    }
    Some(own < m * (1.0 - percent / 100.0))
}

/// The verdict on input `i` over the reports of the stretch (oldest first, each with the
/// sun's height at its time), `covered` when the reports span the whole stretch.
pub fn evaluate(
    reports: &[(f64, Vec<Option<f64>>)],
    i: usize,
    percent: f64,
    covered: bool,
    severity: Severity,
) -> Verdict {
    let Some((_, newest)) = reports.last() else {
        return Verdict::Unknown;
    };
    if low_in(newest, i, percent) == Some(false) {
        return Verdict::Clear;
    }
    let judged: Vec<Option<bool>> = reports
        .iter()
        .map(|(elevation, p)| {
            if *elevation < MIN_ELEVATION_DEG {
                None
            } else {
                low_in(p, i, percent)
            }
        })
        .collect();
    if covered && judged.iter().all(|j| *j == Some(true)) {
        let own = newest.get(i).copied().flatten().unwrap_or(0.0);
        Verdict::Firing {
            severity,
            value: own.round(),
        }
    } else {
        Verdict::Unknown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(p: [f64; 3]) -> (f64, Vec<Option<f64>>) {
        (40.0, p.iter().map(|v| Some(*v)).collect())
    }

    #[test]
    fn a_string_far_below_its_siblings_all_along_fires() {
        let r = vec![report([1000.0, 980.0, 300.0]); 6];
        assert_eq!(
            evaluate(&r, 2, 40.0, true, Severity::Warning),
            Verdict::Firing {
                severity: Severity::Warning,
                value: 300.0
            }
        );
        assert_eq!(
            evaluate(&r, 0, 40.0, true, Severity::Warning),
            Verdict::Clear
        );
        assert_eq!(
            evaluate(&r, 2, 40.0, false, Severity::Warning),
            Verdict::Unknown
        );
    }

    #[test]
    fn dim_hours_and_unused_inputs_are_not_judged() {
        let dim = vec![report([50.0, 40.0, 0.0]); 6];
        assert_eq!(
            evaluate(&dim, 2, 40.0, true, Severity::Warning),
            Verdict::Unknown
        );
        let unused = vec![(40.0, vec![Some(1000.0), None]); 6];
        assert_eq!(low_in(&unused[0].1, 1, 40.0), None);
        let mut low_sun = vec![report([1000.0, 980.0, 300.0]); 6];
        low_sun[0].0 = 5.0;
        assert_eq!(
            evaluate(&low_sun, 2, 40.0, true, Severity::Warning),
            Verdict::Unknown
        );
    }

    const NOW: i64 = 1_800_000_000_000;
    const HOUR: i64 = 3_600_000;
    const DAY: i64 = 24 * HOUR;

    #[test]
    fn an_input_without_voltage_is_a_string_only_if_it_produced_within_thirty_days() {
        // Dead since this morning: produced 20 hours ago, reads 0 W at 0 V (or -3 W of noise).
        let yesterday = Some(NOW - 20 * HOUR);
        assert_eq!(
            judged_power(Some(0.0), Some(0.0), yesterday, NOW),
            Some(0.0)
        );
        assert_eq!(
            judged_power(Some(-3.0), Some(1.5), yesterday, NOW),
            Some(0.0)
        );
        // Exactly 30 days ago still counts; 30 days and a minute does not.
        assert_eq!(
            judged_power(Some(0.0), Some(0.0), Some(NOW - 30 * DAY), NOW),
            Some(0.0)
        );
        assert_eq!(
            judged_power(Some(0.0), Some(0.0), Some(NOW - 30 * DAY - 60_000), NOW),
            None
        );
        // Never produced: an unused input.
        assert_eq!(judged_power(Some(0.0), Some(0.0), None, NOW), None);
        // With a panel voltage (or no voltage reading) it is a string whatever its past.
        assert_eq!(judged_power(Some(0.0), Some(310.0), None, NOW), Some(0.0));
        assert_eq!(judged_power(Some(5.0), None, None, NOW), Some(5.0));
        assert_eq!(judged_power(None, Some(310.0), yesterday, NOW), None);
    }

    #[test]
    fn a_dead_string_among_producing_siblings_fires_at_zero_watts() {
        // pv1 1000 W at 320 V, pv2 980 W at 318 V, pv3 dead (0 W at 1.5 V, produced
        // yesterday), pv4 never wired (0 W at 0 V).
        let raw = [(1000.0, 320.0), (980.0, 318.0), (0.0, 1.5), (0.0, 0.0)];
        let last = [Some(NOW), Some(NOW), Some(NOW - DAY), None];
        let powers: Vec<Option<f64>> = raw
            .iter()
            .zip(last)
            .map(|((p, v), t)| judged_power(Some(*p), Some(*v), t, NOW))
            .collect();
        assert_eq!(powers, [Some(1000.0), Some(980.0), Some(0.0), None]);
        // pv3's siblings: median (1000 + 980) / 2 = 990 W, 40 % below is 594 W: 0 W is low.
        assert_eq!(low_in(&powers, 2, 40.0), Some(true));
        // pv1's siblings: 980 and 0, median 490 W, 40 % below is 294 W: 1000 W is not.
        assert_eq!(low_in(&powers, 0, 40.0), Some(false));
        assert_eq!(low_in(&powers, 3, 40.0), None, "no string on pv4");
        let stretch = vec![(40.0, powers.clone()); 6];
        assert_eq!(
            evaluate(&stretch, 2, 40.0, true, Severity::Warning),
            Verdict::Firing {
                severity: Severity::Warning,
                value: 0.0
            }
        );
        // pv2's siblings: 1000 and 0, median 500 W, 40 % below 300 W: 980 W clears it.
        assert_eq!(
            evaluate(&stretch, 1, 40.0, true, Severity::Warning),
            Verdict::Clear
        );
        // At night every known string reads 0 V: siblings' median 0 W, nothing is judged.
        let night = vec![(-20.0, vec![Some(0.0), Some(0.0), Some(0.0), None]); 6];
        assert_eq!(
            evaluate(&night, 2, 40.0, true, Severity::Warning),
            Verdict::Unknown
        );
    }

    #[test]
    fn producing_is_remembered_and_written_at_most_hourly() {
        assert!(produced(Some(10.0), Some(50.0)));
        assert!(produced(Some(300.0), None));
        assert!(!produced(Some(9.0), Some(320.0)));
        assert!(!produced(Some(400.0), Some(49.0)));
        let known = [Some(NOW - 2 * HOUR), None, Some(NOW - DAY)];
        // pv1 produces, pv2 reads nothing, pv3 gives 5 W (not producing), pv4 is new and
        // produces.
        let inputs = [
            (Some(1000.0), Some(320.0)),
            (Some(0.0), Some(0.0)),
            (Some(5.0), Some(300.0)),
            (Some(700.0), Some(300.0)),
        ];
        let after = remember(&known, &inputs, NOW);
        assert_eq!(after, [Some(NOW), None, Some(NOW - DAY), Some(NOW)]);
        assert!(
            worth_writing(&known, &after),
            "pv4 is new, pv1 two hours on"
        );
        let half_hour = remember(&[Some(NOW - HOUR / 2)], &inputs[..1], NOW);
        assert!(!worth_writing(&[Some(NOW - HOUR / 2)], &half_hour));
        let hour = remember(&[Some(NOW - HOUR)], &inputs[..1], NOW);
        assert!(worth_writing(&[Some(NOW - HOUR)], &hour));
        // An older report changes nothing.
        assert_eq!(remember(&[Some(NOW)], &inputs[..1], NOW - DAY), [Some(NOW)]);
    }
}
