//! The factory registry: internal administrators add gateways and remove the ones nobody
//! holds.

use domain::{
    Code, DomainError,
    account::check_text,
    ids::{GatewayId, UserId},
    policy::Actor,
    user::UserKind,
};
use store::{Store, gateways::GatewayRow};

use super::{GatewayRef, visible};
use crate::Result;

/// The longest protocol config name a gateway may be registered with.
pub const PROTOCOL_MAX: usize = 40;

/// The longest model name and communication type a gateway may be registered with.
pub const MODEL_MAX: usize = 32;
pub const COMM_TYPE_MAX: usize = 16;

/// A gateway as the factory registers it: SN and key already checked by the caller's parser,
/// the rest free text checked here.
#[derive(Debug, Clone, Default)]
pub struct Registration<'a> {
    pub sn: &'a str,
    pub key: &'a str,
    pub protocol: &'a str,
    pub model: &'a str,
    /// `wifi`, `4g`, `ethernet`, `rs485`... (free text, at most 16 characters).
    pub comm_type: &'a str,
}

/// What registering one gateway came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Registered {
    Created(GatewayId),
    /// The SN is already in the registry.
    Duplicate,
}

/// Only internal administrators with `sys.gateway.edit` register gateways (code 2).
pub fn require_registry(actor: &Actor) -> Result<()> {
    actor.require_gateway_registry()?;
    actor.require_writable()?;
    Ok(())
}

/// The protocol, model and communication type (lower case) after their rules (4 names the
/// field); a dry run of an import checks rows with this alone.
pub fn check_fields(r: &Registration<'_>) -> Result<(String, String, String)> {
    let protocol = check_text("protocol", r.protocol, PROTOCOL_MAX)?;
    let model = check_text("model", r.model, MODEL_MAX)?;
    let comm_type = check_text("commType", r.comm_type, COMM_TYPE_MAX)?.to_lowercase();
    Ok((protocol, model, comm_type))
}

/// Registers one gateway without checking the caller (batches check once): 4 names a field
/// that fails its rule; a known SN is [`Registered::Duplicate`].
pub async fn register_checked(store: &Store, r: &Registration<'_>, now: i64) -> Result<Registered> {
    let (protocol, model, comm_type) = check_fields(r)?;
    match store
        .register_gateway(r.sn, r.key, &protocol, &model, &comm_type, now)
        .await?
    {
        Some(id) => {
            tracing::info!(gateway = id, sn = %r.sn, "gateway registered");
            Ok(Registered::Created(GatewayId(id)))
        }
        None => Ok(Registered::Duplicate),
    }
}

/// Adds a gateway with its checked SN and registration key, and optionally its protocol
/// config name, model and communication type (`sys.gateway.edit`, internal administrators
/// only). A known SN answers 4 `sn`.
pub async fn register(
    store: &Store,
    actor: &Actor,
    r: &Registration<'_>,
    now: i64,
) -> Result<GatewayId> {
    require_registry(actor)?;
    match register_checked(store, r, now).await? {
        Registered::Created(id) => Ok(id),
        Registered::Duplicate => Err(DomainError::invalid("sn").into()),
    }
}

/// Makes an unplaced gateway the stock of an owner account (`customer`, a user id), held
/// with a company that has that account as its customer (the oldest such, if any); `None`
/// frees it. On a plant: 301. Not an account: 105; an account that is not an owner: 4
/// `customerId`. Answers the gateway as it was.
pub async fn assign_customer(
    store: &Store,
    actor: &Actor,
    gateway: GatewayRef<'_>,
    customer: Option<UserId>,
    now: i64,
) -> Result<GatewayRow> {
    require_registry(actor)?;
    let g = visible(store, actor, gateway).await?.gateway;
    if g.plant_id.is_some() {
        return Err(Code::GatewayUsed.into());
    }
    let (owner, company) = match customer {
        None => (None, None),
        Some(user) => {
            let u = store.user(user).await?.ok_or(Code::NotRegistered)?;
            if u.kind != UserKind::Owner.as_str() {
                return Err(DomainError::invalid("customerId").into());
            }
            (Some(u.id), store.company_of_customer(user).await?)
        }
    };
    if !store.set_gateway_holder(g.id, owner, company, now).await? {
        return Err(Code::GatewayUsed.into());
    }
    tracing::info!(gateway = g.id, sn = %g.sn, ?owner, by = %actor.id, "gateway given to a customer");
    Ok(g)
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
