//! A company's rules: the defaults, tuning with validation (bad input changes nothing),
//! scoping, deleting, and who may do it.

use super::*;
use serde_json::json;

fn rule<'a>(rules: &'a Value, kind: &str) -> &'a Value {
    rules
        .as_array()
        .and_then(|all| all.iter().find(|r| r["kind"] == kind))
        .expect("the rule")
}

#[tokio::test]
async fn a_company_starts_with_one_rule_per_kind_and_its_administrator_tunes_them() {
    for app in common::spawn().await {
        let w = world(&app).await;
        let r = app.get("/api/v1/alarm/rules", Some(&w.admin)).await;
        r.expect_code(0);
        assert_eq!(
            r.data().as_array().map(Vec::len),
            Some(7),
            "[{}]",
            app.backend
        );
        let silent = rule(r.data(), "device_silent").clone();
        assert_eq!(silent["enabled"], true);
        assert_eq!(silent["scope"], "all");
        assert_eq!(
            silent["params"],
            json!({"warningCycles": 3, "alarmCycles": 6})
        );
        let id = silent["id"].as_i64().expect("id");

        // Out of range: 4 with the field, nothing written.
        let bad = app
            .post(
                &format!("/api/v1/alarm/rule/{id}"),
                json!({"enabled": false, "params": {"warningCycles": 5, "alarmCycles": 4}}),
                Some(&w.admin),
            )
            .await;
        bad.expect_code(4);
        assert!(bad.msg().contains("params.alarmCycles"), "{}", bad.msg());
        let again = app.get("/api/v1/alarm/rules", Some(&w.admin)).await;
        assert_eq!(rule(again.data(), "device_silent"), &silent);

        app.post(
            &format!("/api/v1/alarm/rule/{id}"),
            json!({"params": {"warningCycles": 4, "alarmCycles": 8}}),
            Some(&w.admin),
        )
        .await
        .expect_code(0);
        let tuned = app.get("/api/v1/alarm/rules", Some(&w.admin)).await;
        assert_eq!(
            rule(tuned.data(), "device_silent")["params"],
            json!({"warningCycles": 4, "alarmCycles": 8})
        );

        // A rule of one plant; a plant the company does not serve is refused.
        let added = app
            .post(
                "/api/v1/alarm/rule",
                json!({"kind": "cell_spread", "scope": "plant", "scopeId": w.plant.0,
                    "severity": "alarm", "params": {"spreadMv": 150}}),
                Some(&w.admin),
            )
            .await;
        added.expect_code(0);
        let new_id = added.data().as_i64().expect("id");
        let bob_id = app
            .store
            .user_by_account("bob@example.com")
            .await
            .expect("read")
            .expect("bob")
            .id();
        let other = plant(&app, bob_id, app.company("Other").await, "Bob's").await;
        for (body, field) in [
            (
                json!({"kind": "cell_spread", "scope": "plant", "scopeId": other.0}),
                "scopeId",
            ),
            (json!({"kind": "cell_spread", "scope": "plant"}), "scopeId"),
            (json!({"kind": "offline"}), "kind"),
            (
                json!({"kind": "no_production", "severity": "loud"}),
                "severity",
            ),
            (
                json!({"kind": "event_code", "params": {"allFaults": false}}),
                "params.codes",
            ),
            (
                json!({"kind": "no_production", "params": {"minutes": 5}}),
                "params.minutes",
            ),
        ] {
            let r = app.post("/api/v1/alarm/rule", body, Some(&w.admin)).await;
            r.expect_code(4);
            assert!(r.msg().contains(field), "{field}: {}", r.msg());
        }
        let listed = app.get("/api/v1/alarm/rules", Some(&w.admin)).await;
        assert_eq!(listed.data().as_array().map(Vec::len), Some(8));

        // Staff may not change rules nor read them; an owner neither.
        app.post(
            "/api/v1/alarm/rule",
            json!({"kind": "cell_spread"}),
            Some(&w.staff),
        )
        .await
        .expect_code(2);
        app.get("/api/v1/alarm/rules", Some(&w.staff))
            .await
            .expect_code(2);
        app.get("/api/v1/alarm/rules", Some(&w.ann))
            .await
            .expect_code(2);

        app.post(
            &format!("/api/v1/alarm/rule/{new_id}/delete"),
            json!({}),
            Some(&w.admin),
        )
        .await
        .expect_code(0);
        app.post(
            &format!("/api/v1/alarm/rule/{new_id}/delete"),
            json!({}),
            Some(&w.admin),
        )
        .await
        .expect_code(4);
        let after = app.get("/api/v1/alarm/rules", Some(&w.admin)).await;
        assert_eq!(after.data().as_array().map(Vec::len), Some(7));
    }
}
