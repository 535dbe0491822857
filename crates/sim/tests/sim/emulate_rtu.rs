//! The Modbus RTU emulator on a pseudo-terminal, read as a client reads a USB-RS485 adapter:
//! replies decode to the model's values, take their wire time at the bus's baud rate, units
//! not on the bus stay silent, damaged requests are skipped, and writes land.

#![allow(clippy::unwrap_used)] // a test: a missing value is a failure

use crate::emulate_support;

use std::{
    fs::File,
    io::{Read, Write},
    path::Path,
    time::{Duration, Instant},
};

use devices::{
    decode::RegisterBlock,
    modbus::{Request, Response, parse_rtu_response, read_holding_frame, rtu_frame},
};
use emulate_support::{address_of, assert_decodes_to, plan, start};
use nix::sys::termios::{SetArg, SpecialCharacterIndices, cfmakeraw, tcgetattr, tcsetattr};
use sim::emulate::{Fault, rtu::wire_time};

/// Opens the bus like a serial port: raw, reads return after 0.1 s without a byte.
fn open(path: &Path) -> File {
    let port = File::options().read(true).write(true).open(path).unwrap();
    let mut t = tcgetattr(&port).unwrap();
    cfmakeraw(&mut t);
    t.control_chars[SpecialCharacterIndices::VMIN as usize] = 0;
    t.control_chars[SpecialCharacterIndices::VTIME as usize] = 1;
    tcsetattr(&port, SetArg::TCSANOW, &t).unwrap();
    port
}

/// Writes `frame` and collects the reply until `len` bytes came or 0.6 s passed without one.
/// Returns the bytes and the time from the write to the last byte.
fn exchange(port: &mut File, frame: &[u8], len: usize) -> (Vec<u8>, Duration) {
    let t = Instant::now();
    port.write_all(frame).unwrap();
    let mut out = Vec::new();
    let mut last = t;
    let mut buf = [0u8; 512];
    while out.len() < len && last.elapsed() < Duration::from_millis(600) {
        let n = port.read(&mut buf).unwrap_or(0);
        if n > 0 {
            out.extend_from_slice(&buf[..n]);
            last = Instant::now();
        }
    }
    (out, last - t)
}

fn registers(reply: &[u8]) -> Vec<u16> {
    match parse_rtu_response(reply).unwrap().1 {
        Response::Registers { values, .. } => values,
        other => panic!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bus_reads_like_rs485_at_its_baud_rate() {
    let e = start(Some(9600)).await;
    let bus = e.rtu.as_ref().unwrap();
    let path = bus.path.clone();
    let devices: Vec<_> = {
        let site = e.site.lock();
        site.devices()
            .iter()
            .map(|d| (d.unit, d.config().clone(), d.values().clone()))
            .collect()
    };
    let stats = bus.stats.clone();
    tokio::task::spawn_blocking(move || {
        let mut port = open(&path);
        // Every device of the bus, its whole map.
        for (unit, config, values) in &devices {
            let mut blocks = Vec::new();
            for r in plan(config) {
                let frame = rtu_frame(
                    *unit,
                    &Request::ReadHolding {
                        start: r.start,
                        count: r.count,
                    }
                    .to_pdu()
                    .unwrap(),
                );
                let frame = if r.function_code() == 4 {
                    rtu_frame(
                        *unit,
                        &Request::ReadInput {
                            start: r.start,
                            count: r.count,
                        }
                        .to_pdu()
                        .unwrap(),
                    )
                } else {
                    frame
                };
                let (reply, _) = exchange(&mut port, &frame, 5 + 2 * usize::from(r.count));
                blocks.push(RegisterBlock {
                    kind: r.kind,
                    start: r.start,
                    words: registers(&reply),
                });
            }
            assert_decodes_to(config, &blocks, values);
        }

        // 125 registers: an 8-byte request and a 255-byte reply, 263 characters at 9600 baud,
        // plus the 3.5-character silence that ends the request.
        let (reply, took) = exchange(&mut port, &read_holding_frame(1, 150, 125).unwrap(), 255);
        assert_eq!(reply.len(), 255);
        let wire = wire_time(263, 9600);
        assert!(took >= wire, "{took:?} < {wire:?}");
        assert!(took < wire.mul_f64(1.3), "{took:?} against {wire:?}");

        // A unit not on the bus says nothing; a request with a bad CRC is dropped; noise
        // before a request does not stop the next one being answered.
        let (silent, _) = exchange(&mut port, &read_holding_frame(42, 0, 1).unwrap(), 7);
        assert!(silent.is_empty());
        let mut bad = read_holding_frame(1, 184, 1).unwrap();
        bad[7] ^= 0x55;
        let (dropped, _) = exchange(&mut port, &bad, 7);
        assert!(dropped.is_empty());
        let mut noisy = vec![0x00, 0xFF, 0x13];
        noisy.extend(read_holding_frame(1, 184, 1).unwrap());
        let (answer, _) = exchange(&mut port, &noisy, 7);
        assert_eq!(registers(&answer).len(), 1);
        let (junk, _) = exchange(&mut port, &[0x55; 600], 1);
        assert!(junk.is_empty());
        let (answer, _) = exchange(&mut port, &read_holding_frame(3, 0, 4).unwrap(), 13);
        assert_eq!(
            registers(&answer).len(),
            4,
            "still serving after 600 bytes of noise"
        );
    })
    .await
    .unwrap();
    let counts = stats.counts();
    assert!(counts.malformed >= 3, "{counts:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_and_faults_on_the_bus() {
    let e = start(Some(19_200)).await;
    let bus = e.rtu.as_ref().unwrap();
    let (path, faults) = (bus.path.clone(), bus.faults.clone());
    let config = e.site.lock().device(1).unwrap().config().clone();
    let charge = address_of(&config, "batteryMaxCurrentCharge");
    let site = e.site.clone();
    tokio::task::spawn_blocking(move || {
        let mut port = open(&path);
        let write = |value| {
            rtu_frame(
                1,
                &Request::WriteMultiple {
                    start: charge,
                    values: vec![value],
                }
                .to_pdu()
                .unwrap(),
            )
        };
        let (reply, _) = exchange(&mut port, &write(120), 8);
        assert_eq!(
            parse_rtu_response(&reply).unwrap().1,
            Response::WriteMultiple {
                start: charge,
                count: 1
            }
        );
        let settings = site.lock().device(1).unwrap().settings();
        assert_eq!(
            settings.get("batteryMaxCurrentCharge").map(String::as_str),
            Some("120")
        );
        let (reply, _) = exchange(&mut port, &write(999), 5);
        assert_eq!(
            parse_rtu_response(&reply).unwrap().1,
            Response::Exception {
                function: 16,
                code: 3
            }
        );

        let read = read_holding_frame(1, 184, 1).unwrap();
        faults.set_unit(1, Some(Fault::BadCrc));
        let (reply, _) = exchange(&mut port, &read, 7);
        assert_eq!(reply.len(), 7);
        assert!(parse_rtu_response(&reply).is_err(), "bad CRC");
        faults.set_unit(1, Some(Fault::NoReply));
        assert!(exchange(&mut port, &read, 7).0.is_empty());
        faults.set_unit(1, Some(Fault::Delay(Duration::from_millis(250))));
        let (reply, took) = exchange(&mut port, &read, 7);
        assert!(took >= Duration::from_millis(250) && reply.len() == 7);
        faults.set_unit(1, Some(Fault::Exception(6)));
        let (reply, _) = exchange(&mut port, &read, 5);
        assert_eq!(
            parse_rtu_response(&reply).unwrap().1,
            Response::Exception {
                function: 3,
                code: 6
            }
        );
        faults.set_unit(1, Some(Fault::Garbage));
        let (reply, _) = exchange(&mut port, &read, 7);
        assert!(!reply.is_empty() && parse_rtu_response(&reply).is_err());
        faults.set_unit(1, None);
        let (reply, _) = exchange(&mut port, &read, 7);
        assert_eq!(registers(&reply).len(), 1, "recovers once cleared");
    })
    .await
    .unwrap();
}

/// A poll of ten inverters (each its whole map) on one bus at 9600 baud, against the bus's
/// physical limit: every byte of every request and reply at 10 bits per character. The bus
/// adds the 3.5-character silence after each request; the client here sends the next request
/// as soon as a reply is whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_poll_of_ten_inverters_at_9600_baud_stays_near_the_wire_limit() {
    let e = sim::emulate::Emulation::start(sim::emulate::EmulateOptions {
        site: sim::emulate::commercial_site(10, 1),
        configs: devices::protocol::shipped().unwrap(),
        step: None,
        tcp: None,
        v5: None,
        rtu: Some(sim::emulate::RtuOptions {
            baud: 9600,
            link: None,
        }),
    })
    .await
    .unwrap();
    let path = e.rtu.as_ref().unwrap().path.clone();
    let config = e.site.lock().device(1).unwrap().config().clone();
    let (bytes, took) = tokio::task::spawn_blocking(move || {
        let mut port = open(&path);
        let t = Instant::now();
        let mut bytes = 0;
        for unit in 1..=10u8 {
            for r in plan(&config) {
                let frame = read_holding_frame(unit, r.start, r.count).unwrap();
                let want = 5 + 2 * usize::from(r.count);
                let (reply, _) = exchange(&mut port, &frame, want);
                assert_eq!(reply.len(), want, "unit {unit} block {}", r.start);
                bytes += frame.len() + reply.len();
            }
        }
        (bytes, t.elapsed())
    })
    .await
    .unwrap();
    let limit = wire_time(bytes, 9600);
    let ratio = took.as_secs_f64() / limit.as_secs_f64();
    println!(
        "poll of 10 inverters at 9600 baud: {bytes} bytes, {took:?}, limit {limit:?}, {ratio:.3}x"
    );
    assert!((1.0..1.3).contains(&ratio), "{ratio}");
}
