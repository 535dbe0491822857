//! Claiming a gateway with its SN and registration key, into the actor's stock or onto a plant.
//! An unknown SN and a wrong key answer the same 300, so the answer never tells which SNs exist.

use domain::{Code, ids::PlantId, policy::Actor};
use store::{
    Store,
    gateways::{GatewayRow, Holder},
    plants::PlantRow,
};

use super::{own_company, scope_of};
use crate::Result;

/// The plant keys that let an actor put a gateway on a plant.
const PLANT_KEYS: [&str; 2] = ["station.edit", "gateway.add"];

/// A plant the actor may put gateways on: 700 when they cannot see it, 2 when they may not
/// change it.
pub async fn target_plant(store: &Store, actor: &Actor, id: PlantId) -> Result<PlantRow> {
    let (plant, _) = crate::plants::visible(store, actor, id).await?;
    actor.require_any_on_plant(&plant.scope(), &PLANT_KEYS)?;
    Ok(plant)
}

/// Compares keys without stopping at the first difference, so timing tells nothing.
fn same_key(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The gateway an SN and key name, if the actor may take it to `plant` (or to their stock):
/// 300 for an unknown SN or a wrong key alike, 301 when it is in use.
pub async fn checked_claim(
    store: &Store,
    actor: &Actor,
    sn: &str,
    key: &str,
    plant: Option<&PlantRow>,
) -> Result<GatewayRow> {
    let g = match store.gateway_by_sn(sn).await? {
        Some(g) if same_key(&g.reg_key, key) => g,
        _ => return Err(Code::GatewayKeyWrong.into()),
    };
    if plant.is_some_and(|p| g.plant_id == Some(p.id)) {
        return Ok(g);
    }
    let (scope, _) = scope_of(store, actor, &g).await?;
    if !actor.can_take_gateway(&scope) {
        return Err(Code::GatewayUsed.into());
    }
    Ok(g)
}

/// Who a gateway goes to: the plant's holder, or the actor's stock.
pub(crate) fn holder(actor: &Actor, plant: Option<&PlantRow>) -> Holder {
    match plant {
        Some(p) => Holder {
            plant: Some(p.id),
            owner: p.owner_id,
            company: p.company_id,
        },
        None => Holder {
            plant: None,
            owner: actor.id.0,
            company: own_company(actor).map(|c| c.0),
        },
    }
}

/// Claims the gateway an SN and key name: onto `plant` (a [`target_plant`]) or into the
/// actor's stock, with the devices behind it, in one transaction. Claiming a gateway for the
/// plant it is already on changes nothing; a gateway someone else took first answers 301.
pub async fn claim(
    store: &Store,
    actor: &Actor,
    sn: &str,
    key: &str,
    plant: Option<&PlantRow>,
    now: i64,
) -> Result<()> {
    let g = checked_claim(store, actor, sn, key, plant).await?;
    if plant.is_some_and(|p| g.plant_id == Some(p.id)) {
        return Ok(());
    }
    let to = holder(actor, plant);
    let by = (actor.id.0, own_company(actor).map(|c| c.0));
    if !store.take_gateway(g.id, &to, by, now).await? {
        return Err(Code::GatewayUsed.into());
    }
    tracing::info!(gateway = g.id, sn = %g.sn, plant = ?to.plant, by = %actor.id, "gateway claimed");
    Ok(())
}
