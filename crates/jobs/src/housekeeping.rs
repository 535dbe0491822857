//! Housekeeping: every hour, removes the state that expires (refresh tokens past their end,
//! sign-in throttle rows and verification codes past their window, alarm cases closed longer
//! than their retention). Every replica runs it; a second run at once deletes nothing more,
//! so it takes no lease.

use std::time::Duration;

use domain::time::now_ms;
use store::Store;

/// How often the clean-up runs.
pub const EVERY: Duration = Duration::from_secs(3600);

const DAY_MS: i64 = 24 * 3600 * 1000;

/// Closed alarm cases deleted per transaction: a year of backlog goes in short transactions
/// that leave room for the engine's writes.
pub const CASE_BATCH: i64 = 500;
/// Batches of one run at most; what is left waits for the next hour.
const CASE_BATCHES: usize = 100;

/// What housekeeping keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keep {
    /// How long a closed alarm case (with its history) is kept after it closed; `None` keeps
    /// it forever (`PORTAL_ALARM_CASES_KEEP_DAYS`, 365 days by default).
    pub closed_cases: Option<Duration>,
}

impl Default for Keep {
    fn default() -> Self {
        Keep {
            closed_cases: Some(Duration::from_secs(365 * 24 * 3600)),
        }
    }
}

/// One clean-up at `now`; each part's failure is logged and does not stop the others.
pub async fn tick(store: &Store, now: i64, keep: &Keep) {
    match store.purge_refresh_tokens(now).await {
        Ok(n) if n > 0 => tracing::info!(purged = n, "expired refresh tokens removed"),
        Ok(_) => {}
        Err(e) => tracing::warn!(%e, "refresh token clean-up failed"),
    }
    // Throttle rows outlive their 15-minute window by a day, codes their hour of limits.
    if let Err(e) = store.purge_login_throttle(now - DAY_MS, now).await {
        tracing::warn!(%e, "throttle clean-up failed");
    }
    if let Err(e) = store.purge_codes(now - DAY_MS).await {
        tracing::warn!(%e, "verification code clean-up failed");
    }
    if let Some(keep) = keep.closed_cases {
        let keep = i64::try_from(keep.as_millis()).unwrap_or(i64::MAX);
        purge_closed_cases(store, now.saturating_sub(keep)).await;
    }
}

/// Deletes the cases closed before `before`, [`CASE_BATCH`] at a time.
async fn purge_closed_cases(store: &Store, before: i64) {
    let mut purged = 0;
    for _ in 0..CASE_BATCHES {
        match store.purge_closed_alarm_cases(before, CASE_BATCH).await {
            Ok(n) => {
                purged += n;
                if n < CASE_BATCH.unsigned_abs() {
                    break;
                }
            }
            Err(e) => {
                tracing::warn!(%e, "closed alarm case clean-up failed");
                break;
            }
        }
    }
    if purged > 0 {
        tracing::info!(purged, "closed alarm cases past their retention removed");
    }
}

/// Runs [`tick`] every [`EVERY`] (the first at once) until the process ends.
pub async fn run(store: Store, keep: Keep) {
    let mut every = tokio::time::interval(EVERY);
    loop {
        every.tick().await;
        tick(&store, now_ms(), &keep).await;
    }
}
