//! Alarm delivery by signed webhooks: the alarm kinds and severities an endpoint filters on,
//! the rules of an endpoint (URL, filter, how many), the retry schedule and quiet hours.

use crate::{Code, DomainError};

/// Every alarm kind an endpoint may filter on, as sent on the wire. The e-mail alarms come
/// first, then the kinds of the alarm rules; a new kind is added here and nowhere else.
pub const ALARM_KINDS: &[&str] = &[
    "offline",
    "fault",
    "device_silent",
    "no_production",
    "low_yield",
    "string_low",
    "cell_spread",
    "soh_falling",
    "event_code",
];

/// At most this many endpoints per user.
pub const MAX_ENDPOINTS: i64 = 5;
/// The longest URL accepted.
pub const URL_MAX: usize = 2048;

/// How long a delivery waits after its n-th failed attempt; after the last one it has failed.
pub const RETRY_DELAYS_MS: [i64; 5] = [30_000, 120_000, 600_000, 3_600_000, 21_600_000];

/// The delivery log keeps at most this many attempts per endpoint...
pub const LOG_KEEP_PER_ENDPOINT: i64 = 200;
/// ...and none older than this.
pub const LOG_KEEP_MS: i64 = 30 * 24 * 3600 * 1000;

/// When a delivery that failed its `attempts`-th time is tried again (from `now`); `None` when
/// it has had all its tries.
pub fn next_attempt_at(attempts: i64, now: i64) -> Option<i64> {
    let i = usize::try_from(attempts.checked_sub(1)?).ok()?;
    RETRY_DELAYS_MS.get(i).map(|d| now + d)
}

/// How grave an alarm is; an endpoint receives alarms at or above its minimum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Warning,
    Alarm,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Alarm => "alarm",
        }
    }

    /// 4 `minSeverity` unless `warning` or `alarm`.
    pub fn parse(raw: &str) -> Result<Severity, DomainError> {
        match raw.trim() {
            "warning" => Ok(Severity::Warning),
            "alarm" => Ok(Severity::Alarm),
            _ => Err(DomainError::invalid("minSeverity")),
        }
    }
}

/// What happened to the alarm a delivery tells of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    Opened,
    Updated,
    Acknowledged,
    Closed,
    /// Asked for by the endpoint's owner: never held by quiet hours, never retried.
    Test,
}

impl Event {
    pub fn as_str(self) -> &'static str {
        match self {
            Event::Opened => "opened",
            Event::Updated => "updated",
            Event::Acknowledged => "acknowledged",
            Event::Closed => "closed",
            Event::Test => "test",
        }
    }
}

/// An endpoint's URL: `https://` or `http://` with a host, at most [`URL_MAX`] characters, no
/// spaces or control characters (4 `url`). Where it may point is checked when it is called
/// (its address, once resolved), not here: a name's addresses change.
pub fn parse_url(raw: &str) -> Result<String, DomainError> {
    let bad = || DomainError::invalid("url");
    let url = raw.trim();
    if url.is_empty()
        || url.len() > URL_MAX
        || url.chars().any(|c| c.is_whitespace() || c.is_control())
    {
        return Err(bad());
    }
    let parsed = url::Url::parse(url).map_err(|_| bad())?;
    let host_ok = parsed.host_str().is_some_and(|h| !h.is_empty());
    if !matches!(parsed.scheme(), "https" | "http") || !host_ok {
        return Err(bad());
    }
    // Credentials in the URL would be kept and shown like the rest of it.
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(bad());
    }
    Ok(url.to_string())
}

/// A kind filter as given: kinds of [`ALARM_KINDS`], each once, in catalogue order; empty
/// means every kind (4 `kinds` for an unknown one).
pub fn parse_kinds<S: AsRef<str>>(raw: &[S]) -> Result<Vec<&'static str>, DomainError> {
    let mut out: Vec<&'static str> = Vec::new();
    for k in raw {
        let k = k.as_ref().trim();
        let known = ALARM_KINDS
            .iter()
            .find(|x| **x == k)
            .ok_or_else(|| DomainError::invalid("kinds"))?;
        if !out.contains(known) {
            out.push(known);
        }
    }
    out.sort_by_key(|k| ALARM_KINDS.iter().position(|x| x == k));
    Ok(out)
}

/// The stored form of a kind filter: `,a,b,` (so one `LIKE '%,kind,%'` matches a kind), or
/// empty for every kind.
pub fn kinds_column(kinds: &[&str]) -> String {
    if kinds.is_empty() {
        String::new()
    } else {
        format!(",{},", kinds.join(","))
    }
}

/// The kinds of a stored filter.
pub fn kinds_of_column(column: &str) -> Vec<String> {
    column
        .split(',')
        .filter(|k| !k.is_empty())
        .map(str::to_string)
        .collect()
}

/// The endpoint limit: a user with `count` endpoints may not add one more (1101).
pub fn check_room(count: i64) -> Result<(), DomainError> {
    if count >= MAX_ENDPOINTS {
        return Err(Code::WebhookLimit.into());
    }
    Ok(())
}

/// Quiet hours: from `from` to `to` (minutes of the day, local time), wrapping midnight when
/// `to` is not after `from`; the same two minutes mean the whole day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuietHours {
    pub from: i64,
    pub to: i64,
}

impl QuietHours {
    /// Whether a local minute of the day (0-1439) lies in the quiet hours (`to` excluded).
    pub fn contains(self, minute: i64) -> bool {
        if self.from < self.to {
            (self.from..self.to).contains(&minute)
        } else {
            minute >= self.from || minute < self.to
        }
    }
}

/// `HH:MM` (00:00-23:59) as minutes of the day (4 `field` otherwise).
pub fn parse_hhmm(raw: &str, field: &str) -> Result<i64, DomainError> {
    let bad = || DomainError::invalid(field);
    let (h, m) = raw.trim().split_once(':').ok_or_else(bad)?;
    let two = |s: &str| (s.len() == 2 && s.bytes().all(|b| b.is_ascii_digit())).then_some(());
    two(h).and(two(m)).ok_or_else(bad)?;
    let (h, m): (i64, i64) = (h.parse().map_err(|_| bad())?, m.parse().map_err(|_| bad())?);
    if h > 23 || m > 59 {
        return Err(bad());
    }
    Ok(h * 60 + m)
}

/// Minutes of the day as `HH:MM`.
pub fn hhmm(minutes: i64) -> String {
    let m = minutes.rem_euclid(1440);
    format!("{:02}:{:02}", m / 60, m % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kinds_are_the_two_mailed_ones_and_every_rule_kind() {
        let rules = crate::alarm_rules::Kind::ALL.map(|k| k.as_str());
        let expected: Vec<&str> = ["offline", "fault"].into_iter().chain(rules).collect();
        assert_eq!(ALARM_KINDS, expected.as_slice());
    }

    #[test]
    fn urls_are_http_or_https_with_a_host_and_not_too_long() {
        assert!(parse_url(" https://hooks.example.com/a?b=1 ").is_ok());
        assert!(parse_url("http://10.0.0.1:8080/x").is_ok());
        let long = format!("https://example.com/{}", "a".repeat(URL_MAX));
        for bad in [
            "",
            "ftp://x.com",
            "https://",
            "example.com/x",
            "https://a b.com",
            &long,
        ] {
            assert!(parse_url(bad).is_err(), "{bad}");
        }
        assert!(parse_url("https://user:pw@example.com/").is_err());
    }

    #[test]
    fn kind_filters_keep_known_kinds_once_in_catalogue_order() {
        assert_eq!(
            parse_kinds(&["fault", "offline", "fault"]),
            Ok(vec!["offline", "fault"])
        );
        assert!(parse_kinds(&["flood"]).is_err());
        assert_eq!(kinds_column(&["offline", "fault"]), ",offline,fault,");
        assert_eq!(kinds_of_column(",offline,fault,"), vec!["offline", "fault"]);
        assert!(kinds_of_column("").is_empty());
    }

    #[test]
    fn failed_deliveries_are_retried_five_times_with_growing_delays() {
        assert_eq!(next_attempt_at(1, 0), Some(30_000));
        assert_eq!(next_attempt_at(2, 0), Some(120_000));
        assert_eq!(next_attempt_at(5, 0), Some(21_600_000));
        assert_eq!(next_attempt_at(6, 0), None);
        assert_eq!(next_attempt_at(0, 0), None);
    }

    #[test]
    fn quiet_hours_may_wrap_midnight() {
        let night = QuietHours {
            from: 22 * 60,
            to: 7 * 60,
        };
        assert!(night.contains(23 * 60) && night.contains(0) && night.contains(7 * 60 - 1));
        assert!(!night.contains(7 * 60) && !night.contains(12 * 60));
        let lunch = QuietHours {
            from: 12 * 60,
            to: 13 * 60,
        };
        assert!(lunch.contains(12 * 60 + 30) && !lunch.contains(13 * 60));
        assert_eq!(parse_hhmm("07:30", "quietTo"), Ok(450));
        for bad in ["7:30", "24:00", "12:60", "ab:cd", ""] {
            assert!(parse_hhmm(bad, "quietTo").is_err(), "{bad}");
        }
        assert_eq!(hhmm(450), "07:30");
    }

    #[test]
    fn severities_order_warning_below_alarm() {
        assert!(Severity::Warning < Severity::Alarm);
        assert_eq!(Severity::parse("alarm"), Ok(Severity::Alarm));
        assert!(Severity::parse("critical").is_err());
    }
}
