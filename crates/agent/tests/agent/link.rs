//! The agent against the portal's real embedded broker (sign-in from a database, PUBACK after
//! the stand-in ingest's commit) and minimal Modbus TCP / Solarman V5 responders.

use crate::support;

use std::{path::Path, time::Duration};

use agent::{Config, RunOptions, buffer::Buffer};
use devices::{
    RegisterType,
    modbus::{self, Response},
};
use serde_json::json;
use support::*;
use tokio::{sync::watch, task::JoinHandle};

struct Running {
    stop: watch::Sender<bool>,
    task: JoinHandle<Result<agent::Exit, String>>,
}

fn start(
    config_text: &str,
    base: &Path,
    cycle_ms: u64,
) -> Result<Running, Box<dyn std::error::Error>> {
    let config = Config::parse(config_text, base).map_err(|e| e.to_string())?;
    let (stop, rx) = watch::channel(false);
    let opts = RunOptions {
        keep_alive: Duration::from_secs(30),
        cycle: Some(Duration::from_millis(cycle_ms)),
    };
    let task = tokio::spawn(agent::run(config, opts, rx));
    Ok(Running { stop, task })
}

impl Running {
    async fn stop(self) {
        let _ = self.stop.send(true);
        let _ = tokio::time::timeout(Duration::from_secs(10), self.task).await;
    }
    /// As `kill -9`: the task is gone mid-flight, nothing is said or saved.
    fn kill(self) {
        self.task.abort();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readings_over_tcp_and_v5_are_published_and_acknowledged() -> TestResult {
    let mut portal = portal(0).await?;
    let inv1 = device(1);
    let inv2 = device(2);
    // A block the device refuses: left out of the reading, never sent as zeros.
    inv2.lock().map_err(|_| "lock")?.holes.insert(200);
    let tcp = modbus_tcp(vec![inv1.clone()]).await;
    let stick = v5_stick(vec![inv2.clone()], 2_712_345_678, 2_712_345_678).await;
    let dir = temp_dir("link-read");
    let text = config_text(
        &dir,
        portal.port,
        &(tcp_bus("lan", tcp) + &v5_bus("stick", stick, 2_712_345_678)),
        &(device_entry("lan", 1, "INV1") + &device_entry("stick", 2, "INV2")),
    );
    let agent = start(&text, &dir, 300)?;
    assert!(
        portal.online_within(true, Duration::from_secs(10)).await,
        "the agent signed in"
    );
    let seen = portal
        .next_telemetry(Duration::from_secs(10))
        .await
        .ok_or("no telemetry")?;
    let by_sn: std::collections::BTreeMap<_, _> = seen.devices.iter().cloned().collect();
    // Input 10-11 and 200, holding 20, 80, 108 and 148 (more than `max_gap` apart).
    assert_eq!(by_sn.get("INV1"), Some(&6), "every block: {seen:?}");
    assert_eq!(
        by_sn.get("INV2"),
        Some(&5),
        "the refused block is left out: {seen:?}"
    );
    // A device that stops answering is left out of the telemetry (the portal shows it
    // offline); its gateway keeps reporting.
    inv1.lock().map_err(|_| "lock")?.dead = true;
    let mut without = None;
    for _ in 0..20 {
        let s = portal
            .next_telemetry(Duration::from_secs(5))
            .await
            .ok_or("no telemetry")?;
        if !s.devices.iter().any(|(sn, _)| sn == "INV1") {
            without = Some(s);
            break;
        }
    }
    let without = without.ok_or("INV1 still reported while dead")?;
    assert!(without.devices.iter().any(|(sn, _)| sn == "INV2"));
    agent.stop().await;
    let b = Buffer::open(&dir.join("state/buffer"), 1 << 20)?;
    assert!(
        b.acked() >= 2,
        "acknowledged readings are marked in the buffer ({})",
        b.acked()
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readings_buffered_while_the_portal_is_away_survive_a_kill_and_arrive_in_order()
-> TestResult {
    let port = free_port();
    let inv = device(1);
    let tcp = modbus_tcp(vec![inv.clone()]).await;
    let dir = temp_dir("link-backlog");
    let text = config_text(
        &dir,
        port,
        &tcp_bus("lan", tcp),
        &device_entry("lan", 1, "INV1"),
    );
    // No portal: readings pile up on disk.
    let agent = start(&text, &dir, 100)?;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    agent.kill();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let buffered = {
        let mut b = Buffer::open(&dir.join("state/buffer"), 1 << 20)?;
        let mut ts = Vec::new();
        let mut after = b.acked();
        while let Some((seq, payload)) = b.next_after(after)? {
            after = seq;
            let t: serde_json::Value = serde_json::from_slice(&payload)?;
            ts.push(t["ts"].as_i64().ok_or("ts")?);
        }
        ts
    };
    assert!(buffered.len() >= 8, "{} readings buffered", buffered.len());
    // The portal comes back, then the agent (after its kill -9).
    let mut portal = portal(port).await?;
    let agent = start(&text, &dir, 100)?;
    let mut arrived = Vec::new();
    while arrived.len() < buffered.len() + 3 {
        let s = portal
            .next_telemetry(Duration::from_secs(10))
            .await
            .ok_or("telemetry stopped")?;
        arrived.push(s.ts);
    }
    agent.stop().await;
    assert_eq!(
        &arrived[..buffered.len()],
        &buffered[..],
        "the backlog first, in order"
    );
    assert!(
        arrived.windows(2).all(|w| w[0] < w[1]),
        "in order, none twice: {arrived:?}"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_are_written_read_back_and_refusals_explained() -> TestResult {
    let portal = portal(0).await?;
    let inv = device(1);
    inv.lock().map_err(|_| "lock")?.refuse.insert(148);
    let tcp = modbus_tcp(vec![inv.clone()]).await;
    let dir = temp_dir("link-cmd");
    let text = config_text(
        &dir,
        portal.port,
        &tcp_bus("lan", tcp),
        &device_entry("lan", 1, "INV1"),
    );
    let agent = start(&text, &dir, 1000)?;
    assert!(portal.online_within(true, Duration::from_secs(10)).await);

    // A write read back before "applied".
    let (status, code, msg, data) = portal
        .ask(
            "INV1",
            "set_params",
            json!({"batteryMaxCurrentCharge": 120}),
        )
        .await?;
    assert_eq!((status.as_str(), code), ("succeeded", Some(0)), "{msg}");
    assert_eq!(data["batteryMaxCurrentCharge"], "120");
    assert_eq!(
        inv.lock()
            .map_err(|_| "lock")?
            .image
            .word(RegisterType::Holding, 108),
        120
    );

    // The device refuses (exception 3): code 5 with the reason.
    let (status, code, msg, _) = portal
        .ask("INV1", "set_params", json!({"sellTime1": "05:30"}))
        .await?;
    assert_eq!((status.as_str(), code), ("failed", Some(5)));
    assert!(msg.contains("illegal data value"), "{msg}");

    // Out of the setting's range, or not a setting: code 2, nothing written.
    let writes = inv.lock().map_err(|_| "lock")?.writes.len();
    let (_, code, _, _) = portal
        .ask(
            "INV1",
            "set_params",
            json!({"batteryMaxCurrentCharge": 500}),
        )
        .await?;
    assert_eq!(code, Some(2));
    let (_, code, msg, _) = portal
        .ask("INV1", "set_params", json!({"ratedPower": 1}))
        .await?;
    assert_eq!(code, Some(2), "{msg}");
    assert_eq!(inv.lock().map_err(|_| "lock")?.writes.len(), writes);

    // Power off through the `powerOn` setting.
    let (_, code, msg, _) = portal.ask("INV1", "power_off", json!(null)).await?;
    assert_eq!(code, Some(0), "{msg}");
    assert_eq!(
        inv.lock()
            .map_err(|_| "lock")?
            .image
            .word(RegisterType::Holding, 80),
        0
    );

    // read_params: the settings as the device holds them.
    let (_, code, _, data) = portal.ask("INV1", "read_params", json!(null)).await?;
    assert_eq!(code, Some(0));
    assert_eq!(
        data,
        json!({"powerOn": "0", "batteryMaxCurrentCharge": "120", "sellTime1": "22:30"})
    );

    // The toolbox: a read passes through; a write outside the settings never reaches the bus.
    let frame = modbus::to_hex(&modbus::read_holding_frame(1, 108, 1)?);
    let (_, code, _, data) = portal
        .ask("INV1", "modbus_raw", json!({"frame": frame}))
        .await?;
    assert_eq!(code, Some(0));
    let reply = modbus::parse_hex(data["frame"].as_str().ok_or("frame")?)?;
    assert_eq!(
        modbus::parse_rtu_response(&reply)?.1,
        Response::Registers {
            function: 3,
            values: vec![120]
        }
    );
    let frame = modbus::to_hex(&modbus::write_single_frame(1, 20, 1)?);
    let (status, code, msg, _) = portal
        .ask("INV1", "modbus_raw", json!({"frame": frame}))
        .await?;
    assert_eq!((status.as_str(), code), ("failed", Some(5)));
    assert!(
        msg.contains("register 20 is not a writable setting"),
        "{msg}"
    );
    // Nothing reached the device: it took no write to register 20 (it would have: only the
    // agent refuses it).
    {
        let d = inv.lock().map_err(|_| "lock")?;
        assert!(
            d.writes.iter().all(|(a, _)| *a != 20),
            "register 20 was written"
        );
        assert_eq!(d.image.word(RegisterType::Holding, 20), 5000);
    }

    // The gateway: remote settings off refuses device writes; the upload cycle is kept.
    let (_, code, _, _) = portal
        .ask(
            GATEWAY,
            "set_params",
            json!({"remoteSettings": "0", "uploadCycle": 60}),
        )
        .await?;
    assert_eq!(code, Some(0));
    let (_, code, msg, _) = portal
        .ask("INV1", "set_params", json!({"batteryMaxCurrentCharge": 90}))
        .await?;
    assert_eq!(code, Some(5), "{msg}");
    assert_eq!(
        std::fs::read_to_string(dir.join("state/upload_cycle")).unwrap_or_default(),
        "60"
    );
    let (_, code, _, _) = portal
        .ask(GATEWAY, "upgrade", json!({"version": "2"}))
        .await?;
    assert_eq!(code, Some(1));
    agent.stop().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rotated_key_is_stored_and_used_to_sign_in_again() -> TestResult {
    let portal = portal(0).await?;
    let inv = device(1);
    let tcp = modbus_tcp(vec![inv]).await;
    let dir = temp_dir("link-key");
    let text = config_text(
        &dir,
        portal.port,
        &tcp_bus("lan", tcp),
        &device_entry("lan", 1, "INV1"),
    );
    let agent = start(&text, &dir, 1000)?;
    assert!(portal.online_within(true, Duration::from_secs(10)).await);
    // As the portal rotates: the new key pending beside the old one, the command not recorded.
    let g = portal
        .store
        .gateway_by_sn(GATEWAY)
        .await?
        .ok_or("gateway")?;
    portal
        .store
        .set_pending_gateway_key(g.id, "N3wKeyN3wKeyZ7q1", chrono_ms())
        .await?;
    let within = Duration::from_secs(10);
    let id = portal
        .link
        .dispatcher
        .send_secret(
            GATEWAY,
            GATEWAY,
            "rotate_key",
            json!({"key": "N3wKeyN3wKeyZ7q1"}),
            within,
        )
        .await?;
    let row = portal
        .link
        .dispatcher
        .wait(id, within)
        .await?
        .ok_or("no row")?;
    assert_eq!(row.result_code, Some(0), "{}", row.result_msg);
    assert!(
        !row.result_data.contains("N3wKey"),
        "the reply never echoes the key"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("state/key"))?,
        "N3wKeyN3wKeyZ7q1"
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(dir.join("state/key"))?
        .permissions()
        .mode();
    assert_eq!(mode & 0o077, 0, "the key file is private: {mode:o}");
    // Signed in again with the new key (the old one retired): commands still reach it.
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(portal.online_within(true, Duration::from_secs(10)).await);
    let g = portal
        .store
        .gateway_by_sn(GATEWAY)
        .await?
        .ok_or("gateway")?;
    assert_eq!(
        (g.reg_key.as_str(), g.pending_key),
        ("N3wKeyN3wKeyZ7q1", None)
    );
    let (_, code, msg, _) = portal.ask(GATEWAY, "read_params", json!(null)).await?;
    assert_eq!(code, Some(0), "{msg}");
    agent.stop().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_meter_that_stops_answering_opens_then_closes_its_communication_event() -> TestResult {
    let mut portal = portal(0).await?;
    let meter = device(7);
    let tcp = modbus_tcp(vec![meter.clone()]).await;
    let dir = temp_dir("link-event");
    let text = config_text(
        &dir,
        portal.port,
        &tcp_bus("lan", tcp),
        "[[device]]\nbus = \"lan\"\nunit = 7\nsn = \"MTR1\"\nprotocol = \"meter-3ph\"\n",
    );
    let agent = start(&text, &dir, 200)?;
    assert!(portal.online_within(true, Duration::from_secs(10)).await);
    portal
        .next_telemetry(Duration::from_secs(5))
        .await
        .ok_or("no telemetry")?;
    meter.lock().map_err(|_| "lock")?.dead = true;
    let opened = tokio::time::timeout(Duration::from_secs(5), portal.events.recv()).await?;
    assert_eq!(opened, Some(("MTR1".into(), "M01".into(), "open".into())));
    meter.lock().map_err(|_| "lock")?.dead = false;
    let closed = tokio::time::timeout(Duration::from_secs(5), portal.events.recv()).await?;
    assert_eq!(closed, Some(("MTR1".into(), "M01".into(), "close".into())));
    agent.stop().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_is_answered_then_the_agent_exits_for_systemd() -> TestResult {
    let portal = portal(0).await?;
    let tcp = modbus_tcp(vec![device(1)]).await;
    let dir = temp_dir("link-restart");
    let text = config_text(
        &dir,
        portal.port,
        &tcp_bus("lan", tcp),
        &device_entry("lan", 1, "INV1"),
    );
    let agent = start(&text, &dir, 1000)?;
    assert!(portal.online_within(true, Duration::from_secs(10)).await);
    let (status, code, msg, _) = portal.ask(GATEWAY, "restart", json!(null)).await?;
    assert_eq!(
        (status.as_str(), code, msg.as_str()),
        ("succeeded", Some(0), "restarting")
    );
    let exit = tokio::time::timeout(Duration::from_secs(10), agent.task).await??;
    assert_eq!(exit, Ok(agent::Exit::Restart));
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readings_taken_while_the_network_is_cut_arrive_once_it_is_back() -> TestResult {
    let mut portal = portal(0).await?;
    let proxy = Proxy::start(portal.port).await?;
    let tcp = modbus_tcp(vec![device(1)]).await;
    let dir = temp_dir("link-cut");
    let text = config_text(
        &dir,
        proxy.port,
        &tcp_bus("lan", tcp),
        &device_entry("lan", 1, "INV1"),
    );
    let agent = start(&text, &dir, 100)?;
    portal
        .next_telemetry(Duration::from_secs(10))
        .await
        .ok_or("no telemetry")?;
    tokio::time::sleep(Duration::from_millis(300)).await;
    proxy.cut();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    proxy.restore();
    tokio::time::sleep(Duration::from_millis(3000)).await;
    agent.stop().await;
    let mut seen: Vec<i64> = Vec::new();
    while let Ok(s) = portal.telemetry.try_recv() {
        seen.push(s.ts);
    }
    // In order: each reading is newer than all before it, or a harmless duplicate of one.
    let mut newest = 0;
    for ts in &seen {
        assert!(*ts > newest || seen.contains(ts), "out of order: {seen:?}");
        newest = newest.max(*ts);
    }
    let mut distinct = seen.clone();
    distinct.sort_unstable();
    distinct.dedup();
    // None lost: a reading every cycle (100 ms), through the cut too.
    let largest = distinct.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
    assert!(distinct.len() >= 30, "{} readings", distinct.len());
    assert!(largest < 400, "a gap of {largest} ms: {distinct:?}");
    let b = Buffer::open(&dir.join("state/buffer"), 1 << 20)?;
    // Everything acknowledged but at most the reading taken as the agent stopped, whose
    // acknowledgement may still have been on its way (seen on a loaded machine).
    let unacked = b.next_seq().saturating_sub(b.acked() + 1);
    assert!(unacked <= 1, "{unacked} readings not acknowledged");
    Ok(())
}
