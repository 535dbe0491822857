//! Sending one delivery: the JSON body, the signature headers, the address check (no
//! loopback, private or link-local address unless the operator allows it) and the POST, then
//! its log row and what becomes of the delivery (delivered, retried later, failed).

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use domain::webhook::{Event, next_attempt_at};
use serde_json::{Value, json};
use store::{
    Store,
    webhook_deliveries::{Attempt, DueDelivery},
};

/// The longest one POST may take (connect, TLS, answer).
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// How deliveries are sent.
#[derive(Debug, Clone, Copy, Default)]
pub struct DeliverySettings {
    /// `PORTAL_WEBHOOK_ALLOW_PRIVATE`: deliver to loopback, private and link-local addresses
    /// too (a receiver on the operator's own network; tests).
    pub allow_private: bool,
    /// The longest one POST may take ([`TIMEOUT`] unless a test shortens it).
    pub timeout: Option<Duration>,
}

/// What one attempt came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The HTTP status, when an answer came.
    pub status: Option<u16>,
    /// Why it failed without an answer.
    pub error: String,
    pub duration_ms: i64,
    /// `delivered`, `pending` (tried again at `next_at`) or `failed`.
    pub state: &'static str,
}

/// The JSON body of a delivery (docs/webhooks.md).
pub fn body(d: &DueDelivery) -> Vec<u8> {
    let detail: Value = serde_json::from_str(&d.detail).unwrap_or_else(|_| json!({}));
    let v = json!({
        "id": d.id.to_string(),
        "event": d.event,
        "kind": d.kind,
        "severity": d.severity,
        "caseId": d.case_id,
        "plantId": d.plant_id,
        "plantName": d.plant_name,
        "deviceSn": d.device_sn,
        "title": d.title,
        "detail": detail,
        "at": d.at,
        "url": d.link,
    });
    v.to_string().into_bytes()
}

/// `sha256=<hex of HMAC-SHA256(secret, "<timestamp>.<body>")>`.
pub fn signature(secret: &str, timestamp: i64, body: &[u8]) -> String {
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, secret.as_bytes());
    let mut ctx = ring::hmac::Context::with_key(&key);
    ctx.update(timestamp.to_string().as_bytes());
    ctx.update(b".");
    ctx.update(body);
    format!("sha256={}", hex::encode(ctx.sign().as_ref()))
}

/// Whether an address may be called without the operator's leave: not loopback, private,
/// link-local, shared (CGNAT), unspecified, multicast or broadcast.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            !(v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_multicast()
                || v4.is_broadcast()
                || a == 0
                || (a == 100 && (64..128).contains(&b)))
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public(IpAddr::V4(v4));
            }
            let first = v6.segments()[0];
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80)
        }
    }
}

/// The address to connect to for `url`: its host resolved, refused when any of its addresses
/// is not public (unless allowed). The connection then goes to the address checked here, so a
/// name that resolves differently a moment later cannot redirect it.
pub(crate) async fn address(url: &url::Url, allow_private: bool) -> Result<SocketAddr, String> {
    let host = url.host_str().ok_or("URL without host")?;
    let port = url.port_or_known_default().ok_or("URL without port")?;
    let bare = host.trim_matches(['[', ']']);
    let addrs: Vec<SocketAddr> = tokio::net::lookup_host((bare, port))
        .await
        .map_err(|e| format!("resolve {host}: {e}"))?
        .collect();
    let first = *addrs
        .first()
        .ok_or_else(|| format!("resolve {host}: no address"))?;
    if !allow_private && let Some(bad) = addrs.iter().find(|a| !is_public(a.ip())) {
        return Err(format!(
            "refused: {host} resolves to {} (private addresses need PORTAL_WEBHOOK_ALLOW_PRIVATE)",
            bad.ip()
        ));
    }
    Ok(first)
}

/// Posts `body` to `url` with the signature headers: the HTTP status, or why there is none.
pub async fn post(
    settings: DeliverySettings,
    url: &str,
    secret: &str,
    delivery: &str,
    body: Vec<u8>,
    timestamp: i64,
) -> Result<u16, String> {
    let url = url::Url::parse(url).map_err(|e| format!("URL: {e}"))?;
    let connect_to = address(&url, settings.allow_private).await?;
    let headers = [
        ("x-portal-timestamp", timestamp.to_string()),
        ("x-portal-signature", signature(secret, timestamp, &body)),
        ("x-portal-delivery", delivery.to_string()),
    ];
    let answer = oadr::http::request(oadr::http::Outgoing {
        method: http::Method::POST,
        url: &url,
        connect_to: Some(connect_to),
        user_agent: "solar-portal-webhooks",
        headers: &headers,
        body: Some(oadr::http::Body {
            content_type: "application/json",
            bytes: body,
        }),
        timeout: settings.timeout.unwrap_or(TIMEOUT),
    })
    .await
    .map_err(|e| e.to_string())?;
    Ok(answer.status)
}

/// Sends one delivery at `now` and records the attempt: 2xx delivers it; anything else is
/// tried again after the next delay of the schedule, or fails once out of tries. A test
/// delivery is tried once.
pub async fn deliver(
    store: &Store,
    settings: DeliverySettings,
    d: &DueDelivery,
    now: i64,
) -> store::Result<Outcome> {
    let body = body(d);
    let started = Instant::now();
    let sent = match super::secret::open(&d.secret) {
        Ok(secret) => {
            post(
                settings,
                &d.url,
                &secret,
                &d.id.to_string(),
                body,
                now.div_euclid(1000),
            )
            .await
        }
        // Tried again like any failure: the key may come back (a replica without the shared
        // PORTAL_DR_KEY), else rotating the secret mends it.
        Err(e) => Err(format!("the endpoint's secret cannot be opened: {e}")),
    };
    let duration_ms = i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX);
    let attempt = d.attempts + 1;
    let (status, error) = match sent {
        Ok(s) => (Some(s), String::new()),
        Err(e) => (None, e),
    };
    let ok = status.is_some_and(|s| (200..300).contains(&s));
    let retry = (!ok && d.event != Event::Test.as_str())
        .then(|| next_attempt_at(attempt, now))
        .flatten();
    let (state, next_at) = match (ok, retry) {
        (true, _) => ("delivered", now),
        (false, Some(at)) => ("pending", at),
        (false, None) => ("failed", now),
    };
    if !ok {
        tracing::info!(delivery = %d.id, endpoint = %d.endpoint_id, ?status, %error, attempt, "webhook not delivered");
    }
    store
        .record_webhook_attempt(&Attempt {
            delivery: d.id,
            endpoint: d.endpoint_id,
            event: &d.event,
            attempt,
            at: now,
            status: status.map(i64::from),
            error: &error,
            duration_ms,
            state,
            next_at,
        })
        .await?;
    Ok(Outcome {
        status,
        error,
        duration_ms,
        state,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_is_hmac_sha256_of_timestamp_dot_body_in_lowercase_hex() {
        // RFC 4231 test case 2 ("Jefe" / "what do ya want for nothing?"), split at a dot.
        let sig = signature("Jefe", 0, b"");
        assert!(sig.starts_with("sha256=") && sig.len() == 7 + 64);
        let whole = ring::hmac::sign(
            &ring::hmac::Key::new(ring::hmac::HMAC_SHA256, b"Jefe"),
            b"what do ya want for nothing?",
        );
        assert_eq!(
            hex::encode(whole.as_ref()),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_eq!(
            signature("k", 1_700_000_000, b"{}"),
            format!(
                "sha256={}",
                hex::encode(
                    ring::hmac::sign(
                        &ring::hmac::Key::new(ring::hmac::HMAC_SHA256, b"k"),
                        b"1700000000.{}"
                    )
                    .as_ref()
                )
            )
        );
    }

    #[test]
    fn only_public_addresses_are_called_without_leave() {
        for bad in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
        ] {
            assert!(!is_public(bad.parse().expect("ip")), "{bad}");
        }
        for good in ["93.184.216.34", "2606:2800:220:1::1"] {
            assert!(is_public(good.parse().expect("ip")), "{good}");
        }
    }
}
