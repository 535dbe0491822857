//! A subscription belongs to the sign-in that made it: signing out there deletes it (and only
//! it), as does a password change (every session ends).

use super::*;
use domain::user::BuiltinRole;

const PW: &str = "secret123";

#[tokio::test]
async fn signing_out_deletes_the_subscriptions_of_that_sign_in_only() {
    for app in common::spawn().await {
        let id = app
            .user("ann@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let phone = app.login("ann@example.com", PW).await;
        let laptop = app.login("ann@example.com", PW).await;
        let b = Browser::fixed();
        subscribe(
            &app,
            &phone.access,
            body("https://push.example.com/phone", &b, json!({})),
        )
        .await;
        subscribe(
            &app,
            &laptop.access,
            body("https://push.example.com/laptop", &b, json!({})),
        )
        .await;
        assert_eq!(list(&app, &laptop.access).await.len(), 2);

        app.post(
            "/api/v1/user/logout",
            json!({"refresh_token": phone.refresh}),
            Some(&phone.access),
        )
        .await
        .expect_code(0);
        let left = list(&app, &laptop.access).await;
        assert_eq!(left.len(), 1, "[{}]", app.backend);
        assert_eq!(left[0]["endpointHost"], "push.example.com");
        assert_eq!(
            app.store.push_subscriptions(id).await.expect("read")[0].endpoint,
            "https://push.example.com/laptop"
        );

        // A password change ends every session: no subscription is left.
        let phone = app.login("ann@example.com", PW).await;
        subscribe(
            &app,
            &phone.access,
            body("https://push.example.com/phone", &b, json!({})),
        )
        .await;
        app.post(
            &format!("/api/v1/user/{}/pwd", id.0),
            json!({"oldPassword": PW, "newPassword": "Zq8unusual42x"}),
            Some(&laptop.access),
        )
        .await
        .expect_code(0);
        assert!(
            app.store
                .push_subscriptions(id)
                .await
                .expect("read")
                .is_empty()
        );
    }
}
