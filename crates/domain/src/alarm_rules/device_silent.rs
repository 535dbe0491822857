//! `device_silent`: a device (inverter, battery, meter) that stopped reporting while its
//! gateway still talks. A warning after `warning` missed upload cycles, an alarm after `alarm`.
//! A device whose gateway is offline is the gateway offline alarm's business: the verdict is
//! clear then, so a whole site dropping opens no case per device.

use super::{Severity, Verdict};

/// What is known of one device at `now`.
#[derive(Debug, Clone, Copy)]
pub struct Input {
    /// When its newest report was taken; `None`: never reported.
    pub last_seen: Option<i64>,
    /// Whether its gateway counts as online now (the status rule).
    pub gateway_online: bool,
    /// The gateway's upload cycle, seconds.
    pub upload_cycle_s: i64,
    pub now: i64,
}

/// Whole upload cycles since the newest report.
pub fn missed_cycles(last_seen: i64, upload_cycle_s: i64, now: i64) -> i64 {
    (now - last_seen).max(0) / (upload_cycle_s.max(1) * 1000)
}

pub fn evaluate(i: &Input, warning_cycles: i64, alarm_cycles: i64) -> Verdict {
    if !i.gateway_online {
        return Verdict::Clear;
    }
    let Some(seen) = i.last_seen else {
        return Verdict::Unknown;
    };
    let missed = missed_cycles(seen, i.upload_cycle_s, i.now);
    let severity = if missed >= alarm_cycles {
        Severity::Alarm
    } else if missed >= warning_cycles {
        Severity::Warning
    } else {
        return Verdict::Clear;
    };
    Verdict::Firing {
        severity,
        value: missed as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_000_000_000;

    fn input(silent_s: i64, gateway_online: bool) -> Input {
        Input {
            last_seen: Some(NOW - silent_s * 1000),
            gateway_online,
            upload_cycle_s: 60,
            now: NOW,
        }
    }

    #[test]
    fn warning_then_alarm_as_cycles_go_missing() {
        assert_eq!(evaluate(&input(179, true), 3, 6), Verdict::Clear);
        assert_eq!(
            evaluate(&input(180, true), 3, 6),
            Verdict::Firing {
                severity: Severity::Warning,
                value: 3.0
            }
        );
        assert_eq!(
            evaluate(&input(400, true), 3, 6),
            Verdict::Firing {
                severity: Severity::Alarm,
                value: 6.0
            }
        );
    }

    #[test]
    fn an_offline_gateway_never_fires_its_devices() {
        assert_eq!(evaluate(&input(10_000, false), 3, 6), Verdict::Clear);
        let never = Input {
            last_seen: None,
            ..input(0, true)
        };
        assert_eq!(evaluate(&never, 3, 6), Verdict::Unknown);
    }
}
