//! Demand-response dispatch: a job that turns the events active now into settings of the
//! enrolled plants' hybrid inverters and gives the previous settings back afterwards.
//!
//! Each tick (and at each event or interval boundary) every enrolled inverter of an accepted,
//! not opted-out enrollment follows the winning event active now (lowest priority number,
//! then the latest start; cancelled and opted-out events do not count). The first change
//! snapshots the keys it touches; when no event holds the inverter any more (ended, cancelled,
//! deleted, opted out) the snapshot goes back. Commands are `set_params` sent by the use case
//! `service::energy_hub::dispatch`, audited as `energyhub.dispatch` / `energyhub.restore` by
//! "system". An
//! inverter that is offline or refuses is tried at most [`device::MAX_ATTEMPTS`] times per
//! event, then left as it is; each event keeps its outcome per inverter. The state lives in
//! the database (`dr_dispatch_devices`), so a restart picks up where the job stopped, and
//! one replica at a time runs a tick (a lease, `store::leases`).

mod device;
mod rules;
mod send;

use std::{collections::BTreeSet, time::Duration};

use domain::time::now_ms;
use service::Result;

use crate::Context;

pub use device::MAX_ATTEMPTS;

/// The default time between ticks (`PORTAL_DR_TICK_SECS`).
pub const DEFAULT_TICK: Duration = Duration::from_secs(15);

/// One pass over every enrolled inverter at `now` (unix seconds). Answers the next event or
/// interval boundary, when one is to come.
pub async fn tick(ctx: &Context, now: i64) -> Result<Option<i64>> {
    // Every replica runs this job, and all of them wake at an event's start: the lease lets
    // one tick at a time read and write the dispatch state, so a device gets one command.
    let Some(lease) = ctx.store.try_lease(store::leases::DISPATCH).await? else {
        return Ok(None);
    };
    let next = tick_leased(ctx, now).await;
    lease.release().await?;
    next
}

async fn tick_leased(ctx: &Context, now: i64) -> Result<Option<i64>> {
    ctx.store.time_out_commands(now_ms()).await?;
    let plan = ctx.store.dispatch_plan(now).await?;
    let wants = rules::wants(&plan, now);
    let states = ctx.store.dispatch_states().await?;
    let sns: BTreeSet<&str> = wants
        .keys()
        .map(String::as_str)
        .chain(states.iter().map(|s| s.sn.as_str()))
        .collect();
    for sn in sns {
        let state = states.iter().find(|s| s.sn == sn).cloned();
        let span = tracing::info_span!("dispatch", sn);
        let _guard = span.enter();
        if let Err(e) = device::step(ctx, sn, wants.get(sn), state, now).await {
            tracing::warn!(error = %e, sn, "dispatch step failed");
        }
    }
    let next = ctx.store.dispatch_next_boundary(now).await?;
    Ok([next, rules::boundaries(&plan, now)]
        .into_iter()
        .flatten()
        .min())
}

/// Runs [`tick`] every `every`, and right at the next boundary when that comes sooner.
pub async fn run(ctx: Context, every: Duration) {
    loop {
        let now = chrono::Utc::now().timestamp();
        let wait = match tick(&ctx, now).await {
            Ok(Some(at)) => every.min(Duration::from_secs(at.saturating_sub(now).max(1) as u64)),
            Ok(None) => every,
            Err(e) => {
                tracing::warn!(error = %e, "dispatch tick failed");
                every
            }
        };
        tokio::time::sleep(wait).await;
    }
}
