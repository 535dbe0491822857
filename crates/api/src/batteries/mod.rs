//! Batteries (docs/api.md, "Batteries, meters and weather stations"): the list of battery
//! stacks (masters), counts, info, realtime values (SOC, SOH, voltage, current, power,
//! temperatures, cell voltages with their extremes, relays, cycles, capacities), the day curve,
//! the health over a span of days (docs/battery-health.md), the slave packs of a stack and
//! delete.
//!
//! A stack's BMS reports its packs inside its own report (`pack{n}_*` keys of the
//! `bms-lv-stack` config); a pack that reports on its own is a battery device whose
//! `parent_sn` is the master's SN, while a master's `parent_sn` is its inverter. So "masters"
//! are the batteries whose parent is not a battery.

use domain::ids::PlantId;
mod cells;
pub(crate) mod detail;
mod health;
pub(crate) mod list;
mod packs;
pub(crate) mod stack;

use std::collections::HashSet;
use utoipa_axum::{router::OpenApiRouter, routes};

use domain::DeviceFamily;
use store::devices::{DeviceFilter, DeviceListRow, StatusCounts};

use crate::{AppState, envelope::ApiResult, session::CurrentUser};

const FAMILY: DeviceFamily = DeviceFamily::Battery;
const VIEW_KEY: &str = domain::permissions::BATTERY_LIST_VIEW;
const DELETE_KEY: &str = domain::permissions::BATTERY_DELETE;
/// Packs a stack report may describe (`pack1_*` .. `pack16_*`).
const MAX_PACKS: u32 = 16;
/// Cells a report may list per pack or stack.
const MAX_CELLS: u32 = 64;
/// Batteries one listing considers when telling masters from packs.
const MAX_BATTERIES: i64 = 20_000;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list::list))
        .routes(routes!(list::count))
        .routes(routes!(detail::info))
        .routes(routes!(detail::realtime))
        .routes(routes!(detail::day))
        .routes(routes!(health::health))
        .routes(routes!(stack::slaves))
        .routes(routes!(stack::delete))
}

/// The batteries that are stack masters: those whose parent is not itself a battery.
fn masters(all: Vec<DeviceListRow>) -> Vec<DeviceListRow> {
    let batteries: HashSet<String> = all.iter().map(|d| d.sn.clone()).collect();
    all.into_iter()
        .filter(|d| d.parent_sn.as_ref().is_none_or(|p| !batteries.contains(p)))
        .collect()
}

/// Every master the caller may see (of one plant when asked), newest first.
async fn visible_masters(
    app: &AppState,
    me: &CurrentUser,
    plant: Option<PlantId>,
) -> ApiResult<Vec<DeviceListRow>> {
    // The shared filter cannot say "whose parent is not a battery", so the caller's batteries
    // (a few per plant) are read once and told apart here.
    let filter = DeviceFilter {
        family: Some(FAMILY),
        plant,
        limit: MAX_BATTERIES,
        ..DeviceFilter::default()
    };
    let (all, _) = app
        .store
        .devices_visible(me.actor.plant_visibility(), me.id(), &filter)
        .await?;
    Ok(masters(all))
}

/// The packs registered as devices of their own under the stack `d` (the caller sees).
async fn packs_registered(
    app: &AppState,
    me: &CurrentUser,
    d: &DeviceListRow,
) -> ApiResult<Vec<DeviceListRow>> {
    let filter = DeviceFilter {
        family: Some(FAMILY),
        parent_sn: Some(d.sn.clone()),
        limit: MAX_PACKS as i64 * 4,
        ..DeviceFilter::default()
    };
    let (children, _) = app
        .store
        .devices_visible(me.actor.plant_visibility(), me.id(), &filter)
        .await?;
    Ok(children)
}

fn counts(rows: &[DeviceListRow]) -> StatusCounts {
    let mut c = StatusCounts::default();
    for d in rows {
        c.total += 1;
        match d.status {
            0 => c.offline += 1,
            1 => c.normal += 1,
            2 => c.warning += 1,
            3 => c.fault += 1,
            4 => c.upgrading += 1,
            _ => {}
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::ids::DeviceId;

    fn row(sn: &str, parent: Option<&str>) -> DeviceListRow {
        DeviceListRow {
            id: DeviceId(1),
            sn: sn.into(),
            gateway_id: None,
            plant_id: None,
            family: FAMILY,
            type_code: 0,
            protocol: String::new(),
            alias: String::new(),
            model: String::new(),
            rated_power: 0.0,
            versions: "{}".into(),
            parent_sn: parent.map(String::from),
            status: 1,
            online: true,
            last_seen: None,
            created_at: 0,
            updated_at: 0,
            plant_name: None,
            plant_type: None,
            plant_owner: None,
            gateway_sn: None,
            gateway_online: None,
            gateway_comm_type: None,
            gateway_upload_cycle: None,
            product_id: None,
            product_name: None,
        }
    }

    #[test]
    fn masters_are_batteries_whose_parent_is_not_a_battery() {
        let all = vec![
            row("BAT1", Some("INV1")),
            row("BAT1-P2", Some("BAT1")),
            row("BAT2", None),
        ];
        let sns: Vec<String> = masters(all).into_iter().map(|d| d.sn).collect();
        assert_eq!(sns, ["BAT1", "BAT2"]);
    }

    #[test]
    fn counts_add_up_per_status() {
        let mut a = row("A00001", None);
        a.status = 0;
        let b = row("B00001", None);
        let c = counts(&[a, b]);
        assert_eq!((c.total, c.offline, c.normal), (2, 1, 1));
    }
}
