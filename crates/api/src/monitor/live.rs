//! Whether a device's newest data still describes the present. Every live answer (plant
//! realtime and flow, the device screens' realtime values and lists) marks its values `stale`
//! by one rule: the data is older than the device's offline bound, three upload cycles of its
//! gateway (`devices::ingest::status::offline_after_ms`), the same bound that turns the device
//! Offline. A stale value is never added into a live figure (current power, the flow); screens
//! show it greyed with the time of the last data.

use domain::ids::{GatewayId, PlantId};
use std::collections::HashMap;
use store::devices::DeviceListRow;

use devices::ingest::status;

use crate::{AppState, envelope::ApiResult};

/// The upload cycle of a device without a gateway row: the gateways table's default.
pub(crate) const DEFAULT_UPLOAD_CYCLE_S: i64 = 300;

/// Whether data last received at `last` (ms) is stale at `now` for a gateway uploading every
/// `upload_cycle_s` seconds; no data at all is stale.
pub(crate) fn is_stale(last: Option<i64>, upload_cycle_s: i64, now: i64) -> bool {
    !status::is_online(last, upload_cycle_s, now)
}

/// Whether a plant reads "Off" rather than Normal: at least one inverter has fresh data and
/// every inverter with fresh data reports itself switched off (`inverters::values::
/// switched_on`). Given the switch of each inverter with fresh data. One rule for the plant
/// list and the plant's realtime figures (its overview); the status on the wire stays Normal,
/// as the API's clients expect, and the screens show Off from this.
pub(crate) fn switched_off(fresh_inverters_on: impl IntoIterator<Item = bool>) -> bool {
    let mut any = false;
    for on in fresh_inverters_on {
        if on {
            return false;
        }
        any = true;
    }
    any
}

/// The upload cycles of the gateways some devices report through.
#[derive(Debug, Clone, Default)]
pub(crate) struct Cycles(HashMap<GatewayId, i64>);

impl Cycles {
    /// The cycles of a plant's gateways, one query.
    pub async fn of_plant(app: &AppState, plant: PlantId) -> ApiResult<Cycles> {
        Ok(Cycles(
            app.store
                .plant_gateways(plant)
                .await?
                .into_iter()
                .map(|g| (g.id, g.upload_cycle))
                .collect(),
        ))
    }

    /// The cycles of the gateways of listed devices, read with them (no query).
    pub fn of_rows<'a>(rows: impl IntoIterator<Item = &'a DeviceListRow>) -> Cycles {
        Cycles(
            rows.into_iter()
                .filter_map(|d| Some((d.gateway_id?, d.gateway_upload_cycle?)))
                .collect(),
        )
    }

    /// The cycles of these gateways (repeats and `None` are left out), one query.
    pub async fn of_gateways(app: &AppState, gateways: &[Option<GatewayId>]) -> ApiResult<Cycles> {
        let mut ids: Vec<GatewayId> = gateways.iter().flatten().copied().collect();
        ids.sort_unstable();
        ids.dedup();
        Ok(Cycles(
            app.store
                .gateway_upload_cycles(&ids)
                .await?
                .into_iter()
                .collect(),
        ))
    }

    /// The upload cycle of `gateway`, the default when unknown.
    pub fn cycle(&self, gateway: Option<GatewayId>) -> i64 {
        gateway
            .and_then(|g| self.0.get(&g).copied())
            .unwrap_or(DEFAULT_UPLOAD_CYCLE_S)
    }

    /// Whether data last received at `last` from a device behind `gateway` is stale at `now`.
    pub fn stale(&self, gateway: Option<GatewayId>, last: Option<i64>, now: i64) -> bool {
        is_stale(last, self.cycle(gateway), now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_goes_stale_exactly_when_its_device_goes_offline() {
        let now = 10_000_000_000;
        for cycle in [5, 60, 300, 600, 3600] {
            let bound = status::offline_after_ms(cycle);
            assert!(!is_stale(Some(now - bound), cycle, now), "cycle {cycle}");
            assert!(is_stale(Some(now - bound - 1), cycle, now), "cycle {cycle}");
        }
        assert!(is_stale(None, 300, now), "never reported");
    }

    #[test]
    fn a_plant_is_off_when_every_fresh_inverter_is_and_there_is_one() {
        assert!(switched_off([false]));
        assert!(switched_off([false, false]));
        assert!(!switched_off([false, true]), "one still on");
        assert!(!switched_off([]), "no fresh inverter: nothing known");
    }

    #[test]
    fn unknown_gateways_use_the_default_cycle() {
        let cycles = Cycles([(GatewayId(7), 3600)].into_iter().collect());
        assert_eq!(cycles.cycle(Some(GatewayId(7))), 3600);
        assert_eq!(cycles.cycle(Some(GatewayId(8))), DEFAULT_UPLOAD_CYCLE_S);
        assert_eq!(cycles.cycle(None), DEFAULT_UPLOAD_CYCLE_S);
        let now = 100_000_000;
        let an_hour_ago = Some(now - 3_600_000);
        assert!(!cycles.stale(Some(GatewayId(7)), an_hour_ago, now));
        assert!(cycles.stale(None, an_hour_ago, now));
    }
}
