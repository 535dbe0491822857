//! Request body limits, in one place: small by default on every route (anonymous ones
//! included), the spec's file sizes only on the routes that take uploads. A body past its
//! route's limit is refused while it streams in, before anything is buffered or parsed.

use axum::extract::DefaultBodyLimit;

/// Every JSON or form body (the largest real ones, a batch of 200 serial numbers or a settings
/// write, are a few kilobytes).
pub const DEFAULT_BODY: usize = 64 * 1024;

/// Room around an uploaded file for the multipart framing and the form's other fields.
pub const MULTIPART_OVERHEAD: usize = 64 * 1024;

/// A protocol config (register maps of real inverters are tens of kilobytes).
pub const PROTOCOL_CONFIG: usize = 1024 * 1024;

/// For a route taking one file of at most `max_file` bytes: the file's own check
/// (`files::first_file`) answers a slightly larger file with code 12, this stops anything
/// far larger early.
pub fn upload(max_file: usize) -> DefaultBodyLimit {
    DefaultBodyLimit::max(max_file + MULTIPART_OVERHEAD)
}

/// For a route taking a JSON body larger than [`DEFAULT_BODY`].
pub fn json(max: usize) -> DefaultBodyLimit {
    DefaultBodyLimit::max(max)
}
