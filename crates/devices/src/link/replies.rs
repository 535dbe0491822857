//! Command replies: what a gateway's `reply` message does to the command it answers.

use store::{
    Store, StoreError,
    commands::{CommandOutcome, CommandStatus},
};

use crate::report::CommandReply;

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
/// gateway other than the one the command went through, change nothing (counted).
pub async fn record(
    store: &Store,
    gateway_sn: &str,
    reply: &CommandReply,
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
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(code: i64, data: serde_json::Value) -> CommandReply {
        CommandReply {
            v: 1,
            id: "c".into(),
            code,
            msg: String::new(),
            data,
        }
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
