//! The communication log: what each gateway sent and was sent over MQTT, as the device link
//! captured it (see `devices::link::comm_log`). Gateways with their stored message counts, one
//! gateway's messages, and one message's payload.
//!
//! Who reads it: callers holding `logger.communication`; internal staff also need
//! `logger.management` and then read every gateway; anyone else reads the gateways the gateway
//! visibility rules let them see. A gateway (or message) the caller may not see answers like a
//! missing one: code 4 with the field named.

pub(crate) mod gateways;
pub(crate) mod messages;

use domain::{Code, DomainError, ids::GatewayId, policy::Actor};
use service::{ServiceError, gateways::GatewayRef};
use store::{gateways::GatewayRow, plants::PlantRow};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{AppState, envelope::ApiResult, session::CurrentUser};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(gateways::list))
        .routes(routes!(gateways::of_plant))
        .routes(routes!(gateways::of_device))
        .routes(routes!(messages::page))
        .routes(routes!(messages::content))
}

/// Refuses callers who may not read the communication log (code 2).
pub(crate) fn require_reader(actor: &Actor) -> Result<(), DomainError> {
    actor.require(domain::permissions::LOGGER_COMMUNICATION)?;
    if actor.is_internal() {
        actor.require(domain::permissions::LOGGER_MANAGEMENT)?;
    }
    Ok(())
}

/// A gateway the caller may see (by id or SN), with its plant; code 4 `field` otherwise.
pub(crate) async fn visible_gateway(
    app: &AppState,
    me: &CurrentUser,
    gateway: GatewayRef<'_>,
    field: &str,
) -> ApiResult<(GatewayRow, Option<PlantRow>)> {
    match service::gateways::visible(&app.store, &me.actor, gateway).await {
        Ok(seen) => Ok((seen.gateway, seen.plant)),
        Err(ServiceError::Refused(e)) if e.code == Code::GatewayMissing => {
            Err(DomainError::invalid(field).into())
        }
        Err(e) => Err(e.into()),
    }
}

/// [`visible_gateway`] by id.
pub(crate) async fn visible_gateway_id(
    app: &AppState,
    me: &CurrentUser,
    id: GatewayId,
    field: &str,
) -> ApiResult<(GatewayRow, Option<PlantRow>)> {
    visible_gateway(app, me, GatewayRef::Id(id), field).await
}
