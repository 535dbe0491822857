//! `portal sim`: a fleet of simulated gateways reporting to a broker (the embedded one of
//! `portal serve`, or any other). With `--register`, the gateways are first entered in the
//! registry of the configured database so that a broker checking SN and key accepts them.

use std::{sync::Arc, time::Duration};

use anyhow::Context;
use clap::Args;
use sim::{
    fleet::{SimGateway, demo_fleet},
    gateway::{Broker, RunOptions, run},
};

use crate::{config::Config, serve::open_store};

#[derive(Args)]
pub struct SimArgs {
    /// Broker address, host:port.
    #[arg(long, default_value = "127.0.0.1:1883")]
    pub broker: String,
    /// How many gateways (each one plant with its devices).
    #[arg(long, default_value_t = 7)]
    pub gateways: usize,
    /// Seconds between reports.
    #[arg(long, default_value_t = 5)]
    pub interval: u64,
    /// Seed for SNs, keys and weather.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Enter the gateways in the registry of the configured database first.
    #[arg(long)]
    pub register: bool,
}

pub async fn run_sim(config: &Config, args: SimArgs) -> anyhow::Result<()> {
    let (host, port) = args
        .broker
        .rsplit_once(':')
        .context("--broker must be host:port")?;
    let port: u16 = port.parse().context("--broker port")?;
    let mut fleet = demo_fleet(args.gateways, args.seed);
    if args.register {
        // Registered with random keys (as the demo does), then each gateway is given the key
        // the registry holds for it, whoever registered it first.
        let store = open_store(config).await?;
        for gw in &mut fleet {
            let key = crate::demo::random_key();
            store
                .register_gateway(
                    &gw.sn,
                    &key,
                    gw.devices[0].protocol,
                    "",
                    "",
                    domain::time::now_ms(),
                )
                .await
                .context("registering simulated gateways")?;
            if let Some(g) = store.gateway_by_sn(&gw.sn).await? {
                gw.key = g.reg_key;
            }
        }
        store.close().await;
    }
    let configs = Arc::new(
        devices::protocol::shipped().map_err(|e| anyhow::anyhow!("shipped configs: {e}"))?,
    );
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let opts = RunOptions {
        broker: Broker {
            host: host.to_string(),
            port,
        },
        interval: Duration::from_secs(args.interval.max(1)),
        upload_cycle_secs: args.interval.max(1) as i64,
        reboot: sim::gateway::DEFAULT_REBOOT,
    };
    let mut tasks = Vec::new();
    for gw in fleet {
        println!("gateway {} key {} ({})", gw.sn, gw.key, gw.plant_name);
        tasks.push(tokio::spawn(run(
            SimGateway::new(gw),
            configs.clone(),
            opts.clone(),
            stop_rx.clone(),
        )));
    }
    println!(
        "{} simulated gateways reporting to {}; Ctrl-C stops them",
        tasks.len(),
        args.broker
    );
    tokio::signal::ctrl_c()
        .await
        .context("waiting for Ctrl-C")?;
    let _ = stop_tx.send(true);
    for task in tasks {
        let _ = task.await;
    }
    Ok(())
}
