//! Inverter parameter settings: what an inverter's family supports, reading its values (from
//! the device when it answers, else the values it last confirmed), writing changes as a
//! `set_params` command the screen follows to applied or failed, and users' custom profiles.
//! The field catalogue and the validation rule live in `domain::settings`.

pub(crate) mod family;
pub(crate) mod offer;
pub(crate) mod profiles;
pub(crate) mod values;
pub(crate) mod wire;

use domain::permissions::INVERTER_SETTING;
use domain::settings::{self, Field, Offer, Raw, original};
use serde_json::Value;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{AppState, envelope::ApiResult, inverters::Inverter, session::CurrentUser};

pub(crate) use offer::offer_of;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(values::support))
        .routes(routes!(values::read))
        .routes(routes!(values::set))
        .routes(routes!(profiles::params))
        .routes(routes!(profiles::list, profiles::save))
        .merge(family::router())
}

/// The largest battery current the inverter's model takes (A): from its rated power, as
/// registered or as its newest report gives it.
async fn amps_max(app: &AppState, inv: &Inverter) -> ApiResult<f64> {
    let rated = if inv.row.rated_power > 0.0 {
        Some(inv.row.rated_power)
    } else {
        inv.latest(app).await?.and_then(|r| r.num("rated_power"))
    };
    Ok(settings::battery_amps_max(inv.kind(), rated))
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

/// The offered values as a read answers them: confirmed values over the defaults, each in
/// the field's own format (a value kept before flags took the original's format reads as it
/// would be written now), with the inverter's `sn`.
fn flat<'a>(
    sn: &str,
    fields: impl IntoIterator<Item = &'a Field>,
    confirmed: &[(String, String)],
) -> wire::SettingValues {
    let mut out = std::collections::BTreeMap::new();
    out.insert("sn".to_string(), sn.to_string());
    for f in fields {
        let value = confirmed
            .iter()
            .find(|(k, _)| *k == f.key)
            .and_then(|(_, v)| f.check(&Raw::Text(v.clone())).ok())
            .unwrap_or_else(|| f.default.clone());
        out.insert(f.key.clone(), value);
    }
    wire::SettingValues(out)
}

/// A settings read as the original answers it: every key of the original (as a device without
/// the setting shows it), the offered values over them, and the slot switches' integer twins
/// (`time1On` = `"1"` when `time1on` is `"true"`). Inverters without settings: the original
/// keys alone.
fn full_read(
    sn: &str,
    offer: Option<&Offer>,
    confirmed: &[(String, String)],
) -> wire::SettingValues {
    let mut out: std::collections::BTreeMap<String, String> = original::KEYS
        .iter()
        .map(|k| (k.to_string(), original::absent(k).to_string()))
        .collect();
    out.insert("sn".to_string(), sn.to_string());
    if let Some(offer) = offer {
        for (k, v) in flat(sn, offer.fields(), confirmed).0 {
            if let Some(twin) = original::twin_of(&k) {
                out.insert(twin, if v == "true" { "1" } else { "0" }.to_string());
            }
            out.insert(k, v);
        }
    }
    wire::SettingValues(out)
}

/// Requires `inverter.setting` on the inverter's plant (visitors and read-only accounts: 2).
fn require_setting(me: &CurrentUser, inv: &Inverter) -> ApiResult<()> {
    crate::commands::require_on(me, inv, INVERTER_SETTING)
}
