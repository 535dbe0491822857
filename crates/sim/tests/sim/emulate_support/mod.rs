//! What the emulator tests share: the site's configs with writable settings, a started
//! emulation, and the comparison of decoded reads with the model's values.

#![allow(dead_code)] // each test file uses its own part

use devices::{
    Value,
    decode::{RegisterBlock, RegisterImage, plan_reads},
    protocol::{DataType, PointDef, ProtocolConfig, SettingDef, SettingEncoding},
};
use sim::{
    emulate::{EmulateOptions, Emulation, RtuOptions},
    fleet::demo_fleet,
    readings::Values,
};

/// The settings the tests write, with the register each takes when the shipped map does not
/// have it yet (addresses of the Deye single-phase hybrid: docs/device-protocol.md).
/// (param, point key, address, encoding, min, max)
type Setting = (
    &'static str,
    &'static str,
    u32,
    SettingEncoding,
    Option<f64>,
    Option<f64>,
);

const SETTINGS: [Setting; 4] = [
    (
        "sysWorkMode",
        "work_mode",
        244,
        SettingEncoding::Number,
        Some(0.0),
        Some(2.0),
    ),
    (
        "solarMaxSellPower",
        "max_sell_power",
        245,
        SettingEncoding::Number,
        Some(0.0),
        Some(12_000.0),
    ),
    (
        "batteryMaxCurrentCharge",
        "battery_max_charge_current",
        210,
        SettingEncoding::Number,
        Some(0.0),
        Some(185.0),
    ),
    (
        "sellTime1",
        "prog1_time",
        250,
        SettingEncoding::Hhmm,
        None,
        None,
    ),
];

/// The shipped configs, the single-phase hybrid's with the settings the tests use (kept as
/// they are when the shipped map has them) and `powerOn` on its power switch.
pub fn configs() -> Vec<ProtocolConfig> {
    let mut configs = devices::protocol::shipped().expect("shipped configs");
    let hybrid = configs
        .iter_mut()
        .find(|c| c.code == "deye-hybrid-1ph")
        .expect("deye-hybrid-1ph");
    for (param, key, address, encoding, min, max) in SETTINGS {
        if hybrid.setting(param).is_ok() {
            continue;
        }
        hybrid
            .points
            .push(PointDef::new(key, address, DataType::U16));
        hybrid.settings.push(SettingDef {
            param: param.into(),
            point: key.into(),
            encoding,
            min,
            max,
        });
    }
    if hybrid.setting("powerOn").is_err() {
        hybrid.settings.push(SettingDef {
            param: "powerOn".into(),
            point: "power_on".into(),
            encoding: SettingEncoding::Flag,
            min: None,
            max: None,
        });
    }
    configs
}

/// The first demo plant (a single-phase hybrid on unit 1, meter 2, battery 3, weather 4) with
/// its model held still, served on loopback over TCP and V5 (and RTU when `baud` is given).
pub async fn start(baud: Option<u32>) -> Emulation {
    Emulation::start(EmulateOptions {
        site: demo_fleet(1, 3).remove(0),
        configs: configs(),
        step: None,
        tcp: Some("127.0.0.1:0".parse().expect("addr")),
        v5: Some(("127.0.0.1:0".parse().expect("addr"), SERIAL)),
        rtu: baud.map(|baud| RtuOptions { baud, link: None }),
    })
    .await
    .expect("emulation starts")
}

pub const SERIAL: u32 = 2_612_749_371;

/// The address of `param`'s first register.
pub fn address_of(config: &ProtocolConfig, param: &str) -> u16 {
    let (_, point) = config.setting(param).expect("setting");
    u16::try_from(point.address).expect("address")
}

/// Every value the model gave a device, compared with what the read blocks decode to: equal
/// within one step of the point's scale (the register holds the value rounded to it).
pub fn assert_decodes_to(config: &ProtocolConfig, blocks: &[RegisterBlock], model: &Values) {
    let decoded = devices::decode(config, blocks);
    assert!(decoded.missing.is_empty(), "missing {:?}", decoded.missing);
    let mut compared = 0;
    for (key, want) in model {
        let Some(point) = config.point(key) else {
            continue;
        };
        // A value its registers cannot hold (a serial longer than they are) is not served.
        if RegisterImage::new().encode(point, want).is_err() {
            continue;
        }
        let got = decoded
            .get(key)
            .unwrap_or_else(|| panic!("{key} not decoded"));
        match (got, want) {
            (Value::Number(g), Value::Number(w)) => assert!(
                (g - w).abs() <= point.scale.abs() * 0.51 + 1e-9,
                "{}: {key} read {g}, model {w}",
                config.code
            ),
            (g, w) => assert_eq!(g, w, "{}: {key}", config.code),
        }
        compared += 1;
    }
    assert!(
        compared >= 8,
        "{}: only {compared} values compared",
        config.code
    );
}

/// The reads a gateway makes for `config`.
pub fn plan(config: &ProtocolConfig) -> Vec<devices::decode::ReadRequest> {
    plan_reads(config, 125, 16)
}
