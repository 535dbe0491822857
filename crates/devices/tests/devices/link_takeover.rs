//! A gateway's new connection taking over its old session at the embedded broker (issue 13): a
//! gateway that lost power reconnects while the broker still holds its half-open connection,
//! busy with a message waiting for its commit. The new connection is accepted at once, and the
//! old one's last will does not leave the connected gateway offline.

use crate::link_common;

use std::time::Duration;

use devices::report::Item;
use link_common::*;
use rumqttc::Incoming;

fn persistent(addr: std::net::SocketAddr) -> rumqttc::MqttOptions {
    let mut o = gateway_options(addr, "GW1", "key-1");
    o.set_clean_session(false);
    o
}

/// A connection that, like a gateway that lost power, never reconnects by itself: its task
/// stops at the first error.
async fn connect_once(
    options: rumqttc::MqttOptions,
) -> Result<(rumqttc::AsyncClient, tokio::task::JoinHandle<()>), Box<dyn std::error::Error>> {
    let (client, mut events) = rumqttc::AsyncClient::new(options, 64);
    match tokio::time::timeout(WAIT, events.poll()).await?? {
        rumqttc::Event::Incoming(Incoming::ConnAck(_)) => {}
        other => return Err(format!("expected CONNACK, got {other:?}").into()),
    }
    let task = tokio::spawn(async move { while events.poll().await.is_ok() {} });
    Ok((client, task))
}

/// Before the fix, the old connection's task, held by the commit, could not hand the session
/// over: rmqtt waited five seconds for it, the new connection ran out of its handshake time and
/// was refused, again and again while the commit waited.
#[tokio::test]
async fn a_new_connection_takes_over_a_busy_old_one_at_once_and_stays_online() -> TestResult {
    let mut h = harness(&[("GW1", "key-1")], Answer::Hold).await?;
    let (old, old_task) = connect_once(persistent(h.addr)).await?;
    let qos = rumqttc::QoS::AtLeastOnce;
    old.publish(
        "portal/v1/GW1/status",
        qos,
        true,
        r#"{"v":1,"online":true}"#,
    )
    .await?;
    let status = h.next_for("GW1", WAIT).await.ok_or("online status")?;
    let _ = status.done.ok_or("held")?.send(Ok(()));
    old.publish(
        "portal/v1/GW1/telemetry",
        qos,
        false,
        telemetry(now_ms(), "INV1"),
    )
    .await?;
    let held = h.next_for("GW1", WAIT).await.ok_or("telemetry")?;
    assert!(matches!(held.item, Item::Telemetry(_)));

    // The gateway comes back on a new connection while the old one waits for its commit.
    let started = tokio::time::Instant::now();
    let new = connect(persistent(h.addr)).await?;
    let took = started.elapsed();
    assert!(took < Duration::from_secs(2), "accepted after {took:?}");
    new.online("GW1").await?;
    // The old connection's will (it ended without a goodbye) and the new one's online status,
    // in that order.
    let mut statuses = Vec::new();
    while let Some(r) = h.next_for("GW1", Duration::from_secs(2)).await {
        if let Item::Status(s) = &r.item {
            statuses.push(s.online);
        }
        if let Some(done) = r.done {
            let _ = done.send(Ok(()));
        }
    }
    assert_eq!(statuses.last(), Some(&true), "{statuses:?}");
    // The message the old connection could not get acknowledged is committed late, and the old
    // socket goes away.
    let _ = held.done.ok_or("held")?.send(Ok(()));
    old_task.abort();
    drop(old);
    while let Some(r) = h.next_for("GW1", Duration::from_secs(2)).await {
        assert!(
            !matches!(r.item, Item::Status(ref s) if !s.online),
            "a late will"
        );
        if let Some(done) = r.done {
            let _ = done.send(Ok(()));
        }
    }
    let g = h.store.gateway_by_sn("GW1").await?.ok_or("gw")?;
    assert!(g.online, "the connected gateway was marked offline");

    // And the new connection works: it gets its commands.
    let mut new = new;
    assert_eq!(new.subscribe("portal/v1/GW1/cmd").await, Some(true));
    let id = h
        .link
        .dispatcher
        .send("GW1", "GW1", "read_params", serde_json::Value::Null, WAIT)
        .await?;
    let got = new
        .next(WAIT, |i| match i {
            Incoming::Publish(p) if p.topic == "portal/v1/GW1/cmd" => Some(()),
            _ => None,
        })
        .await;
    assert!(got.is_some(), "command {id} not delivered");
    Ok(())
}
