//! Acknowledgements: a PUBACK only after ingest commits.

use super::*;

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
