//! Registration, verification codes, account checks and password reset.

use crate::common;

use common::spawn;
use domain::user::BuiltinRole;
use serde_json::json;

const PW: &str = "secret123";

#[tokio::test]
async fn registration_with_a_code_end_to_end() {
    for app in spawn().await {
        let b = app.backend;
        let acct = "new@example.com";
        app.get(
            &format!("/anonymous/getCode?account={acct}&type=register"),
            None,
        )
        .await
        .expect_code(0);
        let code = app.last_code(acct).await;
        assert_eq!(code.len(), 6, "[{b}]");
        let wrong = if code == "000000" { "111111" } else { "000000" };

        // Sending again within a minute is refused.
        app.get(
            &format!("/anonymous/getCode?account={acct}&type=register"),
            None,
        )
        .await
        .expect_code(7);
        assert_eq!(app.last_code(acct).await, code, "[{b}] no second code sent");

        // Checking: wrong code 5, right code 0 (and checking does not use it up).
        app.get(
            &format!("/anonymous/checkCode?account={acct}&type=register&code={wrong}"),
            None,
        )
        .await
        .expect_code(5);
        app.get(
            &format!("/anonymous/checkCode?account={acct}&type=register&code={code}"),
            None,
        )
        .await
        .expect_code(0);

        // Signing up with a wrong code creates nobody.
        app.post(
            "/anonymous/signup",
            json!({"account": acct, "password": PW, "code": wrong}),
            None,
        )
        .await
        .expect_code(5);
        assert!(
            app.store.user_by_account(acct).await.unwrap().is_none(),
            "[{b}] no user after a wrong code"
        );
        // A malformed password is refused before the code is looked at.
        app.post(
            "/anonymous/signup",
            json!({"account": acct, "password": "abc", "code": code}),
            None,
        )
        .await
        .expect_code(4);

        // The right code (sent as a number, as some clients do).
        app.post(
            "/anonymous/signup",
            json!({"account": acct, "password": PW, "code": code.parse::<i64>().unwrap(),
                "nickname": "Newbie"}),
            None,
        )
        .await
        .expect_code(0);
        let user = app
            .store
            .user_by_account(acct)
            .await
            .unwrap()
            .expect("user");
        assert_eq!(user.nickname, "Newbie", "[{b}]");
        assert_eq!(
            user.kind, "owner",
            "[{b}] registered accounts are plant owners"
        );
        let t = app.login(acct, PW).await;
        let me = app.get("/api/v1/user", Some(&t.access)).await;
        me.expect_code(0);
        assert_eq!(me.data()["email"], acct, "[{b}]");

        // The code is used up.
        app.get(
            &format!("/anonymous/checkCode?account={acct}&type=register&code={code}"),
            None,
        )
        .await
        .expect_code(5);
        // The account is taken now, but without a valid code nobody learns it: 5 first.
        app.post(
            "/anonymous/signup",
            json!({"account": acct, "password": PW, "code": code}),
            None,
        )
        .await
        .expect_code(5);
        app.get(
            &format!("/anonymous/getCode?account={acct}&type=register"),
            None,
        )
        .await
        .expect_code(103);
    }
}

#[tokio::test]
async fn phone_accounts_register_too() {
    for app in spawn().await {
        let b = app.backend;
        app.get("/anonymous/getCode?mobile=%2B44%207700-900123", None)
            .await
            .expect_code(0);
        let code = app.last_code("+447700900123").await;
        app.post_form(
            "/anonymous/signup",
            &format!("mobile=%2B447700900123&password={PW}&code={code}"),
            None,
        )
        .await
        .expect_code(0);
        let user = app
            .store
            .user_by_account("+447700900123")
            .await
            .unwrap()
            .expect("user");
        assert_eq!(user.mobile, "+447700900123", "[{b}]");
        app.login("+44 7700 900123", PW).await;
    }
}

#[tokio::test]
async fn codes_need_a_valid_account_and_purpose() {
    for app in spawn().await {
        app.user("taken@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        app.get("/anonymous/getCode?account=not-an-account", None)
            .await
            .expect_code(4);
        app.get("/anonymous/getCode?account=", None)
            .await
            .expect_code(4);
        app.get("/anonymous/getCode?account=a@example.com&type=bogus", None)
            .await
            .expect_code(4);
        app.get(
            "/anonymous/getCode?account=ghost@example.com&type=reset",
            None,
        )
        .await
        .expect_code(105);
        app.get(
            "/anonymous/getCode?account=taken@example.com&type=register",
            None,
        )
        .await
        .expect_code(103);
        // No code was sent for any of these.
        for acct in ["ghost@example.com", "taken@example.com", "a@example.com"] {
            assert!(
                app.store.outbox(Some(acct), 1).await.unwrap().is_empty(),
                "[{}] {acct}",
                app.backend
            );
        }
        // Checking a code nobody asked for.
        app.get(
            "/anonymous/checkCode?account=ghost@example.com&type=register&code=123456",
            None,
        )
        .await
        .expect_code(5);
        app.get(
            "/anonymous/checkCode?account=ghost@example.com&type=register&code=abc",
            None,
        )
        .await
        .expect_code(5);
    }
}

#[tokio::test]
async fn check_account_semantics() {
    for app in spawn().await {
        app.user("taken@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let cases = [
            ("account=taken@example.com&type=register", 103),
            ("account=free@example.com&type=register", 0),
            ("account=taken@example.com", 0),
            ("account=free@example.com", 105),
            ("username=TAKEN@example.com", 0),
            ("email=free@example.com&type=", 105),
            ("account=x", 4),
        ];
        for (query, code) in cases {
            app.get(&format!("/anonymous/checkAccount?{query}"), None)
                .await
                .expect_code(code);
        }
    }
}

#[tokio::test]
async fn expired_codes_answer_6() {
    for app in spawn().await {
        let acct = "late@example.com";
        app.get(&format!("/anonymous/getCode?account={acct}"), None)
            .await
            .expect_code(0);
        let code = app.last_code(acct).await;
        let n = app
            .store
            .expire_codes_for_tests(acct, domain::time::now_ms() - 1)
            .await
            .unwrap();
        assert_eq!(n, 1, "[{}]", app.backend);
        app.get(
            &format!("/anonymous/checkCode?account={acct}&type=register&code={code}"),
            None,
        )
        .await
        .expect_code(6);
        app.post(
            "/anonymous/signup",
            json!({"account": acct, "password": PW, "code": code}),
            None,
        )
        .await
        .expect_code(6);
        assert!(
            app.store.user_by_account(acct).await.unwrap().is_none(),
            "[{}]",
            app.backend
        );
    }
}

#[tokio::test]
async fn wrong_guesses_burn_the_code() {
    for app in spawn().await {
        let acct = "guess@example.com";
        app.get(&format!("/anonymous/getCode?account={acct}"), None)
            .await
            .expect_code(0);
        let code = app.last_code(acct).await;
        let wrong = if code == "000000" { "111111" } else { "000000" };
        for _ in 0..5 {
            app.get(
                &format!("/anonymous/checkCode?account={acct}&code={wrong}"),
                None,
            )
            .await
            .expect_code(5);
        }
        // After five misses even the right code is refused.
        app.post(
            "/anonymous/signup",
            json!({"account": acct, "password": PW, "code": code}),
            None,
        )
        .await
        .expect_code(5);
        assert!(app.store.user_by_account(acct).await.unwrap().is_none());
    }
}

#[tokio::test]
async fn password_reset_with_a_code() {
    for app in spawn().await {
        let b = app.backend;
        let acct = "forgot@example.com";
        app.user(acct, PW, BuiltinRole::PlantOwner, None).await;
        let old = app.login(acct, PW).await;

        app.get(
            &format!("/anonymous/getCode?account={acct}&type=reset"),
            None,
        )
        .await
        .expect_code(0);
        let code = app.last_code(acct).await;
        let wrong = if code == "000000" { "111111" } else { "000000" };

        // Wrong code: nothing changes.
        app.post(
            "/anonymous/resetPwd",
            json!({"account": acct, "password": "brandnew9", "code": wrong}),
            None,
        )
        .await
        .expect_code(5);
        app.login_resp(acct, "brandnew9").await.expect_code(102);
        // A registration code is not a reset code.
        app.get(
            &format!("/anonymous/checkCode?account={acct}&type=register&code={code}"),
            None,
        )
        .await
        .expect_code(5);
        // Unknown account: the code (another account's) is checked first, so 5, not 105.
        app.post(
            "/anonymous/resetPwd",
            json!({"account": "ghost@example.com", "password": "brandnew9", "code": code}),
            None,
        )
        .await
        .expect_code(5);

        app.post(
            "/anonymous/resetPwd",
            json!({"account": acct, "password": "brandnew9", "code": code}),
            None,
        )
        .await
        .expect_code(0);
        app.login_resp(acct, PW).await.expect_code(102);
        app.login(acct, "brandnew9").await;
        app.refresh(&old.refresh).await.expect_401();
        app.get("/api/v1/user", Some(&old.access))
            .await
            .expect_401();

        // The code served once.
        app.post(
            "/anonymous/resetPwd",
            json!({"account": acct, "password": "another99", "code": code}),
            None,
        )
        .await
        .expect_code(5);
        app.login_resp(acct, "another99").await.expect_code(102);
        let _ = b;
    }
}
