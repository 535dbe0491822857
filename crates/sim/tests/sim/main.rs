//! The `sim` crate's integration tests, one binary: a module per operation, the shared
//! fixtures beside them.

mod emulate;
mod emulate_rtu;
mod emulate_support;
mod energy_balance;
mod mosquitto;
mod runtime;
