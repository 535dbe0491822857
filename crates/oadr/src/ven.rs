//! The VEN's calls to a VTN: OAuth client credentials (a new token on 401), programmes,
//! events, create-or-get of our ven and of one resource per enrolled plant, reports.

use crate::http::{self, Body, Response};
use crate::neutral::{self, Docs};
use crate::{Error, Version};
use ::http::Method;
use serde_json::{Value, json};
use std::fmt;
use tokio::sync::Mutex;
use url::Url;

/// OpenADR lists answer at most 50 objects a page.
const PAGE: usize = 50;
/// Pages read at most (5 000 objects): a safety stop against a VTN that ignores `skip`.
const MAX_PAGES: usize = 100;

/// The credentials the utility issued. `Debug` never shows the secret.
#[derive(Clone)]
pub struct Credentials {
    pub client_id: String,
    pub client_secret: String,
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("client_id", &"<redacted>")
            .finish()
    }
}

pub struct VtnClient {
    base: Url,
    version: Version,
    creds: Credentials,
    token: Mutex<Option<String>>,
}

impl fmt::Debug for VtnClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VtnClient")
            .field("base", &self.base.as_str())
            .field("version", &self.version)
            .finish()
    }
}

impl VtnClient {
    pub fn new(base: &str, version: Version, creds: Credentials) -> Result<Self, Error> {
        let mut base = Url::parse(base).map_err(|e| Error::Config(format!("VTN URL: {e}")))?;
        if !matches!(base.scheme(), "http" | "https") {
            return Err(Error::Config("VTN URL must be http(s)".into()));
        }
        if !base.path().ends_with('/') {
            let path = format!("{}/", base.path());
            base.set_path(&path);
        }
        Ok(Self {
            base,
            version,
            creds,
            token: Mutex::new(None),
        })
    }

    pub fn version(&self) -> Version {
        self.version
    }

    pub(crate) fn url(&self, path: &str, query: &[(&str, &str)]) -> Result<Url, Error> {
        let mut url = self
            .base
            .join(path.trim_start_matches('/'))
            .map_err(|e| Error::Config(format!("VTN path {path}: {e}")))?;
        if !query.is_empty() {
            url.query_pairs_mut().extend_pairs(query);
        }
        Ok(url)
    }

    /// A fresh token: 3.1 asks `GET /auth/server` for the token URL, 3.0 uses `/auth/token`.
    async fn fetch_token(&self) -> Result<String, Error> {
        let token_url = match self.version {
            Version::V301 => self.url("auth/token", &[])?,
            Version::V310 => {
                let r =
                    ok(http::send(Method::GET, &self.url("auth/server", &[])?, None, None).await?)?;
                let v: Value =
                    serde_json::from_slice(&r).map_err(|e| Error::decode("auth/server", e))?;
                let u = v
                    .get("tokenURL")
                    .and_then(Value::as_str)
                    .ok_or_else(|| Error::Decode("auth/server without tokenURL".into()))?;
                Url::parse(u).map_err(|e| Error::Decode(format!("tokenURL: {e}")))?
            }
        };
        let form = form_urlencoded::Serializer::new(String::new())
            .append_pair("grant_type", "client_credentials")
            .append_pair("client_id", &self.creds.client_id)
            .append_pair("client_secret", &self.creds.client_secret)
            .finish();
        let body = Body {
            content_type: "application/x-www-form-urlencoded",
            bytes: form.into_bytes(),
        };
        let r = ok(http::send(Method::POST, &token_url, None, Some(body)).await?)?;
        // `scope` may be a string or (reference VTN) an array; `expires_in` may be missing.
        let v: Value = serde_json::from_slice(&r).map_err(|e| Error::decode("token", e))?;
        v.get("access_token")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| Error::Decode("token answer without access_token".into()))
    }

    /// Checks the credentials now (a new token).
    pub async fn authenticate(&self) -> Result<(), Error> {
        let t = self.fetch_token().await?;
        *self.token.lock().await = Some(t);
        Ok(())
    }

    /// One call with the bearer token; on 401 one new token and one retry.
    pub(crate) async fn call(
        &self,
        method: Method,
        url: &Url,
        body: Option<&Value>,
    ) -> Result<Response, Error> {
        let mut retried = false;
        loop {
            let token = {
                let mut guard = self.token.lock().await;
                match guard.as_ref() {
                    Some(t) => t.clone(),
                    None => {
                        let t = self.fetch_token().await?;
                        *guard = Some(t.clone());
                        t
                    }
                }
            };
            let b = body.map(|v| Body {
                content_type: "application/json",
                bytes: v.to_string().into_bytes(),
            });
            let r = http::send(method.clone(), url, Some(&token), b).await?;
            if r.status == 401 && !retried {
                retried = true;
                *self.token.lock().await = None;
                continue;
            }
            return Ok(r);
        }
    }

    async fn get_all(&self, path: &str, query: &[(&str, &str)]) -> Result<Vec<Value>, Error> {
        let mut all = Vec::new();
        for page in 0..MAX_PAGES {
            let skip = (page * PAGE).to_string();
            let limit = PAGE.to_string();
            let mut q = query.to_vec();
            q.push(("skip", &skip));
            q.push(("limit", &limit));
            let body = ok(self.call(Method::GET, &self.url(path, &q)?, None).await?)?;
            let items: Vec<Value> =
                serde_json::from_slice(&body).map_err(|e| Error::decode(path, e))?;
            let n = items.len();
            all.extend(items);
            if n < PAGE {
                break;
            }
        }
        Ok(all)
    }

    fn bytes(items: &[Value]) -> Vec<u8> {
        Value::Array(items.to_vec()).to_string().into_bytes()
    }

    /// The programmes this VEN may see; ones the wire type refuses are listed apart.
    pub async fn programs(&self) -> Result<Docs, Error> {
        let items = self.get_all("programs", &[]).await?;
        neutral::program_docs(self.version, &Self::bytes(&items))
    }

    /// A programme's events; ones the wire type refuses are listed apart.
    pub async fn events(&self, program_id: &str) -> Result<Docs, Error> {
        let items = self.get_all("events", &[("programID", program_id)]).await?;
        neutral::event_docs(self.version, &Self::bytes(&items))
    }

    /// Our ven's id: the one named `ven_name` this client may see, else a new one.
    pub async fn ensure_ven(&self, ven_name: &str) -> Result<String, Error> {
        let vens = self.get_all("vens", &[("venName", ven_name)]).await?;
        let found = neutral::named_ids(&Self::bytes(&vens), "venName")?;
        if let Some((id, _)) = found.into_iter().find(|(_, n)| n == ven_name) {
            return Ok(id);
        }
        let object_type = match self.version {
            Version::V301 => "VEN",
            Version::V310 => "VEN_VEN_REQUEST",
        };
        let body = json!({"objectType": object_type, "venName": ven_name});
        let r = self
            .call(Method::POST, &self.url("vens", &[])?, Some(&body))
            .await?;
        if r.status == 409 {
            // The name exists but is not ours to see: another client's ven.
            let problem = crate::error::problem_detail(r.status, &r.body);
            return Err(Error::Status {
                status: 409,
                detail: format!(
                    "venName \"{ven_name}\" belongs to another client on this VTN; choose another name ({problem})"
                )
                .chars()
                .take(300)
                .collect(),
            });
        }
        neutral::created_id(&ok(r)?)
    }

    fn resources_path(&self, ven_id: &str) -> String {
        match self.version {
            Version::V301 => format!("vens/{ven_id}/resources"),
            Version::V310 => "resources".into(),
        }
    }

    /// The id of our resource named `name`, created with `attributes` if missing.
    pub async fn ensure_resource(
        &self,
        ven_id: &str,
        name: &str,
        attributes: Value,
    ) -> Result<String, Error> {
        let path = self.resources_path(ven_id);
        let query: Vec<(&str, &str)> = match self.version {
            Version::V301 => vec![("resourceName", name)],
            Version::V310 => vec![("venID", ven_id), ("resourceName", name)],
        };
        let items = self.get_all(&path, &query).await?;
        if let Some((id, _)) = neutral::named_ids(&Self::bytes(&items), "resourceName")?
            .into_iter()
            .find(|(_, n)| n == name)
        {
            return Ok(id);
        }
        let body = match self.version {
            Version::V301 => {
                json!({"objectType": "RESOURCE", "resourceName": name, "venID": ven_id, "attributes": attributes})
            }
            // 3.1.0's VenResourceRequest requires venID.
            Version::V310 => {
                json!({"objectType": "VEN_RESOURCE_REQUEST", "resourceName": name, "venID": ven_id, "attributes": attributes})
            }
        };
        let r = ok(self
            .call(Method::POST, &self.url(&path, &[])?, Some(&body))
            .await?)?;
        neutral::created_id(&r)
    }

    /// Removes our resource; one already gone counts as removed.
    pub async fn delete_resource(&self, ven_id: &str, resource_id: &str) -> Result<(), Error> {
        let path = format!("{}/{resource_id}", self.resources_path(ven_id));
        let r = self
            .call(Method::DELETE, &self.url(&path, &[])?, None)
            .await?;
        if r.status == 404 {
            return Ok(());
        }
        ok(r).map(|_| ())
    }

    /// Sends a report: `PUT /reports/{id}` when it was sent before, else `POST`; the report id.
    pub async fn send_report(
        &self,
        remote_id: Option<&str>,
        report: &Value,
    ) -> Result<String, Error> {
        if let Some(id) = remote_id {
            let url = self.url(&format!("reports/{id}"), &[])?;
            let r = self.call(Method::PUT, &url, Some(report)).await?;
            if r.status != 404 {
                ok(r)?;
                return Ok(id.to_owned());
            }
        }
        let r = ok(self
            .call(Method::POST, &self.url("reports", &[])?, Some(report))
            .await?)?;
        neutral::created_id(&r)
    }
}

/// The body of a 2xx answer, else the VTN's problem as an error.
pub(crate) fn ok(r: Response) -> Result<hyper::body::Bytes, Error> {
    if (200..300).contains(&r.status) {
        Ok(r.body)
    } else {
        Err(Error::Status {
            status: r.status,
            detail: crate::error::problem_detail(r.status, &r.body),
        })
    }
}
