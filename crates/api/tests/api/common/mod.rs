//! The test harness: one app per available backend (SQLite always, PostgreSQL when
//! `PORTAL_TEST_DATABASE_URL` is set), driven through the real router without a socket.

#![allow(dead_code)]

use std::{
    collections::HashMap,
    net::SocketAddr,
    path::PathBuf,
    sync::{
        Arc, Mutex, OnceLock,
        atomic::{AtomicU64, Ordering},
    },
};

use api::{ApiConfig, AppState, Keys};
use axum::{
    Router,
    body::{Body, Bytes},
    extract::ConnectInfo,
    http::{HeaderMap, Method, Request, StatusCode, header},
};
use domain::{
    ids::{CompanyId, RoleId, UserId},
    user::BuiltinRole,
};
use http_body_util::BodyExt;
use rsa::{
    RsaPrivateKey,
    pkcs8::{EncodePrivateKey, LineEnding},
};
use serde_json::Value;
use service::mailer::Mailer;
use store::{Backend, Store, users::NewUser};
use tower::ServiceExt;
pub mod fake_vtn;
pub mod fixtures;
pub mod multipart;
pub mod settings_maps;

const RSA_SECRET: &str = "rsa_private_key_pkcs8";

/// One RSA key per test process: generating 2048-bit keys is slow in debug builds.
fn rsa_pem() -> &'static str {
    static PEM: OnceLock<String> = OnceLock::new();
    PEM.get_or_init(|| {
        let key = RsaPrivateKey::new(&mut rsa::rand_core::OsRng, 2048).expect("rsa key");
        key.to_pkcs8_pem(LineEnding::LF).expect("pem").to_string()
    })
}

/// Argon2 hashes by password, so that tests creating many users hash each password once.
fn hashed(password: &str) -> Option<String> {
    hashes().lock().expect("hash cache").get(password).cloned()
}

fn hashes() -> &'static Mutex<HashMap<String, String>> {
    static HASHES: OnceLock<Mutex<HashMap<String, String>>> = OnceLock::new();
    HASHES.get_or_init(Default::default)
}

fn unique() -> String {
    static N: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!(
        "{}_{}_{}",
        std::process::id(),
        nanos,
        N.fetch_add(1, Ordering::Relaxed)
    )
}

pub struct App {
    pub backend: &'static str,
    pub store: Store,
    pub state: AppState,
    pub router: Router,
    pub data_dir: PathBuf,
}

impl App {
    /// What the background jobs get from this app (`portal serve` builds it the same way).
    pub fn jobs(&self) -> jobs::Context {
        jobs::Context {
            store: self.store.clone(),
            mailer: self.state.mailer.clone(),
            commands: self.state.commands.clone(),
            ven: service::energy_hub::vtn::Ven {
                public_url: self.state.config.public_url.clone(),
                data_dir: self.state.config.data_dir.clone(),
            },
            vtn_nudges: self.state.vtn_nudges.clone(),
            figures: self.state.config.figures,
        }
    }
}

/// A fresh app on every available backend, with default configuration.
pub async fn spawn() -> Vec<App> {
    spawn_with(|_| {}).await
}

/// A fresh app on every available backend; `tune` adjusts the configuration first.
pub async fn spawn_with(tune: impl Fn(&mut ApiConfig)) -> Vec<App> {
    let stores = store::testing::all().await.expect("test stores");
    let mut apps = Vec::new();
    for store in stores {
        let backend = match store.backend() {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        };
        store
            .sync_builtin_roles(domain::time::now_ms())
            .await
            .expect("builtin roles");
        store
            .secret_or_insert(RSA_SECRET, rsa_pem())
            .await
            .expect("rsa secret");
        let keys = Keys::load_or_create(&store).await.expect("keys");
        let data_dir = std::env::temp_dir().join("portal-api-tests").join(unique());
        std::fs::create_dir_all(&data_dir).expect("data dir");
        let mut config = ApiConfig::new(data_dir.clone());
        tune(&mut config);
        let state = AppState {
            store: store.clone(),
            config: Arc::new(config),
            keys: Arc::new(keys),
            mailer: Arc::new(Mailer::new(None).expect("mailer")),
            metrics: None,
            commands: None,
            latest: None,
            caches: Default::default(),
            vtn_nudges: Default::default(),
        };
        let router = api::router(state.clone());
        apps.push(App {
            backend,
            store,
            state,
            router,
            data_dir,
        });
    }
    apps
}

/// An answer, with its body read and (when it is JSON) parsed.
#[derive(Debug)]
pub struct Resp {
    pub ctx: String,
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
    pub json: Value,
}

impl Resp {
    pub fn code(&self) -> i64 {
        self.json["code"]
            .as_i64()
            .unwrap_or_else(|| panic!("{}: no code in {}", self.ctx, self.text()))
    }

    pub fn msg(&self) -> &str {
        self.json["msg"].as_str().unwrap_or_default()
    }

    pub fn data(&self) -> &Value {
        &self.json["data"]
    }

    pub fn text(&self) -> String {
        let text = String::from_utf8_lossy(&self.body);
        text.chars().take(600).collect()
    }

    /// HTTP 200 with the given envelope code (and `success` matching it).
    #[track_caller]
    pub fn expect_code(&self, code: i64) -> &Self {
        assert_eq!(
            self.status,
            StatusCode::OK,
            "{}: HTTP status, body {}",
            self.ctx,
            self.text()
        );
        assert_eq!(
            self.code(),
            code,
            "{}: code, body {}",
            self.ctx,
            self.text()
        );
        assert_eq!(
            self.json["success"],
            Value::Bool(code == 0),
            "{}: success flag, body {}",
            self.ctx,
            self.text()
        );
        if code == 0 {
            assert_eq!(self.msg(), "Success", "{}", self.ctx);
        } else {
            assert!(!self.msg().is_empty(), "{}: empty msg", self.ctx);
        }
        self
    }

    /// The exact HTTP 401 clients expect.
    #[track_caller]
    pub fn expect_401(&self) {
        assert_eq!(
            self.status,
            StatusCode::UNAUTHORIZED,
            "{}: status, body {}",
            self.ctx,
            self.text()
        );
        assert_eq!(
            self.json,
            serde_json::json!({"code": 401, "msg": "Unauthorized", "success": false}),
            "{}",
            self.ctx
        );
    }
}

pub struct Tokens {
    pub access: String,
    pub refresh: String,
}

pub fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

impl App {
    pub fn request(&self, method: Method, uri: &str) -> axum::http::request::Builder {
        Request::builder().method(method).uri(uri)
    }

    /// Sends a request through the router. Every JSON answer must say it is JSON, and no
    /// answer may be a server error.
    pub async fn send(&self, req: Request<Body>) -> Resp {
        let ctx = format!("[{}] {} {}", self.backend, req.method(), req.uri());
        let ctx: String = ctx.chars().take(200).collect();
        let response = self
            .router
            .clone()
            .oneshot(req)
            .await
            .unwrap_or_else(|e| panic!("{ctx}: {e}"));
        let status = response.status();
        let headers = response.headers().clone();
        let body = response
            .into_body()
            .collect()
            .await
            .unwrap_or_else(|e| panic!("{ctx}: body {e}"))
            .to_bytes();
        let json: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        let resp = Resp {
            ctx,
            status,
            headers,
            body,
            json,
        };
        assert!(
            !resp.status.is_server_error(),
            "{}: server error {} {}",
            resp.ctx,
            resp.status,
            resp.text()
        );
        if resp.json.is_object() {
            let content_type = resp
                .headers
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default();
            // `application/manifest+json` (the web app manifest) is JSON too
            assert!(
                content_type.starts_with("application/json")
                    || content_type.starts_with("application/manifest+json"),
                "{}: JSON answered as {content_type:?}",
                resp.ctx
            );
        }
        resp
    }

    pub async fn get(&self, uri: &str, token: Option<&str>) -> Resp {
        let mut req = self.request(Method::GET, uri);
        if let Some(t) = token {
            req = req.header(header::AUTHORIZATION, bearer(t));
        }
        self.send(req.body(Body::empty()).expect("request")).await
    }

    pub async fn post(&self, uri: &str, body: Value, token: Option<&str>) -> Resp {
        self.post_raw(
            uri,
            "application/json",
            body.to_string().into_bytes(),
            token,
        )
        .await
    }

    pub async fn post_form(&self, uri: &str, form: &str, token: Option<&str>) -> Resp {
        self.post_raw(
            uri,
            "application/x-www-form-urlencoded",
            form.as_bytes().to_vec(),
            token,
        )
        .await
    }

    pub async fn post_raw(
        &self,
        uri: &str,
        content_type: &str,
        body: Vec<u8>,
        token: Option<&str>,
    ) -> Resp {
        let mut req = self
            .request(Method::POST, uri)
            .header(header::CONTENT_TYPE, content_type);
        if let Some(t) = token {
            req = req.header(header::AUTHORIZATION, bearer(t));
        }
        self.send(req.body(Body::from(body)).expect("request"))
            .await
    }

    /// A multipart form of `fields` and `file`.
    pub async fn post_multipart(
        &self,
        uri: &str,
        fields: &[(&str, &str)],
        file: Option<multipart::FilePart<'_>>,
        token: Option<&str>,
    ) -> Resp {
        let (content_type, body) = multipart::form(fields, file);
        self.post_raw(uri, &content_type, body, token).await
    }

    /// A multipart form of one file, in the field `file`.
    pub async fn upload(
        &self,
        uri: &str,
        file_name: &str,
        content_type: &str,
        bytes: &[u8],
        token: Option<&str>,
    ) -> Resp {
        let file = multipart::FilePart {
            field: "file",
            name: file_name,
            content_type,
            bytes,
        };
        self.post_multipart(uri, &[], Some(file), token).await
    }

    /// A JSON POST that appears to come from `ip`.
    pub async fn post_from(&self, ip: [u8; 4], uri: &str, body: Value) -> Resp {
        let mut req = self
            .request(Method::POST, uri)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .expect("request");
        req.extensions_mut()
            .insert(ConnectInfo(SocketAddr::from((ip, 40000))));
        self.send(req).await
    }

    pub async fn company(&self, name: &str) -> CompanyId {
        self.store
            .create_company(name, domain::time::now_ms())
            .await
            .expect("company")
    }

    pub async fn role(&self, role: BuiltinRole) -> RoleId {
        self.store.builtin_role(role).await.expect("builtin role")
    }

    /// Creates an account directly in the store.
    pub async fn user(
        &self,
        account: &str,
        password: &str,
        role: BuiltinRole,
        company: Option<CompanyId>,
    ) -> UserId {
        let hash = match hashed(password) {
            Some(h) => h,
            None => {
                let h = service::passwords::hash(password.to_string())
                    .await
                    .expect("hash");
                hashes()
                    .lock()
                    .expect("hash cache")
                    .insert(password.to_string(), h.clone());
                h
            }
        };
        let role_id = self.role(role).await;
        let is_email = account.contains('@');
        self.store
            .create_user(&NewUser {
                account,
                email: if is_email { account } else { "" },
                mobile: if is_email { "" } else { account },
                password_hash: &hash,
                nickname: account.split('@').next().unwrap_or_default(),
                kind: role.user_kind(),
                company,
                role: Some(role_id),
                user_src: "test",
                now: domain::time::now_ms(),
            })
            .await
            .expect("create user")
    }

    pub async fn login_resp(&self, account: &str, password: &str) -> Resp {
        self.post(
            "/oauth/token",
            serde_json::json!({"username": account, "password": password,
                "grant_type": "password", "client_id": "csp-web"}),
            None,
        )
        .await
    }

    /// Signs in and returns the tokens (asserting success).
    pub async fn login(&self, account: &str, password: &str) -> Tokens {
        let r = self.login_resp(account, password).await;
        r.expect_code(0);
        Tokens {
            access: r.data()["access_token"]
                .as_str()
                .expect("access_token")
                .to_string(),
            refresh: r.data()["refresh_token"]
                .as_str()
                .expect("refresh_token")
                .to_string(),
        }
    }

    /// A user of the given role, signed in.
    pub async fn signed_in(
        &self,
        account: &str,
        role: BuiltinRole,
        company: Option<CompanyId>,
    ) -> (UserId, String) {
        let id = self.user(account, "secret123", role, company).await;
        let tokens = self.login(account, "secret123").await;
        (id, tokens.access)
    }

    pub async fn refresh(&self, refresh_token: &str) -> Resp {
        self.post(
            "/oauth/token",
            serde_json::json!({"grant_type": "refresh_token", "refresh_token": refresh_token}),
            None,
        )
        .await
    }

    /// The newest verification code delivered to `account` (read from the outbox, the
    /// documented delivery when no SMTP server is configured). Sign-in codes are delivered just
    /// after the answer, so this waits a moment for one to arrive.
    pub async fn last_code(&self, account: &str) -> String {
        let body = self
            .wait_for_message(account)
            .await
            .unwrap_or_else(|| panic!("[{}] no message for {account}", self.backend));
        six_digits(&body).unwrap_or_else(|| panic!("[{}] no code in {body:?}", self.backend))
    }

    /// The newest message for `account`, waiting up to two seconds for one.
    pub async fn wait_for_message(&self, account: &str) -> Option<String> {
        for _ in 0..40 {
            let rows = self.store.outbox(Some(account), 1).await.expect("outbox");
            if let Some(row) = rows.into_iter().next() {
                return Some(row.body);
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        None
    }

    /// A GET that appears to come from `ip`.
    pub async fn get_from(&self, ip: [u8; 4], uri: &str) -> Resp {
        let mut req = self
            .request(Method::GET, uri)
            .body(Body::empty())
            .expect("request");
        req.extensions_mut()
            .insert(ConnectInfo(SocketAddr::from((ip, 40000))));
        self.send(req).await
    }
}

/// The first run of exactly six digits in a text.
pub fn six_digits(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            if i - start == 6 {
                return Some(chars[start..i].iter().collect());
            }
        } else {
            i += 1;
        }
    }
    None
}

/// Runs futures concurrently on the test's runtime (no extra dependency needed) and answers
/// their outputs in order.
pub async fn join_all<T, F: std::future::Future<Output = T>>(
    futures: impl IntoIterator<Item = F>,
) -> Vec<T> {
    let mut pending: Vec<_> = futures.into_iter().map(|f| Some(Box::pin(f))).collect();
    let mut done: Vec<Option<T>> = pending.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut all_done = true;
        for (slot, out) in pending.iter_mut().zip(done.iter_mut()) {
            if let Some(f) = slot {
                match f.as_mut().poll(cx) {
                    std::task::Poll::Ready(v) => {
                        *out = Some(v);
                        *slot = None;
                    }
                    std::task::Poll::Pending => all_done = false,
                }
            }
        }
        if all_done {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    })
    .await;
    done.into_iter().flatten().collect()
}
