//! Issue 12, finding 9: every sign-in is a session. Reusing a rotated refresh token revokes the
//! whole chain, sign-out ends the access token too (not only in the browser), and an account
//! enabled again does not revive tokens issued before it was disabled. The token answers keep
//! their wire shape (tests/auth.rs).

use crate::common;

use std::time::Duration;

use common::{App, Tokens, spawn};
use domain::user::BuiltinRole;
use serde_json::json;

const PW: &str = "secret123";

fn tokens(r: &common::Resp) -> Tokens {
    r.expect_code(0);
    Tokens {
        access: r.data()["access_token"].as_str().expect("access").into(),
        refresh: r.data()["refresh_token"].as_str().expect("refresh").into(),
    }
}

async fn reuse_after_the_grace_revokes_the_chain(app: App) {
    app.user("chain@example.com", PW, BuiltinRole::PlantOwner, None)
        .await;
    let first = app.login("chain@example.com", PW).await;
    let other = app.login("chain@example.com", PW).await;
    let second = tokens(&app.refresh(&first.refresh).await);
    let third = tokens(&app.refresh(&second.refresh).await);
    app.get("/api/v1/user", Some(&third.access))
        .await
        .expect_code(0);

    // Someone replays the first token after the owner's clients moved on.
    tokio::time::sleep(Duration::from_millis(api::REUSE_GRACE_MS as u64 + 300)).await;
    app.refresh(&first.refresh).await.expect_401();
    // The whole chain is gone: the newest refresh token and the access tokens of the chain.
    app.refresh(&third.refresh).await.expect_401();
    app.get("/api/v1/user", Some(&third.access))
        .await
        .expect_401();
    app.get("/api/v1/user", Some(&first.access))
        .await
        .expect_401();
    // Another sign-in of the same account is not touched.
    app.get("/api/v1/user", Some(&other.access))
        .await
        .expect_code(0);
    tokens(&app.refresh(&other.refresh).await);
}

#[tokio::test]
async fn reusing_a_rotated_refresh_token_revokes_the_whole_chain() {
    // Both backends wait out the grace at once.
    let runs: Vec<_> = spawn()
        .await
        .into_iter()
        .map(|app| tokio::spawn(reuse_after_the_grace_revokes_the_chain(app)))
        .collect();
    for run in runs {
        run.await.expect("test task");
    }
}

#[tokio::test]
async fn a_race_of_the_owners_own_clients_keeps_the_session() {
    for app in spawn().await {
        app.user("race@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let t = app.login("race@example.com", PW).await;
        let (a, b) = tokio::join!(app.refresh(&t.refresh), app.refresh(&t.refresh));
        let winner = if a.status == 200 { &a } else { &b };
        let fresh = tokens(winner);
        // Within the grace the loser is only refused: the winner's tokens live on.
        app.refresh(&t.refresh).await.expect_401();
        app.get("/api/v1/user", Some(&fresh.access))
            .await
            .expect_code(0);
        tokens(&app.refresh(&fresh.refresh).await);
    }
}

#[tokio::test]
async fn sign_out_ends_the_access_token_too() {
    for app in spawn().await {
        app.user("bye@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let here = app.login("bye@example.com", PW).await;
        let there = app.login("bye@example.com", PW).await;
        app.post(
            "/api/v1/user/logout",
            json!({"refresh_token": here.refresh}),
            Some(&here.access),
        )
        .await
        .expect_code(0);
        app.get("/api/v1/user", Some(&here.access))
            .await
            .expect_401();
        app.refresh(&here.refresh).await.expect_401();
        // Signing out here leaves the other sign-in alone.
        app.get("/api/v1/user", Some(&there.access))
            .await
            .expect_code(0);

        // With only the refresh token (the access token expired meanwhile, or was lost), the
        // session still ends on the server.
        let later = app.login("bye@example.com", PW).await;
        app.post(
            "/api/v1/user/logout",
            json!({"refresh_token": later.refresh}),
            Some("expired-or-garbage"),
        )
        .await
        .expect_code(0);
        app.get("/api/v1/user", Some(&later.access))
            .await
            .expect_401();
        app.refresh(&later.refresh).await.expect_401();
    }
}

#[tokio::test]
async fn enabling_an_account_again_does_not_revive_its_old_tokens() {
    for app in spawn().await {
        let id = app
            .user("back@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let old = app.login("back@example.com", PW).await;
        app.store
            .set_disabled(id, true, domain::time::now_ms(), None)
            .await
            .unwrap();
        app.get("/api/v1/user", Some(&old.access))
            .await
            .expect_401();
        app.store
            .set_disabled(id, false, domain::time::now_ms(), None)
            .await
            .unwrap();
        app.get("/api/v1/user", Some(&old.access))
            .await
            .expect_401();
        app.refresh(&old.refresh).await.expect_401();
        // Signing in again works as ever.
        let new = app.login("back@example.com", PW).await;
        app.get("/api/v1/user", Some(&new.access))
            .await
            .expect_code(0);
    }
}

#[tokio::test]
async fn password_change_ends_every_session_including_the_callers() {
    for app in spawn().await {
        let id = app
            .user("pw@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let a = app.login("pw@example.com", PW).await;
        let b = app.login("pw@example.com", PW).await;
        app.post(
            &format!("/api/v1/user/{}/pwd", id.0),
            json!({"oldPassword": PW, "newPassword": "n3w-s3cret"}),
            Some(&a.access),
        )
        .await
        .expect_code(0);
        for t in [&a, &b] {
            app.get("/api/v1/user", Some(&t.access)).await.expect_401();
            app.refresh(&t.refresh).await.expect_401();
        }
    }
}
