//! The parameters custom profiles may hold, and users' custom profiles (docs/overview.md: at
//! most 6 parameters per profile, 6 profiles, chosen from at most 30 parameters). Applying a
//! profile is an ordinary settings write of its values.

use axum::extract::State;
use domain::{
    Code, DomainError,
    settings::{self, Family},
};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use store::{StoreError, settings::ProfileRow};
use utoipa::{IntoParams, ToSchema};

use super::{SETTING_KEY, family_of, field_json, raw};
use crate::{
    AppState,
    envelope::{ApiResult, Data},
    extract::{Body, Query, num},
    inverters, now_ms,
    plants::update_at,
    session::CurrentUser,
    users::create_at,
};

const NAME_MAX: usize = 32;

#[derive(Debug, Default, Deserialize, IntoParams)]
pub struct ParamsQuery {
    /// The inverter whose family decides the parameters (a 48 V hybrid's when absent).
    #[serde(default, deserialize_with = "num::opt_text")]
    pub sn: Option<String>,
}

/// The parameters custom profiles may choose from.
#[utoipa::path(get, path = "/api/v1/inverter/params", tag = "settings", params(ParamsQuery),
    security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {family, maxParams: 6, maxProfiles: 6, infos:[field]} (at most 30 fields); 600, 601, 605")))]
pub async fn params(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ParamsQuery>,
) -> ApiResult<Data<Value>> {
    let family = match q.sn.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(sn) => family_of(&inverters::visible(&app, &me, sn).await?)?,
        None => {
            me.actor.require("inverter.view")?;
            Family::HybridLv
        }
    };
    let infos: Vec<Value> = family.selectable().map(field_json).collect();
    Ok(Data(json!({
        "family": family,
        "maxParams": settings::PROFILE_PARAMS,
        "maxProfiles": settings::PROFILES,
        "infos": infos,
    })))
}

fn profile_json(p: &ProfileRow) -> Value {
    json!({
        "id": p.id,
        "name": p.name,
        "params": serde_json::from_str::<Value>(&p.params).unwrap_or(Value::Null),
        "createAt": create_at(p.created_at),
        "updateAt": update_at(p.updated_at),
    })
}

/// The caller's profiles.
#[utoipa::path(get, path = "/api/v1/inverter/params/custom", tag = "settings", security(("bearer" = [])),
    responses((status = 200, description = "Envelope with [{id, name, params:{key: value}, createAt, updateAt}]; 2")))]
pub async fn list(State(app): State<AppState>, me: CurrentUser) -> ApiResult<Data<Value>> {
    me.actor.require(SETTING_KEY)?;
    let rows = app.store.setting_profiles(me.id().0).await?;
    Ok(Data(Value::Array(rows.iter().map(profile_json).collect())))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ProfileBody {
    /// An existing profile to change (or delete); absent to add one.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub id: Option<i64>,
    #[serde(default, deserialize_with = "num::opt_text")]
    pub name: Option<String>,
    /// Setting key to value (1 to 6 of the selectable parameters).
    #[serde(default)]
    pub params: Option<Map<String, Value>>,
    /// With `id`: removes the profile.
    #[serde(default, deserialize_with = "num::opt_bool")]
    pub delete: Option<bool>,
}

fn parse_name(raw: Option<&str>) -> Result<String, DomainError> {
    let name = raw.map(str::trim).unwrap_or_default();
    if name.is_empty() || name.chars().count() > NAME_MAX {
        return Err(DomainError::invalid("name"));
    }
    Ok(name.to_string())
}

/// Adds, changes or deletes one of the caller's profiles; answers the profile (or null when
/// deleted). 4 `name` (1-32 characters, unique per user), 4 `params` (1 to 6 parameters) or
/// the parameter's key when not selectable or out of range, 4 `profiles` beyond 6 profiles.
#[utoipa::path(post, path = "/api/v1/inverter/params/custom", tag = "settings", request_body = ProfileBody,
    security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {id, name, params, createAt, updateAt} or null after a delete; 2, 4")))]
pub async fn save(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(b): Body<ProfileBody>,
) -> ApiResult<Data<Value>> {
    me.actor.require_writable()?;
    me.actor.require(SETTING_KEY)?;
    let user = me.id().0;
    if b.delete == Some(true) {
        let id = b.id.ok_or_else(|| DomainError::invalid("id"))?;
        if !app.store.delete_setting_profile(user, id).await? {
            return Err(DomainError::invalid("id").into());
        }
        return Ok(Data(Value::Null));
    }
    let name = parse_name(b.name.as_deref())?;
    let pairs: Vec<(String, domain::settings::Raw)> = b
        .params
        .unwrap_or_default()
        .iter()
        .map(|(k, v)| (k.clone(), raw(v)))
        .collect();
    let values: Map<String, Value> = settings::check_profile(&pairs)?
        .into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    let params = Value::Object(values).to_string();
    let now = now_ms();
    let taken = |e: StoreError| match e {
        StoreError::Conflict(_) => DomainError::invalid("name").into(),
        other => crate::envelope::ApiError::from(other),
    };
    let id = match b.id {
        Some(id) => {
            if !app
                .store
                .update_setting_profile(user, id, &name, &params, now)
                .await
                .map_err(taken)?
            {
                return Err(DomainError::invalid("id").into());
            }
            id
        }
        None => app
            .store
            .create_setting_profile(user, &name, &params, settings::PROFILES as i64, now)
            .await
            .map_err(taken)?
            .ok_or_else(|| {
                DomainError::with_detail(
                    Code::InvalidParameter,
                    format!("profiles: at most {}", settings::PROFILES),
                )
            })?,
    };
    let row = app
        .store
        .setting_profiles(user)
        .await?
        .into_iter()
        .find(|p| p.id == id)
        .ok_or_else(|| DomainError::invalid("id"))?;
    Ok(Data(profile_json(&row)))
}
