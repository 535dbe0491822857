//! Gateway, device and plant status. Pure rules derive a gateway's online state from the age
//! of its newest message, each device's status from the age of its data, its gateway, its open
//! events and its upgrade flag; a plant shows its worst device. `refresh_statuses` is the job
//! that applies the rules to the whole fleet, and [`run_refresher`] runs it often enough for
//! the bound below.
//!
//! **The bound** (docs/device-protocol.md, "Online, offline and stale"): data older than two and
//! a half upload cycles is stale ([`offline_after_ms`]), and the job runs every half cycle of the
//! fastest gateway ([`refresh_period`]), so a gateway that stops reporting, and every device
//! behind it, shows offline within three upload cycles of its last report. Screens that show
//! live values mark them stale by the same rule at read time.

use domain::ids::{DeviceId, GatewayId, PlantId};
use std::{
    collections::{HashMap, HashSet},
    time::Duration,
};

use domain::plant::Status;
use store::Store;

/// Data is stale, and its gateway or device offline, this many tenths of an upload cycle after
/// it was reported: two reports missed, half a cycle of grace for a late one.
pub const STALE_AFTER_TENTHS: i64 = 25;
/// ...and never sooner than this, so that a gateway reporting every second does not flicker
/// offline on a slow network.
pub const STALE_MIN_MS: i64 = 10_000;
/// The status job runs at least this often, and at most this often.
const REFRESH_MAX: Duration = Duration::from_secs(30);
const REFRESH_MIN: Duration = Duration::from_secs(1);

/// The worst open event of a device.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    None,
    Warning,
    Fault,
}

impl Severity {
    /// From the store's 0/1/2 (none, warning, fault).
    pub fn from_level(level: i64) -> Severity {
        match level {
            l if l >= 2 => Severity::Fault,
            1 => Severity::Warning,
            _ => Severity::None,
        }
    }
}

/// How long after its time data of a gateway with this upload cycle (seconds) turns stale: its
/// gateway or device then counts as offline. The one rule for "is this last-seen time stale",
/// used by the status job and by every screen that shows live values.
pub fn offline_after_ms(upload_cycle_s: i64) -> i64 {
    (upload_cycle_s.max(1).saturating_mul(100) * STALE_AFTER_TENTHS).max(STALE_MIN_MS)
}

/// Whether data last seen at `last_seen` is still fresh at `now` (see [`offline_after_ms`]).
pub fn is_online(last_seen: Option<i64>, upload_cycle_s: i64, now: i64) -> bool {
    last_seen.is_some_and(|seen| now.saturating_sub(seen) <= offline_after_ms(upload_cycle_s))
}

/// How often the status job runs when the fastest gateway reports every `shortest_cycle_s`
/// seconds: every half cycle, between one and thirty seconds.
pub fn refresh_period(shortest_cycle_s: i64) -> Duration {
    let half = Duration::from_millis(u64::try_from(shortest_cycle_s.max(1)).unwrap_or(1) * 500);
    half.clamp(REFRESH_MIN, REFRESH_MAX)
}

/// A device's status: Upgrading while an upgrade runs; otherwise Offline without fresh data;
/// otherwise Fault or Warning by its worst open event; otherwise Normal. (The job shows an
/// upgrade only while the device's gateway is online: a gateway that is gone runs no upgrade.)
pub fn device_status(online: bool, worst: Severity, upgrading: bool) -> Status {
    if upgrading {
        return Status::Upgrading;
    }
    if !online {
        return Status::Offline;
    }
    match worst {
        Severity::Fault => Status::Fault,
        Severity::Warning => Status::Warning,
        Severity::None => Status::Normal,
    }
}

fn weight(s: Status) -> u8 {
    match s {
        Status::Offline => 0,
        Status::Normal => 1,
        Status::Warning => 2,
        Status::Fault => 3,
        Status::Upgrading => 4,
    }
}

/// A plant's status: the worst of its devices (Upgrading > Fault > Warning > Normal), Offline
/// when it has no device or every device is offline.
pub fn plant_status(devices: impl IntoIterator<Item = Status>) -> Status {
    devices
        .into_iter()
        .max_by_key(|s| weight(*s))
        .unwrap_or(Status::Offline)
}

/// What one run of the job changed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StatusRefresh {
    pub gateways_offline: usize,
    pub devices_changed: usize,
    pub plants_changed: usize,
    /// The shortest upload cycle among the gateways, in seconds (300 without any).
    pub shortest_cycle_s: i64,
}

/// Recomputes, as of `now`: which gateways went silent (marked offline), every device's
/// status and online flag (a device behind an offline gateway is offline), and every plant's
/// status; writes the ones that changed. [`run_refresher`] runs it.
pub async fn refresh_statuses(store: &Store, now: i64) -> store::Result<StatusRefresh> {
    let mut offline_gateways = HashSet::new();
    let mut gateways_offline = 0;
    let mut shortest_cycle_s = i64::MAX;
    for g in store.gateway_liveness().await? {
        shortest_cycle_s = shortest_cycle_s.min(g.upload_cycle.max(1));
        if is_online(g.last_online, g.upload_cycle, now) && g.online {
            continue;
        }
        if g.online {
            // Went silent: offline, unless a message arrived meanwhile.
            if !store.set_gateway_silent(g.id, g.last_online, now).await? {
                continue;
            }
            gateways_offline += 1;
            tracing::info!(gateway = %g.id, last_heard = ?g.last_online, "gateway went silent: offline");
        }
        offline_gateways.insert(g.id);
    }
    let gateway_of: HashMap<DeviceId, Option<GatewayId>> =
        store.device_gateways().await?.into_iter().collect();
    let inputs = store.device_status_inputs().await?;
    let mut by_plant: HashMap<PlantId, Vec<Status>> = HashMap::new();
    let mut device_changes = Vec::new();
    for d in &inputs {
        let gateway_online = gateway_of
            .get(&d.id)
            .copied()
            .flatten()
            .is_none_or(|g| !offline_gateways.contains(&g));
        let online = gateway_online && is_online(d.last_seen, d.upload_cycle, now);
        let upgrading = d.upgrading && gateway_online;
        let status = device_status(online, Severity::from_level(d.worst_event), upgrading);
        if status as i64 != d.status || online != d.online {
            device_changes.push((d.id, status as i64, online));
        }
        if let Some(plant) = d.plant_id {
            by_plant.entry(plant).or_default().push(status);
        }
    }
    let mut plant_changes = Vec::new();
    for (plant, stored) in store.plant_statuses().await? {
        let status = plant_status(by_plant.remove(&plant).unwrap_or_default()) as i64;
        if status != stored {
            plant_changes.push((plant, status));
        }
    }
    store
        .apply_statuses(&device_changes, &plant_changes)
        .await?;
    Ok(StatusRefresh {
        gateways_offline,
        devices_changed: device_changes.len(),
        plants_changed: plant_changes.len(),
        shortest_cycle_s: if shortest_cycle_s == i64::MAX {
            300
        } else {
            shortest_cycle_s
        },
    })
}

/// Runs [`refresh_statuses`] for as long as the task lives, every [`refresh_period`] of the
/// fastest gateway (read again on every run).
pub async fn run_refresher(store: Store) {
    let mut period = REFRESH_MIN;
    loop {
        tokio::time::sleep(period).await;
        let now = chrono::Utc::now().timestamp_millis();
        match refresh_statuses(&store, now).await {
            Ok(r) => period = refresh_period(r.shortest_cycle_s),
            Err(e) => tracing::warn!(%e, "status refresh failed"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: i64 = 60_000;

    #[test]
    fn data_turns_stale_after_two_and_a_half_cycles_but_never_within_ten_seconds() {
        assert_eq!(offline_after_ms(300), 12 * MIN + 30_000);
        assert_eq!(offline_after_ms(5), 12_500);
        assert_eq!(offline_after_ms(1), 10_000);
        assert_eq!(offline_after_ms(0), 10_000);
        let now = 100 * MIN;
        assert!(is_online(Some(now - 12_500), 5, now));
        assert!(!is_online(Some(now - 12_501), 5, now));
        assert!(is_online(Some(now - 12 * MIN), 300, now));
        assert!(!is_online(Some(now - 13 * MIN), 300, now));
        assert!(!is_online(None, 300, now));
    }

    #[test]
    fn the_job_runs_often_enough_to_show_offline_within_three_cycles() {
        assert_eq!(refresh_period(5), Duration::from_millis(2500));
        assert_eq!(refresh_period(300), Duration::from_secs(30));
        assert_eq!(refresh_period(1), Duration::from_secs(1));
        // Stale time plus one period stays within three cycles for every cycle from 5 s up,
        // and within twelve seconds below.
        for cycle in 1..=3600i64 {
            let worst = offline_after_ms(cycle) + refresh_period(cycle).as_millis() as i64;
            assert!(
                worst <= (3 * cycle * 1000).max(12_000),
                "cycle {cycle}: {worst}"
            );
        }
    }

    #[test]
    fn upgrading_beats_everything_then_offline_then_the_worst_event() {
        assert_eq!(
            device_status(false, Severity::Fault, true),
            Status::Upgrading
        );
        assert_eq!(
            device_status(false, Severity::Fault, false),
            Status::Offline
        );
        assert_eq!(device_status(true, Severity::Fault, false), Status::Fault);
        assert_eq!(
            device_status(true, Severity::Warning, false),
            Status::Warning
        );
        assert_eq!(device_status(true, Severity::None, false), Status::Normal);
        assert_eq!(Severity::from_level(2), Severity::Fault);
        assert_eq!(Severity::from_level(0), Severity::None);
    }

    #[test]
    fn a_plant_shows_its_worst_device_and_is_offline_when_all_are() {
        use Status::*;
        assert_eq!(plant_status([]), Offline);
        assert_eq!(plant_status([Offline, Offline]), Offline);
        assert_eq!(plant_status([Offline, Normal]), Normal);
        assert_eq!(plant_status([Normal, Warning, Offline]), Warning);
        assert_eq!(plant_status([Warning, Fault, Normal]), Fault);
        assert_eq!(plant_status([Fault, Upgrading]), Upgrading);
    }
}
