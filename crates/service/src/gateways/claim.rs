//! Claiming a gateway with its SN and registration key, into the actor's stock or onto a plant.
//! An unknown SN, a wrong key and the right key of a gateway the actor can neither take nor see
//! all answer the same 300, so the answer tells neither which SNs exist nor whether a key is
//! right (the review found 890 guesses a second answered 300 or 301). Wrong keys are budgeted
//! per actor: past [`WRONG_KEYS_PER_WINDOW`] the checks answer 7 until the window ends.

use domain::{Code, ids::PlantId, policy::Actor};
use store::{
    Store,
    gateways::{GatewayRow, Holder},
    plants::PlantRow,
};

use super::{own_company, scope_of};
use crate::{Result, ServiceError};

/// The plant keys that let an actor put a gateway on a plant.
const PLANT_KEYS: [&str; 2] = [
    domain::permissions::STATION_EDIT,
    domain::permissions::GATEWAY_ADD,
];

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

/// Wrong keys (300 answers) one actor may give within [`WRONG_KEYS_WINDOW_MS`]: far more than
/// typing mistakes, far too few to guess a key.
pub const WRONG_KEYS_PER_WINDOW: i64 = 20;
pub const WRONG_KEYS_WINDOW_MS: i64 = 15 * 60 * 1000;

/// The gateway an SN and key name, if the actor may take it to `plant` (or to their stock):
/// 300 for an unknown SN, a wrong key, or the right key of a gateway the actor cannot see;
/// 301 when it is in use where the actor can see it; 7 once the actor's wrong keys are spent.
pub async fn checked_claim(
    store: &Store,
    actor: &Actor,
    sn: &str,
    key: &str,
    plant: Option<&PlantRow>,
) -> Result<GatewayRow> {
    let budget = format!("claimkey:{}", actor.id);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
    if store
        .throttle(&budget)
        .await?
        .is_some_and(|t| t.locked_until > now)
    {
        return Err(Code::TooManyAttempts.into());
    }
    let answer = judge(store, actor, sn, key, plant).await;
    if matches!(&answer, Err(ServiceError::Refused(e)) if e.code == Code::GatewayKeyWrong) {
        let t = store
            .record_login_failure(&budget, now, now - WRONG_KEYS_WINDOW_MS)
            .await?;
        if t.failures >= WRONG_KEYS_PER_WINDOW {
            tracing::warn!(actor = %actor.id, "gateway key checks refused for 15 minutes: too many wrong keys");
            store
                .lock_login(&budget, t.window_start + WRONG_KEYS_WINDOW_MS)
                .await?;
        }
    }
    answer
}

async fn judge(
    store: &Store,
    actor: &Actor,
    sn: &str,
    key: &str,
    plant: Option<&PlantRow>,
) -> Result<GatewayRow> {
    let Some(g) = store.gateway_by_sn(sn).await? else {
        return Err(Code::GatewayKeyWrong.into());
    };
    let right = same_key(&g.reg_key, key);
    if right && plant.is_some_and(|p| g.plant_id == Some(p.id)) {
        return Ok(g);
    }
    // The same lookups whether the key is right or not, so neither does the time tell.
    let (scope, _) = scope_of(store, actor, &g).await?;
    if !right {
        return Err(Code::GatewayKeyWrong.into());
    }
    if actor.can_take_gateway(&scope) {
        Ok(g)
    } else if actor.can_see_gateway(&scope) {
        Err(Code::GatewayUsed.into())
    } else {
        Err(Code::GatewayKeyWrong.into())
    }
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
            owner: actor.id,
            company: own_company(actor),
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
    let by = (actor.id, own_company(actor));
    if !store.take_gateway(g.id, &to, by, now).await? {
        return Err(Code::GatewayUsed.into());
    }
    tracing::info!(gateway = %g.id, sn = %g.sn, plant = ?to.plant, by = %actor.id, "gateway claimed");
    Ok(())
}
