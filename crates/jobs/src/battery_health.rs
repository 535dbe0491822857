//! The battery health days (docs/battery-health.md): every [`EVERY`] each battery's days not
//! yet computed, and its newest one again (it may have been partial), become rows of
//! `battery_health_days` (`service::battery_health`). A battery seen for the first time is
//! filled from its oldest stored sample, so history ingested before this job existed counts.
//!
//! Between replicas: the pass runs under the lease `store::leases::BATTERY_HEALTH`. Two
//! passes at once would write the same rows, so the lease saves work rather than guards it.

use std::time::Duration;

use domain::time::now_ms;
use service::battery_health::{Refreshed, refresh_all};
use store::Store;

/// How often the pass runs: today's row follows the day within this.
pub const EVERY: Duration = Duration::from_secs(15 * 60);
/// The first pass waits this long after start, for the process's own start-up writes.
const FIRST_AFTER: Duration = Duration::from_secs(60);

/// One pass at `now` (ms); `None` while another replica holds the lease.
pub async fn tick(store: &Store, now: i64) -> service::Result<Option<Refreshed>> {
    let Some(lease) = store.try_lease(store::leases::BATTERY_HEALTH).await? else {
        return Ok(None);
    };
    let done = refresh_all(store, now).await;
    lease.release().await?;
    done.map(Some)
}

/// Runs [`tick`] every [`EVERY`] until the process ends.
pub async fn run(store: Store) {
    tokio::time::sleep(FIRST_AFTER).await;
    let mut timer = tokio::time::interval(EVERY);
    timer.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        timer.tick().await;
        match tick(&store, now_ms()).await {
            Ok(Some(done)) if done.days > 0 => {
                tracing::debug!(
                    batteries = done.batteries,
                    days = done.days,
                    "battery health"
                )
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "battery health pass failed"),
        }
    }
}
