//! The real path end to end (docs/agent.md, "Tests of the real path"): the device emulators
//! (`sim::emulate`) serve one simulated plant over Modbus TCP, a Solarman V5 stick and an RTU
//! bus on a pty; gateway agents read them and report to `portal serve` (a child process on
//! SQLite, its embedded broker); the test reads what an API client sees and compares it with
//! the emulator's registers. Agents poll every 2 s.

mod agent_rig;
mod common;

use std::time::Duration;

use agent_rig::{Rig, Transport, wait_for};
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
