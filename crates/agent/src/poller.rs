//! One poll of the site: every device's register blocks (as `plan_reads` covers its protocol
//! config), each read checked to answer its request. A block that fails is left out of the
//! reading (the portal reports its points missing, never zero); a device that answers nothing
//! is left out of the telemetry, so the portal shows it offline once its last data is stale
//! (2.5 upload cycles, docs/agent.md) while the gateway stays online.

use std::{
    collections::HashMap,
    sync::Arc,
    time::{Duration, Instant},
};

use devices::{
    DeviceFamily, RegisterBlock,
    decode::{ReadRequest, plan_reads},
    report::{DeviceReading, PAYLOAD_VERSION, Telemetry, ValueMap},
};

use crate::{
    config::{Config, DeviceConfig},
    transport::{Bus, TransportError},
};

/// Telemetry payloads larger than this are split into several messages of the same moment (the
/// portal drops payloads over 256 KiB).
const SPLIT_BYTES: usize = 192 * 1024;

/// The site's buses and devices with their read plans.
pub struct Site {
    pub buses: HashMap<String, Arc<Bus>>,
    pub devices: Vec<Arc<Device>>,
}

pub struct Device {
    pub config: DeviceConfig,
    pub plan: Vec<ReadRequest>,
    pub bus: Arc<Bus>,
}

/// What one device gave in one poll.
#[derive(Debug, Default)]
pub struct DeviceRead {
    pub blocks: Vec<RegisterBlock>,
    pub failures: Vec<(ReadRequest, TransportError)>,
}

impl DeviceRead {
    pub fn answered(&self) -> bool {
        !self.blocks.is_empty()
    }
}

impl Site {
    pub fn new(config: &Config) -> Site {
        let buses: HashMap<String, Arc<Bus>> = config
            .buses
            .iter()
            .map(|b| (b.name.clone(), Arc::new(Bus::new(b))))
            .collect();
        let devices = config
            .devices
            .iter()
            .filter_map(|d| {
                let bus = buses.get(&d.bus)?.clone();
                let gap = config.bus(&d.bus).map_or(10, |b| b.max_gap);
                Some(Arc::new(Device {
                    plan: plan_reads(&d.protocol, 125, gap),
                    config: d.clone(),
                    bus,
                }))
            })
            .collect();
        Site { buses, devices }
    }

    pub fn device(&self, sn: &str) -> Option<&Arc<Device>> {
        self.devices.iter().find(|d| d.config.sn == sn)
    }

    /// Reads every device once: devices on different buses at the same time, one request at
    /// a time on each bus.
    pub async fn poll(&self) -> Vec<(Arc<Device>, DeviceRead)> {
        let mut set = tokio::task::JoinSet::new();
        for (i, d) in self.devices.iter().enumerate() {
            let d = d.clone();
            set.spawn(async move {
                let read = d.read().await;
                (i, d, read)
            });
        }
        let mut out: Vec<(usize, Arc<Device>, DeviceRead)> = Vec::new();
        while let Some(r) = set.join_next().await {
            if let Ok(r) = r {
                out.push(r);
            }
        }
        out.sort_by_key(|(i, _, _)| *i);
        out.into_iter().map(|(_, d, r)| (d, r)).collect()
    }
}

impl Device {
    /// Every block of the plan. A block that times out or arrives damaged is asked once more
    /// (noise on a bus is common); after a connection failure, or when the first block gets
    /// no answer twice, the rest of the plan is not tried (it would only wait for the same
    /// timeout again).
    pub async fn read(&self) -> DeviceRead {
        let mut out = DeviceRead::default();
        for req in &self.plan {
            let (unit, kind, start, count) = (self.config.unit, req.kind, req.start, req.count);
            let mut result = self.bus.read(unit, kind, start, count).await;
            if matches!(result, Err(TransportError::Timeout | TransportError::Crc)) {
                result = self.bus.read(unit, kind, start, count).await;
            }
            match result {
                Ok(words) => out.blocks.push(RegisterBlock {
                    kind: req.kind,
                    start: req.start,
                    words,
                }),
                Err(e) => {
                    let give_up = matches!(e, TransportError::Connection(_))
                        || (matches!(e, TransportError::Timeout) && out.blocks.is_empty());
                    out.failures.push((*req, e));
                    if give_up {
                        break;
                    }
                }
            }
        }
        out
    }

    /// The device's entry of a telemetry message.
    pub fn reading(&self, blocks: Vec<RegisterBlock>) -> DeviceReading {
        let p = &self.config.protocol;
        DeviceReading {
            sn: self.config.sn.clone(),
            family: p.family.to_string(),
            type_code: p.inverter_type.map_or(0, i64::from),
            protocol: p.code.clone(),
            model: self.config.model.clone(),
            parent: None,
            values: ValueMap::new(),
            raw: blocks,
        }
    }
}

/// Telemetry payloads for the readings of one moment (several when one would be too large).
pub fn telemetry_payloads(ts: i64, readings: Vec<DeviceReading>) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut batch: Vec<DeviceReading> = Vec::new();
    let mut size = 0;
    for r in readings {
        let len = serde_json::to_vec(&r).map_or(0, |b| b.len());
        if !batch.is_empty() && size + len > SPLIT_BYTES {
            out.push(encode(ts, std::mem::take(&mut batch)));
            size = 0;
        }
        size += len;
        batch.push(r);
    }
    if !batch.is_empty() {
        out.push(encode(ts, batch));
    }
    out
}

fn encode(ts: i64, devices: Vec<DeviceReading>) -> Vec<u8> {
    serde_json::to_vec(&Telemetry {
        v: PAYLOAD_VERSION,
        ts,
        devices,
    })
    .unwrap_or_default()
}

/// The "communication lost" message event of a device family, if the portal's catalogue has
/// one (meters, weather stations and combiner boxes do; inverters and batteries do not).
pub fn lost_event_code(family: DeviceFamily) -> Option<&'static str> {
    devices::events::of_family(family)
        .find(|e| e.word.is_none() && e.meaning[0].ends_with("communication lost"))
        .map(|e| e.code.as_str())
}

/// Logs at most one line per device and kind of failure per minute (with how many were not
/// logged), so a dead bus cannot flood the journal.
#[derive(Default)]
pub struct LogLimiter {
    last: HashMap<(String, &'static str), (Instant, u64)>,
}

impl LogLimiter {
    /// Whether to log now, and how many were held back since the last line.
    pub fn allow(&mut self, device: &str, kind: &'static str) -> Option<u64> {
        let now = Instant::now();
        match self.last.get_mut(&(device.to_string(), kind)) {
            Some(entry) if now.duration_since(entry.0) < Duration::from_secs(60) => {
                entry.1 += 1;
                None
            }
            Some(entry) => {
                let held = entry.1;
                *entry = (now, 0);
                Some(held)
            }
            None => {
                self.last.insert((device.to_string(), kind), (now, 0));
                Some(0)
            }
        }
    }
}
