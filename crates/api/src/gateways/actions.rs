//! Gateway actions (issue 7): restart (one, a comma list, or a batch) after a batch check,
//! replace (the plant gets the new gateway and keeps its devices and history; the old one is
//! unbound), change protocol, the settings switch, and raw debug frames. Every action is
//! permission-checked on the gateway's plant (maintainers of shared plants may restart and
//! debug; visitors may do nothing) and written to the audit log.

use domain::ids::CommandId;
use std::time::Duration;

use axum::extract::{Path, State};
use domain::{
    Code, DomainError, Lang,
    command::{CommandKind, CommandStatus},
    gateway_action::{self, BatchAction},
};
use serde::Deserialize;
use serde_json::{Value, json};
use service::gateways::{GatewayRef, Replacement, actions::Sent};
use store::{commands::CommandRow, gateways::GatewayRow, plants::PlantRow};
use utoipa::ToSchema;

use super::{
    parse_key, parse_sn, visible,
    wire::{GatewayCheck, GatewayOutcome, GatewayProtocol, GatewayReplaced},
};
use crate::{
    AppState,
    batch::BatchOutcome,
    commands::{self, Command, command_json},
    debug::{self, DebugEntry, DebugRequest, Target},
    envelope::{ApiError, ApiResult, Data, Envelope},
    extract::{Body, num},
    session::CurrentUser,
};
use domain::time::now_ms;

/// How long a restart or a settings switch may take before it counts as timed out.
const ACTION_TIMEOUT: Duration = service::gateways::actions::RESTART_TIMEOUT;

/// Whether the caller may see the gateway `sn` (for reading its debug exchanges).
pub(crate) async fn can_see(app: &AppState, me: &CurrentUser, sn: &str) -> ApiResult<bool> {
    match visible(app, me, sn).await {
        Ok(_) => Ok(true),
        Err(ApiError::Domain(e)) if e.code == Code::GatewayMissing => Ok(false),
        Err(e) => Err(e),
    }
}

/// The gateway named by `raw` if the caller may take `key`'s action on it (see
/// `service::gateways::acting_on`), with its plant.
async fn acting_on(
    app: &AppState,
    me: &CurrentUser,
    raw: &str,
    key: &str,
) -> ApiResult<(GatewayRow, Option<PlantRow>)> {
    let seen =
        service::gateways::acting_on(&app.store, &me.actor, GatewayRef::parse(raw), key).await?;
    Ok((seen.gateway, seen.plant))
}

/// A required text field, trimmed; missing or blank is invalid `field`.
fn required<'a>(raw: Option<&'a str>, field: &str) -> Result<&'a str, DomainError> {
    match raw.map(str::trim) {
        Some(s) if !s.is_empty() => Ok(s),
        _ => Err(DomainError::invalid(field)),
    }
}

/// SNs given as a JSON array or a comma list: the batch of `domain::gateway_action`.
fn sn_list(raw: Option<&Value>) -> Result<Vec<String>, DomainError> {
    let parts: Vec<String> = match raw {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| match item {
                Value::String(s) => Ok(s.clone()),
                Value::Number(n) => Ok(n.to_string()),
                _ => Err(DomainError::invalid("sns")),
            })
            .collect::<Result<_, _>>()?,
        _ => return Err(DomainError::invalid("sns")),
    };
    gateway_action::batch(parts.iter().map(String::as_str))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatchRequest {
    /// Gateway SNs: an array or a comma list (at most 100).
    #[serde(default, alias = "gsns", alias = "sn")]
    #[schema(value_type = Vec<String>)]
    pub sns: Option<Value>,
    /// What the check is for: `restart` (default) or `upgrade`.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub action: Option<String>,
}

/// The result of one gateway in a batch.
fn item(
    sn: &str,
    status: &str,
    code: i64,
    msg: &str,
    command_id: Option<CommandId>,
) -> GatewayOutcome {
    GatewayOutcome {
        sn: sn.to_string(),
        success: status == "succeeded" || status == "ok",
        status: status.to_string(),
        code,
        msg: msg.to_string(),
        command_id: command_id.map(|c| c.0),
        gateway_id: None,
        accepted_at: None,
    }
}

fn refused(sn: &str, e: &DomainError, lang: Lang) -> GatewayOutcome {
    item(sn, "refused", e.code.number(), &e.message(lang), None)
}

/// Totals of a check: how many gateways are ready for the action and how many would be refused,
/// with every item's reason. Nothing has succeeded or failed yet, so it says neither (before
/// issue 13 it counted the ready ones as "succeeded", and the screen showed "Succeeded 1"
/// before anything had restarted).
fn check_totals(items: Vec<GatewayOutcome>) -> GatewayCheck {
    let ready = items.iter().filter(|i| i.success).count();
    GatewayCheck {
        total: items.len(),
        ready,
        refused: items.len() - ready,
        items,
    }
}

/// Totals of a batch: how many succeeded and how many failed, with every item's reason.
fn totals(items: Vec<GatewayOutcome>) -> BatchOutcome<GatewayOutcome> {
    BatchOutcome::count(items, |i| i.success)
}

/// Restarts gateways (the use case sends each its command first), then awaits every reply
/// (so a batch takes as long as its slowest gateway, not the sum).
async fn restart_all(
    app: &AppState,
    me: &CurrentUser,
    sns: &[String],
) -> ApiResult<BatchOutcome<GatewayOutcome>> {
    let lang = crate::envelope::current_lang();
    let link = app.commands.as_ref();
    let sent =
        service::gateways::actions::restart(&app.store, link, &me.actor, sns, now_ms()).await?;
    let mut items = Vec::with_capacity(sent.len());
    for (sn, outcome) in sent {
        items.push(match outcome {
            Err(e) => refused(&sn, &e, lang),
            Ok(sent) => settled(app, &sn, sent).await?,
        });
    }
    Ok(totals(items))
}

/// Command `id` once it ended (or timed out): the dispatcher waits a little past the action's
/// timeout, so that the sweep has marked a silent gateway's command timed out.
async fn finished(app: &AppState, id: CommandId) -> ApiResult<CommandRow> {
    let Some(dispatcher) = &app.commands else {
        return Err(Code::ConnectionFailed.into());
    };
    Ok(dispatcher
        .wait(id, ACTION_TIMEOUT + Duration::from_secs(1))
        .await?
        .ok_or(Code::RequestError)?)
}

/// Waits for a restart to end and reports it as a batch item: accepted when the gateway's
/// reply said so (the screen then waits for the gateway to sign in again after that time).
async fn settled(app: &AppState, sn: &str, sent: Sent) -> ApiResult<GatewayOutcome> {
    let row = finished(app, sent.command).await?;
    let code = row.result_code.unwrap_or(0);
    let status = row.status();
    let msg = if row.result_msg.is_empty() {
        status.as_str().to_string()
    } else {
        row.result_msg.clone()
    };
    Ok(GatewayOutcome {
        gateway_id: Some(sent.gateway.0),
        accepted_at: (status == CommandStatus::Succeeded).then_some(row.updated_at),
        ..item(sn, status.as_str(), code, &msg, Some(sent.command))
    })
}

/// Restarts one gateway or a comma list of them (`gsns`); answers the batch totals.
#[utoipa::path(post, path = "/api/v1/gateway/{gsns}/restart", tag = "gateways", params(("gsns" = String, Path, description = "SN or comma list")),
    security(("bearer" = [])), responses((status = 200, description = "Totals and each gateway's outcome; 4 sns", body = Envelope<BatchOutcome<GatewayOutcome>>)))]
pub async fn restart(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(gsns): Path<String>,
) -> ApiResult<Data<BatchOutcome<GatewayOutcome>>> {
    let sns = sn_list(Some(&Value::String(gsns)))?;
    Ok(Data(restart_all(&app, &me, &sns).await?))
}

/// Restarts a batch of gateways (`sns`); answers the totals with each gateway's reason.
#[utoipa::path(post, path = "/api/v1/batch/restart", tag = "gateways", request_body = BatchRequest,
    security(("bearer" = [])), responses((status = 200, description = "Totals and each gateway's outcome; 4 sns", body = Envelope<BatchOutcome<GatewayOutcome>>)))]
pub async fn batch_restart(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<BatchRequest>,
) -> ApiResult<Data<BatchOutcome<GatewayOutcome>>> {
    let sns = sn_list(req.sns.as_ref())?;
    Ok(Data(restart_all(&app, &me, &sns).await?))
}

/// Checks a batch before acting: for each SN whether it exists (for this caller), may be acted
/// on, is online and is not already upgrading. Nothing is sent.
#[utoipa::path(post, path = "/api/v1/gateways/batch/check", tag = "gateways", request_body = BatchRequest,
    security(("bearer" = [])), responses((status = 200, description = "How many are ready and each one's reason (status ok or refused, commandId null); 4 sns/action", body = Envelope<GatewayCheck>)))]
pub async fn batch_check(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<BatchRequest>,
) -> ApiResult<Data<GatewayCheck>> {
    let action = BatchAction::parse(req.action.as_deref())?;
    let sns = sn_list(req.sns.as_ref())?;
    let lang = crate::envelope::current_lang();
    let checked =
        service::gateways::actions::check_batch(&app.store, &me.actor, &sns, action, now_ms())
            .await?;
    let items = checked
        .into_iter()
        .map(|(sn, problem)| match problem {
            Some(e) => refused(&sn, &e, lang),
            None => item(&sn, "ok", 0, "", None),
        })
        .collect();
    Ok(Data(check_totals(items)))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReplaceRequest {
    /// The plant's current gateway (SN or id).
    #[serde(
        default,
        alias = "oldGsn",
        alias = "sn",
        deserialize_with = "num::opt_text"
    )]
    pub old_sn: Option<String>,
    /// The gateway that takes its place.
    #[serde(
        default,
        alias = "newGsn",
        alias = "gsn",
        deserialize_with = "num::opt_text"
    )]
    pub new_sn: Option<String>,
    /// The new gateway's registration key.
    #[serde(default, alias = "regKey", deserialize_with = "num::opt_text")]
    pub key: Option<String>,
}

/// Replaces a plant's gateway: the new one (SN and key, free or the caller's stock) joins the
/// plant, the devices behind the old one move to it with their history, and the old one is
/// unbound. 300 wrong key, 301 new gateway in use, 305 old gateway unknown.
#[utoipa::path(post, path = "/api/v1/gateway/replace", tag = "gateways", request_body = ReplaceRequest,
    security(("bearer" = [])), responses((status = 200, description = "The gateways and how many devices moved; 2, 4 oldSn/newSn/key, 300, 301, 305", body = Envelope<GatewayReplaced>)))]
pub async fn replace(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<ReplaceRequest>,
) -> ApiResult<Data<GatewayReplaced>> {
    let old_raw = required(req.old_sn.as_deref(), "oldSn")?;
    let old = GatewayRef::parse(old_raw);
    let r = Replacement::of(&app.store, &me.actor, old).await?;
    let new_sn = parse_sn(req.new_sn.as_deref()).map_err(|_| DomainError::invalid("newSn"))?;
    let key = parse_key(req.key.as_deref())?;
    let devices =
        service::gateways::replace(&app.store, &me.actor, &r, &new_sn, &key, now_ms()).await?;
    Ok(Data(GatewayReplaced {
        devices,
        old_sn: r.old.sn,
        new_sn,
        plant_id: r.plant.id.0,
    }))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProtocolRequest {
    /// Gateway SN or id.
    #[serde(
        default,
        alias = "gsn",
        alias = "id",
        deserialize_with = "num::opt_text"
    )]
    pub sn: Option<String>,
    /// Protocol config code (see `GET /api/v1/protocols`).
    #[serde(
        default,
        alias = "protocolType",
        alias = "proto",
        deserialize_with = "num::opt_text"
    )]
    pub protocol: Option<String>,
}

/// Changes the protocol config a gateway's reports are decoded with. The protocol must exist
/// (code 4 `protocol` otherwise).
#[utoipa::path(post, path = "/api/v1/gateway/updateGatewayProtocol", tag = "gateways", request_body = ProtocolRequest,
    security(("bearer" = [])), responses((status = 200, description = "The gateway's new protocol; 2, 4 sn/protocol, 305", body = Envelope<GatewayProtocol>)))]
pub async fn update_protocol(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<ProtocolRequest>,
) -> ApiResult<Data<GatewayProtocol>> {
    let raw = required(req.sn.as_deref(), "sn")?;
    let protocol = req.protocol.as_deref().unwrap_or_default();
    let (seen, protocol) = service::gateways::actions::set_protocol(
        &app.store,
        &me.actor,
        GatewayRef::parse(raw),
        protocol,
        now_ms(),
    )
    .await?;
    Ok(Data(GatewayProtocol {
        sn: seen.gateway.sn,
        protocol,
    }))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SwitchRequest {
    /// Whether the gateway accepts remote parameter settings.
    #[serde(
        default,
        alias = "open",
        alias = "on",
        alias = "status",
        deserialize_with = "num::opt_bool"
    )]
    pub enable: Option<bool>,
}

/// The settings switch: tells the gateway to accept (or refuse) remote parameter settings for
/// the devices behind it, and waits for its answer. The command's status is in the answer.
#[utoipa::path(post, path = "/api/v1/gateway/{sn}/settings/switch", tag = "gateways", params(("sn" = String, Path)),
    request_body = SwitchRequest, security(("bearer" = [])),
    responses((status = 200, description = "The command once it ended; 2, 4 enable, 305, 602 offline, 603 upgrading, 606 connection failed", body = Envelope<Command>)))]
pub async fn settings_switch(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Body(req): Body<SwitchRequest>,
) -> ApiResult<Data<Command>> {
    let enable = req.enable.ok_or_else(|| DomainError::invalid("enable"))?;
    let (g, _) = acting_on(&app, &me, &sn, domain::permissions::INVERTER_SETTING).await?;
    let params = json!({"remoteSettings": if enable { "1" } else { "0" }});
    let id = commands::send(
        &app,
        &me,
        domain::audit_action::GATEWAY_SETTINGS,
        &g.sn,
        &g.sn,
        CommandKind::SetParams,
        params,
        ACTION_TIMEOUT,
    )
    .await?;
    Ok(Data(command_json(&finished(&app, id).await?)))
}

/// Sends a raw Modbus RTU frame (`code`) to the gateway itself; the reply is read with
/// `GET /api/gate/{sn}/debug/reply` or `GET /api/v1/debug/reply?id={commandId}`.
#[utoipa::path(post, path = "/api/v1/gateway/{sn}/debug", tag = "debug", params(("sn" = String, Path)),
    request_body = DebugRequest, security(("bearer" = [])),
    responses((status = 200, description = "The exchange as logged; 2, 4 code, 305, 602 offline, 603 upgrading, 606 connection failed", body = Envelope<DebugEntry>)))]
pub async fn debug(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Body(req): Body<DebugRequest>,
) -> ApiResult<Data<DebugEntry>> {
    let (g, plant) = acting_on(&app, &me, &sn, domain::permissions::INVERTER_DEBUG).await?;
    let frame = debug::parse_frame(req.code.as_deref())?;
    let outcome = commands::send(
        &app,
        &me,
        domain::audit_action::GATEWAY_DEBUG,
        &g.sn,
        &g.sn,
        CommandKind::ModbusRaw,
        json!({ "frame": frame }),
        debug::DEBUG_TIMEOUT,
    )
    .await;
    let target = Target {
        kind: "gateway",
        device_sn: &g.sn,
        gateway_sn: &g.sn,
        plant: plant.as_ref(),
    };
    debug::log_exchange(&app, &me, &target, &frame, outcome).await
}

/// The newest debug exchange with a gateway and its reply (null when there is none the caller
/// may read).
#[utoipa::path(get, path = "/api/gate/{sn}/debug/reply", tag = "debug", params(("sn" = String, Path)),
    security(("bearer" = [])), responses((status = 200, description = "The newest exchange or null; 305", body = Envelope<Option<DebugEntry>>)))]
pub async fn debug_reply(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<Option<DebugEntry>>> {
    let (g, _, _) = visible(&app, &me, &sn).await?;
    Ok(Data(debug::find(&app, &me, None, Some(&g.sn)).await?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::gateway_action::MAX_BATCH;

    #[test]
    fn sn_lists_take_arrays_and_comma_lists_without_repeats() {
        assert_eq!(
            sn_list(Some(&json!("GW0001, GW0002,,GW0001"))).unwrap(),
            vec!["GW0001", "GW0002"]
        );
        assert_eq!(
            sn_list(Some(&json!(["GW0001", "GW0003"]))).unwrap(),
            vec!["GW0001", "GW0003"]
        );
        assert!(sn_list(Some(&json!([]))).is_err());
        assert!(sn_list(Some(&json!(" , "))).is_err());
        assert!(sn_list(Some(&json!([{"sn": 1}]))).is_err());
        assert!(sn_list(None).is_err());
        let many: Vec<String> = (0..=MAX_BATCH).map(|i| format!("GW{i:04}")).collect();
        assert!(sn_list(Some(&json!(many))).is_err());
    }

    #[test]
    fn a_check_counts_ready_and_refused_and_claims_no_success() {
        let t = check_totals(vec![
            item("A", "ok", 0, "", None),
            refused("C", &Code::DeviceOffline.into(), Lang::En),
        ]);
        let t = serde_json::to_value(&t).unwrap();
        assert_eq!(
            (t["total"].as_u64(), t["ready"].as_u64()),
            (Some(2), Some(1))
        );
        assert_eq!(t["refused"], 1);
        assert!(t.get("succeeded").is_none() && t.get("failed").is_none());
    }

    #[test]
    fn totals_count_successes_and_failures() {
        let t = totals(vec![
            item("A", "succeeded", 0, "", Some(CommandId(1))),
            item("B", "timed_out", 0, "timed_out", Some(CommandId(2))),
            refused("C", &Code::DeviceOffline.into(), Lang::En),
        ]);
        let t = serde_json::to_value(&t).unwrap();
        assert_eq!(t["total"], 3);
        assert_eq!(t["succeeded"], 1);
        assert_eq!(t["failed"], 2);
        assert_eq!(t["items"][2]["code"], 602);
    }
}
