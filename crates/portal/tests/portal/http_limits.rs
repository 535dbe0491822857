//! Issue 13, finding 4: HTTP bounds connections per source address, closes idle and slow ones;
//! finding 7: an upload refused before its body is read does not break the client's
//! connection (a large one closes it cleanly, a small one is read away). Against `portal serve`
//! with short timeouts and a low per-address bound.

use crate::common;

use std::{
    net::{IpAddr, SocketAddr},
    time::{Duration, Instant},
};

use common::{Error, TestResult, free_port, http, portal::Portal, temp_dir};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpSocket, TcpStream},
    task::JoinSet,
};

const ADMIN: &str = "admin@example.com";
const PASSWORD: &str = "limits-pass-1";
const PER_ADDRESS: usize = 8;
const HEADER_SECS: u64 = 1;
const IDLE_SECS: u64 = 4;

fn start(name: &str) -> Result<Portal, Error> {
    let dir = temp_dir(name)?;
    let settings: Vec<(String, String)> = [
        ("PORTAL_DATA_DIR", dir.display().to_string()),
        ("PORTAL_MQTT_ADDR", format!("127.0.0.1:{}", free_port()?)),
        ("PORTAL_ADMIN_USER", ADMIN.into()),
        ("PORTAL_ADMIN_PASSWORD", PASSWORD.into()),
        ("PORTAL_WEB_DIR", dir.join("no-web").display().to_string()),
        ("PORTAL_LOG", "warn".into()),
        (
            "PORTAL_HTTP_MAX_CONNECTIONS_PER_ADDRESS",
            PER_ADDRESS.to_string(),
        ),
        ("PORTAL_HTTP_HEADER_TIMEOUT_SECS", HEADER_SECS.to_string()),
        ("PORTAL_HTTP_IDLE_TIMEOUT_SECS", IDLE_SECS.to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    Portal::start(name, &settings)
}

/// A connection to the portal from `from` (any address of the loopback network on Linux).
async fn connect(from: [u8; 4], port: u16) -> Result<TcpStream, Error> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(IpAddr::from(from), 0))?;
    Ok(socket
        .connect(SocketAddr::from(([127, 0, 0, 1], port)))
        .await?)
}

/// Waits up to `within` for the server to close `stream`: `Some(elapsed)` when it did (end of
/// stream or reset), `None` when it is still open. Bytes the server sends first are skipped.
async fn closed_within(stream: &mut TcpStream, within: Duration) -> Option<Duration> {
    let started = Instant::now();
    let mut buf = [0u8; 4096];
    loop {
        let left = within.checked_sub(started.elapsed())?;
        match tokio::time::timeout(left, stream.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => return Some(started.elapsed()),
            Ok(Ok(_)) => {}
        }
    }
}

/// Reads one answer (its head, and a body of `Content-Length` bytes) from a kept-alive
/// connection; answers the lower-case head and the body.
async fn read_answer(stream: &mut TcpStream) -> Result<(String, Vec<u8>), Error> {
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    let head_end = loop {
        if let Some(at) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        let n = tokio::time::timeout(Duration::from_secs(20), stream.read(&mut buf)).await??;
        if n == 0 {
            return Err(format!(
                "closed before an answer: {:?}",
                String::from_utf8_lossy(&raw)
            )
            .into());
        }
        raw.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&raw[..head_end]).to_ascii_lowercase();
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .ok_or_else(|| format!("no content-length: {head}"))?
        .trim()
        .parse()?;
    let mut body = raw[head_end..].to_vec();
    while body.len() < length {
        let n = tokio::time::timeout(Duration::from_secs(20), stream.read(&mut buf)).await??;
        if n == 0 {
            return Err("closed within the body".into());
        }
        body.extend_from_slice(&buf[..n]);
    }
    body.truncate(length);
    Ok((head, body))
}

const HEALTHZ: &[u8] = b"GET /healthz HTTP/1.1\r\nHost: portal\r\n\r\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn idle_connections_beyond_the_address_bound_are_closed_and_others_still_get_answers()
-> TestResult {
    let server = start("http-bounds")?;
    let port = server.http_port;

    // Many idle connections from one address: the bound's worth stay, the rest are closed as
    // soon as they are accepted (well before any timeout; on a busy machine accepting 200 can
    // take a moment, hence the 2 s).
    let mut flood = JoinSet::new();
    for _ in 0..200 {
        flood.spawn(async move {
            let mut s = connect([127, 0, 0, 1], port).await?;
            let closed = closed_within(&mut s, Duration::from_secs(2)).await;
            Ok::<_, Error>((s, closed))
        });
    }
    let (mut held, mut refused) = (Vec::new(), Vec::new());
    while let Some(joined) = flood.join_next().await {
        let (s, closed) = joined??;
        match closed {
            Some(after) => refused.push(after),
            None => held.push(s),
        }
    }
    assert_eq!(held.len(), PER_ADDRESS, "connections kept from 127.0.0.1");
    assert_eq!(refused.len(), 200 - PER_ADDRESS);
    assert_eq!(
        server
            .metric(
                "portal_http_connections_refused_total{listener=\"public\",reason=\"per_address\"}"
            )
            .await?,
        (200 - PER_ADDRESS) as f64
    );
    println!(
        "{} connections refused, the last closed {:?} after its connect",
        refused.len(),
        refused.iter().max()
    );

    // Meanwhile another address is answered at once.
    let started = Instant::now();
    let mut other = connect([127, 0, 0, 2], port).await?;
    other.write_all(HEALTHZ).await?;
    let (head, body) = read_answer(&mut other).await?;
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert_eq!(body, br#"{"status":"ok"}"#);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "/healthz took {:?}",
        started.elapsed()
    );

    // A kept-alive connection serves a second request, then is closed once idle for the idle
    // timeout.
    other.write_all(HEALTHZ).await?;
    let (head, _) = read_answer(&mut other).await?;
    assert!(head.starts_with("http/1.1 200"), "{head}");
    let idle = closed_within(&mut other, Duration::from_secs(IDLE_SECS + 3))
        .await
        .ok_or("a kept-alive connection stayed open past the idle timeout")?;
    assert!(
        idle >= Duration::from_secs(IDLE_SECS) - Duration::from_millis(300),
        "closed after {idle:?}, before the idle timeout"
    );

    // A request head trickled in is cut after the header timeout, long before the idle one.
    let mut slow = connect([127, 0, 0, 3], port).await?;
    let started = Instant::now();
    let mut cut = None;
    for byte in b"GET /healthz HTTP/1.1\r\nHost: portal\r\nX-Slow: "
        .iter()
        .cycle()
    {
        if slow.write_all(&[*byte]).await.is_err() {
            cut = Some(started.elapsed());
            break;
        }
        if closed_within(&mut slow, Duration::from_millis(100))
            .await
            .is_some()
        {
            cut = Some(started.elapsed());
            break;
        }
        if started.elapsed() > Duration::from_secs(IDLE_SECS + 3) {
            break;
        }
    }
    let cut = cut.ok_or("a trickled head was never cut")?;
    assert!(
        cut >= Duration::from_millis(HEADER_SECS * 1000 - 300)
            && cut < Duration::from_secs(IDLE_SECS),
        "trickled head cut after {cut:?}"
    );

    // The idle connections of the first address are closed too, and their places come back.
    for mut s in held {
        closed_within(&mut s, Duration::from_secs(IDLE_SECS + 3))
            .await
            .ok_or("an idle connection stayed open past the idle timeout")?;
    }
    let mut again = connect([127, 0, 0, 1], port).await?;
    again.write_all(HEALTHZ).await?;
    let (head, _) = read_answer(&mut again).await?;
    assert!(head.starts_with("http/1.1 200"), "{head}");
    Ok(())
}

/// A multipart upload of `len` bytes of file, with the head of a kept-alive request.
fn upload(token: Option<&str>, len: usize) -> Vec<u8> {
    let mut body =
        b"--XYZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p.png\"\r\n\
        Content-Type: image/png\r\n\r\n"
            .to_vec();
    body.extend((0..len).map(|i| (i % 251) as u8));
    body.extend_from_slice(b"\r\n--XYZ--\r\n");
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let mut request = format!(
        "POST /api/v1/plant/thumbnail HTTP/1.1\r\nHost: portal\r\n{auth}\
         Content-Type: multipart/form-data; boundary=XYZ\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    request.extend(body);
    request
}

/// Sends `request` while reading the answer (as a client does): the answer's head, and whether
/// the server then closed the connection cleanly (end of stream, no further bytes).
async fn refused_upload(port: u16, request: Vec<u8>) -> Result<(String, bool), Error> {
    let stream = connect([127, 0, 0, 1], port).await?;
    let (mut reader, mut writer) = stream.into_split();
    // The server may stop reading once it has answered: the rest of the body then fails to
    // send, which a client ignores once it has its answer.
    let sending = tokio::spawn(async move {
        let _ = writer.write_all(&request).await;
        writer
    });
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    let ended = loop {
        match tokio::time::timeout(Duration::from_secs(20), reader.read(&mut buf)).await? {
            Ok(0) => break true,
            Ok(n) => raw.extend_from_slice(&buf[..n]),
            Err(_) => break false,
        }
    };
    drop(sending.await?);
    let text = String::from_utf8_lossy(&raw).to_ascii_lowercase();
    let (head, body) = text.split_once("\r\n\r\n").ok_or("no answer")?;
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .ok_or("no content-length")?
        .trim()
        .parse()?;
    // Exactly one answer: nothing after its body.
    Ok((head.to_string(), ended && body.len() == length))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_upload_refused_before_its_body_is_read_closes_its_connection_cleanly() -> TestResult {
    let server = start("http-refused-upload")?;
    let port = server.http_port;
    let token = http::sign_in(port, ADMIN, PASSWORD).await?;

    // No token: refused before a byte of the body is read.
    let (head, clean) = refused_upload(port, upload(None, 1 << 20)).await?;
    assert!(head.starts_with("http/1.1 401"), "{head}");
    assert!(head.contains("\r\nconnection: close"), "{head}");
    assert!(clean, "the connection ends cleanly after the one answer");

    // Far too large: refused while the body streams in.
    let (head, clean) = refused_upload(port, upload(Some(&token), 12 << 20)).await?;
    assert!(head.contains("\r\nconnection: close"), "{head}");
    assert!(clean, "the connection ends cleanly after the one answer");

    // A small body left unread is read away before the answer: the connection stays open for
    // the next request.
    let mut small = connect([127, 0, 0, 1], port).await?;
    small.write_all(&upload(None, 1000)).await?;
    let (head, _) = read_answer(&mut small).await?;
    assert!(head.starts_with("http/1.1 401"), "{head}");
    assert!(!head.contains("connection: close"), "{head}");
    small.write_all(HEALTHZ).await?;
    let (head, _) = read_answer(&mut small).await?;
    assert!(head.starts_with("http/1.1 200"), "{head}");

    // A request whose body is read keeps its connection for the next request.
    let mut kept = connect([127, 0, 0, 1], port).await?;
    let body =
        br#"{"username":"nobody@example.com","password":"wrong-pass-1","grant_type":"password"}"#;
    let mut request = format!(
        "POST /oauth/token HTTP/1.1\r\nHost: portal\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(body);
    kept.write_all(&request).await?;
    let (head, _) = read_answer(&mut kept).await?;
    assert!(!head.contains("connection: close"), "{head}");
    kept.write_all(HEALTHZ).await?;
    let (head, _) = read_answer(&mut kept).await?;
    assert!(head.starts_with("http/1.1 200"), "{head}");

    // And a new connection after the refused ones is answered as usual.
    let reply = http::get(port, "/healthz", None).await?;
    assert_eq!(reply.status, 200);
    Ok(())
}
