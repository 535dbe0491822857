//! A gateway's sign-in time over real sockets: the embedded broker records each new
//! connection (a reconnect after the will, and a takeover of a connection the broker still
//! holds, as after a power cut), and messages over the same connection leave it alone. A
//! restart is followed by this time (the web's restart dialog).

use crate::link_common;

use std::time::Duration;

use link_common::*;
use store::Store;

/// The gateway's sign-in time once it is later than `after`, within a few writes.
async fn signed_in_after(store: &Store, sn: &str, after: i64) -> Result<i64, String> {
    let until = tokio::time::Instant::now() + 3 * devices::link::HEARD_FLUSH_EVERY;
    loop {
        let g = store
            .gateway_by_sn(sn)
            .await
            .map_err(|e| e.to_string())?
            .ok_or("gateway")?;
        if let Some(at) = g.signed_in_at.filter(|at| *at > after) {
            return Ok(at);
        }
        if tokio::time::Instant::now() > until {
            return Err(format!("no sign-in after {after}: {g:?}"));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn signed_in_at(store: &Store, sn: &str) -> Result<Option<i64>, Box<dyn std::error::Error>> {
    Ok(store
        .gateway_by_sn(sn)
        .await?
        .ok_or("gateway")?
        .signed_in_at)
}

#[tokio::test]
async fn a_reconnect_records_the_sign_in_and_messages_in_between_do_not() -> TestResult {
    let mut h = harness(&[("GW1", "key-1"), ("GW2", "key-2")], Answer::Commit).await?;
    assert_eq!(
        signed_in_at(&h.store, "GW1").await?,
        None,
        "never connected"
    );

    let before = now_ms() - 1;
    let gw = connect(gateway_options(h.addr, "GW1", "key-1")).await?;
    let first = signed_in_after(&h.store, "GW1", before).await?;
    // Its first status after connecting finds it offline (registered so): the sign-in moves
    // to the status, still this connection's.
    gw.online("GW1").await?;
    h.next_for("GW1", WAIT).await.ok_or("online status")?;
    let signed_in = signed_in_at(&h.store, "GW1").await?.ok_or("signed in")?;
    assert!(signed_in >= first);

    // Over the same connection, a status, telemetry and another status: no sign-in.
    tokio::time::sleep(Duration::from_millis(20)).await;
    gw.online("GW1").await?;
    h.next_for("GW1", WAIT).await.ok_or("status again")?;
    gw.publish("portal/v1/GW1/telemetry", telemetry(now_ms(), "INV1"))
        .await?;
    h.next_for("GW1", WAIT).await.ok_or("telemetry")?;
    gw.online("GW1").await?;
    h.next_for("GW1", WAIT).await.ok_or("status once more")?;
    tokio::time::sleep(2 * devices::link::HEARD_FLUSH_EVERY).await;
    let g = h.store.gateway_by_sn("GW1").await?.ok_or("gateway")?;
    assert!(g.online);
    assert_eq!(g.signed_in_at, Some(signed_in), "messages are not sign-ins");
    assert_eq!(
        signed_in_at(&h.store, "GW2").await?,
        None,
        "another gateway"
    );

    // The connection dies (the will marks it offline); the gateway comes back.
    drop(gw);
    h.next_for("GW1", WAIT).await.ok_or("last will")?;
    let back = connect(gateway_options(h.addr, "GW1", "key-1")).await?;
    let again = signed_in_after(&h.store, "GW1", signed_in).await?;
    back.online("GW1").await?;
    h.next_for("GW1", WAIT).await.ok_or("online again")?;
    assert!(signed_in_at(&h.store, "GW1").await?.ok_or("signed in")? >= again);
    Ok(())
}

/// A restarted gateway that comes back before the broker noticed it was gone (the simulator's
/// reboot): its new connection takes the old one's place, no will is published and it never
/// looked offline, yet the sign-in moves.
#[tokio::test]
async fn a_takeover_is_a_sign_in_too() -> TestResult {
    let mut h = harness(&[("GW1", "key-1")], Answer::Commit).await?;
    // A connection that, like a gateway that lost power, never reconnects by itself.
    let (old, mut events) = rumqttc::AsyncClient::new(gateway_options(h.addr, "GW1", "key-1"), 64);
    let old_task = tokio::spawn(async move { while events.poll().await.is_ok() {} });
    old.publish(
        "portal/v1/GW1/status",
        rumqttc::QoS::AtLeastOnce,
        true,
        r#"{"v":1,"online":true}"#,
    )
    .await?;
    h.next_for("GW1", WAIT).await.ok_or("online status")?;
    let first = signed_in_after(&h.store, "GW1", 0).await?;
    tokio::time::sleep(Duration::from_millis(20)).await;

    let new = connect(gateway_options(h.addr, "GW1", "key-1")).await?;
    let again = signed_in_after(&h.store, "GW1", first).await?;
    new.online("GW1").await?;
    h.next_for("GW1", WAIT).await.ok_or("online again")?;
    tokio::time::sleep(2 * devices::link::HEARD_FLUSH_EVERY).await;
    let g = h.store.gateway_by_sn("GW1").await?.ok_or("gateway")?;
    assert!(g.online, "the status found it online: {g:?}");
    assert_eq!(g.signed_in_at, Some(again), "the connection's time");
    old_task.abort();
    Ok(())
}
