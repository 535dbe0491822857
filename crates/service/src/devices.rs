//! Changing a registered device: its name, its removal (a battery stack with the packs
//! registered under it, in one transaction) and a plant's master meter. The caller found the
//! device through the visibility rule of `store::devices`; these check what the actor may
//! change. The name rule is `domain::device::alias`.

use domain::ids::DeviceId;
use domain::{
    Code, DomainError, device,
    policy::{Actor, PlantAccess},
};
use store::{Store, devices::DeviceListRow, plants::PlantRow};

use crate::Result;

/// Who may change a device.
#[derive(Debug, Clone, Copy)]
pub enum Rule<'a> {
    /// Meters, weather stations and batteries: a writable account, the role key, and a plant
    /// the actor owns or manages for their company (people the plant is only shared with may
    /// look, not change).
    Managed(&'a str),
    /// Inverters: `on_plant` among the actor's permissions on the device's plant, or the role
    /// key `off_plant` for one on no plant the actor sees (behind a gateway they hold).
    OnPlant {
        on_plant: &'a str,
        off_plant: &'a str,
    },
}

/// The device's plant as the actor sees it.
async fn plant_of(store: &Store, actor: &Actor, d: &DeviceListRow) -> Result<Option<PlantRow>> {
    Ok(match d.plant_id {
        Some(id) => store.plant(id, actor.id).await?,
        None => None,
    })
}

/// Refuses (2) an actor whom `rule` does not let change the device.
pub async fn require(
    store: &Store,
    actor: &Actor,
    d: &DeviceListRow,
    rule: Rule<'_>,
) -> Result<()> {
    actor.require_writable()?;
    let plant = plant_of(store, actor, d).await?;
    match rule {
        Rule::Managed(key) => {
            actor.require(key)?;
            if let Some(plant) = plant {
                match actor.plant_access(&plant.scope()) {
                    Some(PlantAccess::Owner | PlantAccess::Internal | PlantAccess::Company) => {}
                    _ => return Err(Code::NoPermission.into()),
                }
            }
        }
        Rule::OnPlant {
            on_plant,
            off_plant,
        } => match plant {
            Some(p) => {
                actor.require_on_plant(&p.scope(), on_plant)?;
            }
            None => actor.require(off_plant)?,
        },
    }
    Ok(())
}

/// Names the device `alias` (`domain::device::alias`: 4 `alias`, also when none was sent;
/// empty clears the name).
pub async fn rename(
    store: &Store,
    actor: &Actor,
    d: &DeviceListRow,
    rule: Rule<'_>,
    alias: Option<&str>,
    now: i64,
) -> Result<()> {
    require(store, actor, d, rule).await?;
    let alias = device::alias(alias.ok_or_else(|| DomainError::invalid("alias"))?)?;
    store.set_device_alias(d.id, &alias, now).await?;
    Ok(())
}

/// Removes the device from the registry, with `packs` (the devices registered under a
/// battery stack), all in one transaction; their history stays, and a device that reports
/// again registers anew. 600 when the device was gone already.
pub async fn delete(
    store: &Store,
    actor: &Actor,
    d: &DeviceListRow,
    rule: Rule<'_>,
    packs: &[DeviceId],
) -> Result<()> {
    require(store, actor, d, rule).await?;
    let ids: Vec<DeviceId> = packs.iter().copied().chain([d.id]).collect();
    if store.delete_devices(&ids).await? == 0 {
        return Err(Code::InverterMissing.into());
    }
    Ok(())
}

/// Makes the meter its plant's master meter (the plant's others stop being master), or with
/// `master` false clears it. 4 `plant` for a meter on no plant.
pub async fn set_master_meter(
    store: &Store,
    actor: &Actor,
    meter: &DeviceListRow,
    key: &str,
    master: bool,
) -> Result<()> {
    require(store, actor, meter, Rule::Managed(key)).await?;
    let plant = meter
        .plant_id
        .ok_or_else(|| DomainError::invalid("plant"))?;
    store.set_master_meter(plant, meter.id, master).await?;
    Ok(())
}
