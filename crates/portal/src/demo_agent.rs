//! The demo's real path: one plant whose devices are emulated behind a Solarman V5 data-logger
//! stick on loopback and read by the gateway agent, which reports to the embedded broker as a
//! gateway in the field would. A newcomer sees a plant that arrives through Modbus registers,
//! the stick's frames and the agent's buffer, beside the simulator's plants that speak MQTT
//! directly (docs/agent.md, "Trying it without hardware").

use std::{net::SocketAddr, path::Path, time::Duration};

use anyhow::{Context, anyhow};
use sim::{
    emulate::{EmulateOptions, Emulation},
    fleet::{DeviceSpec, GatewaySpec},
};
use tokio::sync::watch;

/// The stick's logger serial (any number: the agent and the emulated stick share it).
const LOGGER_SERIAL: u32 = 2_712_345_678;
/// How often the agent reads its devices in the demo (the simulator's gateways: 5 s).
const DEMO_CYCLE: Duration = Duration::from_secs(5);

/// The demo's agent plant: a single-phase LV hybrid with its meter and battery in Lisbon.
pub fn spec(seed: u64) -> GatewaySpec {
    let mut spec = sim::fleet::demo_fleet(1, seed).remove(0);
    spec.sn = "AGTGW0000001".into();
    spec.plant_name = "Lisbon villa (agent)".into();
    spec.plant.lat = 38.72;
    spec.plant.lon = -9.14;
    spec.plant.tz = chrono_tz::Europe::Lisbon;
    spec.plant.seed ^= 0xA6E7;
    for device in &mut spec.devices {
        rename(device);
    }
    spec
}

/// `SIMINV000001` becomes `AGTINV000001`, parents too, so the SNs never meet the simulator's.
fn rename(device: &mut DeviceSpec) {
    device.sn = agent_sn(&device.sn);
    device.parent = device.parent.as_deref().map(agent_sn);
}

fn agent_sn(sn: &str) -> String {
    sn.replacen("SIM", "AGT", 1)
}

/// Starts the emulated stick and the agent reading it; both stop when `stop` turns true.
pub async fn start(
    spec: GatewaySpec,
    broker: SocketAddr,
    data_dir: &Path,
    stop: watch::Receiver<bool>,
) -> anyhow::Result<()> {
    let configs = devices::protocol::shipped().map_err(|e| anyhow!("shipped configs: {e}"))?;
    let emulation = Emulation::start(EmulateOptions {
        site: spec.clone(),
        configs,
        step: Some(Duration::from_secs(1)),
        tcp: None,
        v5: Some((SocketAddr::from(([127, 0, 0, 1], 0)), LOGGER_SERIAL)),
        rtu: None,
    })
    .await
    .map_err(|e| anyhow!("demo stick: {e}"))?;
    let stick = emulation.v5.as_ref().context("demo stick")?.addr;
    let units: Vec<(u8, String, String)> = emulation
        .site
        .lock()
        .devices()
        .iter()
        .map(|d| (d.unit, d.sn.clone(), d.config().code.clone()))
        .collect();
    let state_dir = data_dir.join("demo-agent");
    let toml = agent_toml(&spec, broker, stick, &state_dir, &units);
    let config = agent::Config::parse(&toml, data_dir).map_err(|e| anyhow!("demo agent: {e}"))?;
    let opts = agent::RunOptions {
        cycle: Some(DEMO_CYCLE),
        ..agent::RunOptions::default()
    };
    tokio::spawn(async move {
        // The emulation lives as long as the agent: dropping it stops the stick.
        let _stick = emulation;
        match agent::run(config, opts, stop).await {
            Ok(exit) => tracing::info!(?exit, "demo agent stopped"),
            Err(e) => tracing::warn!(%e, "demo agent stopped"),
        }
    });
    Ok(())
}

/// The configuration an installer would write for this site (docs/agent.md).
fn agent_toml(
    spec: &GatewaySpec,
    broker: SocketAddr,
    stick: SocketAddr,
    state_dir: &Path,
    units: &[(u8, String, String)],
) -> String {
    let mut out = format!(
        "mqtt = \"{broker}\"\nsn = \"{}\"\nkey = \"{}\"\nstate_dir = \"{}\"\nupload_cycle = 10\n\n\
         [[bus]]\nname = \"stick\"\nkind = \"solarman\"\naddress = \"{stick}\"\n\
         logger_serial = {LOGGER_SERIAL}\n",
        spec.sn,
        spec.key,
        state_dir.display(),
    );
    for (unit, sn, protocol) in units {
        out.push_str(&format!(
            "\n[[device]]\nbus = \"stick\"\nunit = {unit}\nsn = \"{sn}\"\nprotocol = \"{protocol}\"\n"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_agent_plant_is_its_own_and_its_config_checks() {
        let spec = spec(2024);
        let sim = sim::fleet::demo_fleet(1, 2024).remove(0);
        assert_ne!(spec.sn, sim.sn);
        for (a, s) in spec.devices.iter().zip(&sim.devices) {
            assert_ne!(a.sn, s.sn, "an SN shared with the simulator's plant");
        }
        let units: Vec<(u8, String, String)> = spec
            .devices
            .iter()
            .enumerate()
            .map(|(i, d)| (i as u8 + 1, d.sn.clone(), d.protocol.to_string()))
            .collect();
        let toml = agent_toml(
            &spec,
            "127.0.0.1:1883".parse().expect("addr"),
            "127.0.0.1:8899".parse().expect("addr"),
            Path::new("/tmp/demo-agent"),
            &units,
        );
        let config = agent::Config::parse(&toml, Path::new("/tmp")).expect("the demo's config");
        assert_eq!(config.devices.len(), spec.devices.len());
    }
}
