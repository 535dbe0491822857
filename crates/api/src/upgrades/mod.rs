//! Firmware upgrades of inverters and gateways: single and batch starts, progress, cancel.
//! An upgrade is an `upgrade` command to the device (sent through the dispatcher, with the
//! state checks and audit of `commands`) plus an `upgrades` row that follows the device's
//! progress replies (see docs/device-protocol.md, "Firmware upgrades"). Progress is read from
//! that row, brought in step with its command on every read so a timed-out command shows as
//! failed even before a reply or the sweeper moves it.

pub(crate) mod gateway;
pub(crate) mod inverter;
pub(crate) mod wire;

use std::time::Duration;
use utoipa_axum::{router::OpenApiRouter, routes};

use domain::{Code, DomainError, command::CommandKind};
use serde_json::{Value, json};
use store::{
    devices::DeviceListRow,
    firmware::{FirmwareRow, FirmwareTarget},
    gateways::GatewayRow,
    upgrades::{NewUpgrade, UpgradeRow, UpgradeState},
};

use crate::{
    AppState, commands,
    envelope::{ApiError, ApiResult, Envelope},
    now_ms,
    plants::update_at,
    session::{CurrentUser, random_bytes},
    users::create_at,
};
use wire::{
    Upgrade, UpgradeBatch, UpgradeBatchProgress, UpgradeOutcome, UpgradeReason, UpgradeTotals,
};

/// How long a device has to finish an upgrade before it counts as failed (timed out).
pub(crate) const UPGRADE_TIMEOUT: Duration = Duration::from_secs(15 * 60);
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
        .routes(routes!(batch_progress))
}

/// The device an upgrade goes to.
pub(crate) enum Target<'a> {
    Inverter(&'a DeviceListRow),
    Gateway(&'a GatewayRow),
}

impl Target<'_> {
    fn sn(&self) -> &str {
        match self {
            Target::Inverter(d) => &d.sn,
            Target::Gateway(g) => &g.sn,
        }
    }

    fn kind(&self) -> (FirmwareTarget, i64) {
        match self {
            Target::Inverter(d) => (FirmwareTarget::Inverter, d.type_code),
            Target::Gateway(_) => (FirmwareTarget::Gateway, 0),
        }
    }

    fn current_version(&self) -> String {
        match self {
            Target::Inverter(d) => serde_json::from_str::<Value>(&d.versions)
                .ok()
                .and_then(|v| v.get("softVer").and_then(Value::as_str).map(String::from))
                .unwrap_or_default(),
            Target::Gateway(g) => g.soft_ver.clone(),
        }
    }
}

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
        .filter(|d| d.family == "inverter")
    {
        return Ok((FirmwareTarget::Inverter, d.type_code));
    }
    crate::gateways::visible(app, me, sn).await?;
    Ok((FirmwareTarget::Gateway, 0))
}

/// The firmware with id `firm_id` if it is enabled for the target's type; code 4 `firmId`
/// otherwise (missing, disabled, or for another type).
pub(crate) async fn firmware_for(
    app: &AppState,
    target: &Target<'_>,
    firm_id: Option<i64>,
) -> ApiResult<FirmwareRow> {
    let (kind, type_code) = target.kind();
    let f = match firm_id {
        Some(id) => app.store.firmware(id).await?,
        None => None,
    };
    f.filter(|f| f.enabled && f.target == kind.as_str() && f.type_code == type_code)
        .ok_or_else(|| DomainError::invalid("firmId: not enabled for this device type").into())
}

/// A new batch id: 24 hex digits.
pub(crate) fn new_batch_id() -> String {
    hex::encode(random_bytes::<12>())
}

/// Brings a running upgrade in step with its command (timing the command out first when its
/// deadline passed) and answers the row as it stands.
pub(crate) async fn refresh(app: &AppState, row: UpgradeRow) -> ApiResult<UpgradeRow> {
    if row.state().is_final() {
        return Ok(row);
    }
    let Some(command_id) = row.command_id else {
        return Ok(row);
    };
    let Some(mut cmd) = app.store.command(command_id).await? else {
        return Ok(row);
    };
    if !cmd.status().is_final() && cmd.deadline < now_ms() {
        app.store.time_out_commands(now_ms()).await?;
        cmd = app.store.command(command_id).await?.unwrap_or(cmd);
    }
    let synced = devices::link::sync_upgrade(&app.store, &cmd).await?;
    Ok(synced.unwrap_or(row))
}

/// Starts an upgrade of `target` with firmware `firm_id` on `me`'s behalf (permissions are
/// checked by the caller). Refused when the firmware is not enabled for the device's type, when
/// an upgrade is already running, when the device is offline or its state forbids it.
pub(crate) async fn start(
    app: &AppState,
    me: &CurrentUser,
    batch_id: &str,
    target: Target<'_>,
    firm_id: Option<i64>,
) -> ApiResult<UpgradeRow> {
    let sn = target.sn().to_string();
    let action = match &target {
        Target::Inverter(_) => "inverter.upgrade",
        Target::Gateway(_) => "gateway.upgrade",
    };
    let refused = |e: ApiError| {
        let sn = sn.clone();
        async move {
            if let ApiError::Domain(d) = &e {
                let detail =
                    json!({"kind": "upgrade", "firmId": firm_id, "reason": d.code.number()});
                crate::audit::record(app, me, action, &sn, detail, "refused").await;
            }
            Err(e)
        }
    };
    let firmware = match firmware_for(app, &target, firm_id).await {
        Ok(f) => f,
        Err(e) => return refused(e).await,
    };
    if let Some(last) = app.store.latest_upgrade(&sn).await?
        && !refresh(app, last).await?.state().is_final()
    {
        return refused(Code::DeviceUpgrading.into()).await;
    }
    let params = json!({
        "version": firmware.version,
        "firmId": firmware.id,
        "fileName": firmware.file_name,
        "size": firmware.size,
    });
    let command_id = match &target {
        Target::Inverter(d) => {
            commands::send_to_device(
                app,
                me,
                "inverter.upgrade",
                d,
                CommandKind::Upgrade,
                params,
                UPGRADE_TIMEOUT,
            )
            .await?
        }
        Target::Gateway(g) => {
            if !g.online {
                return refused(Code::DeviceOffline.into()).await;
            }
            commands::send(
                app,
                me,
                "gateway.upgrade",
                &g.sn,
                &g.sn,
                CommandKind::Upgrade,
                params,
                UPGRADE_TIMEOUT,
            )
            .await?
        }
    };
    let (kind, _) = target.kind();
    let id = app
        .store
        .insert_upgrade(&NewUpgrade {
            batch_id,
            target: kind.as_str(),
            device_sn: &sn,
            firmware_id: firmware.id,
            version: &firmware.version,
            from_version: &target.current_version(),
            command_id,
            cancellable: false,
            user_id: me.id().0,
            now: now_ms(),
        })
        .await?;
    let row = app
        .store
        .upgrade(id)
        .await?
        .ok_or_else(|| ApiError::internal("upgrade", "row missing after insert"))?;
    // A quick device may have replied before the row existed.
    refresh(app, row).await
}

/// Asks the device to stop its running upgrade; only where the device said it can.
pub(crate) async fn cancel(
    app: &AppState,
    me: &CurrentUser,
    device: &DeviceListRow,
) -> ApiResult<UpgradeRow> {
    let row = match app.store.latest_upgrade(&device.sn).await? {
        Some(row) => refresh(app, row).await?,
        None => return Err(DomainError::invalid("sn: no upgrade in progress").into()),
    };
    if row.state().is_final() {
        return Err(DomainError::invalid("sn: no upgrade in progress").into());
    }
    if !row.cancellable {
        let detail = json!({"upgradeId": row.id, "reason": Code::CancelUnsupported.number()});
        crate::audit::record(
            app,
            me,
            "inverter.upgrade.cancel",
            &device.sn,
            detail,
            "refused",
        )
        .await;
        return Err(Code::CancelUnsupported.into());
    }
    let Some(gateway) = device.gateway_sn.as_deref() else {
        return Err(Code::DeviceOffline.into());
    };
    commands::send(
        app,
        me,
        "inverter.upgrade.cancel",
        gateway,
        &device.sn,
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
    match u.message.as_str() {
        devices::link::GATEWAY_GONE => Some(UpgradeReason::GatewayOffline),
        devices::link::NO_PROGRESS => Some(UpgradeReason::NoProgress),
        devices::link::TIMED_OUT => Some(UpgradeReason::TimedOut),
        _ => None,
    }
}

/// An upgrade as screens read it.
pub(crate) fn progress_json(u: &UpgradeRow) -> Upgrade {
    Upgrade {
        id: u.id,
        batch_id: u.batch_id.clone(),
        sn: u.device_sn.clone(),
        target: u.target.clone(),
        firm_id: u.firmware_id,
        version: u.version.clone(),
        from_version: u.from_version.clone(),
        command_id: u.command_id,
        // The store writes only the five states; `state()` reads anything else as failed.
        state: u.state().into(),
        progress: u.progress,
        message: u.message.clone(),
        reason: reason(u),
        cancellable: u.cancellable && !u.state().is_final(),
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
