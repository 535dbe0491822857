//! Gateways' uplink messages taken in by the embedded broker itself, inside its publish hook:
//! the message is parsed exactly as the portal's client parses it, handed to ingest (or, for a
//! command reply, recorded) and the hook waits for the commit before it returns. rmqtt sends the
//! gateway its PUBACK only after the hook (and the forwarding that follows it) returns, so a
//! PUBACK from the embedded broker means the data is in the database: a crash loses nothing the
//! gateway was told is stored. With an external broker the portal's client does the same job
//! (see `client.rs`) and acknowledges to that broker instead.

use std::{
    sync::{Arc, atomic::Ordering},
    time::Duration,
};

use store::Store;
use tokio::sync::oneshot;

use super::{
    LinkStats,
    comm_log::CommLog,
    heard::Heard,
    parse::{DropReason, Inbound, parse},
    replies,
    takeover::Takeovers,
};
use crate::report::{Item, Submission, SubmissionTx};

/// What became of one uplink message.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Committed (telemetry, status, event) or recorded (reply): acknowledge it.
    Committed,
    /// Malformed, oversized, unknown: counted and dropped; acknowledge it so the gateway does
    /// not send it again.
    Dropped(DropReason),
    /// Not committed (the database refused, ingest stopped, or the commit took too long): do
    /// not acknowledge; the gateway must send it again.
    NotCommitted(String),
}

/// Ingest as seen from the broker's hooks.
pub(crate) struct Uplink {
    pub store: Store,
    /// Taken away when the broker stops, so ingest sees its input end even while rmqtt's
    /// session tasks (which hold the hooks) wind down.
    pub tx: std::sync::Mutex<Option<SubmissionTx>>,
    pub stats: Arc<LinkStats>,
    /// How long a message waits for its commit before it counts as not committed.
    pub commit_timeout: Duration,
    /// Sign-ins per gateway: a message of a connection that another one replaced stops waiting.
    pub takeovers: Arc<Takeovers>,
    /// When each gateway was last heard from.
    pub heard: Arc<Heard>,
    /// The communication log's capture.
    pub comm: Arc<CommLog>,
    /// Where a reply that ends an upgrade says so.
    pub ends: super::UpgradeEnds,
}

/// Notes a message of `sn` in `heard`: a sign of life, unless it says the gateway is going
/// offline (a goodbye, or the last will the broker publishes for it).
pub(crate) fn note(heard: &Heard, sn: &str, inbound: &Inbound) {
    match inbound {
        Inbound::Item(Item::Status(s)) if !s.online => heard.gone(sn),
        _ => heard.heard(sn, super::now_ms()),
    }
}

/// Notes a message as received in the communication log: its leaf is its kind (`will` for a
/// last will the broker publishes), a reply names the command it answers. Messages whose topic
/// names no gateway are not logged (there is no gateway to show them under).
pub(crate) fn capture(
    log: &CommLog,
    topic: &str,
    payload: &[u8],
    parsed: Option<&Inbound>,
    will: bool,
) {
    if !log.enabled() {
        return;
    }
    let Some((sn, leaf)) = crate::report::parse_topic(topic) else {
        return;
    };
    let kind = if will { "will" } else { leaf };
    let correlation = match parsed {
        Some(Inbound::Reply(reply)) => Some(reply.id.as_str()),
        _ => None,
    };
    log.uplink(sn, kind, topic, payload, correlation);
}

/// Why a message of a replaced connection was not acknowledged.
const TAKEN_OVER: &str = "the gateway signed in again on a new connection";

impl Uplink {
    /// Parses, stores and waits for the commit of one message a gateway published on `topic`
    /// (`will`: the broker publishes the gateway's last will). The caller has checked that the
    /// gateway may publish there.
    pub async fn take(&self, topic: &str, payload: &[u8], will: bool) -> Outcome {
        let (gateway_sn, inbound) = match parse(topic, payload) {
            Ok(parsed) => {
                capture(&self.comm, topic, payload, Some(&parsed.1), will);
                parsed
            }
            Err(reason) => {
                capture(&self.comm, topic, payload, None, will);
                tracing::warn!(
                    topic,
                    bytes = payload.len(),
                    reason = reason.label(),
                    "MQTT message dropped"
                );
                self.stats.drop_one(reason);
                return Outcome::Dropped(reason);
            }
        };
        self.stats.accepted.fetch_add(1, Ordering::Relaxed);
        metrics::counter!("portal_mqtt_messages_total").increment(1);
        note(&self.heard, &gateway_sn, &inbound);
        let generation = self.takeovers.generation(&gateway_sn);
        let stored = async {
            match inbound {
                Inbound::Reply(reply) => {
                    replies::record(&self.store, &gateway_sn, &reply, &self.ends)
                        .await
                        .map_err(|e| e.to_string())
                }
                Inbound::Item(item) => self.submit(&gateway_sn, item).await,
            }
        };
        // The wait ends early when the gateway signs in again (see `takeover.rs`): this
        // connection is being replaced and must let go of its session at once.
        let result = tokio::select! {
            result = stored => result,
            () = self.takeovers.signed_in_after(&gateway_sn, generation) => Err(TAKEN_OVER.to_string()),
        };
        match result {
            Ok(()) => {
                self.stats.acked.fetch_add(1, Ordering::Relaxed);
                Outcome::Committed
            }
            Err(why) if is_refusal(&why) => {
                tracing::warn!(gateway = %gateway_sn, why, "MQTT message refused by ingest: dropped");
                self.stats.drop_one(DropReason::Refused);
                Outcome::Dropped(DropReason::Refused)
            }
            Err(why) => {
                self.stats.not_committed.fetch_add(1, Ordering::Relaxed);
                metrics::counter!("portal_mqtt_not_committed_total").increment(1);
                tracing::warn!(
                    gateway = %gateway_sn,
                    why,
                    "MQTT message not committed: not acknowledged, the gateway sends it again"
                );
                Outcome::NotCommitted(why)
            }
        }
    }

    /// Lets go of ingest: later messages are not committed.
    pub fn close(&self) {
        self.tx.lock().unwrap_or_else(|e| e.into_inner()).take();
    }

    async fn submit(&self, gateway_sn: &str, item: crate::report::Item) -> Result<(), String> {
        let (done, committed) = oneshot::channel();
        let submission = Submission {
            gateway_sn: gateway_sn.to_string(),
            item,
            done,
        };
        let tx = self.tx.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let wait = async {
            let tx = tx.ok_or_else(|| "ingest is not running".to_string())?;
            // A full ingest queue holds this gateway (only) until there is room.
            tx.send(submission)
                .await
                .map_err(|_| "ingest is not running".to_string())?;
            match committed.await {
                Ok(result) => result,
                Err(_) => Err("ingest dropped the message".into()),
            }
        };
        match tokio::time::timeout(self.commit_timeout, wait).await {
            Ok(result) => result,
            Err(_) => Err(format!(
                "no commit within {} s",
                self.commit_timeout.as_secs_f64()
            )),
        }
    }
}

/// Ingest's answers that refuse an item for good, as opposed to "not stored now" (a retry
/// answer) or the link's own failures to reach ingest in time.
fn is_refusal(why: &str) -> bool {
    !crate::report::is_retryable(why)
        && why != "ingest is not running"
        && why != "ingest dropped the message"
        && why != TAKEN_OVER
        && !why.starts_with("no commit within")
}
