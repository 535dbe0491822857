//! Read load against a running portal (`portal serve --demo`, release): N clients, each on its
//! own keep-alive HTTP/1.1 connection, send one request after another for a fixed time. Three
//! phases, one after the other: `GET /api/v1/user` (the baseline: token check, permission
//! load, envelope), the day energy curves of the plant with the most inverters (today, as the
//! plant screen opens), and the plant list. Latencies are measured by the clients, so they
//! include the loopback network and queueing, as wrk's do.

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use http_body_util::{BodyExt, Full};
use hyper::{
    Request,
    body::Bytes,
    client::conn::http1::{self, SendRequest},
};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

use crate::stats::Latency;

#[derive(Debug, Clone)]
pub struct ReadsOptions {
    /// `host:port` of the portal.
    pub addr: String,
    pub account: String,
    pub password: String,
    pub clients: usize,
    pub seconds: f64,
    /// The portal's process id: its CPU time per request is printed beside each phase.
    pub server_pid: Option<u32>,
}

#[derive(Debug, Clone)]
pub struct Phase {
    pub name: String,
    pub path: String,
    pub requests: usize,
    pub per_second: f64,
    pub latency: Latency,
    pub errors: usize,
    /// The server's CPU time (user + system) per request, when its process is known.
    pub server_cpu_ms: Option<f64>,
}

/// CPU seconds (user + system) a process has used, from `/proc/<pid>/stat`.
fn cpu_secs(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces) start after the last ')'.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    // The kernel counts in USER_HZ, 100 on every Linux this runs on.
    Some(ticks / 100.0)
}

async fn connect(addr: &str) -> anyhow::Result<SendRequest<Full<Bytes>>> {
    let stream = TcpStream::connect(addr)
        .await
        .with_context(|| format!("connecting to {addr}: is `portal serve --demo` running?"))?;
    stream.set_nodelay(true)?;
    let (send, conn) = http1::handshake(TokioIo::new(stream)).await?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    Ok(send)
}

/// One request on a connection: the status and the body.
async fn call(
    send: &mut SendRequest<Full<Bytes>>,
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<String>,
) -> anyhow::Result<(u16, Bytes)> {
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header("host", addr)
        .header("content-type", "application/json");
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    let request = request.body(Full::new(Bytes::from(body.unwrap_or_default())))?;
    send.ready().await?;
    let response = send.send_request(request).await?;
    let status = response.status().as_u16();
    let bytes = response.into_body().collect().await?.to_bytes();
    Ok((status, bytes))
}

async fn get_json(
    send: &mut SendRequest<Full<Bytes>>,
    o: &ReadsOptions,
    token: &str,
    path: &str,
) -> anyhow::Result<serde_json::Value> {
    let (status, body) = call(send, &o.addr, "GET", path, Some(token), None).await?;
    if status != 200 {
        bail!("{path} answered HTTP {status}");
    }
    let json: serde_json::Value = serde_json::from_slice(&body)?;
    if json["code"] != 0 {
        bail!("{path} answered {json}");
    }
    Ok(json)
}

/// Signs in and picks the visible plant with the most inverters.
async fn prepare(o: &ReadsOptions) -> anyhow::Result<(String, i64, i64)> {
    let mut send = connect(&o.addr).await?;
    let body = serde_json::json!({
        "username": o.account, "password": o.password, "grant_type": "password"
    });
    let (status, bytes) = call(
        &mut send,
        &o.addr,
        "POST",
        "/oauth/token",
        None,
        Some(body.to_string()),
    )
    .await?;
    let json: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
    let token = json["data"]["access_token"]
        .as_str()
        .with_context(|| format!("sign-in answered HTTP {status}: {json}"))?
        .to_string();
    let plants = get_json(&mut send, o, &token, "/api/v1/plants?page=1&limit=50").await?;
    let ids: Vec<i64> = plants["data"]["infos"]
        .as_array()
        .map(|a| a.iter().filter_map(|p| p["id"].as_i64()).collect())
        .unwrap_or_default();
    let mut best = None;
    for id in ids {
        let counts = get_json(
            &mut send,
            o,
            &token,
            &format!("/api/v1/plant/{id}/inverterCount"),
        )
        .await?;
        let total = counts["data"]["total"].as_i64().unwrap_or(0);
        if best.is_none_or(|(_, t)| total > t) {
            best = Some((id, total));
        }
    }
    let (plant, inverters) = best.context("the account sees no plant")?;
    Ok((token, plant, inverters))
}

async fn phase(o: &ReadsOptions, token: &str, name: &str, path: &str) -> anyhow::Result<Phase> {
    let until = Instant::now() + Duration::from_secs_f64(o.seconds);
    let mut clients = Vec::with_capacity(o.clients);
    for _ in 0..o.clients {
        let (o, token, path) = (o.clone(), token.to_string(), path.to_string());
        clients.push(tokio::spawn(async move {
            let mut times = Vec::new();
            let mut errors = 0usize;
            let mut send = connect(&o.addr).await?;
            while Instant::now() < until {
                let t = Instant::now();
                match call(&mut send, &o.addr, "GET", &path, Some(&token), None).await {
                    Ok((200, _)) => times.push(t.elapsed()),
                    Ok(_) => errors += 1,
                    Err(_) => {
                        errors += 1;
                        send = connect(&o.addr).await?;
                    }
                }
            }
            anyhow::Ok((times, errors))
        }));
    }
    let started = Instant::now();
    let cpu_before = o.server_pid.and_then(cpu_secs);
    let mut times = Vec::new();
    let mut errors = 0;
    for c in clients {
        let (t, e) = c.await??;
        times.extend(t);
        errors += e;
    }
    let elapsed = started.elapsed().as_secs_f64().max(o.seconds);
    let server_cpu_ms = cpu_before
        .zip(o.server_pid.and_then(cpu_secs))
        .map(|(before, after)| (after - before) * 1000.0 / times.len().max(1) as f64);
    Ok(Phase {
        name: name.into(),
        path: path.into(),
        requests: times.len(),
        per_second: times.len() as f64 / elapsed,
        latency: Latency::of(&mut times),
        errors,
        server_cpu_ms,
    })
}

pub async fn run(o: &ReadsOptions) -> anyhow::Result<(i64, i64, Vec<Phase>)> {
    let (token, plant, inverters) = prepare(o).await?;
    let mut phases = Vec::new();
    for (name, path) in [
        ("GET /api/v1/user (baseline)", "/api/v1/user".to_string()),
        (
            "plant day energy",
            format!("/api/v1/plant/energy/{plant}/day"),
        ),
        ("plant list", "/api/v1/plants?page=1&limit=50".to_string()),
    ] {
        phases.push(phase(o, &token, name, &path).await?);
    }
    Ok((plant, inverters, phases))
}

pub fn render(o: &ReadsOptions, plant: i64, inverters: i64, phases: &[Phase]) -> String {
    let mut out = format!(
        "reads: {} clients for {:.0} s per phase against {} (plant {plant}, {inverters} inverters)\n",
        o.clients, o.seconds, o.addr
    );
    let base = phases.first().map_or(1.0, |p| p.per_second.max(1e-9));
    for p in phases {
        out.push_str(&format!(
            "  {:<30} {:>8.0} req/s ({:.3} of baseline)  {}  errors {}{}\n",
            p.name,
            p.per_second,
            p.per_second / base,
            p.latency,
            p.errors,
            p.server_cpu_ms
                .map(|ms| format!("  server CPU {ms:.3} ms/request"))
                .unwrap_or_default()
        ));
    }
    out
}
