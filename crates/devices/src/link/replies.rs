//! Command replies: what a gateway's `reply` message does to the command it answers.

use serde_json::Value;
use store::{
    Store, StoreError,
    commands::{CommandOutcome, CommandRow, CommandStatus},
    upgrades::{UpgradeRow, UpgradeState, UpgradeUpdate},
};

use crate::report::CommandReply;

/// Why the portal failed an upgrade whose device's gateway went offline (the sweeper, see
/// `dispatch.rs`); screens recognise it and say it in the reader's language.
pub const GATEWAY_GONE: &str = "gateway offline: the upgrade stopped";
/// Why the portal failed an upgrade whose device stopped reporting progress.
pub const NO_PROGRESS: &str = "no progress reported";
/// Why the portal failed an upgrade whose command ran out of time.
pub const TIMED_OUT: &str = "timed out: no reply from the device";

/// Says that an upgrade ended in this process (a device's final reply, the sweeper failing a
/// stalled one), so that whoever starts the next upgrade queued on its gateway
/// (`jobs::upgrade_queue`, through `service::upgrades::start_next`) looks at once instead of
/// at its next round. Clones share one signal; an end nobody waits for is kept until someone
/// does, so none is lost between two rounds.
#[derive(Debug, Clone, Default)]
pub struct UpgradeEnds(std::sync::Arc<tokio::sync::Notify>);

impl UpgradeEnds {
    /// An upgrade ended.
    pub fn ended(&self) {
        self.0.notify_one();
    }

    /// Waits until an upgrade ends (at once when one ended since the last wait).
    pub async fn wait(&self) {
        self.0.notified().await;
    }
}

/// An interim reply (`code` 0 with `data.final == false`) acknowledges a command that is still
/// running (an upgrade in progress); any other reply is final: `code` 0 succeeded, else failed.
pub fn status_of(reply: &CommandReply) -> CommandStatus {
    let interim = reply.data.get("final").and_then(serde_json::Value::as_bool) == Some(false);
    match (reply.code, interim) {
        (0, true) => CommandStatus::Acknowledged,
        (0, false) => CommandStatus::Succeeded,
        _ => CommandStatus::Failed,
    }
}

/// Records the reply on its command. Replies to unknown or already final commands, or from a
/// gateway other than the one the command went through, change nothing (counted). A reply
/// that ends an upgrade says so on `ends`.
pub async fn record(
    store: &Store,
    gateway_sn: &str,
    reply: &CommandReply,
    ends: &UpgradeEnds,
) -> Result<(), StoreError> {
    let data = reply.data.to_string();
    let outcome = CommandOutcome {
        status: status_of(reply),
        code: reply.code,
        msg: &reply.msg,
        data: &data,
    };
    let now = crate::link::now_ms();
    if !store
        .record_command_reply(gateway_sn, &reply.id, &outcome, now)
        .await?
    {
        metrics::counter!("portal_mqtt_dropped_total", "reason" => "reply_unmatched").increment(1);
        tracing::info!(gateway = gateway_sn, id = %reply.id, "reply matches no open command");
        return Ok(());
    }
    // An upgrade's progress is kept on its own row too, so screens read it without decoding
    // replies, and the device leaves Upgrading as soon as the final reply lands.
    if let Some(cmd) = store.command_by_correlation(&reply.id).await?
        && cmd.kind == "upgrade"
        && sync_upgrade(store, &cmd)
            .await?
            .is_some_and(|u| u.state().is_final())
    {
        ends.ended();
    }
    Ok(())
}

/// What an upgrade command's record says about the upgrade. Interim replies carry
/// `{"final": false, "state": "sending"|"upgrading", "progress": 0-100}`; a final failure whose
/// data says `"state": "cancelled"` was cancelled; a command that timed out failed.
pub fn upgrade_update(cmd: &CommandRow) -> UpgradeUpdate {
    let data: Value = serde_json::from_str(&cmd.result_data).unwrap_or(Value::Null);
    let progress = data
        .get("progress")
        .and_then(Value::as_i64)
        .unwrap_or(0)
        .clamp(0, 100);
    let said = data.get("state").and_then(Value::as_str);
    let (state, progress, message) = match cmd.status() {
        CommandStatus::Sent => (UpgradeState::Sending, 0, String::new()),
        CommandStatus::Acknowledged => {
            let state = if said == Some("upgrading") {
                UpgradeState::Upgrading
            } else {
                UpgradeState::Sending
            };
            (state, progress, cmd.result_msg.clone())
        }
        CommandStatus::Succeeded => (UpgradeState::Successful, 100, cmd.result_msg.clone()),
        CommandStatus::Failed if said == Some("cancelled") => {
            (UpgradeState::Cancelled, progress, cmd.result_msg.clone())
        }
        CommandStatus::Failed => (UpgradeState::Failed, progress, cmd.result_msg.clone()),
        CommandStatus::TimedOut => (UpgradeState::Failed, progress, TIMED_OUT.to_string()),
    };
    UpgradeUpdate {
        state,
        progress,
        message,
        cancellable: data.get("cancellable").and_then(Value::as_bool) == Some(true),
    }
}

/// Brings every running upgrade whose command has ended (timed out, typically) in step with it,
/// so a device whose gateway went silent does not stay Upgrading until someone looks.
pub async fn sync_ended_upgrades(store: &Store) -> Result<usize, StoreError> {
    let mut n = 0;
    for row in store.open_upgrades().await? {
        let Some(command_id) = row.command_id else {
            continue;
        };
        if let Some(cmd) = store.command(command_id).await?
            && cmd.status().is_final()
        {
            sync_upgrade(store, &cmd).await?;
            n += 1;
        }
    }
    Ok(n)
}

/// Brings the upgrade carried by `cmd` in step with it. When it has just succeeded, the
/// device's (or gateway's) software version becomes the one it was upgraded to, before the
/// upgrade reads as ended (so whoever sees it ended sees the new version too).
pub async fn sync_upgrade(
    store: &Store,
    cmd: &CommandRow,
) -> Result<Option<UpgradeRow>, StoreError> {
    let now = crate::link::now_ms();
    let update = upgrade_update(cmd);
    if update.state == UpgradeState::Successful
        && let Some(row) = store.upgrade_by_command(cmd.id).await?
        && !row.state().is_final()
    {
        set_version(store, &row, now).await?;
    }
    let (_, row) = store.apply_upgrade_update(cmd.id, &update, now).await?;
    Ok(row)
}

async fn set_version(store: &Store, row: &UpgradeRow, now: i64) -> Result<(), StoreError> {
    if row.target == "gateway" {
        store
            .set_gateway_soft_ver(&row.device_sn, &row.version, now)
            .await?;
    } else if let Some(device) = store.device_by_sn(&row.device_sn).await? {
        let mut versions: Value =
            serde_json::from_str(&device.versions).unwrap_or_else(|_| serde_json::json!({}));
        if !versions.is_object() {
            versions = serde_json::json!({});
        }
        versions["softVer"] = Value::String(row.version.clone());
        store
            .set_device_versions(&row.device_sn, &versions.to_string(), now)
            .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::ids::CommandId;

    fn reply(code: i64, data: serde_json::Value) -> CommandReply {
        CommandReply {
            v: 1,
            id: "c".into(),
            code,
            msg: String::new(),
            data,
        }
    }

    fn command(status: &str, code: Option<i64>, msg: &str, data: serde_json::Value) -> CommandRow {
        CommandRow {
            id: CommandId(1),
            correlation_id: "c".into(),
            gateway_sn: "G".into(),
            device_sn: "D".into(),
            kind: "upgrade".into(),
            params: "null".into(),
            status: status.into(),
            result_code: code,
            result_msg: msg.into(),
            result_data: data.to_string(),
            created_at: 0,
            updated_at: 0,
            deadline: 0,
        }
    }

    #[test]
    fn an_upgrade_follows_its_commands_replies() {
        use serde_json::json;
        let sent = upgrade_update(&command("sent", None, "", json!(null)));
        assert_eq!((sent.state, sent.progress), (UpgradeState::Sending, 0));
        let flashing = upgrade_update(&command(
            "acknowledged",
            Some(0),
            "upgrading",
            json!({"final": false, "state": "upgrading", "progress": 140, "cancellable": true}),
        ));
        assert_eq!(flashing.state, UpgradeState::Upgrading);
        assert_eq!(flashing.progress, 100, "clamped");
        assert!(flashing.cancellable);
        let done = upgrade_update(&command(
            "succeeded",
            Some(0),
            "upgraded",
            json!({"progress": 100}),
        ));
        assert_eq!((done.state, done.progress), (UpgradeState::Successful, 100));
        let failed = upgrade_update(&command(
            "failed",
            Some(6),
            "firmware checksum mismatch",
            json!({"state": "failed", "progress": 37}),
        ));
        assert_eq!(failed.state, UpgradeState::Failed);
        assert_eq!(
            (failed.progress, failed.message.as_str()),
            (37, "firmware checksum mismatch")
        );
        let cancelled = upgrade_update(&command(
            "failed",
            Some(7),
            "upgrade cancelled",
            json!({"state": "cancelled"}),
        ));
        assert_eq!(cancelled.state, UpgradeState::Cancelled);
        let late = upgrade_update(&command(
            "timed_out",
            None,
            "",
            json!({"final": false, "progress": 55}),
        ));
        assert_eq!((late.state, late.progress), (UpgradeState::Failed, 55));
        assert!(late.message.contains("timed out"));
    }

    #[test]
    fn interim_replies_acknowledge_and_final_ones_decide() {
        use serde_json::json;
        assert_eq!(
            status_of(&reply(0, json!({"final": false, "progress": 10}))),
            CommandStatus::Acknowledged
        );
        assert_eq!(status_of(&reply(0, json!(null))), CommandStatus::Succeeded);
        assert_eq!(
            status_of(&reply(0, json!({"final": true}))),
            CommandStatus::Succeeded
        );
        assert_eq!(
            status_of(&reply(3, json!({"final": false}))),
            CommandStatus::Failed
        );
    }
}
