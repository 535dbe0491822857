//! The factory registry: internal administrators add gateways and remove the ones nobody
//! holds.

use domain::{
    Code, DomainError,
    account::check_text,
    ids::{GatewayId, UserId},
    policy::Actor,
    user::UserKind,
};
use serde_json::{Value, json};
use store::{
    Store,
    audit::NewAudit,
    gateways::{GatewayRow, NewGateway},
};

use super::{GatewayRef, visible};
use crate::{Result, audit};

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

/// An entry about a gateway on no plant (one the registry adds, frees or removes).
fn entry<'a>(
    actor: &'a Actor,
    action: &'a str,
    sn: &'a str,
    detail: &'a str,
    now: i64,
) -> NewAudit<'a> {
    audit::admin_entry(audit::author(actor, None), action, sn, detail, now)
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

/// `r` as the store registers it, once its fields pass their rules (4 names the field).
fn new_gateway<'a>(r: &Registration<'a>, fields: &'a (String, String, String)) -> NewGateway<'a> {
    let (protocol, model, comm_type) = fields;
    NewGateway {
        sn: r.sn,
        reg_key: r.key,
        protocol,
        model,
        comm_type,
    }
}

/// What the store answered for each gateway, logged.
fn outcomes(rows: &[Registration<'_>], ids: &[Option<GatewayId>]) -> Vec<Registered> {
    rows.iter()
        .zip(ids)
        .map(|(r, id)| match id {
            Some(id) => {
                tracing::info!(gateway = %id, sn = %r.sn, "gateway registered");
                Registered::Created(*id)
            }
            None => Registered::Duplicate,
        })
        .collect()
}

/// Adds a gateway with its checked SN and registration key, and optionally its protocol
/// config name, model and communication type (`sys.gateway.edit`, internal administrators
/// only), with its audit entry. A known SN answers 4 `sn` (and writes nothing).
pub async fn register(
    store: &Store,
    actor: &Actor,
    r: &Registration<'_>,
    now: i64,
) -> Result<GatewayId> {
    require_registry(actor)?;
    let fields = check_fields(r)?;
    let detail =
        json!({"model": r.model, "commType": r.comm_type, "protocol": r.protocol}).to_string();
    // A new gateway is on no plant yet: the entry is filed under none.
    let entry = entry(actor, domain::audit_action::GATEWAY_REGISTER, r.sn, "", now);
    let created = |ids: &[Option<GatewayId>]| ids.iter().flatten().next().map(|_| detail.clone());
    let ids = store
        .register_gateways(&[new_gateway(r, &fields)], now, (&entry, &created))
        .await?;
    match outcomes(std::slice::from_ref(r), &ids).first() {
        Some(Registered::Created(id)) => Ok(*id),
        _ => Err(DomainError::invalid("sn").into()),
    }
}

/// Registers a batch of gateways (`sys.gateway.edit`, internal administrators only) whose
/// rows the caller checked one by one, with the batch's entry `action` (on `gateways`), whose
/// detail `detail_of` makes from the outcomes, all in one transaction. A known SN is
/// [`Registered::Duplicate`]; a field that fails its rule answers 4 naming it, and nothing is
/// written. Answers each row's outcome, in order.
pub async fn register_all(
    store: &Store,
    actor: &Actor,
    rows: &[Registration<'_>],
    action: &str,
    detail_of: &(dyn Fn(&[Registered]) -> Value + Sync),
    now: i64,
) -> Result<Vec<Registered>> {
    require_registry(actor)?;
    let fields = rows.iter().map(check_fields).collect::<Result<Vec<_>>>()?;
    let gateways: Vec<_> = rows
        .iter()
        .zip(&fields)
        .map(|(r, f)| new_gateway(r, f))
        .collect();
    let entry = entry(actor, action, "gateways", "", now);
    let detail = |ids: &[Option<GatewayId>]| {
        let outcomes = ids.iter().map(|id| match id {
            Some(id) => Registered::Created(*id),
            None => Registered::Duplicate,
        });
        Some(detail_of(&outcomes.collect::<Vec<_>>()).to_string())
    };
    let ids = store
        .register_gateways(&gateways, now, (&entry, &detail))
        .await?;
    Ok(outcomes(rows, &ids))
}

/// Makes an unplaced gateway the stock of an owner account (`customer`, a user id), held
/// with a company that has that account as its customer (the oldest such, if any); `None`
/// frees it. On a plant: 301. Not an account: 105; an account that is not an owner: 4
/// `customerId`. Answers the gateway as it was; the change is audited `gateway.customer`.
pub async fn assign_customer(
    store: &Store,
    actor: &Actor,
    gateway: GatewayRef<'_>,
    customer_id: Option<i64>,
    now: i64,
) -> Result<GatewayRow> {
    require_registry(actor)?;
    // The form frees a gateway with null, and older screens with 0.
    let customer = customer_id.filter(|c| *c > 0).map(UserId);
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
    // An unplaced gateway: the entry is filed under no plant.
    let detail = json!({"customerId": customer_id, "was": g.owner_id}).to_string();
    let entry = entry(
        actor,
        domain::audit_action::GATEWAY_CUSTOMER,
        &g.sn,
        &detail,
        now,
    );
    if !store
        .set_gateway_holder(g.id, owner, company, now, &entry)
        .await?
    {
        return Err(Code::GatewayUsed.into());
    }
    tracing::info!(gateway = %g.id, sn = %g.sn, ?owner, by = %actor.id, "gateway given to a customer");
    Ok(g)
}

/// Removes a gateway from the registry (internal administrators), only while nobody holds it
/// (301 otherwise). Answers the removed gateway.
pub async fn remove(
    store: &Store,
    actor: &Actor,
    gateway: GatewayRef<'_>,
    now: i64,
) -> Result<GatewayRow> {
    actor.require_gateway_registry()?;
    actor.require_writable()?;
    let g = visible(store, actor, gateway).await?.gateway;
    // A removed gateway is on no plant: the entry is filed under none, and says nothing more.
    let entry = entry(
        actor,
        domain::audit_action::GATEWAY_DELETE,
        &g.sn,
        "null",
        now,
    );
    if !store.delete_gateway(g.id, Some(&entry)).await? {
        return Err(Code::GatewayUsed.into());
    }
    tracing::info!(gateway = %g.id, sn = %g.sn, by = %actor.id, "gateway removed from the registry");
    Ok(g)
}
