//! The `store` crate's integration tests, one binary: a module per operation, the shared
//! fixtures beside them.

mod alarm_cases;
mod battery_health;
mod commands;
mod companies;
mod consent;
mod contract;
mod customers;
mod devices;
mod energy_hub;
mod files;
mod fleet;
mod gateways;
mod leases;
mod messages;
mod offers;
mod plants;
mod reported_devices;
mod reports;
mod sample_partitions;
mod sample_reads;
mod sessions;
mod setting_keys;
mod telemetry;
mod upgrades;
mod vtn_claims;
mod webhooks;
