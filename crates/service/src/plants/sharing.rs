//! Sharing a plant with visitors and maintainers, ending a share, and giving the plant to
//! another account.

use domain::{
    Code, DomainError,
    ids::{PlantId, UserId},
    policy::{Actor, PlantAccess, ShareRole},
    user::UserKind,
};
use store::{Store, plants::PlantRow, users::UserRow};

use super::{account_user, visible};
use crate::{Result, files::FileStore};

/// Shares a plant with the owner account `account` as `role` (`visitor`, `maintainer`, or
/// `1`/`2`). Only its creator may (2); never a company's plant (703), not with oneself (701),
/// only with owner accounts (702); unknown accounts answer 105. Answers who it is shared with.
pub async fn share(
    store: &Store,
    actor: &Actor,
    id: PlantId,
    account: &str,
    role: &str,
    now: i64,
) -> Result<UserRow> {
    let (plant, _) = visible(store, actor, id).await?;
    actor.require_on_plant(&plant.scope(), domain::permissions::STATION_SHARE)?;
    if plant.company_id.is_some() {
        return Err(Code::ShareCompanyPlant.into());
    }
    let role = ShareRole::parse(role).ok_or_else(|| DomainError::invalid("role"))?;
    let target = account_user(store, account, "account").await?;
    if target.id() == actor.id {
        return Err(Code::ShareSelf.into());
    }
    if target.kind() != UserKind::Owner {
        return Err(Code::ShareCompanyUser.into());
    }
    store.share_plant(plant.id, target.id(), role, now).await?;
    tracing::info!(
        plant = %plant.id,
        with = %target.id,
        role = %role.as_str(),
        "plant shared"
    );
    Ok(target)
}

/// Whose share ends.
#[derive(Debug, Clone, Copy)]
pub enum ShareTarget<'a> {
    User(UserId),
    /// An email or phone.
    Account(&'a str),
    /// The actor's own share.
    Own,
}

/// Ends a share: the creator ends anyone's, a sharee their own. A share that does not exist
/// answers 4 `userId`. Then the plant's pictures get new names (`pictures::rename`: links kept
/// from while it was shared stop working). Answers the plant.
pub async fn cancel_share(
    store: &Store,
    files: FileStore<'_>,
    actor: &Actor,
    id: PlantId,
    whose: ShareTarget<'_>,
) -> Result<PlantRow> {
    let (plant, access) = visible(store, actor, id).await?;
    let target = match whose {
        ShareTarget::User(user) => user,
        ShareTarget::Account(account) => account_user(store, account, "account").await?.id(),
        ShareTarget::Own => actor.id,
    };
    let own_share =
        target == actor.id && matches!(access, PlantAccess::Visitor | PlantAccess::Maintainer);
    if !own_share {
        actor.require_on_plant(&plant.scope(), domain::permissions::STATION_SHARE)?;
    }
    if !store.unshare_plant(plant.id, target).await? {
        return Err(DomainError::invalid("userId").into());
    }
    super::pictures::rename(store, files, &plant).await;
    Ok(plant)
}

/// Gives the plant to the account `account` (`station.transfer` on it), in one transaction:
/// the previous owner loses access, a share the new owner had ends, and the plant joins the
/// new owner's company if they are company staff. Not to its owner (704); unknown accounts 105.
/// Answers the new owner.
pub async fn transfer(
    store: &Store,
    actor: &Actor,
    id: PlantId,
    account: &str,
    now: i64,
) -> Result<UserRow> {
    let (plant, _) = visible(store, actor, id).await?;
    actor.require_on_plant(&plant.scope(), domain::permissions::STATION_TRANSFER)?;
    let target = account_user(store, account, "account").await?;
    if target.id == plant.owner_id {
        return Err(Code::TransferSelf.into());
    }
    let company = if target.kind() == UserKind::Company {
        target.company()
    } else {
        None
    };
    store
        .transfer_plant(plant.id, target.id(), company, now)
        .await?;
    tracing::info!(
        plant = %plant.id,
        from = %plant.owner_id,
        to = %target.id,
        "plant transferred"
    );
    Ok(target)
}
