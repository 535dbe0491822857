//! The same portal client against an external broker: the Mosquitto on 127.0.0.1:1883
//! (anonymous allowed there). Skipped, with a note, when nothing listens.

use crate::link_common;

use std::time::Duration;

use devices::{
    link::{BrokerChoice, ClientConfig, Link, LinkConfig},
    report::{Command, Item},
};
use link_common::*;
use rumqttc::MqttOptions;

const ADDR: &str = "127.0.0.1:1883";

#[tokio::test]
async fn the_portal_client_works_against_an_external_mosquitto() -> TestResult {
    if tokio::net::TcpStream::connect(ADDR).await.is_err() {
        println!("note: no MQTT broker on {ADDR}; external broker test skipped");
        return Ok(());
    }
    // Unique names: other tests and simulators may share this broker.
    let tag = format!("{:x}", rand_tag());
    let sn = format!("EXT{tag}");
    let store = store::testing::sqlite().await?;
    store.create_gateway(&sn, "key", "", now_ms()).await?;
    let (tx, mut seen) = fake_ingest(store.clone(), Answer::Commit);
    let mut client = ClientConfig::new("127.0.0.1", 1883, format!("portal-test-{tag}"));
    client.shared_group = Some(format!("portal{tag}"));
    let link = Link::start(
        store.clone(),
        LinkConfig {
            broker: BrokerChoice::External,
            client,
            sweep_every: Duration::from_millis(200),
            comm_log: devices::link::CommLogConfig::default(),
        },
        tx,
    )
    .await?;
    assert!(link.broker_addr().is_none());
    assert!(link.client.ready(WAIT).await, "subscribed on Mosquitto");

    let mut o = MqttOptions::new(&sn, "127.0.0.1", 1883);
    o.set_keep_alive(Duration::from_secs(5));
    let mut gw = connect(o).await?;
    assert_eq!(
        gw.subscribe(&format!("portal/v1/{sn}/cmd")).await,
        Some(true)
    );
    gw.online(&sn).await?;
    gw.publish(&format!("portal/v1/{sn}/telemetry"), telemetry(7, "INVX"))
        .await?;
    let mut got = Vec::new();
    let until = tokio::time::Instant::now() + WAIT;
    while got.len() < 2 {
        let r = tokio::time::timeout_at(until, seen.recv())
            .await?
            .ok_or("ingest channel closed")?;
        if r.gateway_sn == sn {
            got.push(r.item);
        }
    }
    assert!(matches!(got[0], Item::Status(ref s) if s.online));
    assert!(matches!(got[1], Item::Telemetry(ref t) if t.ts == 7));

    // Commands and replies through the external broker.
    let id = link
        .dispatcher
        .send(
            &sn,
            "INVX",
            "restart",
            serde_json::json!({}),
            Duration::from_secs(10),
        )
        .await?;
    let p = gw.next(WAIT, publish_of).await.ok_or("no command")?;
    let cmd: Command = serde_json::from_slice(&p.payload)?;
    gw.publish(
        &format!("portal/v1/{sn}/reply"),
        format!(r#"{{"v":1,"id":"{}","code":0}}"#, cmd.id),
    )
    .await?;
    let row = link.dispatcher.wait(id, WAIT).await?.ok_or("row")?;
    assert_eq!(row.status, "succeeded");
    // Clear the retained status this test left behind.
    gw.client
        .publish(
            format!("portal/v1/{sn}/status"),
            rumqttc::QoS::AtLeastOnce,
            true,
            Vec::new(),
        )
        .await?;
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Wipe the portal client's persistent session so runs do not pile up on the shared broker.
    drop(link);
    let mut wipe = MqttOptions::new(format!("portal-test-{tag}"), "127.0.0.1", 1883);
    wipe.set_clean_session(true);
    drop(connect(wipe).await?);
    Ok(())
}

fn rand_tag() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    (u64::from(std::process::id()) << 32) | u64::from(nanos)
}
