//! The fleet simulator: plants whose inverters, meters, batteries and weather stations behave
//! like real ones (sun position, clouds, household load, a battery that keeps the energy
//! balance) and report through gateways in the device protocol of docs/device-protocol.md.
//!
//! The physical model is deterministic for a given seed and time, so the demo can backfill a
//! year of history and tests can compare stored energy with the model's own totals.

pub mod battery;
pub mod commands;
pub mod connection;
pub mod control;
pub mod emulate;
pub mod fleet;
pub mod gateway;
pub mod noise;
pub mod plant;
pub mod readings;
pub mod resume;
pub mod scenarios;
pub mod sun;

pub use plant::{PlantModel, PlantSpec, Snapshot};
