//! Sending one message to a push service (RFC 8030): the JSON the service worker shows,
//! encrypted for the browser (RFC 8291), signed with the server's VAPID key (RFC 8292), posted
//! to the subscription's endpoint after the same address check as webhooks, and what the
//! answer means: taken (2xx), gone (404, 410: the subscription is deleted), worth another try
//! (429, 5xx, no answer) or refused (other 4xx).

use std::time::{Duration, Instant};

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use serde::Serialize;

use super::{ece, vapid::Vapid};

/// The longest one POST may take (connect, TLS, answer).
pub const TIMEOUT: Duration = Duration::from_secs(10);
/// How long the push service keeps a message for a device that is offline: an alarm a day
/// old is still worth seeing, one older is in the portal.
pub const TTL_SECS: i64 = 24 * 3600;

/// How messages are sent.
#[derive(Debug, Clone, Default)]
pub struct PushSettings {
    /// `PORTAL_WEBHOOK_ALLOW_PRIVATE`: push services on loopback, private and link-local
    /// addresses, and `http://` endpoints, are allowed (tests; a push service of one's own).
    pub allow_private: bool,
    /// The longest one POST may take ([`TIMEOUT`] unless a test shortens it).
    pub timeout: Option<Duration>,
    /// The VAPID `sub`: `mailto:` or `https:`, how push services reach the operator
    /// (`PORTAL_PUSH_SUBJECT`, else the public URL when https, else the mail sender).
    pub subject: String,
}

/// What the service worker receives (docs/push.md); names as on the wire.
#[derive(Debug, Clone, Serialize)]
pub struct Payload {
    pub title: String,
    pub body: String,
    /// The screen to open, a path of the portal (`/alarms?case=123`).
    pub url: String,
    /// Notifications with the same tag replace each other (`case-123`).
    pub tag: String,
    pub kind: String,
    pub severity: String,
    pub plant: String,
    /// RFC 3339, UTC.
    pub at: String,
}

/// Where and to whom: a subscription's endpoint and the browser's keys (base64url).
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    pub endpoint: &'a str,
    pub p256dh: &'a str,
    pub auth: &'a str,
}

/// What the push service made of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Accepted,
    /// 404 or 410: the subscription has expired or was withdrawn.
    Gone,
    /// 429, 5xx or no answer.
    Retry,
    /// Refused for good (400, 401, 403, 413...).
    Refused,
}

/// One attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub verdict: Verdict,
    /// The HTTP status, when an answer came.
    pub status: Option<u16>,
    /// Why it was not taken (empty when it was).
    pub error: String,
    pub duration_ms: i64,
}

impl Verdict {
    fn of(status: u16) -> Verdict {
        match status {
            200..=299 => Verdict::Accepted,
            404 | 410 => Verdict::Gone,
            429 | 500..=599 => Verdict::Retry,
            _ => Verdict::Refused,
        }
    }
}

/// `ms` as RFC 3339 in UTC.
pub fn rfc3339(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// The payload's JSON, its body shortened when the whole would not fit one record.
pub fn encode(p: &Payload) -> Vec<u8> {
    let mut p = p.clone();
    loop {
        let bytes = serde_json::to_vec(&p).unwrap_or_default();
        if bytes.len() <= ece::MAX_PLAINTEXT || p.body.is_empty() {
            return bytes;
        }
        // Over by this many bytes (JSON escapes count: the loop checks again), plus the "…".
        let over = bytes.len() - ece::MAX_PLAINTEXT + '…'.len_utf8();
        let mut keep = p.body.len().saturating_sub(over);
        while !p.body.is_char_boundary(keep) {
            keep -= 1;
        }
        p.body.truncate(keep);
        if !p.body.is_empty() {
            p.body.push('…');
        }
    }
}

fn decode(field: &str, raw: &str) -> Result<Vec<u8>, String> {
    URL_SAFE_NO_PAD
        .decode(raw.trim_end_matches('='))
        .map_err(|e| format!("{field}: {e}"))
}

/// Encrypts and posts `payload` to `to` at `now` (ms); `urgent` asks the push service to wake
/// the device at once (`Urgency: high`).
pub async fn send(
    settings: &PushSettings,
    vapid: &Vapid,
    to: Target<'_>,
    payload: &Payload,
    urgent: bool,
    now: i64,
) -> Outcome {
    let started = Instant::now();
    let sent = post(settings, vapid, to, payload, urgent, now).await;
    let duration_ms = i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX);
    match sent {
        Ok(status) => {
            let verdict = Verdict::of(status);
            let error = match verdict {
                Verdict::Accepted => String::new(),
                _ => format!("push service answered {status}"),
            };
            Outcome {
                verdict,
                status: Some(status),
                error,
                duration_ms,
            }
        }
        Err((verdict, error)) => Outcome {
            verdict,
            status: None,
            error,
            duration_ms,
        },
    }
}

async fn post(
    settings: &PushSettings,
    vapid: &Vapid,
    to: Target<'_>,
    payload: &Payload,
    urgent: bool,
    now: i64,
) -> Result<u16, (Verdict, String)> {
    let refused = |e: String| (Verdict::Refused, e);
    let url = url::Url::parse(to.endpoint).map_err(|e| refused(format!("endpoint: {e}")))?;
    let ua_public = decode("p256dh", to.p256dh).map_err(refused)?;
    let auth = decode("auth", to.auth).map_err(refused)?;
    let body =
        ece::encrypt(&encode(payload), &ua_public, &auth).map_err(|e| refused(e.to_string()))?;
    let authorization = vapid
        .authorization(&url, &settings.subject, now.div_euclid(1000))
        .map_err(|e| refused(e.to_string()))?;
    // A name that resolves to a private address is refused like the address (SSRF).
    let connect_to = crate::webhooks::send::address(&url, settings.allow_private)
        .await
        .map_err(|e| (Verdict::Retry, e))?;
    let headers = [
        ("authorization", authorization),
        ("content-encoding", "aes128gcm".to_string()),
        ("ttl", TTL_SECS.to_string()),
        (
            "urgency",
            if urgent { "high" } else { "normal" }.to_string(),
        ),
    ];
    let answer = oadr::http::request(oadr::http::Outgoing {
        method: http::Method::POST,
        url: &url,
        connect_to: Some(connect_to),
        user_agent: "solar-portal-push",
        headers: &headers,
        body: Some(oadr::http::Body {
            content_type: "application/octet-stream",
            bytes: body,
        }),
        timeout: settings.timeout.unwrap_or(TIMEOUT),
    })
    .await
    .map_err(|e| (Verdict::Retry, e.to_string()))?;
    Ok(answer.status)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payload(body: String) -> Payload {
        Payload {
            title: "Device event: North roof".into(),
            body,
            url: "/alarms?case=1".into(),
            tag: "case-1".into(),
            kind: "event_code".into(),
            severity: "alarm".into(),
            plant: "North roof".into(),
            at: rfc3339(1_813_579_200_000),
        }
    }

    #[test]
    fn the_payload_fits_one_record_and_names_fields_as_the_service_worker_reads_them() {
        let short = encode(&payload("Alarm: INV-H1/F13".into()));
        let v: serde_json::Value = serde_json::from_slice(&short).expect("json");
        assert_eq!(v["at"], "2027-06-21T12:00:00Z");
        assert_eq!(v["url"], "/alarms?case=1");
        let long = encode(&payload("é".repeat(5000)));
        assert!(long.len() <= ece::MAX_PLAINTEXT, "{}", long.len());
        let v: serde_json::Value = serde_json::from_slice(&long).expect("json");
        assert!(v["body"].as_str().expect("body").ends_with('…'));
    }

    #[test]
    fn statuses_say_what_to_do_next() {
        assert_eq!(Verdict::of(201), Verdict::Accepted);
        assert_eq!(Verdict::of(410), Verdict::Gone);
        assert_eq!(Verdict::of(404), Verdict::Gone);
        assert_eq!(Verdict::of(429), Verdict::Retry);
        assert_eq!(Verdict::of(503), Verdict::Retry);
        assert_eq!(Verdict::of(403), Verdict::Refused);
    }
}
