//! The last message time over real sockets (issue 13): every message a gateway publishes
//! counts (not its connection), written within about a second, and its last will is not undone
//! by what was heard just before it.

use crate::link_common;

use std::time::Duration;

use link_common::*;

#[tokio::test]
async fn each_message_moves_the_last_message_time_and_the_will_stays() -> TestResult {
    let mut h = harness(&[("GW1", "key-1")], Answer::Commit).await?;
    let gw = connect(gateway_options(h.addr, "GW1", "key-1")).await?;
    gw.online("GW1").await?;
    h.next_for("GW1", WAIT).await.ok_or("online status")?;
    let connected = h.store.gateway_by_sn("GW1").await?.ok_or("gw")?;

    tokio::time::sleep(Duration::from_millis(1200)).await;
    let sent = now_ms();
    gw.publish("portal/v1/GW1/telemetry", telemetry(sent, "INV1"))
        .await?;
    h.next_for("GW1", WAIT).await.ok_or("telemetry")?;
    let until = tokio::time::Instant::now() + 3 * devices::link::HEARD_FLUSH_EVERY;
    loop {
        let g = h.store.gateway_by_sn("GW1").await?.ok_or("gw")?;
        if g.last_online.is_some_and(|t| t >= sent) {
            assert!(g.online);
            assert!(
                g.last_online > connected.last_online,
                "not the connection time"
            );
            break;
        }
        assert!(
            tokio::time::Instant::now() < until,
            "last message time not written: {g:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // A message, then at once the connection dies: the will wins.
    gw.publish("portal/v1/GW1/telemetry", telemetry(now_ms(), "INV1"))
        .await?;
    h.next_for("GW1", WAIT).await.ok_or("telemetry")?;
    drop(gw);
    h.next_for("GW1", WAIT).await.ok_or("last will")?;
    tokio::time::sleep(2 * devices::link::HEARD_FLUSH_EVERY).await;
    assert!(!h.store.gateway_by_sn("GW1").await?.ok_or("gw")?.online);
    Ok(())
}
