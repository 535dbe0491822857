//! Alarm delivery by Web Push: the rules of a subscription (endpoint, keys, device name, how
//! many per user), the retry schedule, and the texts of a notification. docs/push.md.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};

use crate::{Code, DomainError, Lang, webhook::Severity};

/// At most this many subscriptions (browsers, phones) per user.
pub const MAX_SUBSCRIPTIONS: i64 = 10;
/// The longest endpoint accepted (push services' are some 200-500 characters).
pub const ENDPOINT_MAX: usize = 2048;
/// The longest device name kept, in characters.
pub const DEVICE_NAME_MAX: usize = 64;
/// The length of a browser's P-256 public key (uncompressed point, RFC 8291 `ua_public`).
pub const P256DH_LEN: usize = 65;
/// The length of a browser's authentication secret (RFC 8291 `auth_secret`).
pub const AUTH_LEN: usize = 16;

/// How long a message waits after its n-th failed attempt (429, 5xx, no answer); after the
/// last one it is dropped: an alarm hours old is no longer worth a buzz.
pub const RETRY_DELAYS_MS: [i64; 4] = [30_000, 120_000, 600_000, 3_600_000];

/// When a message that failed its `attempts`-th time is tried again (from `now`); `None` when
/// it has had all its tries. A `retry_after` the push service asked for (429) is honoured when
/// it is longer than the schedule's.
pub fn next_attempt_at(attempts: i64, now: i64, retry_after_ms: Option<i64>) -> Option<i64> {
    let i = usize::try_from(attempts.checked_sub(1)?).ok()?;
    let delay = *RETRY_DELAYS_MS.get(i)?;
    Some(now + delay.max(retry_after_ms.unwrap_or(0).min(3_600_000)))
}

/// A push service's endpoint: `https://` with a host, at most [`ENDPOINT_MAX`] characters, no
/// credentials (4 `endpoint`). `http://` only when `allow_http` (the operator allows private
/// addresses: a test push service on loopback). Where it points is checked again when it is
/// called (its resolved address).
pub fn parse_endpoint(raw: &str, allow_http: bool) -> Result<String, DomainError> {
    let bad = || DomainError::invalid("endpoint");
    let endpoint = raw.trim();
    if endpoint.is_empty()
        || endpoint.len() > ENDPOINT_MAX
        || endpoint
            .chars()
            .any(|c| c.is_whitespace() || c.is_control())
    {
        return Err(bad());
    }
    let parsed = url::Url::parse(endpoint).map_err(|_| bad())?;
    let scheme_ok = parsed.scheme() == "https" || (allow_http && parsed.scheme() == "http");
    let host_ok = parsed.host_str().is_some_and(|h| !h.is_empty());
    if !scheme_ok || !host_ok || !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(bad());
    }
    Ok(endpoint.to_string())
}

/// The host of an endpoint, as its owner is shown it (never the whole URL: its path is the
/// push service's address of the browser).
pub fn endpoint_host(endpoint: &str) -> String {
    url::Url::parse(endpoint)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_default()
}

/// Base64url of exactly `len` bytes, padded or not (browsers' `getKey` encoded either way);
/// answered unpadded (4 `field` otherwise).
pub fn parse_key(raw: &str, len: usize, field: &str) -> Result<String, DomainError> {
    let bad = || DomainError::invalid(field);
    let trimmed = raw.trim().trim_end_matches('=');
    let bytes = URL_SAFE_NO_PAD.decode(trimmed).map_err(|_| bad())?;
    if bytes.len() != len {
        return Err(bad());
    }
    // An uncompressed P-256 point starts with 4.
    if len == P256DH_LEN && bytes[0] != 4 {
        return Err(bad());
    }
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

/// A device name as its owner gave it: trimmed, control characters dropped, at most
/// [`DEVICE_NAME_MAX`] characters (longer names are cut, not refused: browsers' user agents
/// make long ones).
pub fn device_name(raw: &str) -> String {
    raw.trim()
        .chars()
        .filter(|c| !c.is_control())
        .take(DEVICE_NAME_MAX)
        .collect::<String>()
        .trim_end()
        .to_string()
}

/// The subscription limit: a user with `count` subscriptions may not add one more (1103).
pub fn check_room(count: i64) -> Result<(), DomainError> {
    if count >= MAX_SUBSCRIPTIONS {
        return Err(Code::PushSubscriptionLimit.into());
    }
    Ok(())
}

/// A severity's word in a notification.
pub fn severity_word(severity: Severity, lang: Lang) -> &'static str {
    match (severity, lang) {
        (Severity::Warning, Lang::En) => "Warning",
        (Severity::Warning, Lang::Zh) => "警告",
        (Severity::Warning, Lang::Es) => "Aviso",
        (Severity::Alarm, Lang::En) => "Alarm",
        (Severity::Alarm, Lang::Zh) => "告警",
        (Severity::Alarm, Lang::Es) => "Alarma",
    }
}

/// A notification's title and body in `lang`: `<what>: <plant>` and `<severity>: <subject>`
/// (the severity alone when the alarm has no subject of its own).
pub fn texts(
    what: &str,
    plant: &str,
    severity: Severity,
    subject: &str,
    lang: Lang,
) -> (String, String) {
    let word = severity_word(severity, lang);
    let body = if subject.is_empty() || subject == plant {
        word.to_string()
    } else {
        format!("{word}: {subject}")
    };
    (format!("{what}: {plant}"), body)
}

/// The test notification's title and body.
pub fn test_texts(lang: Lang) -> (&'static str, &'static str) {
    match lang {
        Lang::En => (
            "Test alert from the solar portal",
            "Push alerts reach this device.",
        ),
        Lang::Zh => ("光伏门户测试提醒", "推送提醒可以送达此设备。"),
        Lang::Es => (
            "Alerta de prueba del portal solar",
            "Las alertas push llegan a este dispositivo.",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_are_https_unless_private_addresses_are_allowed() {
        let fcm = "https://fcm.googleapis.com/fcm/send/abc:def";
        assert_eq!(parse_endpoint(fcm, false).as_deref(), Ok(fcm));
        assert!(parse_endpoint("http://127.0.0.1:9/p", false).is_err());
        assert!(parse_endpoint("http://127.0.0.1:9/p", true).is_ok());
        for bad in [
            "",
            "ftp://x.com/a",
            "https://",
            "https://u:p@x.com/",
            "x.com/a",
        ] {
            assert!(parse_endpoint(bad, true).is_err(), "{bad}");
        }
        assert_eq!(endpoint_host(fcm), "fcm.googleapis.com");
    }

    #[test]
    fn keys_are_base64url_of_the_right_length() {
        let mut point = vec![4u8];
        point.extend([7u8; 64]);
        let p = URL_SAFE_NO_PAD.encode(&point);
        assert_eq!(
            parse_key(&p, P256DH_LEN, "p256dh").as_deref(),
            Ok(p.as_str())
        );
        assert_eq!(
            parse_key(&format!("{p}="), P256DH_LEN, "p256dh").as_deref(),
            Ok(p.as_str())
        );
        point[0] = 2;
        assert!(parse_key(&URL_SAFE_NO_PAD.encode(&point), P256DH_LEN, "p256dh").is_err());
        let auth = URL_SAFE_NO_PAD.encode([1u8; 16]);
        assert!(parse_key(&auth, AUTH_LEN, "auth").is_ok());
        assert!(parse_key(&URL_SAFE_NO_PAD.encode([1u8; 15]), AUTH_LEN, "auth").is_err());
        assert!(parse_key("not base64!", AUTH_LEN, "auth").is_err());
    }

    #[test]
    fn retries_grow_and_honour_retry_after() {
        assert_eq!(next_attempt_at(1, 0, None), Some(30_000));
        assert_eq!(next_attempt_at(1, 0, Some(90_000)), Some(90_000));
        assert_eq!(next_attempt_at(4, 0, None), Some(3_600_000));
        assert_eq!(next_attempt_at(5, 0, None), None);
        assert_eq!(next_attempt_at(0, 0, None), None);
    }

    #[test]
    fn texts_name_the_plant_and_the_severity() {
        let (t, b) = texts(
            "Device event",
            "North roof",
            Severity::Alarm,
            "INV-H1/F13",
            Lang::En,
        );
        assert_eq!(
            (t.as_str(), b.as_str()),
            ("Device event: North roof", "Alarm: INV-H1/F13")
        );
        let (_, b) = texts("Sin datos", "Tejado", Severity::Warning, "", Lang::Es);
        assert_eq!(b, "Aviso");
        assert_eq!(device_name("  Pixel 8\u{7}  "), "Pixel 8");
        assert_eq!(
            device_name(&"x".repeat(100)).chars().count(),
            DEVICE_NAME_MAX
        );
        assert!(check_room(9).is_ok() && check_room(10).is_err());
    }
}
