//! Sending a dispatch's `set_params` through the command path on nobody's behalf: the same
//! state checks as a user's write, and an audit entry by the account "system" naming the
//! event, filed under the inverter's plant.

use std::time::Duration;

use domain::{Code, Lang, command::CommandKind};
use serde_json::{Map, Value, json};
use service::commands;
use store::{audit::NewAudit, energy_hub::dispatch::DispatchDevice, log_pages::Author};

use domain::time::now_ms;
use service::{ServiceError, audit};

use crate::Context;

/// How long an inverter has to apply a dispatch.
pub(crate) const TIMEOUT: Duration = Duration::from_secs(60);

/// The account the audit log names for the dispatch job.
pub(crate) const SYSTEM: &str = "system";

/// Why a command did not go out.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Refused {
    /// The inverter (or its gateway) is offline.
    pub offline: bool,
    pub error: String,
}

/// Sends `params` to `dev` for `event` and records `action` (`energyhub.dispatch` or
/// `energyhub.restore`). Answers the command id.
pub(crate) async fn set_params(
    ctx: &Context,
    dev: &DispatchDevice,
    action: &str,
    event: Option<i64>,
    params: Map<String, Value>,
) -> Result<i64, Refused> {
    let params = Value::Object(params);
    let outcome = match (
        commands::admit(CommandKind::SetParams, dev.status),
        dev.gateway_sn.as_deref(),
    ) {
        (Err(e), _) => Err(e.into()),
        (Ok(()), None) => Err(ServiceError::from(Code::DeviceOffline)),
        (Ok(()), Some(gateway_sn)) => {
            let to = commands::Target {
                gateway_sn,
                device_sn: &dev.sn,
            };
            commands::send(
                ctx.commands.as_ref(),
                to,
                CommandKind::SetParams,
                params.clone(),
                TIMEOUT,
            )
            .await
        }
    };
    let mut detail = json!({"kind": "set_params", "params": params, "event": event});
    let (res, answer) = match outcome {
        Ok(id) => {
            detail["commandId"] = json!(id);
            (audit::SENT, Ok(id))
        }
        Err(ServiceError::Refused(e)) => {
            detail["reason"] = json!(e.code.number());
            let refused = Refused {
                offline: e.code == Code::DeviceOffline,
                error: format!("{} ({})", e.code.message(Lang::En), e.code.number()),
            };
            (audit::REFUSED, Err(refused))
        }
        Err(e) => {
            tracing::error!(error = %e, sn = %dev.sn, "dispatch command not sent");
            let refused = Refused {
                offline: false,
                error: "the command could not be sent".into(),
            };
            (audit::FAILED, Err(refused))
        }
    };
    record(ctx, dev, action, &detail, res).await;
    answer
}

async fn record(ctx: &Context, dev: &DispatchDevice, action: &str, detail: &Value, res: &str) {
    let entry = NewAudit {
        by: Author {
            user_id: None,
            account: SYSTEM,
            actor_company_id: None,
            plant_id: dev.plant_id,
            plant_owner_id: dev.plant_owner,
            plant_company_id: dev.plant_company,
        },
        action,
        target: &dev.sn,
        detail: &detail.to_string(),
        result: res,
        command_id: detail.get("commandId").and_then(Value::as_i64),
        now: now_ms(),
    };
    if let Err(e) = ctx.store.insert_audit(&entry).await {
        tracing::error!(error = %e, action, sn = %dev.sn, "audit entry not written");
    }
}
