//! Every shipped config parses, validates, and decodes a hand-built register image of known
//! values; every point also survives an encode/decode round trip through a register image.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] fns unwrap fixtures too

use std::collections::BTreeMap;

use devices::decode::{RegisterImage, plan_reads};
use devices::protocol::{shipped, shipped_json};
use devices::{DataType, Decoded, ProtocolConfig, RegisterBlock, RegisterType, Value, decode};

fn load(code: &str) -> ProtocolConfig {
    let cfg = shipped()
        .unwrap()
        .into_iter()
        .find(|c| c.code == code)
        .unwrap();
    cfg.validate().unwrap();
    cfg
}

/// Blocks as a gateway following the config's read plan would read them from `regs`.
fn read(cfg: &ProtocolConfig, kind: RegisterType, regs: &[(u16, u16)]) -> Vec<RegisterBlock> {
    let map: BTreeMap<u16, u16> = regs.iter().copied().collect();
    plan_reads(cfg, 125, 20)
        .iter()
        .filter(|r| r.kind == kind)
        .map(|r| RegisterBlock {
            kind,
            start: r.start,
            words: (r.start..r.start + r.count)
                .map(|a| *map.get(&a).unwrap_or(&0))
                .collect(),
        })
        .collect()
}

fn f32_words(v: f32) -> [u16; 2] {
    let b = v.to_bits();
    [(b >> 16) as u16, b as u16]
}

fn assert_values(out: &Decoded, expected: &[(&str, Value)]) {
    assert!(out.missing.is_empty(), "missing {:?}", out.missing);
    assert!(out.invalid.is_empty(), "invalid {:?}", out.invalid);
    for (key, value) in expected {
        assert_eq!(out.get(key), Some(value), "{key}");
    }
}

use Value::{Bool, Number as N, Text};

#[test]
fn every_shipped_config_parses_validates_and_is_named_after_its_file() {
    let all = shipped_json();
    assert!(all.len() >= 6);
    for (stem, json) in all {
        let cfg = ProtocolConfig::from_json(json).unwrap();
        cfg.validate().unwrap();
        assert_eq!(&cfg.code, stem);
        assert!(
            !cfg.notes.is_empty(),
            "{stem} should say where its map comes from"
        );
    }
}

#[test]
fn the_single_phase_hybrid_decodes_a_known_register_image() {
    let cfg = load("deye-hybrid-1ph");
    assert_eq!(cfg.inverter_type, Some(2));
    let regs = [
        (2, 0x0104),
        (3, 0x3232),
        (4, 0x3130),
        (5, 0x3132),
        (6, 0x3334),
        (7, 0x3536),
        (59, 2),
        (78, 0x86A0),
        (79, 5002),
        (80, 1),
        (90, 1250),
        (91, 1423),
        (101, 0x0002),
        (102, 0x4000),
        (105, 0x0004),
        (109, 3521),
        (110, 85),
        (169, 0xFF38),
        (183, 5230),
        (184, 87),
        (186, 2993),
        (190, 0xFC18),
        (191, 0xF830),
        (194, 1),
    ];
    let out = decode(&cfg, &read(&cfg, RegisterType::Holding, &regs));
    assert_values(
        &out,
        &[
            ("serial_number", Text("2210123456".into())),
            ("protocol_version_major", N(1.0)),
            ("protocol_version_minor", N(4.0)),
            ("running_state", N(2.0)),
            ("total_grid_import", N(10000.0)),
            ("grid_frequency", N(50.02)),
            ("dc_temperature", N(25.0)),
            ("inverter_temperature", N(42.3)),
            ("warning_word", N(f64::from(0x4000_0002u32))),
            ("warning_fan", Bool(true)),
            ("warning_bms_lost", Bool(true)),
            ("warning_meter_comm", Bool(false)),
            ("fault_no_grid", Bool(true)),
            ("fault_heatsink_overtemp", Bool(false)),
            ("pv1_voltage", N(352.1)),
            ("pv1_current", N(8.5)),
            ("pv1_power", N(2993.0)),
            ("grid_power", N(-200.0)),
            ("battery_voltage", N(52.3)),
            ("battery_soc", N(87.0)),
            ("battery_power", N(-1000.0)),
            ("battery_current", N(-20.0)),
            ("grid_connected", Bool(true)),
        ],
    );
    // An unread temperature register (0, that is -100 °C) is outside the valid range: set
    // apart, not a value.
    assert_eq!(out.get("battery_temperature"), None);
    assert!(out.out_of_range.contains(&("battery_temperature", -100.0)));
}

#[test]
fn the_three_phase_hybrids_decode_split_32_bit_powers_and_their_own_scales() {
    let regs = [
        (534, 0x5678),
        (535, 0x0012),
        (586, 1210),
        (587, 5120),
        (590, 0xF63C),
        (598, 2305),
        (622, 0xFC18),
        (687, 0xFFFF),
        (625, 15000),
        (690, 0),
        (653, 0x1170),
        (659, 1),
        (672, 4000),
        (676, 6012),
        (555, 0x0002),
    ];
    let lv = load("deye-hybrid-3ph-lv");
    assert_eq!(lv.inverter_type, Some(93));
    let out = decode(&lv, &read(&lv, RegisterType::Holding, &regs));
    assert_values(
        &out,
        &[
            ("total_pv_energy", N(120178.4)),
            ("battery_temperature", N(21.0)),
            ("battery_voltage", N(51.2)),
            ("battery_power", N(-2500.0)),
            ("grid_voltage_l1", N(230.5)),
            ("grid_power_l1", N(-1000.0)),
            ("grid_power", N(15000.0)),
            ("load_power", N(70000.0)),
            ("pv1_power", N(4000.0)),
            ("pv1_voltage", N(601.2)),
            ("fault_dc_insulation", Bool(true)),
        ],
    );
    let hv = load("deye-hybrid-3ph-hv");
    assert_eq!(hv.inverter_type, Some(94));
    let regs = [(587, 5120), (590, 0xFF9C), (672, 400), (593, 4012)];
    let out = decode(&hv, &read(&hv, RegisterType::Holding, &regs));
    assert_values(
        &out,
        &[
            ("battery_voltage", N(512.0)),
            ("battery_power", N(-1000.0)),
            ("pv1_power", N(4000.0)),
            ("battery2_voltage", N(401.2)),
        ],
    );
}

#[test]
fn the_meter_decodes_floats_from_input_registers_and_its_serial_from_holding() {
    let cfg = load("meter-3ph");
    let [v0, v1] = f32_words(230.1);
    let [p0, p1] = f32_words(-1500.5);
    let [e0, e1] = f32_words(12345.5);
    let input = [(0, v0), (1, v1), (52, p0), (53, p1), (72, e0), (73, e1)];
    let mut blocks = read(&cfg, RegisterType::Input, &input);
    blocks.extend(read(
        &cfg,
        RegisterType::Holding,
        &[(64512, 0x0001), (64513, 0xE240)],
    ));
    assert_values(
        &decode(&cfg, &blocks),
        &[
            ("voltage_l1", N(230.1)),
            ("power", N(-1500.5)),
            ("import_energy", N(12345.5)),
            ("voltage_l2", N(0.0)),
            ("serial_number", N(123456.0)),
        ],
    );
}

#[test]
fn the_bms_decodes_its_summary_status_bits_and_slave_packs() {
    let cfg = load("bms-lv-stack");
    let regs = [
        (0, 0x424D),
        (1, 0x5330),
        (2, 0x3030),
        (3, 0x3100),
        (8, 2),
        (9, 80),
        (12, 0xFF9C),
        (16, 3412),
        (23, 0b1_0101),
        (26, 0x0001),
        (27, 0x0000),
        (128, 79),
    ];
    assert_values(
        &decode(&cfg, &read(&cfg, RegisterType::Holding, &regs)),
        &[
            ("serial_number", Text("BMS0001".into())),
            ("pack_count", N(2.0)),
            ("soc", N(80.0)),
            ("current", N(-10.0)),
            ("cell_voltage_max", N(3.412)),
            ("charging", Bool(true)),
            ("discharging", Bool(false)),
            ("charge_relay_closed", Bool(true)),
            ("balancing", Bool(true)),
            ("total_charge_energy", N(6553.6)),
            ("pack2_soc", N(79.0)),
        ],
    );
}

#[test]
fn the_weather_station_decodes_signed_temperatures_and_its_serial() {
    let cfg = load("weather-station");
    let regs = [(0, 850), (1, 0xFFEC), (2, 215), (10, 0x5753), (11, 0x3031)];
    assert_values(
        &decode(&cfg, &read(&cfg, RegisterType::Input, &regs)),
        &[
            ("irradiance", N(850.0)),
            ("module_temperature", N(-2.0)),
            ("ambient_temperature", N(21.5)),
            ("serial_number", Text("WS01".into())),
        ],
    );
}

/// A value inside the point's range, in engineering units.
fn sample(p: &devices::PointDef) -> Value {
    let raw = match p.data_type {
        DataType::String => return Text("SN42".into()),
        DataType::Bits { width: 1, .. } => return Bool(true),
        DataType::Bits { width, .. } => f64::from((1u32 << (width - 1)) - 1),
        DataType::U8 => 200.0,
        DataType::I8 => -100.0,
        DataType::U16 => 54321.0,
        DataType::I16 => -12345.0,
        DataType::U32 => 3_000_000_000.0,
        DataType::I32 => -2_000_000_000.0,
        DataType::F32 => 1234.5,
    };
    let value = raw * p.scale + p.base;
    if p.in_range(value) {
        return N(value);
    }
    // The middle of the valid range, at the register's resolution.
    let mid = (p.min.unwrap_or(0.0) + p.max.unwrap_or(0.0)) / 2.0;
    let value = ((mid - p.base) / p.scale).round() * p.scale + p.base;
    assert!(p.in_range(value), "{}: no sample in its range", p.key);
    N(value)
}

#[test]
fn every_shipped_point_round_trips_through_a_register_image() {
    for cfg in shipped().unwrap() {
        let plan = plan_reads(&cfg, 125, 10);
        assert!(plan.iter().all(|r| r.count <= 125));
        for p in &cfg.points {
            let mut image = RegisterImage::new();
            let value = sample(p);
            image.encode(p, &value).unwrap();
            let out = decode(&cfg, &image.blocks(&plan));
            let got = out
                .get(&p.key)
                .unwrap_or_else(|| panic!("{} {}", cfg.code, p.key));
            match (got, &value) {
                (N(a), N(b)) => assert!(
                    (a - b).abs() <= 1e-9 * b.abs().max(1.0),
                    "{} {a} {b}",
                    p.key
                ),
                (a, b) => assert_eq!(a, b, "{}", p.key),
            }
        }
    }
}

#[test]
fn a_read_plan_covers_each_three_phase_map_in_few_requests() {
    let cfg = load("deye-hybrid-3ph-lv");
    let plan = plan_reads(&cfg, 125, 20);
    // Header 0-22, BMS 210-221, live data 500-708: a handful of reads, not one per point.
    assert!(plan.len() <= 6, "{plan:?}");
    let out = decode(&cfg, &RegisterImage::new().blocks(&plan));
    assert!(out.missing.is_empty(), "{:?}", out.missing);
}
