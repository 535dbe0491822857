//! Webhook subscriptions: the VTN calls the portal back when events change, so a change
//! arrives at once instead of at the next poll. Polling stays the source of truth; a
//! notification only triggers a sync.
//!
//! 3.1.0 says whether it delivers webhooks in `GET /notifiers` (`WEBHOOK`); one subscription
//! without `programID` covers every programme. 3.0.1 has subscriptions in its API and needs one
//! per programme. Both documents name the operations `CREATE`/`UPDATE`/`DELETE`; the reference
//! VTN 3.0.1 accepts only HTTP verbs and answers 400, so a 400 is retried once with
//! `POST`/`PUT`/`DELETE`.

use crate::ven::{VtnClient, ok};
use crate::{Error, Version, neutral};
use ::http::Method;
use serde_json::{Value, json};

/// What to subscribe: where the VTN calls and the token it sends there.
pub struct Callback<'a> {
    pub url: &'a str,
    pub bearer: &'a str,
}

impl VtnClient {
    /// Whether the VTN delivers webhooks (3.1: `GET /notifiers` says `WEBHOOK: true`).
    pub async fn offers_webhooks(&self) -> Result<bool, Error> {
        match self.version() {
            Version::V301 => Ok(true),
            Version::V310 => {
                let r = self
                    .call(Method::GET, &self.url("notifiers", &[])?, None)
                    .await?;
                if matches!(r.status, 404 | 501) {
                    return Ok(false);
                }
                let v: Value = serde_json::from_slice(&ok(r)?)
                    .map_err(|e| Error::Decode(format!("notifiers: {e}")))?;
                Ok(v.get("WEBHOOK").and_then(Value::as_bool).unwrap_or(false))
            }
        }
    }

    /// Subscribes to changes of events (3.1: and programmes) of `program` (3.0.1 needs one;
    /// 3.1 takes `None` for all of them). Answers the subscription's id.
    pub async fn subscribe(
        &self,
        client_name: &str,
        program: Option<&str>,
        callback: &Callback<'_>,
    ) -> Result<String, Error> {
        let url = self.url("subscriptions", &[])?;
        let first = subscription(self.version(), client_name, program, callback, false);
        let r = self.call(Method::POST, &url, Some(&first)).await?;
        let r = if r.status == 400 {
            let verbs = subscription(self.version(), client_name, program, callback, true);
            self.call(Method::POST, &url, Some(&verbs)).await?
        } else {
            r
        };
        neutral::created_id(&ok(r)?)
    }

    /// Removes a subscription; one already gone counts as removed.
    pub async fn unsubscribe(&self, id: &str) -> Result<(), Error> {
        let url = self.url(&format!("subscriptions/{id}"), &[])?;
        let r = self.call(Method::DELETE, &url, None).await?;
        if r.status == 404 {
            return Ok(());
        }
        ok(r).map(|_| ())
    }
}

/// A subscription request; `verbs`: the reference VTN 3.0.1's HTTP-verb operations.
pub fn subscription(
    version: Version,
    client_name: &str,
    program: Option<&str>,
    callback: &Callback<'_>,
    verbs: bool,
) -> Value {
    let operations = if verbs {
        ["POST", "PUT", "DELETE"]
    } else {
        ["CREATE", "UPDATE", "DELETE"]
    };
    let objects: &[&str] = match version {
        Version::V301 => &["EVENT"],
        Version::V310 => &["PROGRAM", "EVENT"],
    };
    let mut body = json!({
        "clientName": client_name,
        "objectOperations": [{
            "objects": objects,
            "operations": operations,
            "callbackUrl": callback.url,
            "bearerToken": callback.bearer,
        }],
    });
    if let Some(p) = program {
        body["programID"] = json!(p);
    }
    body
}
