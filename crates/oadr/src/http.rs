//! A small HTTP/1.1 client (one connection per request) over hyper and rustls (ring, webpki
//! roots): a VEN polls every few tens of seconds, so there is nothing to pool.

use crate::Error;
use http::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HOST, USER_AGENT};
use http::{Method, Request};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
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
    tokio::time::timeout(TIMEOUT, send_now(method, url, bearer, body))
        .await
        .map_err(|_| Error::Transport(format!("no answer within {}s", TIMEOUT.as_secs())))?
}

async fn send_now(
    method: Method,
    url: &Url,
    bearer: Option<&str>,
    body: Option<Body>,
) -> Result<Response, Error> {
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
        .method(method)
        .uri(target)
        .header(HOST, authority)
        .header(USER_AGENT, "solar-portal-ven")
        .header(ACCEPT, "application/json");
    if let Some(token) = bearer {
        req = req.header(AUTHORIZATION, format!("Bearer {token}"));
    }
    let bytes = match body {
        Some(b) => {
            req = req.header(CONTENT_TYPE, b.content_type);
            b.bytes
        }
        None => Vec::new(),
    };
    let req = req
        .body(Full::new(Bytes::from(bytes)))
        .map_err(|e| Error::Config(format!("request: {e}")))?;
    let tcp = TcpStream::connect((host.trim_matches(['[', ']']), port))
        .await
        .map_err(|e| Error::Transport(format!("connect {host}:{port}: {e}")))?;
    match url.scheme() {
        "http" => exchange(TokioIo::new(tcp), req).await,
        "https" => {
            let name =
                rustls::pki_types::ServerName::try_from(host.trim_matches(['[', ']']).to_owned())
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
            tracing::debug!("VTN connection closed: {e}");
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
