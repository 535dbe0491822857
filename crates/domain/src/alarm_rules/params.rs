//! Each kind's parameters, their defaults and their ranges. The wire and the database carry
//! them as one flat object ([`ParamsDraft`], camelCase); a kind reads only its own fields and a
//! missing one takes its default. Out of range answers 4 with the field's name
//! (`params.warningCycles`), and nothing is written.

use serde::{Deserialize, Serialize};

use super::Kind;
use crate::DomainError;

/// Parameters as given: every kind's fields, all optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ParamsDraft {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning_cycles: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alarm_cycles: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold_w: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minutes: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_elevation_deg: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub percent: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spread_mv: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drop_points: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub floor: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub codes: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub all_faults: Option<bool>,
}

/// Validated parameters of one kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Params {
    /// Warning after `warning_cycles` missed upload cycles, alarm after `alarm_cycles`.
    DeviceSilent {
        warning_cycles: i64,
        alarm_cycles: i64,
    },
    /// PV below `threshold_w` for `minutes` with the sun at least `min_elevation_deg` up.
    NoProduction {
        threshold_w: f64,
        minutes: i64,
        min_elevation_deg: f64,
    },
    /// Yesterday's specific yield more than `percent` below the peers' median.
    LowYield { percent: f64 },
    /// A string more than `percent` below its siblings' median for `minutes` in daylight.
    StringLow { percent: f64, minutes: i64 },
    /// Highest minus lowest cell voltage above `spread_mv`.
    CellSpread { spread_mv: f64 },
    /// SOH down more than `drop_points` over `days`, or below `floor`.
    SohFalling {
        drop_points: f64,
        days: i64,
        floor: f64,
    },
    /// Open events with one of `codes`, or any fault when `all_faults`.
    EventCode {
        codes: Vec<String>,
        all_faults: bool,
    },
}

/// The ranges (inclusive), shared with the web form through docs/alarms.md.
pub mod range {
    pub const WARNING_CYCLES: (i64, i64) = (2, 100);
    pub const ALARM_CYCLES: (i64, i64) = (3, 1000);
    pub const THRESHOLD_W: (f64, f64) = (0.0, 10_000.0);
    pub const MINUTES: (i64, i64) = (15, 720);
    pub const MIN_ELEVATION_DEG: (f64, f64) = (5.0, 60.0);
    pub const PERCENT: (f64, f64) = (10.0, 90.0);
    pub const SPREAD_MV: (f64, f64) = (10.0, 2000.0);
    pub const DROP_POINTS: (f64, f64) = (1.0, 50.0);
    pub const DAYS: (i64, i64) = (1, 365);
    pub const FLOOR: (f64, f64) = (0.0, 100.0);
    pub const MAX_CODES: usize = 50;
    pub const CODE_LEN: usize = 16;
}

fn int(
    v: Option<i64>,
    default: i64,
    (lo, hi): (i64, i64),
    field: &str,
) -> Result<i64, DomainError> {
    let v = v.unwrap_or(default);
    if (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(DomainError::invalid(format!("params.{field}")))
    }
}

fn real(
    v: Option<f64>,
    default: f64,
    (lo, hi): (f64, f64),
    field: &str,
) -> Result<f64, DomainError> {
    let v = v.unwrap_or(default);
    if v.is_finite() && (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(DomainError::invalid(format!("params.{field}")))
    }
}

impl Params {
    /// The parameters of `kind` from `draft`, defaults filling the gaps.
    pub fn validate(kind: Kind, d: &ParamsDraft) -> Result<Params, DomainError> {
        use range::*;
        Ok(match kind {
            Kind::DeviceSilent => {
                let warning_cycles = int(d.warning_cycles, 3, WARNING_CYCLES, "warningCycles")?;
                let alarm_cycles = int(d.alarm_cycles, 6, ALARM_CYCLES, "alarmCycles")?;
                if alarm_cycles <= warning_cycles {
                    return Err(DomainError::invalid("params.alarmCycles"));
                }
                Params::DeviceSilent {
                    warning_cycles,
                    alarm_cycles,
                }
            }
            Kind::NoProduction => Params::NoProduction {
                threshold_w: real(d.threshold_w, 10.0, THRESHOLD_W, "thresholdW")?,
                minutes: int(d.minutes, 60, MINUTES, "minutes")?,
                min_elevation_deg: real(
                    d.min_elevation_deg,
                    15.0,
                    MIN_ELEVATION_DEG,
                    "minElevationDeg",
                )?,
            },
            Kind::LowYield => Params::LowYield {
                percent: real(d.percent, 50.0, PERCENT, "percent")?,
            },
            Kind::StringLow => Params::StringLow {
                percent: real(d.percent, 40.0, PERCENT, "percent")?,
                minutes: int(d.minutes, 60, MINUTES, "minutes")?,
            },
            Kind::CellSpread => Params::CellSpread {
                spread_mv: real(d.spread_mv, 200.0, SPREAD_MV, "spreadMv")?,
            },
            Kind::SohFalling => Params::SohFalling {
                drop_points: real(d.drop_points, 5.0, DROP_POINTS, "dropPoints")?,
                days: int(d.days, 30, DAYS, "days")?,
                floor: real(d.floor, 70.0, FLOOR, "floor")?,
            },
            Kind::EventCode => {
                let codes: Vec<String> = d
                    .codes
                    .clone()
                    .unwrap_or_default()
                    .iter()
                    .map(|c| c.trim().to_uppercase())
                    .filter(|c| !c.is_empty())
                    .collect();
                let bad = |c: &String| {
                    c.len() > CODE_LEN
                        || !c
                            .chars()
                            .all(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '-')
                };
                if codes.len() > MAX_CODES || codes.iter().any(bad) {
                    return Err(DomainError::invalid("params.codes"));
                }
                let all_faults = d.all_faults.unwrap_or(codes.is_empty());
                if codes.is_empty() && !all_faults {
                    return Err(DomainError::invalid("params.codes"));
                }
                Params::EventCode { codes, all_faults }
            }
        })
    }

    /// The defaults of `kind` (what a company starts with).
    pub fn default_for(kind: Kind) -> Params {
        // The defaults are in range by construction; the fallback is never taken.
        Params::validate(kind, &ParamsDraft::default())
            .unwrap_or(Params::CellSpread { spread_mv: 200.0 })
    }

    /// As stored and answered: the kind's own fields, all filled.
    pub fn to_draft(&self) -> ParamsDraft {
        let mut d = ParamsDraft::default();
        match self {
            Params::DeviceSilent {
                warning_cycles,
                alarm_cycles,
            } => {
                d.warning_cycles = Some(*warning_cycles);
                d.alarm_cycles = Some(*alarm_cycles);
            }
            Params::NoProduction {
                threshold_w,
                minutes,
                min_elevation_deg,
            } => {
                d.threshold_w = Some(*threshold_w);
                d.minutes = Some(*minutes);
                d.min_elevation_deg = Some(*min_elevation_deg);
            }
            Params::LowYield { percent } => d.percent = Some(*percent),
            Params::StringLow { percent, minutes } => {
                d.percent = Some(*percent);
                d.minutes = Some(*minutes);
            }
            Params::CellSpread { spread_mv } => d.spread_mv = Some(*spread_mv),
            Params::SohFalling {
                drop_points,
                days,
                floor,
            } => {
                d.drop_points = Some(*drop_points);
                d.days = Some(*days);
                d.floor = Some(*floor);
            }
            Params::EventCode { codes, all_faults } => {
                d.codes = Some(codes.clone());
                d.all_faults = Some(*all_faults);
            }
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_fields_take_the_defaults() {
        assert_eq!(
            Params::default_for(Kind::DeviceSilent),
            Params::DeviceSilent {
                warning_cycles: 3,
                alarm_cycles: 6
            }
        );
        assert_eq!(
            Params::default_for(Kind::EventCode),
            Params::EventCode {
                codes: vec![],
                all_faults: true
            }
        );
        for k in Kind::ALL {
            let p = Params::default_for(k);
            assert_eq!(Params::validate(k, &p.to_draft()), Ok(p));
        }
    }

    #[test]
    fn out_of_range_names_the_field() {
        let d = ParamsDraft {
            warning_cycles: Some(5),
            alarm_cycles: Some(5),
            ..Default::default()
        };
        assert_eq!(
            Params::validate(Kind::DeviceSilent, &d),
            Err(DomainError::invalid("params.alarmCycles"))
        );
        let d = ParamsDraft {
            minutes: Some(5),
            ..Default::default()
        };
        assert_eq!(
            Params::validate(Kind::NoProduction, &d),
            Err(DomainError::invalid("params.minutes"))
        );
        let d = ParamsDraft {
            spread_mv: Some(f64::NAN),
            ..Default::default()
        };
        assert!(Params::validate(Kind::CellSpread, &d).is_err());
        let d = ParamsDraft {
            codes: Some(vec!["F13; DROP".into()]),
            ..Default::default()
        };
        assert_eq!(
            Params::validate(Kind::EventCode, &d),
            Err(DomainError::invalid("params.codes"))
        );
        let d = ParamsDraft {
            all_faults: Some(false),
            ..Default::default()
        };
        assert!(Params::validate(Kind::EventCode, &d).is_err());
        let d = ParamsDraft {
            codes: Some(vec![" f13 ".into()]),
            ..Default::default()
        };
        assert_eq!(
            Params::validate(Kind::EventCode, &d),
            Ok(Params::EventCode {
                codes: vec!["F13".into()],
                all_faults: false
            })
        );
    }
}
