//! Commands to gateways: replies recorded, refusals, timeouts.

use super::*;

#[tokio::test]
async fn a_command_goes_to_the_gateway_and_its_replies_are_recorded() -> TestResult {
    let mut h = harness(&[("GW1", "key-1")], Answer::Commit).await?;
    let mut gw = connect(gateway_options(h.addr, "GW1", "key-1")).await?;
    assert_eq!(gw.subscribe("portal/v1/GW1/cmd").await, Some(true));
    gw.online("GW1").await?;
    h.next_for("GW1", WAIT).await.ok_or("online status")?;

    let d = h.link.dispatcher.clone();
    let id = d
        .send(
            "GW1",
            "INV1",
            "upgrade",
            serde_json::json!({"url": "http://fw/1.bin"}),
            Duration::from_secs(10),
        )
        .await?;
    let p = gw.next(WAIT, publish_of).await.ok_or("no command")?;
    let cmd: Command = serde_json::from_slice(&p.payload)?;
    assert_eq!(
        (cmd.v, cmd.kind.as_str(), cmd.timeout_ms),
        (1, "upgrade", 10_000)
    );
    assert_eq!(cmd.params["url"], "http://fw/1.bin");

    gw.publish(
        "portal/v1/GW1/reply",
        format!(
            r#"{{"v":1,"id":"{}","code":0,"data":{{"final":false,"progress":30}}}}"#,
            cmd.id
        ),
    )
    .await?;
    let mut acknowledged = false;
    for _ in 0..100 {
        if h.store.command(id).await?.ok_or("row")?.status() == CommandStatus::Acknowledged {
            acknowledged = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(acknowledged, "the interim reply acknowledges the command");
    // While the upgrade runs, power commands for that device are refused.
    let busy = d
        .send(
            "GW1",
            "INV1",
            "power_off",
            serde_json::json!({}),
            Duration::from_secs(5),
        )
        .await;
    assert!(matches!(busy, Err(DispatchError::Upgrading(_))), "{busy:?}");

    gw.publish(
        "portal/v1/GW1/reply",
        format!(
            r#"{{"v":1,"id":"{}","code":0,"msg":"done","data":{{"version":"2.0"}}}}"#,
            cmd.id
        ),
    )
    .await?;
    let row = d.wait(id, WAIT).await?.ok_or("row")?;
    assert_eq!(row.status(), CommandStatus::Succeeded);
    assert_eq!(
        (row.result_code, row.result_msg.as_str()),
        (Some(0), "done")
    );
    assert_eq!(row.result_data, r#"{"version":"2.0"}"#);
    assert!(
        h.next_for("GW1", QUIET).await.is_none(),
        "replies do not go to ingest"
    );

    // A failure code makes the command failed.
    let id = d
        .send(
            "GW1",
            "INV1",
            "set_params",
            serde_json::json!({"p": 1}),
            Duration::from_secs(10),
        )
        .await?;
    let p = gw.next(WAIT, publish_of).await.ok_or("no command")?;
    let cmd: Command = serde_json::from_slice(&p.payload)?;
    gw.publish(
        "portal/v1/GW1/reply",
        format!(r#"{{"v":1,"id":"{}","code":2,"msg":"bad params"}}"#, cmd.id),
    )
    .await?;
    let row = d.wait(id, WAIT).await?.ok_or("row")?;
    assert_eq!(
        (row.status(), row.result_code),
        (CommandStatus::Failed, Some(2))
    );
    Ok(())
}

#[tokio::test]
async fn commands_to_offline_or_unknown_gateways_are_refused() -> TestResult {
    let h = harness(&[("GW1", "key-1")], Answer::Commit).await?;
    let d = &h.link.dispatcher;
    let offline = d
        .send(
            "GW1",
            "INV1",
            "restart",
            serde_json::json!({}),
            Duration::from_secs(5),
        )
        .await;
    assert!(
        matches!(offline, Err(DispatchError::Offline(ref sn)) if sn == "GW1"),
        "{offline:?}"
    );
    let unknown = d
        .send(
            "NOPE",
            "INV1",
            "restart",
            serde_json::json!({}),
            Duration::from_secs(5),
        )
        .await;
    assert!(matches!(unknown, Err(DispatchError::UnknownGateway(_))));
    assert!(
        h.store.device_commands("INV1", 10).await?.is_empty(),
        "nothing recorded"
    );
    Ok(())
}

#[tokio::test]
async fn a_command_without_a_reply_times_out() -> TestResult {
    let mut h = harness(&[("GW1", "key-1")], Answer::Commit).await?;
    let mut gw = connect(gateway_options(h.addr, "GW1", "key-1")).await?;
    assert_eq!(gw.subscribe("portal/v1/GW1/cmd").await, Some(true));
    gw.online("GW1").await?;
    h.next_for("GW1", WAIT).await.ok_or("online status")?;
    let d = h.link.dispatcher.clone();
    let id = d
        .send(
            "GW1",
            "INV1",
            "restart",
            serde_json::json!({}),
            Duration::from_secs(1),
        )
        .await?;
    let open = d.wait(id, Duration::from_millis(200)).await?.ok_or("row")?;
    assert_eq!(
        open.status(),
        CommandStatus::Sent,
        "still open before the deadline"
    );
    // The sweeper (every 200 ms here) times it out; a late reply changes nothing.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(
        h.store.command(id).await?.ok_or("row")?.status(),
        CommandStatus::TimedOut
    );
    let p = gw.next(WAIT, publish_of).await.ok_or("no command")?;
    let cmd: Command = serde_json::from_slice(&p.payload)?;
    gw.publish(
        "portal/v1/GW1/reply",
        format!(r#"{{"v":1,"id":"{}","code":0}}"#, cmd.id),
    )
    .await?;
    tokio::time::sleep(QUIET).await;
    let row = d.wait(id, Duration::ZERO).await?.ok_or("row")?;
    assert_eq!(row.status(), CommandStatus::TimedOut);
    Ok(())
}
