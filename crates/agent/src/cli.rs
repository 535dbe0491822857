//! The command line of `portal-agent` and `portal agent` (the same entry): run, or `--check`.

use std::{path::PathBuf, process::ExitCode};

use devices::decode;
use tokio::sync::watch;

use crate::{
    config::Config,
    poller::Site,
    run::{Exit, RunOptions, run},
};

const USAGE: &str = "usage: portal-agent --config FILE [--check]

  --config FILE  the agent's configuration (see deploy/agent/agent.example.toml)
  --check        read each device once, print what it found and exit
                 (non-zero when a device did not answer)
  --version      print the version";

/// Parses `args` (without the program name) and runs. Async, so that `portal agent` can call
/// it from its own runtime.
pub async fn main(args: Vec<String>) -> ExitCode {
    let mut config = None;
    let mut check = false;
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--config" | "-c" => config = it.next().map(PathBuf::from),
            s if s.starts_with("--config=") => config = Some(PathBuf::from(&s[9..])),
            "--check" => check = true,
            "--version" | "-V" => {
                println!("portal-agent {}", env!("CARGO_PKG_VERSION"));
                return ExitCode::SUCCESS;
            }
            "--help" | "-h" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("unknown argument `{other}`\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let Some(path) = config else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("PORTAL_AGENT_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .try_init();
    let config = match Config::load(&path) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("the configuration has problems:\n{e}");
            return ExitCode::from(2);
        }
    };
    if check {
        return if run_check(&config).await {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    let (stop_tx, stop) = watch::channel(false);
    tokio::spawn(async move {
        wait_for_signal().await;
        let _ = stop_tx.send(true);
    });
    match run(config, RunOptions::default(), stop).await {
        Ok(Exit::Stopped) => ExitCode::SUCCESS,
        // Non-zero, so that systemd restarts the agent whatever its Restart= policy.
        Ok(Exit::Restart) => ExitCode::from(75),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let (Ok(mut term), Ok(mut int)) = (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        ) {
            tokio::select! {
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

/// Reads every device once and prints what it found; true when every device answered.
pub async fn run_check(config: &Config) -> bool {
    let site = Site::new(config);
    let mut all = true;
    for (device, read) in site.poll().await {
        let d = &device.config;
        println!(
            "== {} ({}, unit {} on bus `{}`, protocol `{}`)",
            d.sn, d.model, d.unit, d.bus, d.protocol.code
        );
        for (req, e) in &read.failures {
            println!(
                "   block {} {}+{}: {e}",
                req.kind.name(),
                req.start,
                req.count
            );
        }
        if !read.answered() {
            println!("   NO ANSWER: the device did not answer any read");
            all = false;
            continue;
        }
        let decoded = decode(&d.protocol, &read.blocks);
        for (key, value) in &decoded.values {
            let unit = d.protocol.point(key).map_or("", |p| p.unit.as_str());
            let shown = match value {
                devices::Value::Number(n) => format!("{n}"),
                devices::Value::Bool(b) => b.to_string(),
                devices::Value::Text(t) => format!("{t:?}"),
            };
            println!("   {key} = {shown} {unit}");
        }
        if !decoded.missing.is_empty() {
            println!(
                "   missing (blocks not read): {}",
                decoded.missing.join(", ")
            );
        }
        if !decoded.invalid.is_empty() {
            println!("   invalid: {}", decoded.invalid.join(", "));
        }
        println!(
            "   {} of {} blocks read",
            read.blocks.len(),
            device.plan.len()
        );
    }
    all
}
