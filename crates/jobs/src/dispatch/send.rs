//! A dispatch's `set_params` as the job sees its outcome: the command id, or why it did not
//! go out. Sending and its audit entry are the use case's (`service::energy_hub::dispatch`).

use domain::ids::{CommandId, HubEventId};
use domain::{Code, Lang};
use serde_json::{Map, Value};
use service::{ServiceError, energy_hub::dispatch};
use store::energy_hub::dispatch::DispatchDevice;

use domain::time::now_ms;

use crate::Context;

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
    event: Option<HubEventId>,
    params: Map<String, Value>,
) -> Result<CommandId, Refused> {
    let link = ctx.commands.as_ref();
    let sent = dispatch::set_params(&ctx.store, link, dev, action, event, params, now_ms()).await;
    sent.map_err(|e| match e {
        ServiceError::Refused(e) => Refused {
            offline: e.code == Code::DeviceOffline,
            error: format!("{} ({})", e.code.message(Lang::En), e.code.number()),
        },
        e => {
            tracing::error!(error = %e, sn = %dev.sn, "dispatch command not sent");
            Refused {
                offline: false,
                error: "the command could not be sent".into(),
            }
        }
    })
}
