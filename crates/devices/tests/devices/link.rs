//! The device link over real sockets: each test runs its own embedded broker on a free port.

use crate::link_common;

use std::{sync::atomic::Ordering, time::Duration};

use devices::{
    link::{DispatchError, parse::DropReason},
    report::{Command, Item},
};
use link_common::*;
use rumqttc::{ConnectReturnCode, ConnectionError, Incoming};
use store::commands::CommandStatus;

const QUIET: Duration = Duration::from_millis(700);

#[tokio::test]
async fn a_registered_gateway_signs_in_and_its_telemetry_reaches_ingest() -> TestResult {
    let mut h = harness(&[("GW1", "key-1")], Answer::Commit).await?;
    let gw = connect(gateway_options(h.addr, "GW1", "key-1")).await?;
    gw.publish(
        "portal/v1/GW1/telemetry",
        telemetry(1_700_000_000_000, "INV1"),
    )
    .await?;
    let r = h.next_for("GW1", WAIT).await.ok_or("no telemetry")?;
    let Item::Telemetry(t) = r.item else {
        return Err("not telemetry".into());
    };
    assert_eq!(
        (t.ts, t.devices[0].sn.as_str()),
        (1_700_000_000_000, "INV1")
    );
    let stats = h.link.client.stats();
    for _ in 0..50 {
        if stats.acked.load(std::sync::atomic::Ordering::Relaxed) >= 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(stats.acked.load(std::sync::atomic::Ordering::Relaxed), 1);
    Ok(())
}

#[tokio::test]
async fn a_gateway_speaking_mqtt_5_is_served_too() -> TestResult {
    use rumqttc::v5::{AsyncClient, Event, MqttOptions, mqttbytes::QoS, mqttbytes::v5::Packet};
    let mut h = harness(&[("GW5", "key-5")], Answer::Commit).await?;
    let mut o = MqttOptions::new("GW5", "127.0.0.1", h.addr.port());
    o.set_credentials("GW5", "key-5");
    let (client, mut eventloop) = AsyncClient::new(o, 16);
    let task = tokio::spawn(async move {
        let mut connected = false;
        while let Ok(e) = eventloop.poll().await {
            if let Event::Incoming(Packet::ConnAck(_)) = e {
                connected = true;
            }
        }
        connected
    });
    client
        .publish(
            "portal/v1/GW5/telemetry",
            QoS::AtLeastOnce,
            false,
            telemetry(5, "INV5"),
        )
        .await?;
    let r = h
        .next_for("GW5", WAIT)
        .await
        .ok_or("no telemetry over MQTT 5")?;
    assert!(matches!(r.item, Item::Telemetry(_)));
    task.abort();
    Ok(())
}

#[tokio::test]
async fn wrong_keys_unknown_serials_and_borrowed_client_ids_are_refused() -> TestResult {
    let h = harness(&[("GW1", "key-1"), ("GW2", "key-2")], Answer::Commit).await?;
    let refused = |r: Result<Gateway, ConnectionError>| match r {
        Err(ConnectionError::ConnectionRefused(code)) => Some(code),
        Err(_) => None,
        Ok(_) => None,
    };
    let wrong_key = connect(gateway_options(h.addr, "GW1", "key-2")).await;
    assert_eq!(
        refused(wrong_key),
        Some(ConnectReturnCode::BadUserNamePassword)
    );
    let unknown = connect(gateway_options(h.addr, "NOPE", "key-1")).await;
    assert_eq!(
        refused(unknown),
        Some(ConnectReturnCode::BadUserNamePassword)
    );
    // GW2's credentials with GW1's client id would take over GW1's session.
    let borrowed = connect(options(h.addr, "GW1", "GW2", "key-2")).await;
    assert_eq!(refused(borrowed), Some(ConnectReturnCode::NotAuthorized));
    let no_password = connect(rumqttc::MqttOptions::new("GW1", "127.0.0.1", h.addr.port())).await;
    assert!(no_password.is_err(), "anonymous clients are refused");
    let portal_guess = connect(options(h.addr, "x", PORTAL, "guess")).await;
    assert_eq!(
        refused(portal_guess),
        Some(ConnectReturnCode::BadUserNamePassword)
    );
    Ok(())
}

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

#[tokio::test]
async fn a_gateway_gets_its_puback_only_after_ingest_commits() -> TestResult {
    let mut h = harness(&[("GW1", "key-1"), ("GW2", "key-2")], Answer::Hold).await?;
    let mut gw = connect(gateway_options(h.addr, "GW1", "key-1")).await?;
    let mut other = connect(gateway_options(h.addr, "GW2", "key-2")).await?;
    gw.publish("portal/v1/GW1/telemetry", telemetry(42, "INV1"))
        .await?;
    let held = h.next_for("GW1", WAIT).await.ok_or("no submission")?;
    let Item::Telemetry(ref t) = held.item else {
        return Err("not telemetry".into());
    };
    assert_eq!(t.ts, 42);
    assert!(
        gw.next(QUIET, puback_of).await.is_none(),
        "the broker acknowledged before the commit"
    );
    let stats = h.link.client.stats();
    assert_eq!(stats.acked.load(Ordering::Relaxed), 0);

    // Another gateway is not held up by GW1's pending commit.
    other
        .publish("portal/v1/GW2/telemetry", telemetry(7, "INV2"))
        .await?;
    let r = h.next_for("GW2", WAIT).await.ok_or("GW2 held up")?;
    r.done.ok_or("no done")?.send(Ok(())).map_err(|_| "done")?;
    other
        .next(WAIT, puback_of)
        .await
        .ok_or("GW2 not acknowledged")?;
    assert!(
        gw.next(Duration::from_millis(100), puback_of)
            .await
            .is_none()
    );

    held.done
        .ok_or("no done")?
        .send(Ok(()))
        .map_err(|_| "done")?;
    gw.next(WAIT, puback_of)
        .await
        .ok_or("no PUBACK after the commit")?;
    assert_eq!(stats.acked.load(Ordering::Relaxed), 2);
    // The portal's own client does not take the message in a second time.
    assert!(h.next_for("GW1", QUIET).await.is_none(), "ingested twice");
    Ok(())
}

#[tokio::test]
async fn a_gateway_speaking_mqtt_5_gets_its_puback_only_after_the_commit() -> TestResult {
    use rumqttc::v5::{AsyncClient, Event, MqttOptions, mqttbytes::QoS, mqttbytes::v5::Packet};
    let mut h = harness(&[("GW5", "key-5")], Answer::Hold).await?;
    let mut o = MqttOptions::new("GW5", "127.0.0.1", h.addr.port());
    o.set_credentials("GW5", "key-5");
    let (client, mut eventloop) = AsyncClient::new(o, 16);
    let (acks_tx, mut acks) = tokio::sync::mpsc::unbounded_channel();
    let task = tokio::spawn(async move {
        while let Ok(e) = eventloop.poll().await {
            if let Event::Incoming(Packet::PubAck(a)) = e {
                let _ = acks_tx.send(a.reason);
            }
        }
    });
    client
        .publish(
            "portal/v1/GW5/telemetry",
            QoS::AtLeastOnce,
            false,
            telemetry(5, "INV5"),
        )
        .await?;
    let held = h.next_for("GW5", WAIT).await.ok_or("no submission")?;
    assert!(
        tokio::time::timeout(QUIET, acks.recv()).await.is_err(),
        "acknowledged before the commit"
    );
    held.done
        .ok_or("no done")?
        .send(Ok(()))
        .map_err(|_| "done")?;
    let reason = tokio::time::timeout(WAIT, acks.recv())
        .await?
        .ok_or("no PUBACK")?;
    assert_eq!(reason, rumqttc::v5::mqttbytes::v5::PubAckReason::Success);
    task.abort();
    Ok(())
}

#[tokio::test]
async fn a_refused_commit_is_not_acknowledged_and_comes_back() -> TestResult {
    let store = store::testing::sqlite().await?;
    store.create_gateway("GW1", "key-1", "", now_ms()).await?;
    // An ingest that refuses the first telemetry and commits everything else.
    let (tx, mut rx) = tokio::sync::mpsc::channel::<devices::report::Submission>(8);
    let (seen_tx, mut seen) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut telemetry = 0;
        while let Some(s) = rx.recv().await {
            let refuse = match &s.item {
                Item::Telemetry(_) => {
                    telemetry += 1;
                    telemetry == 1
                }
                _ => false,
            };
            let _ = s.done.send(if refuse {
                Err(devices::report::retry("database down"))
            } else {
                Ok(())
            });
            let _ = seen_tx.send((s.item, refuse));
        }
    });
    let link = devices::link::Link::start(store.clone(), link_config("portal-retry"), tx).await?;
    let addr = link.broker_addr().ok_or("no broker")?;
    assert!(link.client.ready(WAIT).await);
    // A persistent session: MQTT clients resend unacknowledged messages when the session
    // resumes (rumqttc drops them when it starts a new one).
    let mut options = gateway_options(addr, "GW1", "key-1");
    options.set_clean_session(false);
    let mut gw = connect(options).await?;
    gw.publish("portal/v1/GW1/telemetry", telemetry(1, "INV1"))
        .await?;
    // The refusal: no PUBACK, the broker closes the connection (the gateway's last will says
    // offline), the gateway reconnects and sends the report again, which is committed.
    let mut tries = Vec::new();
    while tries.len() < 2 {
        let (item, refused) = tokio::time::timeout(WAIT, seen.recv())
            .await?
            .ok_or("ingest stopped")?;
        if let Item::Telemetry(t) = item {
            tries.push((t.ts, refused));
        }
    }
    assert_eq!(
        tries,
        [(1, true), (1, false)],
        "sent again after the refusal"
    );
    gw.next(WAIT, puback_of)
        .await
        .ok_or("no PUBACK after the commit")?;
    let stats = link.client.stats();
    assert_eq!(stats.not_committed.load(Ordering::Relaxed), 1);
    assert!(stats.acked.load(Ordering::Relaxed) >= 1);
    Ok(())
}

#[tokio::test]
async fn a_gateway_that_drops_off_is_marked_offline_by_its_last_will() -> TestResult {
    let mut h = harness(&[("GW1", "key-1")], Answer::Commit).await?;
    let gw = connect(gateway_options(h.addr, "GW1", "key-1")).await?;
    gw.online("GW1").await?;
    let r = h.next_for("GW1", WAIT).await.ok_or("online status")?;
    assert!(matches!(r.item, Item::Status(ref s) if s.online));
    assert!(h.store.gateway_by_sn("GW1").await?.ok_or("gw")?.online);

    drop(gw); // the connection dies without a DISCONNECT: the broker publishes the will
    let r = h.next_for("GW1", WAIT).await.ok_or("no last will")?;
    assert!(matches!(r.item, Item::Status(ref s) if !s.online));
    assert!(!h.store.gateway_by_sn("GW1").await?.ok_or("gw")?.online);
    Ok(())
}

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

#[tokio::test]
async fn the_portal_starts_when_the_mqtt_port_is_taken() -> TestResult {
    let taken = std::net::TcpListener::bind("127.0.0.1:0")?;
    let port = taken.local_addr()?.port();
    let store = store::testing::sqlite().await?;
    let mut strict = devices::link::BrokerConfig::new(loopback(port));
    let err = devices::link::Broker::start(store.clone(), "s".into(), &strict)
        .await
        .err()
        .ok_or("bound a taken port")?;
    assert!(err.to_string().contains("PORTAL_MQTT_ADDR"), "{err}");
    strict.fallback = true;
    let broker = devices::link::Broker::start(store, "s".into(), &strict).await?;
    assert_ne!(broker.local_addr().port(), port);
    Ok(())
}

fn puback_of(i: Incoming) -> Option<u16> {
    match i {
        Incoming::PubAck(a) => Some(a.pkid),
        _ => None,
    }
}

/// An item ingest refuses for good (any answer that is not a retry) is acknowledged and
/// dropped, so the gateway does not send it again and again.
#[tokio::test]
async fn a_message_ingest_refuses_for_good_is_acknowledged_and_not_sent_again() -> TestResult {
    let store = store::testing::sqlite().await?;
    store.create_gateway("GW1", "key-1", "", now_ms()).await?;
    let (tx, mut rx) = tokio::sync::mpsc::channel::<devices::report::Submission>(8);
    let (seen_tx, mut seen) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Some(s) = rx.recv().await {
            let telemetry = matches!(s.item, Item::Telemetry(_));
            let _ = s.done.send(if telemetry {
                Err("timestamp 1 is older than a year".into())
            } else {
                Ok(())
            });
            let _ = seen_tx.send(telemetry);
        }
    });
    let link = devices::link::Link::start(store.clone(), link_config("portal-refuse"), tx).await?;
    let addr = link.broker_addr().ok_or("no broker")?;
    assert!(link.client.ready(WAIT).await);
    let mut options = gateway_options(addr, "GW1", "key-1");
    options.set_clean_session(false);
    let mut gw = connect(options).await?;
    gw.publish("portal/v1/GW1/telemetry", telemetry(1, "INV1"))
        .await?;
    gw.next(WAIT, puback_of)
        .await
        .ok_or("the refused report is acknowledged")?;
    let mut telemetry_seen = 0;
    while let Ok(Some(t)) = tokio::time::timeout(QUIET, seen.recv()).await {
        telemetry_seen += usize::from(t);
    }
    assert_eq!(telemetry_seen, 1, "not delivered again");
    let stats = link.client.stats();
    assert_eq!(stats.dropped(DropReason::Refused), 1);
    assert_eq!(stats.not_committed.load(Ordering::Relaxed), 0);
    Ok(())
}
