//! The mail worker: delivers the e-mails queued in the outbox (alarms, reports) through the
//! configured SMTP server. A failed delivery is counted, its error kept, and tried again after
//! a delay that doubles from 30 seconds up to 15 minutes; queued mail is never dropped. Without
//! an SMTP server the queue simply waits (`portal admin outbox` shows it).

use std::time::Duration;

use domain::time::now_ms;
use service::mailer::Mailer;
use store::Store;

/// The first retry waits this long, each further one twice as long as the one before...
pub const RETRY_FIRST_MS: i64 = 30_000;
/// ...up to this.
pub const RETRY_MAX_MS: i64 = 15 * 60_000;
/// How long a worker holds an e-mail it took, so that another replica does not send it too.
const CLAIM_MS: i64 = 5 * 60_000;
/// E-mails handled per pass; the next pass takes the rest.
const BATCH: i64 = 100;

/// The delay before the next attempt after `attempts` failed ones (1 or more).
pub fn retry_delay_ms(attempts: i64) -> i64 {
    let doublings = u32::try_from(attempts.clamp(1, 20) - 1).unwrap_or(0);
    RETRY_FIRST_MS
        .saturating_mul(1_i64 << doublings)
        .min(RETRY_MAX_MS)
}

/// What one pass did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Pass {
    pub sent: usize,
    pub failed: usize,
}

/// Delivers the e-mails due at `now`. Without SMTP it does nothing.
pub async fn deliver_due(store: &Store, mailer: &Mailer, now: i64) -> store::Result<Pass> {
    let mut pass = Pass::default();
    if !mailer.configured() {
        return Ok(pass);
    }
    for mail in store.due_mail(now, BATCH).await? {
        if !store.claim_mail(&mail, now + CLAIM_MS).await? {
            continue;
        }
        match mailer.deliver(&mail).await {
            Ok(()) => {
                store.mail_sent(mail.id, now_ms().max(now)).await?;
                pass.sent += 1;
            }
            Err(error) => {
                let attempts = mail.attempts + 1;
                let retry_at = now + retry_delay_ms(attempts);
                tracing::warn!(id = %mail.id, kind = %mail.kind, attempts, %error,
                    "e-mail not delivered; tried again later");
                store.mail_failed(mail.id, &error, retry_at).await?;
                pass.failed += 1;
            }
        }
    }
    Ok(pass)
}

/// Runs the worker every `period` until the process ends.
pub async fn run(store: Store, mailer: std::sync::Arc<Mailer>, period: Duration) {
    if !mailer.configured() {
        // Said once: the mail stays queued, an administrator reads it with `admin outbox`.
        let waiting = store.undelivered_mail().await.unwrap_or(0);
        tracing::info!(
            waiting,
            "no SMTP server configured (PORTAL_SMTP_HOST): alarm and report e-mails stay in \
             the outbox (portal admin outbox)"
        );
        return;
    }
    let mut tick = tokio::time::interval(period);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if let Err(e) = deliver_due(&store, &mailer, now_ms()).await {
            tracing::warn!(%e, "mail worker pass failed");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_wait_thirty_seconds_doubling_up_to_fifteen_minutes() {
        let waits: Vec<i64> = (1..=8).map(retry_delay_ms).collect();
        assert_eq!(
            waits,
            [30, 60, 120, 240, 480, 900, 900, 900].map(|s| s * 1000)
        );
        assert_eq!(retry_delay_ms(1000), RETRY_MAX_MS);
    }
}
