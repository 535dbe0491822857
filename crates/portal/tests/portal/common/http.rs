//! A small HTTP/1.1 client over a plain socket, enough to drive `portal serve` from a test: one
//! request per connection (`Connection: close`), JSON and multipart bodies, the answer's status,
//! headers and body (chunked bodies decoded).

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::Error;

#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    /// Names in lower case, in the order sent.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The envelope's `data` when `code` is 0; an error naming the answer otherwise.
    pub fn data(&self) -> Result<Value, Error> {
        let v: Value = serde_json::from_slice(&self.body)
            .map_err(|e| format!("HTTP {}: not JSON ({e})", self.status))?;
        if v["code"] != 0 {
            return Err(format!("HTTP {}: {v}", self.status).into());
        }
        Ok(v["data"].clone())
    }
}

/// One request to `127.0.0.1:port`.
pub async fn request(
    port: u16,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<(&str, &[u8])>,
) -> Result<Reply, Error> {
    let auth = token.map(|t| format!("Bearer {t}"));
    let headers: Vec<(&str, &str)> = auth.iter().map(|a| ("Authorization", a.as_str())).collect();
    send(port, method, path, &headers, body).await
}

/// A GET with extra request headers (conditional and range requests).
pub async fn get_with(port: u16, path: &str, headers: &[(&str, &str)]) -> Result<Reply, Error> {
    send(port, "GET", path, headers, None).await
}

async fn send(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<(&str, &[u8])>,
) -> Result<Reply, Error> {
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port)).await?;
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    if let Some((content_type, bytes)) = body {
        head.push_str(&format!(
            "Content-Type: {content_type}\r\nContent-Length: {}\r\n",
            bytes.len()
        ));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await?;
    if let Some((_, bytes)) = body {
        stream.write_all(bytes).await?;
    }
    let mut raw = Vec::new();
    tokio::time::timeout(
        std::time::Duration::from_secs(60),
        stream.read_to_end(&mut raw),
    )
    .await
    .map_err(|_| format!("{method} {path}: no answer in 60 s"))??;
    parse(&raw).ok_or_else(|| format!("{method} {path}: malformed answer").into())
}

fn parse(raw: &[u8]) -> Option<Reply> {
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&raw[..split]).ok()?;
    let mut lines = head.split("\r\n");
    let status = lines.next()?.split_whitespace().nth(1)?.parse().ok()?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    if chunked {
        body = dechunk(&body)?;
    }
    Some(Reply {
        status,
        headers,
        body,
    })
}

fn dechunk(mut rest: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let line_end = rest.windows(2).position(|w| w == b"\r\n")?;
        let size_text = std::str::from_utf8(&rest[..line_end]).ok()?;
        let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
        rest = &rest[line_end + 2..];
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(rest.get(..size)?);
        rest = rest.get(size + 2..)?;
    }
}

pub async fn get(port: u16, path: &str, token: Option<&str>) -> Result<Reply, Error> {
    request(port, "GET", path, token, None).await
}

pub async fn post_json(port: u16, path: &str, token: &str, body: &Value) -> Result<Reply, Error> {
    let bytes = body.to_string().into_bytes();
    request(
        port,
        "POST",
        path,
        Some(token),
        Some(("application/json", &bytes)),
    )
    .await
}

/// A multipart form: text `fields`, then the file `(field, file name, bytes)` when given.
pub async fn post_form(
    port: u16,
    path: &str,
    token: &str,
    fields: &[(&str, &str)],
    file: Option<(&str, &str, &[u8])>,
) -> Result<Reply, Error> {
    const BOUNDARY: &str = "----portal-test-boundary-r3pl1c4s";
    let mut body = Vec::new();
    for (k, v) in fields {
        body.extend_from_slice(
            format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n")
                .as_bytes(),
        );
    }
    if let Some((field, name, bytes)) = file {
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{field}\"; \
                 filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    let content_type = format!("multipart/form-data; boundary={BOUNDARY}");
    request(
        port,
        "POST",
        path,
        Some(token),
        Some((&content_type, &body)),
    )
    .await
}

/// Signs in with a password; answers the access token.
pub async fn sign_in(port: u16, account: &str, password: &str) -> Result<String, Error> {
    let body = serde_json::json!({"username": account, "password": password,
        "grant_type": "password", "client_id": "csp-web"})
    .to_string()
    .into_bytes();
    let reply = request(
        port,
        "POST",
        "/oauth/token",
        None,
        Some(("application/json", &body)),
    )
    .await?;
    let data = reply.data()?;
    Ok(data["access_token"]
        .as_str()
        .ok_or("no access_token")?
        .to_string())
}
