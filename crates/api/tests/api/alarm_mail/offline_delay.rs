//! The offline delay, a notify setting between 5 and 1440 minutes.

use super::*;

#[tokio::test]
async fn the_offline_delay_is_a_notify_setting_between_5_and_1440_minutes() {
    for app in common::spawn().await {
        let (_, ann) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let r = app.get("/api/v1/user/notify/enable", Some(&ann)).await;
        r.expect_code(0);
        assert_eq!(r.data()["offlineMinutes"], 30, "default");
        for bad in [json!(4), json!(1441), json!("soon")] {
            let body = json!({"enabled": true, "email": "ann@example.com", "offlineMinutes": bad});
            let r = app.post("/api/v1/user/notify", body, Some(&ann)).await;
            r.expect_code(4);
            assert!(r.msg().contains("offlineMinutes"), "{bad}: {}", r.msg());
        }
        let body = json!({"enabled": true, "email": "ann@example.com", "offlineMinutes": 45});
        app.post("/api/v1/user/notify?lan=zh", body, Some(&ann))
            .await
            .expect_code(0);
        let r = app.get("/api/v1/user/notify/enable", Some(&ann)).await;
        for (key, value) in [
            ("enabled", json!(true)),
            ("email", json!("ann@example.com")),
            ("offlineMinutes", json!(45)),
        ] {
            assert_eq!(r.data()[key], value, "{key}");
        }
        let user = app
            .store
            .user_by_account("ann@example.com")
            .await
            .expect("user")
            .expect("ann");
        assert_eq!(
            user.notify_lang, "zh",
            "e-mails in the language of the request"
        );
        // Left out, the delay stays.
        let body = json!({"enabled": false});
        app.post("/api/v1/user/notify", body, Some(&ann))
            .await
            .expect_code(0);
        let r = app.get("/api/v1/user/notify/enable", Some(&ann)).await;
        assert_eq!(r.data()["offlineMinutes"], 45);
    }
}
