//! A Mosquitto of the test's own on a free loopback port, so the test depends on no other
//! broker's state (sessions left by other runs, other subscribers). Killed when dropped.

use std::{
    path::Path,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use super::{Error, free_port};

pub const BINARY: &str = "/usr/sbin/mosquitto";

pub struct Mosquitto {
    child: Child,
    pub port: u16,
}

impl Mosquitto {
    /// Starts Mosquitto with its configuration in `dir`; `None` when it is not installed.
    ///
    /// What the portal's replicas rely on: shared subscriptions (on by default in Mosquitto 2),
    /// and a queue long enough that the messages held for a replica while it is down (its
    /// share of everything that arrives until it reconnects with the same client id) are
    /// kept rather than dropped: `max_queued_messages` counts per client and defaults to 1000.
    pub async fn start(dir: &Path) -> Result<Option<Mosquitto>, Error> {
        if !Path::new(BINARY).is_file() {
            return Ok(None);
        }
        let port = free_port()?;
        let conf = dir.join("mosquitto.conf");
        std::fs::write(
            &conf,
            format!(
                "listener {port} 127.0.0.1\n\
                 allow_anonymous true\n\
                 persistence false\n\
                 max_queued_messages 1000000\n\
                 max_inflight_messages 100\n\
                 log_dest stdout\n\
                 log_type error\n\
                 log_type warning\n"
            ),
        )?;
        let child = Command::new(BINARY)
            .arg("-c")
            .arg(&conf)
            .stdout(Stdio::inherit())
            .stderr(Stdio::inherit())
            .spawn()?;
        let mut broker = Mosquitto { child, port };
        let deadline = Instant::now() + Duration::from_secs(10);
        while tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err()
        {
            if Instant::now() > deadline {
                let status = broker.child.try_wait()?;
                return Err(format!("mosquitto did not listen (exit: {status:?})").into());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Ok(Some(broker))
    }

    pub fn url(&self) -> String {
        format!("mqtt://127.0.0.1:{}", self.port)
    }
}

impl Drop for Mosquitto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
