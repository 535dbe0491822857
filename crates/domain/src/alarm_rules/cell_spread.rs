//! `cell_spread`: a battery whose highest and lowest cell voltages drift apart by more than
//! the rule's millivolts (unbalanced cells, a failing cell).

use super::{Severity, Verdict};

/// A battery's newest cell extremes, V; `fresh` when the report is not stale.
#[derive(Debug, Clone, Copy)]
pub struct Input {
    pub max_v: Option<f64>,
    pub min_v: Option<f64>,
    pub fresh: bool,
}

pub fn evaluate(i: &Input, spread_mv: f64, severity: Severity) -> Verdict {
    let (Some(max), Some(min), true) = (i.max_v, i.min_v, i.fresh) else {
        return Verdict::Unknown;
    };
    // Round to whole millivolts: 3.45 - 3.25 is 199.99999 in floating point.
    let spread = ((max - min) * 1000.0).round();
    if spread > spread_mv {
        Verdict::Firing {
            severity,
            value: spread,
        }
    } else {
        Verdict::Clear
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(max: f64, min: f64) -> Input {
        Input {
            max_v: Some(max),
            min_v: Some(min),
            fresh: true,
        }
    }

    #[test]
    fn a_spread_above_the_threshold_fires_and_a_balanced_pack_clears() {
        assert_eq!(
            evaluate(&input(3.45, 3.20), 200.0, Severity::Warning),
            Verdict::Firing {
                severity: Severity::Warning,
                value: 250.0
            }
        );
        assert_eq!(
            evaluate(&input(3.45, 3.25), 200.0, Severity::Warning),
            Verdict::Clear
        );
        let stale = Input {
            fresh: false,
            ..input(3.6, 3.0)
        };
        assert_eq!(evaluate(&stale, 200.0, Severity::Warning), Verdict::Unknown);
    }
}
