//! The parameters custom profiles may hold, and users' custom profiles (docs/overview.md: at
//! most 6 parameters per profile, 6 profiles, chosen from at most 30 parameters). Applying a
//! profile is an ordinary settings write of its values.

use axum::extract::State;
use domain::ids::ProfileId;
use domain::permissions::INVERTER_SETTING;
use domain::settings::{self, Family};
use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Map, Value};
use service::settings::ProfileDraft;
use store::settings::ProfileRow;
use utoipa::{IntoParams, ToSchema};

use super::{
    field_json, offer_of, raw,
    wire::{SelectableParams, SettingProfile},
};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    extract::{Body, Query, num},
    inverters,
    plants::update_at,
    session::CurrentUser,
    users::create_at,
};
use domain::time::now_ms;

#[derive(Debug, Default, Deserialize, IntoParams)]
pub struct ParamsQuery {
    /// The inverter whose family decides the parameters (a 48 V hybrid's when absent).
    #[serde(default, deserialize_with = "num::opt_text")]
    pub sn: Option<String>,
}

/// The parameters custom profiles may choose from.
#[utoipa::path(get, path = "/api/v1/inverter/params", tag = "settings", params(ParamsQuery),
    security(("bearer" = [])),
    responses((status = 200, description = "The selectable fields (at most 30); 600, 601, 605", body = Envelope<SelectableParams>)))]
pub async fn params(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ParamsQuery>,
) -> ApiResult<Data<SelectableParams>> {
    let (family, infos) = match q.sn.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(sn) => {
            let offer = offer_of(&app, &inverters::visible(&app, &me, sn).await?).await?;
            let infos = offer.selectable().map(field_json).collect();
            (offer.family(), infos)
        }
        None => {
            me.actor.require(domain::permissions::INVERTER_VIEW)?;
            let family = Family::HybridLv;
            (family, family.selectable().map(field_json).collect())
        }
    };
    Ok(Data(SelectableParams {
        family: family.into(),
        max_params: settings::PROFILE_PARAMS,
        max_profiles: settings::PROFILES,
        infos,
    }))
}

/// A stored profile's values: an object of strings (what a save writes); a number or flag
/// from elsewhere reads as its text.
fn stored_params(raw: &str) -> Option<BTreeMap<String, String>> {
    let map: Map<String, Value> = serde_json::from_str(raw).ok()?;
    Some(
        map.into_iter()
            .map(|(k, v)| {
                let text = match v {
                    Value::String(s) => s,
                    other => other.to_string(),
                };
                (k, text)
            })
            .collect(),
    )
}

fn profile_json(p: &ProfileRow) -> SettingProfile {
    SettingProfile {
        id: p.id.0,
        name: p.name.clone(),
        params: stored_params(&p.params),
        create_at: create_at(p.created_at),
        update_at: update_at(p.updated_at),
    }
}

/// The caller's profiles.
#[utoipa::path(get, path = "/api/v1/inverter/params/custom", tag = "settings", security(("bearer" = [])),
    responses((status = 200, description = "The caller's profiles; 2", body = Envelope<Vec<SettingProfile>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
) -> ApiResult<Data<Vec<SettingProfile>>> {
    me.actor.require(INVERTER_SETTING)?;
    let rows = app.store.setting_profiles(me.id()).await?;
    Ok(Data(rows.iter().map(profile_json).collect()))
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

/// Adds, changes or deletes one of the caller's profiles; answers the profile (or null when
/// deleted). 4 `name` (1-32 characters, unique per user), 4 `params` (1 to 6 parameters) or
/// the parameter's key when not selectable or out of range, 4 `profiles` beyond 6 profiles.
#[utoipa::path(post, path = "/api/v1/inverter/params/custom", tag = "settings", request_body = ProfileBody,
    security(("bearer" = [])),
    responses((status = 200, description = "The profile, or null after a delete; 2, 4", body = Envelope<Option<SettingProfile>>)))]
pub async fn save(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(b): Body<ProfileBody>,
) -> ApiResult<Data<Option<SettingProfile>>> {
    if b.delete == Some(true) {
        service::settings::delete_profile(&app.store, &me.actor, b.id.map(ProfileId)).await?;
        return Ok(Data(None));
    }
    let params: Vec<(String, domain::settings::Raw)> = b
        .params
        .unwrap_or_default()
        .iter()
        .map(|(k, v)| (k.clone(), raw(v)))
        .collect();
    let draft = ProfileDraft {
        id: b.id.map(ProfileId),
        name: b.name.as_deref().unwrap_or_default(),
        params: &params,
    };
    let row = service::settings::save_profile(&app.store, &me.actor, &draft, now_ms()).await?;
    Ok(Data(Some(profile_json(&row))))
}
