//! Issue 12, finding 6: sign-in throttling that slows attackers without locking owners out.
//! Failures on one (account, address) pair lock that pair; failures for the account from many
//! addresses, or from one address over many accounts, only slow down until far past what a
//! person mistypes, then ask for a code; a sign-in code sent to the account gets the owner in.
//! Known and unknown accounts get the same answers. Also the password-change lock and the
//! per-address limits on `/anonymous/checkAccount` and `/anonymous/getCode`.

use crate::common;

use std::time::{Duration, Instant};

use common::{App, Resp, join_all, spawn, spawn_with};
use domain::user::BuiltinRole;
use serde_json::{Value, json};

const PW: &str = "secret123";

async fn sign_in(app: &App, ip: [u8; 4], account: &str, password: &str) -> Resp {
    app.post_from(
        ip,
        "/oauth/token",
        json!({"username": account, "password": password, "grant_type": "password"}),
    )
    .await
}

async fn sign_in_with_code(app: &App, ip: [u8; 4], account: &str, code: &str) -> Resp {
    app.post_from(
        ip,
        "/oauth/token",
        json!({"username": account, "password": PW, "grant_type": "password", "code": code}),
    )
    .await
}

/// Five misses from one address, answered as the sign-in answers them.
async fn five_misses(app: &App, ip: [u8; 4], account: &str) -> Vec<Value> {
    let mut answers = Vec::new();
    for i in 0..5 {
        let r = sign_in(app, ip, account, &format!("wrong-{i}")).await;
        r.expect_code(102);
        answers.push(r.json);
    }
    answers
}

async fn pair_lock_and_code(app: App) {
    let b = app.backend;
    let (a, a2, elsewhere) = ([10, 0, 0, 1], [10, 0, 0, 2], [10, 0, 0, 9]);
    app.user("lock@example.com", PW, BuiltinRole::PlantOwner, None)
        .await;
    app.user("free@example.com", PW, BuiltinRole::PlantOwner, None)
        .await;

    // The fifth miss waits (the default 500 ms step after three): guessing is slow.
    let started = Instant::now();
    let (known, ghost) = tokio::join!(
        five_misses(&app, a, "lock@example.com"),
        five_misses(&app, a2, "ghost@example.com")
    );
    assert!(
        started.elapsed() >= Duration::from_millis(500),
        "[{b}] slowed down: {:?}",
        started.elapsed()
    );
    assert_eq!(known, ghost, "[{b}] misses look alike");
    let started = Instant::now();
    let locked = sign_in(&app, a, "lock@example.com", PW).await;
    locked.expect_code(109);
    assert!(
        started.elapsed() < Duration::from_millis(400),
        "[{b}] a locked pair answers at once"
    );
    let ghost_locked = sign_in(&app, a2, "ghost@example.com", PW).await;
    ghost_locked.expect_code(109);
    assert_eq!(locked.json, ghost_locked.json, "[{b}] locks look alike");

    // The right password from an address that has not been failing gets in; so does another
    // account from the failing address.
    sign_in(&app, elsewhere, "lock@example.com", PW)
        .await
        .expect_code(0);
    sign_in(&app, a, "free@example.com", PW)
        .await
        .expect_code(0);

    // The way out: a sign-in code, asked for and answered alike for any account.
    let ask = |ip, account: &'static str| {
        let app = &app;
        async move {
            app.get_from(
                ip,
                &format!("/anonymous/getCode?account={account}&type=login"),
            )
            .await
        }
    };
    let (sent, ghost_sent) = tokio::join!(ask(a, "lock@example.com"), ask(a2, "ghost@example.com"));
    sent.expect_code(0);
    assert_eq!(sent.json, ghost_sent.json, "[{b}] code requests look alike");
    let (again, ghost_again) =
        tokio::join!(ask(a, "lock@example.com"), ask(a2, "ghost@example.com"));
    again.expect_code(7);
    assert_eq!(again.json, ghost_again.json, "[{b}] send limits look alike");
    let code = app.last_code("lock@example.com").await;
    assert!(
        app.wait_for_message("ghost@example.com").await.is_none(),
        "[{b}] nothing is sent to an account that does not exist"
    );

    let wrong = if code == "000000" { "111111" } else { "000000" };
    let bad = sign_in_with_code(&app, a, "lock@example.com", wrong).await;
    bad.expect_code(5);
    let ghost_bad = sign_in_with_code(&app, a2, "ghost@example.com", wrong).await;
    assert_eq!(bad.json, ghost_bad.json, "[{b}] wrong codes look alike");

    let ok = sign_in_with_code(&app, a, "lock@example.com", &code).await;
    ok.expect_code(0);
    assert!(
        ok.data()["access_token"].is_string(),
        "[{b}] the usual token answer"
    );
    // The pair is unlocked and the code is spent.
    sign_in(&app, a, "lock@example.com", PW)
        .await
        .expect_code(0);
    sign_in_with_code(&app, a, "lock@example.com", &code)
        .await
        .expect_code(5);
}

#[tokio::test]
async fn failures_on_one_pair_lock_only_that_pair_and_a_code_unlocks_it() {
    let runs: Vec<_> = spawn()
        .await
        .into_iter()
        .map(|app| tokio::spawn(pair_lock_and_code(app)))
        .collect();
    for run in runs {
        run.await.expect("test task");
    }
}

/// Tests that need many failures shorten the wait per failure.
async fn fast_apps() -> Vec<App> {
    spawn_with(|c| c.sign_in_delay_step_ms = 1).await
}

async fn account_wide_failures(app: App) {
    let b = app.backend;
    app.user("owner@example.com", PW, BuiltinRole::PlantOwner, None)
        .await;
    // Ten misses from two addresses used to lock the owner out everywhere.
    for ip in [[10, 1, 0, 1], [10, 1, 0, 2]] {
        five_misses(&app, ip, "owner@example.com").await;
        five_misses(&app, ip, "nobody@example.com").await;
    }
    sign_in(&app, [10, 1, 1, 1], "owner@example.com", PW)
        .await
        .expect_code(0);
    // Twenty, from four addresses: now every address is asked for a code.
    for ip in [[10, 1, 0, 3], [10, 1, 0, 4]] {
        five_misses(&app, ip, "owner@example.com").await;
        five_misses(&app, ip, "nobody@example.com").await;
    }
    let asked = sign_in(&app, [10, 1, 1, 2], "owner@example.com", PW).await;
    asked.expect_code(109);
    let ghost = sign_in(&app, [10, 1, 1, 3], "nobody@example.com", PW).await;
    assert_eq!(asked.json, ghost.json, "[{b}] alike");
    // Where the owner signed in before, others' failures do not force the code step.
    sign_in(&app, [10, 1, 1, 1], "owner@example.com", PW)
        .await
        .expect_code(0);
    app.get_from(
        [10, 1, 1, 2],
        "/anonymous/getCode?account=owner@example.com&type=login",
    )
    .await
    .expect_code(0);
    let code = app.last_code("owner@example.com").await;
    sign_in_with_code(&app, [10, 1, 1, 2], "owner@example.com", &code)
        .await
        .expect_code(0);
}

#[tokio::test]
async fn failures_for_an_account_from_many_addresses_slow_then_ask_for_a_code() {
    let runs: Vec<_> = fast_apps()
        .await
        .into_iter()
        .map(|app| tokio::spawn(account_wide_failures(app)))
        .collect();
    for run in runs {
        run.await.expect("test task");
    }
}

async fn address_wide_failures(app: App) {
    let (busy, quiet) = ([10, 2, 0, 1], [10, 2, 0, 2]);
    app.user("real@example.com", PW, BuiltinRole::PlantOwner, None)
        .await;
    let spray = |from: usize| {
        let app = &app;
        async move {
            for n in from..from + 25 {
                for _ in 0..2 {
                    sign_in(app, busy, &format!("user{n}@example.com"), "guess-123")
                        .await
                        .expect_code(102);
                }
            }
        }
    };
    // Fifty misses from one address used to lock every account from there.
    spray(0).await;
    sign_in(&app, busy, "real@example.com", PW)
        .await
        .expect_code(0);
    // A hundred: that address is asked for a code, others are not.
    spray(25).await;
    sign_in(&app, busy, "real@example.com", PW)
        .await
        .expect_code(109);
    sign_in(&app, quiet, "real@example.com", PW)
        .await
        .expect_code(0);
}

#[tokio::test]
async fn failures_from_one_address_over_many_accounts_ask_that_address_for_a_code() {
    let runs: Vec<_> = fast_apps()
        .await
        .into_iter()
        .map(|app| tokio::spawn(address_wide_failures(app)))
        .collect();
    for run in runs {
        run.await.expect("test task");
    }
}

#[tokio::test]
async fn behind_a_proxy_the_address_it_saw_counts_not_what_the_client_claims() {
    for app in spawn_with(|c| c.trust_proxy = true).await {
        app.user("ann@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        // The client puts a new address in front each time; the proxy appends the real one.
        let attempt = |forged: usize, password: &str| {
            let req = axum::http::Request::post("/oauth/token")
                .header("content-type", "application/json")
                .header(
                    "x-forwarded-for",
                    format!("198.51.100.{forged}, 203.0.113.9"),
                )
                .body(axum::body::Body::from(
                    json!({"username": "ann@example.com", "password": password}).to_string(),
                ))
                .expect("request");
            app.send(req)
        };
        for i in 0..5 {
            attempt(i, "wrong-123").await.expect_code(102);
        }
        attempt(99, PW).await.expect_code(109);
        let ip = app.get("/anonymous/ip", None).await;
        assert_eq!(
            ip.data(),
            "127.0.0.1",
            "[{}] no header, the peer",
            app.backend
        );
    }
}

#[tokio::test]
async fn wrong_current_passwords_lock_the_password_change_even_for_the_right_one() {
    for app in spawn().await {
        let b = app.backend;
        let id = app
            .user("pwd@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let t = app.login("pwd@example.com", PW).await;
        let uri = format!("/api/v1/user/{}/pwd", id.0);
        for i in 0..5 {
            app.post(
                &uri,
                json!({"oldPassword": format!("guess-{i}"), "newPassword": "takeover9"}),
                Some(&t.access),
            )
            .await
            .expect_code(108);
        }
        let r = app
            .post(
                &uri,
                json!({"oldPassword": PW, "newPassword": "takeover9"}),
                Some(&t.access),
            )
            .await;
        r.expect_code(110);
        assert!(r.msg().contains("15 minutes"), "[{b}] {}", r.msg());
        // Nothing changed, and the session still works for everything else.
        app.login_resp("pwd@example.com", "takeover9")
            .await
            .expect_code(102);
        app.get("/api/v1/user", Some(&t.access))
            .await
            .expect_code(0);
    }
}

#[tokio::test]
async fn check_account_and_get_code_are_limited_per_address() {
    for app in spawn().await {
        let b = app.backend;
        let (busy, quiet) = ([10, 3, 0, 1], [10, 3, 0, 2]);
        // Forty requests at once, as in the report: ten answered, thirty refused with 7.
        let uris: Vec<String> = (0..40)
            .map(|i| format!("/anonymous/checkAccount?account=probe{i}@example.com"))
            .collect();
        let answers = join_all(uris.iter().map(|uri| app.get_from(busy, uri))).await;
        let refused = answers.iter().filter(|r| r.code() == 7).count();
        let answered = answers.iter().filter(|r| r.code() == 105).count();
        assert_eq!((answered, refused), (10, 30), "[{b}]");
        app.get_from(quiet, "/anonymous/checkAccount?account=probe@example.com")
            .await
            .expect_code(105);

        // Codes for ten different accounts, then no more from that address.
        for i in 0..10 {
            app.get_from(
                busy,
                &format!("/anonymous/getCode?account=new{i}@example.com&type=register"),
            )
            .await
            .expect_code(0);
        }
        app.get_from(
            busy,
            "/anonymous/getCode?account=new10@example.com&type=register",
        )
        .await
        .expect_code(7);
        assert!(
            app.store
                .outbox(Some("new10@example.com"), 1)
                .await
                .unwrap()
                .is_empty(),
            "[{b}] nothing sent past the limit"
        );
        app.get_from(
            quiet,
            "/anonymous/getCode?account=new10@example.com&type=register",
        )
        .await
        .expect_code(0);
    }
}
