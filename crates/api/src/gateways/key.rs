//! A gateway's registration key: its MQTT password, so a secret. Only those who may edit the
//! gateway read it (never in lists, never sharees), and they may rotate it: the portal sends the
//! gateway its next key on its command topic, and the old key stops working as soon as the
//! gateway has taken the new one (its reply, or its first sign-in with it; see the broker).

use std::time::Duration;

use axum::extract::{Path, State};
use domain::{Code, policy::GatewayScope};
use rand::{Rng, distributions::Alphanumeric};
use serde::Serialize;
use serde_json::json;
use store::{commands::CommandStatus, gateways::GatewayRow};
use utoipa::ToSchema;

use super::visible;
use crate::{
    AppState, audit,
    envelope::{ApiError, ApiResult, Data, Envelope},
    session::CurrentUser,
};
use domain::time::now_ms;

/// How long the gateway has to confirm that it stored its new key.
const ROTATE_TIMEOUT: Duration = Duration::from_secs(15);
/// Length of a generated key: 16 letters and digits (95 bits), within the 4-32 keys accept.
const KEY_LEN: usize = 16;
const ACTION: &str = "gateway.key.rotate";

/// Whether `me` may read and rotate the key of `g`. A gateway on a plant the caller cannot see
/// is never theirs to edit, whoever holds it.
pub(crate) fn may_edit(me: &CurrentUser, g: &GatewayRow, scope: &GatewayScope) -> bool {
    !(g.plant_id.is_some() && scope.plant.is_none()) && me.actor.may_edit_gateway_key(scope)
}

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
    let (g, scope, _) = visible(&app, &me, &id).await?;
    if !may_edit(&me, &g, &scope) {
        return Err(Code::NoPermission.into());
    }
    let Some(dispatcher) = &app.commands else {
        return Err(Code::ConnectionFailed.into());
    };
    let key = new_key();
    app.store
        .set_pending_gateway_key(g.id, &key, now_ms())
        .await?;
    let sent = dispatcher
        .send_secret(
            &g.sn,
            &g.sn,
            "rotate_key",
            json!({"key": key}),
            ROTATE_TIMEOUT,
        )
        .await;
    let id = match sent {
        Ok(id) => id,
        Err(e) => {
            app.store.drop_pending_gateway_key(g.id, &key).await?;
            let e = ApiError::from(service::commands::refusal(e));
            let reason = match &e {
                ApiError::Domain(d) => d.code.number(),
                _ => Code::CommandFailed.number(),
            };
            let detail = json!({"reason": reason});
            audit::record(&app, &me, ACTION, &g.sn, detail, audit::result::REFUSED).await;
            return Err(e);
        }
    };
    audit::record(
        &app,
        &me,
        ACTION,
        &g.sn,
        json!({"commandId": id}),
        audit::result::SENT,
    )
    .await;
    let row = dispatcher
        .wait(id, ROTATE_TIMEOUT + Duration::from_secs(1))
        .await?
        .ok_or_else(|| ApiError::internal("key rotation", "command row missing"))?;
    let status = match row.status() {
        CommandStatus::Succeeded => {
            if !app
                .store
                .take_pending_gateway_key(g.id, &key, now_ms())
                .await?
            {
                // Taken already by the gateway's sign-in with it, or replaced by a newer
                // rotation: only the first is this one's success.
                let current = app.store.gateway(g.id).await?;
                if current.is_none_or(|c| c.reg_key != key) {
                    return Err(Code::KeyNotTaken.into());
                }
            }
            tracing::info!(gateway = g.id, sn = %g.sn, by = %me.id(), "gateway key rotated");
            RotateStatus::Succeeded
        }
        CommandStatus::Failed => {
            app.store.drop_pending_gateway_key(g.id, &key).await?;
            return Err(Code::KeyNotTaken.into());
        }
        // No answer: the gateway may have stored the key and lost its reply, so the key stays
        // pending (accepted beside the old one) rather than locking the gateway out.
        _ => RotateStatus::Pending,
    };
    Ok(Data(RotatedKey {
        key,
        status,
        command_id: id,
    }))
}

fn new_key() -> String {
    rand::rngs::OsRng
        .sample_iter(&Alphanumeric)
        .take(KEY_LEN)
        .map(char::from)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_keys_are_valid_registration_keys_and_differ() {
        let (a, b) = (new_key(), new_key());
        assert_eq!(a.len(), KEY_LEN);
        assert!(super::super::parse_new_key(Some(&a)).is_ok());
        assert_ne!(a, b);
    }
}
