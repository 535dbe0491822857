//! A poll of 10 devices on one RS485 bus at 9600 baud (8N1) against the bus's physical limit:
//! the bytes on the wire × 10 bits / 9600. The devices sit on a pseudo-terminal that paces
//! every reply at 9600 baud and waits for each request's own wire time, as a real bus would.

use crate::support;

use std::{
    io::{Read, Write},
    os::fd::AsRawFd,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use devices::modbus;
use support::*;

const BAUD: f64 = 9600.0;

fn byte_time() -> Duration {
    Duration::from_secs_f64(10.0 / BAUD)
}

/// Ten devices (units 1..=10) behind one paced pty; counts the bytes on the wire.
fn paced_bus(
    devices: Vec<Shared>,
    wire: Arc<Mutex<usize>>,
) -> Result<std::path::PathBuf, Box<dyn std::error::Error>> {
    let pty = nix::pty::openpty(None, None)?;
    let path = std::fs::read_link(format!("/proc/self/fd/{}", pty.slave.as_raw_fd()))?;
    let mut master = std::fs::File::from(pty.master);
    std::mem::forget(pty.slave);
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let mut chunk = [0u8; 256];
        while let Ok(n) = master.read(&mut chunk) {
            if n == 0 {
                return;
            }
            buf.extend_from_slice(&chunk[..n]);
            let Ok((unit, _)) = modbus::parse_rtu_request(&buf) else {
                continue;
            };
            let pdu = modbus::rtu_split(&buf)
                .map(|(_, p)| p.to_vec())
                .unwrap_or_default();
            // The request's own time on the wire.
            std::thread::sleep(byte_time() * buf.len() as u32);
            let request_len = buf.len();
            buf.clear();
            let Some(reply) = devices.iter().find_map(|d| answer(d, unit, &pdu)) else {
                continue;
            };
            let frame = modbus::rtu_frame(unit, &reply);
            if let Ok(mut w) = wire.lock() {
                *w += request_len + frame.len();
            }
            let start = Instant::now();
            for (i, b) in frame.iter().enumerate() {
                let due = start + byte_time() * (i as u32 + 1);
                while Instant::now() < due {
                    std::thread::sleep(Duration::from_micros(200));
                }
                if master.write_all(&[*b]).is_err() {
                    return;
                }
            }
        }
    });
    Ok(path)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_devices_at_9600_baud_poll_close_to_the_wire_limit() -> TestResult {
    let devices: Vec<Shared> = (1..=10).map(device).collect();
    let wire = Arc::new(Mutex::new(0usize));
    let port = paced_bus(devices, wire.clone())?;
    let dir = temp_dir("rtu-timing");
    let mut entries = String::new();
    for unit in 1..=10u8 {
        entries += &format!(
            "[[device]]\nbus = \"rs485\"\nunit = {unit}\nsn = \"INV{unit:02}\"\nprotocol = \"deye-hybrid-1ph\"\n"
        );
    }
    let bus = format!(
        "[[bus]]\nname = \"rs485\"\nkind = \"rtu\"\nport = \"{}\"\nbaud = 9600\ntimeout_ms = 1000\n",
        port.display()
    );
    let text = config_text(&dir, 1883, &bus, &entries);
    let config = agent::Config::parse(&text, &dir).map_err(|e| e.to_string())?;
    let site = agent::poller::Site::new(&config);
    let started = Instant::now();
    let polled = site.poll().await;
    let took = started.elapsed();
    let bytes = *wire.lock().map_err(|_| "lock")?;
    let limit = Duration::from_secs_f64(bytes as f64 * 10.0 / BAUD);
    let blocks: usize = polled.iter().map(|(_, r)| r.blocks.len()).sum();
    let ratio = took.as_secs_f64() / limit.as_secs_f64();
    println!(
        "10 devices at 9600 baud: {blocks} blocks, {bytes} bytes on the wire, limit {limit:?}, poll {took:?}, {ratio:.2}x"
    );
    assert!(
        polled.iter().all(|(_, r)| r.failures.is_empty()),
        "{:?}",
        polled.iter().map(|(_, r)| &r.failures).collect::<Vec<_>>()
    );
    assert!(ratio < 1.3, "{ratio:.2}x the wire limit");
    Ok(())
}
