//! The agent's one configuration file (TOML): where the portal is, who the gateway is, its buses
//! and the devices on them. Everything is checked before anything starts, and every problem is
//! reported with the line it is on, so an installer can fix the file without reading code.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
    time::Duration,
};

use devices::protocol::ProtocolConfig;
use serde::Deserialize;
use toml::Spanned;

/// Default size of the on-disk reading buffer.
pub const DEFAULT_BUFFER_MIB: u64 = 64;
/// Default upload cycle until the portal sets one (docs/device-protocol.md: 300 s).
pub const DEFAULT_UPLOAD_CYCLE: u32 = 300;
/// The upload cycles the portal may set.
pub const UPLOAD_CYCLE_RANGE: std::ops::RangeInclusive<u32> = 10..=3600;

/// The file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    /// `host:port` of the portal's MQTT broker.
    mqtt: Spanned<String>,
    sn: Spanned<String>,
    key: Spanned<String>,
    state_dir: PathBuf,
    #[serde(default)]
    upload_cycle: Option<Spanned<u32>>,
    #[serde(default)]
    buffer_mib: Option<Spanned<u64>>,
    #[serde(default)]
    protocols_dir: Option<PathBuf>,
    #[serde(default, rename = "bus")]
    buses: Vec<BusFile>,
    #[serde(default, rename = "device")]
    devices: Vec<DeviceFile>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BusFile {
    name: Spanned<String>,
    kind: Spanned<String>,
    /// rtu: the serial device.
    #[serde(default)]
    port: Option<String>,
    #[serde(default)]
    baud: Option<Spanned<u32>>,
    #[serde(default)]
    parity: Option<Spanned<String>>,
    #[serde(default)]
    stop_bits: Option<Spanned<u8>>,
    /// tcp, solarman: `host:port`.
    #[serde(default)]
    address: Option<Spanned<String>>,
    /// solarman: the stick's logger serial (printed on its label, e.g. 2712345678).
    #[serde(default)]
    logger_serial: Option<Spanned<u64>>,
    #[serde(default)]
    timeout_ms: Option<Spanned<u64>>,
    /// Unused registers a read may bridge to save a request (0 reads only mapped registers).
    #[serde(default)]
    max_gap: Option<u16>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DeviceFile {
    bus: Spanned<String>,
    unit: Spanned<i64>,
    sn: Spanned<String>,
    protocol: Spanned<String>,
    #[serde(default)]
    model: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parity {
    None,
    Even,
    Odd,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BusKind {
    Rtu {
        port: PathBuf,
        baud: u32,
        parity: Parity,
        stop_bits: u8,
    },
    Tcp {
        address: String,
    },
    Solarman {
        address: String,
        logger_serial: u32,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BusConfig {
    pub name: String,
    pub kind: BusKind,
    pub timeout: Duration,
    pub max_gap: u16,
}

#[derive(Debug, Clone)]
pub struct DeviceConfig {
    pub bus: String,
    pub unit: u8,
    pub sn: String,
    pub model: String,
    pub protocol: ProtocolConfig,
}

/// A checked configuration.
#[derive(Debug, Clone)]
pub struct Config {
    pub mqtt_host: String,
    pub mqtt_port: u16,
    pub sn: String,
    /// The key in the file; a key the portal rotated to (in the state dir) takes its place.
    pub key: String,
    pub state_dir: PathBuf,
    pub upload_cycle: u32,
    pub buffer_bytes: u64,
    pub buses: Vec<BusConfig>,
    pub devices: Vec<DeviceConfig>,
}

/// Every problem found, one per line, each naming where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(pub Vec<String>);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.join("\n"))
    }
}

impl std::error::Error for ConfigError {}

/// Collects problems with the line they are on.
struct Problems<'a> {
    text: &'a str,
    found: Vec<String>,
}

impl Problems<'_> {
    fn at<T>(&mut self, what: &Spanned<T>, message: impl std::fmt::Display) {
        let line = self.text[..what.span().start.min(self.text.len())]
            .matches('\n')
            .count()
            + 1;
        self.found.push(format!("line {line}: {message}"));
    }
    fn plain(&mut self, message: impl std::fmt::Display) {
        self.found.push(message.to_string());
    }
}

impl Config {
    /// Reads and checks `path`; extra protocol configs come from the file's `protocols_dir`.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ConfigError(vec![format!("{}: {e}", path.display())]))?;
        let base = path.parent().unwrap_or(Path::new("."));
        Config::parse(&text, base).map_err(|ConfigError(lines)| {
            ConfigError(
                lines
                    .into_iter()
                    .map(|l| format!("{}: {l}", path.display()))
                    .collect(),
            )
        })
    }

    /// Checks `text`; relative directories are taken from `base`.
    pub fn parse(text: &str, base: &Path) -> Result<Config, ConfigError> {
        let file: File = toml::from_str(text).map_err(|e| ConfigError(vec![one_line(&e)]))?;
        let mut p = Problems {
            text,
            found: Vec::new(),
        };
        let mut protocols: BTreeMap<String, ProtocolConfig> = match devices::protocol::shipped() {
            Ok(shipped) => shipped.into_iter().map(|c| (c.code.clone(), c)).collect(),
            Err(e) => {
                p.plain(format!("the shipped protocol configs do not load: {e}"));
                BTreeMap::new()
            }
        };
        if let Some(dir) = &file.protocols_dir {
            load_protocols(&base.join(dir), &mut protocols, &mut p);
        }
        let (mqtt_host, mqtt_port) = match split_address(file.mqtt.get_ref(), 1883) {
            Ok(hp) => hp,
            Err(e) => {
                p.at(&file.mqtt, format!("mqtt: {e}"));
                (String::new(), 0)
            }
        };
        let sn = file.sn.get_ref().trim().to_string();
        if sn.is_empty() || sn.len() > 64 || sn.contains(['/', '+', '#']) {
            p.at(&file.sn, "sn: 1-64 characters, no `/`, `+` or `#`");
        }
        let key = file.key.get_ref().clone();
        if !(4..=32).contains(&key.len()) || !key.bytes().all(|b| b.is_ascii_graphic()) {
            p.at(&file.key, "key: 4-32 visible ASCII characters");
        }
        let upload_cycle = match &file.upload_cycle {
            Some(c) if !UPLOAD_CYCLE_RANGE.contains(c.get_ref()) => {
                p.at(c, "upload_cycle: seconds in 10..=3600");
                DEFAULT_UPLOAD_CYCLE
            }
            Some(c) => *c.get_ref(),
            None => DEFAULT_UPLOAD_CYCLE,
        };
        let buffer_bytes = match &file.buffer_mib {
            Some(m) if !(1..=65_536).contains(m.get_ref()) => {
                p.at(m, "buffer_mib: 1..=65536");
                DEFAULT_BUFFER_MIB
            }
            Some(m) => *m.get_ref(),
            None => DEFAULT_BUFFER_MIB,
        } * 1024
            * 1024;
        let buses: Vec<BusConfig> = file.buses.iter().filter_map(|b| bus(b, &mut p)).collect();
        let mut names = BTreeSet::new();
        for b in &file.buses {
            if !names.insert(b.name.get_ref().clone()) {
                p.at(
                    &b.name,
                    format!("bus `{}` is defined twice", b.name.get_ref()),
                );
            }
        }
        let mut sns = BTreeSet::new();
        let mut units = BTreeSet::new();
        let mut devices = Vec::new();
        for d in &file.devices {
            let sn = d.sn.get_ref().trim().to_string();
            if sn.is_empty() || sn.len() > 64 || sn.chars().any(char::is_control) {
                p.at(&d.sn, "device sn: 1-64 characters");
            } else if sn == file.sn.get_ref().trim() || !sns.insert(sn.clone()) {
                p.at(&d.sn, format!("device sn `{sn}` is used twice"));
            }
            if !names.contains(d.bus.get_ref()) {
                p.at(
                    &d.bus,
                    format!("device `{sn}`: unknown bus `{}`", d.bus.get_ref()),
                );
            }
            let unit = *d.unit.get_ref();
            if !(1..=247).contains(&unit) {
                p.at(
                    &d.unit,
                    format!("device `{sn}`: unit {unit} is outside 1..=247"),
                );
            } else if !units.insert((d.bus.get_ref().clone(), unit)) {
                p.at(
                    &d.unit,
                    format!(
                        "device `{sn}`: unit {unit} is already used on bus `{}`",
                        d.bus.get_ref()
                    ),
                );
            }
            let protocol = protocols.get(d.protocol.get_ref()).cloned();
            if protocol.is_none() {
                p.at(
                    &d.protocol,
                    format!(
                        "device `{sn}`: unknown protocol `{}` (known: {})",
                        d.protocol.get_ref(),
                        protocols.keys().cloned().collect::<Vec<_>>().join(", ")
                    ),
                );
            }
            if let Some(protocol) = protocol {
                devices.push(DeviceConfig {
                    bus: d.bus.get_ref().clone(),
                    unit: u8::try_from(unit).unwrap_or(0),
                    sn,
                    model: d.model.clone(),
                    protocol,
                });
            }
        }
        if file.devices.is_empty() {
            p.plain("no [[device]]: the agent would have nothing to read");
        }
        if file.devices.len() > 256 {
            p.plain("more than 256 devices: the portal registers at most 256 per gateway");
        }
        if !p.found.is_empty() {
            return Err(ConfigError(p.found));
        }
        Ok(Config {
            mqtt_host,
            mqtt_port,
            sn,
            key,
            state_dir: base.join(&file.state_dir),
            upload_cycle,
            buffer_bytes,
            buses,
            devices,
        })
    }

    pub fn bus(&self, name: &str) -> Option<&BusConfig> {
        self.buses.iter().find(|b| b.name == name)
    }

    pub fn device(&self, sn: &str) -> Option<&DeviceConfig> {
        self.devices.iter().find(|d| d.sn == sn)
    }
}

fn bus(b: &BusFile, p: &mut Problems) -> Option<BusConfig> {
    let name = b.name.get_ref().clone();
    let timeout = Duration::from_millis(b.timeout_ms.as_ref().map_or(1000, |t| *t.get_ref()));
    if let Some(t) = &b.timeout_ms
        && !(50..=60_000).contains(t.get_ref())
    {
        p.at(t, format!("bus `{name}`: timeout_ms in 50..=60000"));
    }
    let kind = match b.kind.get_ref().as_str() {
        "rtu" => {
            let Some(port) = &b.port else {
                p.at(&b.name, format!("bus `{name}`: an rtu bus needs `port`"));
                return None;
            };
            let baud = b.baud.as_ref().map_or(9600, |b| *b.get_ref());
            if let Some(sb) = &b.baud
                && crate::transport::rtu::baud_rate(baud).is_none()
            {
                p.at(
                    sb,
                    format!("bus `{name}`: baud {baud} is not a standard rate"),
                );
            }
            let parity = match b.parity.as_ref().map(|s| s.get_ref().as_str()) {
                None | Some("none") => Parity::None,
                Some("even") => Parity::Even,
                Some("odd") => Parity::Odd,
                Some(other) => {
                    if let Some(s) = &b.parity {
                        p.at(
                            s,
                            format!("bus `{name}`: parity `{other}` (none, even or odd)"),
                        );
                    }
                    Parity::None
                }
            };
            let stop_bits = b.stop_bits.as_ref().map_or(1, |s| *s.get_ref());
            if let Some(s) = &b.stop_bits
                && !(1..=2).contains(&stop_bits)
            {
                p.at(s, format!("bus `{name}`: stop_bits 1 or 2"));
            }
            BusKind::Rtu {
                port: PathBuf::from(port),
                baud,
                parity,
                stop_bits,
            }
        }
        "tcp" | "solarman" => {
            let Some(address) = &b.address else {
                p.at(
                    &b.name,
                    format!("bus `{name}`: a {} bus needs `address`", b.kind.get_ref()),
                );
                return None;
            };
            let default_port = if b.kind.get_ref() == "tcp" { 502 } else { 8899 };
            if let Err(e) = split_address(address.get_ref(), default_port) {
                p.at(address, format!("bus `{name}`: address {e}"));
            }
            let address = match split_address(address.get_ref(), default_port) {
                Ok((h, port)) => format!("{h}:{port}"),
                Err(_) => address.get_ref().clone(),
            };
            if b.kind.get_ref() == "tcp" {
                BusKind::Tcp { address }
            } else {
                let serial = match &b.logger_serial {
                    Some(s) => match u32::try_from(*s.get_ref()) {
                        Ok(v) if v > 0 => v,
                        _ => {
                            p.at(s, format!("bus `{name}`: logger_serial is a number up to 4294967295 (the stick's label)"));
                            0
                        }
                    },
                    None => {
                        p.at(&b.name, format!("bus `{name}`: a solarman bus needs `logger_serial` (the stick's serial number)"));
                        0
                    }
                };
                BusKind::Solarman {
                    address,
                    logger_serial: serial,
                }
            }
        }
        other => {
            p.at(
                &b.kind,
                format!("bus `{name}`: kind `{other}` (rtu, tcp or solarman)"),
            );
            return None;
        }
    };
    Some(BusConfig {
        name,
        kind,
        timeout,
        max_gap: b.max_gap.unwrap_or(10),
    })
}

/// `host:port` or `host` (then `default_port`).
pub fn split_address(text: &str, default_port: u16) -> Result<(String, u16), String> {
    let text = text.trim();
    let text = text
        .strip_prefix("mqtt://")
        .or_else(|| text.strip_prefix("tcp://"))
        .unwrap_or(text);
    let (host, port) = match text.rsplit_once(':') {
        Some((h, p)) if !h.contains(':') || h.starts_with('[') => (
            h.trim_matches(['[', ']']),
            p.parse::<u16>()
                .map_err(|_| format!("`{text}`: the port is not a number"))?,
        ),
        _ => (text, default_port),
    };
    if host.is_empty() || port == 0 {
        return Err(format!("`{text}`: expected host:port"));
    }
    Ok((host.to_string(), port))
}

/// Extra protocol configs, one JSON file each; one with a shipped code replaces it.
fn load_protocols(dir: &Path, into: &mut BTreeMap<String, ProtocolConfig>, p: &mut Problems) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            p.plain(format!("protocols_dir {}: {e}", dir.display()));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    for path in paths {
        let loaded = std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|t| ProtocolConfig::from_json(&t).map_err(|e| e.to_string()))
            .and_then(|c| c.validate().map(|()| c).map_err(|e| e.to_string()));
        match loaded {
            Ok(c) => {
                into.insert(c.code.clone(), c);
            }
            Err(e) => p.plain(format!("{}: {e}", path.display())),
        }
    }
}

/// toml's message names the line and column and shows the line itself.
fn one_line(e: &toml::de::Error) -> String {
    e.to_string().trim_end().to_string()
}
