//! A person's own account and the accounts they manage: the profile, the password, the avatar,
//! the display preferences and the alarm e-mails. A new password ends every session of the
//! account in the same transaction.

use domain::{
    Code, DomainError, Lang,
    account::{Account, PROFILE_TEXT_MAX, check_password, check_text, parse_email, parse_phone},
    codes::Purpose,
    ids::UserId,
    policy::Actor,
    user::{TempUnit, check_gender, parse_offline_minutes},
    webhook::parse_hhmm,
};
use store::{
    Store,
    users::{NotifyChoice, Profile, QuietChoice, UserRow},
};

use crate::{Result, codes, passwords};

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

/// A forgotten password: sets `password` on `account` with the reset code sent to it, and ends
/// every session of the account. The code is checked first, so a wrong or expired code answers
/// 5 or 6 whether the account exists or not; an account removed since the code was sent
/// answers 105.
pub async fn reset_with_code(
    store: &Store,
    account: &Account,
    password: String,
    code: &str,
    now: i64,
) -> Result<()> {
    check_password(&password)?;
    codes::redeem(store, account.as_str(), Purpose::Reset, code, now).await?;
    let user = store
        .user_by_account(account.as_str())
        .await?
        .ok_or(Code::NotRegistered)?;
    let hash = passwords::hash(password).await?;
    reset_password(store, user.id(), &hash, now).await
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

/// The caller's alarm e-mails as they ask for them.
#[derive(Debug, Clone, Default)]
pub struct NotifyChanges<'a> {
    pub enabled: bool,
    /// May be left out only when turning e-mails off.
    pub email: Option<&'a str>,
    /// The code sent to an address that is neither the account's e-mail nor the confirmed one.
    pub code: Option<&'a str>,
    /// Left out: unchanged.
    pub offline_minutes: Option<&'a str>,
    /// The language the e-mails are written in.
    pub lang: Lang,
    /// Quiet hours; left out: unchanged.
    pub quiet: Option<QuietChanges<'a>>,
}

/// Quiet hours as asked for: `HH:MM` times in an IANA zone. Times or zone left out stay.
#[derive(Debug, Clone, Default)]
pub struct QuietChanges<'a> {
    pub enabled: bool,
    pub from: Option<&'a str>,
    pub to: Option<&'a str>,
    pub zone: Option<&'a str>,
}

/// An `HH:MM` time given, or `current` (minutes of the day) when left out.
fn opt_time(raw: Option<&str>, field: &str, current: i64) -> Result<i64> {
    Ok(match raw.map(str::trim) {
        None | Some("") => current,
        Some(t) => parse_hhmm(t, field)?,
    })
}

/// Turns the caller's abnormal-event e-mails on or off and sets the offline delay (4
/// `offlineMinutes` out of range) and the quiet hours (4 `quietFrom`, `quietTo`,
/// `quietZone`). An address other than the account's own e-mail or the one
/// confirmed before must come with the code sent to it (5, 6).
pub async fn set_notify(
    store: &Store,
    actor: &Actor,
    c: NotifyChanges<'_>,
    now: i64,
) -> Result<()> {
    actor.require_writable()?;
    let me = store.user(actor.id).await?.ok_or(Code::NotRegistered)?;
    let offline_minutes = match c.offline_minutes.map(str::trim) {
        None | Some("") => me.notify_offline_minutes,
        Some(raw) => parse_offline_minutes(raw)?,
    };
    let quiet = match &c.quiet {
        None => None,
        Some(q) => Some((
            q.enabled,
            opt_time(q.from, "quietFrom", me.quiet_from)?,
            opt_time(q.to, "quietTo", me.quiet_to)?,
            match q.zone.map(str::trim) {
                None | Some("") => me.quiet_zone.clone(),
                Some(raw) => crate::quiet_hours::parse_zone(raw)?,
            },
        )),
    };
    let email = match c.email.map(str::trim) {
        None | Some("") if !c.enabled => String::new(),
        raw => parse_email(raw.unwrap_or(""))?,
    };
    let confirmed = email.is_empty() || email == me.email || email == me.notify_email;
    if !confirmed {
        codes::redeem(store, &email, Purpose::Notify, c.code.unwrap_or(""), now).await?;
    }
    let choice = NotifyChoice {
        enabled: c.enabled,
        email: &email,
        offline_minutes,
        lang: c.lang.code(),
    };
    let quiet = quiet.as_ref().map(|(enabled, from, to, zone)| QuietChoice {
        enabled: *enabled,
        from: *from,
        to: *to,
        zone,
    });
    store
        .set_notify_and_quiet(actor.id, &choice, quiet.as_ref())
        .await?;
    Ok(())
}
