//! Which registered device each reading of a message is, and whether the reporting gateway may
//! report it. A device belongs to the gateway it is registered behind (registered on first
//! sight, moved only by replacing the gateway); a reading of another gateway's device is left
//! out alone, and so is a new SN once the gateway has [`MAX_DEVICES_PER_GATEWAY`] devices. The
//! rest of the message is stored either way.

use domain::ids::GatewayId;
use std::{
    collections::HashMap,
    time::{Duration, Instant},
};

use chrono_tz::Tz;
use store::{
    Store,
    reported_devices::{DeviceContext, ReportedDevice},
};

use super::{
    prepare::{Checked, Placement},
    skipped::{Reason, Skipped},
};

/// Most devices one gateway may register. A logger reads its devices over an RS-485 bus, where
/// Modbus RTU addresses at most 247 units and RS-485 drivers carry at most 256 unit loads;
/// battery packs a master BMS reports for itself fit in what real sites leave free. New SNs
/// beyond this are left out (`over_device_limit`), so one gateway cannot fill the registry.
pub const MAX_DEVICES_PER_GATEWAY: i64 = 256;

/// An unbound device is read again this soon, so that binding its gateway takes effect quickly.
const UNBOUND_TTL: Duration = Duration::from_secs(30);

struct DeviceEntry {
    place: Placement,
    gateway_id: GatewayId,
    fetched: Instant,
}

/// Devices and per-gateway device counts as last read, trusted for `ttl`.
pub(super) struct Registry {
    ttl: Duration,
    devices: HashMap<String, DeviceEntry>,
    counts: HashMap<GatewayId, (i64, Instant)>,
}

fn storage(e: store::StoreError) -> String {
    tracing::error!(error = %e, "device lookup");
    crate::report::retry("storage failed")
}

impl Registry {
    pub(super) fn new(ttl: Duration) -> Registry {
        Registry {
            ttl,
            devices: HashMap::new(),
            counts: HashMap::new(),
        }
    }

    /// Where each reading of `gateway`'s message goes; `None` for one left out (and reported
    /// to `skipped`). Devices not seen lately are looked up together (a query per 128 SNs), not
    /// one by one, so a message of many unknown SNs costs a few queries.
    pub(super) async fn place_all(
        &mut self,
        store: &Store,
        gateway: GatewayId,
        readings: &[Checked],
        now: i64,
        skipped: &mut Skipped,
    ) -> Result<Vec<Option<Placement>>, String> {
        let mut placed: Vec<Option<Placement>> = readings
            .iter()
            .map(|c| self.cached(&c.sn, gateway))
            .collect();
        let unresolved: Vec<&Checked> = readings
            .iter()
            .zip(&placed)
            .filter(|(_, p)| p.is_none())
            .map(|(c, _)| c)
            .collect();
        if unresolved.is_empty() {
            return Ok(placed);
        }
        let sns: Vec<&str> = unresolved.iter().map(|c| c.sn.as_str()).collect();
        let mut owners: HashMap<String, Option<GatewayId>> = store
            .device_contexts(&sns)
            .await
            .map_err(storage)?
            .into_iter()
            .map(|c| (c.sn, c.gateway_id))
            .collect();
        let mut registered: Vec<&str> = Vec::new();
        for c in unresolved {
            let owner = owners.get(&c.sn).copied().flatten();
            if owner.is_some_and(|g| g != gateway) {
                skipped.device(&c.sn, Reason::AnotherGateways);
                continue;
            }
            let new = owner.is_none();
            if new && self.device_count(store, gateway).await? >= MAX_DEVICES_PER_GATEWAY {
                skipped.device(&c.sn, Reason::OverDeviceLimit);
                continue;
            }
            let device = reported(c);
            match store
                .register_reported_device(&device, gateway, now)
                .await
                .map_err(storage)?
            {
                Some(_) => {
                    if new && let Some((count, _)) = self.counts.get_mut(&gateway) {
                        *count += 1;
                    }
                    owners.insert(c.sn.clone(), Some(gateway));
                    registered.push(&c.sn);
                }
                // Taken by another gateway since the lookup (another portal replica).
                None => {
                    owners.insert(c.sn.clone(), None);
                    skipped.device(&c.sn, Reason::AnotherGateways);
                }
            }
        }
        // The plant (and its time zone) follow the gateway, so they are read after registering.
        let mut fresh: HashMap<String, Placement> = HashMap::new();
        for ctx in store.device_contexts(&registered).await.map_err(storage)? {
            if ctx.gateway_id == Some(gateway) {
                fresh.insert(ctx.sn.clone(), self.remember(&ctx));
            }
        }
        for (c, p) in readings.iter().zip(placed.iter_mut()) {
            if p.is_some() || owners.get(&c.sn).copied().flatten() != Some(gateway) {
                continue;
            }
            // Deleted or moved since it was registered: the message comes again and finds it
            // afresh.
            *p =
                Some(*fresh.get(&c.sn).ok_or_else(|| {
                    crate::report::retry("a device changed while it was registered")
                })?);
        }
        Ok(placed)
    }

    /// `sn`'s place if it was read lately and belongs to `gateway`.
    fn cached(&self, sn: &str, gateway: GatewayId) -> Option<Placement> {
        let e = self.devices.get(sn)?;
        let ttl = if e.place.plant_id.is_some() {
            self.ttl
        } else {
            self.ttl.min(UNBOUND_TTL)
        };
        (e.gateway_id == gateway && e.fetched.elapsed() < ttl).then_some(e.place)
    }

    /// Keeps where a device of `ctx.gateway_id` is, and answers it.
    fn remember(&mut self, ctx: &DeviceContext) -> Placement {
        let place = Placement {
            device_id: ctx.id,
            plant_id: ctx.plant_id,
            tz: ctx.timezone.as_deref().and_then(|t| t.parse::<Tz>().ok()),
            location: match (ctx.lat, ctx.lon) {
                (Some(lat), Some(lon)) if domain::sun::has_location(lat, lon) => Some((lat, lon)),
                _ => None,
            },
        };
        if let Some(gateway_id) = ctx.gateway_id {
            self.devices.insert(
                ctx.sn.clone(),
                DeviceEntry {
                    place,
                    gateway_id,
                    fetched: Instant::now(),
                },
            );
        }
        place
    }

    /// Devices registered behind `gateway`, counted again after `ttl` (devices deleted or moved
    /// by the API change it behind ingest's back).
    async fn device_count(&mut self, store: &Store, gateway: GatewayId) -> Result<i64, String> {
        if let Some((count, at)) = self.counts.get(&gateway)
            && at.elapsed() < self.ttl
        {
            return Ok(*count);
        }
        let count = store.gateway_device_count(gateway).await.map_err(storage)?;
        self.counts.insert(gateway, (count, Instant::now()));
        Ok(count)
    }
}

fn reported(c: &Checked) -> ReportedDevice<'_> {
    ReportedDevice {
        sn: &c.sn,
        family: c.family,
        type_code: c.type_code,
        protocol: &c.protocol,
        model: &c.model,
        parent_sn: c.parent.as_deref(),
    }
}
