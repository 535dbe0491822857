//! Endpoints in personal settings: the secret shown once (never in a list, a change's answer,
//! the log or an audit entry, and sealed at rest), validation, the limit, and that nobody else
//! sees or uses someone's endpoint.

use super::*;
use domain::user::BuiltinRole;

#[tokio::test]
async fn an_owner_adds_changes_rotates_and_deletes_endpoints_and_the_secret_shows_once() {
    for app in common::spawn().await {
        let (_, ann) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let body = json!({"url": "https://hooks.example.com/a", "kinds": ["fault", "offline"],
            "minSeverity": "alarm"});
        let (id, secret) = add(&app, &ann, body).await;
        assert!(
            secret.starts_with("whsec_") && secret.len() == 6 + 64,
            "{secret}"
        );

        let r = app.get("/api/v1/user/webhooks", Some(&ann)).await;
        r.expect_code(0);
        assert!(
            !r.text().contains(&secret[6..]),
            "[{}] no secret in lists",
            app.backend
        );
        let hint = format!("…{}", &secret[secret.len() - 4..]);
        assert_eq!(
            r.data()[0],
            json!({"id": id, "url": "https://hooks.example.com/a", "enabled": true,
                "kinds": ["offline", "fault"], "minSeverity": "alarm", "secretHint": hint,
                "createAt": r.data()[0]["createAt"]})
        );

        let change = json!({"enabled": false, "kinds": [], "minSeverity": "warning"});
        let r = app
            .post(&format!("/api/v1/user/webhooks/{id}"), change, Some(&ann))
            .await;
        r.expect_code(0);
        assert!(
            !r.text().contains(&secret[6..]),
            "no secret in a change's answer"
        );
        assert_eq!(r.data()["enabled"], false);
        assert_eq!(r.data()["kinds"], json!([]));
        assert_eq!(
            r.data()["url"],
            "https://hooks.example.com/a",
            "left out: kept"
        );

        let r = app
            .post(
                &format!("/api/v1/user/webhooks/{id}/secret"),
                json!({}),
                Some(&ann),
            )
            .await;
        r.expect_code(0);
        let rotated = r.data()["secret"].as_str().expect("secret").to_string();
        assert_ne!(rotated, secret);
        let r = app.get("/api/v1/user/webhooks", Some(&ann)).await;
        assert!(!r.text().contains(&rotated[6..]));
        let log = app
            .get(
                &format!("/api/v1/user/webhooks/{id}/deliveries"),
                Some(&ann),
            )
            .await;
        log.expect_code(0);
        assert!(!log.text().contains(&rotated[6..]));
        // At rest the secret is sealed, and no audit entry carries either secret.
        assert!(
            app.store
                .webhook_secrets_in_clear(10)
                .await
                .expect("read")
                .is_empty(),
            "[{}] sealed at rest",
            app.backend
        );
        let filter = store::audit::AuditFilter {
            limit: 100,
            ..Default::default()
        };
        let (entries, _) = app
            .store
            .audit_visible(
                domain::policy::PlantVisibility::All,
                domain::ids::UserId(0),
                &filter,
            )
            .await
            .expect("audit");
        assert!(entries.iter().any(|e| e.action == "webhook.rotate"));
        for e in &entries {
            let line = format!("{} {} {}", e.action, e.target, e.detail);
            assert!(
                !line.contains(&secret[6..]) && !line.contains(&rotated[6..]),
                "{line}"
            );
        }
        assert_eq!(
            r.data()[0]["secretHint"],
            format!("…{}", &rotated[rotated.len() - 4..])
        );

        app.post(
            &format!("/api/v1/user/webhooks/{id}/delete"),
            json!({}),
            Some(&ann),
        )
        .await
        .expect_code(0);
        let r = app.get("/api/v1/user/webhooks", Some(&ann)).await;
        assert_eq!(r.data(), &json!([]));
    }
}

#[tokio::test]
async fn bad_input_changes_nothing_and_a_sixth_endpoint_is_refused() {
    for app in common::spawn().await {
        let (_, ann) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let long = format!("https://example.com/{}", "a".repeat(2048));
        let bad = [
            (json!({}), "url"),
            (json!({"url": "ftp://example.com/x"}), "url"),
            (json!({"url": long}), "url"),
            (
                json!({"url": "https://example.com", "kinds": ["flood"]}),
                "kinds",
            ),
            (
                json!({"url": "https://example.com", "minSeverity": "critical"}),
                "minSeverity",
            ),
        ];
        for (body, field) in &bad {
            let r = app
                .post("/api/v1/user/webhooks", body.clone(), Some(&ann))
                .await;
            r.expect_code(4);
            assert!(r.msg().contains(field), "{body}: {}", r.msg());
        }
        let r = app.get("/api/v1/user/webhooks", Some(&ann)).await;
        assert_eq!(r.data(), &json!([]), "[{}] nothing added", app.backend);

        let mut ids = Vec::new();
        for i in 0..5 {
            ids.push(
                add(&app, &ann, hook(&format!("https://example.com/{i}")))
                    .await
                    .0,
            );
        }
        let r = app
            .post(
                "/api/v1/user/webhooks",
                hook("https://example.com/6"),
                Some(&ann),
            )
            .await;
        r.expect_code(1101);
        for (body, _) in &bad[1..] {
            app.post(
                &format!("/api/v1/user/webhooks/{}", ids[0]),
                body.clone(),
                Some(&ann),
            )
            .await
            .expect_code(4);
        }
        let r = app.get("/api/v1/user/webhooks", Some(&ann)).await;
        let list = r.data().as_array().expect("list");
        assert_eq!(list.len(), 5);
        assert_eq!(list[0]["url"], "https://example.com/0");
        assert_eq!(list[0]["kinds"], json!([]));
        assert_eq!(list[0]["minSeverity"], "warning");
    }
}

#[tokio::test]
async fn another_users_endpoint_answers_as_missing() {
    for app in common::spawn().await {
        let (_, ann) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let company = app.company("Sunny Installers").await;
        let (_, boss) = app
            .signed_in("boss@example.com", BuiltinRole::CompanyAdmin, Some(company))
            .await;
        let (id, _) = add(&app, &ann, hook("https://hooks.example.com/ann")).await;
        let base = format!("/api/v1/user/webhooks/{id}");
        app.post(&base, hook("https://evil.example.com/"), Some(&boss))
            .await
            .expect_code(1100);
        for tail in ["/delete", "/secret", "/test"] {
            app.post(&format!("{base}{tail}"), json!({}), Some(&boss))
                .await
                .expect_code(1100);
        }
        app.get(&format!("{base}/deliveries"), Some(&boss))
            .await
            .expect_code(1100);
        let r = app.get("/api/v1/user/webhooks", Some(&boss)).await;
        assert_eq!(r.data(), &json!([]), "[{}]", app.backend);
        let r = app.get("/api/v1/user/webhooks", Some(&ann)).await;
        assert_eq!(
            r.data()[0]["url"],
            "https://hooks.example.com/ann",
            "untouched"
        );
        app.post("/api/v1/user/webhooks/999999/delete", json!({}), Some(&ann))
            .await
            .expect_code(1100);
        app.get("/api/v1/user/webhooks", None).await.expect_401();
    }
}

#[tokio::test]
async fn quiet_hours_are_part_of_the_notify_settings() {
    for app in common::spawn().await {
        let (_, ann) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let r = app.get("/api/v1/user/notify/enable", Some(&ann)).await;
        assert_eq!(r.data()["quietEnabled"], false, "off by default");
        assert_eq!(r.data()["quietFrom"], "22:00");
        assert_eq!(r.data()["quietTo"], "07:00");
        let on = json!({"enabled": true, "email": "ann@example.com", "quietEnabled": true,
            "quietFrom": "23:30", "quietTo": "06:15", "quietZone": "Europe/Madrid"});
        app.post("/api/v1/user/notify", on.clone(), Some(&ann))
            .await
            .expect_code(0);
        let want = json!({"enabled": true, "email": "ann@example.com", "offlineMinutes": 30,
            "quietEnabled": true, "quietFrom": "23:30", "quietTo": "06:15",
            "quietZone": "Europe/Madrid"});
        let r = app.get("/api/v1/user/notify/enable", Some(&ann)).await;
        assert_eq!(r.data(), &want, "[{}]", app.backend);
        for (field, value) in [
            ("quietFrom", json!("25:00")),
            ("quietTo", json!("7")),
            ("quietZone", json!("Mars/Olympus")),
        ] {
            let mut body = on.clone();
            body[field] = value;
            body["enabled"] = json!(false);
            let r = app.post("/api/v1/user/notify", body, Some(&ann)).await;
            r.expect_code(4);
            assert!(r.msg().contains(field), "{}", r.msg());
        }
        // An older client that sends no quiet hours leaves them as they are.
        let old = json!({"enabled": true, "email": "ann@example.com", "offlineMinutes": 45});
        app.post("/api/v1/user/notify", old, Some(&ann))
            .await
            .expect_code(0);
        let r = app.get("/api/v1/user/notify/enable", Some(&ann)).await;
        assert_eq!(r.data()["quietFrom"], "23:30");
        assert_eq!(r.data()["quietEnabled"], true);
        assert_eq!(r.data()["offlineMinutes"], 45);
    }
}
