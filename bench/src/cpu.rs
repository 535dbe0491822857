//! CPU time attributed to who spent it, from Linux's `/proc` accounting: this process's threads
//! by name (the portal's runtime, the simulated gateways' runtime, SQLite's connection
//! threads), and the PostgreSQL backend processes serving one application name.

/// The kernel counts in USER_HZ, 100 on every Linux this runs on.
const TICKS_PER_SEC: f64 = 100.0;

/// The name and CPU seconds (user + system) of a `/proc/.../stat` line.
fn stat_cpu(stat: &str) -> Option<(String, f64)> {
    // The command name may hold spaces and parentheses; the fields after it start after the
    // last ')'.
    let open = stat.find('(')?;
    let close = stat.rfind(')')?;
    let name = stat.get(open + 1..close)?.to_string();
    let fields: Vec<&str> = stat.get(close + 2..)?.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some((name, ticks / TICKS_PER_SEC))
}

/// CPU seconds of a whole process (every thread, those that ended too).
pub fn process_secs(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat_cpu(&stat).map(|(_, s)| s)
}

/// CPU seconds of this process's live threads whose name starts with `prefix` (Linux keeps the
/// first 15 bytes of a thread's name).
pub fn own_threads_secs(prefix: &str) -> f64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0.0;
    };
    tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("stat")).ok())
        .filter_map(|s| stat_cpu(&s))
        .filter(|(name, _)| name.starts_with(prefix))
        .map(|(_, s)| s)
        .sum()
}

/// Names this process gives its simulated gateways' threads (`tokio::runtime::Builder::
/// thread_name`), which are not the portal's.
pub const GATEWAY_THREADS: &str = "gateways";
/// sqlx names each SQLite connection's thread `sqlx-sqlite-worker-N`: SQLite's own work (the
/// database, in-process) runs there.
pub const SQLITE_THREADS: &str = "sqlx-sqlite";

/// CPU seconds so far, per party.
#[derive(Debug, Clone, Copy, Default)]
pub struct Split {
    /// This process, minus the gateways' and SQLite's threads: broker, MQTT client, ingest,
    /// the store's client side.
    pub portal: f64,
    pub gateways: f64,
    /// SQLite's connection threads, or the PostgreSQL backends serving the portal.
    pub database: f64,
}

impl Split {
    pub fn minus(&self, earlier: &Split) -> Split {
        Split {
            portal: self.portal - earlier.portal,
            gateways: self.gateways - earlier.gateways,
            database: self.database - earlier.database,
        }
    }
}

/// This process's split now; the database's part is SQLite's threads (PostgreSQL's backends
/// are other processes: [`backends_secs`]).
pub fn split_now() -> Split {
    let total = process_secs(std::process::id()).unwrap_or(0.0);
    let gateways = own_threads_secs(GATEWAY_THREADS);
    let sqlite = own_threads_secs(SQLITE_THREADS);
    Split {
        portal: total - gateways - sqlite,
        gateways,
        database: sqlite,
    }
}

/// CPU seconds of each PostgreSQL backend so far.
pub fn backends_secs(pids: &[u32]) -> std::collections::HashMap<u32, f64> {
    pids.iter()
        .filter_map(|p| process_secs(*p).map(|s| (*p, s)))
        .collect()
}

/// CPU seconds the backends spent between two readings: a backend that started in between
/// counts from zero; one that ended in between is lost (the pool keeps its connections, so
/// none does in a run).
pub fn backends_delta(
    before: &std::collections::HashMap<u32, f64>,
    after: &std::collections::HashMap<u32, f64>,
) -> f64 {
    after
        .iter()
        .map(|(pid, s)| s - before.get(pid).copied().unwrap_or(0.0))
        .sum()
}
