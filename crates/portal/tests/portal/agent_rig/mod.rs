//! The real path of a reading, set up for a test: `portal serve` (a child process on a SQLite
//! data dir, its embedded broker), the device emulators of `sim::emulate` (Modbus TCP, a
//! Solarman V5 stick and an RTU bus on a pty, serving one simulated plant), and gateway agents
//! (`agent::run` in process, or `portal agent` as a child) reading the emulators and reporting
//! to the portal. The test reads what an API client sees.
#![allow(dead_code, reason = "each test uses part of the rig")]

use domain::ids::GatewayId;
use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use devices::{decode::decode_point, protocol::ProtocolConfig};
use serde_json::Value;
use sim::emulate::{EmulateOptions, Emulation, RtuOptions};
use store::Store;
use tokio::sync::watch;

use crate::common::{Error, free_port, http, portal::Portal, temp_dir};

pub const ADMIN: &str = "admin@example.com";
pub const PASSWORD: &str = "agent-path-1";
/// The agents' poll period in these tests.
pub const CYCLE: Duration = Duration::from_secs(2);
/// The emulated RS485 bus's speed (fast, so a poll fits well inside the cycle).
pub const RTU_BAUD: u32 = 115_200;

/// A transport an agent reads the emulated inverter over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    Tcp,
    V5,
    Rtu,
}

impl Transport {
    pub const ALL: [Transport; 3] = [Transport::Tcp, Transport::V5, Transport::Rtu];

    pub fn name(self) -> &'static str {
        match self {
            Transport::Tcp => "tcp",
            Transport::V5 => "v5",
            Transport::Rtu => "rtu",
        }
    }
}

/// The portal, its database and the emulated site.
pub struct Rig {
    pub dir: PathBuf,
    pub db_url: String,
    pub mqtt_port: u16,
    pub portal: Option<Portal>,
    pub emulation: Emulation,
    pub token: String,
    /// The inverter's unit id on the emulated bus, and its protocol.
    pub unit: u8,
    pub config: ProtocolConfig,
    pub model: String,
    /// The plant's meter: its unit id and protocol code (each agent reports it as `{SN}-MTR`).
    pub meter: Option<(u8, String)>,
}

/// One gateway of the rig: its SN and key as registered, the inverter SN it reports, how it
/// reads the inverter.
#[derive(Debug, Clone)]
pub struct Gateway {
    pub sn: String,
    pub key: String,
    pub id: GatewayId,
    pub inverter: String,
    pub transport: Transport,
}

impl Gateway {
    /// The SN its agent reports the plant's meter under.
    pub fn meter(&self) -> String {
        format!("{}-MTR", self.sn)
    }
}

/// A running in-process agent; dropping it stops it (as `kill -9` would: mid-flight).
pub struct Agent {
    stop: watch::Sender<bool>,
    task: Option<tokio::task::JoinHandle<Result<agent::Exit, String>>>,
    pub state_dir: PathBuf,
}

impl Agent {
    /// A clean stop (SIGTERM's path): the agent publishes its offline status.
    pub async fn stop(mut self) {
        let _ = self.stop.send(true);
        if let Some(task) = self.task.take() {
            let _ = tokio::time::timeout(Duration::from_secs(15), task).await;
        }
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        if let Some(task) = &self.task {
            task.abort();
        }
    }
}

impl Rig {
    /// A data dir with `gateways` registered, the portal started on it, the emulators serving
    /// the first plant of the simulator's demo fleet (its registers held still).
    pub async fn start(
        name: &str,
        gateways: &[(&str, Transport)],
    ) -> Result<(Rig, Vec<Gateway>), Error> {
        let dir = temp_dir(name)?;
        let db_url = format!("sqlite://{}", dir.join("portal.db").display());
        let configs = devices::protocol::shipped().map_err(|e| format!("shipped configs: {e}"))?;
        let spec = sim::fleet::demo_fleet(1, 2024)
            .into_iter()
            .next()
            .ok_or("no demo plant")?;
        let emulation = Emulation::start(EmulateOptions {
            site: spec,
            configs,
            step: None,
            tcp: Some("127.0.0.1:0".parse()?),
            v5: Some(("127.0.0.1:0".parse()?, 2_712_345_678)),
            rtu: Some(RtuOptions {
                baud: RTU_BAUD,
                link: None,
            }),
        })
        .await?;
        let (unit, config, model, meter) = {
            let site = emulation.site.lock();
            let inv = site
                .devices()
                .iter()
                .find(|d| d.family == devices::DeviceFamily::Inverter)
                .ok_or("the demo plant has no inverter")?;
            let model = site
                .gateway()
                .spec
                .devices
                .iter()
                .find(|d| d.sn == inv.sn)
                .map_or_else(String::new, |d| d.model.clone());
            let meter = site
                .devices()
                .iter()
                .find(|d| d.family == devices::DeviceFamily::Meter)
                .map(|d| (d.unit, d.config().code.clone()));
            (inv.unit, inv.config().clone(), model, meter)
        };
        let mut registered = Vec::new();
        {
            let store = Store::connect(&db_url).await?;
            store.migrate().await?;
            for (sn, transport) in gateways {
                let key = format!("K{sn}x7Qp");
                let id = store.create_gateway(sn, &key, &config.code, 1).await?;
                registered.push(Gateway {
                    sn: sn.to_string(),
                    key,
                    id,
                    inverter: format!("{sn}-INV"),
                    transport: *transport,
                });
            }
            store.close().await;
        }
        let mqtt_port = free_port()?;
        let mut rig = Rig {
            dir,
            db_url,
            mqtt_port,
            portal: None,
            emulation,
            token: String::new(),
            unit,
            config,
            model,
            meter,
        };
        rig.start_portal().await?;
        Ok((rig, registered))
    }

    /// `portal serve` on the rig's data dir and MQTT port; signs the admin in.
    pub async fn start_portal(&mut self) -> Result<(), Error> {
        let settings: Vec<(String, String)> = [
            ("PORTAL_DATA_DIR", self.dir.display().to_string()),
            ("PORTAL_MQTT_EMBEDDED", "true".into()),
            ("PORTAL_MQTT_ADDR", format!("127.0.0.1:{}", self.mqtt_port)),
            ("PORTAL_MQTT_ADDR_FALLBACK", "false".into()),
            ("PORTAL_ADMIN_USER", ADMIN.into()),
            ("PORTAL_ADMIN_PASSWORD", PASSWORD.into()),
            ("PORTAL_LOG", "warn".into()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        let portal = Portal::start("portal", &settings)?;
        self.token = http::sign_in(portal.http_port, ADMIN, PASSWORD).await?;
        self.portal = Some(portal);
        Ok(())
    }

    /// SIGKILL to the portal (its embedded broker goes with it).
    pub fn stop_portal(&mut self) -> Result<(), Error> {
        if let Some(mut p) = self.portal.take() {
            p.kill()?;
        }
        Ok(())
    }

    fn http_port(&self) -> Result<u16, Error> {
        Ok(self
            .portal
            .as_ref()
            .ok_or("the portal is stopped")?
            .http_port)
    }

    /// The agent's configuration for `gw`: one bus of its transport, the inverter on it.
    pub fn agent_config(
        &self,
        gw: &Gateway,
        state_dir: &Path,
        upload_cycle: u32,
    ) -> Result<String, Error> {
        let bus = match gw.transport {
            Transport::Tcp => format!(
                "kind = \"tcp\"\naddress = \"{}\"",
                self.emulation.tcp.as_ref().ok_or("no tcp server")?.addr
            ),
            Transport::V5 => format!(
                "kind = \"solarman\"\naddress = \"{}\"\nlogger_serial = {}",
                self.emulation.v5.as_ref().ok_or("no v5 server")?.addr,
                self.emulation.serial.ok_or("no logger serial")?
            ),
            Transport::Rtu => format!(
                "kind = \"rtu\"\nport = \"{}\"\nbaud = {RTU_BAUD}",
                self.emulation
                    .rtu
                    .as_ref()
                    .ok_or("no rtu bus")?
                    .path
                    .display()
            ),
        };
        Ok(format!(
            "mqtt = \"127.0.0.1:{port}\"\nsn = \"{sn}\"\nkey = \"{key}\"\nstate_dir = \"{state}\"\n\
             upload_cycle = {upload_cycle}\n\n[[bus]]\nname = \"bus\"\n{bus}\ntimeout_ms = 500\n\n\
             [[device]]\nbus = \"bus\"\nunit = {unit}\nsn = \"{inv}\"\nprotocol = \"{proto}\"\n\
             model = \"{model}\"\n",
            port = self.mqtt_port,
            sn = gw.sn,
            key = gw.key,
            state = state_dir.display(),
            unit = self.unit,
            inv = gw.inverter,
            proto = self.config.code,
            model = self.model,
        ) + &self
            .meter
            .as_ref()
            .map(|(unit, proto)| {
                format!(
                    "\n[[device]]\nbus = \"bus\"\nunit = {unit}\nsn = \"{}\"\n\
                     protocol = \"{proto}\"\n",
                    gw.meter()
                )
            })
            .unwrap_or_default())
    }

    /// `agent::run` for `gw` in this process, polling every [`CYCLE`].
    pub fn start_agent(&self, gw: &Gateway) -> Result<Agent, Error> {
        let state_dir = self.dir.join(format!("agent-{}", gw.sn));
        self.start_agent_in(gw, state_dir)
    }

    pub fn start_agent_in(&self, gw: &Gateway, state_dir: PathBuf) -> Result<Agent, Error> {
        let text = self.agent_config(gw, &state_dir, 10)?;
        let config = agent::Config::parse(&text, &self.dir)
            .map_err(|e| format!("agent config: {}\n{text}", e.0.join("\n")))?;
        let (stop, stop_rx) = watch::channel(false);
        let opts = agent::RunOptions {
            keep_alive: Duration::from_secs(5),
            cycle: Some(CYCLE),
        };
        let task = tokio::spawn(agent::run(config, opts, stop_rx));
        Ok(Agent {
            stop,
            task: Some(task),
            state_dir,
        })
    }

    /// GET `path` as the admin; the envelope's data.
    pub async fn get(&self, path: &str) -> Result<Value, Error> {
        http::get(self.http_port()?, path, Some(&self.token))
            .await?
            .data()
            .map_err(|e| format!("GET {path}: {e}").into())
    }

    pub async fn post(&self, path: &str, body: &Value) -> Result<Value, Error> {
        http::post_json(self.http_port()?, path, &self.token, body)
            .await?
            .data()
            .map_err(|e| format!("POST {path}: {e}").into())
    }

    /// The inverter's decoded values as its registers in the emulator hold them now.
    pub fn register_values(&self) -> BTreeMap<String, f64> {
        let site = self.emulation.site.lock();
        let Some(dev) = site.device(self.unit) else {
            return BTreeMap::new();
        };
        self.config
            .points
            .iter()
            .filter_map(|p| Some((p.key.clone(), decode_point(p, dev.image())?.as_f64()?)))
            .collect()
    }

    /// Timestamps of the device's stored samples, in order.
    pub async fn sample_times(&self, device_sn: &str) -> Result<Vec<i64>, Error> {
        let store = Store::connect(&self.db_url).await?;
        let times = match store.device_by_sn(device_sn).await? {
            Some(d) => store
                .samples(d.id, 0, i64::MAX, 1_000_000)
                .await?
                .into_iter()
                .map(|r| r.ts)
                .collect(),
            None => Vec::new(),
        };
        store.close().await;
        Ok(times)
    }
}

impl Drop for Rig {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Polls `check` every 250 ms until it answers `Some`, or fails after `limit` with `what`
/// (what a user would see wrong) and the last thing `check` saw.
pub async fn wait_for<T, F, Fut>(limit: Duration, what: &str, mut check: F) -> Result<T, Error>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<Option<T>, Error>>,
{
    let deadline = Instant::now() + limit;
    let mut last = String::new();
    loop {
        match check().await {
            Ok(Some(v)) => return Ok(v),
            Ok(None) => {}
            Err(e) => last = e.to_string(),
        }
        if Instant::now() > deadline {
            return Err(format!("{what} (waited {limit:?}; last error: {last})").into());
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}
