//! The upload cycle set from the portal: how often the gateway sends telemetry. The portal
//! sends the gateway itself `set_params {"uploadCycle": "<seconds>"}` and waits for its answer;
//! the gateway then reports the new cycle in its status (docs/device-protocol.md, "Status"),
//! which is what the screens show and what the offline rule uses. The portal never assumes a
//! cycle the gateway has not reported.

use std::{ops::RangeInclusive, time::Duration};

use axum::extract::{Path, State};
use domain::{Code, DomainError, command::CommandKind};
use serde::Deserialize;
use serde_json::{Value, json};
use service::gateways::GatewayRef;
use utoipa::ToSchema;

use crate::{
    AppState,
    commands::{self, Command, command_json},
    envelope::{ApiResult, Data, Envelope},
    extract::Body,
    session::CurrentUser,
};

/// The cycles a gateway may be given, in seconds.
pub const UPLOAD_CYCLE_S: RangeInclusive<i64> = 10..=3600;
/// How long the gateway has to answer.
const TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadCycleRequest {
    /// Seconds between telemetry messages, 10 to 3600 (a number or its text).
    #[serde(default, alias = "value")]
    #[schema(value_type = Option<i64>)]
    pub upload_cycle: Option<Value>,
}

/// A cycle as given (a whole number or its text) within [`UPLOAD_CYCLE_S`]; code 4
/// `uploadCycle` otherwise.
pub fn check_cycle(raw: Option<&Value>) -> Result<i64, DomainError> {
    let seconds = match raw {
        Some(Value::Number(n)) => n.as_i64(),
        Some(Value::String(s)) => s.trim().parse::<i64>().ok(),
        _ => None,
    };
    seconds
        .filter(|s| UPLOAD_CYCLE_S.contains(s))
        .ok_or_else(|| DomainError::invalid("uploadCycle"))
}

/// Sets the gateway's upload cycle (parameter-setting permission on its plant; visitors and
/// read-only accounts: 2) and waits for the gateway's answer, which the command carries.
#[utoipa::path(post, path = "/api/v1/gateway/{sn}/uploadCycle", tag = "gateways", params(("sn" = String, Path)),
    request_body = UploadCycleRequest, security(("bearer" = [])),
    responses((status = 200, description = "The set_params command once it ended; 2, 4 uploadCycle, 305, 602 offline, 603 upgrading, 606 connection failed", body = Envelope<Command>)))]
pub async fn set(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Body(req): Body<UploadCycleRequest>,
) -> ApiResult<Data<Command>> {
    let seconds = check_cycle(req.upload_cycle.as_ref())?;
    let seen = service::gateways::acting_on(
        &app.store,
        &me.actor,
        GatewayRef::parse(&sn),
        domain::permissions::INVERTER_SETTING,
    )
    .await?;
    let g = seen.gateway;
    let id = commands::send(
        &app,
        &me,
        domain::audit_action::GATEWAY_UPLOAD_CYCLE,
        &g.sn,
        &g.sn,
        CommandKind::SetParams,
        json!({ "uploadCycle": seconds.to_string() }),
        TIMEOUT,
    )
    .await?;
    let Some(dispatcher) = &app.commands else {
        return Err(Code::ConnectionFailed.into());
    };
    let row = dispatcher
        .wait(id, TIMEOUT + Duration::from_secs(1))
        .await?
        .ok_or(Code::RequestError)?;
    Ok(Data(command_json(&row)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycles_are_10_to_3600_seconds() {
        assert_eq!(check_cycle(Some(&json!(10))), Ok(10));
        assert_eq!(check_cycle(Some(&json!(" 3600"))), Ok(3600));
        for bad in [
            json!(9),
            json!(3601),
            json!(0),
            json!(-300),
            json!(12.5),
            json!("often"),
            json!(null),
        ] {
            assert_eq!(
                check_cycle(Some(&bad)),
                Err(DomainError::invalid("uploadCycle")),
                "{bad}"
            );
        }
        assert!(check_cycle(None).is_err());
    }
}
