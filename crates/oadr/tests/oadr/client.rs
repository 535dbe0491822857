//! The VEN client against a scripted VTN on loopback: token discovery (3.1 `/auth/server`), a
//! token answer with `scope` as an array and no `expires_in` (reference VTN quirk), a new token
//! after a 401, paging, and problem details on refusals.

use oadr::Version;
use oadr::ven::{Credentials, VtnClient};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

fn reply(status: &str, body: &str) -> String {
    format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// Serves until the test ends; `tokens` counts the tokens issued.
async fn fake_vtn(tokens: Arc<AtomicUsize>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let token_url = format!("{base}/auth/token");
    tokio::spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            let mut buf = vec![0u8; 8192];
            let n = sock.read(&mut buf).await.unwrap_or(0);
            let req = String::from_utf8_lossy(&buf[..n]).to_string();
            let line = req.lines().next().unwrap_or_default().to_owned();
            let answer = if line.starts_with("GET /auth/server") {
                reply("200 OK", &format!(r#"{{"tokenURL":"{token_url}"}}"#))
            } else if line.starts_with("POST /auth/token") {
                if !req.contains("client_secret=s3cret") {
                    reply(
                        "401 Unauthorized",
                        r#"{"title":"Unauthorized","detail":"bad credentials"}"#,
                    )
                } else {
                    let k = tokens.fetch_add(1, Ordering::SeqCst) + 1;
                    reply(
                        "200 OK",
                        &format!(
                            r#"{{"access_token":"t{k}","token_type":"Bearer","scope":["read_all"]}}"#
                        ),
                    )
                }
            } else if line.starts_with("GET /programs") {
                // The first token "expires" at once.
                if req.contains("Bearer t1") {
                    reply("401 Unauthorized", r#"{"title":"Unauthorized"}"#)
                } else {
                    reply(
                        "200 OK",
                        r#"[{"id":"p1","createdDateTime":"02:48:11","modificationDateTime":"02:48:11","objectType":"PROGRAM","programName":"one"}]"#,
                    )
                }
            } else if line.starts_with("POST /vens") || line.starts_with("GET /vens") {
                if line.starts_with("GET") {
                    reply("200 OK", "[]")
                } else {
                    // openleadr-vtn's conflict: a title and an empty detail.
                    reply(
                        "409 Conflict",
                        r#"{"type":"about:blank","title":"Conflict","status":409,"detail":""}"#,
                    )
                }
            } else {
                reply("404 Not Found", r#"{"title":"Not Found"}"#)
            };
            let _ = sock.write_all(answer.as_bytes()).await;
            let _ = sock.shutdown().await;
        }
    });
    base
}

fn creds(secret: &str) -> Credentials {
    Credentials {
        client_id: "ven".into(),
        client_secret: secret.into(),
    }
}

#[tokio::test]
async fn a_401_fetches_a_new_token_once_and_retries() {
    let tokens = Arc::new(AtomicUsize::new(0));
    let base = fake_vtn(tokens.clone()).await;
    let c = VtnClient::new(&base, Version::V310, creds("s3cret")).expect("client");
    let programs = c.programs().await.expect("programs");
    assert_eq!(programs.docs.len(), 1);
    assert_eq!(programs.docs[0].id, "p1");
    assert_eq!(tokens.load(Ordering::SeqCst), 2, "t1 refused, t2 used");
}

#[tokio::test]
async fn refusals_carry_the_vtn_problem_detail_and_never_the_secret() {
    let tokens = Arc::new(AtomicUsize::new(0));
    let base = fake_vtn(tokens).await;
    let wrong = VtnClient::new(&base, Version::V310, creds("nope")).expect("client");
    let e = wrong.programs().await.expect_err("refused");
    assert_eq!(e.status(), Some(401));
    assert!(e.to_string().contains("bad credentials"), "{e}");
    assert!(!format!("{e} {wrong:?} {:?}", creds("nope")).contains("nope"));

    let ok = VtnClient::new(&base, Version::V310, creds("s3cret")).expect("client");
    let e = ok.ensure_ven("portal").await.expect_err("refused");
    assert!(e.is_refusal(), "{e}");
    let text = e.to_string();
    assert!(
        text.contains(r#"venName "portal" belongs to another client"#) && text.contains("Conflict"),
        "{text}"
    );
}

#[test]
fn a_400_is_our_malformed_request_and_not_the_utility_refusing() {
    let status = |status| oadr::Error::Status {
        status,
        detail: String::new(),
    };
    assert!(status(400).is_our_bad_request() && !status(400).is_refusal());
    for s in [403, 404, 409] {
        assert!(
            status(s).is_refusal() && !status(s).is_our_bad_request(),
            "{s}"
        );
    }
    assert!(!status(401).is_refusal() && !status(429).is_refusal());
}

#[tokio::test]
async fn an_unreachable_vtn_is_a_transport_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    drop(listener);
    let c =
        VtnClient::new(&format!("http://{addr}"), Version::V301, creds("s3cret")).expect("client");
    let e = c.programs().await.expect_err("unreachable");
    assert!(matches!(e, oadr::Error::Transport(_)), "{e}");
    assert!(VtnClient::new("ftp://x", Version::V310, creds("s")).is_err());
}
