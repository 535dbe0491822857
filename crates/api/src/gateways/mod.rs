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
pub(crate) mod registry;

use axum::{
    Router,
    routing::{get, post},
};
use domain::{DomainError, policy::GatewayScope};
use service::gateways::GatewayRef;
use store::{gateways::GatewayRow, plants::PlantRow};

use crate::{AppState, envelope::ApiResult, session::CurrentUser};

pub const SN_MIN: usize = 6;
pub const SN_MAX: usize = 32;
pub const KEY_MIN: usize = 4;
pub const KEY_MAX: usize = 32;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/gateway/create", post(registry::create))
        .route("/api/v1/gateways/check", post(registry::check))
        .route("/api/v1/gateway/{sn}/check", post(registry::check_path))
        .route("/api/v1/gateway/{id}/delete", get(registry::delete))
        .route("/api/v1/gateway/import/one/check", post(claim::check_one))
        .route("/api/v1/gateway/import/one", post(claim::import_one))
        .route("/api/v1/plant/{id}/gateway", post(claim::bind_to_plant))
        .route(
            "/api/v1/gateway/import/check",
            post(batch::check).layer(crate::limits::upload(batch::IMPORT_MAX_BYTES)),
        )
        .route(
            "/api/v1/gateway/import/batch",
            post(batch::import).layer(crate::limits::upload(batch::IMPORT_MAX_BYTES)),
        )
        .route("/api/v1/gateways", get(list::list))
        .route("/api/v1/gateways/count", get(list::count))
        .route("/api/v1/gateways/downLoad", get(download::download))
        .route("/api/v1/gateway/{id}", get(list::detail))
        .route("/api/v1/gateway/{id}/unbind", post(list::unbind))
        .route("/api/v1/gateway/{id}/key/rotate", post(key::rotate))
        .merge(actions_router())
}

/// Gateway actions of issue 7 (see `actions`).
fn actions_router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/gateway/{gsns}/restart", post(actions::restart))
        .route("/api/v1/batch/restart", post(actions::batch_restart))
        .route("/api/v1/gateways/batch/check", post(actions::batch_check))
        .route("/api/v1/gateway/replace", post(actions::replace))
        .route(
            "/api/v1/gateway/updateGatewayProtocol",
            post(actions::update_protocol),
        )
        .route(
            "/api/v1/gateway/{sn}/settings/switch",
            post(actions::settings_switch),
        )
        .route("/api/v1/gateway/{sn}/debug", post(actions::debug))
        .route("/api/gate/{sn}/debug/reply", get(actions::debug_reply))
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

/// A registration key: 4 to 32 visible ASCII characters. Missing answers code 4 `key`.
pub fn parse_key(raw: Option<&str>) -> Result<String, DomainError> {
    let key = raw.map(str::trim).unwrap_or_default();
    let ok = (KEY_MIN..=KEY_MAX).contains(&key.len()) && key.bytes().all(|b| b.is_ascii_graphic());
    if ok {
        Ok(key.to_string())
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
