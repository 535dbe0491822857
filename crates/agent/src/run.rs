//! The agent running: a poll every upload cycle (each reading appended to the disk buffer, then
//! published by the uplink), the portal's commands carried out one at a time, "communication
//! lost" events for devices that stop or start answering, and a clean stop.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::Duration,
};

use devices::report::{DeviceEvent, GatewayStatus, PAYLOAD_VERSION};
use tokio::sync::{mpsc, oneshot, watch};

use crate::{
    buffer::Buffer,
    commands::{After, Handler},
    config::Config,
    poller::{LogLimiter, Site, lost_event_code, telemetry_payloads},
    state::State,
    uplink::{self, ToUplink, UplinkOptions},
};

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    Stopped,
    /// The portal asked for a restart: exit for systemd to start the agent again.
    Restart,
}

/// Options a test may change.
#[derive(Debug, Clone)]
pub struct RunOptions {
    pub keep_alive: Duration,
    /// Overrides the upload cycle (tests poll faster than the 10 s the portal may set).
    pub cycle: Option<Duration>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            keep_alive: Duration::from_secs(60),
            cycle: None,
        }
    }
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

fn status(cycle: u32) -> GatewayStatus {
    GatewayStatus {
        v: PAYLOAD_VERSION,
        online: true,
        soft_ver: Some(format!("agent-{}", env!("CARGO_PKG_VERSION"))),
        hard_ver: None,
        signal: None,
        comm_type: Some("LAN".into()),
        upload_cycle: Some(i64::from(cycle)),
    }
}

/// Runs until `stop` turns true or the portal asks for a restart.
pub async fn run(
    config: Config,
    opts: RunOptions,
    mut stop: watch::Receiver<bool>,
) -> Result<Exit, String> {
    let state = State::load(&config)
        .map_err(|e| format!("state dir {}: {e}", config.state_dir.display()))?;
    let buffer = Buffer::open(&state.buffer_dir(), config.buffer_bytes)
        .map_err(|e| format!("reading buffer {}: {e}", state.buffer_dir().display()))?;
    let buffer = Arc::new(Mutex::new(buffer));
    let site = Arc::new(Site::new(&config));
    let cycle = state.upload_cycle;
    let (status_tx, status_rx) = watch::channel(status(cycle));
    let (cycle_tx, cycle_rx) = watch::channel(cycle);
    let (halt_tx, halt_rx) = watch::channel(false);
    let key = state.key.clone();
    let state = Arc::new(Mutex::new(state));
    let uplink::Uplink {
        tx: uplink_tx,
        mut commands,
        task: uplink_task,
        ..
    } = uplink::start(
        UplinkOptions {
            host: config.mqtt_host.clone(),
            port: config.mqtt_port,
            sn: config.sn.clone(),
            key,
            keep_alive: opts.keep_alive,
        },
        buffer.clone(),
        status_rx,
        halt_rx.clone(),
    );
    tracing::info!(gateway = %config.sn, devices = site.devices.len(), cycle, "agent started");
    let mut poller = AbortOnDrop(tokio::spawn(poll_loop(
        site.clone(),
        buffer.clone(),
        uplink_tx.clone(),
        cycle_rx,
        opts.cycle,
        halt_rx,
    )));
    let mut uplink_task = AbortOnDrop(uplink_task);
    let handler = Handler {
        gateway_sn: config.sn.clone(),
        site,
        state,
    };
    let exit = loop {
        let cmd = tokio::select! {
            _ = stop.wait_for(|s| *s) => break Exit::Stopped,
            cmd = commands.recv() => match cmd {
                Some(cmd) => cmd,
                None => break Exit::Stopped,
            },
        };
        tracing::info!(kind = %cmd.kind, device = %cmd.sn, id = %cmd.id, "command");
        let (reply, after) = handler.answer(&cmd).await;
        if reply.code != 0 {
            tracing::warn!(kind = %cmd.kind, device = %cmd.sn, code = reply.code, msg = %reply.msg, "command failed");
        }
        let (acked_tx, acked) = oneshot::channel();
        let payload = serde_json::to_vec(&reply).unwrap_or_default();
        let _ = uplink_tx
            .send(ToUplink::Message {
                leaf: "reply",
                payload,
                acked: Some(acked_tx),
            })
            .await;
        match after {
            After::Nothing => {}
            After::Rekey(key) => {
                let _ = uplink_tx.send(ToUplink::Rekey(key)).await;
            }
            After::Cycle(s) => {
                let _ = cycle_tx.send(s);
                status_tx.send_modify(|st| st.upload_cycle = Some(i64::from(s)));
            }
            After::Restart => {
                let _ = tokio::time::timeout(Duration::from_secs(5), acked).await;
                break Exit::Restart;
            }
        }
    };
    let _ = halt_tx.send(true);
    let _ = tokio::time::timeout(Duration::from_secs(10), &mut poller.0).await;
    let _ = tokio::time::timeout(Duration::from_secs(5), &mut uplink_task.0).await;
    Ok(exit)
}

/// A task that ends with the run: when the run itself is dropped (its task aborted, as a test
/// does to stand in for `kill -9`), its poller and uplink go with it, mid-flight.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Polls every cycle: readings into the buffer first (synced), then the uplink is told.
async fn poll_loop(
    site: Arc<Site>,
    buffer: Arc<Mutex<Buffer>>,
    uplink: mpsc::Sender<ToUplink>,
    mut cycle: watch::Receiver<u32>,
    fixed: Option<Duration>,
    mut halt: watch::Receiver<bool>,
) {
    let period = |s: u32| fixed.unwrap_or(Duration::from_secs(u64::from(s)));
    let mut ticker = tokio::time::interval(period(*cycle.borrow()));
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut limiter = LogLimiter::default();
    let mut answering: HashMap<String, bool> = HashMap::new();
    loop {
        tokio::select! {
            _ = halt.wait_for(|h| *h) => return,
            _ = cycle.changed() => {
                ticker = tokio::time::interval(period(*cycle.borrow_and_update()));
                ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                continue;
            }
            _ = ticker.tick() => {}
        }
        let ts = now_ms();
        let mut readings = Vec::new();
        for (device, read) in site.poll().await {
            let sn = &device.config.sn;
            for (req, e) in &read.failures {
                if let Some(held) = limiter.allow(sn, e.kind()) {
                    tracing::warn!(device = %sn, bus = %device.bus.name, start = req.start, count = req.count,
                        error = %e, not_logged_since = held, "read failed: block left out");
                }
            }
            let now = read.answered();
            // A device answering from the start has nothing to close.
            let before = answering.insert(sn.clone(), now);
            if before.is_some_and(|b| b != now) || (before.is_none() && !now) {
                event(&uplink, &device.config, now, ts).await;
            }
            if now {
                readings.push(device.reading(read.blocks));
            }
        }
        if readings.is_empty() {
            continue;
        }
        for payload in telemetry_payloads(ts, readings) {
            let appended = buffer
                .lock()
                .map_err(|e| e.to_string())
                .and_then(|mut b| b.append(&payload).map_err(|e| e.to_string()));
            if let Err(e) = appended {
                // A full or failing disk: the reading still goes, kept in memory until it is
                // acknowledged (lost if the agent stops first).
                tracing::error!(error = %e, "the reading could not be stored on disk: sent from memory");
                let _ = uplink
                    .send(ToUplink::Message {
                        leaf: "telemetry",
                        payload,
                        acked: None,
                    })
                    .await;
            }
        }
        let _ = uplink.try_send(ToUplink::Reading);
    }
}

/// Opens or closes the device's "communication lost" event when its family has one.
async fn event(
    uplink: &mpsc::Sender<ToUplink>,
    device: &crate::config::DeviceConfig,
    answering: bool,
    ts: i64,
) {
    let family = device.protocol.family;
    let Some(code) = lost_event_code(family) else {
        if answering {
            tracing::info!(device = %device.sn, "the device answers again");
        } else {
            tracing::warn!(device = %device.sn, "the device does not answer (its family has no communication event: the portal shows it offline)");
        }
        return;
    };
    let e = DeviceEvent {
        v: PAYLOAD_VERSION,
        ts,
        sn: device.sn.clone(),
        code: code.to_string(),
        action: if answering { "close" } else { "open" }.into(),
    };
    let payload = serde_json::to_vec(&e).unwrap_or_default();
    let _ = uplink
        .send(ToUplink::Message {
            leaf: "event",
            payload,
            acked: None,
        })
        .await;
}
