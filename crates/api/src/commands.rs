//! Commands to devices as the screens see them: sending one on a user's behalf (with the
//! state checks, the spec's refusals and the audit entry) and reading where it stands.
//! The device link's dispatcher does the sending; its `commands` row is the record any replica
//! reads, so a screen polls `GET /api/v1/command/{id}` until the status is final.

use domain::ids::CommandId;
use std::time::Duration;
use utoipa_axum::{router::OpenApiRouter, routes};

use axum::extract::{Path, State};
use domain::{
    DomainError,
    command::{CommandKind, CommandStatus},
};
use serde::Serialize;
use serde_json::Value;
use service::commands;
use store::{commands::CommandRow, devices::DeviceListRow};
use utoipa::ToSchema;

use crate::{
    AppState,
    envelope::{ApiError, ApiResult, Data, Envelope},
    extract::PathId,
    inverters::{self, Inverter},
    plants::update_at,
    session::CurrentUser,
    users::create_at,
};
use domain::time::now_ms;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(status))
        .routes(routes!(boot))
        .routes(routes!(shutdown))
}

/// How long a device has to answer a power command.
const POWER_TIMEOUT: Duration = Duration::from_secs(30);

/// Sends `kind` to a device on `me`'s behalf (the caller has checked permissions), after the
/// state checks, and records `action` in the audit log either way. Answers the command id.
pub(crate) async fn send_to_device(
    app: &AppState,
    me: &CurrentUser,
    action: &str,
    device: &DeviceListRow,
    kind: CommandKind,
    params: Value,
    timeout: Duration,
) -> ApiResult<CommandId> {
    let note = Value::Null;
    send_to_device_noting(app, me, action, device, kind, params, timeout, note).await
}

/// [`send_to_device`], with `note` (a JSON object, e.g. the values a settings write replaces)
/// added to the audit entry's detail.
#[allow(clippy::too_many_arguments)] // each is a distinct fact of the command
pub(crate) async fn send_to_device_noting(
    app: &AppState,
    me: &CurrentUser,
    action: &str,
    device: &DeviceListRow,
    kind: CommandKind,
    params: Value,
    timeout: Duration,
    note: Value,
) -> ApiResult<CommandId> {
    let order = commands::Order {
        action,
        kind,
        params,
        timeout,
        note,
    };
    let (store, link) = (&app.store, app.commands.as_ref());
    let by = commands::Sender::Actor(&me.actor);
    Ok(commands::send_order_to_device(store, link, by, device.into(), &order, now_ms()).await?)
}

/// Sends `kind` to `device_sn` behind `gateway_sn` (the gateway's own SN for gateway commands)
/// and records `action` with the command; refusals (offline, upgrading, no device link) are
/// recorded as refused.
#[allow(clippy::too_many_arguments)] // each is a distinct fact of the command
pub(crate) async fn send(
    app: &AppState,
    me: &CurrentUser,
    action: &str,
    gateway_sn: &str,
    device_sn: &str,
    kind: CommandKind,
    params: Value,
    timeout: Duration,
) -> ApiResult<CommandId> {
    let to = commands::Target {
        gateway_sn,
        device_sn,
    };
    let order = commands::Order {
        action,
        kind,
        params,
        timeout,
        note: Value::Null,
    };
    let (store, link) = (&app.store, app.commands.as_ref());
    let by = commands::Sender::Actor(&me.actor);
    Ok(commands::send_order(store, link, by, to, &order, now_ms()).await?)
}

/// Where a command stands: open while `sent` or `acknowledged`, then final.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CommandState {
    /// Published to the gateway's command topic.
    Sent,
    /// The gateway has it and is working on it.
    Acknowledged,
    Succeeded,
    Failed,
    /// No final reply before the deadline.
    TimedOut,
}

impl From<CommandStatus> for CommandState {
    fn from(s: CommandStatus) -> Self {
        match s {
            CommandStatus::Sent => CommandState::Sent,
            CommandStatus::Acknowledged => CommandState::Acknowledged,
            CommandStatus::Succeeded => CommandState::Succeeded,
            CommandStatus::Failed => CommandState::Failed,
            CommandStatus::TimedOut => CommandState::TimedOut,
        }
    }
}

/// A command sent to a device, as the screens read it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Command {
    pub id: i64,
    /// What was asked: `restart`, `set_params`, `power_on`, `upgrade`, `modbus_raw`, ...
    pub kind: String,
    pub device_sn: String,
    /// The gateway the command went through (the device itself for a gateway command).
    pub gateway_sn: String,
    pub status: CommandState,
    /// The device's result code once it answered.
    pub result_code: Option<i64>,
    pub message: String,
    /// What the device answered, for commands that read something; null otherwise. Free-form:
    /// its shape is the device's and the command kind's.
    #[schema(value_type = Option<Value>)]
    pub result: Option<Value>,
    pub create_at: String,
    /// `YYYY-MM-DDTHH:MM:SSZ`.
    pub update_at: String,
}

/// A command as the screens read it.
pub(crate) fn command_json(c: &CommandRow) -> Command {
    Command {
        id: c.id.0,
        kind: c.kind.clone(),
        device_sn: c.device_sn.clone(),
        gateway_sn: c.gateway_sn.clone(),
        status: c.status().into(),
        result_code: c.result_code,
        message: c.result_msg.clone(),
        result: serde_json::from_str::<Value>(&c.result_data)
            .ok()
            .filter(|v| !v.is_null()),
        create_at: create_at(c.created_at),
        update_at: update_at(c.updated_at),
    }
}

/// A command the caller may see, timed out first when its deadline passed
/// (`service::commands::visible`); `None` when missing or not visible.
pub(crate) async fn visible_command(
    app: &AppState,
    me: &CurrentUser,
    id: CommandId,
) -> ApiResult<Option<CommandRow>> {
    Ok(commands::visible(&app.store, &me.actor, id, now_ms()).await?)
}

/// Where a command stands: `sent`, `acknowledged`, `succeeded`, `failed` or `timed_out`.
#[utoipa::path(get, path = "/api/v1/command/{id}", tag = "commands", params(("id" = i64, Path)),
    security(("bearer" = [])),
    responses((status = 200, description = "The command; 4 id when unknown or not visible", body = Envelope<Command>)))]
pub async fn status(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<CommandId>,
) -> ApiResult<Data<Command>> {
    let c = visible_command(&app, &me, id)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?;
    // A write the device confirmed becomes the values a later read shows (also when offline).
    service::setting_offers::remember_applied(&app.store, &c).await?;
    Ok(Data(command_json(&c)))
}

/// Requires `key` on the inverter's plant (an unbound inverter: the caller's role key); visitors
/// and read-only accounts are refused (code 2).
pub(crate) fn require_on(me: &CurrentUser, inv: &Inverter, key: &str) -> ApiResult<()> {
    me.actor.require_writable()?;
    match &inv.plant {
        Some(p) => {
            me.actor.require_on_plant(&p.scope(), key)?;
        }
        None => me.actor.require(key)?,
    }
    Ok(())
}

async fn power(app: &AppState, me: &CurrentUser, sn: &str, on: bool) -> ApiResult<Data<Command>> {
    let inv = inverters::visible(app, me, sn).await?;
    require_on(me, &inv, domain::permissions::INVERTER_POWER)?;
    let (action, kind) = if on {
        (domain::audit_action::INVERTER_BOOT, CommandKind::PowerOn)
    } else {
        (
            domain::audit_action::INVERTER_SHUTDOWN,
            CommandKind::PowerOff,
        )
    };
    let id = send_to_device(app, me, action, &inv.row, kind, Value::Null, POWER_TIMEOUT).await?;
    let c = app
        .store
        .command(id)
        .await?
        .ok_or_else(|| ApiError::internal("power", "command row missing"))?;
    Ok(Data(command_json(&c)))
}

/// Switches an inverter on (`inverter.power` on its plant). Answers the command as sent; poll
/// `GET /api/v1/command/{id}` for the device's answer.
#[utoipa::path(get, path = "/api/v1/inverter/{sn}/boot", tag = "commands", params(("sn" = String, Path)),
    security(("bearer" = [])),
    responses((status = 200, description = "The command as sent; 2, 600, 602 offline, 603 upgrading, 604 state forbids, 606 connection failed", body = Envelope<Command>)))]
pub async fn boot(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<Command>> {
    power(&app, &me, &sn, true).await
}

/// Switches an inverter off (`inverter.power` on its plant).
#[utoipa::path(get, path = "/api/v1/inverter/{sn}/shutdown", tag = "commands", params(("sn" = String, Path)),
    security(("bearer" = [])),
    responses((status = 200, description = "The command as sent; 2, 600, 602 offline, 603 upgrading, 606 connection failed", body = Envelope<Command>)))]
pub async fn shutdown(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<Command>> {
    power(&app, &me, &sn, false).await
}
