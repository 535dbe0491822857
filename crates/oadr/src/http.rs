//! A small HTTP/1.1 client (one connection per request) over hyper and rustls (ring, webpki
//! roots): a VEN polls every few tens of seconds and a webhook posts now and then, so there is
//! nothing to pool. The VEN calls [`send`]; other callers (the alarm webhooks) call
//! [`request`], which also connects to an address the caller resolved and checked itself.

use crate::Error;
use http::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HOST, USER_AGENT};
use http::{Method, Request};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio::net::TcpStream;
use url::Url;

/// The longest a request (connect, TLS, answer) may take.
pub const TIMEOUT: Duration = Duration::from_secs(20);
/// The largest answer read (a page of 50 events with intervals is far below).
const MAX_BODY: usize = 8 << 20;

#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub body: Bytes,
}

/// A request body and its content type.
pub struct Body {
    pub content_type: &'static str,
    pub bytes: Vec<u8>,
}

pub async fn send(
    method: Method,
    url: &Url,
    bearer: Option<&str>,
    body: Option<Body>,
) -> Result<Response, Error> {
    let auth = bearer.map(|t| format!("Bearer {t}"));
    let mut headers = vec![(ACCEPT.as_str(), "application/json".to_string())];
    if let Some(a) = auth {
        headers.push((AUTHORIZATION.as_str(), a));
    }
    request(Outgoing {
        method,
        url,
        connect_to: None,
        user_agent: "solar-portal-ven",
        headers: &headers,
        body,
        timeout: TIMEOUT,
    })
    .await
}

/// One request as a caller other than the VEN makes it.
pub struct Outgoing<'a> {
    pub method: Method,
    pub url: &'a Url,
    /// The address to connect to (the URL's host still names the server for `Host` and TLS);
    /// `None` resolves the host.
    pub connect_to: Option<SocketAddr>,
    pub user_agent: &'static str,
    pub headers: &'a [(&'a str, String)],
    pub body: Option<Body>,
    /// The longest the whole exchange (connect, TLS, answer) may take.
    pub timeout: Duration,
}

pub async fn request(o: Outgoing<'_>) -> Result<Response, Error> {
    let secs = o.timeout.as_secs();
    tokio::time::timeout(o.timeout, send_now(o))
        .await
        .map_err(|_| Error::Transport(format!("no answer within {secs}s")))?
}

async fn send_now(o: Outgoing<'_>) -> Result<Response, Error> {
    let url = o.url;
    let host = url
        .host_str()
        .ok_or_else(|| Error::Config("URL without host".into()))?;
    let port = url
        .port_or_known_default()
        .ok_or_else(|| Error::Config("URL without port".into()))?;
    let authority = match url.port() {
        Some(p) => format!("{host}:{p}"),
        None => host.to_owned(),
    };
    let target = &url[url::Position::BeforePath..];
    let mut req = Request::builder()
        .method(o.method)
        .uri(target)
        .header(HOST, authority)
        .header(USER_AGENT, o.user_agent);
    for (name, value) in o.headers {
        req = req.header(*name, value.as_str());
    }
    let bytes = match o.body {
        Some(b) => {
            req = req.header(CONTENT_TYPE, b.content_type);
            b.bytes
        }
        None => Vec::new(),
    };
    let req = req
        .body(Full::new(Bytes::from(bytes)))
        .map_err(|e| Error::Config(format!("request: {e}")))?;
    let bare = host.trim_matches(['[', ']']);
    let tcp = match o.connect_to {
        Some(addr) => TcpStream::connect(addr).await,
        None => TcpStream::connect((bare, port)).await,
    }
    .map_err(|e| Error::Transport(format!("connect {host}:{port}: {e}")))?;
    match url.scheme() {
        "http" => exchange(TokioIo::new(tcp), req).await,
        "https" => {
            let name = rustls::pki_types::ServerName::try_from(bare.to_owned())
                .map_err(|e| Error::Config(format!("TLS name {host}: {e}")))?;
            let tls = tokio_rustls::TlsConnector::from(tls_config())
                .connect(name, tcp)
                .await
                .map_err(|e| Error::Transport(format!("TLS {host}: {e}")))?;
            exchange(TokioIo::new(tls), req).await
        }
        other => Err(Error::Config(format!("unsupported URL scheme {other}"))),
    }
}

async fn exchange<I>(io: I, req: Request<Full<Bytes>>) -> Result<Response, Error>
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let (mut sender, conn) = hyper::client::conn::http1::handshake(io)
        .await
        .map_err(|e| Error::Transport(format!("handshake: {e}")))?;
    tokio::spawn(async move {
        if let Err(e) = conn.await {
            tracing::debug!("HTTP connection closed: {e}");
        }
    });
    let resp = sender
        .send_request(req)
        .await
        .map_err(|e| Error::Transport(format!("request: {e}")))?;
    let status = resp.status().as_u16();
    let body = Limited::new(resp.into_body(), MAX_BODY)
        .collect()
        .await
        .map_err(|e| Error::Transport(format!("answer: {e}")))?
        .to_bytes();
    Ok(Response { status, body })
}

fn tls_config() -> Arc<rustls::ClientConfig> {
    static CONFIG: OnceLock<Arc<rustls::ClientConfig>> = OnceLock::new();
    CONFIG
        .get_or_init(|| {
            let roots = rustls::RootCertStore {
                roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
            };
            let provider = Arc::new(rustls::crypto::ring::default_provider());
            let config = match rustls::ClientConfig::builder_with_provider(provider)
                .with_safe_default_protocol_versions()
            {
                Ok(b) => b.with_root_certificates(roots).with_no_client_auth(),
                // The ring provider supports the default versions; keep a working fallback.
                Err(_) => rustls::ClientConfig::builder()
                    .with_root_certificates(rustls::RootCertStore::empty())
                    .with_no_client_auth(),
            };
            Arc::new(config)
        })
        .clone()
}
