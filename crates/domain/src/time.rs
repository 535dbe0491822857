//! The clock every stored time is read from.

use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch: the unit of every stored time. A clock set before 1970
/// reads as the epoch itself rather than failing.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_reads_a_time_after_2020_in_milliseconds() {
        // 2020-01-01T00:00:00Z in ms: a seconds clock would read a thousand times less.
        assert!(now_ms() > 1_577_836_800_000);
    }
}
