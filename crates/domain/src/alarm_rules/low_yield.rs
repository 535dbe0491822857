//! `low_yield`: a plant's specific yield (kWh per kWp) of a finished local day more than the
//! rule's percent below the median of its peers (the other plants the rule watches, same day).
//! The peers' median, not a modelled clear sky: a cloudy day lowers every plant alike and
//! fires nothing, while a clear-sky model would fire on every cloudy day.

use super::{Severity, Verdict, median};

/// Peers needed before a median means anything.
pub const MIN_PEERS: usize = 3;
/// Below this median (kWh/kWp) the day was too dark to judge anyone by.
pub const MIN_MEDIAN: f64 = 0.5;

/// The percent by which `own` falls short of the median of `peers`; `None` when it cannot be
/// told.
pub fn deficit(own: f64, peers: &[f64]) -> Option<f64> {
    if peers.len() < MIN_PEERS {
        return None;
    }
    let m = median(peers)?;
    (m >= MIN_MEDIAN).then(|| ((1.0 - own / m) * 100.0).max(0.0))
}

pub fn evaluate(own: Option<f64>, peers: &[f64], percent: f64, severity: Severity) -> Verdict {
    match own.and_then(|o| deficit(o, peers)) {
        None => Verdict::Unknown,
        Some(d) if d > percent => Verdict::Firing {
            severity,
            value: (d * 10.0).round() / 10.0,
        },
        Some(_) => Verdict::Clear,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn far_below_the_peers_fires() {
        let peers = [4.0, 4.2, 3.8, 4.1];
        assert_eq!(
            evaluate(Some(1.0), &peers, 50.0, Severity::Warning),
            Verdict::Firing {
                severity: Severity::Warning,
                value: 75.3
            }
        );
        assert_eq!(
            evaluate(Some(3.5), &peers, 50.0, Severity::Warning),
            Verdict::Clear
        );
        assert_eq!(
            evaluate(Some(0.0), &[0.2, 0.3, 0.1], 50.0, Severity::Warning),
            Verdict::Unknown
        );
        assert_eq!(
            evaluate(Some(0.0), &[4.0, 4.0], 50.0, Severity::Warning),
            Verdict::Unknown
        );
    }
}
