//! Rules between settings: the battery's state-of-charge levels. An inverter stops discharging
//! the battery at the shutdown level, warns at the low level and uses the battery again once it
//! has charged back to the restart level. A restart level at or below the low level makes the
//! inverter switch the battery on and off around one value; a shutdown level above the low
//! level means the warning never comes before the battery is cut off (Deye's and Sunsynk's
//! manuals: shutdown <= low < restart).

use crate::{Code, DomainError};

pub const SHUTDOWN: &str = "batteryShutdownCap";
pub const LOW: &str = "batteryLowCap";
pub const RESTART: &str = "batteryRestartCap";

/// Checks the battery levels an inverter would have after a write: `level` answers each key's
/// value as it would be (the new value when the write sets it, else the device's current one),
/// `None` when unknown; a pair with an unknown side is not checked. Code 4 naming the level
/// that is out of order and the one it must respect.
pub fn check_battery_levels(level: impl Fn(&str) -> Option<f64>) -> Result<(), DomainError> {
    let (shutdown, low, restart) = (level(SHUTDOWN), level(LOW), level(RESTART));
    if let (Some(s), Some(l)) = (shutdown, low)
        && s > l
    {
        return Err(out_of_order(LOW, "at least", SHUTDOWN, s));
    }
    if let (Some(l), Some(r)) = (low, restart)
        && r <= l
    {
        return Err(out_of_order(RESTART, "above", LOW, l));
    }
    if let (Some(s), Some(r)) = (shutdown, restart)
        && r <= s
    {
        return Err(out_of_order(RESTART, "above", SHUTDOWN, s));
    }
    Ok(())
}

/// [`check_battery_levels`] for a settings write: `new` answers what the write sets, `current`
/// what the inverter has. Only a write that changes a level is checked, so that an inverter
/// whose levels are already out of order (one that reports zeros, say) still takes its other
/// settings and the write that puts its levels right.
pub fn check_battery_levels_of_write<'a>(
    new: impl Fn(&str) -> Option<&'a str>,
    current: impl Fn(&str) -> Option<&'a str>,
) -> Result<(), DomainError> {
    let changes = [SHUTDOWN, LOW, RESTART]
        .into_iter()
        .any(|key| new(key).is_some_and(|v| current(key) != Some(v)));
    if !changes {
        return Ok(());
    }
    check_battery_levels(|key| new(key).or_else(|| current(key))?.parse().ok())
}

fn out_of_order(key: &str, relation: &str, other: &str, value: f64) -> DomainError {
    DomainError::with_detail(
        Code::InvalidParameter,
        format!("{key}: must be {relation} {other} ({value} %)"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn levels(shutdown: Option<f64>, low: Option<f64>, restart: Option<f64>) -> Result<(), String> {
        check_battery_levels(|k| match k {
            SHUTDOWN => shutdown,
            LOW => low,
            RESTART => restart,
            _ => None,
        })
        .map_err(|e| e.detail.unwrap_or_default())
    }

    #[test]
    fn the_defaults_and_equal_shutdown_and_low_levels_pass() {
        assert_eq!(levels(Some(10.0), Some(20.0), Some(40.0)), Ok(()));
        assert_eq!(levels(Some(20.0), Some(20.0), Some(21.0)), Ok(()));
    }

    #[test]
    fn levels_out_of_order_name_the_level_and_its_bound() {
        // What was once "applied": shutdown 60 %, restart 15 %, low 25 %.
        assert_eq!(
            levels(Some(60.0), Some(25.0), Some(15.0)),
            Err("batteryLowCap: must be at least batteryShutdownCap (60 %)".into())
        );
        assert_eq!(
            levels(Some(10.0), Some(30.0), Some(30.0)),
            Err("batteryRestartCap: must be above batteryLowCap (30 %)".into())
        );
        assert_eq!(
            levels(Some(50.0), None, Some(40.0)),
            Err("batteryRestartCap: must be above batteryShutdownCap (50 %)".into())
        );
    }

    #[test]
    fn a_write_is_checked_only_when_it_changes_a_level() {
        let zeros = |_: &str| Some("0");
        // An inverter reporting zeros takes a time-of-use change, and the echo of its levels.
        assert_eq!(check_battery_levels_of_write(|_| None, zeros), Ok(()));
        assert_eq!(check_battery_levels_of_write(zeros, zeros), Ok(()));
        // Changing one level checks it against the others as they are.
        let low_30 = |k: &str| (k == LOW).then_some("30");
        assert!(check_battery_levels_of_write(low_30, zeros).is_err());
        let fixed = |k: &str| match k {
            SHUTDOWN => Some("10"),
            LOW => Some("20"),
            RESTART => Some("40"),
            _ => None,
        };
        assert_eq!(check_battery_levels_of_write(fixed, zeros), Ok(()));
    }

    #[test]
    fn an_unknown_level_leaves_its_pairs_unchecked() {
        assert_eq!(levels(None, Some(30.0), Some(40.0)), Ok(()));
        assert_eq!(levels(Some(90.0), None, None), Ok(()));
    }
}
