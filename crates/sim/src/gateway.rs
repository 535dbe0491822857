//! A simulated gateway on the wire: it signs in to a broker with its SN and key, announces
//! itself online (retained, with an offline last will), reports telemetry every interval and
//! answers commands on its `cmd` topic.

use std::{sync::Arc, time::Duration};

use chrono::Utc;
use devices::{
    protocol::ProtocolConfig,
    report::{Command, GatewayStatus, PAYLOAD_VERSION, topic},
};
use rumqttc::{AsyncClient, LastWill, MqttOptions, QoS};
use tokio::{
    sync::watch,
    time::{Instant, MissedTickBehavior},
};

use crate::{
    commands::{self, GatewayState, UpgradeJob, UpgradeTiming},
    connection::Connection,
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
    /// How long the gateway is away after a `restart` command to itself.
    pub reboot: Duration,
}

impl RunOptions {
    /// Reports every `interval`, announced as the upload cycle, and a 30 s reboot.
    pub fn new(broker: Broker, interval: Duration) -> RunOptions {
        RunOptions {
            broker,
            interval,
            upload_cycle_secs: i64::try_from(interval.as_secs()).unwrap_or(i64::MAX).max(1),
            reboot: DEFAULT_REBOOT,
        }
    }
}

/// A restart takes a simulated gateway away for this long: longer than three upload cycles of
/// the demo (so the portal shows it offline meanwhile) and shorter than the broker's keep-alive
/// limit (so its next connection takes over a session the broker still holds, as after a real
/// power cut).
pub const DEFAULT_REBOOT: Duration = Duration::from_secs(30);

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

fn reply_bytes(reply: &devices::report::CommandReply) -> Vec<u8> {
    serde_json::to_vec(reply).unwrap_or_default()
}

/// Answers an upgrade command by starting a job (one per device at a time), or an
/// `upgrade_cancel` by marking the device's job cancelled when its model can stop.
fn upgrade_command(
    gw: &SimGateway,
    jobs: &mut Vec<(UpgradeJob, Instant)>,
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
                jobs.push((job, Instant::now()));
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

/// The gateway's MQTT client, signed in with its current key, and its pump.
fn connect(gw: &SimGateway, opts: &RunOptions) -> Connection {
    let sn = gw.spec.sn.clone();
    let mut mqtt = MqttOptions::new(sn.clone(), opts.broker.host.clone(), opts.broker.port);
    mqtt.set_credentials(sn.clone(), gw.spec.key.clone());
    mqtt.set_keep_alive(Duration::from_secs(30));
    // A persistent session: the broker keeps the subscription and queued commands, and the
    // client sends unacknowledged messages again, across reconnections.
    mqtt.set_clean_session(false);
    mqtt.set_last_will(LastWill::new(
        topic(&sn, "status"),
        status(false, opts.upload_cycle_secs),
        QoS::AtLeastOnce,
        true,
    ));
    mqtt.set_max_packet_size(512 * 1024, 512 * 1024);
    let (client, events) = AsyncClient::new(mqtt, 64);
    Connection::start(&sn, client, events)
}

/// Why a connection's loop ended.
enum Ended {
    Stopped,
    /// The gateway took a new key: it signs in again with it.
    NewKey,
    /// The gateway restarts: away for the reboot time, then it signs in again.
    Reboot,
    /// The connection's pump ended by itself (it should not): start a new connection.
    Lost,
}

/// A running gateway: its plant, its memory, its upgrades and its timers. Lives across
/// connections (a reboot clears only what a real gateway keeps in RAM: running upgrades).
struct Runtime {
    gw: SimGateway,
    configs: Arc<Vec<ProtocolConfig>>,
    opts: RunOptions,
    timing: UpgradeTiming,
    state: GatewayState,
    /// The software the gateway runs (changed by an upgrade of the gateway itself).
    soft_ver: String,
    latest: Vec<Values>,
    last: chrono::DateTime<Utc>,
    jobs: Vec<(UpgradeJob, Instant)>,
    report: tokio::time::Interval,
    progress: tokio::time::Interval,
}

/// [`run`] with chosen upgrade timing (tests make upgrades quick).
pub async fn run_with(
    gw: SimGateway,
    configs: Arc<Vec<ProtocolConfig>>,
    opts: RunOptions,
    timing: UpgradeTiming,
    mut stop: watch::Receiver<bool>,
) {
    let mut rt = Runtime::new(gw, configs, opts, timing);
    loop {
        let conn = connect(&rt.gw, &rt.opts);
        match rt.serve(conn, &mut stop).await {
            Ended::Stopped => return,
            Ended::NewKey => {
                tracing::info!(gateway = %rt.gw.spec.sn, "new key taken; signing in again")
            }
            Ended::Lost => {
                tracing::warn!(gateway = %rt.gw.spec.sn, "connection ended; starting a new one");
                tokio::time::sleep(crate::connection::BACKOFF_MIN).await;
            }
            Ended::Reboot => {
                tracing::info!(gateway = %rt.gw.spec.sn, away = ?rt.opts.reboot, "restarting");
                tokio::select! {
                    () = tokio::time::sleep(rt.opts.reboot) => {}
                    _ = stop.wait_for(|s| *s) => return,
                }
                rt.rebooted();
            }
        }
    }
}

/// A timer whose missed ticks are skipped: a timer that was not polled for a while (the
/// progress timer while no upgrade runs, every timer during a reboot) must not fire all the
/// ticks it missed at once. Before issue 13 the progress timer did, and its burst of replies
/// blocked the gateway.
fn timer(period: Duration) -> tokio::time::Interval {
    let mut t = tokio::time::interval(period);
    t.set_missed_tick_behavior(MissedTickBehavior::Skip);
    t
}

impl Runtime {
    fn new(
        gw: SimGateway,
        configs: Arc<Vec<ProtocolConfig>>,
        opts: RunOptions,
        timing: UpgradeTiming,
    ) -> Runtime {
        let devices = gw.spec.devices.len();
        Runtime {
            report: timer(opts.interval),
            progress: timer(timing.report_every),
            gw,
            configs,
            opts,
            timing,
            state: GatewayState::default(),
            soft_ver: SOFT_VER.to_string(),
            latest: vec![Values::new(); devices],
            last: Utc::now(),
            jobs: Vec::new(),
        }
    }

    fn sn(&self) -> String {
        self.gw.spec.sn.clone()
    }

    /// Back from a reboot: running upgrades are forgotten, reports start afresh.
    fn rebooted(&mut self) {
        self.jobs.clear();
        self.report.reset_immediately();
    }

    /// Serves one connection until the gateway stops, takes a new key or restarts.
    async fn serve(&mut self, mut conn: Connection, stop: &mut watch::Receiver<bool>) -> Ended {
        let sn = self.sn();
        let mut flush = timer(Duration::from_millis(50));
        loop {
            tokio::select! {
                changed = stop.changed() => {
                    if changed.is_err() || *stop.borrow() {
                        conn.send("status", true, self.status(false));
                        conn.close().await;
                        return Ended::Stopped;
                    }
                }
                _ = flush.tick(), if conn.backlog() => conn.flush(),
                changed = conn.connected.changed() => {
                    if changed.is_err() {
                        return Ended::Lost;
                    }
                    // Signed in (again): subscribe and announce.
                    if let Err(e) = conn.client.try_subscribe(topic(&sn, "cmd"), QoS::AtLeastOnce) {
                        tracing::warn!(gateway = %sn, %e, "subscribe not queued");
                    }
                    conn.send("status", true, self.status(true));
                }
                Some(cmd) = conn.commands.recv() => {
                    if let Some(ended) = self.command(&mut conn, &cmd) {
                        match ended {
                            Ended::Reboot => {
                                // Let the reply go out, then fall silent without a goodbye.
                                conn.drain(Duration::from_secs(2)).await;
                                tokio::time::sleep(Duration::from_millis(500)).await;
                                conn.freeze(self.opts.reboot + Duration::from_secs(5));
                            }
                            _ => conn.close().await,
                        }
                        return ended;
                    }
                }
                _ = self.progress.tick(), if !self.jobs.is_empty() => self.step_jobs(&mut conn),
                _ = self.report.tick() => self.report(&mut conn),
            }
        }
    }

    fn status(&self, online: bool) -> Vec<u8> {
        status_with(online, self.opts.upload_cycle_secs, &self.soft_ver)
    }

    /// Answers one command; `Some` when the connection must end because of it.
    fn command(&mut self, conn: &mut Connection, cmd: &Command) -> Option<Ended> {
        let sn = self.sn();
        if let Some((cycle, reply)) = commands::upload_cycle(cmd, &sn) {
            conn.send("reply", false, reply_bytes(&reply));
            if let Some(seconds) = cycle {
                // Reports now come every `seconds` of model time (real time scaled as before),
                // and the status says so: the portal's offline rule follows the reported cycle.
                let real_per_model =
                    self.opts.interval.as_secs_f64() / self.opts.upload_cycle_secs.max(1) as f64;
                self.opts.upload_cycle_secs = seconds;
                self.opts.interval = Duration::from_secs_f64(seconds as f64 * real_per_model)
                    .max(Duration::from_millis(100));
                self.report = timer(self.opts.interval);
                conn.send("status", true, self.status(true));
            }
            return None;
        }
        let reply = if matches!(cmd.kind.as_str(), "upgrade" | "upgrade_cancel") {
            let was_idle = self.jobs.is_empty();
            let reply = upgrade_command(&self.gw, &mut self.jobs, cmd, self.timing);
            if was_idle && !self.jobs.is_empty() {
                // The first progress report comes one period after the start.
                self.progress.reset();
            }
            reply
        } else {
            let index = self
                .gw
                .spec
                .devices
                .iter()
                .position(|d| d.sn == cmd.sn)
                .unwrap_or(0);
            let protocol = self
                .gw
                .spec
                .devices
                .get(index)
                .map(|d| d.protocol)
                .unwrap_or_default();
            let config = self.configs.iter().find(|c| c.code == protocol);
            let values = self.latest.get(index).cloned().unwrap_or_default();
            Some(commands::answer(
                &mut self.gw,
                &mut self.state,
                cmd,
                &values,
                config,
            ))
        };
        let reply = reply?;
        conn.send("reply", false, reply_bytes(&reply));
        if commands::took_new_key(cmd, &reply) {
            return Some(Ended::NewKey);
        }
        (cmd.kind == "restart" && cmd.sn == sn && reply.code == 0).then_some(Ended::Reboot)
    }

    /// One progress report per running upgrade; finished ones leave the list.
    fn step_jobs(&mut self, conn: &mut Connection) {
        let sn = self.sn();
        let mut still = Vec::with_capacity(self.jobs.len());
        for (job, started) in std::mem::take(&mut self.jobs) {
            let reply = job.step(started.elapsed(), &mut self.state);
            if !commands::is_final(&reply) {
                conn.offer("reply", reply_bytes(&reply));
                still.push((job, started));
                continue;
            }
            conn.send("reply", false, reply_bytes(&reply));
            if reply.code == 0 && job.cmd.sn == sn {
                // A gateway announces the software it now runs, as after a reboot.
                self.soft_ver = job.version.clone();
                conn.send("status", true, self.status(true));
            }
        }
        self.jobs = still;
    }

    /// Advances the plant and reports it.
    fn report(&mut self, conn: &mut Connection) {
        let sn = self.sn();
        let now = Utc::now();
        let dt = (now - self.last).num_milliseconds().max(0) as f64 / 1000.0;
        self.last = now;
        let (_, telemetry) = self.gw.telemetry(now, dt, &self.configs);
        // By SN: a silent device is missing from the report.
        for (slot, d) in self.latest.iter_mut().zip(&self.gw.spec.devices) {
            match telemetry.devices.iter().find(|r| r.sn == d.sn) {
                Some(reading) if !reading.values.is_empty() => *slot = reading.values.clone(),
                _ => {}
            }
        }
        match serde_json::to_vec(&telemetry) {
            Ok(payload) => conn.offer("telemetry", payload),
            Err(e) => tracing::warn!(gateway = %sn, %e, "telemetry not encoded"),
        }
    }
}
