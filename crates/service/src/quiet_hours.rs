//! Quiet hours in time: whether a user's quiet hours hold at an instant, and when they end.
//! The hours are local times in the zone the user chose with them (the web app sends the
//! browser's zone); an unknown zone reads as UTC.

use chrono::{DateTime, Timelike};
use domain::webhook::QuietHours;

use crate::local_time::zone;

/// A user's quiet hours as stored.
#[derive(Debug, Clone, Copy)]
pub struct Quiet<'a> {
    pub enabled: bool,
    pub from: i64,
    pub to: i64,
    pub zone: &'a str,
}

impl Quiet<'_> {
    fn hours(&self) -> QuietHours {
        QuietHours {
            from: self.from,
            to: self.to,
        }
    }

    /// The local minute of the day at `ms`.
    fn minute_at(&self, ms: i64) -> i64 {
        let t = DateTime::from_timestamp_millis(ms)
            .unwrap_or_default()
            .with_timezone(&zone(self.zone));
        i64::from(t.hour() * 60 + t.minute())
    }

    /// Whether alarms are held at `now`.
    pub fn holds(&self, now: i64) -> bool {
        self.enabled && self.hours().contains(self.minute_at(now))
    }

    /// When the quiet hours holding at `now` end (the first minute outside them); `None` when
    /// they do not hold now, or never end (from = to: the whole day).
    pub fn ends_after(&self, now: i64) -> Option<i64> {
        if !self.holds(now) {
            return None;
        }
        // Minute by minute: a day at most, and right across a change of the zone's offset.
        let start = now.div_euclid(60_000);
        (1..=1500)
            .map(|m| (start + m) * 60_000)
            .find(|&t| !self.hours().contains(self.minute_at(t)))
    }
}

/// An IANA zone name the quiet hours can be read in (4 `quietZone` otherwise).
pub fn parse_zone(raw: &str) -> Result<String, domain::DomainError> {
    let name = raw.trim();
    name.parse::<chrono_tz::Tz>()
        .map(|_| name.to_string())
        .map_err(|_| domain::DomainError::invalid("quietZone"))
}

#[cfg(test)]
mod tests {
    use super::*;

    // 2026-01-15 22:30 UTC (23:30 in Madrid).
    const T: i64 = 1_768_516_200_000;

    #[test]
    fn quiet_hours_are_read_in_the_users_zone_and_end_at_the_to_time() {
        let q = Quiet {
            enabled: true,
            from: 22 * 60,
            to: 7 * 60,
            zone: "Europe/Madrid",
        };
        assert!(q.holds(T));
        // 07:00 Madrid on the 16th = 06:00 UTC.
        assert_eq!(q.ends_after(T), Some(1_768_543_200_000));
        assert!(!q.holds(T - 10 * 3_600_000), "12:30 Madrid");
        assert!(
            !Quiet {
                enabled: false,
                ..q
            }
            .holds(T)
        );
        let all_day = Quiet {
            from: 0,
            to: 0,
            ..q
        };
        assert!(all_day.holds(T) && all_day.ends_after(T).is_none());
    }

    #[test]
    fn zones_are_iana_names() {
        assert_eq!(
            parse_zone(" Asia/Shanghai ").as_deref(),
            Ok("Asia/Shanghai")
        );
        assert!(parse_zone("Mars/Olympus").is_err());
    }
}
