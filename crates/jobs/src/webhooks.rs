//! The webhook sender: posts the pending deliveries that are due, a few at a time, holds those
//! of users in their quiet hours until the hours end, keeps the log bounded and seals secrets
//! still stored in the clear. One replica sends at a time (lease `store::leases::WEBHOOKS`),
//! so a delivery is posted once per try.

use std::time::Duration;

use domain::{
    time::now_ms,
    webhook::{Event, LOG_KEEP_MS, LOG_KEEP_PER_ENDPOINT},
};
use service::{
    quiet_hours::Quiet,
    webhooks::send::{self, DeliverySettings},
};
use store::{Store, leases, webhook_deliveries::DueDelivery};

/// How often the sender looks for due deliveries.
pub const EVERY: Duration = Duration::from_secs(10);
/// The log is pruned every this many ticks (about hourly).
const PRUNE_EVERY_TICKS: u32 = 360;
/// Deliveries looked at per tick.
const BATCH: i64 = 200;
/// Endpoints posted to at once: a slow receiver does not hold up the others for its timeout.
const PARALLEL: usize = 8;

/// What one tick did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Pass {
    pub delivered: usize,
    /// Failed this time, tried again later.
    pub retried: usize,
    /// Out of tries.
    pub failed: usize,
    /// Held for quiet hours.
    pub held: usize,
}

/// Whether the delivery's user is in quiet hours at `now`: until when to hold it (a day on
/// for quiet hours that never end). Tests go out at once.
fn held_until(d: &DueDelivery, now: i64) -> Option<i64> {
    if d.event == Event::Test.as_str() {
        return None;
    }
    let q = Quiet {
        enabled: d.quiet_enabled,
        from: d.quiet_from,
        to: d.quiet_to,
        zone: &d.quiet_zone,
    };
    q.holds(now)
        .then(|| q.ends_after(now).unwrap_or(now + 24 * 3_600_000))
}

/// One pass at `now`. Links queued relative (an alarm case's screen) get `public_url` in front.
pub async fn tick(
    store: &Store,
    settings: DeliverySettings,
    public_url: &str,
    now: i64,
) -> store::Result<Pass> {
    let Some(lease) = store.try_lease(leases::WEBHOOKS).await? else {
        return Ok(Pass::default());
    };
    let mut pass = Pass::default();
    // By endpoint, each in the order queued: a receiver sees an alarm open before it closes.
    let mut sending: Vec<Vec<DueDelivery>> = Vec::new();
    for mut d in store.due_webhook_deliveries(now, BATCH).await? {
        if d.link.starts_with('/') {
            d.link = format!("{}{}", public_url.trim_end_matches('/'), d.link);
        }
        if let Some(until) = held_until(&d, now) {
            store.hold_webhook_delivery(d.id, until).await?;
            pass.held += 1;
            continue;
        }
        match sending
            .iter_mut()
            .find(|g| g[0].endpoint_id == d.endpoint_id)
        {
            Some(g) => g.push(d),
            None => sending.push(vec![d]),
        }
    }
    for chunk in sending.chunks(PARALLEL) {
        let mut set = tokio::task::JoinSet::new();
        for group in chunk {
            let (store, group) = (store.clone(), group.clone());
            set.spawn(async move {
                let mut outcomes = Vec::new();
                for d in &group {
                    outcomes.push(send::deliver(&store, settings, d, now).await);
                }
                outcomes
            });
        }
        while let Some(done) = set.join_next().await {
            let outcomes = match done {
                Ok(o) => o,
                Err(e) => {
                    tracing::warn!(%e, "webhook sender task failed");
                    continue;
                }
            };
            for o in outcomes {
                match o {
                    Ok(o) => match o.state {
                        "delivered" => pass.delivered += 1,
                        "pending" => pass.retried += 1,
                        _ => pass.failed += 1,
                    },
                    Err(e) => tracing::warn!(%e, "webhook attempt not recorded"),
                }
            }
        }
    }
    lease.release().await?;
    if pass != Pass::default() {
        tracing::info!(?pass, "webhook deliveries");
    }
    Ok(pass)
}

/// Keeps the log and the outbox bounded (the newest attempts per endpoint, 30 days).
pub async fn prune(store: &Store, now: i64) -> store::Result<u64> {
    store
        .prune_webhooks(LOG_KEEP_PER_ENDPOINT, now - LOG_KEEP_MS)
        .await
}

/// Runs the sender every `period` until the process ends.
pub async fn run(store: Store, settings: DeliverySettings, public_url: String, period: Duration) {
    let mut every = tokio::time::interval(period);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut ticks: u32 = 0;
    loop {
        every.tick().await;
        if ticks.is_multiple_of(PRUNE_EVERY_TICKS) {
            if let Err(e) = prune(&store, now_ms()).await {
                tracing::warn!(%e, "webhook log not pruned");
            }
            // Secrets stored in the clear before sealing existed (hourly, the first at start).
            match service::webhooks::secret::seal_stored_in_clear(&store).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(sealed = n, "webhook secrets sealed"),
                Err(e) => tracing::warn!(%e, "webhook secrets not sealed"),
            }
        }
        ticks = ticks.wrapping_add(1);
        if let Err(e) = tick(&store, settings, &public_url, now_ms()).await {
            tracing::warn!(%e, "webhook sender failed");
        }
    }
}
