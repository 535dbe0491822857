//! The `portal` crate's integration tests, one binary: a module per operation, the shared
//! fixtures beside them.

mod admin_cli;
mod agent_path;
mod agent_rig;
mod backup;
mod common;
mod crash;
mod docs;
mod http_limits;
mod metrics_addr;
mod replicas;
mod sim_energy;
mod typed_answers;
