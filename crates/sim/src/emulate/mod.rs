//! Device emulators: one simulated plant whose inverter, meter, battery (and whatever else the
//! plant has) answer over the transports real ones use: Modbus TCP, a Solarman V5 data-logger
//! stick on TCP, and Modbus RTU on a pseudo-terminal standing in for an RS485 bus. Each device
//! holds a register image filled from the simulator's physics with its protocol config and
//! refreshed at every step; writes reach only the config's writable settings, and the plant
//! follows them. Faults (slow, missing or damaged replies, exceptions, dropped connections,
//! another logger serial, garbage) are injected per server or per unit through [`Faults`].
//! See docs/simulator.md, "Emulators".

pub mod faults;
pub mod link;
pub mod rtu;
pub mod site;
pub mod tcp;
pub mod v5;

use std::{net::SocketAddr, path::PathBuf, sync::Arc, time::Duration};

use chrono::Utc;
use devices::DeviceFamily;
use devices::protocol::ProtocolConfig;
use tokio::{net::TcpListener, task::JoinHandle};

pub use faults::{Fault, Faults};
pub use link::{Counts, Stats};
pub use site::{Answer, Device, Site, SiteHandle};

use crate::fleet::GatewaySpec;

/// Clients one TCP server takes at once (a device's few sockets).
pub const MAX_CLIENTS: usize = 32;

/// The RS485 bus of the RTU emulator.
#[derive(Debug, Clone)]
pub struct RtuOptions {
    pub baud: u32,
    /// A symlink made to the pty, so that clients find the bus at a fixed path.
    pub link: Option<PathBuf>,
}

/// What to emulate and where.
pub struct EmulateOptions {
    pub site: GatewaySpec,
    pub configs: Vec<ProtocolConfig>,
    /// Real time between model steps; `None` keeps the model at its first step (the registers
    /// then hold still, for comparisons).
    pub step: Option<Duration>,
    pub tcp: Option<SocketAddr>,
    /// Address and logger serial of the V5 stick.
    pub v5: Option<(SocketAddr, u32)>,
    pub rtu: Option<RtuOptions>,
}

/// One running TCP server.
pub struct Server {
    pub addr: SocketAddr,
    pub faults: Faults,
    pub stats: Arc<Stats>,
}

/// The running RTU bus.
pub struct RtuBus {
    /// The pty's slave side, which clients open.
    pub path: PathBuf,
    pub link: Option<PathBuf>,
    pub baud: u32,
    pub faults: Faults,
    pub stats: Arc<Stats>,
}

/// A running emulation; dropping it stops its servers (and removes the bus's symlink).
pub struct Emulation {
    pub site: SiteHandle,
    pub tcp: Option<Server>,
    pub v5: Option<Server>,
    pub rtu: Option<RtuBus>,
    /// The V5 stick's logger serial.
    pub serial: Option<u32>,
    tasks: Vec<JoinHandle<()>>,
}

impl Emulation {
    /// Builds the site, steps it once (now), binds the servers and starts them.
    pub async fn start(opts: EmulateOptions) -> Result<Emulation, String> {
        let mut site = Site::new(opts.site, opts.configs)?;
        site.refresh(Utc::now());
        let site = SiteHandle::new(site);
        let mut tasks = Vec::new();
        if let Some(every) = opts.step {
            let site = site.clone();
            tasks.push(tokio::spawn(async move {
                let mut tick = tokio::time::interval(every.max(Duration::from_millis(10)));
                tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                tick.tick().await;
                loop {
                    tick.tick().await;
                    site.lock().refresh(Utc::now());
                }
            }));
        }
        let bind = |addr: SocketAddr| async move {
            TcpListener::bind(addr)
                .await
                .map_err(|e| format!("cannot listen on {addr}: {e}"))
        };
        let mut emulation = Emulation {
            site: site.clone(),
            tcp: None,
            v5: None,
            rtu: None,
            serial: None,
            tasks,
        };
        if let Some(addr) = opts.tcp {
            let listener = bind(addr).await?;
            let server = server(&listener)?;
            emulation.tasks.push(tokio::spawn(tcp::run(
                listener,
                site.clone(),
                server.faults.clone(),
                server.stats.clone(),
                MAX_CLIENTS,
            )));
            emulation.tcp = Some(server);
        }
        if let Some((addr, serial)) = opts.v5 {
            let listener = bind(addr).await?;
            let server = server(&listener)?;
            emulation.tasks.push(tokio::spawn(v5::run(
                listener,
                serial,
                site.clone(),
                server.faults.clone(),
                server.stats.clone(),
                MAX_CLIENTS,
            )));
            emulation.v5 = Some(server);
            emulation.serial = Some(serial);
        }
        if let Some(o) = opts.rtu {
            let pty = rtu::open_pty().map_err(|e| format!("cannot open a pty: {e}"))?;
            if let Some(link) = &o.link {
                rtu::link_to(&pty.path, link)
                    .map_err(|e| format!("cannot link {}: {e}", link.display()))?;
            }
            let bus = RtuBus {
                path: pty.path.clone(),
                link: o.link.clone(),
                baud: o.baud,
                faults: Faults::default(),
                stats: Arc::default(),
            };
            let (faults, stats) = (bus.faults.clone(), bus.stats.clone());
            let site = site.clone();
            emulation.tasks.push(tokio::spawn(async move {
                if let Err(e) = rtu::run(pty, o.baud, site, faults, stats).await {
                    tracing::error!("rtu bus stopped: {e}");
                }
            }));
            emulation.rtu = Some(bus);
        }
        Ok(emulation)
    }

    /// Lines saying what is served where (what `portal emulate` prints).
    pub fn describe(&self) -> Vec<String> {
        let site = self.site.lock();
        let units: Vec<String> = site
            .devices()
            .iter()
            .map(|d| format!("{} {} ({})", d.unit, d.sn, d.config().code))
            .collect();
        let mut out = vec![format!(
            "site {} ({}): units {}",
            site.gateway().spec.sn,
            site.gateway().spec.plant_name,
            units.join(", ")
        )];
        if let Some(s) = &self.tcp {
            out.push(format!("modbus-tcp {}", s.addr));
        }
        if let (Some(s), Some(serial)) = (&self.v5, self.serial) {
            out.push(format!("solarman-v5 {} logger serial {serial}", s.addr));
        }
        if let Some(b) = &self.rtu {
            let link = b
                .link
                .as_ref()
                .map(|l| format!(" (link {})", l.display()))
                .unwrap_or_default();
            out.push(format!(
                "modbus-rtu {}{link} at {} baud",
                b.path.display(),
                b.baud
            ));
        }
        out
    }
}

fn server(listener: &TcpListener) -> Result<Server, String> {
    Ok(Server {
        addr: listener.local_addr().map_err(|e| e.to_string())?,
        faults: Faults::default(),
        stats: Arc::default(),
    })
}

impl Drop for Emulation {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
        if let Some(link) = self.rtu.as_ref().and_then(|b| b.link.as_ref()) {
            let _ = std::fs::remove_file(link);
        }
    }
}

impl Emulation {
    /// Applies a fault given as text: `SERVER[:UNIT]=FAULT`, where SERVER is `tcp`, `v5` or
    /// `rtu`, and FAULT is one of [`Fault`]'s forms or `none` (clears it), e.g. `rtu:3=no-reply`,
    /// `tcp=delay:1500`, `v5=wrong-serial`. `clear` clears every fault of every server.
    pub fn set_fault(&self, spec: &str) -> Result<(), String> {
        let spec = spec.trim();
        let servers = [
            ("tcp", self.tcp.as_ref().map(|s| &s.faults)),
            ("v5", self.v5.as_ref().map(|s| &s.faults)),
            ("rtu", self.rtu.as_ref().map(|b| &b.faults)),
        ];
        if spec == "clear" {
            servers
                .iter()
                .filter_map(|(_, f)| *f)
                .for_each(Faults::clear);
            return Ok(());
        }
        let (target, fault) = spec
            .split_once('=')
            .ok_or("a fault is SERVER[:UNIT]=FAULT, e.g. rtu:3=no-reply")?;
        let (name, unit) = match target.split_once(':') {
            Some((n, u)) => (
                n,
                Some(
                    u.parse::<u8>()
                        .map_err(|_| format!("`{u}` is not a unit id"))?,
                ),
            ),
            None => (target, None),
        };
        let faults = servers
            .iter()
            .find(|(n, _)| *n == name)
            .ok_or_else(|| format!("`{name}`: the servers are tcp, v5 and rtu"))?
            .1
            .ok_or_else(|| format!("`{name}` is not being served"))?;
        let fault = match fault {
            "none" => None,
            other => Some(other.parse::<Fault>()?),
        };
        match unit {
            Some(u) => faults.set_unit(u, fault),
            None => faults.set_server(fault),
        }
        Ok(())
    }
}

/// The commercial roof of the demo fleet with `inverters` three-phase hybrids (1 to 240) on one
/// bus, then its meter, battery, weather station and combiner: a bus to poll at scale.
pub fn commercial_site(inverters: usize, seed: u64) -> GatewaySpec {
    let mut spec = crate::fleet::commercial_plant(7, seed);
    let inverters = inverters.clamp(1, 240);
    let template = spec.devices[0].clone();
    let others: Vec<_> = spec
        .devices
        .drain(..)
        .filter(|d| d.family != DeviceFamily::Inverter)
        .collect();
    spec.devices = (1..=inverters)
        .map(|k| crate::fleet::DeviceSpec {
            sn: format!("SIMINV08{k:04}"),
            ..template.clone()
        })
        .chain(others)
        .collect();
    if let Some(b) = spec.devices.iter_mut().find(|d| d.parent.is_some()) {
        b.parent = Some(format!("SIMINV08{:04}", 1));
    }
    spec.plant.inverters = inverters;
    spec.plant.pv_kwp = 30.0 * inverters as f64;
    spec.plant.daily_load_kwh = 90.0 * inverters as f64;
    spec
}
