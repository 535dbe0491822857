//! Another process's resident memory and CPU time, read from /proc, and this process's open
//! file limit.

use std::time::Duration;

/// VmRSS of process `pid` in KiB (0 once it is gone or where /proc is not available).
pub fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// User plus system CPU time process `pid` used so far (all its threads; zero once it is gone).
pub fn cpu_time(pid: u32) -> Duration {
    Duration::from_secs_f64(crate::cpu::process_secs(pid).unwrap_or(0.0))
}

/// Raises this process's open file limit to its hard limit (children inherit it) with
/// util-linux `prlimit`, and answers the soft limit then in force. Raising the hard limit itself
/// needs privileges an operator grants with `LimitNOFILE` (systemd) or `ulimit -n` as root; see
/// docs/operations.md.
pub fn raise_nofile() -> u64 {
    let me = std::process::id().to_string();
    let hard = nofile("Max open files", 2);
    if hard > 0 {
        let _ = std::process::Command::new("prlimit")
            .args(["--pid", &me, &format!("--nofile={hard}:")])
            .output();
    }
    nofile("Max open files", 1)
}

/// A column of this process's open file limit line in /proc/self/limits (1 soft, 2 hard).
fn nofile(name: &str, column: usize) -> u64 {
    std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|s| {
            s.lines().find_map(|l| {
                l.strip_prefix(name)
                    .and_then(|rest| rest.split_whitespace().nth(column - 1))
                    .and_then(|v| v.parse().ok())
            })
        })
        .unwrap_or(0)
}

/// Asks process `pid` to stop (SIGTERM), as a service manager does on a restart.
pub fn terminate(pid: u32) -> std::io::Result<()> {
    let status = std::process::Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()?;
    if status.success() {
        Ok(())
    } else {
        Err(std::io::Error::other(format!("kill -TERM {pid}: {status}")))
    }
}
