//! An emulated site: one simulated plant whose devices each hold a register image, filled from
//! the model's values with the device's protocol config and refreshed at every step. Reads
//! answer from the image; writes reach only the config's writable settings and the plant
//! follows them, as a real inverter follows its settings.

use std::{
    collections::{BTreeMap, BTreeSet},
    sync::{Arc, Mutex, MutexGuard, PoisonError},
};

use chrono::{DateTime, Utc};
use devices::DeviceFamily;
use devices::{
    decode::{RegisterImage, plan_reads},
    modbus::{Request, Response},
    protocol::{DataType, ProtocolConfig, RegisterType},
};
use serde_json::{Value as Json, json};

use crate::{
    fleet::{GatewaySpec, SimGateway},
    readings::Values,
};

/// Modbus exception codes the devices answer with.
pub const ILLEGAL_FUNCTION: u8 = 1;
pub const ILLEGAL_ADDRESS: u8 = 2;
pub const ILLEGAL_VALUE: u8 = 3;

/// The highest unit id a Modbus device may have.
const MAX_UNIT: usize = 247;

/// One device of the site on its own unit id.
pub struct Device {
    pub unit: u8,
    pub sn: String,
    pub family: DeviceFamily,
    config: ProtocolConfig,
    /// Which of the plant's inverters this is (for writes that steer the model).
    inverter: Option<usize>,
    image: RegisterImage,
    /// The writable registers' words: the device's stored settings, laid over every refresh.
    /// Taken from the model's first values, then changed only by accepted writes.
    held: Option<BTreeMap<u16, u16>>,
    writable: BTreeSet<u16>,
    /// The bits of each writable register that some setting owns; a write may not change the
    /// others.
    owned: BTreeMap<u16, u16>,
    /// Highest mapped register of each kind (holding, input): a read past it is refused.
    top: [Option<u16>; 2],
    values: Values,
}

/// What a device does with a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// No device has this unit id: it stays silent, as on a real bus.
    Absent,
    Reply(Response),
}

fn kind_index(kind: RegisterType) -> usize {
    match kind {
        RegisterType::Holding => 0,
        RegisterType::Input => 1,
    }
}

impl Device {
    fn new(unit: u8, sn: String, family: DeviceFamily, config: ProtocolConfig) -> Device {
        let mut top = [None, None];
        for p in &config.points {
            let (Some(kind), Some(count)) = (p.register_kind(), p.register_count()) else {
                continue;
            };
            for i in 0..count {
                if let Ok(a) = u16::try_from(p.register_address(i)) {
                    let t = &mut top[kind_index(kind)];
                    *t = Some(t.map_or(a, |t: u16| t.max(a)));
                }
            }
        }
        let mut owned: BTreeMap<u16, u16> = BTreeMap::new();
        for def in &config.settings {
            let Ok((_, p)) = config.setting(&def.param) else {
                continue;
            };
            let count = p.register_count().unwrap_or(0);
            let mask = match p.data_type {
                DataType::Bits { bit, width }
                    if count == 1 && u32::from(bit) + u32::from(width) <= 16 =>
                {
                    (((1u32 << width) - 1) << bit) as u16
                }
                _ => 0xFFFF,
            };
            for i in 0..count {
                if let Ok(a) = u16::try_from(p.register_address(i)) {
                    *owned.entry(a).or_default() |= mask;
                }
            }
        }
        Device {
            unit,
            sn,
            family,
            owned,
            writable: config.writable_registers(),
            config,
            inverter: None,
            image: RegisterImage::new(),
            held: None,
            top,
            values: Values::new(),
        }
    }

    pub fn config(&self) -> &ProtocolConfig {
        &self.config
    }

    pub fn image(&self) -> &RegisterImage {
        &self.image
    }

    /// The model's values at the last step (before stored settings were laid over).
    pub fn values(&self) -> &Values {
        &self.values
    }

    /// The settings as the device holds them now (param → settings text).
    pub fn settings(&self) -> BTreeMap<String, String> {
        self.config
            .settings
            .iter()
            .filter_map(|s| {
                let text = self.config.setting_text(&s.param, &self.image)?;
                Some((s.param.clone(), text))
            })
            .collect()
    }

    fn refresh(&mut self, values: Values) {
        let mut image = RegisterImage::new();
        for point in &self.config.points {
            if let Some(v) = values.get(&point.key) {
                // A value the layout cannot hold is left out (reads 0) rather than sent wrong.
                let _ = image.encode(point, v);
            }
        }
        let held = self.held.get_or_insert_with(|| {
            self.writable
                .iter()
                .map(|a| (*a, image.word(RegisterType::Holding, *a)))
                .collect()
        });
        for (a, w) in held.iter() {
            image.set_word(RegisterType::Holding, *a, *w);
        }
        self.image = image;
        self.values = values;
    }

    fn read(&self, kind: RegisterType, start: u16, count: u16) -> Response {
        let function = kind.function_code();
        let end = u32::from(start) + u32::from(count);
        match self.top[kind_index(kind)] {
            Some(top) if end <= u32::from(top) + 1 => Response::Registers {
                function,
                values: (0..count)
                    .map(|i| self.image.word(kind, start.wrapping_add(i)))
                    .collect(),
            },
            _ => Response::Exception {
                function,
                code: ILLEGAL_ADDRESS,
            },
        }
    }

    /// Checks a write of `words` from `start` and, when the device takes it, applies it and
    /// returns the settings it changed (param, settings text). Err is the exception code.
    fn write(&mut self, start: u16, words: &[u16]) -> Result<Vec<(String, String)>, u8> {
        let addresses: Vec<u16> = (0..words.len())
            .map(|i| start.wrapping_add(i as u16))
            .collect();
        if addresses.iter().any(|a| !self.writable.contains(a)) {
            return Err(ILLEGAL_ADDRESS);
        }
        // Bits no setting owns keep their value (a bit field's neighbours are not settings).
        let foreign = addresses.iter().zip(words).any(|(a, w)| {
            let mask = self.owned.get(a).copied().unwrap_or(0);
            (w ^ self.image.word(RegisterType::Holding, *a)) & !mask != 0
        });
        if foreign {
            return Err(ILLEGAL_VALUE);
        }
        let mut candidate = self.image.clone();
        for (a, w) in addresses.iter().zip(words) {
            candidate.set_word(RegisterType::Holding, *a, *w);
        }
        let written: BTreeSet<u16> = addresses.iter().copied().collect();
        let mut changed = Vec::new();
        for def in &self.config.settings {
            let Ok((def, point)) = self.config.setting(&def.param) else {
                continue;
            };
            let registers: Vec<u16> = (0..point.register_count().unwrap_or(0))
                .filter_map(|i| u16::try_from(point.register_address(i)).ok())
                .collect();
            if !registers.iter().any(|a| written.contains(a)) {
                continue;
            }
            // The words must stand for a value the setting takes, and stand for it exactly
            // (a flag of 5, or 24:60 as a time, is refused rather than read as something else).
            let text = self
                .config
                .setting_text(&def.param, &candidate)
                .ok_or(ILLEGAL_VALUE)?;
            def.parse(&text).map_err(|_| ILLEGAL_VALUE)?;
            let again = self
                .config
                .setting_words(&def.param, &text, &candidate)
                .map_err(|_| ILLEGAL_VALUE)?;
            if again
                .iter()
                .any(|(a, w)| candidate.word(RegisterType::Holding, *a) != *w)
            {
                return Err(ILLEGAL_VALUE);
            }
            changed.push((def.param.clone(), text));
        }
        let held = self.held.get_or_insert_with(BTreeMap::new);
        for (a, w) in addresses.iter().zip(words) {
            held.insert(*a, *w);
        }
        self.image = candidate;
        Ok(changed)
    }

    /// The blocks a gateway reading this device's config would get, and what they decode to.
    fn dump(&self) -> Json {
        let plan = plan_reads(&self.config, 125, 16);
        let blocks = self.image.blocks(&plan);
        let decoded = devices::decode(&self.config, &blocks);
        let values: serde_json::Map<String, Json> = decoded
            .values
            .iter()
            .map(|(k, v)| ((*k).to_string(), json!(v)))
            .collect();
        json!({
            "unit": self.unit,
            "sn": self.sn,
            "family": self.family.as_str(),
            "protocol": self.config.code,
            "blocks": blocks.iter().map(|b| json!({
                "function": b.kind.function_code(), "start": b.start, "words": b.words,
            })).collect::<Vec<_>>(),
            "values": values,
            "writable": self.writable,
            "settings": self.settings(),
        })
    }
}

/// The plant and its devices.
pub struct Site {
    gateway: SimGateway,
    configs: Vec<ProtocolConfig>,
    devices: Vec<Device>,
    last: Option<DateTime<Utc>>,
}

impl Site {
    /// The site of `spec`: its devices on unit ids 1, 2, 3 ... in the spec's order, each with
    /// the config its protocol names (from `configs`).
    pub fn new(mut spec: GatewaySpec, configs: Vec<ProtocolConfig>) -> Result<Site, String> {
        if spec.devices.len() > MAX_UNIT {
            return Err(format!(
                "{} devices: one bus holds at most {MAX_UNIT} unit ids",
                spec.devices.len()
            ));
        }
        let mut devices = Vec::with_capacity(spec.devices.len());
        let mut inverters = 0;
        for (i, d) in spec.devices.iter_mut().enumerate() {
            // The emulator builds its own registers from the values.
            d.raw = false;
            let config = configs
                .iter()
                .find(|c| c.code == d.protocol)
                .ok_or_else(|| format!("{}: no protocol config `{}`", d.sn, d.protocol))?;
            let mut device = Device::new((i + 1) as u8, d.sn.clone(), d.family, config.clone());
            if d.family == DeviceFamily::Inverter {
                device.inverter = Some(inverters);
                inverters += 1;
            }
            devices.push(device);
        }
        Ok(Site {
            gateway: SimGateway::new(spec),
            configs,
            devices,
            last: None,
        })
    }

    /// Steps the plant to `at` and refills every device's registers.
    pub fn refresh(&mut self, at: DateTime<Utc>) {
        let dt = self
            .last
            .map_or(0.0, |l| (at - l).num_milliseconds().max(0) as f64 / 1000.0);
        self.last = Some(at);
        let (_, telemetry) = self.gateway.telemetry(at, dt, &self.configs);
        for reading in telemetry.devices {
            if let Some(d) = self.devices.iter_mut().find(|d| d.sn == reading.sn) {
                d.refresh(reading.values);
            }
        }
    }

    /// When the model was last stepped.
    pub fn at(&self) -> Option<DateTime<Utc>> {
        self.last
    }

    pub fn devices(&self) -> &[Device] {
        &self.devices
    }

    pub fn device(&self, unit: u8) -> Option<&Device> {
        self.devices.iter().find(|d| d.unit == unit)
    }

    pub fn gateway(&self) -> &SimGateway {
        &self.gateway
    }

    /// What unit `unit` answers to `request`.
    pub fn answer(&mut self, unit: u8, request: &Request) -> Answer {
        let Some(device) = self.devices.iter_mut().find(|d| d.unit == unit) else {
            return Answer::Absent;
        };
        // A write's reply when the device takes it: the echo Modbus defines.
        let (function, start, words, taken) = match request {
            Request::ReadHolding { start, count } => {
                return Answer::Reply(device.read(RegisterType::Holding, *start, *count));
            }
            Request::ReadInput { start, count } => {
                return Answer::Reply(device.read(RegisterType::Input, *start, *count));
            }
            Request::WriteSingle { address, value } => (
                6,
                *address,
                std::slice::from_ref(value),
                Response::WriteSingle {
                    address: *address,
                    value: *value,
                },
            ),
            Request::WriteMultiple { start, values } => (
                16,
                *start,
                values.as_slice(),
                Response::WriteMultiple {
                    start: *start,
                    // At most MAX_WRITE (123) values: checked when the request was parsed.
                    count: values.len() as u16,
                },
            ),
        };
        let changed = match device.write(start, words) {
            Ok(changed) => changed,
            Err(code) => return Answer::Reply(Response::Exception { function, code }),
        };
        // The inverter's plant follows its settings, as with `set_params` and power commands.
        if let Some(k) = device.inverter {
            for (param, text) in changed {
                if param == "powerOn" {
                    self.gateway.model.set_on(k, text == "1");
                } else {
                    self.gateway
                        .model
                        .write_settings(k, [(param.as_str(), text)]);
                }
            }
        }
        Answer::Reply(taken)
    }

    /// Every device's read blocks, decoded values, writable registers and settings, as JSON
    /// (what `portal emulate --dump` prints).
    pub fn dump(&self) -> Json {
        json!({
            "gateway": self.gateway.spec.sn,
            "plant": self.gateway.spec.plant_name,
            "at": self.last.map(|t| t.to_rfc3339()),
            "devices": self.devices.iter().map(Device::dump).collect::<Vec<_>>(),
        })
    }
}

/// A site shared by the servers and the stepping task; every use is a short critical section.
#[derive(Clone)]
pub struct SiteHandle(Arc<Mutex<Site>>);

impl SiteHandle {
    pub fn new(site: Site) -> SiteHandle {
        SiteHandle(Arc::new(Mutex::new(site)))
    }

    /// The site, locked. A panic while it was held cannot leave an image half-written (the
    /// image is replaced whole), so a poisoned lock is taken as it is.
    pub fn lock(&self) -> MutexGuard<'_, Site> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn answer(&self, unit: u8, request: &Request) -> Answer {
        self.lock().answer(unit, request)
    }

    pub fn has_unit(&self, unit: u8) -> bool {
        self.lock().device(unit).is_some()
    }
}
