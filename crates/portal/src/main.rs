//! `portal`: the solar and storage plant portal in one binary.

mod admin;
mod backup;
mod config;
mod demo;
mod demo_agent;
mod demo_catalogue;
mod demo_company;
mod demo_energy_hub;
mod demo_manuals;
mod demo_predicted;
mod demo_products;
mod emulate;
mod files;
mod http;
mod serve;
mod sim;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// Reads build many small strings per request; glibc's malloc spent a quarter of the CPU of a
/// day-curve read on them (docs/decisions.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "portal",
    version,
    about = "Portal for solar and energy-storage plants"
)]
struct Cli {
    /// A TOML configuration file; PORTAL_* environment variables override it.
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the HTTP API, the web app and the device link.
    Serve {
        /// Add a demo owner with simulated plants reporting live (and a year of history).
        #[arg(long)]
        demo: bool,
    },
    /// Apply database migrations and exit.
    Migrate,
    /// Run simulated gateways against an MQTT broker.
    Sim(sim::SimArgs),
    /// Emulate one plant's devices over Modbus TCP, a Solarman V5 stick and Modbus RTU.
    Emulate(emulate::EmulateArgs),
    /// Manage accounts from the command line.
    Admin {
        #[command(subcommand)]
        action: admin::Action,
    },
    /// Run the gateway agent (as `portal-agent`; see `portal agent --help`, docs/agent.md).
    Agent {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    // The agent has its own `--config` (its TOML file) and no portal configuration.
    if std::env::args().nth(1).as_deref() == Some("agent") {
        return agent::main(std::env::args().skip(2).collect()).await;
    }
    let cli = Cli::parse();
    let result = async {
        let config = config::Config::load(cli.config.as_deref())?;
        serve::init_tracing(&config.log);
        match cli.command {
            Command::Serve { demo } => serve::run(config, demo).await,
            Command::Migrate => serve::open_store(&config).await.map(|_| ()),
            Command::Admin { action } => admin::run(&config, action).await,
            Command::Sim(args) => sim::run_sim(&config, args).await,
            Command::Emulate(args) => emulate::run(args).await,
            Command::Agent { args } => match agent::main(args).await {
                code if code == std::process::ExitCode::SUCCESS => Ok(()),
                _ => Err(anyhow::anyhow!("the agent stopped with an error")),
            },
        }
    }
    .await;
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
