//! The inverter maps beyond the single-phase hybrid: the string, micro and Growatt maps decode
//! what a device holds (values -> register image -> the reads a gateway plans -> decode), every
//! inverter map writes its settings to the registers its sources name, and valid ranges are
//! checked when a config is saved and applied when it decodes.

#![allow(clippy::unwrap_used)] // fixtures

use devices::decode::{RegisterImage, plan_reads};
use devices::protocol::shipped;
use devices::{Problem, ProtocolConfig, RegisterType, Value, decode};

fn load(code: &str) -> ProtocolConfig {
    let cfg = shipped()
        .unwrap()
        .into_iter()
        .find(|c| c.code == code)
        .unwrap_or_else(|| panic!("{code} is not shipped"));
    cfg.validate().unwrap();
    cfg
}

/// Encodes `values` with the config, reads the image as a gateway following the config's read
/// plan would, decodes, and checks every value came back (to the point's resolution).
fn round_trip(code: &str, values: &[(&str, Value)]) {
    let cfg = load(code);
    let mut image = RegisterImage::new();
    for (key, value) in values {
        let point = cfg.point(key).unwrap_or_else(|| panic!("{code}: no {key}"));
        image.encode(point, value).unwrap();
    }
    let decoded = decode(&cfg, &image.blocks(&plan_reads(&cfg, 125, 16)));
    assert!(decoded.missing.is_empty(), "{code}: {:?}", decoded.missing);
    assert!(decoded.invalid.is_empty(), "{code}: {:?}", decoded.invalid);
    for (key, want) in values {
        assert_eq!(decoded.get(key), Some(want), "{code}: {key}");
    }
}

use Value::{Bool, Number as N, Text};

#[test]
fn a_string_inverter_round_trips_through_its_registers() {
    round_trip(
        "deye-string-3ph",
        &[
            ("serial_number", Text("2401010001".into())),
            ("rated_power", N(10000.0)),
            ("power_on", Bool(true)),
            ("running_state", N(2.0)),
            ("today_pv_energy", N(23.4)),
            ("total_pv_energy", N(81234.5)),
            ("pv_power", N(6543.2)),
            ("inverter_power", N(6321.1)),
            ("grid_voltage_l2", N(231.4)),
            ("grid_current_l3", N(-9.2)),
            ("grid_frequency", N(50.02)),
            ("dc_temperature", N(41.5)),
            ("pv2_voltage", N(612.3)),
            ("pv2_current", N(8.7)),
            ("grid_power", N(-2500.0)),
            ("today_grid_export", N(12.34)),
            ("total_grid_import", N(901.2)),
            ("active_power_limit", N(80.5)),
        ],
    );
}

#[test]
fn a_micro_inverter_round_trips_through_its_registers() {
    round_trip(
        "deye-micro",
        &[
            ("serial_number", Text("2302250001".into())),
            ("rated_power", N(800.0)),
            ("running_state", N(2.0)),
            ("today_pv_energy", N(3.1)),
            ("pv3_total_energy", N(512.7)),
            ("grid_voltage", N(229.8)),
            ("grid_current", N(3.3)),
            ("grid_frequency", N(49.98)),
            ("inverter_power", N(756.4)),
            ("inverter_temperature", N(38.25)),
            ("pv4_voltage", N(33.1)),
            ("micro_fault_word_1", N(1.0)),
            ("active_power_limit", N(110.0)),
        ],
    );
}

#[test]
fn a_growatt_tl3x_round_trips_through_input_and_holding_registers() {
    let cfg = load("growatt-tl3x");
    let input = cfg
        .points
        .iter()
        .filter(|p| p.register_kind() == Some(RegisterType::Input))
        .count();
    assert!(input > 20, "live values are input registers (FC 4)");
    round_trip(
        "growatt-tl3x",
        &[
            ("serial_number", Text("AB12345678".into())),
            ("power_on", N(1.0)),
            ("active_power_limit", N(100.0)),
            ("inverter_status", N(1.0)),
            ("pv_power", N(15321.7)),
            ("pv1_voltage", N(640.2)),
            ("pv1_power", N(7700.1)),
            ("inverter_power", N(-12.5)),
            ("grid_frequency", N(50.01)),
            ("grid_voltage_l3", N(232.9)),
            ("today_pv_energy", N(61.2)),
            ("total_pv_energy", N(123456.7)),
            ("inverter_temperature", N(45.3)),
            ("export_limit_rate", N(-12.5)),
        ],
    );
    // High word first, unlike Deye: 1234567 (0x0012_D687) in 1 (high) and 2 (low).
    let mut image = RegisterImage::new();
    image.set_word(RegisterType::Input, 1, 0x0012);
    image.set_word(RegisterType::Input, 2, 0xD687);
    let decoded = decode(&cfg, &image.blocks(&plan_reads(&cfg, 125, 16)));
    assert_eq!(decoded.number("pv_power"), Some(123456.7));
}

/// A config, a param, its text, and the (address, word) pairs the write sets.
type Write = (
    &'static str,
    &'static str,
    &'static str,
    &'static [(u16, u16)],
);

const WORDS: &[Write] = &[
    ("deye-hybrid-1ph", "sellTime1", "22:30", &[(250, 2230)]),
    ("deye-hybrid-1ph", "sellTime6Pac", "3000", &[(261, 3000)]),
    ("deye-hybrid-1ph", "sellTime2Volt", "49.5", &[(263, 4950)]),
    ("deye-hybrid-1ph", "cap3", "35", &[(270, 35)]),
    ("deye-hybrid-1ph", "time1on", "true", &[(274, 1)]),
    ("deye-hybrid-1ph", "genTime1on", "1", &[(274, 2)]),
    ("deye-hybrid-1ph", "sysWorkMode", "2", &[(244, 2)]),
    ("deye-hybrid-1ph", "solarSell", "1", &[(247, 1)]),
    ("deye-hybrid-1ph", "peakAndVallery", "1", &[(248, 1)]),
    ("deye-hybrid-1ph", "sundayOn", "true", &[(248, 1 << 7)]),
    (
        "deye-hybrid-1ph",
        "batteryMaxCurrentCharge",
        "100",
        &[(210, 100)],
    ),
    (
        "deye-hybrid-1ph",
        "batteryMaxCurrentDischarge",
        "90",
        &[(211, 90)],
    ),
    ("deye-hybrid-1ph", "batteryCap", "200", &[(204, 200)]),
    ("deye-hybrid-1ph", "batteryShutdownCap", "10", &[(217, 10)]),
    ("deye-hybrid-1ph", "batteryRestartCap", "40", &[(218, 40)]),
    ("deye-hybrid-1ph", "batteryLowCap", "20", &[(219, 20)]),
    ("deye-hybrid-1ph", "floatVolt", "53.6", &[(203, 5360)]),
    (
        "deye-hybrid-1ph",
        "solarMaxSellPower",
        "5000",
        &[(245, 5000)],
    ),
    ("deye-hybrid-1ph", "zeroExportPower", "20", &[(206, 20)]),
    ("deye-hybrid-1ph", "pvMaxLimit", "6500", &[(53, 6500)]),
    ("deye-hybrid-1ph", "powerOn", "0", &[(43, 0)]),
    ("deye-hybrid-3ph-lv", "sellTime1", "22:30", &[(148, 2230)]),
    ("deye-hybrid-3ph-lv", "sellTime1Pac", "5000", &[(154, 5000)]),
    ("deye-hybrid-3ph-lv", "sellTime1Volt", "52", &[(160, 5200)]),
    ("deye-hybrid-3ph-lv", "time6on", "true", &[(177, 1)]),
    ("deye-hybrid-3ph-lv", "sysWorkMode", "0", &[(142, 0)]),
    (
        "deye-hybrid-3ph-lv",
        "batteryMaxCurrentCharge",
        "120",
        &[(108, 120)],
    ),
    (
        "deye-hybrid-3ph-lv",
        "solarMaxSellPower",
        "12000",
        &[(143, 12000)],
    ),
    ("deye-hybrid-3ph-lv", "pvMaxLimit", "15000", &[(340, 15000)]),
    ("deye-hybrid-3ph-lv", "powerOn", "1", &[(80, 1)]),
    ("deye-hybrid-3ph-hv", "sellTime1Pac", "5000", &[(154, 500)]),
    (
        "deye-hybrid-3ph-hv",
        "sellTime1Volt",
        "400.5",
        &[(160, 4005)],
    ),
    ("deye-hybrid-3ph-hv", "floatVolt", "420", &[(101, 4200)]),
    (
        "deye-hybrid-3ph-hv",
        "solarMaxSellPower",
        "30000",
        &[(143, 3000)],
    ),
    ("deye-string-3ph", "activePowerLimit", "50", &[(40, 500)]),
    ("deye-string-3ph", "powerOn", "0", &[(43, 0)]),
    ("deye-micro", "activePowerLimit", "110", &[(40, 1100)]),
    ("deye-micro", "powerOn", "true", &[(43, 1)]),
    ("growatt-tl3x", "powerOn", "1", &[(0, 1)]),
    ("growatt-tl3x", "activePowerLimit", "80", &[(3, 80)]),
    ("growatt-tl3x", "exportLimitMode", "3", &[(122, 3)]),
    ("growatt-tl3x", "exportLimitRate", "-12.5", &[(123, 0xFF83)]),
];

#[test]
fn settings_land_in_the_registers_the_sources_name() {
    let image = RegisterImage::new();
    for (code, param, text, want) in WORDS {
        let cfg = load(code);
        let words = cfg.setting_words(param, text, &image);
        assert_eq!(words.as_deref(), Ok(*want), "{code} {param}={text}");
        // And the device's registers read back as the same setting.
        let mut written = RegisterImage::new();
        for (a, w) in *want {
            written.set_word(RegisterType::Holding, *a, *w);
        }
        let back = cfg.setting_text(param, &written).unwrap();
        let same = back == *text
            || back.parse::<f64>().ok() == text.parse::<f64>().ok()
            || (*text == "true" && back == "1");
        assert!(same, "{code} {param}: {text} read back as {back}");
    }
}

#[test]
fn values_beyond_the_devices_limits_are_refused() {
    let image = RegisterImage::new();
    for (code, param, text) in [
        ("deye-hybrid-1ph", "batteryMaxCurrentCharge", "241"),
        ("deye-hybrid-1ph", "sellTime1", "24:00"),
        ("deye-hybrid-1ph", "floatVolt", "61"),
        ("deye-hybrid-3ph-hv", "pvMaxLimit", "900"),
        ("deye-string-3ph", "activePowerLimit", "101"),
        ("deye-micro", "activePowerLimit", "121"),
        ("growatt-tl3x", "exportLimitMode", "4"),
        ("deye-string-3ph", "sellTime1", "01:00"),
    ] {
        assert!(
            load(code).setting_words(param, text, &image).is_err(),
            "{code} {param}={text}"
        );
    }
}

#[test]
fn every_hybrid_writes_the_screens_settings_and_no_measurement() {
    let mut wanted: Vec<String> = [
        "sysWorkMode",
        "energyMode",
        "solarSell",
        "peakAndVallery",
        "batteryCap",
        "batteryMaxCurrentCharge",
        "batteryMaxCurrentDischarge",
        "batteryLowCap",
        "batteryRestartCap",
        "batteryShutdownCap",
        "floatVolt",
        "zeroExportPower",
        "solarMaxSellPower",
        "pvMaxLimit",
        "powerOn",
        "mondayOn",
        "sundayOn",
    ]
    .map(String::from)
    .to_vec();
    for i in 1..=6 {
        for p in [
            "sellTime{}",
            "sellTime{}Pac",
            "sellTime{}Volt",
            "cap{}",
            "time{}on",
        ] {
            wanted.push(p.replace("{}", &i.to_string()));
        }
        wanted.push(format!("genTime{i}on"));
    }
    for code in [
        "deye-hybrid-1ph",
        "deye-hybrid-3ph-lv",
        "deye-hybrid-3ph-hv",
    ] {
        let cfg = load(code);
        for param in &wanted {
            assert!(cfg.setting(param).is_ok(), "{code} has no {param}");
        }
        let writable = cfg.writable_registers();
        for key in ["battery_soc", "grid_power", "pv1_voltage", "running_state"] {
            let a = u16::try_from(cfg.point(key).unwrap().address).unwrap();
            assert!(!writable.contains(&a), "{code}: {key} must not be writable");
        }
    }
}

#[test]
fn a_range_must_be_ordered_and_finite_and_numeric() {
    let mut cfg = load("deye-string-3ph");
    let at = |cfg: &ProtocolConfig, k: &str| cfg.points.iter().position(|p| p.key == k).unwrap();
    let f = at(&cfg, "grid_frequency");
    cfg.points[f].min = Some(70.0);
    cfg.points[f].max = Some(40.0);
    let s = at(&cfg, "serial_number");
    cfg.points[s].max = Some(1.0);
    let t = at(&cfg, "dc_temperature");
    cfg.points[t].min = Some(f64::NEG_INFINITY);
    let problems = cfg.problems();
    for key in ["grid_frequency", "serial_number", "dc_temperature"] {
        assert!(
            problems.contains(&Problem::Range { key: key.into() }),
            "{key}: {problems:?}"
        );
    }
}

#[test]
fn a_value_outside_its_range_is_set_apart_with_what_was_read() {
    let cfg = load("deye-hybrid-1ph");
    let mut image = RegisterImage::new();
    image.set_word(RegisterType::Holding, 79, 0); // grid frequency 0 Hz
    image.set_word(RegisterType::Holding, 150, 2301); // 230.1 V
    image.set_word(RegisterType::Holding, 91, 1315); // 31.5 °C
    let decoded = decode(&cfg, &image.blocks(&plan_reads(&cfg, 125, 16)));
    assert!(decoded.out_of_range.contains(&("grid_frequency", 0.0)));
    assert_eq!(decoded.get("grid_frequency"), None);
    assert_eq!(decoded.number("grid_voltage_l1"), Some(230.1));
    assert_eq!(decoded.number("inverter_temperature"), Some(31.5));
    // An unread temperature register (0 = -100 °C) is not a temperature either.
    assert!(decoded.out_of_range.contains(&("dc_temperature", -100.0)));
}
