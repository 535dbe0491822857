//! The `oadr` crate's integration tests, one binary: a module per operation, the shared
//! fixtures beside them.

mod client;
mod normalise;
mod report;
mod status_timeline;
