//! A fleet: gateways, each at one plant, with the devices behind it. The demo fleet covers
//! every inverter type code of docs/overview.md, meters, batteries with slave packs and
//! weather stations, and one family that reports raw register blocks.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use devices::DeviceFamily;
use devices::{
    protocol::ProtocolConfig,
    report::{DeviceReading, PAYLOAD_VERSION, Telemetry},
};

use crate::{
    battery::{BatterySpec, Bus},
    noise,
    plant::{GridCharge, PlantModel, PlantSpec, Snapshot},
    readings,
    scenarios::Silence,
};

#[derive(Debug, Clone)]
pub struct DeviceSpec {
    pub sn: String,
    pub family: DeviceFamily,
    pub type_code: i64,
    pub protocol: &'static str,
    pub model: String,
    /// Report raw register blocks instead of decoded values.
    pub raw: bool,
    pub parent: Option<String>,
    /// Slave packs of a battery stack.
    pub packs: usize,
    /// Strings a combiner box gathers.
    pub strings: usize,
}

#[derive(Debug, Clone)]
pub struct GatewaySpec {
    pub sn: String,
    pub key: String,
    pub plant_name: String,
    pub plant: PlantSpec,
    /// The plant's record says how its modules face (`plant.tilt`, `plant.azimuth`); without
    /// it the portal assumes an orientation (the demo's plants that leave it out face as the
    /// portal assumes).
    pub declares_orientation: bool,
    pub devices: Vec<DeviceSpec>,
    /// A device the gateway stops reporting (its link broke), from a moment on.
    pub silent: Option<Silence>,
}

/// The protocol config an inverter type code reports with: the string (grid-tied, 1) and
/// micro (3) inverters their own maps, the hybrids theirs.
pub fn inverter_protocol(type_code: i64) -> &'static str {
    match type_code {
        1 => "deye-string-3ph",
        3 => "deye-micro",
        93 => "deye-hybrid-3ph-lv",
        94 => "deye-hybrid-3ph-hv",
        _ => "deye-hybrid-1ph",
    }
}

fn phases(type_code: i64) -> usize {
    if matches!(type_code, 1 | 93 | 94) {
        3
    } else {
        1
    }
}

/// MPPT inputs of the demo's inverter of `type_code` (gateway `i`): a micro inverter has four
/// (one module each), a three-phase model two, the others one or two.
fn mppt_inputs(type_code: i64, i: usize) -> usize {
    match type_code {
        3 => 4,
        _ if phases(type_code) == 3 => 2,
        _ => 1 + i % 2,
    }
}

const SITES: [(&str, f64, f64, Tz); 8] = [
    ("Madrid rooftop", 40.42, -3.70, chrono_tz::Europe::Madrid),
    ("Shanghai factory", 31.23, 121.47, chrono_tz::Asia::Shanghai),
    (
        "Los Angeles home",
        34.05,
        -118.24,
        chrono_tz::America::Los_Angeles,
    ),
    ("London terrace", 51.51, -0.13, chrono_tz::Europe::London),
    (
        "Sydney warehouse",
        -33.87,
        151.21,
        chrono_tz::Australia::Sydney,
    ),
    (
        "Mexico City school",
        19.43,
        -99.13,
        chrono_tz::America::Mexico_City,
    ),
    (
        "Cape Town farm",
        -33.92,
        18.42,
        chrono_tz::Africa::Johannesburg,
    ),
    ("Munich office", 48.14, 11.58, chrono_tz::Europe::Berlin),
];

/// How each site's modules face (tilt, azimuth clockwise from north), in the order of
/// [`SITES`]: facing the equator, flatter where the sun stands high. The London terrace's are
/// those the portal assumes for a plant that gives none (tilt at the latitude, at most 35°,
/// facing south), and its record leaves them out.
const ORIENTATIONS: [(f64, f64); 8] = [
    (30.0, 180.0),
    (20.0, 180.0),
    (25.0, 200.0),
    (35.0, 180.0),
    (25.0, 0.0),
    (15.0, 180.0),
    (30.0, 0.0),
    (35.0, 180.0),
];

/// The Sydney warehouse buys night energy at the off-peak price: from midnight to 05:00 its
/// battery charges from the grid at up to 3 kW, to 90 %.
const SYDNEY_NIGHT_CHARGE: GridCharge = GridCharge {
    start: 0,
    end: 5 * 60,
    power_w: 3000.0,
    target_soc: 90.0,
};

/// Every inverter type code of the spec, cycled through the fleet.
const TYPE_CODES: [i64; 7] = [2, 93, 94, 21, 22, 1, 3];

/// `count` gateways with deterministic SNs and keys derived from `seed`.
pub fn demo_fleet(count: usize, seed: u64) -> Vec<GatewaySpec> {
    (0..count)
        .map(|i| {
            let (name, lat, lon, tz) = SITES[i % SITES.len()];
            let (tilt, azimuth) = ORIENTATIONS[i % ORIENTATIONS.len()];
            let type_code = TYPE_CODES[i % TYPE_CODES.len()];
            let grid_tied = matches!(type_code, 1 | 3);
            let sn = format!("SIMGW{:06}", i + 1);
            let key = format!("K{:08X}", noise::mix(seed ^ i as u64) as u32);
            let kwp: f64 = [4.5, 30.0, 50.0, 6.0, 8.0, 5.0, 2.0][i % 7];
            // The inverter's rating, which its model name carries.
            let rated_kw = kwp.ceil();
            // HV hybrids (types 94 and 21) run a stack of packs in series.
            let battery = (!grid_tied).then(|| {
                let bus = if matches!(type_code, 94 | 21) {
                    Bus::High
                } else {
                    Bus::Low
                };
                BatterySpec::sized(bus, (kwp * 2.0).clamp(5.0, 60.0))
            });
            let mut devices = vec![DeviceSpec {
                sn: format!("SIMINV{:06}", i + 1),
                family: DeviceFamily::Inverter,
                type_code,
                protocol: inverter_protocol(type_code),
                model: format!("SIM-{type_code}-{}K", rated_kw as i64),
                // Type 2 and the string and micro inverters send raw registers, decoded with
                // their maps by the portal.
                raw: matches!(type_code, 1..=3),
                parent: None,
                packs: 0,
                strings: 0,
            }];
            devices.push(DeviceSpec {
                sn: format!("SIMMTR{:06}", i + 1),
                family: DeviceFamily::Meter,
                type_code: 0,
                protocol: "meter-3ph",
                model: "SIM-METER".into(),
                raw: false,
                parent: None,
                packs: 0,
                strings: 0,
            });
            if let Some(b) = battery {
                devices.push(DeviceSpec {
                    sn: format!("SIMBAT{:06}", i + 1),
                    family: DeviceFamily::Battery,
                    type_code: 0,
                    protocol: readings::battery_protocol(b.bus),
                    model: "SIM-BMS".into(),
                    raw: false,
                    parent: Some(devices[0].sn.clone()),
                    packs: b.packs,
                    strings: 0,
                });
            }
            if i % 2 == 0 {
                devices.push(DeviceSpec {
                    sn: format!("SIMWS{:06}", i + 1),
                    family: DeviceFamily::WeatherStation,
                    type_code: 0,
                    protocol: "weather-station",
                    model: "SIM-WEATHER".into(),
                    raw: false,
                    parent: None,
                    packs: 0,
                    strings: 0,
                });
            }
            GatewaySpec {
                sn,
                key,
                plant_name: format!("{name} {}", i + 1),
                plant: PlantSpec {
                    seed: noise::mix(seed.wrapping_add(i as u64)),
                    lat,
                    lon,
                    tz,
                    pv_kwp: kwp,
                    mppt_count: mppt_inputs(type_code, i),
                    inverters: 1,
                    inverter_kw: rated_kw,
                    battery,
                    daily_load_kwh: kwp * 2.2,
                    fault_rate: 0.01,
                    tilt,
                    azimuth,
                    grid_charge: (tz == chrono_tz::Australia::Sydney && battery.is_some())
                        .then_some(SYDNEY_NIGHT_CHARGE),
                    losses: Default::default(),
                },
                declares_orientation: tz != chrono_tz::Europe::London,
                devices,
                silent: None,
            }
        })
        .collect()
}

/// Inverters on the commercial demo plant: enough for a batch of ten of one type.
pub const COMMERCIAL_INVERTERS: usize = 10;

/// A commercial roof: one gateway reading ten three-phase HV hybrids (type 94) over RS485,
/// with a grid meter, a battery stack and a weather station. Its SNs follow on from
/// `demo_fleet`'s (`index` is the next gateway number).
pub fn commercial_plant(index: usize, seed: u64) -> GatewaySpec {
    let n = index + 1;
    let mut devices: Vec<DeviceSpec> = (1..=COMMERCIAL_INVERTERS)
        .map(|k| DeviceSpec {
            sn: format!("SIMINV{n:04}{k:02}"),
            family: DeviceFamily::Inverter,
            type_code: 94,
            protocol: inverter_protocol(94),
            model: "SIM-94-30K".into(),
            raw: false,
            parent: None,
            packs: 0,
            strings: 0,
        })
        .collect();
    devices.push(DeviceSpec {
        sn: format!("SIMMTR{n:06}"),
        family: DeviceFamily::Meter,
        type_code: 0,
        protocol: "meter-3ph",
        model: "SIM-METER".into(),
        raw: false,
        parent: None,
        packs: 0,
        strings: 0,
    });
    // A cabinet of eight 280 Ah packs in series: about 115 kWh at 410 V.
    let battery = BatterySpec::sized(Bus::High, 110.0);
    devices.push(DeviceSpec {
        sn: format!("SIMBAT{n:06}"),
        family: DeviceFamily::Battery,
        type_code: 0,
        protocol: readings::battery_protocol(battery.bus),
        model: "SIM-BMS".into(),
        raw: false,
        parent: Some(devices[0].sn.clone()),
        packs: battery.packs,
        strings: 0,
    });
    devices.push(DeviceSpec {
        sn: format!("SIMWS{n:06}"),
        family: DeviceFamily::WeatherStation,
        type_code: 0,
        protocol: "weather-station",
        model: "SIM-WEATHER".into(),
        raw: false,
        parent: None,
        packs: 0,
        strings: 0,
    });
    // A DC combiner box gathering sixteen strings of the roof (one of them weak).
    devices.push(DeviceSpec {
        sn: format!("SIMCMB{n:06}"),
        family: DeviceFamily::Combiner,
        type_code: 0,
        protocol: "combiner-dc16",
        model: "SIM-CB16".into(),
        raw: false,
        parent: None,
        packs: 0,
        strings: 16,
    });
    GatewaySpec {
        sn: format!("SIMGW{n:06}"),
        key: format!("K{:08X}", noise::mix(seed ^ index as u64) as u32),
        plant_name: format!("Zaragoza logistics roof {n}"),
        plant: PlantSpec {
            seed: noise::mix(seed.wrapping_add(index as u64)),
            lat: 41.65,
            lon: -0.88,
            tz: chrono_tz::Europe::Madrid,
            pv_kwp: 300.0,
            mppt_count: 2,
            inverters: COMMERCIAL_INVERTERS,
            inverter_kw: 30.0,
            battery: Some(battery),
            daily_load_kwh: 900.0,
            fault_rate: 0.01,
            // A flat logistics roof: modules low, facing south.
            tilt: 10.0,
            azimuth: 180.0,
            grid_charge: None,
            losses: Default::default(),
        },
        declares_orientation: true,
        devices,
        silent: None,
    }
}

/// A running gateway: its plant's model and what it last measured.
pub struct SimGateway {
    pub spec: GatewaySpec,
    pub model: PlantModel,
}

impl SimGateway {
    pub fn new(spec: GatewaySpec) -> SimGateway {
        let model = PlantModel::new(spec.plant.clone());
        SimGateway { spec, model }
    }

    /// Which of the plant's inverters `sn` is (0 for the first), if it is one.
    pub fn inverter_index(&self, sn: &str) -> Option<usize> {
        self.spec
            .devices
            .iter()
            .filter(|d| d.family == DeviceFamily::Inverter)
            .position(|d| d.sn == sn)
    }

    /// Whether the gateway leaves device `sn` out of its report at `at` ([`Silence`]).
    pub fn is_silent(&self, sn: &str, at: DateTime<Utc>) -> bool {
        self.spec
            .silent
            .as_ref()
            .is_some_and(|s| s.sn == sn && at >= s.from)
    }

    /// Advances the model and builds the telemetry payload for `at`.
    pub fn telemetry(
        &mut self,
        at: DateTime<Utc>,
        dt_secs: f64,
        configs: &[ProtocolConfig],
    ) -> (Snapshot, Telemetry) {
        let snapshot = self.model.step(at, dt_secs);
        // Each inverter reports its own part; meters, batteries and weather see the plant. A
        // silent device goes on working but is left out.
        let mut inverter = 0;
        let devices = self
            .spec
            .devices
            .iter()
            .filter_map(|d| {
                let values = match d.family {
                    DeviceFamily::Inverter => {
                        inverter += 1;
                        let own = snapshot.inverter(inverter - 1);
                        reading(d, &own, configs, self.spec.plant.pv_kwp)
                    }
                    _ => reading(d, &snapshot, configs, self.spec.plant.pv_kwp),
                };
                (!self.is_silent(&d.sn, at)).then_some(values)
            })
            .collect();
        (
            snapshot,
            Telemetry {
                v: PAYLOAD_VERSION,
                ts: at.timestamp_millis(),
                devices,
            },
        )
    }
}

fn reading(d: &DeviceSpec, s: &Snapshot, configs: &[ProtocolConfig], kwp: f64) -> DeviceReading {
    let values = match (d.family, d.protocol) {
        (DeviceFamily::Inverter, "deye-string-3ph") => readings::string_inverter(s, &d.sn),
        (DeviceFamily::Inverter, "deye-micro") => readings::micro_inverter(s, &d.sn),
        (DeviceFamily::Inverter, _) => readings::inverter(s, phases(d.type_code), &d.sn),
        (DeviceFamily::Meter, _) => readings::meter(s, &d.sn),
        (DeviceFamily::Battery, _) => readings::battery(s, &d.sn),
        (DeviceFamily::WeatherStation, _) => readings::weather(s, &d.sn),
        (DeviceFamily::Combiner, _) => readings::combiner(s, &d.sn, d.strings, kwp),
    };
    let base = DeviceReading {
        sn: d.sn.clone(),
        family: d.family.to_string(),
        type_code: d.type_code,
        protocol: d.protocol.into(),
        model: d.model.clone(),
        parent: d.parent.clone(),
        values: BTreeMap::new(),
        raw: Vec::new(),
    };
    match configs.iter().find(|c| c.code == d.protocol) {
        Some(config) if d.raw => readings::raw_reading(config, &values, base),
        _ => DeviceReading { values, ..base },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn the_inverters_of_a_commercial_plant_together_report_the_plant() {
        let configs = devices::protocol::shipped().unwrap_or_default();
        let mut gw = SimGateway::new(commercial_plant(7, 9));
        let noon = chrono_tz::Europe::Madrid
            .with_ymd_and_hms(2026, 6, 21, 13, 0, 0)
            .unwrap()
            .with_timezone(&Utc);
        let (snapshot, telemetry) = gw.telemetry(noon, 300.0, &configs);
        let inverters: Vec<_> = telemetry
            .devices
            .iter()
            .filter(|d| d.family == DeviceFamily::Inverter.as_str())
            .collect();
        assert_eq!(inverters.len(), COMMERCIAL_INVERTERS);
        assert!(inverters.iter().all(|d| d.type_code == 94));
        let pv: f64 = inverters
            .iter()
            .filter_map(|d| {
                d.values
                    .get("today_pv_energy")
                    .and_then(devices::Value::as_f64)
            })
            .sum();
        assert!(snapshot.today.pv > 0.0);
        assert!(
            (pv - snapshot.today.pv).abs() < 0.05 * COMMERCIAL_INVERTERS as f64,
            "{pv} vs {}",
            snapshot.today.pv
        );
    }

    #[test]
    fn the_commercial_combiner_reports_sixteen_strings_with_one_weak_at_noon() {
        let configs = devices::protocol::shipped().unwrap_or_default();
        let mut gw = SimGateway::new(commercial_plant(7, 9));
        let at = |h| {
            chrono_tz::Europe::Madrid
                .with_ymd_and_hms(2026, 6, 21, h, 0, 0)
                .unwrap()
                .with_timezone(&Utc)
        };
        let (_, noon) = gw.telemetry(at(13), 300.0, &configs);
        let cmb = noon
            .devices
            .iter()
            .find(|d| d.family == DeviceFamily::Combiner.as_str())
            .expect("combiner");
        let current = |values: &crate::readings::Values, k: &str| {
            values.get(k).and_then(devices::Value::as_f64)
        };
        let currents: Vec<(usize, f64)> = (1..=16)
            .filter_map(|n| Some((n, current(&cmb.values, &format!("string{n}_current"))?)))
            .collect();
        assert_eq!(currents.len(), 16);
        assert_eq!(
            domain::combiner::check_strings(&currents),
            domain::combiner::StringCheck::Weak(vec![readings::WEAK_STRING])
        );
        assert!(current(&cmb.values, "power").is_some_and(|p| p > 20_000.0));
        let (_, night) = gw.telemetry(at(23), 300.0, &configs);
        let dark = night
            .devices
            .iter()
            .find(|d| d.family == DeviceFamily::Combiner.as_str())
            .expect("combiner");
        assert_eq!(current(&dark.values, "string1_current"), Some(0.0));
    }

    #[test]
    fn the_demo_fleet_covers_every_type_code_and_device_family() {
        let fleet = demo_fleet(7, 9);
        let codes: Vec<i64> = fleet.iter().map(|g| g.devices[0].type_code).collect();
        for code in TYPE_CODES {
            assert!(codes.contains(&code), "{code}");
        }
        let all: Vec<&DeviceSpec> = fleet.iter().flat_map(|g| &g.devices).collect();
        for family in [
            DeviceFamily::Meter,
            DeviceFamily::Battery,
            DeviceFamily::WeatherStation,
        ] {
            assert!(all.iter().any(|d| d.family == family), "{family:?}");
        }
        assert!(
            all.iter().any(|d| d.raw),
            "one family reports raw registers"
        );
        assert!(
            all.iter().any(|d| d.packs > 1),
            "a battery with slave packs"
        );
        let mut sns: Vec<&str> = all.iter().map(|d| d.sn.as_str()).collect();
        sns.sort();
        sns.dedup();
        assert_eq!(sns.len(), all.len(), "unique SNs");
    }

    #[test]
    fn telemetry_names_every_device_with_its_protocol() {
        let configs = devices::protocol::shipped().unwrap();
        let mut gw = SimGateway::new(demo_fleet(1, 1).remove(0));
        let (_, t) = gw.telemetry(
            Utc.with_ymd_and_hms(2024, 6, 1, 10, 0, 0).unwrap(),
            300.0,
            &configs,
        );
        assert_eq!(t.devices.len(), gw.spec.devices.len());
        assert!(!t.devices[0].raw.is_empty(), "type 2 reports raw blocks");
        assert!(t.devices[1].values.contains_key("power"));
        let json = serde_json::to_string(&t).unwrap();
        assert!(json.len() < devices::report::MAX_PAYLOAD_BYTES);
    }
}
