//! Issue 12, finding 8: the commonest passwords are refused wherever a password is set (sign-up,
//! reset, change), with their own code and message; signing in with an older one still works.

use crate::common;

use common::spawn;
use domain::user::BuiltinRole;
use serde_json::json;

const COMMON: [&str; 4] = ["123456", "password", "aaaaaa", "Qwerty123"];

#[tokio::test]
async fn sign_up_refuses_the_commonest_passwords_with_code_111() {
    for app in spawn().await {
        let b = app.backend;
        let acct = "newbie@example.com";
        app.get(
            &format!("/anonymous/getCode?account={acct}&type=register"),
            None,
        )
        .await
        .expect_code(0);
        let code = app.last_code(acct).await;
        for pw in COMMON {
            let r = app
                .post(
                    "/anonymous/signup",
                    json!({"account": acct, "password": pw, "code": code}),
                    None,
                )
                .await;
            r.expect_code(111);
            assert_eq!(
                r.msg(),
                "This password is too common. Please choose another one",
                "[{b}] {pw}"
            );
        }
        // In the caller's language too.
        let r = app
            .post(
                "/anonymous/signup?lan=es",
                json!({"account": acct, "password": "123456", "code": code}),
                None,
            )
            .await;
        r.expect_code(111);
        assert!(r.msg().contains("demasiado común"), "[{b}] {}", r.msg());
        assert!(
            app.store.user_by_account(acct).await.unwrap().is_none(),
            "[{b}] nobody was created"
        );
        // The code was not used up by the refusals: a good password goes through.
        app.post(
            "/anonymous/signup",
            json!({"account": acct, "password": "tXq7-mRv9", "code": code}),
            None,
        )
        .await
        .expect_code(0);
    }
}

#[tokio::test]
async fn reset_and_change_refuse_them_and_old_common_passwords_still_sign_in() {
    for app in spawn().await {
        // Created before the rule (straight in the store): signing in is not judged.
        let id = app
            .user("old@example.com", "123456", BuiltinRole::PlantOwner, None)
            .await;
        let t = app.login("old@example.com", "123456").await;

        let uri = format!("/api/v1/user/{}/pwd", id.0);
        for pw in COMMON {
            app.post(
                &uri,
                json!({"oldPassword": "123456", "newPassword": pw}),
                Some(&t.access),
            )
            .await
            .expect_code(111);
        }
        app.get("/api/v1/user", Some(&t.access))
            .await
            .expect_code(0);

        app.get(
            "/anonymous/getCode?account=old@example.com&type=reset",
            None,
        )
        .await
        .expect_code(0);
        let code = app.last_code("old@example.com").await;
        app.post(
            "/anonymous/resetPwd",
            json!({"account": "old@example.com", "password": "password", "code": code}),
            None,
        )
        .await
        .expect_code(111);
        app.login("old@example.com", "123456").await;
        app.post(
            "/anonymous/resetPwd",
            json!({"account": "old@example.com", "password": "n0t-so-common", "code": code}),
            None,
        )
        .await
        .expect_code(0);
        app.login_resp("old@example.com", "123456")
            .await
            .expect_code(102);
        app.login("old@example.com", "n0t-so-common").await;
    }
}
