//! The embedded broker at accept, over real sockets (security review, finding 2): connections
//! that never complete a CONNECT are closed after the deadline, one source address holds at
//! most its bound of connections in their handshake, and gateways keep connecting while
//! thousands of idle sockets are open.

use crate::link_common;

use std::{
    io::{BufRead, BufReader},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use devices::{link::BrokerConfig, link::gate::Limits, report::Item};
use link_common::*;
use tokio::io::AsyncWriteExt;

fn broker(connect_timeout: Duration, handshakes: u32, connections: u32) -> BrokerConfig {
    let mut b = BrokerConfig::new(loopback(0));
    b.connect_timeout = connect_timeout;
    b.limits = Limits {
        handshakes_per_address: handshakes,
        connections_per_address: connections,
    };
    b
}

#[tokio::test]
async fn idle_sockets_are_closed_after_the_connect_deadline() -> TestResult {
    let h = harness_with(
        &[("GW1", "key-1")],
        Answer::Commit,
        broker(Duration::from_secs(1), 64, 5000),
    )
    .await?;
    // The review's twenty idle sockets.
    let opened = Instant::now();
    let mut idle = Vec::new();
    for _ in 0..20 {
        idle.push(tcp_from(lo(2), h.addr).await?);
    }
    assert!(eventually(WAIT, || h.connections().handshaking == 20).await);
    assert!(
        !closed_within(&mut idle[0], Duration::from_millis(200)).await,
        "closed before its deadline"
    );
    for s in &mut idle {
        assert!(closed_within(s, WAIT).await, "an idle socket stayed open");
    }
    let waited = opened.elapsed();
    assert!(waited >= Duration::from_secs(1), "closed after {waited:?}");
    assert!(eventually(WAIT, || h.connections().handshaking == 0).await);
    // A gateway still signs in.
    connect(gateway_options(h.addr, "GW1", "key-1")).await?;
    Ok(())
}

/// The deadline counts from accept: sending the start of a CONNECT late does not buy a second
/// full timeout (the broker used to wait for the first bytes, then again for the rest).
#[tokio::test]
async fn a_connect_that_stalls_half_way_is_closed_by_the_same_deadline() -> TestResult {
    let h = harness_with(
        &[],
        Answer::Commit,
        broker(Duration::from_secs(2), 64, 5000),
    )
    .await?;
    let opened = Instant::now();
    let mut s = tcp_from(lo(2), h.addr).await?;
    tokio::time::sleep(Duration::from_millis(1800)).await;
    // CONNECT, remaining length 40, "MQTT", level 4: enough to tell the protocol version.
    s.write_all(&[0x10, 40, 0, 4, b'M', b'Q', b'T', b'T', 4])
        .await?;
    assert!(closed_within(&mut s, WAIT).await);
    let took = opened.elapsed();
    // A second deadline would close it at 1.8 + 2 = 3.8 s.
    assert!(
        took < Duration::from_millis(3000),
        "closed after {took:?}, not at the 2 s deadline"
    );
    Ok(())
}

#[tokio::test]
async fn an_address_beyond_its_bound_is_refused_at_once_and_others_are_not_affected() -> TestResult
{
    let mut h = harness_with(
        &[("GW1", "key-1")],
        Answer::Commit,
        broker(Duration::from_secs(30), 5, 5000),
    )
    .await?;
    let mut held = Vec::new();
    for _ in 0..5 {
        held.push(tcp_from(lo(2), h.addr).await?);
    }
    assert!(eventually(WAIT, || h.connections().handshaking == 5).await);
    let mut sixth = tcp_from(lo(2), h.addr).await?;
    assert!(
        closed_within(&mut sixth, Duration::from_secs(2)).await,
        "the sixth socket of one address is closed at once, long before the 30 s deadline"
    );
    for s in &mut held {
        assert!(!closed_within(s, Duration::from_millis(50)).await);
    }
    let mut other = tcp_from(lo(3), h.addr).await?;
    assert!(!closed_within(&mut other, Duration::from_millis(500)).await);
    let gw = connect(gateway_options(h.addr, "GW1", "key-1")).await?;
    gw.publish("portal/v1/GW1/telemetry", telemetry(1, "INV1"))
        .await?;
    let r = h.next_for("GW1", WAIT).await.ok_or("GW1's telemetry")?;
    assert!(matches!(r.item, Item::Telemetry(_)));
    // The refused socket gave nothing back; the other address and the gateway are counted.
    assert_eq!(h.connections().handshaking, 6);
    Ok(())
}

/// Many gateways behind one address (carrier-grade NAT) sign in beyond the strict handshake
/// bound; only the looser bound on all connections of the address stops them.
#[tokio::test]
async fn signed_in_gateways_behind_one_address_are_held_only_by_the_looser_bound() -> TestResult {
    let gateways = [("GW1", "k1"), ("GW2", "k2"), ("GW3", "k3"), ("GW4", "k4")];
    let h = harness_with(
        &gateways,
        Answer::Commit,
        broker(Duration::from_secs(30), 2, 4),
    )
    .await?;
    let mut signed_in = Vec::new();
    for (sn, key) in &gateways[..3] {
        let mut s = tcp_from(lo(5), h.addr).await?;
        assert_eq!(sign_in_raw(&mut s, sn, key).await?, 0, "{sn}");
        signed_in.push(s);
    }
    assert_eq!(
        h.connections().established,
        4,
        "three gateways and the portal"
    );
    let mut fourth = tcp_from(lo(5), h.addr).await?;
    assert!(!closed_within(&mut fourth, Duration::from_millis(500)).await);
    let mut fifth = tcp_from(lo(5), h.addr).await?;
    assert!(closed_within(&mut fifth, Duration::from_secs(2)).await);
    for s in &mut signed_in {
        assert!(!closed_within(s, Duration::from_millis(50)).await);
    }
    connect(gateway_options(h.addr, "GW4", "k4")).await?;
    Ok(())
}

/// The other process holding idle sockets; killed (and reaped) when dropped.
struct IdleSockets(Child);

impl Drop for IdleSockets {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The review's scenario: 2,000 idle sockets, opened by another process from 40 loopback
/// addresses (50 each, within the default per-address bound), while a gateway connects and
/// publishes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gateway_connects_promptly_while_2000_idle_sockets_are_open() -> TestResult {
    let (addresses, per_address) = (40u32, 50u32);
    let idle = addresses * per_address;
    // A deadline longer than the test, so that all of them stay open throughout.
    let mut config = BrokerConfig::new(loopback(0));
    config.connect_timeout = Duration::from_secs(120);
    let mut h = harness_with(&[("GW1", "key-1")], Answer::Commit, config).await?;
    let mut child = Command::new(env!("CARGO_BIN_EXE_mqtt-idle-sockets"))
        .args([
            h.addr.to_string(),
            lo(10).to_string(),
            addresses.to_string(),
            per_address.to_string(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let holder = IdleSockets(child);
    let line = tokio::task::spawn_blocking(move || {
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).map(|_| line)
    });
    let line = tokio::time::timeout(Duration::from_secs(60), line).await???;
    assert_eq!(line.trim(), format!("open {idle}"));
    assert!(
        eventually(Duration::from_secs(30), || h.connections().handshaking
            >= idle)
        .await,
        "the broker holds {:?}",
        h.connections()
    );

    let started = Instant::now();
    let gw = connect(gateway_options(h.addr, "GW1", "key-1")).await?;
    let connected = started.elapsed();
    gw.publish("portal/v1/GW1/telemetry", telemetry(1, "INV1"))
        .await?;
    h.next_for("GW1", WAIT).await.ok_or("GW1's telemetry")?;
    let published = started.elapsed();
    let open = h.connections().handshaking;
    println!(
        "with {open} idle sockets open: gateway connected in {connected:?}, its telemetry \
         reached ingest after {published:?}"
    );
    assert!(open >= idle, "the idle sockets were open throughout");
    assert!(
        connected < Duration::from_secs(5),
        "connected in {connected:?}"
    );
    drop(holder);
    assert!(eventually(WAIT, || h.connections().handshaking == 0).await);
    Ok(())
}
