//! Inverter parameter settings: what an inverter's family supports, reading its values (from
//! the device when it answers, else the values it last confirmed), writing changes as a
//! `set_params` command the screen follows to applied or failed, and users' custom profiles.
//! The field catalogue and the validation rule live in `domain::settings`.

pub(crate) mod profiles;
pub(crate) mod values;
pub(crate) mod wire;

use domain::{
    DomainError,
    settings::{Family, Field, Raw},
};
use serde_json::{Map, Value};
use service::settings::SETTING_KEY;
use store::commands::{CommandRow, CommandStatus};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{AppState, envelope::ApiResult, inverters::Inverter, session::CurrentUser};

pub(crate) use values::remember_applied;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(values::support))
        .routes(routes!(values::read))
        .routes(routes!(values::set))
        .routes(routes!(profiles::params))
        .routes(routes!(profiles::list, profiles::save))
}

/// The settings family of an inverter (601 for other brands, 605 without settings).
fn family_of(inv: &Inverter) -> Result<Family, DomainError> {
    Family::of(inv.row.type_code, &inv.row.protocol)
}

/// A JSON value as the validation rule reads it.
fn raw(v: &Value) -> Raw {
    match v {
        Value::String(s) => Raw::Text(s.clone()),
        Value::Number(n) => Raw::Text(n.to_string()),
        Value::Bool(b) => Raw::Bool(*b),
        _ => Raw::Other,
    }
}

/// A field as the screens build their forms from it.
fn field_json(f: &Field) -> wire::SettingField {
    f.into()
}

/// The values a reply or a command carried, as strings, keeping only the family's keys.
fn known_values(family: Family, data: &Map<String, Value>) -> Vec<(String, String)> {
    data.iter()
        .filter(|(k, _)| family.field(k).is_some())
        .filter_map(|(k, v)| {
            let text = match v {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                _ => return None,
            };
            Some((k.clone(), text))
        })
        .collect()
}

/// A succeeded `set_params` command's values (what the device confirmed).
fn applied(c: &CommandRow) -> Option<Map<String, Value>> {
    if c.kind != "set_params" || c.status() != CommandStatus::Succeeded {
        return None;
    }
    serde_json::from_str::<Value>(&c.params)
        .ok()?
        .as_object()
        .cloned()
}

/// Every value of the family as a read answers it: confirmed values over the defaults, all
/// strings, with the inverter's `sn`.
fn flat(sn: &str, family: Family, confirmed: &[(String, String)]) -> wire::SettingValues {
    let mut out = std::collections::BTreeMap::new();
    out.insert("sn".to_string(), sn.to_string());
    for f in family.fields() {
        let value = confirmed
            .iter()
            .find(|(k, _)| *k == f.key)
            .map_or(f.default.clone(), |(_, v)| v.clone());
        out.insert(f.key.clone(), value);
    }
    wire::SettingValues(out)
}

/// Requires `inverter.setting` on the inverter's plant (visitors and read-only accounts: 2).
fn require_setting(me: &CurrentUser, inv: &Inverter) -> ApiResult<()> {
    crate::commands::require_on(me, inv, SETTING_KEY)
}
