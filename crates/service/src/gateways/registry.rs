//! The factory registry: internal administrators add gateways and remove the ones nobody
//! holds.

use domain::{Code, DomainError, account::check_text, ids::GatewayId, policy::Actor};
use store::{Store, StoreError, gateways::GatewayRow};

use super::{GatewayRef, visible};
use crate::Result;

/// The longest protocol config name a gateway may be registered with.
pub const PROTOCOL_MAX: usize = 40;

/// Adds a gateway with its checked SN and registration key and an optional protocol config
/// name (`sys.gateway.edit`, internal administrators only). A known SN answers 4 `sn`.
pub async fn register(
    store: &Store,
    actor: &Actor,
    sn: &str,
    key: &str,
    protocol: &str,
    now: i64,
) -> Result<GatewayId> {
    actor.require_gateway_registry()?;
    actor.require_writable()?;
    let protocol = check_text("protocol", protocol, PROTOCOL_MAX)?;
    let id = match store.create_gateway(sn, key, &protocol, now).await {
        Ok(id) => id,
        Err(StoreError::Conflict(_)) => return Err(DomainError::invalid("sn").into()),
        Err(e) => return Err(e.into()),
    };
    tracing::info!(gateway = id, %sn, by = %actor.id, "gateway registered");
    Ok(GatewayId(id))
}

/// Removes a gateway from the registry (internal administrators), only while nobody holds it
/// (301 otherwise). Answers the removed gateway.
pub async fn remove(store: &Store, actor: &Actor, gateway: GatewayRef<'_>) -> Result<GatewayRow> {
    actor.require_gateway_registry()?;
    actor.require_writable()?;
    let g = visible(store, actor, gateway).await?.gateway;
    if !store.delete_gateway(g.id).await? {
        return Err(Code::GatewayUsed.into());
    }
    tracing::info!(gateway = g.id, sn = %g.sn, by = %actor.id, "gateway removed from the registry");
    Ok(g)
}
