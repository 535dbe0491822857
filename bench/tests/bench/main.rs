//! The `bench` crate's integration tests, one binary: a module per operation, the shared
//! fixtures beside them.

mod agent_smoke;
mod connections_smoke;
mod large_installer;
mod smoke;
