//! A simulated gateway against the Mosquitto broker that runs on loopback (anonymous access):
//! its telemetry arrives on its own topic and it answers a command. Skipped, with a note, when
//! no broker listens on 127.0.0.1:1883.

use std::{sync::Arc, time::Duration};

use devices::report::{Command, CommandReply, Telemetry, topic};
use rumqttc::{AsyncClient, Event, MqttOptions, Packet, QoS};
use sim::{
    fleet::{SimGateway, demo_fleet},
    gateway::{Broker, RunOptions, run},
};

#[tokio::test]
async fn a_simulated_gateway_reports_and_answers_commands_through_a_real_broker() {
    if tokio::net::TcpStream::connect("127.0.0.1:1883")
        .await
        .is_err()
    {
        eprintln!("no MQTT broker on 127.0.0.1:1883: test skipped");
        return;
    }
    let mut spec = demo_fleet(1, 5).remove(0);
    spec.sn = format!("SIMTEST{}", std::process::id());
    let sn = spec.sn.clone();
    let inverter = spec.devices[0].sn.clone();

    let mut watcher = MqttOptions::new(format!("watch-{sn}"), "127.0.0.1", 1883);
    watcher.set_max_packet_size(512 * 1024, 512 * 1024);
    let (spy, mut spy_events) = AsyncClient::new(watcher, 16);
    spy.subscribe(topic(&sn, "telemetry"), QoS::AtLeastOnce)
        .await
        .unwrap();
    spy.subscribe(topic(&sn, "reply"), QoS::AtLeastOnce)
        .await
        .unwrap();
    // Wait until the subscriptions are in place.
    let mut subacks = 0;
    while subacks < 2 {
        if let Ok(Event::Incoming(Packet::SubAck(_))) = spy_events.poll().await {
            subacks += 1;
        }
    }

    let configs = Arc::new(devices::protocol::shipped().unwrap());
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let opts = RunOptions {
        broker: Broker {
            host: "127.0.0.1".into(),
            port: 1883,
        },
        interval: Duration::from_millis(300),
        upload_cycle_secs: 300,
        reboot: sim::gateway::DEFAULT_REBOOT,
    };
    let task = tokio::spawn(run(SimGateway::new(spec), configs, opts, stop_rx));

    let mut telemetry = None;
    let mut reply = None;
    let mut asked = false;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    while (telemetry.is_none() || reply.is_none()) && tokio::time::Instant::now() < deadline {
        let Ok(Ok(event)) = tokio::time::timeout(Duration::from_secs(2), spy_events.poll()).await
        else {
            continue;
        };
        let Event::Incoming(Packet::Publish(p)) = event else {
            continue;
        };
        if p.topic.ends_with("/telemetry") {
            telemetry = serde_json::from_slice::<Telemetry>(&p.payload).ok();
            if !asked {
                asked = true;
                let cmd = Command {
                    v: 1,
                    id: "c1".into(),
                    sn: inverter.clone(),
                    kind: "power_off".into(),
                    params: serde_json::Value::Null,
                    timeout_ms: 5000,
                };
                spy.publish(
                    topic(&sn, "cmd"),
                    QoS::AtLeastOnce,
                    false,
                    serde_json::to_vec(&cmd).unwrap(),
                )
                .await
                .unwrap();
            }
        } else if p.topic.ends_with("/reply") {
            reply = serde_json::from_slice::<CommandReply>(&p.payload).ok();
        }
    }
    let _ = stop_tx.send(true);
    let _ = tokio::time::timeout(Duration::from_secs(5), task).await;
    // Leave no retained status behind on the shared broker.
    spy.publish(
        topic(&sn, "status"),
        QoS::AtLeastOnce,
        true,
        Vec::<u8>::new(),
    )
    .await
    .unwrap();
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        while spy_events.poll().await.is_ok() {}
    })
    .await;

    let telemetry = telemetry.expect("telemetry arrived");
    assert_eq!(telemetry.devices[0].sn, inverter);
    let reply = reply.expect("the command was answered");
    assert_eq!((reply.id.as_str(), reply.code), ("c1", 0));
    assert_eq!(reply.data["on"], false);
}
