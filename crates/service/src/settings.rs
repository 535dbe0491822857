//! Users' custom setting profiles (docs/overview.md: at most 6 parameters per profile, 6
//! profiles): adding, changing and deleting one's own. Applying a profile is an ordinary
//! settings command, not a use case of its own.

use domain::ids::ProfileId;
use domain::permissions::INVERTER_SETTING;
use domain::{
    Code, DomainError,
    policy::Actor,
    settings::{PROFILES, Raw, check_profile, check_profile_name},
};
use serde_json::{Map, Value};
use store::settings::ProfileRow;

use crate::Result;

/// A profile to add (`id` absent) or change.
#[derive(Debug, Clone)]
pub struct ProfileDraft<'a> {
    pub id: Option<ProfileId>,
    pub name: &'a str,
    /// Setting key to value, as the request sent them.
    pub params: &'a [(String, Raw)],
}

/// Keeping profiles takes the permission that lets an account write settings.
fn may_keep_profiles(actor: &Actor) -> Result<()> {
    actor.require_writable()?;
    actor.require(INVERTER_SETTING)?;
    Ok(())
}

/// Adds or changes one of the actor's profiles and answers it as stored. 4 `name` (1-32
/// characters, unique per user), 4 `params` (1 to 6 parameters) or the parameter's key when
/// not selectable or out of range, 4 `profiles` beyond 6 profiles, 4 `id` for a profile the
/// actor does not have.
pub async fn save_profile(
    store: &store::Store,
    actor: &Actor,
    draft: &ProfileDraft<'_>,
    now: i64,
) -> Result<ProfileRow> {
    may_keep_profiles(actor)?;
    let user = actor.id;
    let name = check_profile_name(draft.name)?;
    let values: Map<String, Value> = check_profile(draft.params)?
        .into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    let params = Value::Object(values).to_string();
    let id = match draft.id {
        Some(id) => {
            if !store
                .update_setting_profile(user, id, &name, &params, now)
                .await?
            {
                return Err(DomainError::invalid("id").into());
            }
            id
        }
        None => store
            .create_setting_profile(user, &name, &params, PROFILES as i64, now)
            .await?
            .ok_or_else(|| {
                DomainError::with_detail(
                    Code::InvalidParameter,
                    format!("profiles: at most {PROFILES}"),
                )
            })?,
    };
    Ok(store
        .setting_profiles(user)
        .await?
        .into_iter()
        .find(|p| p.id == id)
        .ok_or_else(|| DomainError::invalid("id"))?)
}

/// Deletes one of the actor's profiles; 4 `id` when they have no such profile.
pub async fn delete_profile(
    store: &store::Store,
    actor: &Actor,
    id: Option<ProfileId>,
) -> Result<()> {
    may_keep_profiles(actor)?;
    let id = id.ok_or_else(|| DomainError::invalid("id"))?;
    if !store.delete_setting_profile(actor.id, id).await? {
        return Err(DomainError::invalid("id").into());
    }
    Ok(())
}
