//! Store contract for commands: what a dispatcher records and what any replica reads back.

use store::testing::{TestResult, each_backend};
use store::{
    Conflict, StoreError,
    commands::{CommandOutcome, CommandStatus, NewCommand},
};

fn new<'a>(cid: &'a str, kind: &'a str, now: i64, deadline: i64) -> NewCommand<'a> {
    NewCommand {
        correlation_id: cid,
        gateway_sn: "GW1",
        device_sn: "INV1",
        kind,
        params: r#"{"power":50}"#,
        now,
        deadline,
    }
}

fn outcome(status: CommandStatus, code: i64) -> CommandOutcome<'static> {
    CommandOutcome {
        status,
        code,
        msg: "ok",
        data: r#"{"x":1}"#,
    }
}

#[tokio::test]
async fn a_command_is_recorded_as_sent_and_its_reply_makes_it_final_once() -> TestResult {
    each_backend(|s| async move {
        let id = s.insert_command(&new("c1", "set_params", 10, 1000)).await?;
        let row = s.command(id).await?.ok_or("missing")?;
        assert_eq!(row.status(), CommandStatus::Sent);
        assert_eq!(row.params, r#"{"power":50}"#);
        assert_eq!(row.result_code, None);

        let ack = outcome(CommandStatus::Acknowledged, 0);
        assert!(s.record_command_reply("GW1", "c1", &ack, 20).await?);
        let row = s.command_by_correlation("c1").await?.ok_or("missing")?;
        assert_eq!(row.status(), CommandStatus::Acknowledged);

        let done = outcome(CommandStatus::Succeeded, 0);
        assert!(s.record_command_reply("GW1", "c1", &done, 30).await?);
        let row = s.command(id).await?.ok_or("missing")?;
        assert_eq!(row.status(), CommandStatus::Succeeded);
        assert_eq!((row.result_code, row.updated_at), (Some(0), 30));
        assert_eq!(row.result_data, r#"{"x":1}"#);

        let late = outcome(CommandStatus::Failed, 5);
        assert!(
            !s.record_command_reply("GW1", "c1", &late, 40).await?,
            "a final command does not change again"
        );
        assert_eq!(s.command(id).await?.ok_or("missing")?.status, "succeeded");
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_reply_from_another_gateway_does_not_touch_the_command() -> TestResult {
    each_backend(|s| async move {
        let id = s.insert_command(&new("c2", "restart", 10, 1000)).await?;
        let done = outcome(CommandStatus::Succeeded, 0);
        assert!(!s.record_command_reply("GW2", "c2", &done, 20).await?);
        assert_eq!(
            s.command(id).await?.ok_or("missing")?.status(),
            CommandStatus::Sent
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn overdue_open_commands_time_out_and_final_ones_stay() -> TestResult {
    each_backend(|s| async move {
        let late = s.insert_command(&new("c3", "restart", 10, 100)).await?;
        let done = s.insert_command(&new("c4", "restart", 10, 100)).await?;
        let later = s.insert_command(&new("c5", "upgrade", 10, 10_000)).await?;
        s.record_command_reply("GW1", "c4", &outcome(CommandStatus::Failed, 3), 50)
            .await?;
        assert!(s.has_open_command("INV1", "upgrade", 200).await?);
        assert!(!s.has_open_command("INV1", "restart", 200).await?);

        assert_eq!(s.time_out_commands(200).await?, 1);
        assert_eq!(s.command(late).await?.ok_or("missing")?.status, "timed_out");
        assert_eq!(s.command(done).await?.ok_or("missing")?.status, "failed");
        assert_eq!(s.command(later).await?.ok_or("missing")?.status, "sent");
        assert_eq!(s.time_out_commands(200).await?, 0);

        let recent = s.device_commands("INV1", 2).await?;
        assert_eq!(recent.len(), 2);
        assert_eq!(recent[0].id, later);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn correlation_ids_are_unique_and_unpublished_commands_fail() -> TestResult {
    each_backend(|s| async move {
        let id = s.insert_command(&new("c6", "restart", 10, 100)).await?;
        match s.insert_command(&new("c6", "restart", 10, 100)).await {
            Err(StoreError::Conflict(Conflict::CommandId)) => {}
            other => return Err(format!("expected a conflict, got {other:?}").into()),
        }
        assert!(s.fail_command(id, "broker unreachable", 20).await?);
        let row = s.command(id).await?.ok_or("missing")?;
        assert_eq!(
            (row.status(), row.result_msg.as_str()),
            (CommandStatus::Failed, "broker unreachable")
        );
        Ok(())
    })
    .await
}
