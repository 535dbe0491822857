//! Issue 12, finding 10: a running `portal serve` answers `/metrics` on `PORTAL_METRICS_ADDR`
//! only, never on the public HTTP address.

use crate::common::free_port;

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::TcpStream,
    path::PathBuf,
    process::{Child, Command, Stdio},
    time::Duration,
};

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// A plain HTTP/1.1 GET: the status code and the body.
fn get(port: u16, path: &str) -> Result<(u16, String), Box<dyn std::error::Error>> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer)?;
    let status = answer
        .split_whitespace()
        .nth(1)
        .ok_or("no status line")?
        .parse()?;
    let body = answer.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    Ok((status, body.to_string()))
}

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn metrics_are_served_on_their_own_address_only() -> TestResult {
    let dir: PathBuf = std::env::temp_dir().join(format!("portal-metrics-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    let (http, metrics, mqtt) = (free_port()?, free_port()?, free_port()?);
    let mut child = Command::new(env!("CARGO_BIN_EXE_portal"))
        .arg("serve")
        .env_remove("PORTAL_DATABASE_URL")
        .env_remove("PORTAL_MQTT_URL")
        .env("PORTAL_DATA_DIR", &dir)
        .env("PORTAL_HTTP_ADDR", format!("127.0.0.1:{http}"))
        .env("PORTAL_METRICS_ADDR", format!("127.0.0.1:{metrics}"))
        .env("PORTAL_MQTT_EMBEDDED", "true")
        .env("PORTAL_MQTT_ADDR", format!("127.0.0.1:{mqtt}"))
        .env("PORTAL_ADMIN_PASSWORD", "metrics-pass1")
        .env("PORTAL_WEB_DIR", dir.join("no-web"))
        .env("PORTAL_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let server = Server(child);
    let mut said = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line?;
        let ready = line.contains("Portal listening");
        said.push(line);
        if ready {
            break;
        }
    }
    assert!(
        said.iter()
            .any(|l| l.contains(&format!("Metrics on http://127.0.0.1:{metrics}/metrics"))),
        "{said:?}"
    );

    // Some traffic, then the counters are on the metrics address, and only there.
    let (status, _) = get(http, "/anonymous/config")?;
    assert_eq!(status, 200);
    let (status, body) = get(metrics, "/metrics")?;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("portal_http_requests_total"), "{body}");
    let (status, body) = get(http, "/metrics")?;
    assert_eq!(status, 404, "{body}");
    assert!(!body.contains("portal_http_requests_total"), "{body}");
    // And the metrics address serves nothing else.
    let (status, _) = get(metrics, "/anonymous/config")?;
    assert_eq!(status, 404);

    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
