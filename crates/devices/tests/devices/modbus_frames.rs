//! Modbus framing against frames published in the Modbus literature.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] fns unwrap fixtures too

use devices::Error;
use devices::modbus::*;

fn hex(s: &str) -> Vec<u8> {
    parse_hex(s).expect("test hex")
}

#[test]
fn crc16_matches_the_reference_read_request() {
    assert_eq!(
        read_holding_frame(1, 0, 10).unwrap(),
        hex("01 03 00 00 00 0A C5 CD")
    );
    assert_eq!(crc16(&hex("01 03 00 00 00 0A")), 0xCDC5);
    // CRC-16/MODBUS check value of "123456789".
    assert_eq!(crc16(b"123456789"), 0x4B37);
}

#[test]
fn request_builders_produce_the_textbook_frames() {
    assert_eq!(
        read_holding_frame(0x11, 0x6B, 3).unwrap(),
        hex("11 03 00 6B 00 03 76 87")
    );
    assert_eq!(
        read_input_frame(0x11, 8, 1).unwrap(),
        hex("11 04 00 08 00 01 B2 98")
    );
    assert_eq!(
        write_single_frame(0x11, 1, 3).unwrap(),
        hex("11 06 00 01 00 03 9A 9B")
    );
    assert_eq!(
        write_multiple_frame(0x11, 1, &[0x000A, 0x0102]).unwrap(),
        hex("11 10 00 01 00 02 04 00 0A 01 02 C6 F0")
    );
}

#[test]
fn a_read_response_parses_into_its_registers() {
    let (unit, response) = parse_rtu_response(&hex("11 03 06 AE 41 56 52 43 40 49 AD")).unwrap();
    assert_eq!(unit, 0x11);
    let expected = Response::Registers {
        function: 3,
        values: vec![0xAE41, 0x5652, 0x4340],
    };
    assert_eq!(response, expected);
    assert!(response.answers(&Request::ReadHolding {
        start: 0x6B,
        count: 3
    }));
    assert!(!response.answers(&Request::ReadInput {
        start: 0x6B,
        count: 3
    }));
    assert!(!response.answers(&Request::ReadHolding {
        start: 0x6B,
        count: 2
    }));
}

#[test]
fn write_echo_responses_parse_and_match_their_requests() {
    let (_, single) = parse_rtu_response(&hex("11 06 00 01 00 03 9A 9B")).unwrap();
    assert_eq!(
        single,
        Response::WriteSingle {
            address: 1,
            value: 3
        }
    );
    assert!(single.answers(&Request::WriteSingle {
        address: 1,
        value: 3
    }));
    let (_, multi) = parse_rtu_response(&hex("11 10 00 01 00 02 12 98")).unwrap();
    assert_eq!(multi, Response::WriteMultiple { start: 1, count: 2 });
    assert!(multi.answers(&Request::WriteMultiple {
        start: 1,
        values: vec![1, 2]
    }));
}

#[test]
fn exception_responses_carry_function_and_code() {
    let frame = rtu_frame(0x0A, &[0x81, 0x02]);
    assert_eq!(frame, hex("0A 81 02 B0 53"));
    let (unit, response) = parse_rtu_response(&frame).unwrap();
    assert_eq!(unit, 0x0A);
    assert_eq!(
        response,
        Response::Exception {
            function: 1,
            code: 2
        }
    );
    assert_eq!(exception_text(2), "illegal data address");
    let (_, e) = parse_rtu_response(&rtu_frame(1, &[0x83, 0x04])).unwrap();
    assert!(e.answers(&Request::ReadHolding { start: 0, count: 1 }));
}

#[test]
fn a_corrupted_frame_is_rejected_with_both_crcs() {
    let mut frame = hex("01 03 00 00 00 0A C5 CD");
    frame[5] = 0x0B;
    assert!(matches!(
        parse_rtu_request(&frame),
        Err(Error::BadCrc { found: 0xCDC5, .. })
    ));
    assert!(matches!(rtu_split(&[1, 3]), Err(Error::FrameTooShort(2))));
}

#[test]
fn a_deye_double_crc_frame_is_accepted() {
    let mut frame = hex("11 03 06 AE 41 56 52 43 40 49 AD");
    frame.extend_from_slice(&[0, 0]);
    let (_, response) = parse_rtu_response(&frame).unwrap();
    assert!(matches!(response, Response::Registers { ref values, .. } if values.len() == 3));
}

#[test]
fn requests_round_trip_through_the_simulator_side_parser() {
    let requests = [
        Request::ReadHolding {
            start: 500,
            count: 125,
        },
        Request::ReadInput { start: 0, count: 1 },
        Request::WriteSingle {
            address: 65535,
            value: 0xBEEF,
        },
        Request::WriteMultiple {
            start: 148,
            values: vec![0, 600, 1200],
        },
    ];
    for r in requests {
        let frame = rtu_frame(7, &r.to_pdu().unwrap());
        assert_eq!(parse_rtu_request(&frame).unwrap(), (7, r));
    }
}

#[test]
fn out_of_range_quantities_are_refused_before_sending() {
    assert!(matches!(
        read_holding_frame(1, 0, 0),
        Err(Error::BadQuantity { count: 0, max: 125 })
    ));
    assert!(matches!(
        read_holding_frame(1, 0, 126),
        Err(Error::BadQuantity { .. })
    ));
    assert!(matches!(
        read_input_frame(1, 65535, 2),
        Err(Error::AddressOverflow { .. })
    ));
    assert!(matches!(
        write_multiple_frame(1, 0, &[0; 124]),
        Err(Error::BadQuantity { max: 123, .. })
    ));
    assert!(matches!(
        write_multiple_frame(1, 0, &[]),
        Err(Error::BadQuantity { .. })
    ));
}

#[test]
fn unknown_function_codes_are_reported() {
    let frame = rtu_frame(1, &[0x2B, 0x0E, 0x01, 0x00]);
    assert!(matches!(
        parse_rtu_response(&frame),
        Err(Error::UnsupportedFunction(0x2B))
    ));
}

#[test]
fn ascii_frames_carry_an_lrc_and_round_trip() {
    let pdu = Request::ReadHolding { start: 0, count: 1 }
        .to_pdu()
        .unwrap();
    let frame = ascii_frame(1, &pdu);
    assert_eq!(frame, ":010300000001FB\r\n");
    assert_eq!(lrc(&hex("01 03 00 00 00 01")), 0xFB);
    assert_eq!(ascii_split(frame.as_bytes()).unwrap(), (1, pdu.clone()));
    // Without CR LF, as typed into the toolbox.
    assert_eq!(ascii_split(b":010300000001fb").unwrap(), (1, pdu));
    assert!(matches!(
        ascii_split(b":010300000001FC\r\n"),
        Err(Error::BadLrc { .. })
    ));
    assert!(matches!(
        ascii_split(b"010300000001FB"),
        Err(Error::BadAscii(_))
    ));
    assert!(matches!(
        ascii_split(b":0103000000001FB"),
        Err(Error::BadAscii(_))
    ));
}

#[test]
fn hex_helpers_accept_what_people_type_and_print_spaced_upper_case() {
    assert_eq!(parse_hex("0x01,0x03 00\t0a").unwrap(), vec![1, 3, 0, 10]);
    assert_eq!(parse_hex("01030000").unwrap(), vec![1, 3, 0, 0]);
    assert!(parse_hex("0G").is_err());
    assert!(parse_hex("010").is_err());
    assert_eq!(to_hex(&[1, 3, 0xC5, 0xCD]), "01 03 C5 CD");
}
