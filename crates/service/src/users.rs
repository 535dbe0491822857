//! A person's own account and the accounts they manage: the profile, the password, the avatar
//! and the display preferences. A new password ends every session of the account in the same
//! transaction.

use domain::{
    Code, DomainError,
    account::{PROFILE_TEXT_MAX, check_text, parse_email, parse_phone},
    ids::UserId,
    policy::Actor,
    user::{TempUnit, check_gender},
};
use store::{
    Store,
    users::{Profile, UserRow},
};

use crate::Result;

/// A user the caller may manage (themselves, or the accounts an administrator's rights
/// reach); anything else answers as a missing account (105).
pub async fn managed(store: &Store, actor: &Actor, id: UserId) -> Result<UserRow> {
    let target = store.user(id).await?.ok_or(Code::NotRegistered)?;
    if !actor.can_manage_user(&target.scope()) {
        return Err(Code::NotRegistered.into());
    }
    actor.require_writable()?;
    Ok(target)
}

/// What a profile edit changes; fields left out keep their value, an empty contact clears it.
#[derive(Debug, Clone, Default)]
pub struct ProfileChanges {
    pub nickname: Option<String>,
    pub name: Option<String>,
    pub gender: Option<i64>,
    pub mobile: Option<String>,
    pub email: Option<String>,
}

/// A contact as edited: kept when left out, cleared when empty, else what `parse` accepts.
fn edited_contact(
    new: Option<String>,
    old: &str,
    parse: fn(&str) -> std::result::Result<String, DomainError>,
) -> std::result::Result<String, DomainError> {
    match new.as_deref().map(str::trim) {
        None => Ok(old.to_string()),
        Some("") => Ok(String::new()),
        Some(v) => parse(v),
    }
}

/// Updates the profile of a user the caller manages (4 names the failing field).
pub async fn update_profile(
    store: &Store,
    actor: &Actor,
    id: UserId,
    c: ProfileChanges,
) -> Result<()> {
    let target = managed(store, actor, id).await?;
    let text = |field, new: Option<String>, old: &str| match new {
        Some(v) => check_text(field, &v, PROFILE_TEXT_MAX),
        None => Ok(old.to_string()),
    };
    let profile = Profile {
        nickname: text("nickname", c.nickname, &target.nickname)?,
        name: text("name", c.name, &target.name)?,
        gender: check_gender(c.gender.unwrap_or(target.gender))?,
        mobile: edited_contact(c.mobile, &target.mobile, parse_phone)
            .map_err(|_| DomainError::invalid("mobile"))?,
        email: edited_contact(c.email, &target.email, parse_email)?,
    };
    store.update_profile(target.id(), &profile).await?;
    Ok(())
}

/// Sets the caller's new password (its hash; the API checked the old one) and ends every
/// session of the account, in one transaction.
pub async fn change_password(
    store: &Store,
    actor: &Actor,
    password_hash: &str,
    now: i64,
) -> Result<()> {
    actor.require_writable()?;
    store.set_password(actor.id, password_hash, now).await?;
    tracing::info!(user = %actor.id, "password changed");
    Ok(())
}

/// Sets the password of `user`, whose reset code was checked, and ends every session of the
/// account, in one transaction.
pub async fn reset_password(
    store: &Store,
    user: UserId,
    password_hash: &str,
    now: i64,
) -> Result<()> {
    store.set_password(user, password_hash, now).await?;
    tracing::info!(user = %user, "password reset");
    Ok(())
}

/// Points a managed user's avatar at `url` (a picture already stored). Answers the user as
/// they were, whose old picture the caller may now remove.
pub async fn set_avatar(store: &Store, actor: &Actor, id: UserId, url: &str) -> Result<UserRow> {
    let target = managed(store, actor, id).await?;
    store.set_avatar(target.id(), url).await?;
    Ok(target)
}

/// The caller's temperature unit, `C` or `F` (4 `tempUnit` otherwise).
pub async fn set_temp_unit(store: &Store, actor: &Actor, raw: &str) -> Result<()> {
    actor.require_writable()?;
    let unit = TempUnit::parse(raw)?;
    store.set_temp_unit(actor.id, unit.as_str()).await?;
    Ok(())
}
