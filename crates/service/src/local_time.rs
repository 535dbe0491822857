//! Times as a plant's people read them: in the plant's own zone.

use chrono::{DateTime, Datelike, NaiveDate, Timelike, Utc};
use chrono_tz::Tz;

/// A plant's time zone from its stored name; UTC when it is not a known zone.
pub fn zone(name: &str) -> Tz {
    name.parse().unwrap_or(Tz::UTC)
}

/// Today in `tz`.
pub fn today(tz: Tz) -> NaiveDate {
    Utc::now().with_timezone(&tz).date_naive()
}

/// `YYYY-MM-DDTHH:MM:SSZ` of `ms`, in UTC.
pub fn utc_time(ms: i64) -> String {
    DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

/// The number of days of a month (28-31).
pub fn days_in_month(year: i32, month: u32) -> u32 {
    let next = if month == 12 {
        NaiveDate::from_ymd_opt(year + 1, 1, 1)
    } else {
        NaiveDate::from_ymd_opt(year, month + 1, 1)
    };
    next.and_then(|n| n.pred_opt()).map_or(30, |d| d.day())
}

/// `YYYY-MM-DD HH:MM:SS` of `ms` in `tz`.
pub fn local_time(ms: i64, tz: Tz) -> String {
    let t = DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .with_timezone(&tz);
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
        t.year(),
        t.month(),
        t.day(),
        t.hour(),
        t.minute(),
        t.second()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_times_are_written_in_the_zone() {
        let shanghai = zone("Asia/Shanghai");
        // 2024-03-10 20:05:09 UTC.
        assert_eq!(
            local_time(1_710_101_109_000, shanghai),
            "2024-03-11 04:05:09"
        );
        assert_eq!(local_time(0, Tz::UTC), "1970-01-01 00:00:00");
    }

    #[test]
    fn an_unknown_zone_is_utc() {
        assert_eq!(zone("Mars/Olympus"), Tz::UTC);
    }
}
