//! `portal serve` as a child process with only the settings a test gives it (the test's own
//! `PORTAL_*` environment is not passed on), its output prefixed with its name, killed with
//! SIGKILL when dropped.

use std::{
    io::{BufRead, BufReader},
    process::{Child, Command, Stdio},
    sync::{Arc, Mutex},
    time::Duration,
};

use super::{Error, free_port};

pub struct Portal {
    pub name: String,
    child: Child,
    pub http_port: u16,
    pub metrics_port: u16,
    /// Every line it printed so far.
    pub output: Arc<Mutex<Vec<String>>>,
}

impl Portal {
    /// Starts `portal serve` with `settings` (plus an HTTP and a metrics port of its own) and
    /// waits until it listens.
    pub fn start(name: &str, settings: &[(String, String)]) -> Result<Portal, Error> {
        let (http_port, metrics_port) = (free_port()?, free_port()?);
        let mut command = Command::new(env!("CARGO_BIN_EXE_portal"));
        command.arg("serve");
        for (key, _) in std::env::vars().filter(|(k, _)| k.starts_with("PORTAL_")) {
            command.env_remove(key);
        }
        let mut child = command
            .envs(settings.iter().map(|(k, v)| (k, v)))
            .env("PORTAL_HTTP_ADDR", format!("127.0.0.1:{http_port}"))
            .env("PORTAL_METRICS_ADDR", format!("127.0.0.1:{metrics_port}"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let output = Arc::new(Mutex::new(Vec::new()));
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let stderr = child.stderr.take().ok_or("no stderr")?;
        for (stream, ready) in [
            (
                Box::new(stdout) as Box<dyn std::io::Read + Send>,
                Some(ready_tx),
            ),
            (Box::new(stderr), None),
        ] {
            let (label, output) = (name.to_string(), output.clone());
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    println!("[{label}] {line}");
                    if let Some(tx) = &ready
                        && line.contains("Portal listening")
                    {
                        let _ = tx.send(());
                    }
                    output.lock().unwrap_or_else(|e| e.into_inner()).push(line);
                }
            });
        }
        let mut portal = Portal {
            name: name.to_string(),
            child,
            http_port,
            metrics_port,
            output,
        };
        if ready_rx.recv_timeout(Duration::from_secs(60)).is_err() {
            let status = portal.child.try_wait()?;
            return Err(format!("{name}: portal serve did not start (exit: {status:?})").into());
        }
        Ok(portal)
    }

    /// SIGKILL: no shutdown code runs.
    pub fn kill(&mut self) -> std::io::Result<()> {
        self.child.kill()?;
        self.child.wait()?;
        Ok(())
    }

    /// A counter or gauge of its `/metrics` (0 when it has not been recorded yet).
    pub async fn metric(&self, name: &str) -> Result<f64, Error> {
        let reply = super::http::get(self.metrics_port, "/metrics", None).await?;
        let text = String::from_utf8_lossy(&reply.body);
        Ok(text
            .lines()
            .filter_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
            .filter_map(|v| v.trim().parse::<f64>().ok())
            .sum())
    }
}

/// Runs `portal <args>` to its end with only `settings`; answers what it printed, or an error
/// with its output when it failed.
pub fn run(args: &[&str], settings: &[(String, String)]) -> Result<String, Error> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_portal"));
    for (key, _) in std::env::vars().filter(|(k, _)| k.starts_with("PORTAL_")) {
        command.env_remove(key);
    }
    let out = command
        .args(args)
        .envs(settings.iter().map(|(k, v)| (k, v)))
        .output()?;
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(format!("portal {args:?}: {}\n{stdout}{stderr}", out.status).into());
    }
    Ok(stdout)
}

impl Drop for Portal {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
