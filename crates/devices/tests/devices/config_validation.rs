//! Protocol configs as stored data: JSON round trip and validation messages.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] fns unwrap fixtures too

use devices::protocol::shipped;
use devices::{DataType, DeviceFamily, Error, PointDef, Problem, ProtocolConfig, RegisterType};

fn config(points: Vec<PointDef>) -> ProtocolConfig {
    ProtocolConfig {
        code: "t".into(),
        name: "test".into(),
        family: DeviceFamily::Meter,
        inverter_type: None,
        version: 1,
        unit_id: 1,
        notes: String::new(),
        points,
        settings: Vec::new(),
    }
}

fn problems(points: Vec<PointDef>) -> Vec<Problem> {
    config(points).problems()
}

#[test]
fn a_config_survives_a_json_round_trip_unchanged() {
    for cfg in shipped().unwrap() {
        let json = cfg.to_json_pretty().unwrap();
        assert_eq!(ProtocolConfig::from_json(&json).unwrap(), cfg);
    }
}

#[test]
fn defaults_keep_hand_written_json_short() {
    let json = r#"{"code":"m","name":"M","family":"meter","version":3,"points":[
        {"key":"pv1_voltage","unit":"V","address":109,"data_type":"u16","scale":0.1},
        {"key":"flag","function_code":4,"address":2,"data_type":{"bits":{"bit":3,"width":1}}}]}"#;
    let cfg = ProtocolConfig::from_json(json).unwrap();
    assert_eq!(cfg.unit_id, 1);
    let pv = &cfg.points[0];
    assert_eq!(
        (pv.function_code, pv.register_count(), pv.base),
        (3, Some(1), 0.0)
    );
    assert!(!pv.byte_swap && !pv.word_swap);
    assert_eq!(cfg.points[1].data_type, DataType::Bits { bit: 3, width: 1 });
    assert_eq!(cfg.points[1].register_kind(), Some(RegisterType::Input));
    cfg.validate().unwrap();
    // Default fields are left out when written back.
    let written = serde_json::to_string(&cfg.points[0]).unwrap();
    assert_eq!(
        written,
        r#"{"key":"pv1_voltage","unit":"V","function_code":3,"address":109,"data_type":"u16","scale":0.1}"#
    );
}

#[test]
fn malformed_json_is_an_error_not_a_panic() {
    assert!(matches!(
        ProtocolConfig::from_json("{"),
        Err(Error::Json(_))
    ));
    let bad_type = r#"{"code":"m","name":"M","family":"meter","version":1,"points":[
        {"key":"a","address":0,"data_type":"u64"}]}"#;
    assert!(ProtocolConfig::from_json(bad_type).is_err());
}

#[test]
fn every_problem_is_reported_at_once_with_the_point_named() {
    let mut zero = PointDef::new("zero", 0, DataType::U16);
    zero.count = Some(0);
    let mut far = PointDef::new("far", 65535, DataType::U32);
    far.scale = f64::NAN;
    let dup = PointDef::new("zero", 1, DataType::U16);
    let err = config(vec![zero, far, dup]).validate().unwrap_err();
    let text = err.to_string();
    assert!(text.contains("`zero`: register count is zero"), "{text}");
    assert!(
        text.contains("`far`: registers 65535..=65536 are outside 0..=65535"),
        "{text}"
    );
    assert!(
        text.contains("`far`: scale must be a number whose size is between 1e-9 and 1e9"),
        "{text}"
    );
    assert!(
        text.contains("point key `zero` is used more than once"),
        "{text}"
    );
}

#[test]
fn the_register_count_must_fit_the_data_type() {
    let mut p = PointDef::new("v", 0, DataType::U32);
    p.count = Some(1);
    assert!(matches!(
        &problems(vec![p.clone()])[..],
        [Problem::CountMismatch { expected: 2, .. }]
    ));
    p.count = Some(2);
    assert!(problems(vec![p.clone()]).is_empty());
    p.data_type = DataType::U8;
    p.skip_bytes = 1;
    assert!(matches!(
        &problems(vec![p.clone()])[..],
        [Problem::CountMismatch { expected: 1, .. }]
    ));
    p.count = None;
    assert!(problems(vec![p]).is_empty());
}

#[test]
fn strings_need_a_count_and_must_keep_a_byte_after_skipping() {
    let p = PointDef::new("sn", 3, DataType::String);
    assert!(matches!(
        &problems(vec![p.clone()])[..],
        [Problem::StringWithoutCount { .. }]
    ));
    let mut q = p;
    q.count = Some(1);
    q.skip_bytes = 2;
    assert!(matches!(
        &problems(vec![q])[..],
        [Problem::SkipTooLarge { .. }]
    ));
}

#[test]
fn bit_fields_must_lie_inside_their_registers() {
    let p = PointDef::new("b", 0, DataType::Bits { bit: 15, width: 2 });
    assert!(matches!(
        &problems(vec![p.clone()])[..],
        [Problem::BitsOutOfRange { available: 16, .. }]
    ));
    let mut wide = p.clone();
    wide.count = Some(2);
    assert!(problems(vec![wide]).is_empty());
    let none = PointDef::new("b", 0, DataType::Bits { bit: 0, width: 0 });
    assert!(matches!(
        &problems(vec![none])[..],
        [Problem::BitsOutOfRange { .. }]
    ));
    let mut skipped = p;
    skipped.data_type = DataType::Bits { bit: 0, width: 1 };
    skipped.skip_bytes = 1;
    assert!(matches!(
        &problems(vec![skipped])[..],
        [Problem::BitsWithSkip { .. }]
    ));
}

#[test]
fn function_code_and_register_type_must_agree() {
    let mut p = PointDef::new("x", 0, DataType::U16);
    p.function_code = 6;
    assert!(matches!(
        &problems(vec![p.clone()])[..],
        [Problem::FunctionCode { code: 6, .. }]
    ));
    p.function_code = 3;
    p.register_type = Some(RegisterType::Input);
    assert!(matches!(
        &problems(vec![p])[..],
        [Problem::RegisterTypeMismatch { .. }]
    ));
}

#[test]
fn keys_are_column_safe_and_configs_need_a_code_name_and_points() {
    let p = PointDef::new("PV Voltage", 0, DataType::U16);
    assert!(matches!(&problems(vec![p])[..], [Problem::BadKey { .. }]));
    let mut empty = config(vec![]);
    empty.code = " ".into();
    empty.name = String::new();
    assert_eq!(
        empty.problems(),
        vec![Problem::EmptyCode, Problem::EmptyName, Problem::NoPoints]
    );
}

#[test]
fn codes_names_and_units_have_the_editor_s_lengths() {
    use devices::protocol::{CODE_MAX, NAME_MAX, UNIT_MAX};
    let mut p = PointDef::new("v", 0, DataType::U16);
    p.unit = "°".repeat(UNIT_MAX);
    let mut at_most = config(vec![p.clone()]);
    at_most.code = "c".repeat(CODE_MAX);
    at_most.name = "名".repeat(NAME_MAX);
    assert_eq!(at_most.problems(), vec![]);
    p.unit.push('x');
    let mut over = config(vec![p]);
    over.code.push_str(&"c".repeat(CODE_MAX));
    over.name = "n".repeat(NAME_MAX + 1);
    assert_eq!(
        over.problems(),
        vec![
            Problem::LongCode { max: CODE_MAX },
            Problem::LongName { max: NAME_MAX },
            Problem::LongUnit {
                key: "v".into(),
                max: UNIT_MAX
            },
        ]
    );
}

#[test]
fn a_second_address_needs_two_registers_and_a_valid_address() {
    let mut p = PointDef::new("x", 0, DataType::U16);
    p.second_address = Some(5);
    assert!(matches!(
        &problems(vec![p])[..],
        [Problem::SecondAddressAlone { .. }]
    ));
    let mut q = PointDef::new("y", 0, DataType::U32);
    q.second_address = Some(70000);
    assert!(matches!(
        &problems(vec![q])[..],
        [Problem::AddressRange { first: 70000, .. }]
    ));
}

#[test]
fn reads_longer_than_one_modbus_request_are_refused() {
    let mut p = PointDef::new("s", 0, DataType::String);
    p.count = Some(126);
    assert!(matches!(
        &problems(vec![p])[..],
        [Problem::TooLong { max: 125, .. }]
    ));
}

#[test]
fn the_example_in_the_device_protocol_doc_parses_and_validates() {
    let doc = include_str!("../../../../docs/device-protocol.md");
    let section = doc
        .split("## Protocol configs and register decoding")
        .nth(1)
        .unwrap();
    let json = section
        .split("```json")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let cfg = ProtocolConfig::from_json(json).unwrap();
    cfg.validate().unwrap();
    assert_eq!(cfg.points.len(), 8);
}
