//! Gateways (data loggers): the factory registry, claiming a gateway with its SN and
//! registration key (one, or a batch from a spreadsheet), binding it to a plant, listing,
//! detail, unbinding and removal. Who may see and take a gateway is decided by
//! `domain::policy`; a gateway the caller may not see answers 305 exactly like a missing one.

pub(crate) mod actions;
pub(crate) mod batch;
pub(crate) mod claim;
pub(crate) mod download;
pub(crate) mod key;
pub(crate) mod list;
pub(crate) mod register_import;
pub(crate) mod registry;
pub(crate) mod sheet;
pub(crate) mod template;
pub(crate) mod upload_cycle;
pub(crate) mod wire;

use domain::{DomainError, policy::GatewayScope};
use service::gateways::GatewayRef;
use store::{gateways::GatewayRow, plants::PlantRow};
use utoipa_axum::{
    router::{OpenApiRouter, UtoipaMethodRouterExt},
    routes,
};

use crate::{AppState, envelope::ApiResult, session::CurrentUser};

pub const SN_MIN: usize = 6;
pub const SN_MAX: usize = 32;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(registry::create))
        .routes(routes!(registry::check))
        .routes(routes!(registry::check_path))
        .routes(routes!(registry::delete))
        .routes(routes!(claim::check_one))
        .routes(routes!(claim::import_one))
        .routes(routes!(claim::bind_to_plant))
        .routes(routes!(batch::check).layer(crate::limits::upload(sheet::IMPORT_MAX_BYTES)))
        .routes(routes!(batch::import).layer(crate::limits::upload(sheet::IMPORT_MAX_BYTES)))
        .routes(routes!(register_import::batch))
        .routes(routes!(template::template))
        .routes(routes!(registry::customer))
        .routes(routes!(list::list))
        .routes(routes!(list::count))
        .routes(routes!(download::download))
        .routes(routes!(list::detail))
        .routes(routes!(list::unbind))
        .routes(routes!(key::rotate))
        .merge(actions_router())
}

/// Gateway actions of issue 7 (see `actions`).
fn actions_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(actions::restart))
        .routes(routes!(actions::batch_restart))
        .routes(routes!(actions::batch_check))
        .routes(routes!(actions::replace))
        .routes(routes!(actions::update_protocol))
        .routes(routes!(actions::settings_switch))
        .routes(routes!(upload_cycle::set))
        .routes(routes!(actions::debug))
        .routes(routes!(actions::debug_reply))
}

/// A serial number: letters, digits and `-`, 6 to 32 characters. Missing answers code 4 `sn`.
pub fn parse_sn(raw: Option<&str>) -> Result<String, DomainError> {
    let sn = raw.map(str::trim).unwrap_or_default();
    let ok = (SN_MIN..=SN_MAX).contains(&sn.len())
        && sn.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    if ok {
        Ok(sn.to_string())
    } else {
        Err(DomainError::invalid("sn"))
    }
}

/// A registration key as a gateway has it: 4 to 32 visible ASCII characters (keys set before
/// the stronger rule still claim). Missing answers code 4 `key`.
pub fn parse_key(raw: Option<&str>) -> Result<String, DomainError> {
    let key = raw.map(str::trim).unwrap_or_default();
    if domain::gateway_key::is_key(key) {
        Ok(key.to_string())
    } else {
        Err(DomainError::invalid("key"))
    }
}

/// A registration key being set now: also strong enough (`domain::gateway_key`), else code 4
/// `key`.
pub fn parse_new_key(raw: Option<&str>) -> Result<String, DomainError> {
    let key = parse_key(raw)?;
    if domain::gateway_key::is_strong_new_key(&key) {
        Ok(key)
    } else {
        Err(DomainError::invalid("key"))
    }
}

/// Refuses callers whose role grants none of `keys` (code 2).
fn require_any(me: &CurrentUser, keys: &[&str]) -> ApiResult<()> {
    Ok(service::gateways::require_any(&me.actor, keys)?)
}

/// The gateway named by a path segment (its id, or its SN when not a number) if the caller may
/// see it; 305 otherwise (see `service::gateways::visible`).
pub(crate) async fn visible(
    app: &AppState,
    me: &CurrentUser,
    raw: &str,
) -> ApiResult<(GatewayRow, GatewayScope, Option<PlantRow>)> {
    let seen = service::gateways::visible(&app.store, &me.actor, GatewayRef::parse(raw)).await?;
    Ok((seen.gateway, seen.scope, seen.plant))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serial_numbers_are_letters_digits_and_dashes_of_6_to_32() {
        assert_eq!(parse_sn(Some(" GW-2024-01 ")).as_deref(), Ok("GW-2024-01"));
        assert!(parse_sn(Some("GW01")).is_err(), "too short");
        assert!(parse_sn(Some(&"A".repeat(33))).is_err(), "too long");
        assert!(parse_sn(Some("GW 0001")).is_err(), "space");
        assert!(parse_sn(Some("GW_0001")).is_err(), "underscore");
        assert_eq!(parse_sn(None).unwrap_err().detail.as_deref(), Some("sn"));
    }

    #[test]
    fn keys_are_4_to_32_visible_characters() {
        assert!(parse_key(Some("k3y!")).is_ok());
        assert!(parse_key(Some("abc")).is_err());
        assert!(parse_key(Some("ab cd")).is_err());
        assert_eq!(
            parse_key(Some("")).unwrap_err().detail.as_deref(),
            Some("key")
        );
    }
}
