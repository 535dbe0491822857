//! Firmware upgrades of inverters and gateways: single and batch starts, progress, cancel.
//! Starting one is the use case `service::upgrades::start` (the upgrade row, its `upgrade`
//! command and the audit entry recorded in one transaction, then published; or the row queued
//! behind its gateway's running upgrade); this module checks permissions and follows the row,
//! which tracks the device's progress replies (see docs/device-protocol.md, "Firmware
//! upgrades"). Progress is read from that row, brought in step with its command on every read
//! so a timed-out command shows as failed even before a reply or the sweeper moves it.

pub(crate) mod gateway;
pub(crate) mod inverter;
pub(crate) mod wire;

use domain::ids::FirmwareId;
use std::time::Duration;
use utoipa_axum::{router::OpenApiRouter, routes};

use domain::{Code, DeviceFamily, DomainError, command::CommandKind};
use serde_json::json;
use store::{
    devices::DeviceListRow,
    firmware::FirmwareTarget,
    upgrades::{UpgradeRow, UpgradeState},
};

use crate::{
    AppState, commands,
    envelope::{ApiError, ApiResult, Envelope},
    plants::update_at,
    session::{CurrentUser, random_bytes},
    users::create_at,
};
use domain::time::now_ms;
use wire::{
    Upgrade, UpgradeBatch, UpgradeBatchProgress, UpgradeOutcome, UpgradeReason, UpgradeTotals,
};

/// How long a device has to answer a cancel request.
const CANCEL_TIMEOUT: Duration = Duration::from_secs(60);
/// At most this many devices in one batch.
pub(crate) const BATCH_MAX: usize = 200;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(inverter::upgrade))
        .routes(routes!(inverter::batch))
        .routes(routes!(inverter::progress))
        .routes(routes!(inverter::cancel))
        .routes(routes!(gateway::upgrade))
        .routes(routes!(gateway::batch))
        .routes(routes!(gateway::progress))
        .routes(routes!(gateway::cancel))
        .routes(routes!(batch_progress))
}

pub(crate) use service::upgrades::Device as Target;

/// Which firmware fits the device named `sn` (an inverter or a gateway the caller sees).
pub(crate) async fn firmware_key(
    app: &AppState,
    me: &CurrentUser,
    sn: &str,
) -> ApiResult<(FirmwareTarget, i64)> {
    if let Some(d) = app
        .store
        .device_visible(me.actor.plant_visibility(), me.id(), sn.trim())
        .await?
        .filter(|d| d.family == DeviceFamily::Inverter)
    {
        return Ok((FirmwareTarget::Inverter, d.type_code));
    }
    crate::gateways::visible(app, me, sn).await?;
    Ok((FirmwareTarget::Gateway, 0))
}

/// A new batch id: 24 hex digits.
pub(crate) fn new_batch_id() -> String {
    hex::encode(random_bytes::<12>())
}

/// Brings a running upgrade in step with its command and answers the row as it stands.
pub(crate) async fn refresh(app: &AppState, row: UpgradeRow) -> ApiResult<UpgradeRow> {
    Ok(service::upgrades::refresh(&app.store, app.commands.as_ref(), row, now_ms()).await?)
}

/// Starts an upgrade of `target` with firmware `firm_id` on `me`'s behalf (permissions are
/// checked by the caller; `force`: even when it already runs that version); the use case
/// records it in the audit log, refused, queued or sent.
pub(crate) async fn start(
    app: &AppState,
    me: &CurrentUser,
    batch_id: &str,
    target: Target<'_>,
    firm_id: Option<i64>,
    force: bool,
) -> ApiResult<UpgradeRow> {
    let start = service::upgrades::Start {
        batch_id,
        device: target,
        firm_id: firm_id.map(FirmwareId),
        force,
        actor: &me.actor,
        now: now_ms(),
    };
    let started = service::upgrades::start(&app.store, app.commands.as_ref(), start).await?;
    Ok(started.upgrade)
}

/// What a cancel names: the device whose upgrade it is and the gateway it goes through (a
/// gateway's own upgrade: the gateway twice), and the field a refusal names (`sn` or `id`).
pub(crate) struct CancelTarget<'a> {
    pub sn: &'a str,
    pub gateway_sn: Option<&'a str>,
    pub field: &'static str,
    /// The audit action of a cancel sent to the device.
    pub action: &'static str,
}

impl<'a> CancelTarget<'a> {
    pub fn inverter(device: &'a DeviceListRow) -> CancelTarget<'a> {
        CancelTarget {
            sn: &device.sn,
            gateway_sn: device.gateway_sn.as_deref(),
            field: "sn",
            action: domain::audit_action::INVERTER_UPGRADE_CANCEL,
        }
    }

    pub fn gateway(sn: &'a str) -> CancelTarget<'a> {
        CancelTarget {
            sn,
            gateway_sn: Some(sn),
            field: "id",
            action: domain::audit_action::GATEWAY_UPGRADE_CANCEL,
        }
    }
}

/// Takes the device's queued upgrade out of its gateway's queue, or asks the device to stop
/// its running upgrade (only where the device said it can).
pub(crate) async fn cancel(
    app: &AppState,
    me: &CurrentUser,
    target: CancelTarget<'_>,
) -> ApiResult<UpgradeRow> {
    let none = || DomainError::invalid(format!("{}: no upgrade in progress", target.field));
    let row = match app.store.latest_upgrade(target.sn).await? {
        Some(row) => refresh(app, row).await?,
        None => return Err(none().into()),
    };
    if row.state().is_final() {
        return Err(none().into());
    }
    if row.state() == UpgradeState::Queued {
        let row = service::upgrades::cancel_queued(&app.store, &me.actor, &row, now_ms()).await?;
        return Ok(row);
    }
    if !row.cancellable {
        let refused = service::upgrades::refuse_cancel(&app.store, &me.actor, &row, now_ms()).await;
        return Err(refused.into());
    }
    let Some(gateway) = target.gateway_sn else {
        return Err(Code::DeviceOffline.into());
    };
    commands::send(
        app,
        me,
        target.action,
        gateway,
        target.sn,
        CommandKind::UpgradeCancel,
        json!({"upgradeId": row.id}),
        CANCEL_TIMEOUT,
    )
    .await?;
    Ok(row)
}

/// Why the portal itself ended an upgrade, as a key screens translate (`null` when the device
/// said why, in `message`, or when it has not ended).
fn reason(u: &UpgradeRow) -> Option<UpgradeReason> {
    if u.state() != UpgradeState::Failed {
        return None;
    }
    use service::upgrades as queue;
    match u.message.as_str() {
        devices::link::GATEWAY_GONE => Some(UpgradeReason::GatewayOffline),
        devices::link::NO_PROGRESS => Some(UpgradeReason::NoProgress),
        devices::link::TIMED_OUT => Some(UpgradeReason::TimedOut),
        queue::DEVICE_GONE => Some(UpgradeReason::DeviceGone),
        queue::GATEWAY_DELETED => Some(UpgradeReason::GatewayDeleted),
        queue::OFFLINE_AT_TURN => Some(UpgradeReason::Offline),
        queue::NOT_ADMITTED => Some(UpgradeReason::NotAdmitted),
        _ => None,
    }
}

/// An upgrade as screens read it.
pub(crate) fn progress_json(u: &UpgradeRow) -> Upgrade {
    Upgrade {
        id: u.id.0,
        batch_id: u.batch_id.clone(),
        sn: u.device_sn.clone(),
        target: u.target.clone(),
        firm_id: u.firmware_id.map(|v| v.0),
        version: u.version.clone(),
        from_version: u.from_version.clone(),
        command_id: u.command_id.map(|v| v.0),
        // The store writes only the six states; `state()` reads anything else as failed.
        state: u.state().into(),
        queue_position: u
            .queue_position
            .filter(|_| u.state() == UpgradeState::Queued),
        progress: u.progress,
        message: u.message.clone(),
        reason: reason(u),
        // A queued one leaves its queue on request.
        cancellable: match u.state() {
            UpgradeState::Queued => true,
            s => u.cancellable && !s.is_final(),
        },
        start_time: create_at(u.started_at),
        finish_time: u.finished_at.map(create_at),
        update_at: update_at(u.updated_at),
    }
}

/// Totals over upgrades: how many in each state and the mean progress.
pub(crate) fn totals(rows: &[UpgradeRow]) -> UpgradeTotals {
    let count = |s: UpgradeState| rows.iter().filter(|r| r.state() == s).count();
    let progress = if rows.is_empty() {
        0
    } else {
        rows.iter().map(|r| r.progress).sum::<i64>() / rows.len() as i64
    };
    UpgradeTotals {
        total: rows.len(),
        queued: count(UpgradeState::Queued),
        sending: count(UpgradeState::Sending),
        upgrading: count(UpgradeState::Upgrading),
        successful: count(UpgradeState::Successful),
        failed: count(UpgradeState::Failed),
        cancelled: count(UpgradeState::Cancelled),
        running: rows.iter().filter(|r| !r.state().is_final()).count(),
        progress,
    }
}

/// One device's answer in a batch start: the upgrade, or why it was refused.
pub(crate) fn outcome_json(sn: &str, outcome: &ApiResult<UpgradeRow>) -> UpgradeOutcome {
    let lang = crate::envelope::current_lang();
    let refused = |code: Code, msg: String| UpgradeOutcome {
        sn: sn.to_string(),
        success: false,
        code: code.number(),
        msg,
        upgrade: None,
    };
    match outcome {
        Ok(u) => UpgradeOutcome {
            sn: sn.to_string(),
            success: true,
            code: 0,
            msg: String::new(),
            upgrade: Some(progress_json(u)),
        },
        Err(ApiError::Domain(e)) => refused(e.code, e.message(lang)),
        Err(_) => refused(Code::RequestError, Code::RequestError.message(lang).into()),
    }
}

/// What a batch start answers: totals and each device's outcome.
pub(crate) fn batch_json(batch_id: &str, results: Vec<UpgradeOutcome>) -> UpgradeBatch {
    let sent = results.iter().filter(|r| r.success).count();
    UpgradeBatch {
        batch_id: batch_id.to_string(),
        total: results.len(),
        sent,
        refused: results.len() - sent,
        results,
    }
}

/// A batch's upgrades the caller may see, with totals (`running` 0 means the batch is over).
#[utoipa::path(get, path = "/api/v1/upgrade/batch/{id}", tag = "upgrades", params(("id" = String, Path)),
    security(("bearer" = [])),
    responses((status = 200, description = "Totals and each upgrade", body = Envelope<UpgradeBatchProgress>)))]
pub async fn batch_progress(
    axum::extract::State(app): axum::extract::State<AppState>,
    me: CurrentUser,
    axum::extract::Path(id): axum::extract::Path<String>,
) -> ApiResult<crate::envelope::Data<UpgradeBatchProgress>> {
    let mut rows = Vec::new();
    for row in app.store.batch_upgrades(id.trim()).await? {
        let visible = if row.target == "gateway" {
            crate::gateways::visible(&app, &me, &row.device_sn)
                .await
                .is_ok()
        } else {
            app.store
                .device_visible(me.actor.plant_visibility(), me.id(), &row.device_sn)
                .await?
                .is_some()
        };
        if visible {
            rows.push(refresh(&app, row).await?);
        }
    }
    Ok(crate::envelope::Data(UpgradeBatchProgress {
        batch_id: id.trim().to_string(),
        totals: totals(&rows),
        infos: rows.iter().map(progress_json).collect(),
    }))
}
