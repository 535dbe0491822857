//! The `devices` crate's integration tests, one binary: a module per operation, the shared
//! fixtures beside them.

mod config_validation;
mod decode_types;
mod fuzz;
mod history;
mod ingest;
mod ingest_calm;
mod ingest_combiner;
mod ingest_common;
mod ingest_concurrent;
mod ingest_intervals;
mod ingest_ranges;
mod ingest_replicas;
mod ingest_skips;
mod ingest_throughput;
mod inverter_maps;
mod link;
mod link_admission;
mod link_common;
mod link_external;
mod link_heard;
mod link_signed_in;
mod link_signin;
mod link_takeover;
mod modbus_frames;
mod shipped_configs;
mod shipped_upgrade;
mod status;
