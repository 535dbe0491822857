//! What the end-to-end tests of the binary share: a small HTTP client (`http`), `portal serve`
//! children (`portal`), a Mosquitto of their own (`mosquitto`), a fresh PostgreSQL schema
//! (`postgres`) and simulated gateways (`fleet`). Each test binary uses part of it.
#![allow(dead_code, reason = "each test binary uses part of the helpers")]

pub mod fleet;
pub mod http;
pub mod mosquitto;
pub mod portal;
pub mod postgres;
pub mod uploads;

pub type Error = Box<dyn std::error::Error + Send + Sync>;
pub type TestResult = Result<(), Error>;

/// A test that cannot run here (no PostgreSQL, no Mosquitto) is skipped with the reason, except
/// under `CI=true`, where what it needs must be present and its absence fails it.
pub fn skip(reason: &str) -> TestResult {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        return Err(format!("CI=true and {reason}").into());
    }
    println!("skipped: {reason}");
    Ok(())
}

/// Unique enough for names shared with other runs (schemas, client ids): process and clock.
pub fn tag() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("{}_{}", std::process::id(), nanos % 1_000_000_000)
}

/// A fresh directory under the system temp dir.
pub fn temp_dir(name: &str) -> std::io::Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("portal-{name}-{}", tag()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

pub fn free_port() -> std::io::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}
