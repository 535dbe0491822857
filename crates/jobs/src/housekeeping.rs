//! Housekeeping: every hour, removes the state that expires (refresh tokens past their end,
//! sign-in throttle rows and verification codes past their window). Every replica runs it; a
//! second run at once deletes nothing more, so it takes no lease.

use std::time::Duration;

use domain::time::now_ms;
use store::Store;

/// How often the clean-up runs.
pub const EVERY: Duration = Duration::from_secs(3600);

const DAY_MS: i64 = 24 * 3600 * 1000;

/// One clean-up at `now`; each part's failure is logged and does not stop the others.
pub async fn tick(store: &Store, now: i64) {
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
}

/// Runs [`tick`] every [`EVERY`] (the first at once) until the process ends.
pub async fn run(store: Store) {
    let mut every = tokio::time::interval(EVERY);
    loop {
        every.tick().await;
        tick(&store, now_ms()).await;
    }
}
