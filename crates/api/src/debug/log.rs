//! Reading debug exchanges: one reply (the screen polls it after sending) and the Debug Log
//! screen's paged list.

use axum::extract::State;
use devices::modbus;
use domain::DomainError;
use domain::ids::CommandId;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use store::debug_log::{DebugFilter, DebugRow};
use utoipa::{IntoParams, ToSchema};

use crate::{
    AppState,
    audit::{LogWindow, log_visibility, text},
    envelope::{ApiResult, Data, Envelope},
    extract::{Query, num},
    paging::Page,
    session::CurrentUser,
    users::create_at,
};

/// The reply frame a command brought back, as spaced hex; `None` until it came (or when the
/// device answered without a frame, e.g. a refusal).
pub(crate) fn reply_of(row: &DebugRow) -> Option<String> {
    let data: Value = serde_json::from_str(row.command_data.as_deref()?).ok()?;
    let bytes = modbus::parse_hex(data.get("frame")?.as_str()?).ok()?;
    Some(modbus::to_hex(&bytes))
}

/// One exchange of a raw frame, as the toolbox and the Debug Log show it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DebugEntry {
    pub id: i64,
    /// The command that carried the frame; null when the portal refused to send it.
    pub command_id: Option<i64>,
    /// The device (or gateway) the frame went to.
    pub sn: String,
    pub gateway_sn: String,
    /// `inverter` or `gateway`.
    pub target_kind: String,
    /// The account that sent it.
    pub account: String,
    pub plant_id: Option<i64>,
    pub plant_name: Option<String>,
    /// The frame sent, spaced upper-case hex.
    pub request: String,
    /// The reply frame, spaced upper-case hex; null until the device answered with one.
    pub reply: Option<String>,
    /// The command's status (`sent`, `acknowledged`, `succeeded`, `failed`, `timed_out`), or
    /// `refused` when it never left.
    pub status: String,
    pub message: String,
    pub create_at: String,
    /// When the command ended; null while it is open.
    pub reply_at: Option<String>,
}

/// One exchange as the toolbox and the Debug Log show it.
pub(crate) fn entry_json(r: &DebugRow) -> DebugEntry {
    let status = match (&r.command_status, r.result.as_str()) {
        (Some(s), _) => s.clone(),
        (None, other) => other.to_string(),
    };
    let message = match &r.command_msg {
        Some(m) if !m.is_empty() => m.clone(),
        _ => r.message.clone(),
    };
    let finished = r
        .command_status
        .as_deref()
        .and_then(store::commands::CommandStatus::parse)
        .is_some_and(|s| s.is_final());
    DebugEntry {
        id: r.id.0,
        command_id: r.command_id.map(|v| v.0),
        sn: r.device_sn.clone(),
        gateway_sn: r.gateway_sn.clone(),
        target_kind: r.target_kind.clone(),
        account: r.account.clone(),
        plant_id: r.plant_id.map(|v| v.0),
        plant_name: r.plant_name.clone(),
        request: r.request.clone(),
        reply: reply_of(r),
        status,
        message,
        create_at: create_at(r.created_at),
        reply_at: if finished {
            r.command_updated_at.map(create_at)
        } else {
            None
        },
    }
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct ReplyQuery {
    /// The command id the send answered.
    #[serde(default, alias = "commandId", deserialize_with = "num::opt_i64")]
    pub id: Option<i64>,
    /// A device or gateway SN: its newest exchange.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub sn: Option<String>,
}

/// Whether the caller may read an exchange: their own, or one about a device or gateway they
/// can see (internal staff reading logs need `logger.management`).
pub(crate) async fn may_read(app: &AppState, me: &CurrentUser, r: &DebugRow) -> ApiResult<bool> {
    if r.user_id == Some(me.user.id) {
        return Ok(true);
    }
    if me.actor.is_internal() {
        return Ok(me.actor.has(domain::permissions::LOGGER_MANAGEMENT));
    }
    if r.target_kind == "gateway" {
        return crate::gateways::actions::can_see(app, me, &r.device_sn).await;
    }
    Ok(app
        .store
        .device_visible(me.actor.plant_visibility(), me.id(), &r.device_sn)
        .await?
        .is_some())
}

/// The exchange of a command (`id`) or the newest of a device (`sn`) with its reply once it
/// came. One the caller may not read answers `null` like a missing one.
pub(crate) async fn find(
    app: &AppState,
    me: &CurrentUser,
    id: Option<i64>,
    sn: Option<&str>,
) -> ApiResult<Option<DebugEntry>> {
    let row = match (id, sn.map(str::trim).filter(|s| !s.is_empty())) {
        (Some(id), _) => app.store.debug_entry_of_command(CommandId(id)).await?,
        (None, Some(sn)) => app.store.last_debug_entry(sn).await?,
        (None, None) => return Err(DomainError::invalid("id").into()),
    };
    match row {
        Some(r) if may_read(app, me, &r).await? => Ok(Some(entry_json(&r))),
        _ => Ok(None),
    }
}

/// The reply to a raw frame: by command id, or the newest exchange with a device (`sn`).
/// `reply` is null until the device answered; `status` tells sent / succeeded / failed /
/// timed_out.
#[utoipa::path(get, path = "/api/v1/debug/reply", tag = "debug", params(ReplyQuery), security(("bearer" = [])),
    responses((status = 200, description = "The exchange or null; 4 id", body = Envelope<Option<DebugEntry>>)))]
pub async fn reply(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ReplyQuery>,
) -> ApiResult<Data<Option<DebugEntry>>> {
    Ok(Data(find(&app, &me, q.id, q.sn.as_deref()).await?))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct ListQuery {
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub page: Option<i64>,
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub limit: Option<i64>,
    /// Part of the device or gateway SN.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub sn: Option<String>,
    /// Part of the acting account.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub user: Option<String>,
    /// `inverter` or `gateway`.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub target_kind: Option<String>,
    #[serde(default, alias = "stationId", deserialize_with = "num::opt_i64")]
    pub plant_id: Option<i64>,
    /// First day, `YYYY-MM-DD` (UTC), inclusive.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub sdate: Option<String>,
    /// Last day, `YYYY-MM-DD` (UTC), inclusive.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub edate: Option<String>,
}

impl ListQuery {
    fn filter(&self) -> Result<(DebugFilter, LogWindow), DomainError> {
        let target_kind = text(&self.target_kind);
        if target_kind
            .as_deref()
            .is_some_and(|k| k != "inverter" && k != "gateway")
        {
            return Err(DomainError::invalid("targetKind"));
        }
        let w = LogWindow::parse(
            self.page,
            self.limit,
            self.plant_id,
            &self.sdate,
            &self.edate,
        )?;
        let filter = DebugFilter {
            sn: text(&self.sn),
            user: text(&self.user),
            target_kind,
            plant: w.plant,
            from: w.from,
            to: w.to,
            limit: w.limit,
            offset: w.offset,
        };
        Ok((filter, w))
    }
}

/// The Debug Log: every raw frame sent, newest first, paged (`page` from 1, `limit` up to 100).
#[utoipa::path(get, path = "/api/v1/logger/debug", tag = "debug", params(ListQuery), security(("bearer" = [])),
    responses((status = 200, description = "A page of exchanges, newest first; 2, 4 sdate/edate/targetKind", body = Envelope<Page<DebugEntry>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<Data<Page<DebugEntry>>> {
    let visibility = log_visibility(&me)?;
    let (filter, w) = q.filter()?;
    let (rows, total) = app
        .store
        .debug_log_visible(visibility, me.id(), &filter)
        .await?;
    Ok(w.answer(total, rows.iter().map(entry_json).collect()))
}
