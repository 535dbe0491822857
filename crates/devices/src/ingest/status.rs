//! Device and plant status. A pure rule derives each device's status from the age of its data,
//! its open events and its upgrade flag; a plant shows its worst device. `refresh_statuses`
//! is the periodic job that applies the rules to the whole fleet.

use std::collections::HashMap;

use domain::plant::Status;
use store::Store;

/// A device is offline when its newest data is older than this many upload cycles...
pub const OFFLINE_CYCLES: i64 = 3;
/// ...and never sooner than this.
pub const OFFLINE_MIN_MS: i64 = 15 * 60 * 1000;

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

/// How long a device may stay silent before it counts as offline.
pub fn offline_after_ms(upload_cycle_s: i64) -> i64 {
    upload_cycle_s
        .saturating_mul(1000)
        .saturating_mul(OFFLINE_CYCLES)
        .max(OFFLINE_MIN_MS)
}

/// Whether a device whose newest data is from `last_seen` is online at `now`.
pub fn is_online(last_seen: Option<i64>, upload_cycle_s: i64, now: i64) -> bool {
    last_seen.is_some_and(|seen| now.saturating_sub(seen) <= offline_after_ms(upload_cycle_s))
}

/// A device's status: Upgrading while an upgrade runs; otherwise Offline without fresh data;
/// otherwise Fault or Warning by its worst open event; otherwise Normal.
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
    pub devices_changed: usize,
    pub plants_changed: usize,
}

/// Recomputes every device's status and online flag and every plant's status as of `now`, and
/// writes the ones that changed (in one transaction). Run it every minute or so.
pub async fn refresh_statuses(store: &Store, now: i64) -> store::Result<StatusRefresh> {
    let inputs = store.device_status_inputs().await?;
    let mut by_plant: HashMap<i64, Vec<Status>> = HashMap::new();
    let mut device_changes = Vec::new();
    for d in &inputs {
        let online = is_online(d.last_seen, d.upload_cycle, now);
        let status = device_status(online, Severity::from_level(d.worst_event), d.upgrading);
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
        devices_changed: device_changes.len(),
        plants_changed: plant_changes.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: i64 = 60_000;

    #[test]
    fn a_device_goes_offline_after_three_cycles_but_never_before_fifteen_minutes() {
        assert_eq!(offline_after_ms(300), 15 * MIN);
        assert_eq!(offline_after_ms(600), 30 * MIN);
        assert_eq!(offline_after_ms(10), 15 * MIN);
        let now = 100 * MIN;
        assert!(is_online(Some(now - 15 * MIN), 300, now));
        assert!(!is_online(Some(now - 15 * MIN - 1), 300, now));
        assert!(is_online(Some(now - 29 * MIN), 600, now));
        assert!(!is_online(None, 300, now));
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
