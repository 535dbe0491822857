//! The Web Push sender (docs/push.md): pushes the messages that are due, a few subscriptions
//! at a time, holds those of users in their quiet hours until the hours end, drops those
//! about a plant the user can no longer see, and keeps the outbox tidy. One replica sends at
//! a time (lease `store::leases::PUSH`), so a message is pushed once per try.

use std::time::Duration;

use domain::{push::next_attempt_at, time::now_ms, webhook::Severity};
use service::{
    push::{self as push_service, Payload, PushSettings, Target, Vapid, Verdict, send},
    quiet_hours::Quiet,
};
use store::{Store, leases, push::DuePush};

/// How often the sender looks for due messages.
pub const EVERY: Duration = Duration::from_secs(10);
/// The outbox is pruned every this many ticks (about hourly).
const PRUNE_EVERY_TICKS: u32 = 360;
/// Messages looked at per tick.
const BATCH: i64 = 200;
/// Subscriptions pushed to at once: a slow push service does not hold up the others.
const PARALLEL: usize = 8;
/// Messages older than this are dropped unsent (held by quiet hours, or a push service down
/// for a day): the portal shows the alarm; a late buzz helps no one.
const KEEP_MS: i64 = 36 * 3_600_000;

/// What one tick did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Pass {
    /// Taken by the push service.
    pub sent: usize,
    /// Failed this time, tried again later.
    pub retried: usize,
    /// Refused, or out of tries: dropped.
    pub failed: usize,
    /// The subscription is gone (404, 410): deleted.
    pub gone: usize,
    /// Held for quiet hours.
    pub held: usize,
    /// About a plant the user can no longer see: dropped unsent.
    pub unseen: usize,
}

/// Until when the user's quiet hours hold the message (a day on for hours that never end).
fn held_until(d: &DuePush, now: i64) -> Option<i64> {
    let q = Quiet {
        enabled: d.quiet_enabled,
        from: d.quiet_from,
        to: d.quiet_to,
        zone: &d.quiet_zone,
    };
    q.holds(now)
        .then(|| q.ends_after(now).unwrap_or(now + 24 * 3_600_000))
}

/// The notification of a queued message.
fn payload(d: &DuePush) -> Payload {
    let tag = match d.case_id {
        Some(case) => format!("case-{case}"),
        None => format!("{}-{}", d.kind, d.plant_id),
    };
    Payload {
        title: d.title.clone(),
        body: d.body.clone(),
        url: d.link.clone(),
        tag,
        kind: d.kind.clone(),
        severity: d.severity.clone(),
        plant: d.plant_name.clone(),
        at: send::rfc3339(d.at),
    }
}

/// Pushes one message and records what came of it.
async fn deliver(
    store: &Store,
    settings: &PushSettings,
    vapid: &Vapid,
    d: &DuePush,
    now: i64,
) -> store::Result<Verdict> {
    let to = Target {
        endpoint: &d.endpoint,
        p256dh: &d.p256dh,
        auth: &d.auth,
    };
    let urgent = d.severity == Severity::Alarm.as_str();
    let o = send::send(settings, vapid, to, &payload(d), urgent, now).await;
    let retry_at = next_attempt_at(d.attempts + 1, now, None);
    if o.verdict != Verdict::Accepted {
        tracing::info!(delivery = %d.id, subscription = %d.subscription_id, status = ?o.status, error = %o.error, attempt = d.attempts + 1, "push not taken");
    }
    push_service::record(store, d.subscription_id, Some(d.id), &o, retry_at, now).await?;
    Ok(match (o.verdict, retry_at) {
        (Verdict::Retry, None) => Verdict::Refused,
        (v, _) => v,
    })
}

/// One pass at `now`.
pub async fn tick(store: &Store, settings: &PushSettings, now: i64) -> service::Result<Pass> {
    let Some(lease) = store.try_lease(leases::PUSH).await? else {
        return Ok(Pass::default());
    };
    let mut pass = Pass::default();
    let due = store.due_pushes(now, BATCH).await?;
    if due.is_empty() {
        lease.release().await?;
        return Ok(pass);
    }
    let vapid = std::sync::Arc::new(Vapid::load_or_create(store).await?);
    // By subscription, each in the order queued.
    let mut sending: Vec<Vec<DuePush>> = Vec::new();
    for d in due {
        if let Some(until) = held_until(&d, now) {
            store.hold_push(d.id, until).await?;
            pass.held += 1;
            continue;
        }
        if !push_service::may_see(store, d.user_id, d.plant_id).await? {
            store.drop_push(d.id).await?;
            pass.unseen += 1;
            continue;
        }
        match sending
            .iter_mut()
            .find(|g| g[0].subscription_id == d.subscription_id)
        {
            Some(g) => g.push(d),
            None => sending.push(vec![d]),
        }
    }
    for chunk in sending.chunks(PARALLEL) {
        let mut set = tokio::task::JoinSet::new();
        for group in chunk {
            let (store, group, vapid) = (store.clone(), group.clone(), vapid.clone());
            let settings = settings.clone();
            set.spawn(async move {
                let mut verdicts = Vec::new();
                for d in &group {
                    let v = deliver(&store, &settings, &vapid, d, now).await;
                    // A gone subscription takes the rest of its messages with it.
                    let gone = matches!(v, Ok(Verdict::Gone));
                    verdicts.push(v);
                    if gone {
                        break;
                    }
                }
                verdicts
            });
        }
        while let Some(done) = set.join_next().await {
            let verdicts = match done {
                Ok(v) => v,
                Err(e) => {
                    tracing::warn!(%e, "push sender task failed");
                    continue;
                }
            };
            for v in verdicts {
                match v {
                    Ok(Verdict::Accepted) => pass.sent += 1,
                    Ok(Verdict::Retry) => pass.retried += 1,
                    Ok(Verdict::Refused) => pass.failed += 1,
                    Ok(Verdict::Gone) => pass.gone += 1,
                    Err(e) => tracing::warn!(%e, "push attempt not recorded"),
                }
            }
        }
    }
    lease.release().await?;
    if pass != Pass::default() {
        tracing::info!(?pass, "push messages");
    }
    Ok(pass)
}

/// Deletes the subscriptions of sessions that ran out and messages too old to push.
pub async fn prune(store: &Store, now: i64) -> store::Result<u64> {
    store.prune_push(now - KEEP_MS).await
}

/// Runs the sender every `period` until the process ends.
pub async fn run(store: Store, settings: PushSettings, period: Duration) {
    let mut every = tokio::time::interval(period);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut ticks: u32 = 0;
    loop {
        every.tick().await;
        if ticks.is_multiple_of(PRUNE_EVERY_TICKS)
            && let Err(e) = prune(&store, now_ms()).await
        {
            tracing::warn!(%e, "push outbox not pruned");
        }
        ticks = ticks.wrapping_add(1);
        if let Err(e) = tick(&store, &settings, now_ms()).await {
            tracing::warn!(%e, "push sender failed");
        }
    }
}
