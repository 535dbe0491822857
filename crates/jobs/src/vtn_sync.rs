//! The energy hub's VTN sync: every [`TICK`], each enabled connection whose `pollSeconds`
//! have passed since its last sync is synced (`service::energy_hub::vtn::sync`: programmes,
//! resources, events, reports, webhook subscriptions), and a connection a webhook's
//! notification nudged ([`Nudges`]) is synced at once.
//!
//! Between replicas: the polling tick runs under a lease (`store::leases::VTN_SYNC`), so one
//! replica at a time polls; and each sync, polled or nudged, is claimed in the database first
//! (`service::energy_hub::vtn::sync::claim`), so a notification another replica received does
//! not sync a connection the tick is syncing.

use domain::ids::VtnId;
use std::time::Duration;

use domain::time::now_ms;
use service::energy_hub::vtn::{Nudges, Ven, sync};
use store::{Store, energy_hub::vtn::VtnRow};

/// How often the job looks for connections due.
pub const TICK: Duration = Duration::from_secs(5);

/// The shortest time between two polls of a connection, whatever its `pollSeconds` say.
const MIN_POLL_MS: i64 = 10_000;

/// Whether `vtn` is due at `now` (milliseconds).
fn due(vtn: &VtnRow, now: i64) -> bool {
    vtn.enabled != 0
        && vtn
            .last_sync_at
            .is_none_or(|t| now - t >= (vtn.poll_seconds * 1000).max(MIN_POLL_MS))
}

/// Claims and syncs one connection; `false` when another replica claimed it.
async fn claim_and_sync(store: &Store, ven: &Ven, vtn: &VtnRow, now: i64) -> bool {
    match sync::claim(store, vtn, now).await {
        Ok(true) => {}
        Ok(false) => return false,
        Err(e) => {
            tracing::warn!(vtn = %vtn.id, "energy hub: claiming a VTN sync failed: {e}");
            return false;
        }
    }
    match sync::sync(store, ven, vtn).await {
        Ok(s) => tracing::debug!(
            vtn = %vtn.id,
            events = s.events,
            reports = s.reports,
            "VTN synced"
        ),
        Err(e) => tracing::warn!(vtn = %vtn.id, "VTN sync failed: {e}"),
    }
    true
}

/// One polling pass at `now` (milliseconds): syncs every connection due. Answers how many this
/// replica synced (none while another replica holds the lease).
pub async fn tick(store: &Store, ven: &Ven, now: i64) -> store::Result<usize> {
    let Some(lease) = store.try_lease(store::leases::VTN_SYNC).await? else {
        return Ok(0);
    };
    let synced = match store.vtns().await {
        Ok(vtns) => {
            let mut synced = 0;
            for vtn in vtns.iter().filter(|v| due(v, now)) {
                if claim_and_sync(store, ven, vtn, now).await {
                    synced += 1;
                }
            }
            Ok(synced)
        }
        Err(e) => Err(e),
    };
    lease.release().await?;
    synced
}

/// Syncs the connections a notification asked for (enabled ones; a removed one is skipped).
pub async fn nudged(store: &Store, ven: &Ven, ids: &[VtnId]) -> usize {
    let mut synced = 0;
    for id in ids {
        let vtn = match store.vtn(*id).await {
            Ok(Some(v)) if v.enabled != 0 => v,
            Ok(_) => continue,
            Err(e) => {
                tracing::warn!(vtn = %id, "energy hub: reading a nudged VTN failed: {e}");
                continue;
            }
        };
        if claim_and_sync(store, ven, &vtn, now_ms()).await {
            synced += 1;
        }
    }
    synced
}

/// Runs [`tick`] every `every`, and [`nudged`] as soon as a notification comes.
pub async fn run(store: Store, ven: Ven, nudges: Nudges, every: Duration) {
    let mut timer = tokio::time::interval(every);
    timer.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = timer.tick() => {
                if let Err(e) = tick(&store, &ven, now_ms()).await {
                    tracing::warn!(error = %e, "VTN sync tick failed");
                }
            }
            ids = nudges.next() => {
                nudged(&store, &ven, &ids).await;
            }
        }
    }
}
