//! The firmware upgrade queues: starts the next upgrade queued on each gateway whose running
//! upgrade has ended (`service::upgrades::start_next`, see there for the rules). It looks as
//! soon as an upgrade ends in this process (a device's final reply or the sweeper of stalled
//! upgrades, said on `devices::link::UpgradeEnds`) and every [`EVERY`] besides, which catches
//! what ended on another replica, a start that failed half way, and an upgrade whose command
//! ended without its row following (it brings those in step first). Every replica runs it without a lease: whose turn it is is decided in the start's
//! own transaction under a lock per gateway, so two replicas looking at once send one upgrade,
//! and the other finds it is no one's turn.

use std::time::Duration;

use devices::link::Dispatcher;
use domain::time::now_ms;
use store::Store;

use crate::Context;

/// How often the queues are looked at without being told an upgrade ended.
pub const EVERY: Duration = Duration::from_secs(5);

/// One look: brings running upgrades whose command ended in step with it, then starts the next
/// upgrade on every gateway where one waits and none runs (each at the time it starts, never
/// before the end it follows). Answers how many it sent; a gateway's failure is logged and does
/// not stop the others.
pub async fn tick(store: &Store, dispatcher: &Dispatcher) -> usize {
    if let Err(e) = devices::link::sync_ended_upgrades(store).await {
        tracing::warn!(error = %e, "upgrades not brought in step");
    }
    let gateways = match store.gateways_with_upgrade_due().await {
        Ok(g) => g,
        Err(e) => {
            tracing::warn!(error = %e, "upgrade queues not read");
            return 0;
        }
    };
    let mut sent = 0;
    for gateway in gateways {
        match service::upgrades::start_next(store, Some(dispatcher), &gateway, now_ms()).await {
            Ok(Some(_)) => sent += 1,
            Ok(None) => {}
            Err(e) => tracing::warn!(error = %e, gateway, "next queued upgrade not started"),
        }
    }
    sent
}

/// Runs [`tick`] when an upgrade ends and every `every`, until the process ends. Without a
/// device link nothing can be sent, and the job does not run.
pub async fn run(ctx: Context, every: Duration) {
    let Some(dispatcher) = ctx.commands else {
        return;
    };
    let ends = dispatcher.upgrade_ends().clone();
    loop {
        tick(&ctx.store, &dispatcher).await;
        tokio::select! {
            () = ends.wait() => {}
            () = tokio::time::sleep(every) => {}
        }
    }
}
