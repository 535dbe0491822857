//! The energy hub's VEN against a scripted VTN on loopback, for both OpenADR versions: what an
//! independent VTN may send that openleadr-vtn never does, and every request body the VEN
//! sends checked against the published schema of its operation.
//!
//! - Odd events (a `start` that is not a date, a negative duration, 3.1's `intervalPeriod`
//!   without `start`, an event without id) are skipped and listed on the connection; the good
//!   event still applies and its report still goes out.
//! - `DISPATCH_SETPOINT` is mirrored as a charge (the battery's consumption).
//! - A report type the portal cannot produce is listed on the enrollment.
//! - A 400 on our resource request leaves the enrollment pending and shows the VTN's problem on
//!   the connection; a 409 on the venName answers 1011 with a clear message.
//! - Schemas (checked on every recorded body): the required fields and enums of the 3.0.1 and
//!   3.1.0 OpenAPI documents for `POST /vens`, the resource create, `POST`/`PUT /reports`.
//!   With `OADR_RECORD_DIR` set, the bodies are also written there, and tests/oadr/schemas.sh
//!   validates them against the published 3.1.0 document with a JSON-schema validator.

mod common;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post, put};
use axum::{Json, Router};
use chrono::Utc;
use common::App;
use common::fixtures::{bound_gateway, people, plant, sample};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use store::telemetry::TelemetryBatch;

#[derive(Default)]
struct Script {
    base: String,
    events: Value,
    /// Answer to the resource create: None = 201.
    resource_fails: Option<(u16, Value)>,
    ven_conflict: bool,
    /// (method, path template, body) of every request that carried a body.
    sent: Vec<(String, String, Value)>,
}

type Shared = Arc<Mutex<Script>>;

fn lock(s: &Shared) -> std::sync::MutexGuard<'_, Script> {
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

async fn fake_vtn() -> Shared {
    let shared: Shared = Arc::new(Mutex::new(Script::default()));
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

fn rfc3339(t: i64) -> String {
    chrono::DateTime::from_timestamp(t, 0)
        .unwrap_or_default()
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

/// The good event (started ten minutes ago, export limit 3.5 kW, DEMAND and BASELINE reports
/// asked), a DISPATCH_SETPOINT tomorrow, and the odd ones of the version.
fn events(version: &str, now: i64) -> Value {
    let meta = |id: &str| {
        json!({"id": id, "createdDateTime": "2026-11-22T09:00:00Z",
            "modificationDateTime": "2026-11-22T09:00:00Z", "objectType": "EVENT", "programID": "prog-1"})
    };
    let with = |id: &str, extra: Value| {
        let mut e = meta(id);
        if let (Some(e), Some(x)) = (e.as_object_mut(), extra.as_object()) {
            e.extend(x.clone());
        }
        e
    };
    let simple = json!([{"id": 0, "payloads": [{"type": "SIMPLE", "values": [3]}]}]);
    let mut list = vec![
        with(
            "good",
            json!({"eventName": "export cap", "priority": 1,
            "reportDescriptors": [{"payloadType": "DEMAND", "readingType": "MEAN", "units": "KW"},
                                  {"payloadType": "BASELINE", "readingType": "FORECAST", "units": "KW"}],
            "intervalPeriod": {"start": rfc3339(now - 600), "duration": "PT1H"},
            "intervals": [{"id": 0, "payloads": [{"type": "EXPORT_CAPACITY_LIMIT", "values": [3.5]}]}]}),
        ),
        with(
            "setpoint",
            json!({"intervalPeriod": {"start": rfc3339(now + 86_400), "duration": "PT1H"},
            "reportDescriptors": [{"payloadType": "STORAGE_CHARGE_LEVEL"}],
            "intervals": [{"id": 0, "payloads": [{"type": "DISPATCH_SETPOINT", "values": [2.0]}]}]}),
        ),
        with(
            "not-a-date",
            json!({"intervalPeriod": {"start": "tomorrow at six", "duration": "PT1H"}, "intervals": simple}),
        ),
        with(
            "negative",
            json!({"intervalPeriod": {"start": rfc3339(now), "duration": "-PT1H"}, "intervals": simple}),
        ),
        json!({"objectType": "EVENT", "programID": "prog-1", "intervals": simple}),
    ];
    if version == "3.1.0" {
        list.push(with(
            "no-start",
            json!({"intervalPeriod": {"duration": "PT1H"}, "intervals": simple}),
        ));
    }
    Value::Array(list)
}

async fn enroll(app: &App, plant: i64, sn: &str) {
    let now = api::now_ms();
    let sql = format!(
        "INSERT INTO dr_enrollments (program_id, plant_id, status, source_account, utility_account, \
         first_name, last_name, email, time_zone, created_at, updated_at) \
         SELECT id, {plant}, 'pending', '123456', 'acct-1', 'Ann', 'Lee', 'ann@example.com', \
         'Europe/Madrid', {now}, {now} FROM dr_programs WHERE remote_id = 'prog-1'; \
         INSERT INTO dr_enrollment_devices (enrollment_id, sn, charge_kw, discharge_kw, storage_kwh, added_at) \
         SELECT id, '{sn}', 3, 5, 10, {now} FROM dr_enrollments WHERE plant_id = {plant};"
    );
    app.store
        .run_script_for_tests(Box::leak(sql.into_boxed_str()))
        .await
        .expect("enrollment");
}

async fn sync(app: &App, admin: &str, id: i64) -> common::Resp {
    app.post(
        &format!("/api/v1/oadr/vtn/{id}/sync"),
        json!({}),
        Some(admin),
    )
    .await
}

#[tokio::test]
async fn odd_events_are_skipped_and_listed_while_the_rest_apply_on_both_versions() {
    for app in common::spawn().await {
        let p = people(&app).await;
        for version in ["3.1.0", "3.0.1"] {
            scenario(&app, &p, version).await;
        }
    }
}

async fn scenario(app: &App, p: &common::fixtures::People, version: &'static str) {
    let b = format!("{} {version}", app.backend);
    let vtn = fake_vtn().await;
    let now = Utc::now().timestamp();
    lock(&vtn).events = events(version, now);
    lock(&vtn).resource_fails = Some((
        400,
        json!({"title": "Bad Request", "status": 400, "detail": "venID is a required property"}),
    ));
    let base = lock(&vtn).base.clone();
    let body = json!({"name": format!("Odd {version}"), "url": base, "version": version,
        "clientId": "ven-client", "clientSecret": "ven-secret", "venName": "portal-odd", "enabled": false});
    let r = app.post("/api/v1/oadr/vtn", body, Some(&p.admin)).await;
    r.expect_code(0);
    let id = r.data()["id"].as_i64().expect("vtn id");

    // The programmes: the readable one is mirrored, the other is listed as refused.
    sync(app, &p.admin, id).await.expect_code(0);
    let plant_id = plant(
        app,
        &p.ann,
        common::fixtures::madrid_plant(&format!("Odd {version}"), 2, 5),
    )
    .await;
    let tag = version.replace('.', "");
    let gw = bound_gateway(app, &p.admin, &p.ann, plant_id, &format!("GW-ODD-{tag}")).await;
    let sn = format!("INV-ODD-{tag}");
    let dev = app
        .store
        .upsert_device(&sn, gw, "inverter", 2, "p", "SUN-5K", None, api::now_ms())
        .await
        .expect("device");
    enroll(app, plant_id, &sn).await;
    let batch = TelemetryBatch {
        samples: vec![sample(
            dev,
            (now - 120) * 1000,
            &json!({"grid_power": 1200.0, "battery_soc": 60.0}),
        )],
        energy: vec![],
    };
    app.store
        .write_telemetry_batch(&batch)
        .await
        .expect("telemetry");

    // Our resource request is refused as malformed: our bug, not the utility's answer.
    let r = sync(app, &p.admin, id).await;
    r.expect_code(0);
    assert_eq!(r.data()["rejected"], 0, "{b}: {}", r.text());
    let problems = r.data()["problems"].to_string();
    assert!(
        problems.contains("venID is a required property"),
        "{b}: {problems}"
    );
    let enr = app.store.vtn_enrollments(id).await.expect("enrollments");
    assert_eq!(enr[0].status, "pending", "{b}: tried again later");
    let conn = connection(app, &p.admin, id).await;
    assert!(
        conn["lastError"]
            .as_str()
            .unwrap_or_default()
            .contains("Bad Request: venID is a required property"),
        "{b}: {conn}"
    );

    // Fixed on the VTN's side: the next sync accepts, applies the good events, reports.
    lock(&vtn).resource_fails = None;
    let r = sync(app, &p.admin, id).await;
    r.expect_code(0);
    let sum = r.data().clone();
    assert_eq!(sum["accepted"], 1, "{b}: {sum}");
    assert_eq!(sum["events"], 2, "{b}: {sum}");
    assert_eq!(sum["reports"], 1, "{b}: DEMAND sent, BASELINE not: {sum}");
    let refused = if version == "3.1.0" { 5 } else { 4 };
    assert_eq!(sum["refused"], refused, "{b}: {sum}");
    let conn = connection(app, &p.admin, id).await;
    assert_eq!(conn["lastError"], "", "{b}: {conn}");
    let ids: Vec<&str> = conn["refusedEvents"]
        .as_array()
        .map(|l| l.iter().filter_map(|e| e["id"].as_str()).collect())
        .unwrap_or_default();
    for want in ["prog-bad", "not-a-date", "negative", "#4"] {
        assert!(ids.contains(&want), "{b}: {want} in {conn}");
    }
    if version == "3.1.0" {
        assert!(ids.contains(&"no-start"), "{b}: {conn}");
    }
    assert!(
        conn["refusedEvents"].as_array().is_some_and(|l| l
            .iter()
            .all(|e| !e["reason"].as_str().unwrap_or("").is_empty())),
        "{b}: every refusal says why: {conn}"
    );

    let rows = app
        .store
        .vtn_events_to_report(id, now + 86_400 * 2, 0)
        .await
        .expect("events");
    let kinds: Vec<(String, String)> = rows
        .iter()
        .map(|r| {
            let iv: Value = serde_json::from_str(&r.intervals).unwrap_or_default();
            (
                r.remote_id.clone(),
                iv[0]["kind"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    assert!(
        kinds.contains(&("good".into(), "export_limit".into())),
        "{b}: {kinds:?}"
    );
    assert!(
        kinds.contains(&("setpoint".into(), "charge".into())),
        "{b}: {kinds:?}"
    );
    assert_eq!(kinds.len(), 2, "{b}: {kinds:?}");

    // The enrollment says which asked-for reports the portal cannot produce: its owner sees
    // it, another owner does not see the enrollment at all.
    let enrollment = enr[0].id;
    let r = app
        .get(
            &format!("/api/v1/oadr/enrollment/{enrollment}"),
            Some(&p.ann),
        )
        .await;
    r.expect_code(0);
    assert_eq!(r.data()["unsupportedReports"], json!(["BASELINE"]), "{b}");
    assert_eq!(r.data()["status"], "accepted", "{b}");
    app.get(
        &format!("/api/v1/oadr/enrollment/{enrollment}"),
        Some(&p.bob),
    )
    .await
    .expect_code(1002);
    app.get("/api/v1/oadr/vtns", Some(&p.ann))
        .await
        .expect_code(2);

    // Every body the VEN sent holds to the schema of its operation.
    let sent = lock(&vtn).sent.clone();
    let ops: Vec<String> = sent.iter().map(|(m, t, _)| format!("{m} {t}")).collect();
    for want in ["POST /vens", "POST /reports"] {
        assert!(ops.iter().any(|o| o == want), "{b}: {want} in {ops:?}");
    }
    for (method, template, body) in &sent {
        let errors = schema_errors(version, method, template, body);
        assert!(
            errors.is_empty(),
            "{b}: {method} {template}: {errors:?}\n{body}"
        );
    }
    save_for_the_validator(version, &sent);

    // A venName another client holds: a clear error, not an empty one.
    lock(&vtn).ven_conflict = true;
    let r = sync(app, &p.admin, id).await;
    r.expect_code(1011);
    assert!(
        r.msg()
            .contains("venName \"portal-odd\" belongs to another client"),
        "{b}: {}",
        r.msg()
    );
    app.post(
        &format!("/api/v1/oadr/vtn/{id}/remove"),
        json!({}),
        Some(&p.admin),
    )
    .await
    .expect_code(0);
}

async fn connection(app: &App, admin: &str, id: i64) -> Value {
    let list = app.get("/api/v1/oadr/vtns", Some(admin)).await;
    list.expect_code(0);
    list.data()
        .as_array()
        .and_then(|l| l.iter().find(|v| v["id"] == id).cloned())
        .unwrap_or_default()
}

/// With OADR_RECORD_DIR set: one file per body, `{"version", "method", "path", "body"}`.
fn save_for_the_validator(version: &str, sent: &[(String, String, Value)]) {
    let Some(dir) = std::env::var_os("OADR_RECORD_DIR") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    std::fs::create_dir_all(&dir).expect("record dir");
    for (n, (method, template, body)) in sent.iter().enumerate() {
        let file = dir.join(format!(
            "{}-{n:02}-{}.json",
            version.replace('.', ""),
            method.to_lowercase()
        ));
        let record = json!({"version": version, "method": method, "path": template, "body": body});
        std::fs::write(file, record.to_string()).expect("record");
    }
}

/// The required fields and enums of the operation's request schema, per version, as the
/// OpenAPI documents of OpenADR 3.0.1 and 3.1.0 state them (3.0.1: `ven`, `resource`, `report`
/// with `reportPayloadDescriptor`; 3.1.0: `VenVenRequest`, `VenResourceRequest`,
/// `reportRequest`). Answers the violations found.
fn schema_errors(version: &str, method: &str, template: &str, body: &Value) -> Vec<String> {
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
        _ => errors.push(format!("no schema known for {method} {template}")),
    }
    let enums: &[(&str, &str)] = match (v31, template) {
        (true, "/vens") => &[("objectType", "VEN_VEN_REQUEST")],
        (true, "/resources") => &[("objectType", "VEN_RESOURCE_REQUEST")],
        (false, "/vens") => &[("objectType", "VEN")],
        (false, "/vens/{venID}/resources") => &[("objectType", "RESOURCE")],
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
