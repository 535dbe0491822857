//! The configuration file: a valid one loads; each kind of mistake is reported with its line.

use crate::support;

use agent::config::{BusKind, Config, Parity};
use support::{PROTOCOL, temp_dir};

fn base(dir: &std::path::Path) -> String {
    std::fs::create_dir_all(dir.join("protocols")).expect("dir");
    std::fs::write(dir.join("protocols/test.json"), PROTOCOL).expect("protocol");
    "mqtt = \"portal.example.com:1883\"\nsn = \"GW1\"\nkey = \"Kq7xTz2mWp9rLb4v\"\n\
     state_dir = \"state\"\nprotocols_dir = \"protocols\"\n\n\
     [[bus]]\nname = \"rs485\"\nkind = \"rtu\"\nport = \"/dev/ttyUSB0\"\nbaud = 9600\nparity = \"even\"\n\n\
     [[bus]]\nname = \"stick\"\nkind = \"solarman\"\naddress = \"192.168.1.50\"\nlogger_serial = 2712345678\n\n"
        .to_string()
}

fn device(bus: &str, unit: i64, sn: &str, protocol: &str) -> String {
    format!(
        "[[device]]\nbus = \"{bus}\"\nunit = {unit}\nsn = \"{sn}\"\nprotocol = \"{protocol}\"\n\n"
    )
}

#[test]
fn a_valid_file_loads_with_shipped_and_extra_protocols() {
    let dir = temp_dir("config-ok");
    let text = base(&dir)
        + &device("rs485", 1, "INV1", "test-inverter")
        + &device("stick", 1, "INV2", "deye-hybrid-1ph");
    let c = Config::parse(&text, &dir).expect("valid");
    assert_eq!(
        (c.mqtt_host.as_str(), c.mqtt_port),
        ("portal.example.com", 1883)
    );
    assert_eq!(c.devices.len(), 2);
    assert_eq!(c.devices[0].protocol.code, "test-inverter");
    assert_eq!(c.upload_cycle, 300);
    assert_eq!(c.buffer_bytes, 64 * 1024 * 1024);
    assert!(matches!(
        c.bus("rs485").map(|b| &b.kind),
        Some(BusKind::Rtu {
            baud: 9600,
            parity: Parity::Even,
            stop_bits: 1,
            ..
        })
    ));
    assert_eq!(
        c.bus("stick").map(|b| b.kind.clone()),
        Some(BusKind::Solarman {
            address: "192.168.1.50:8899".into(),
            logger_serial: 2_712_345_678
        })
    );
    assert_eq!(c.state_dir, dir.join("state"));
}

#[test]
fn mistakes_are_reported_with_their_line() {
    let dir = temp_dir("config-bad");
    let head = base(&dir);
    let head_lines = head.matches('\n').count();
    let text = head.clone()
        + &device("rs485", 0, "INV1", "test-inverter")
        + &device("rs485", 248, "INV2", "test-inverter")
        + &device("nowhere", 3, "INV3", "test-inverter")
        + &device("rs485", 4, "INV1", "test-inverter")
        + &device("rs485", 5, "INV5", "no-such-map");
    let err = Config::parse(&text, &dir).expect_err("invalid").0;
    let find = |needle: &str| {
        err.iter()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no problem mentions `{needle}`: {err:#?}"))
            .clone()
    };
    // Each device block is 6 lines; `unit` is its third.
    let line = |block: usize, field: usize| format!("line {}:", head_lines + block * 6 + field);
    assert!(find("unit 0 is outside 1..=247").starts_with(&line(0, 3)));
    assert!(find("unit 248 is outside").starts_with(&line(1, 3)));
    assert!(find("unknown bus `nowhere`").starts_with(&line(2, 2)));
    assert!(find("`INV1` is used twice").starts_with(&line(3, 4)));
    assert!(find("unknown protocol `no-such-map`").starts_with(&line(4, 5)));
    assert_eq!(err.len(), 5, "{err:#?}");
}

#[test]
fn bad_buses_and_syntax_are_explained() {
    let dir = temp_dir("config-bus");
    let text = "mqtt = \"p:1883\"\nsn = \"GW1\"\nkey = \"Kq7xTz2mWp9rLb4v\"\nstate_dir = \"s\"\n\
                [[bus]]\nname = \"a\"\nkind = \"can\"\n\
                [[bus]]\nname = \"b\"\nkind = \"solarman\"\naddress = \"1.2.3.4\"\n\
                [[bus]]\nname = \"c\"\nkind = \"rtu\"\nport = \"/dev/ttyS0\"\nbaud = 9601\n"
        .to_string()
        + &device("b", 1, "X", "deye-hybrid-1ph");
    let err = Config::parse(&text, &dir)
        .expect_err("invalid")
        .0
        .join("\n");
    assert!(err.contains("line 7: bus `a`: kind `can`"), "{err}");
    assert!(err.contains("needs `logger_serial`"), "{err}");
    assert!(err.contains("baud 9601 is not a standard rate"), "{err}");
    let err = Config::parse("mqtt = \"x\"\nsn = 5\n", &dir)
        .expect_err("syntax")
        .0
        .join("\n");
    assert!(err.contains("line 2"), "{err}");
    let err = Config::parse(&(base(&dir) + "surprise = 1\n"), &dir)
        .expect_err("unknown")
        .0
        .join("\n");
    assert!(err.contains("surprise"), "{err}");
}

#[test]
fn the_example_config_is_valid() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../deploy/agent/agent.example.toml");
    let c = Config::load(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.devices.len(), 2);
    assert_eq!(c.state_dir, std::path::Path::new("/var/lib/portal-agent"));
}
