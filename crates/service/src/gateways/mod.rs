//! Gateways: the factory registry (`registry`), claiming one (into the actor's stock or onto a
//! plant), replacing a plant's gateway and unbinding one. Who may see and take a gateway is decided by `domain::policy`; a gateway
//! the actor may not see answers 305 exactly like a missing one.

pub mod actions;
mod claim;
pub mod key;
pub mod registry;
mod replace;

pub use claim::{checked_claim, claim, target_plant};
pub use replace::{Replacement, replace};

use domain::{
    Code,
    ids::{CompanyId, GatewayId},
    policy::{Actor, GatewayScope},
    user::UserKind,
};
use store::{Store, audit::NewAudit, gateways::GatewayRow, plants::PlantRow};

use crate::Result;

/// How a request names a gateway.
#[derive(Debug, Clone, Copy)]
pub enum GatewayRef<'a> {
    Id(GatewayId),
    Sn(&'a str),
}

impl<'a> GatewayRef<'a> {
    /// A path segment or field: its id when it is a number, its SN otherwise.
    pub fn parse(raw: &'a str) -> GatewayRef<'a> {
        let raw = raw.trim();
        match raw.parse::<i64>() {
            Ok(id) => GatewayRef::Id(GatewayId(id)),
            Err(_) => GatewayRef::Sn(raw),
        }
    }
}

/// A gateway the actor can see: its row, what the policy knows of it, and its plant as the
/// actor sees that plant.
#[derive(Debug, Clone)]
pub struct Seen {
    pub gateway: GatewayRow,
    pub scope: GatewayScope,
    pub plant: Option<PlantRow>,
}

/// The company an actor claims gateways for (company staff only).
pub(crate) fn own_company(actor: &Actor) -> Option<CompanyId> {
    if actor.kind == UserKind::Company {
        actor.company
    } else {
        None
    }
}

/// What the policy needs to know about a gateway, with its plant as the actor sees it.
pub async fn scope_of(
    store: &Store,
    actor: &Actor,
    g: &GatewayRow,
) -> Result<(GatewayScope, Option<PlantRow>)> {
    let plant = match g.plant_id {
        Some(id) => store.plant(id, actor.id).await?,
        None => None,
    };
    let scope = GatewayScope {
        plant: plant.as_ref().map(PlantRow::scope),
        owner: g.owner_id,
        company: g.company_id,
        held_by_agent: held_by_agent(store, actor, g).await?,
    };
    Ok((scope, plant))
}

/// Whether the company holding `g` is an agent of the actor's company.
pub async fn held_by_agent(store: &Store, actor: &Actor, g: &GatewayRow) -> Result<bool> {
    Ok(match (own_company(actor), g.company_id) {
        (Some(principal), Some(holder)) if principal != holder => {
            store.is_agent_of(principal, holder).await?
        }
        _ => false,
    })
}

/// The gateway if the actor may see it; 305 otherwise. A missing gateway and another tenant's
/// take the same single query, so batches of SNs cannot tell them apart, by the answer or by
/// its time.
pub async fn visible(store: &Store, actor: &Actor, gateway: GatewayRef<'_>) -> Result<Seen> {
    let (id, sn) = match gateway {
        GatewayRef::Id(id) => (Some(id), None),
        GatewayRef::Sn(sn) => (None, Some(sn)),
    };
    let g = store
        .gateway_visible(actor.plant_visibility(), actor.id, id, sn)
        .await?
        .ok_or(Code::GatewayMissing)?
        .gateway;
    let (scope, plant) = scope_of(store, actor, &g).await?;
    if !actor.can_see_gateway(&scope) {
        return Err(Code::GatewayMissing.into());
    }
    Ok(Seen {
        gateway: g,
        scope,
        plant,
    })
}

/// Refuses actors whose role grants none of `keys` (code 2).
pub fn require_any(actor: &Actor, keys: &[&str]) -> Result<()> {
    if keys.iter().any(|k| actor.has(k)) {
        Ok(())
    } else {
        Err(Code::NoPermission.into())
    }
}

/// The gateway if the actor may take `key`'s action on it: on a plant, the plant's permissions
/// decide (maintainers have restart and debug, visitors nothing); stock not on a plant needs
/// the key (or registry rights). Read-only accounts act on nothing.
pub async fn acting_on(
    store: &Store,
    actor: &Actor,
    gateway: GatewayRef<'_>,
    key: &str,
) -> Result<Seen> {
    let seen = visible(store, actor, gateway).await?;
    match &seen.scope.plant {
        Some(p) => {
            actor.require_on_plant(p, key)?;
        }
        None if seen.gateway.plant_id.is_some() => return Err(Code::GatewayMissing.into()),
        None => require_any(actor, &[key, domain::permissions::SYS_GATEWAY_EDIT])?,
    }
    actor.require_writable()?;
    Ok(seen)
}

/// Unbinds a gateway from its plant (`gateway.unbind` on the plant) or from the actor's stock,
/// with its devices and its audit entry, in one transaction; their history stays with the
/// plant. Answers the gateway as it was before.
pub async fn unbind(
    store: &Store,
    actor: &Actor,
    gateway: GatewayRef<'_>,
    now: i64,
) -> Result<Seen> {
    actor.require_writable()?;
    let seen = visible(store, actor, gateway).await?;
    match &seen.scope.plant {
        Some(plant) => {
            actor.require_on_plant(plant, domain::permissions::GATEWAY_UNBIND)?;
        }
        None if seen.gateway.plant_id.is_some() => return Err(Code::GatewayMissing.into()),
        None => require_any(
            actor,
            &[
                domain::permissions::GATEWAY_UNBIND,
                domain::permissions::SYS_GATEWAY_EDIT,
            ],
        )?,
    }
    let g = &seen.gateway;
    // Filed under the plant the gateway leaves, when the actor may see it.
    let plant = seen
        .plant
        .as_ref()
        .filter(|p| actor.plant_access(&p.scope()).is_some());
    let detail = serde_json::json!({"plantId": g.plant_id}).to_string();
    let entry = NewAudit {
        by: crate::audit::author(actor, plant),
        action: domain::audit_action::GATEWAY_UNBIND,
        target: &g.sn,
        detail: &detail,
        result: crate::audit::SUCCEEDED,
        command_id: None,
        now,
    };
    store.unbind_gateway(g.id, now, Some(&entry)).await?;
    tracing::info!(gateway = %g.id, sn = %g.sn, plant = ?g.plant_id, by = %actor.id, "gateway unbound");
    Ok(seen)
}
