//! The gateway agent: runs next to the inverters (a Raspberry Pi, a router, an x86 box), reads
//! them over Modbus RTU, Modbus TCP or a Solarman V5 stick as the portal's protocol configs say,
//! and is a gateway of docs/device-protocol.md: raw register blocks as telemetry (buffered on
//! disk until the portal acknowledges them), status, events, and the portal's commands carried
//! out on the devices. docs/agent.md is the installer's guide.

pub mod buffer;
pub mod cli;
pub mod commands;
pub mod config;
pub mod poller;
pub mod run;
pub mod state;
pub mod transport;
pub mod uplink;

pub use cli::main;
pub use config::Config;
pub use run::{Exit, RunOptions, run};
