//! `string_low`: one PV input (MPPT/string) of an inverter giving more than the rule's percent
//! less than the median of its siblings on the same inverter, in every report of the rule's
//! minutes of daylight. Inputs without a panel voltage are not strings (an unused input
//! reads 0 W forever); in a dim hour (siblings' median below [`MIN_MEDIAN_W`]) nothing is
//! judged.

use super::{Severity, Verdict, median};

/// Siblings giving less than this (W) say nothing about a string.
pub const MIN_MEDIAN_W: f64 = 100.0;
/// The sun's height (degrees) from which strings are compared.
pub const MIN_ELEVATION_DEG: f64 = 15.0;

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
}
