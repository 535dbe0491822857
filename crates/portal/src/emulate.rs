//! `portal emulate`: one simulated plant whose devices answer over Modbus TCP, a Solarman V5
//! stick and a Modbus RTU bus on a pseudo-terminal (docs/simulator.md, "Emulators"). Faults
//! come from `--fault` and, while it runs, from lines on standard input.

use std::{net::SocketAddr, path::PathBuf, time::Duration};

use anyhow::{Context, anyhow, bail};
use clap::Args;
use devices::protocol::ProtocolConfig;
use sim::emulate::{EmulateOptions, Emulation, RtuOptions, commercial_site};

#[derive(Args)]
pub struct EmulateArgs {
    /// Modbus TCP address ("off": none).
    #[arg(long, default_value = "127.0.0.1:5020")]
    pub tcp: String,
    /// Solarman V5 stick address ("off": none).
    #[arg(long, default_value = "127.0.0.1:8899")]
    pub v5: String,
    /// The stick's logger serial (the number printed on it).
    #[arg(long, default_value_t = 2_612_749_371)]
    pub logger_serial: u32,
    /// Also emulate an RS485 bus (Modbus RTU) on a pseudo-terminal.
    #[arg(long)]
    pub rtu: bool,
    /// A symlink to the bus's pty (e.g. /tmp/ttyRS485), replaced if it is a symlink already.
    #[arg(long)]
    pub rtu_link: Option<PathBuf>,
    /// The bus's baud rate: requests and replies take their time on the wire at this rate.
    #[arg(long, default_value_t = 9600)]
    pub baud: u32,
    /// Which plant of the demo fleet (0-6: type 2 hybrid, 93, 94, 21, 22, 1, 3).
    #[arg(long, default_value_t = 0)]
    pub plant: usize,
    /// Emulate the commercial roof with this many inverters instead (1-240).
    #[arg(long, conflicts_with = "plant")]
    pub inverters: Option<usize>,
    /// Seed of the plant's weather (as `portal sim --seed`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Milliseconds between model steps.
    #[arg(long, default_value_t = 1000)]
    pub step_ms: u64,
    /// Keep the model at its first step: the registers hold still.
    #[arg(long)]
    pub freeze: bool,
    /// A directory of protocol configs (*.json) replacing shipped ones of the same code.
    #[arg(long)]
    pub protocols: Option<PathBuf>,
    /// Inject a fault: SERVER[:UNIT]=FAULT, e.g. rtu:3=no-reply, tcp=delay:1500,
    /// v5=wrong-serial, tcp:1=exception:4, tcp:1=refuse-writes:3, v5=drop, rtu=bad-crc,
    /// tcp=garbage. Repeatable.
    #[arg(long)]
    pub fault: Vec<String>,
    /// Print one JSON line (servers and every device's registers and values) before serving.
    #[arg(long)]
    pub dump: bool,
}

fn address(text: &str, what: &str) -> anyhow::Result<Option<SocketAddr>> {
    if text == "off" {
        return Ok(None);
    }
    text.parse()
        .map(Some)
        .with_context(|| format!("--{what} must be host:port or off"))
}

fn configs(dir: Option<&PathBuf>) -> anyhow::Result<Vec<ProtocolConfig>> {
    let mut configs = devices::protocol::shipped().map_err(|e| anyhow!("shipped configs: {e}"))?;
    let Some(dir) = dir else {
        return Ok(configs);
    };
    for entry in std::fs::read_dir(dir).with_context(|| format!("{}", dir.display()))? {
        let path = entry?.path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&path)?;
        let config =
            ProtocolConfig::from_json(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
        configs.retain(|c| c.code != config.code);
        configs.push(config);
    }
    Ok(configs)
}

pub async fn run(args: EmulateArgs) -> anyhow::Result<()> {
    let site = match args.inverters {
        Some(n) => commercial_site(n, args.seed),
        None => {
            let fleet = sim::fleet::demo_fleet(7, args.seed);
            let Some(spec) = fleet.into_iter().nth(args.plant) else {
                bail!("--plant is 0-6");
            };
            spec
        }
    };
    let opts = EmulateOptions {
        site,
        configs: configs(args.protocols.as_ref())?,
        step: (!args.freeze).then(|| Duration::from_millis(args.step_ms.max(10))),
        tcp: address(&args.tcp, "tcp")?,
        v5: address(&args.v5, "v5")?.map(|a| (a, args.logger_serial)),
        rtu: args.rtu.then(|| RtuOptions {
            baud: args.baud,
            link: args.rtu_link.clone(),
        }),
    };
    let emulation = Emulation::start(opts).await.map_err(|e| anyhow!(e))?;
    for f in &args.fault {
        emulation
            .set_fault(f)
            .map_err(|e| anyhow!("--fault {f}: {e}"))?;
    }
    if args.dump {
        let servers = serde_json::json!({
            "tcp": emulation.tcp.as_ref().map(|s| s.addr.to_string()),
            "v5": emulation.v5.as_ref().map(|s| s.addr.to_string()),
            "logger_serial": emulation.serial,
            "rtu": emulation.rtu.as_ref().map(|b| b.path.display().to_string()),
            "baud": emulation.rtu.as_ref().map(|b| b.baud),
        });
        let mut dump = emulation.site.lock().dump();
        dump["servers"] = servers;
        println!("{dump}");
    } else {
        for line in emulation.describe() {
            println!("{line}");
        }
        println!("faults: type SERVER[:UNIT]=FAULT or `clear` and Enter; Ctrl-C stops");
    }
    // Standard input is read on a thread of its own (tokio's is not built in), a line at a
    // time; the channel is small, so a flood of input waits rather than piling up.
    let (tx, mut lines) = tokio::sync::mpsc::channel::<String>(8);
    std::thread::spawn(move || {
        for line in std::io::stdin().lines() {
            let Ok(line) = line else { break };
            if tx.blocking_send(line).is_err() {
                break;
            }
        }
    });
    // SIGTERM (systemd, `timeout`, `kill`) stops it like Ctrl-C, so the pty's symlink goes.
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    loop {
        tokio::select! {
            _ = tokio::signal::ctrl_c() => break,
            _ = term.recv() => break,
            line = lines.recv() => match line {
                Some(line) if line.trim() == "dump" => {
                    println!("{}", emulation.site.lock().dump());
                }
                Some(line) if !line.trim().is_empty() => match emulation.set_fault(&line) {
                    Ok(()) => eprintln!("ok: {}", line.trim()),
                    Err(e) => eprintln!("error: {e}"),
                },
                Some(_) => {}
                // Standard input closed (a service, a test): serve until stopped.
                None => {
                    tokio::select! {
                        _ = tokio::signal::ctrl_c() => {}
                        _ = term.recv() => {}
                    }
                    break;
                }
            },
        }
    }
    Ok(())
}
