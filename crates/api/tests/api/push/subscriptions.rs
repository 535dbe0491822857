//! Subscriptions over the API: the VAPID key, what is checked, what is answered (never the
//! keys), the limit, the same browser again, another user's ids, and the test message.

use super::*;
use domain::user::BuiltinRole;

#[tokio::test]
async fn the_vapid_key_is_a_p256_point_made_once_and_kept() {
    for app in common::spawn().await {
        let (_, ann) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let (_, bob) = app
            .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let r = app.get("/api/v1/user/push/key", Some(&ann)).await;
        r.expect_code(0);
        let key = r.data()["publicKey"]
            .as_str()
            .expect("publicKey")
            .to_string();
        assert!(!key.contains('='), "no padding: {key}");
        let raw = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(&key)
            .expect("base64url");
        assert_eq!((raw.len(), raw[0]), (65, 4), "[{}]", app.backend);
        let again = app.get("/api/v1/user/push/key", Some(&bob)).await;
        assert_eq!(again.data()["publicKey"], key.as_str());
        app.get("/api/v1/user/push/key", None).await.expect_401();
    }
}

#[tokio::test]
async fn a_subscription_is_checked_and_answered_without_its_keys() {
    for app in common::spawn().await {
        let (_, ann) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let b = Browser::fixed();
        let fcm = "https://fcm.googleapis.com/fcm/send/abc:def";
        let bad = [
            json!({"p256dh": b.p256dh, "auth": b.auth}),
            body("http://push.example.com/x", &b, json!({})),
            body("https://user:pw@push.example.com/x", &b, json!({})),
            body(fcm, &b, json!({"p256dh": &b.p256dh[..80]})),
            body(fcm, &b, json!({"p256dh": b.auth})),
            body(fcm, &b, json!({"auth": "AAECAwQFBgcICQoLDA0O"})),
            body(fcm, &b, json!({"auth": "!!"})),
            body(fcm, &b, json!({"kinds": ["flood"]})),
            body(fcm, &b, json!({"minSeverity": "critical"})),
        ];
        for req in bad {
            app.post("/api/v1/user/pushSubscriptions", req.clone(), Some(&ann))
                .await
                .expect_code(4);
        }
        assert!(list(&app, &ann).await.is_empty());

        let item = subscribe(
            &app,
            &ann,
            body(
                fcm,
                &b,
                json!({"kinds": ["fault", "offline"], "minSeverity": "alarm"}),
            ),
        )
        .await;
        assert_eq!(item["endpointHost"], "fcm.googleapis.com");
        assert_eq!(item["deviceName"], "Pixel 8");
        assert_eq!(item["kinds"], json!(["offline", "fault"]));
        assert_eq!(item["minSeverity"], "alarm");
        assert_eq!(item["lastSuccessAt"], Value::Null);
        assert_eq!(item["lastError"], "");
        assert!(
            item["createdAt"]
                .as_str()
                .is_some_and(|s| s.ends_with("+00:00"))
        );
        let listed = list(&app, &ann).await;
        assert_eq!(listed, vec![item.clone()]);
        let text = app
            .get("/api/v1/user/pushSubscriptions", Some(&ann))
            .await
            .text();
        for secret in [b.p256dh.as_str(), b.auth.as_str(), "abc:def"] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }

        // The same browser again (a new sign-in): the same subscription, its choice renewed.
        let again = subscribe(&app, &ann, body(fcm, &b, json!({"deviceName": "Phone"}))).await;
        assert_eq!(again["id"], item["id"]);
        assert_eq!(again["kinds"], json!([]));
        assert_eq!(again["minSeverity"], "warning");
        assert_eq!(list(&app, &ann).await.len(), 1);

        let id = item["id"].as_i64().expect("id");
        let r = app
            .post(
                &format!("/api/v1/user/pushSubscriptions/{id}"),
                json!({"kinds": ["device_silent"]}),
                Some(&ann),
            )
            .await;
        r.expect_code(0);
        assert_eq!(r.data()["kinds"], json!(["device_silent"]));
        assert_eq!(r.data()["deviceName"], "Phone", "left out, it stays");
        app.post(
            &format!("/api/v1/user/pushSubscriptions/{id}"),
            json!({"minSeverity": "loud"}),
            Some(&ann),
        )
        .await
        .expect_code(4);
        app.post(
            &format!("/api/v1/user/pushSubscriptions/{id}/delete"),
            json!({}),
            Some(&ann),
        )
        .await
        .expect_code(0);
        assert!(list(&app, &ann).await.is_empty());
        app.post(
            &format!("/api/v1/user/pushSubscriptions/{id}/delete"),
            json!({}),
            Some(&ann),
        )
        .await
        .expect_code(1102);
    }
}

#[tokio::test]
async fn at_most_ten_devices_and_another_users_ids_are_missing() {
    for app in common::spawn().await {
        let (_, ann) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let (_, bob) = app
            .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let b = Browser::fixed();
        let endpoint = |n: i32| format!("https://push.example.com/wp/{n}");
        let mut ids = Vec::new();
        for n in 0..10 {
            ids.push(subscribe(&app, &ann, body(&endpoint(n), &b, json!({}))).await["id"].clone());
        }
        app.post(
            "/api/v1/user/pushSubscriptions",
            body(&endpoint(10), &b, json!({})),
            Some(&ann),
        )
        .await
        .expect_code(1103);
        // A browser already subscribed may subscribe again at the limit.
        subscribe(&app, &ann, body(&endpoint(3), &b, json!({}))).await;

        let id = ids[0].as_i64().expect("id");
        for path in [
            format!("/api/v1/user/pushSubscriptions/{id}"),
            format!("/api/v1/user/pushSubscriptions/{id}/delete"),
            format!("/api/v1/user/pushSubscriptions/{id}/test"),
        ] {
            app.post(&path, json!({"deviceName": "mine"}), Some(&bob))
                .await
                .expect_code(1102);
        }
        assert!(list(&app, &bob).await.is_empty());
        assert_eq!(list(&app, &ann).await.len(), 10);

        // Bob signs in on Ann's browser: its subscription moves to him.
        let moved = subscribe(&app, &bob, body(&endpoint(0), &b, json!({}))).await;
        assert_eq!(moved["id"], ids[0]);
        assert_eq!(list(&app, &ann).await.len(), 9);
        assert_eq!(list(&app, &bob).await.len(), 1);
    }
}

#[tokio::test]
async fn the_test_message_says_whether_the_push_service_took_it() {
    let Some(python) = python() else { return };
    for app in spawn_allowed().await {
        let (_, ann) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let (url, got) = push_service(&[201, 410]).await;
        let browser = Browser::new(&python);
        let endpoint = format!("{url}?d=ann");
        let id = subscribe(&app, &ann, body(&endpoint, &browser, json!({}))).await["id"]
            .as_i64()
            .expect("id");
        let test = format!("/api/v1/user/pushSubscriptions/{id}/test");
        let r = app.post(&test, json!({}), Some(&ann)).await;
        r.expect_code(0);
        assert_eq!(
            r.data()["accepted"],
            true,
            "[{}] {:?}",
            app.backend,
            r.data()
        );
        assert_eq!(r.data()["status"], 201);
        assert_eq!(r.data()["removed"], false);
        let item = &list(&app, &ann).await[0];
        assert!(item["lastSuccessAt"].is_string(), "{item}");

        let (_, headers, raw) = got.lock().expect("got")[0].clone();
        let opened = browser.open(&python, &endpoint, &headers, &raw);
        assert_eq!(opened["payload"]["kind"], "test");
        assert_eq!(
            opened["payload"]["title"],
            "Test alert from the solar portal"
        );
        assert_eq!(opened["claims"]["sub"], SUBJECT);

        // The push service says the subscription is gone: it is deleted.
        let r = app.post(&test, json!({}), Some(&ann)).await;
        assert_eq!(r.data()["accepted"], false);
        assert_eq!(r.data()["status"], 410);
        assert_eq!(r.data()["removed"], true);
        assert!(list(&app, &ann).await.is_empty());
    }
}

#[tokio::test]
async fn without_the_operators_leave_http_and_loopback_endpoints_are_refused() {
    for app in common::spawn().await {
        let (_, ann) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let b = Browser::fixed();
        app.post(
            "/api/v1/user/pushSubscriptions",
            body("http://127.0.0.1:9/wp", &b, json!({})),
            Some(&ann),
        )
        .await
        .expect_code(4);
        // An https endpoint whose host is loopback is taken, and refused when called.
        let id = subscribe(&app, &ann, body("https://localhost:9/wp", &b, json!({}))).await["id"]
            .as_i64()
            .expect("id");
        let r = app
            .post(
                &format!("/api/v1/user/pushSubscriptions/{id}/test"),
                json!({}),
                Some(&ann),
            )
            .await;
        assert_eq!(r.data()["accepted"], false);
        assert_eq!(r.data()["status"], Value::Null);
        let error = r.data()["error"].as_str().expect("error");
        assert!(error.contains("refused"), "{error}");
        assert!(
            list(&app, &ann).await[0]["lastError"]
                .as_str()
                .is_some_and(|e| e.contains("refused"))
        );
    }
}
