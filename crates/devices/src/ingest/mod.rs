//! The ingest pipeline (placeholder while the worker is written).
pub mod metrics;
pub mod status;
