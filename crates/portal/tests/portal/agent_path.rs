//! The real path end to end (docs/agent.md, "Tests of the real path"): the device emulators
//! (`sim::emulate`) serve one simulated plant over Modbus TCP, a Solarman V5 stick and an RTU
//! bus on a pty; gateway agents read them and report to `portal serve` (a child process on
//! SQLite, its embedded broker); the test reads what an API client sees and compares it with
//! the emulator's registers. Agents poll every 2 s.

use crate::agent_rig;
use crate::common;

use std::time::Duration;

use agent_rig::{CYCLE, Rig, Transport, wait_for};
use common::TestResult;
use serde_json::Value;

/// The PV power and battery SOC an API client reads for `sn`, once a reading is there.
async fn api_pv_and_soc(rig: &Rig, sn: &str) -> Result<Option<(f64, f64)>, common::Error> {
    let input = rig
        .get(&format!("/api/v1/inverter/{sn}/realtime/input"))
        .await?;
    if input["updateAt"].is_null() {
        return Ok(None);
    }
    let battery = rig
        .get(&format!("/api/v1/inverter/battery/{sn}/realtime"))
        .await?;
    let pac = input["pac"].as_f64().ok_or("pac is not a number")?;
    let soc = match &battery["soc"] {
        Value::String(s) => s.parse::<f64>().map_err(|e| format!("soc `{s}`: {e}"))?,
        Value::Number(n) => n.as_f64().ok_or("soc")?,
        other => return Err(format!("soc is {other}").into()),
    };
    Ok(Some((pac, soc)))
}

/// The same figures from the emulator's registers (the hybrid map's PV inputs summed, as the
/// API sums them).
fn register_pv_and_soc(rig: &Rig) -> Result<(f64, f64), common::Error> {
    let v = rig.register_values();
    let pv: f64 = (1..=12)
        .filter_map(|n| v.get(&format!("pv{n}_power")))
        .sum();
    let soc = *v.get("battery_soc").ok_or("the map has no battery_soc")?;
    Ok((pv.round(), soc))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_transport_brings_the_inverters_registers_to_the_api() -> TestResult {
    let (rig, gateways) = Rig::start(
        "path-transports",
        &[
            ("AGWTCP0001", Transport::Tcp),
            ("AGWV5S0001", Transport::V5),
            ("AGWRTU0001", Transport::Rtu),
        ],
    )
    .await?;
    let agents = gateways
        .iter()
        .map(|g| rig.start_agent(g))
        .collect::<Result<Vec<_>, _>>()?;
    let want = register_pv_and_soc(&rig)?;
    assert!(
        want.0 > 0.0 || want.1 > 0.0,
        "the emulated plant shows neither PV power nor battery charge: nothing to compare"
    );
    let mut failures = Vec::new();
    for gw in &gateways {
        let what = format!(
            "{}: no reading of inverter {} read over {} reached the API",
            gw.sn,
            gw.inverter,
            gw.transport.name()
        );
        let got = wait_for(Duration::from_secs(30), &what, || {
            api_pv_and_soc(&rig, &gw.inverter)
        })
        .await?;
        println!(
            "{}: API pac {} W soc {} %, registers {} W {} %",
            gw.transport.name(),
            got.0,
            got.1,
            want.0,
            want.1
        );
        if got != want {
            failures.push(format!(
                "over {}: the API shows PV {} W and SOC {} % for {}, the inverter's registers \
                 hold {} W and {} %",
                gw.transport.name(),
                got.0,
                got.1,
                gw.inverter,
                want.0,
                want.1
            ));
        }
    }
    for a in agents {
        a.stop().await;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    Ok(())
}

/// Where command `id` ended (`succeeded`, `failed`, `timed_out`), with its message and result.
async fn command_end(rig: &Rig, id: i64, what: &str) -> Result<Value, common::Error> {
    wait_for(Duration::from_secs(30), what, || async move {
        let c = rig.get(&format!("/api/v1/command/{id}")).await?;
        let status = c["status"].as_str().unwrap_or_default();
        Ok((!matches!(status, "sent" | "acknowledged")).then_some(c))
    })
    .await
}

/// A setting written through the API: the command id.
async fn write_setting(rig: &Rig, sn: &str, key: &str, value: &str) -> Result<i64, common::Error> {
    let answer = rig
        .post(
            &format!("/api/v1/common/setting/{sn}/set"),
            &serde_json::json!({ key: value }),
        )
        .await?;
    answer["commandId"]
        .as_i64()
        .ok_or_else(|| format!("writing {key}={value} sent no command: {answer}").into())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_setting_lands_in_the_register_and_a_refusal_ends_failed_with_its_reason() -> TestResult {
    let (rig, gateways) = Rig::start("path-settings", &[("AGWSET0001", Transport::Tcp)]).await?;
    let gw = &gateways[0];
    let agent = rig.start_agent(gw)?;
    let sn = gw.inverter.as_str();
    wait_for(
        Duration::from_secs(30),
        "the inverter's first reading never reached the API",
        || api_pv_and_soc(&rig, sn),
    )
    .await?;
    let held = |param: &str| {
        let site = rig.emulation.site.lock();
        site.device(rig.unit)
            .and_then(|d| d.settings().get(param).cloned())
    };
    // A time-of-use slot's SOC (0..=100 in the map and the form): a value the device lacks.
    let before = held("cap1").ok_or("the emulated inverter holds no cap1")?;
    let want = if before == "37" { "42" } else { "37" };
    let id = write_setting(&rig, sn, "cap1", want).await?;
    let c = command_end(&rig, id, "the setting's command never ended").await?;
    println!("cap1 {before} -> {want}: {c}");
    assert_eq!(
        c["status"], "succeeded",
        "writing cap1={want} did not end succeeded: {c}"
    );
    assert_eq!(
        held("cap1").as_deref(),
        Some(want),
        "the command says succeeded but the inverter's register holds another cap1 (was \
         {before}): {c}"
    );
    // The reply carries what the agent read back from the device after the write.
    let read_back = c["result"]["cap1"].clone();
    assert!(
        read_back == want || read_back.as_f64() == want.parse::<f64>().ok(),
        "the command succeeded without the value read back from the device: {c}"
    );

    // The device reads as usual but refuses the write (Modbus exception 3, illegal data
    // value): failed, with the reason.
    rig.emulation
        .set_fault(&format!("tcp:{}=refuse-writes:3", rig.unit))?;
    let refused = if want == "37" { "55" } else { "56" };
    let id = write_setting(&rig, sn, "cap1", refused).await?;
    let c = command_end(&rig, id, "the refused setting's command never ended").await?;
    rig.emulation.set_fault("clear")?;
    println!("cap1 -> {refused} refused: {c}");
    let message = c["message"].as_str().unwrap_or_default().to_lowercase();
    assert_eq!(
        c["status"], "failed",
        "a value the inverter refused did not end failed: {c}"
    );
    assert!(
        message.contains("illegal data value") || message.contains("exception 3"),
        "the failed command does not say the inverter refused the value (exception 3): {c}"
    );
    assert_eq!(
        held("cap1").as_deref(),
        Some(want),
        "a refused write changed the inverter's cap1"
    );
    agent.stop().await;
    Ok(())
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// Readings of `sn` stored more than once for one timestamp, and gaps between consecutive
/// readings longer than `max_gap_ms` (a reading the agent took that never arrived), within
/// `from..=to`.
fn history_faults(times: &[i64], from: i64, to: i64, max_gap_ms: i64) -> Vec<String> {
    let mut found = Vec::new();
    let mut per_ts = std::collections::BTreeMap::<i64, usize>::new();
    for t in times {
        *per_ts.entry(*t).or_default() += 1;
    }
    for (t, n) in per_ts.iter().filter(|(_, n)| **n > 1) {
        found.push(format!("the reading of {t} is in the history {n} times"));
    }
    let window: Vec<i64> = per_ts
        .keys()
        .copied()
        .filter(|t| (from..=to).contains(t))
        .collect();
    for w in window.windows(2) {
        if w[1] - w[0] > max_gap_ms {
            found.push(format!(
                "no reading between {} and {} ({} s): readings the agent took are missing",
                w[0],
                w[1],
                (w[1] - w[0]) / 1000
            ));
        }
    }
    found
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_a_minute_without_the_portal_loses_no_reading_and_stores_none_twice() -> TestResult {
    let (mut rig, gateways) = Rig::start("path-outage", &[("AGWOUT0001", Transport::Tcp)]).await?;
    let gw = &gateways[0];
    let agent = rig.start_agent(gw)?;
    let sn = gw.inverter.clone();
    wait_for(
        Duration::from_secs(30),
        "the inverter's first reading never reached the API",
        || api_pv_and_soc(&rig, &sn),
    )
    .await?;
    // Two readings in before the portal goes.
    tokio::time::sleep(CYCLE * 2).await;
    let down = now_ms();
    rig.stop_portal()?;
    // Long enough for the agent's reconnect back-off (1 s doubling) to reach 16 s.
    tokio::time::sleep(Duration::from_secs(30)).await;
    rig.start_portal().await?;
    let up = now_ms();
    // The backlog (about 15 readings) replays; then live readings follow.
    let times = wait_for(
        Duration::from_secs(60),
        "after the portal came back, the readings of its time away did not all arrive",
        || async {
            let times = rig.sample_times(&sn).await?;
            let late = times
                .iter()
                .filter(|t| **t > up + 2 * CYCLE.as_millis() as i64)
                .count();
            let complete = history_faults(&times, down - 4000, up, 3500).is_empty();
            Ok((late >= 2 && complete).then_some(times))
        },
    )
    .await;
    agent.stop().await;
    let times = match times {
        Ok(t) => t,
        Err(e) => {
            let times = rig.sample_times(&sn).await?;
            let faults = history_faults(&times, down - 4000, up, 3500);
            return Err(format!("{e}:\n{}", faults.join("\n")).into());
        }
    };
    let during = times.iter().filter(|t| (down..up).contains(*t)).count();
    println!(
        "portal away {} s: {during} readings taken meanwhile arrived, {} in all",
        (up - down) / 1000,
        times.len()
    );
    let faults = history_faults(&times, times[0], *times.last().unwrap_or(&0), 3500);
    assert!(faults.is_empty(), "{}", faults.join("\n"));
    assert!(
        during >= 12,
        "only {during} readings from the portal's 30 s away are in the history (the agent \
         polls every 2 s)"
    );
    Ok(())
}

/// `portal agent --config FILE` as a child process (the same code as the `portal-agent`
/// binary), its output prefixed.
fn spawn_agent(config: &std::path::Path) -> Result<std::process::Child, common::Error> {
    use std::io::{BufRead, BufReader};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_portal"))
        .args(["agent", "--config"])
        .arg(config)
        .env("PORTAL_AGENT_LOG", "info")
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()?;
    let streams: Vec<Box<dyn std::io::Read + Send>> = vec![
        Box::new(child.stdout.take().ok_or("no stdout")?),
        Box::new(child.stderr.take().ok_or("no stderr")?),
    ];
    for s in streams {
        std::thread::spawn(move || {
            for line in BufReader::new(s).lines().map_while(Result::ok) {
                println!("[agent] {line}");
            }
        });
    }
    Ok(child)
}

/// Bytes in the agent's reading buffer (its log files).
fn buffered_bytes(state_dir: &std::path::Path) -> u64 {
    std::fs::read_dir(state_dir.join("buffer"))
        .map(|d| {
            d.filter_map(Result::ok)
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agent_killed_with_readings_buffered_loses_none() -> TestResult {
    let (mut rig, gateways) = Rig::start("path-kill", &[("AGWKIL0001", Transport::Tcp)]).await?;
    let gw = &gateways[0];
    let state_dir = rig.dir.join("agent-state");
    // The agent's shortest upload cycle is 10 s (the config's floor).
    let cycle_ms = 10_000;
    let config = rig.dir.join("agent.toml");
    std::fs::write(&config, rig.agent_config(gw, &state_dir, 10)?)?;
    let mut child = spawn_agent(&config)?;
    let sn = gw.inverter.clone();
    wait_for(
        Duration::from_secs(30),
        "the agent's first reading never reached the API",
        || api_pv_and_soc(&rig, &sn),
    )
    .await?;
    let down = now_ms();
    rig.stop_portal()?;
    // Three readings taken while the portal is away (at about 10, 20 and 30 s).
    tokio::time::sleep(Duration::from_secs(32)).await;
    let held = buffered_bytes(&state_dir);
    child.kill()?;
    child.wait()?;
    let killed = now_ms();
    assert!(
        held > 0,
        "the agent kept nothing on disk while the portal was away"
    );
    let mut child = spawn_agent(&config)?;
    tokio::time::sleep(Duration::from_secs(3)).await;
    rig.start_portal().await?;
    let up = now_ms();
    let result = wait_for(
        Duration::from_secs(60),
        "after the agent's kill -9 and the portal's return, the readings it held never all arrived",
        || async {
            let times = rig.sample_times(&sn).await?;
            let during = times.iter().filter(|t| (down..killed).contains(*t)).count();
            let live = times.iter().any(|t| *t > up);
            Ok((during >= 3 && live).then_some(times))
        },
    )
    .await;
    let _ = child.kill();
    let _ = child.wait();
    let times = match result {
        Ok(t) => t,
        Err(e) => {
            let times = rig.sample_times(&sn).await?;
            let during = times.iter().filter(|t| (down..killed).contains(*t)).count();
            return Err(
                format!("{e}: {during} of 3 readings taken before the kill arrived").into(),
            );
        }
    };
    println!(
        "{} readings in all; {} taken while the portal was away, before the kill; buffer held \
         {held} bytes",
        times.len(),
        times.iter().filter(|t| (down..killed).contains(*t)).count()
    );
    // Readings 10 s apart, one of them taken at the restart: no gap much over a cycle.
    let faults = history_faults(
        &times,
        times[0],
        *times.last().unwrap_or(&0),
        cycle_ms + 3000,
    );
    assert!(faults.is_empty(), "{}", faults.join("\n"));
    Ok(())
}

/// Whether the API shows the inverter's values as past its offline bound (`stale`).
async fn inverter_offline(rig: &Rig, sn: &str) -> Result<bool, common::Error> {
    let input = rig
        .get(&format!("/api/v1/inverter/{sn}/realtime/input"))
        .await?;
    input["stale"]
        .as_bool()
        .ok_or_else(|| format!("realtime input has no `stale`: {input}").into())
}

async fn gateway_online(rig: &Rig, sn: &str) -> Result<bool, common::Error> {
    let g = rig.get(&format!("/api/v1/gateway/{sn}")).await?;
    g["online"]
        .as_bool()
        .ok_or_else(|| format!("the gateway's detail has no `online`: {g}").into())
}

/// The portal's offline bound for the agents here: 2.5 upload cycles of the cycle the agent
/// reports (10 s, the shortest the portal sets), docs/agent.md.
const OFFLINE_BOUND: Duration = Duration::from_secs(25);

/// Injects each fault in turn into `gw`'s transport for its inverter's unit; answers what went
/// wrong, as a user would see it.
async fn fault_lane(rig: &Rig, gw: &agent_rig::Gateway, faults: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for fault in faults {
        if let Err(e) = one_fault(rig, gw, fault).await {
            found.push(format!("{} `{fault}`: {e}", gw.transport.name()));
        }
        let _ = rig
            .emulation
            .set_fault(&format!("{}:{}=none", gw.transport.name(), rig.unit));
    }
    found
}

async fn one_fault(rig: &Rig, gw: &agent_rig::Gateway, fault: &str) -> Result<(), common::Error> {
    let sn = gw.inverter.as_str();
    let target = format!("{}:{}", gw.transport.name(), rig.unit);
    wait_for(
        Duration::from_secs(20),
        "the inverter was not online before the fault",
        || async { Ok((!inverter_offline(rig, sn).await?).then_some(())) },
    )
    .await?;
    rig.emulation.set_fault(&format!("{target}={fault}"))?;
    let on = now_ms();
    let started = std::time::Instant::now();
    wait_for(
        OFFLINE_BOUND + Duration::from_secs(5),
        "the inverter that stopped answering still shows online past the documented bound",
        || async { Ok(inverter_offline(rig, sn).await?.then_some(())) },
    )
    .await?;
    let offline_after = started.elapsed();
    if !gateway_online(rig, &gw.sn).await? {
        return Err(
            "the gateway shows offline although only its inverter stopped answering".into(),
        );
    }
    // Nothing was stored for the inverter while it did not answer (a poll may have been under
    // way as the fault came): no zeros, no made-up values.
    let during: Vec<i64> = rig
        .sample_times(sn)
        .await?
        .into_iter()
        .filter(|t| *t > on + CYCLE.as_millis() as i64 + 1000)
        .collect();
    if !during.is_empty() {
        return Err(format!(
            "{} readings were stored for the inverter while it did not answer (e.g. at {})",
            during.len(),
            during[0]
        )
        .into());
    }
    rig.emulation.set_fault(&format!("{target}=none"))?;
    let off = now_ms();
    let recovered = std::time::Instant::now();
    wait_for(
        Duration::from_secs(20),
        "the inverter stayed offline after the fault was cleared",
        || async {
            let fresh = rig.sample_times(sn).await?.iter().any(|t| *t > off);
            Ok((fresh && !inverter_offline(rig, sn).await?).then_some(()))
        },
    )
    .await?;
    println!(
        "{target} {fault}: offline after {:.1} s, gateway online; back {:.1} s after clearing",
        offline_after.as_secs_f64(),
        recovered.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The meter's open "communication lost" events (M01), as the device's event list shows them.
async fn open_comm_lost(rig: &Rig, sn: &str) -> Result<usize, common::Error> {
    let events = rig.get(&format!("/api/v1/event/{sn}/realtime")).await?;
    Ok(events
        .as_array()
        .map_or(0, |a| a.iter().filter(|e| e["code"] == "M01").count()))
}

/// The meter stops answering: its communication event opens, then closes once it answers.
async fn meter_event(rig: &Rig, gw: &agent_rig::Gateway) -> Result<(), common::Error> {
    let (unit, _) = rig.meter.clone().ok_or("the demo plant has no meter")?;
    let sn = gw.meter();
    let target = format!("{}:{unit}", gw.transport.name());
    wait_for(
        Duration::from_secs(20),
        "the meter's communication event was open before its fault",
        || async { Ok((open_comm_lost(rig, &sn).await? == 0).then_some(())) },
    )
    .await?;
    rig.emulation.set_fault(&format!("{target}=no-reply"))?;
    let started = std::time::Instant::now();
    let opened = wait_for(
        Duration::from_secs(15),
        "the meter stopped answering but no \"communication lost\" event (M01) opened",
        || async { Ok((open_comm_lost(rig, &sn).await? > 0).then_some(())) },
    )
    .await;
    let open_after = started.elapsed();
    rig.emulation.set_fault(&format!("{target}=none"))?;
    opened?;
    wait_for(
        Duration::from_secs(15),
        "the meter answers again but its communication event stays open",
        || async { Ok((open_comm_lost(rig, &sn).await? == 0).then_some(())) },
    )
    .await?;
    println!(
        "{target} no-reply (meter): M01 open after {:.1} s, closed after the fault cleared",
        open_after.as_secs_f64()
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_injected_fault_shows_the_inverter_offline_and_recovers() -> TestResult {
    let (rig, gateways) = Rig::start(
        "path-faults",
        &[
            ("AGWFTC0001", Transport::Tcp),
            ("AGWFV50001", Transport::V5),
            ("AGWFRT0001", Transport::Rtu),
        ],
    )
    .await?;
    let agents = gateways
        .iter()
        .map(|g| rig.start_agent(g))
        .collect::<Result<Vec<_>, _>>()?;
    for gw in &gateways {
        let what = format!(
            "{}: the inverter's first reading never reached the API",
            gw.sn
        );
        wait_for(Duration::from_secs(30), &what, || {
            api_pv_and_soc(&rig, &gw.inverter)
        })
        .await?;
    }
    // One lane per transport, side by side; the agents' timeout is 500 ms. The V5 lane then
    // silences the meter behind the stick: its "communication lost" event.
    let v5_lane = async {
        let mut found = fault_lane(&rig, &gateways[1], &["wrong-serial", "garbage"]).await;
        if let Err(e) = meter_event(&rig, &gateways[1]).await {
            found.push(format!("v5 meter `no-reply`: {e}"));
        }
        found
    };
    let (tcp, v5, rtu) = tokio::join!(
        fault_lane(&rig, &gateways[0], &["delay:1500", "exception:4", "drop"]),
        v5_lane,
        fault_lane(&rig, &gateways[2], &["no-reply", "bad-crc"]),
    );
    for a in agents {
        a.stop().await;
    }
    let found: Vec<String> = tcp.into_iter().chain(v5).chain(rtu).collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
    Ok(())
}
