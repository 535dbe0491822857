//! The demand-response dispatch's one write (the job itself, with its schedule and state, is
//! `jobs::dispatch`): a `set_params` to an enrolled inverter on nobody's behalf, through the
//! same state checks and command path as a user's write, its audit entry by the account
//! "system" naming the event and filed under the inverter's plant.

use domain::ids::CommandId;
use domain::ids::HubEventId;
use std::time::Duration;

use devices::link::Dispatcher;
use domain::command::CommandKind;
use serde_json::{Map, Value, json};
use store::{Store, energy_hub::dispatch::DispatchDevice, log_pages::Author};

use crate::{
    Result, audit,
    commands::{self, Order, Recipient, Sender},
};

/// How long an inverter has to apply a dispatch.
pub const TIMEOUT: Duration = Duration::from_secs(60);

impl<'a> From<&'a DispatchDevice> for Recipient<'a> {
    fn from(d: &'a DispatchDevice) -> Self {
        Recipient {
            sn: &d.sn,
            gateway_sn: d.gateway_sn.as_deref(),
            status: d.status,
        }
    }
}

/// Sends `params` to `dev` for `event` and records `action` (`energyhub.dispatch` or `energyhub.restore`) with
/// the command, or alone when it was refused. Answers the command id.
pub async fn set_params(
    store: &Store,
    dispatcher: Option<&Dispatcher>,
    dev: &DispatchDevice,
    action: &str,
    event: Option<HubEventId>,
    params: Map<String, Value>,
    now: i64,
) -> Result<CommandId> {
    let order = Order {
        action,
        kind: CommandKind::SetParams,
        params: Value::Object(params),
        timeout: TIMEOUT,
        note: json!({"event": event}),
    };
    let by = Author {
        plant_id: dev.plant_id,
        plant_owner_id: dev.plant_owner,
        plant_company_id: dev.plant_company,
        ..audit::system()
    };
    commands::send_order_to_device(store, dispatcher, Sender::Job(by), dev.into(), &order, now)
        .await
}
