//! Exact decoding of every data type and swap combination against hand-computed values.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] fns unwrap fixtures too

use devices::{DataType, Decoded, PointDef, ProtocolConfig, RegisterBlock, Value, decode};
use devices::{DeviceFamily, RegisterType};

fn config(points: Vec<PointDef>) -> ProtocolConfig {
    ProtocolConfig {
        code: "t".into(),
        name: "test".into(),
        family: DeviceFamily::Inverter,
        inverter_type: None,
        version: 1,
        unit_id: 1,
        notes: String::new(),
        points,
        settings: Vec::new(),
    }
}

fn one(point: PointDef, start: u16, words: &[u16]) -> Option<Value> {
    let cfg = config(vec![point]);
    let out = decode(&cfg, &[RegisterBlock::holding(start, words.to_vec())]);
    out.values.into_iter().next().map(|(_, v)| v)
}

fn num(point: PointDef, words: &[u16]) -> f64 {
    match one(point, 0, words) {
        Some(Value::Number(n)) => n,
        other => panic!("expected a number, got {other:?}"),
    }
}

fn p(dt: DataType) -> PointDef {
    PointDef::new("x", 0, dt)
}

#[test]
fn u16_and_i16_read_big_endian_registers() {
    assert_eq!(num(p(DataType::U16), &[0xFFFE]), 65534.0);
    assert_eq!(num(p(DataType::I16), &[0xFFFE]), -2.0);
    assert_eq!(num(p(DataType::I16), &[0x7FFF]), 32767.0);
}

#[test]
fn byte_swap_reverses_the_bytes_of_each_register() {
    let mut point = p(DataType::U16);
    point.byte_swap = true;
    assert_eq!(num(point, &[0x3412]), 0x1234 as f64);
    let mut point = p(DataType::I16);
    point.byte_swap = true;
    assert_eq!(num(point, &[0xFEFF]), -2.0);
}

#[test]
fn u32_is_high_word_first_unless_word_swapped() {
    assert_eq!(num(p(DataType::U32), &[0x0001, 0x0002]), 65538.0);
    let mut point = p(DataType::U32);
    point.word_swap = true;
    assert_eq!(num(point, &[0x0002, 0x0001]), 65538.0);
}

#[test]
fn all_four_swap_combinations_of_a_u32_decode_the_same_value() {
    // 0x11223344 laid out as each device family might send it.
    let layouts = [
        (false, false, [0x1122, 0x3344]),
        (false, true, [0x3344, 0x1122]),
        (true, false, [0x2211, 0x4433]),
        (true, true, [0x4433, 0x2211]),
    ];
    for (byte_swap, word_swap, words) in layouts {
        let mut point = p(DataType::U32);
        point.byte_swap = byte_swap;
        point.word_swap = word_swap;
        assert_eq!(
            num(point, &words),
            0x1122_3344 as f64,
            "{byte_swap} {word_swap}"
        );
    }
}

#[test]
fn i32_is_twos_complement_across_both_words() {
    assert_eq!(num(p(DataType::I32), &[0xFFFF, 0xFFFE]), -2.0);
    let mut point = p(DataType::I32);
    point.word_swap = true;
    assert_eq!(num(point, &[0xFC18, 0xFFFF]), -1000.0);
}

#[test]
fn f32_is_ieee754_in_either_word_order() {
    assert_eq!(num(p(DataType::F32), &[0x4148, 0x0000]), 12.5);
    let mut point = p(DataType::F32);
    point.word_swap = true;
    assert_eq!(num(point, &[0x0000, 0x4148]), 12.5);
    // 230.1 as f32 reads as the decimal a person expects, not 230.10000610351562.
    let bits = 230.1f32.to_bits();
    assert_eq!(
        num(p(DataType::F32), &[(bits >> 16) as u16, bits as u16]),
        230.1
    );
}

#[test]
fn f32_nan_is_reported_invalid_not_as_a_value() {
    let cfg = config(vec![p(DataType::F32)]);
    let out = decode(&cfg, &[RegisterBlock::holding(0, vec![0x7FC0, 0])]);
    assert_eq!(out.invalid, vec!["x"]);
    assert!(out.values.is_empty());
}

#[test]
fn scale_and_base_give_engineering_units() {
    let mut temp = p(DataType::I16);
    temp.scale = 0.1;
    temp.base = -100.0;
    assert_eq!(num(temp.clone(), &[1250]), 25.0);
    assert_eq!(num(temp, &[1234]), 23.4);
    let mut volts = p(DataType::U16);
    volts.scale = 0.1;
    assert_eq!(num(volts, &[2301]), 230.1);
    let mut hz = p(DataType::U16);
    hz.scale = 0.01;
    assert_eq!(num(hz, &[5003]), 50.03);
    let mut tens = p(DataType::I16);
    tens.scale = 10.0;
    assert_eq!(num(tens, &[0xFFFF]), -10.0);
}

#[test]
fn strings_take_two_ascii_characters_per_register_and_trim_padding() {
    let mut sn = p(DataType::String);
    sn.count = Some(5);
    let words = [0x3232, 0x3130, 0x3132, 0x3334, 0x0000]; // "22101234" + NUL NUL
    assert_eq!(
        one(sn.clone(), 0, &words),
        Some(Value::Text("22101234".into()))
    );
    let spaced = [0x4142, 0x4320, 0x2020, 0x2000, 0x0000];
    assert_eq!(one(sn.clone(), 0, &spaced), Some(Value::Text("ABC".into())));
    sn.byte_swap = true;
    assert_eq!(
        one(sn, 0, &[0x4241, 0x0043, 0, 0, 0]),
        Some(Value::Text("ABC".into()))
    );
}

#[test]
fn unprintable_bytes_in_strings_become_replacement_characters() {
    let mut sn = p(DataType::String);
    sn.count = Some(1);
    assert_eq!(one(sn, 0, &[0x41FF]), Some(Value::Text("A\u{FFFD}".into())));
}

#[test]
fn bit_fields_read_single_bits_as_bools_and_wider_fields_as_numbers() {
    let word = [0b0000_0011_0000_0100u16];
    assert_eq!(
        one(p(DataType::Bits { bit: 2, width: 1 }), 0, &word),
        Some(Value::Bool(true))
    );
    assert_eq!(
        one(p(DataType::Bits { bit: 3, width: 1 }), 0, &word),
        Some(Value::Bool(false))
    );
    assert_eq!(num(p(DataType::Bits { bit: 8, width: 4 }), &word), 3.0);
    assert_eq!(
        num(p(DataType::Bits { bit: 0, width: 16 }), &[0xFFFF]),
        65535.0
    );
}

#[test]
fn bit_fields_over_two_registers_follow_the_word_order() {
    // Deye warning word: low word first; bit 30 sits in the second register's bit 14.
    let mut point = p(DataType::Bits { bit: 30, width: 1 });
    point.count = Some(2);
    point.word_swap = true;
    assert_eq!(
        one(point.clone(), 0, &[0x0000, 0x4000]),
        Some(Value::Bool(true))
    );
    assert_eq!(one(point, 0, &[0x4000, 0x0000]), Some(Value::Bool(false)));
}

#[test]
fn skip_bytes_select_the_low_byte_of_a_register() {
    assert_eq!(num(p(DataType::U8), &[0x0102]), 1.0);
    let mut minor = p(DataType::U8);
    minor.skip_bytes = 1;
    assert_eq!(num(minor, &[0x0102]), 2.0);
    let mut signed = p(DataType::I8);
    signed.skip_bytes = 1;
    assert_eq!(num(signed, &[0x00FE]), -2.0);
    // A u16 that starts mid-register spans two registers.
    let mut odd = p(DataType::U16);
    odd.skip_bytes = 1;
    assert_eq!(num(odd, &[0x00AB, 0xCD00]), 0xABCD as f64);
}

#[test]
fn a_split_32_bit_value_reads_its_high_word_from_the_second_address() {
    // Deye 1-ph total grid import: low word 78, high word 80, frequency at 79 between them.
    let mut point = PointDef::new("import", 78, DataType::U32);
    point.second_address = Some(80);
    point.word_swap = true;
    point.scale = 0.1;
    assert_eq!(
        one(point, 78, &[0x86A0, 5000, 0x0001]),
        Some(Value::Number(10000.0))
    );
}

#[test]
fn points_whose_registers_were_not_read_are_missing_not_zero() {
    let cfg = config(vec![
        PointDef::new("a", 10, DataType::U16),
        PointDef::new("b", 11, DataType::U32),
        PointDef::new("c", 20, DataType::U16),
    ]);
    let out: Decoded = decode(&cfg, &[RegisterBlock::holding(10, vec![7, 8])]);
    assert_eq!(out.values, vec![("a", Value::Number(7.0))]);
    assert_eq!(out.missing, vec!["b", "c"]);
}

#[test]
fn input_and_holding_registers_are_separate_address_spaces() {
    let mut input = PointDef::new("in", 0, DataType::U16);
    input.function_code = 4;
    let cfg = config(vec![PointDef::new("hold", 0, DataType::U16), input]);
    let blocks = [
        RegisterBlock::holding(0, vec![1]),
        RegisterBlock::input(0, vec![2]),
    ];
    let out = decode(&cfg, &blocks);
    assert_eq!(out.number("hold"), Some(1.0));
    assert_eq!(out.number("in"), Some(2.0));
    let only_holding = decode(&cfg, &blocks[..1]);
    assert_eq!(only_holding.missing, vec!["in"]);
    assert_eq!(RegisterType::Input.function_code(), 4);
}

#[test]
fn values_spread_over_several_blocks_are_joined() {
    let point = PointDef::new("x", 9, DataType::U32);
    let cfg = config(vec![point]);
    let blocks = [
        RegisterBlock::holding(0, vec![0; 10]),
        RegisterBlock::holding(10, vec![5]),
    ];
    assert_eq!(decode(&cfg, &blocks).number("x"), Some(5.0));
}

#[test]
fn reported_values_read_as_numbers_texts_and_booleans_and_nothing_else() {
    use devices::decode::Value;
    let read = |json: &str| serde_json::from_str::<Value>(json);
    assert_eq!(read("12").ok(), Some(Value::Number(12.0)));
    assert_eq!(read("-3").ok(), Some(Value::Number(-3.0)));
    assert_eq!(
        read("18446744073709551615").ok(),
        Some(Value::Number(u64::MAX as f64))
    );
    assert_eq!(read("2.5e1").ok(), Some(Value::Number(25.0)));
    assert_eq!(read("true").ok(), Some(Value::Bool(true)));
    assert_eq!(read(r#""SN1""#).ok(), Some(Value::Text("SN1".into())));
    assert_eq!(read(r#""a\"b""#).ok(), Some(Value::Text("a\"b".into())));
    for bad in ["null", "[1]", r#"{"a":1}"#] {
        assert!(read(bad).is_err(), "{bad} must be refused");
    }
    let back = serde_json::to_string(&vec![
        Value::Number(1.5),
        Value::Bool(false),
        Value::Text("x".into()),
    ]);
    assert_eq!(back.ok().as_deref(), Some(r#"[1.5,false,"x"]"#));
}
