//! `portal serve` as a process of its own (so its memory and CPU time are its own, apart from
//! the simulated gateways'), and a bare TCP echo server process as the baseline beside it.

use std::{
    io::{BufRead, BufReader},
    net::SocketAddr,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use anyhow::{Context, bail};

use crate::procstat;

/// A child process that is killed when dropped.
pub struct Process {
    child: Child,
    pub pid: u32,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How to start the portal: its binary, and the settings it gets in its environment.
#[derive(Debug, Clone)]
pub struct PortalCommand {
    pub bin: PathBuf,
    pub env: Vec<(String, String)>,
    /// Where its output goes.
    pub log: PathBuf,
}

impl PortalCommand {
    pub fn start(&self) -> anyhow::Result<Process> {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .with_context(|| format!("opening {}", self.log.display()))?;
        let child = Command::new(&self.bin)
            .arg("serve")
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .spawn()
            .with_context(|| format!("starting {}", self.bin.display()))?;
        Ok(Process {
            pid: child.id(),
            child,
        })
    }
}

impl Process {
    /// Whether it has exited.
    pub fn exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// SIGTERM, as a service manager restarts it; SIGKILL if it has not exited within
    /// `grace`. Answers how long it took to exit.
    pub async fn stop(&mut self, grace: Duration) -> anyhow::Result<Duration> {
        let t = Instant::now();
        procstat::terminate(self.pid).context("SIGTERM")?;
        while !self.exited() {
            if t.elapsed() > grace {
                let _ = self.child.kill();
                let _ = self.child.wait();
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        Ok(t.elapsed())
    }
}

/// Waits until something accepts TCP connections on `addr`.
pub async fn wait_listening(addr: SocketAddr, within: Duration) -> anyhow::Result<()> {
    let t = Instant::now();
    loop {
        if tokio::net::TcpStream::connect(addr).await.is_ok() {
            return Ok(());
        }
        if t.elapsed() > within {
            bail!("nothing listens on {addr} after {within:?}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A free loopback port (bound and released: another program could take it in between,
/// which the portal then reports).
pub fn free_port() -> anyhow::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

/// The portal binary next to this one (`target/release/portal` beside `target/release/bench`,
/// or one directory up from a test's `deps/`).
pub fn portal_beside_this() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?;
    [dir.join("portal"), dir.parent()?.join("portal")]
        .into_iter()
        .find(|p| p.is_file())
}

/// Starts `bench echo-serve` (this binary, `exe`) and answers it with its address.
pub fn start_echo(exe: &Path) -> anyhow::Result<(Process, SocketAddr)> {
    let mut child = Command::new(exe)
        .arg("echo-serve")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .with_context(|| format!("starting {} echo-serve", exe.display()))?;
    let pid = child.id();
    let stdout = child.stdout.take().context("no stdout")?;
    let process = Process { child, pid };
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line)?;
    let addr = line
        .trim()
        .strip_prefix("listening ")
        .and_then(|a| a.parse().ok())
        .with_context(|| format!("echo-serve said {line:?}"))?;
    Ok((process, addr))
}

/// The echo server: one task per connection sending back what it reads, nothing else (the
/// least a tokio server holding these sockets can cost). Prints `listening <addr>` first.
pub async fn serve_echo() -> anyhow::Result<()> {
    procstat::raise_nofile();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    println!("listening {}", listener.local_addr()?);
    loop {
        let Ok((mut socket, _)) = listener.accept().await else {
            // Out of file descriptors or similar: keep serving the others.
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        tokio::spawn(async move {
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            let mut buf = [0u8; 512];
            while let Ok(n) = socket.read(&mut buf).await {
                if n == 0 || socket.write_all(&buf[..n]).await.is_err() {
                    break;
                }
            }
        });
    }
}
