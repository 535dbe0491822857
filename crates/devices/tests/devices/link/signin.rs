//! Signing in: MQTT 3.1.1 and 5, the refusals, the last will, a taken port.

use super::*;

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
