//! The buses on their own: Modbus RTU over a pseudo-terminal (the agent's termios setup on a
//! real tty), Solarman V5 with a wrong logger serial, a Modbus TCP peer that drops the
//! connection, and `--check`.

use crate::support;

use std::{
    io::{Read, Write},
    os::fd::AsRawFd,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use agent::{
    config::{BusConfig, BusKind, Parity},
    transport::{Bus, TransportError},
};
use devices::{RegisterType, modbus};
use nix::sys::termios;
use support::*;

fn bus(kind: BusKind) -> Bus {
    Bus::new(&BusConfig {
        name: "test".into(),
        kind,
        timeout: Duration::from_millis(300),
        max_gap: 10,
    })
}

/// An RTU device on the master side of a pty: answers each complete request frame, with a
/// damaged CRC while `corrupt` is set.
fn rtu_device(
    dev: Shared,
    corrupt: Arc<AtomicBool>,
) -> Result<std::path::PathBuf, Box<dyn std::error::Error>> {
    let pty = nix::pty::openpty(None, None)?;
    let path = std::fs::read_link(format!("/proc/self/fd/{}", pty.slave.as_raw_fd()))?;
    let mut master = std::fs::File::from(pty.master);
    // The slave stays open for the test's life, so the master never sees a hang-up.
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
            buf.clear();
            if let Some(reply) = answer(&dev, unit, &pdu) {
                let mut frame = modbus::rtu_frame(unit, &reply);
                if corrupt.load(Ordering::Relaxed) {
                    let last = frame.len() - 1;
                    frame[last] ^= 0xFF;
                }
                if master.write_all(&frame).is_err() {
                    return;
                }
            }
        }
    });
    Ok(path)
}

#[tokio::test]
async fn rtu_over_a_serial_port_reads_writes_and_reports_each_failure() -> TestResult {
    let dev = device(3);
    dev.lock().map_err(|_| "lock")?.holes.insert(200);
    let corrupt = Arc::new(AtomicBool::new(false));
    let port = rtu_device(dev.clone(), corrupt.clone())?;
    let b = bus(BusKind::Rtu {
        port: port.clone(),
        baud: 9600,
        parity: Parity::Even,
        stop_bits: 1,
    });
    assert_eq!(
        b.read(3, RegisterType::Input, 10, 2).await?,
        vec![3120, 2305]
    );
    // The port is set up as configured: 9600 baud, raw (a pty keeps no parity: Linux clears
    // PARENB on pseudo-terminals).
    let t = termios::tcgetattr(std::fs::File::open(&port)?)?;
    assert_eq!(termios::cfgetospeed(&t), termios::BaudRate::B9600);
    assert!(!t.local_flags.contains(termios::LocalFlags::ICANON));
    assert!(!t.local_flags.contains(termios::LocalFlags::ECHO));
    assert_eq!(
        b.read(3, RegisterType::Input, 199, 2).await,
        Err(TransportError::Exception {
            function: 4,
            code: 2
        })
    );
    // Another unit on the bus: nobody answers.
    assert_eq!(
        b.read(9, RegisterType::Input, 10, 1).await,
        Err(TransportError::Timeout)
    );
    corrupt.store(true, Ordering::Relaxed);
    assert_eq!(
        b.read(3, RegisterType::Input, 10, 1).await,
        Err(TransportError::Crc)
    );
    corrupt.store(false, Ordering::Relaxed);
    let w = modbus::Request::WriteMultiple {
        start: 108,
        values: vec![77],
    };
    b.request(3, &w).await?;
    assert_eq!(b.read(3, RegisterType::Holding, 108, 1).await?, vec![77]);
    Ok(())
}

#[tokio::test]
async fn a_v5_stick_with_another_serial_is_named_and_tcp_reconnects() -> TestResult {
    let dev = device(1);
    let stick = v5_stick(vec![dev.clone()], 1234, 9999).await;
    let b = bus(BusKind::Solarman {
        address: stick.to_string(),
        logger_serial: 1234,
    });
    assert_eq!(
        b.read(1, RegisterType::Input, 10, 1).await,
        Err(TransportError::WrongLogger {
            expected: 1234,
            found: 9999
        })
    );
    let good = v5_stick(vec![dev.clone()], 1234, 1234).await;
    let b = bus(BusKind::Solarman {
        address: good.to_string(),
        logger_serial: 1234,
    });
    assert_eq!(
        b.read(1, RegisterType::Input, 10, 2).await?,
        vec![3120, 2305]
    );

    // A Modbus TCP peer that closes every connection after one answer.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let d = dev.clone();
    tokio::spawn(async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        while let Ok((mut s, _)) = listener.accept().await {
            let mut frame = [0u8; 12];
            if s.read_exact(&mut frame).await.is_err() {
                continue;
            }
            if let Ok((tid, unit, pdu)) = modbus::tcp_split(&frame)
                && let Some(reply) = answer(&d, unit, pdu)
            {
                let _ = s.write_all(&modbus::tcp_frame(tid, unit, &reply)).await;
            }
        }
    });
    let b = bus(BusKind::Tcp {
        address: addr.to_string(),
    });
    assert_eq!(b.read(1, RegisterType::Input, 10, 1).await?, vec![3120]);
    // The peer closed the idle connection: seen on use, the request goes again on a new one.
    assert_eq!(b.read(1, RegisterType::Input, 11, 1).await?, vec![2305]);
    assert_eq!(
        b.read(1, RegisterType::Input, 10, 2).await?,
        vec![3120, 2305]
    );
    Ok(())
}

#[tokio::test]
async fn check_reads_each_device_once_and_fails_when_one_is_silent() -> TestResult {
    let dev = device(1);
    let tcp = modbus_tcp(vec![dev.clone()]).await;
    let dir = temp_dir("check");
    let text = config_text(
        &dir,
        1883,
        &tcp_bus("lan", tcp),
        &device_entry("lan", 1, "INV1"),
    );
    let config = agent::Config::parse(&text, &dir).map_err(|e| e.to_string())?;
    assert!(agent::cli::run_check(&config).await);
    dev.lock().map_err(|_| "lock")?.dead = true;
    assert!(!agent::cli::run_check(&config).await);
    Ok(())
}

/// A Modbus TCP poll of 100 devices (one responder each, as 100 inverters with their own
/// address): every device answers every block, within a bound (measured, see the output).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tcp_poll_of_100_devices_reads_them_all() -> TestResult {
    let mut buses = String::new();
    let mut devices = String::new();
    for i in 0..100 {
        let addr = modbus_tcp(vec![device(1)]).await;
        buses += &tcp_bus(&format!("lan{i}"), addr);
        devices += &device_entry(&format!("lan{i}"), 1, &format!("INV{i:03}"));
    }
    let dir = temp_dir("poll100");
    let text = config_text(&dir, 1883, &buses, &devices);
    let config = agent::Config::parse(&text, &dir).map_err(|e| e.to_string())?;
    let site = agent::poller::Site::new(&config);
    site.poll().await; // connections opened
    let started = std::time::Instant::now();
    let polled = site.poll().await;
    let took = started.elapsed();
    println!("a poll of 100 Modbus TCP devices (6 blocks each): {took:?}");
    assert_eq!(polled.len(), 100);
    assert!(
        polled
            .iter()
            .all(|(_, r)| r.blocks.len() == 6 && r.failures.is_empty())
    );
    assert!(took < Duration::from_secs(2), "{took:?}");
    Ok(())
}

#[tokio::test]
async fn a_lost_reply_is_asked_again_and_the_reading_stays_whole() -> TestResult {
    let dev = device(1);
    let tcp = modbus_tcp(vec![dev.clone()]).await;
    let dir = temp_dir("retry");
    let text = config_text(
        &dir,
        1883,
        &tcp_bus("lan", tcp),
        &device_entry("lan", 1, "INV1"),
    );
    let config = agent::Config::parse(&text, &dir).map_err(|e| e.to_string())?;
    let site = agent::poller::Site::new(&config);
    dev.lock().map_err(|_| "lock")?.drop_next = 1;
    let polled = site.poll().await;
    assert_eq!(polled[0].1.blocks.len(), 6, "{:?}", polled[0].1.failures);
    // The first block lost twice: the device counts as not answering this poll (the rest of
    // its plan would only wait for the same timeout).
    dev.lock().map_err(|_| "lock")?.drop_next = 2;
    let polled = site.poll().await;
    assert!(!polled[0].1.answered());
    assert_eq!(polled[0].1.failures.len(), 1);
    // And it is read whole again at the next poll.
    assert_eq!(site.poll().await[0].1.blocks.len(), 6);
    Ok(())
}
