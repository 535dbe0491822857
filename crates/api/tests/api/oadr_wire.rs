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
//!   With `OADR_RECORD_DIR` set, the bodies are also written there, and harness/oadr/schemas.sh
//!   validates them against the published 3.1.0 document with a JSON-schema validator.

use crate::common;
use domain::DeviceFamily;
use domain::ids::{GatewayId, VtnId};

use chrono::Utc;
use common::App;
use common::fake_vtn::{fake_vtn, lock, save_for_the_validator, schema_errors};
use common::fixtures::{bound_gateway, people, plant, sample};
use serde_json::{Value, json};
use store::telemetry::TelemetryBatch;

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
    let now = domain::time::now_ms();
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
        .upsert_device(
            &sn,
            GatewayId(gw),
            DeviceFamily::Inverter,
            2,
            "p",
            "SUN-5K",
            None,
            domain::time::now_ms(),
        )
        .await
        .expect("device");
    enroll(app, plant_id, &sn).await;
    let batch = TelemetryBatch {
        samples: vec![sample(
            dev.0,
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
    let enr = app
        .store
        .vtn_enrollments(VtnId(id))
        .await
        .expect("enrollments");
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
        .vtn_events_to_report(VtnId(id), now + 86_400 * 2, 0)
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
    save_for_the_validator("wire", version, &sent);

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
