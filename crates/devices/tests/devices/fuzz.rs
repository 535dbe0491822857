//! Fuzz-style tests with a tiny xorshift generator (no dependency, reproducible by seed):
//! random configs, random register blocks and random bytes must never panic the decoder, the
//! validator, the planner, the image encoder or the Modbus parsers.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] fns unwrap fixtures too

use devices::decode::{RegisterImage, plan_reads};
use devices::modbus::{self, Request, Response};
use devices::{DataType, DeviceFamily, PointDef, ProtocolConfig, RegisterBlock, RegisterType};
use devices::{Value, decode};

const ITERATIONS: u32 = 100_000;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64: enough spread for fuzzing, trivially reproducible.
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

/// Addresses that hit the interesting spots: small maps, the top of the space, beyond it.
fn address(rng: &mut Rng) -> u32 {
    match rng.below(4) {
        0 => rng.below(40) as u32,
        1 => 65_500 + rng.below(40) as u32,
        2 => rng.below(70_000) as u32,
        _ => rng.next() as u32,
    }
}

fn float(rng: &mut Rng) -> f64 {
    rng.pick(&[
        1.0,
        0.1,
        0.01,
        -1.0,
        10.0,
        0.0,
        f64::NAN,
        f64::INFINITY,
        1e300,
        -100.0,
        1e-300,
    ])
}

fn data_type(rng: &mut Rng) -> DataType {
    match rng.below(9) {
        0 => DataType::U8,
        1 => DataType::I8,
        2 => DataType::U16,
        3 => DataType::I16,
        4 => DataType::U32,
        5 => DataType::I32,
        6 => DataType::F32,
        7 => DataType::String,
        _ => DataType::Bits {
            bit: if rng.chance(80) {
                rng.below(34) as u8
            } else {
                rng.next() as u8
            },
            width: if rng.chance(80) {
                rng.below(34) as u8
            } else {
                rng.next() as u8
            },
        },
    }
}

fn point(rng: &mut Rng) -> PointDef {
    let mut p = PointDef::new(format!("k{}", rng.below(20)), address(rng), data_type(rng));
    p.function_code = if rng.chance(90) {
        rng.pick(&[3, 4])
    } else {
        rng.next() as u8
    };
    if rng.chance(20) {
        p.register_type = Some(rng.pick(&[RegisterType::Holding, RegisterType::Input]));
    }
    if rng.chance(20) {
        p.second_address = Some(address(rng));
    }
    if rng.chance(50) {
        p.count = Some(if rng.chance(90) {
            rng.below(8) as u32
        } else {
            rng.next() as u32
        });
    }
    p.byte_swap = rng.chance(50);
    p.word_swap = rng.chance(50);
    p.scale = float(rng);
    p.base = float(rng);
    p.skip_bytes = match rng.below(10) {
        0..=6 => 0,
        7 | 8 => rng.below(6) as u32,
        _ => rng.next() as u32,
    };
    p
}

fn config(rng: &mut Rng) -> ProtocolConfig {
    ProtocolConfig {
        code: "fuzz".into(),
        name: "fuzz".into(),
        family: DeviceFamily::Inverter,
        inverter_type: None,
        version: 1,
        unit_id: 1,
        notes: String::new(),
        points: (0..rng.below(8)).map(|_| point(rng)).collect(),
        settings: Vec::new(),
    }
}

fn blocks(rng: &mut Rng) -> Vec<RegisterBlock> {
    (0..rng.below(4))
        .map(|_| RegisterBlock {
            kind: rng.pick(&[RegisterType::Holding, RegisterType::Input]),
            start: address(rng) as u16,
            words: (0..rng.below(60)).map(|_| rng.next() as u16).collect(),
        })
        .collect()
}

fn value(rng: &mut Rng) -> Value {
    match rng.below(3) {
        0 => Value::Bool(rng.chance(50)),
        1 => Value::Number(rng.pick(&[0.0, 1.0, -1.0, 1e12, -3.5, 65535.0, f64::NAN])),
        _ => Value::Text("SN\u{e9}1".chars().take(rng.below(5) as usize).collect()),
    }
}

#[test]
fn random_configs_and_blocks_never_panic_the_decoder() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..ITERATIONS {
        let cfg = config(&mut rng);
        let blocks = blocks(&mut rng);
        let out = decode(&cfg, &blocks);
        // Every point lands in exactly one of the three outcomes.
        assert_eq!(
            out.values.len() + out.missing.len() + out.invalid.len(),
            cfg.points.len()
        );
        let _ = cfg.validate();
        let plan = plan_reads(&cfg, rng.below(200) as u16, rng.below(30) as u16);
        assert!(plan.iter().all(|r| (1..=125).contains(&r.count)));
        let mut image = RegisterImage::new();
        for p in &cfg.points {
            let _ = image.encode(p, &value(&mut rng));
        }
        let _ = decode(&cfg, &image.blocks(&plan));
    }
}

#[test]
fn a_valid_config_decodes_every_point_from_the_registers_its_plan_reads() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let mut checked = 0;
    for _ in 0..ITERATIONS {
        let mut cfg = config(&mut rng);
        for (i, p) in cfg.points.iter_mut().enumerate() {
            p.key = format!("k{i}");
        }
        if cfg.validate().is_err() {
            continue;
        }
        checked += 1;
        let plan = plan_reads(&cfg, 125, rng.below(10) as u16);
        let mut image = RegisterImage::new();
        for r in &plan {
            for i in 0..r.count {
                image.set_word(r.kind, r.start.wrapping_add(i), rng.next() as u16);
            }
        }
        let out = decode(&cfg, &image.blocks(&plan));
        assert!(out.missing.is_empty(), "{cfg:?}");
        for key in out.invalid {
            // Validated scales keep integers finite: only a float register can hold NaN/infinity.
            let p = cfg.point(key).unwrap();
            assert_eq!(p.data_type, DataType::F32, "{p:?}");
        }
    }
    assert!(checked > 1_000, "only {checked} random configs were valid");
}

fn mutate(rng: &mut Rng, mut frame: Vec<u8>) -> Vec<u8> {
    match rng.below(4) {
        0 if !frame.is_empty() => {
            let i = rng.below(frame.len() as u64) as usize;
            frame[i] ^= 1 << rng.below(8);
        }
        1 => frame.truncate(rng.below(frame.len() as u64 + 1) as usize),
        2 => frame.push(rng.next() as u8),
        _ => {}
    }
    frame
}

fn random_request(rng: &mut Rng) -> Request {
    let start = rng.next() as u16;
    let count = rng.below(130) as u16;
    match rng.below(4) {
        0 => Request::ReadHolding { start, count },
        1 => Request::ReadInput { start, count },
        2 => Request::WriteSingle {
            address: start,
            value: rng.next() as u16,
        },
        _ => Request::WriteMultiple {
            start,
            values: (0..rng.below(130)).map(|_| rng.next() as u16).collect(),
        },
    }
}

#[test]
fn random_and_mangled_bytes_never_panic_the_modbus_parsers() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for _ in 0..ITERATIONS {
        let request = random_request(&mut rng);
        let unit = rng.next() as u8;
        let frame = match request.to_pdu() {
            Ok(pdu) => {
                let frame = modbus::rtu_frame(unit, &pdu);
                // A request that encodes also parses back to itself.
                assert_eq!(
                    modbus::parse_rtu_request(&frame).ok(),
                    Some((unit, request.clone())),
                    "{}",
                    modbus::to_hex(&frame)
                );
                let ascii = modbus::ascii_frame(unit, &pdu);
                assert_eq!(modbus::ascii_split(ascii.as_bytes()).unwrap(), (unit, pdu));
                frame
            }
            Err(_) => (0..rng.below(300)).map(|_| rng.next() as u8).collect(),
        };
        let bytes = mutate(&mut rng, frame);
        let _ = modbus::parse_rtu_request(&bytes);
        let _ = modbus::parse_rtu_response(&bytes);
        let _ = Request::from_pdu(&bytes);
        if let Ok(response) = Response::from_pdu(&bytes) {
            let _ = response.to_pdu();
        }
        let _ = modbus::ascii_split(&bytes);
        let text = String::from_utf8_lossy(&bytes);
        let _ = modbus::parse_hex(&text);
        let mut ascii = vec![b':'];
        ascii.extend(modbus::to_hex(&bytes).bytes().filter(|b| *b != b' '));
        let _ = modbus::ascii_split(&mutate(&mut rng, ascii));
    }
}
