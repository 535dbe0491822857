//! The `agent` crate's integration tests, one binary: a module per operation, the shared
//! fixtures beside them.

mod buffer;
mod config;
mod link;
mod rtu_timing;
mod support;
mod transport;
