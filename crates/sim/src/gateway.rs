//! A simulated gateway on the wire: it signs in to a broker with its SN and key, announces
//! itself online (retained, with an offline last will), reports telemetry every interval and
//! answers commands on its `cmd` topic.

use std::{sync::Arc, time::Duration};

use chrono::Utc;
use devices::{
    protocol::ProtocolConfig,
    report::{Command, GatewayStatus, PAYLOAD_VERSION, topic},
};
use rumqttc::{AsyncClient, Event, LastWill, MqttOptions, Packet, QoS};
use tokio::sync::watch;

use crate::{
    commands::{self, GatewayState, UpgradeJob, UpgradeTiming},
    fleet::SimGateway,
    readings::Values,
};

#[derive(Debug, Clone)]
pub struct Broker {
    pub host: String,
    pub port: u16,
}

#[derive(Debug, Clone)]
pub struct RunOptions {
    pub broker: Broker,
    /// Real time between reports.
    pub interval: Duration,
    /// The upload cycle the gateway announces (seconds of model time per report).
    pub upload_cycle_secs: i64,
}

/// The software a simulated gateway runs until it is upgraded.
const SOFT_VER: &str = "SIM-1.4.2";

fn status(online: bool, cycle: i64) -> Vec<u8> {
    status_with(online, cycle, SOFT_VER)
}

fn status_with(online: bool, cycle: i64, soft_ver: &str) -> Vec<u8> {
    let s = GatewayStatus {
        v: PAYLOAD_VERSION,
        online,
        soft_ver: Some(soft_ver.into()),
        hard_ver: Some("H2".into()),
        signal: Some(-61),
        comm_type: Some("WiFi".into()),
        upload_cycle: Some(cycle),
    };
    serde_json::to_vec(&s).unwrap_or_default()
}

/// Runs one gateway until `stop` turns true; then it says goodbye (offline) and disconnects.
pub async fn run(
    gw: SimGateway,
    configs: Arc<Vec<ProtocolConfig>>,
    opts: RunOptions,
    stop: watch::Receiver<bool>,
) {
    run_with(gw, configs, opts, UpgradeTiming::default(), stop).await;
}

async fn publish_reply(client: &AsyncClient, sn: &str, reply: &devices::report::CommandReply) {
    if let Ok(payload) = serde_json::to_vec(reply) {
        let _ = client
            .publish(topic(sn, "reply"), QoS::AtLeastOnce, false, payload)
            .await;
    }
}

/// Answers an upgrade command by starting a job (one per device at a time), or an
/// `upgrade_cancel` by marking the device's job cancelled when its model can stop.
fn upgrade_command(
    gw: &SimGateway,
    jobs: &mut Vec<(UpgradeJob, tokio::time::Instant)>,
    cmd: &Command,
    timing: UpgradeTiming,
) -> Option<devices::report::CommandReply> {
    let running = jobs.iter().position(|(j, _)| j.cmd.sn == cmd.sn);
    let type_code = gw
        .spec
        .devices
        .iter()
        .find(|d| d.sn == cmd.sn)
        .map_or(0, |d| d.type_code);
    if cmd.kind == "upgrade" {
        if running.is_some() {
            return Some(commands::refusal(
                cmd,
                commands::BUSY,
                "upgrade already running",
            ));
        }
        let cancellable = cmd.sn != gw.spec.sn && commands::supports_upgrade_cancel(type_code);
        return match UpgradeJob::start(cmd, cancellable, timing) {
            Ok(job) => {
                jobs.push((job, tokio::time::Instant::now()));
                None
            }
            Err(reply) => Some(reply),
        };
    }
    Some(match running {
        None => commands::refusal(cmd, commands::BAD_PARAMS, "no upgrade in progress"),
        Some(i) if !jobs[i].0.cancellable => commands::refusal(
            cmd,
            commands::UNSUPPORTED,
            "this model cannot cancel an upgrade",
        ),
        Some(i) => {
            jobs[i].0.cancelled = true;
            commands::refusal(cmd, 0, "cancelling")
        }
    })
}

/// The gateway's MQTT client, signed in with its current key.
fn connect(gw: &SimGateway, opts: &RunOptions) -> (AsyncClient, rumqttc::EventLoop) {
    let sn = gw.spec.sn.clone();
    let mut mqtt = MqttOptions::new(sn.clone(), opts.broker.host.clone(), opts.broker.port);
    mqtt.set_credentials(sn.clone(), gw.spec.key.clone());
    mqtt.set_keep_alive(Duration::from_secs(30));
    // A persistent session makes the broker hand back unacknowledged reports after a reconnect.
    mqtt.set_clean_session(false);
    mqtt.set_last_will(LastWill::new(
        topic(&sn, "status"),
        status(false, opts.upload_cycle_secs),
        QoS::AtLeastOnce,
        true,
    ));
    mqtt.set_max_packet_size(512 * 1024, 512 * 1024);
    AsyncClient::new(mqtt, 64)
}

/// Why a connection's loop ended.
enum Ended {
    Stopped,
    /// The gateway took a new key: it signs in again with it.
    NewKey,
}

/// [`run`] with chosen upgrade timing (tests make upgrades quick).
pub async fn run_with(
    mut gw: SimGateway,
    configs: Arc<Vec<ProtocolConfig>>,
    opts: RunOptions,
    timing: UpgradeTiming,
    mut stop: watch::Receiver<bool>,
) {
    let sn = gw.spec.sn.clone();
    let mut state = GatewayState::default();
    let mut latest: Vec<Values> = vec![Values::new(); gw.spec.devices.len()];
    let mut tick = tokio::time::interval(opts.interval);
    let mut last = Utc::now();
    let mut jobs: Vec<(UpgradeJob, tokio::time::Instant)> = Vec::new();
    let mut progress_tick = tokio::time::interval(timing.report_every);
    loop {
        let (client, mut events) = connect(&gw, &opts);
        let ended = loop {
            tokio::select! {
                changed = stop.changed() => {
                    if changed.is_err() || *stop.borrow() {
                        let _ = client.publish(topic(&sn, "status"), QoS::AtLeastOnce, true, status(false, opts.upload_cycle_secs)).await;
                        break Ended::Stopped;
                    }
                }
                _ = progress_tick.tick(), if !jobs.is_empty() => {
                    let mut still = Vec::with_capacity(jobs.len());
                    for (job, started) in jobs.drain(..) {
                        let reply = job.step(started.elapsed(), &mut state);
                        publish_reply(&client, &sn, &reply).await;
                        if !commands::is_final(&reply) {
                            still.push((job, started));
                        } else if reply.code == 0 && job.cmd.sn == sn {
                            // A gateway announces the software it now runs, as after a reboot.
                            let payload = status_with(true, opts.upload_cycle_secs, &job.version);
                            let _ = client.publish(topic(&sn, "status"), QoS::AtLeastOnce, true, payload).await;
                        }
                    }
                    jobs = still;
                }
                _ = tick.tick() => {
                    let now = Utc::now();
                    let dt = (now - last).num_milliseconds().max(0) as f64 / 1000.0;
                    last = now;
                    let (_, telemetry) = gw.telemetry(now, dt, &configs);
                    for (slot, reading) in latest.iter_mut().zip(&telemetry.devices) {
                        if !reading.values.is_empty() {
                            *slot = reading.values.clone();
                        }
                    }
                    match serde_json::to_vec(&telemetry) {
                        Ok(payload) => {
                            if let Err(e) = client.publish(topic(&sn, "telemetry"), QoS::AtLeastOnce, false, payload).await {
                                tracing::warn!(gateway = %sn, %e, "telemetry not queued");
                            }
                        }
                        Err(e) => tracing::warn!(gateway = %sn, %e, "telemetry not encoded"),
                    }
                }
                event = events.poll() => match event {
                    Ok(Event::Incoming(Packet::ConnAck(_))) => {
                        let _ = client.subscribe(topic(&sn, "cmd"), QoS::AtLeastOnce).await;
                        let _ = client.publish(topic(&sn, "status"), QoS::AtLeastOnce, true, status(true, opts.upload_cycle_secs)).await;
                    }
                    Ok(Event::Incoming(Packet::Publish(p))) if p.topic == topic(&sn, "cmd") => {
                        let Ok(cmd) = serde_json::from_slice::<Command>(&p.payload) else {
                            tracing::warn!(gateway = %sn, "unreadable command dropped");
                            continue;
                        };
                        let index = gw.spec.devices.iter().position(|d| d.sn == cmd.sn).unwrap_or(0);
                        let protocol = gw.spec.devices.get(index).map(|d| d.protocol).unwrap_or_default();
                        let config = configs.iter().find(|c| c.code == protocol);
                        let values = latest.get(index).cloned().unwrap_or_default();
                        let reply = if matches!(cmd.kind.as_str(), "upgrade" | "upgrade_cancel") {
                            upgrade_command(&gw, &mut jobs, &cmd, timing)
                        } else {
                            Some(commands::answer(&mut gw, &mut state, &cmd, &values, config))
                        };
                        if let Some(reply) = reply {
                            publish_reply(&client, &sn, &reply).await;
                            if commands::took_new_key(&cmd, &reply) {
                                break Ended::NewKey;
                            }
                        }
                    }
                    Ok(_) => {}
                    Err(e) => {
                        tracing::debug!(gateway = %sn, %e, "broker connection lost; retrying");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
        };
        // The broker takes a connection's packets in order, so the reply (or the goodbye)
        // published before the disconnect is in before the connection closes.
        let _ = client.disconnect().await;
        let _ = tokio::time::timeout(Duration::from_secs(2), async {
            while events.poll().await.is_ok() {}
        })
        .await;
        match ended {
            Ended::Stopped => return,
            Ended::NewKey => tracing::info!(gateway = %sn, "new key taken; signing in again"),
        }
    }
}
