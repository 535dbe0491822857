//! A gateway's registration key: its MQTT password, so a secret. Only those who may edit the
//! gateway read it (never in lists, never sharees), and they may rotate it: the portal sends the
//! gateway its next key on its command topic, and the old key stops working as soon as the
//! gateway has taken the new one (its reply, or its first sign-in with it; see the broker).

use axum::extract::{Path, State};
use serde::Serialize;
use service::gateways::{GatewayRef, key};
use utoipa::ToSchema;

use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    session::CurrentUser,
};
use domain::time::now_ms;

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RotatedKey {
    /// The gateway's key from now on.
    pub key: String,
    pub status: RotateStatus,
    pub command_id: i64,
}

/// Where a rotation stands when its request returns.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum RotateStatus {
    /// The gateway confirmed it stored the new key.
    Succeeded,
    /// The gateway has not answered yet (the broker accepts both keys until the gateway signs
    /// in with the new one).
    Pending,
}

/// Gives a gateway a new registration key (`gateway.key` on its plant; its holder or registry
/// rights for a gateway on no plant). The gateway must be online to be told.
#[utoipa::path(post, path = "/api/v1/gateway/{id}/key/rotate", tag = "gateways",
    params(("id" = String, Path, description = "id or SN")), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with {key, status: succeeded|pending, commandId}; 2, 305, 602 offline, 606 connection failed, 609 the gateway refused the key", body = Envelope<RotatedKey>)))]
pub async fn rotate(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<RotatedKey>> {
    let gateway = GatewayRef::parse(&id);
    let link = app.commands.as_ref();
    let r = key::rotate(&app.store, link, &me.actor, gateway, now_ms).await?;
    Ok(Data(RotatedKey {
        key: r.key,
        status: if r.confirmed {
            RotateStatus::Succeeded
        } else {
            RotateStatus::Pending
        },
        command_id: r.command_id.0,
    }))
}
