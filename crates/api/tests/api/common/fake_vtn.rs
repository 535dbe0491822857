//! A scripted OpenADR VTN on loopback for the energy hub's VEN tests: what a VTN answers
//! (both versions' paths), scripted per test, and every request body the VEN sent, with the
//! OpenAPI path template of its operation.

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::{delete, get, post, put};
use axum::{Json, Router};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// What the scripted VTN answers; tests change it between syncs.
#[derive(Default)]
pub struct Script {
    pub base: String,
    pub events: Value,
    /// Answer to the resource create: None = 201.
    pub resource_fails: Option<(u16, Value)>,
    pub ven_conflict: bool,
    /// `GET /notifiers` answers `WEBHOOK: false` (3.1).
    pub no_webhooks: bool,
    /// Subscriptions with CREATE/UPDATE/DELETE answer 400 (the reference VTN 3.0.1 takes only
    /// HTTP verbs).
    pub verbs_only: bool,
    /// Subscription ids deleted.
    pub unsubscribed: Vec<String>,
    /// (method, path template, body) of every request that carried a body.
    pub sent: Vec<(String, String, Value)>,
}

pub type Shared = Arc<Mutex<Script>>;

pub fn lock(s: &Shared) -> std::sync::MutexGuard<'_, Script> {
    s.lock().unwrap_or_else(|e| e.into_inner())
}

fn record(s: &Shared, method: &str, template: &str, body: &Value) {
    lock(s)
        .sent
        .push((method.into(), template.into(), body.clone()));
}

fn answer(status: u16, body: Value) -> (StatusCode, Json<Value>) {
    (
        StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
        Json(body),
    )
}

/// Serves on a loopback port until the test ends.
pub async fn fake_vtn() -> Shared {
    let shared: Shared = Arc::new(Mutex::new(Script {
        events: json!([]),
        ..Default::default()
    }));
    let resources = |template: &'static str| {
        move |State(s): State<Shared>, Json(body): Json<Value>| async move {
            record(&s, "POST", template, &body);
            let fail = lock(&s).resource_fails.clone();
            match fail {
                Some((status, problem)) => answer(status, problem),
                None => answer(
                    201,
                    json!({"id": "res-1", "resourceName": body["resourceName"]}),
                ),
            }
        }
    };
    let app = Router::new()
        .route(
            "/auth/server",
            get(|State(s): State<Shared>| async move {
                let base = lock(&s).base.clone();
                Json(json!({"tokenURL": format!("{base}/auth/token")}))
            }),
        )
        .route(
            "/auth/token",
            post(|| async { Json(json!({"access_token": "tok", "token_type": "Bearer"})) }),
        )
        .route(
            "/vens",
            get(|| async { Json(json!([])) }).post(
                |State(s): State<Shared>, Json(body): Json<Value>| async move {
                    record(&s, "POST", "/vens", &body);
                    if lock(&s).ven_conflict {
                        return answer(
                            409,
                            json!({"type": "about:blank", "title": "Conflict", "status": 409}),
                        );
                    }
                    answer(201, json!({"id": "ven-1", "venName": body["venName"]}))
                },
            ),
        )
        .route(
            "/programs",
            get(|| async {
                Json(json!([{"id": "prog-1", "createdDateTime": "2026-11-22T09:00:00Z",
                    "modificationDateTime": "2026-11-22T09:00:00Z", "objectType": "PROGRAM",
                    "programName": "odd-events"},
                    {"id": "prog-bad", "objectType": "PROGRAM"}]))
            }),
        )
        .route(
            "/resources",
            get(|| async { Json(json!([])) }).post(resources("/resources")),
        )
        .route(
            "/vens/{ven}/resources",
            get(|| async { Json(json!([])) }).post(resources("/vens/{venID}/resources")),
        )
        .route(
            "/events",
            get(
                |State(s): State<Shared>, Query(q): Query<HashMap<String, String>>| async move {
                    let skip: usize = q.get("skip").and_then(|v| v.parse().ok()).unwrap_or(0);
                    let events = lock(&s).events.clone();
                    match (q.get("programID").map(String::as_str), skip) {
                        (Some("prog-1"), 0) => Json(events),
                        _ => Json(json!([])),
                    }
                },
            ),
        )
        .route(
            "/notifiers",
            get(|State(s): State<Shared>| async move {
                let offered = !lock(&s).no_webhooks;
                Json(json!({"WEBHOOK": offered}))
            }),
        )
        .route(
            "/subscriptions",
            post(|State(s): State<Shared>, Json(body): Json<Value>| async move {
                record(&s, "POST", "/subscriptions", &body);
                let crud = body["objectOperations"][0]["operations"][0] == "CREATE";
                if crud && lock(&s).verbs_only {
                    return answer(400, json!({"title": "Bad Request", "detail": "'CREATE' is not one of ['GET', 'POST', 'PUT', 'DELETE']"}));
                }
                let n = lock(&s).sent.len();
                answer(201, json!({"id": format!("sub-{n}")}))
            }),
        )
        .route(
            "/subscriptions/{id}",
            delete(|State(s): State<Shared>, Path(id): Path<String>| async move {
                lock(&s).unsubscribed.push(id);
                answer(200, json!({}))
            }),
        )
        .route(
            "/reports",
            post(|State(s): State<Shared>, Json(body): Json<Value>| async move {
                record(&s, "POST", "/reports", &body);
                answer(201, json!({"id": "rep-1"}))
            }),
        )
        .route(
            "/reports/{id}",
            put(
                |State(s): State<Shared>, Path(_id): Path<String>, Json(body): Json<Value>| async move {
                    record(&s, "PUT", "/reports/{reportID}", &body);
                    answer(200, json!({"id": "rep-1"}))
                },
            ),
        )
        .with_state(shared.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    lock(&shared).base = format!("http://{}", listener.local_addr().expect("addr"));
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    shared
}

/// With OADR_RECORD_DIR set: one file per body, `{"version", "method", "path", "body"}`.
pub fn save_for_the_validator(test: &str, version: &str, sent: &[(String, String, Value)]) {
    let Some(dir) = std::env::var_os("OADR_RECORD_DIR") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    std::fs::create_dir_all(&dir).expect("record dir");
    for (n, (method, template, body)) in sent.iter().enumerate() {
        let file = dir.join(format!(
            "{test}-{}-{n:02}-{}.json",
            version.replace('.', ""),
            method.to_lowercase()
        ));
        let record = json!({"version": version, "method": method, "path": template, "body": body});
        std::fs::write(file, record.to_string()).expect("record");
    }
}

/// The required fields and enums of the operation's request schema, per version, as the
/// OpenAPI documents of OpenADR 3.0.1 and 3.1.0 state them (3.0.1: `ven`, `resource`, `report`
/// with `reportPayloadDescriptor`, `subscription`; 3.1.0: `VenVenRequest`,
/// `VenResourceRequest`, `reportRequest`, `subscriptionRequest`). Answers the violations found.
pub fn schema_errors(version: &str, method: &str, template: &str, body: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    let mut need = |v: &Value, path: &str, key: &str| {
        if v.get(key).is_none_or(Value::is_null) {
            errors.push(format!("{path}.{key} is required"));
        }
    };
    let v31 = version == "3.1.0";
    match (method, template) {
        ("POST", "/vens") => {
            need(body, "ven", "venName");
            if v31 {
                need(body, "ven", "objectType");
            }
        }
        ("POST", "/resources") | ("POST", "/vens/{venID}/resources") => {
            need(body, "resource", "resourceName");
            if v31 {
                need(body, "resource", "objectType");
                need(body, "resource", "venID");
            }
        }
        ("POST", "/reports") | ("PUT", "/reports/{reportID}") => {
            for k in ["eventID", "clientName", "resources"] {
                need(body, "report", k);
            }
            if !v31 {
                need(body, "report", "programID");
            }
            for d in body["payloadDescriptors"].as_array().into_iter().flatten() {
                need(d, "payloadDescriptor", "payloadType");
                if v31 {
                    need(d, "payloadDescriptor", "objectType");
                }
            }
            for r in body["resources"].as_array().into_iter().flatten() {
                need(r, "resource", "resourceName");
                need(r, "resource", "intervals");
                for i in r["intervals"].as_array().into_iter().flatten() {
                    need(i, "interval", "id");
                    need(i, "interval", "payloads");
                    for p in i["payloads"].as_array().into_iter().flatten() {
                        need(p, "valuesMap", "type");
                        need(p, "valuesMap", "values");
                    }
                }
            }
        }
        ("POST", "/subscriptions") => {
            need(body, "subscription", "clientName");
            need(body, "subscription", "objectOperations");
            if !v31 {
                need(body, "subscription", "programID");
            }
            let mut bad_ops = Vec::new();
            for o in body["objectOperations"].as_array().into_iter().flatten() {
                for k in ["objects", "operations", "callbackUrl"] {
                    need(o, "objectOperation", k);
                }
                for op in o["operations"].as_array().into_iter().flatten() {
                    if !["READ", "CREATE", "UPDATE", "DELETE"]
                        .iter()
                        .any(|a| op == a)
                    {
                        bad_ops.push(format!("operation {op} is not in the schema's enum"));
                    }
                }
            }
            errors.extend(bad_ops);
        }
        _ => errors.push(format!("no schema known for {method} {template}")),
    }
    let enums: &[(&str, &str)] = match (v31, template) {
        (true, "/vens") => &[("objectType", "VEN_VEN_REQUEST")],
        (true, "/resources") => &[("objectType", "VEN_RESOURCE_REQUEST")],
        (false, "/vens") => &[("objectType", "VEN")],
        (false, "/vens/{venID}/resources") => &[("objectType", "RESOURCE")],
        (_, "/subscriptions") => &[("objectType", "SUBSCRIPTION")],
        (_, _) => &[("objectType", "REPORT")],
    };
    for (key, allowed) in enums {
        if let Some(v) = body.get(*key)
            && v != allowed
        {
            errors.push(format!("{key} is {v}, the schema allows {allowed}"));
        }
    }
    if v31 && template.contains("reports") {
        if body.get("programID").is_some() {
            errors.push("3.1.0 reports have no programID".into());
        }
        for d in body["payloadDescriptors"].as_array().into_iter().flatten() {
            if d["objectType"] != "REPORT_PAYLOAD_DESCRIPTOR" {
                errors.push(format!(
                    "payloadDescriptor objectType is {}",
                    d["objectType"]
                ));
            }
        }
    }
    errors
}
