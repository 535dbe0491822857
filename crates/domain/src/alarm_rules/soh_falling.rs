//! `soh_falling`: a battery's state of health dropped by more than the rule's points over its
//! days, or stands below its floor.

use super::{Severity, Verdict};

/// The newest SOH (%) and the newest one at least the rule's days old.
#[derive(Debug, Clone, Copy)]
pub struct Input {
    pub now: Option<f64>,
    pub then: Option<f64>,
}

pub fn evaluate(i: &Input, drop_points: f64, floor: f64, severity: Severity) -> Verdict {
    let Some(now) = i.now else {
        return Verdict::Unknown;
    };
    if now < floor {
        return Verdict::Firing {
            severity,
            value: now,
        };
    }
    match i.then {
        Some(then) if then - now > drop_points => Verdict::Firing {
            severity,
            value: now,
        },
        _ => Verdict::Clear,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drop_or_the_floor_fires() {
        let s = Severity::Warning;
        let fired = |v| Verdict::Firing {
            severity: s,
            value: v,
        };
        let i = |now, then| Input {
            now: Some(now),
            then: Some(then),
        };
        assert_eq!(evaluate(&i(90.0, 97.0), 5.0, 70.0, s), fired(90.0));
        assert_eq!(evaluate(&i(94.0, 97.0), 5.0, 70.0, s), Verdict::Clear);
        assert_eq!(evaluate(&i(65.0, 66.0), 5.0, 70.0, s), fired(65.0));
        let none = Input {
            now: None,
            then: Some(90.0),
        };
        assert_eq!(evaluate(&none, 5.0, 70.0, s), Verdict::Unknown);
    }
}
