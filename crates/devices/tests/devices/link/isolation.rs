//! Gateways kept apart, and bad messages dropped without stopping the others.

use super::*;

#[tokio::test]
async fn a_gateway_cannot_publish_as_another_nor_read_its_commands() -> TestResult {
    let mut h = harness(&[("GWA", "key-a"), ("GWB", "key-b")], Answer::Commit).await?;
    // A last will on another gateway's status would let A mark B offline.
    let mut will_on_b = gateway_options(h.addr, "GWA", "key-a");
    will_on_b.set_last_will(rumqttc::LastWill::new(
        "portal/v1/GWB/status",
        r#"{"v":1,"online":false}"#,
        rumqttc::QoS::AtLeastOnce,
        true,
    ));
    assert!(connect(will_on_b).await.is_err());

    let mut a = connect(gateway_options(h.addr, "GWA", "key-a")).await?;
    let mut b = connect(gateway_options(h.addr, "GWB", "key-b")).await?;
    b.online("GWB").await?;
    h.next_for("GWB", WAIT).await.ok_or("B's status")?;
    assert_eq!(b.subscribe("portal/v1/GWB/cmd").await, Some(true));
    assert_eq!(a.subscribe("portal/v1/GWB/cmd").await, Some(false));
    assert_eq!(a.subscribe("portal/v1/+/cmd").await, Some(false));
    assert_eq!(a.subscribe("portal/v1/+/telemetry").await, Some(false));
    assert_eq!(a.subscribe("#").await, Some(false));

    for leaf in ["telemetry", "status", "event", "reply", "cmd"] {
        a.publish(&format!("portal/v1/GWB/{leaf}"), telemetry(1, "FORGED"))
            .await?;
    }
    a.publish("portal/v1/GWA/telemetry", telemetry(2, "INVA"))
        .await?;
    let own = h.next_for("GWA", WAIT).await.ok_or("A's own telemetry")?;
    assert!(matches!(own.item, Item::Telemetry(_)));
    assert!(
        h.next_for("GWB", QUIET).await.is_none(),
        "nothing A published under B's SN reached ingest"
    );

    // The spy: a command for B reaches B and not A.
    let id = h
        .link
        .dispatcher
        .send(
            "GWB",
            "INVB",
            "restart",
            serde_json::json!({}),
            Duration::from_secs(5),
        )
        .await?;
    let cmd = b.next(WAIT, publish_of).await.ok_or("B got no command")?;
    assert_eq!(cmd.topic, "portal/v1/GWB/cmd");
    let cmd: Command = serde_json::from_slice(&cmd.payload)?;
    assert_eq!((cmd.sn.as_str(), cmd.kind.as_str()), ("INVB", "restart"));
    assert!(
        a.next(QUIET, publish_of).await.is_none(),
        "A saw B's command"
    );

    // A cannot answer B's command either.
    let reply = format!(r#"{{"v":1,"id":"{}","code":0}}"#, cmd.id);
    a.publish("portal/v1/GWB/reply", reply.clone()).await?;
    a.publish("portal/v1/GWA/reply", reply).await?;
    tokio::time::sleep(QUIET).await;
    let row = h.store.command(id).await?.ok_or("command")?;
    assert_eq!(row.status(), CommandStatus::Sent);
    Ok(())
}

#[tokio::test]
async fn bad_messages_are_dropped_and_counted_while_other_gateways_flow() -> TestResult {
    let mut h = harness(&[("GW1", "key-1"), ("GW2", "key-2")], Answer::Commit).await?;
    let bad = connect(gateway_options(h.addr, "GW1", "key-1")).await?;
    let good = connect(gateway_options(h.addr, "GW2", "key-2")).await?;
    let oversized = vec![b'x'; devices::report::MAX_PAYLOAD_BYTES + 10];
    bad.publish("portal/v1/GW1/telemetry", "{not json").await?;
    bad.publish("portal/v1/GW1/telemetry", oversized).await?;
    bad.publish("portal/v1/GW1/status", r#"{"v":7,"online":true}"#)
        .await?;
    bad.publish("portal/v1/GW1/event", r#"{"v":1}"#).await?;
    for ts in 0..5 {
        good.publish("portal/v1/GW2/telemetry", telemetry(ts, "INV2"))
            .await?;
    }
    for ts in 0..5 {
        let r = h.next_for("GW2", WAIT).await.ok_or("GW2's data stopped")?;
        let Item::Telemetry(t) = r.item else {
            return Err("not telemetry".into());
        };
        assert_eq!(t.ts, ts);
    }
    let stats = h.link.client.stats();
    for _ in 0..50 {
        if stats.dropped(DropReason::Malformed) >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(stats.dropped(DropReason::Malformed), 2);
    assert_eq!(stats.dropped(DropReason::Oversized), 1);
    assert_eq!(stats.dropped(DropReason::UnsupportedVersion), 1);
    assert!(h.next_for("GW1", QUIET).await.is_none());
    // Still connected: the bad gateway's good data flows.
    bad.publish("portal/v1/GW1/telemetry", telemetry(9, "INV1"))
        .await?;
    assert!(h.next_for("GW1", WAIT).await.is_some());
    Ok(())
}
