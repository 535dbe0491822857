//! Other users' profiles and avatars look missing.

use super::*;

#[tokio::test]
async fn other_users_profiles_and_avatars_look_missing() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let png = b"\x89PNG\r\n\x1a\n0000";
        let body = json!({"nickname": "pwned"});
        // (caller, target) pairs that must not manage each other.
        let cases = [
            (
                "company admin -> other company",
                w.admin_a.as_str(),
                w.staff_b,
            ),
            ("company admin -> owner", w.admin_a.as_str(), w.owner),
            ("staff -> colleague", w.staff_a_token.as_str(), w.admin_a_id),
            ("owner -> staff", w.owner_token.as_str(), w.staff_a),
        ];
        for (what, token, target) in cases {
            let t = Some(token);
            let missing = app
                .post(&format!("/api/v1/user/{MISSING}"), body.clone(), t)
                .await;
            missing.expect_code(105);
            let other = app
                .post(&format!("/api/v1/user/{}", target.0), body.clone(), t)
                .await;
            assert_eq!(other.json, missing.json, "[{b}] profile: {what}");

            let missing = app
                .upload(
                    &format!("/api/v1/user/{MISSING}/avatar"),
                    "a.png",
                    "image/png",
                    png,
                    t,
                )
                .await;
            missing.expect_code(105);
            let other = app
                .upload(
                    &format!("/api/v1/user/{}/avatar", target.0),
                    "a.png",
                    "image/png",
                    png,
                    t,
                )
                .await;
            assert_eq!(other.json, missing.json, "[{b}] avatar: {what}");

            let pwd = json!({"oldPassword": "secret123", "newPassword": "pwned1234"});
            let missing = app
                .post(&format!("/api/v1/user/{MISSING}/pwd"), pwd.clone(), t)
                .await;
            let other = app
                .post(&format!("/api/v1/user/{}/pwd", target.0), pwd, t)
                .await;
            assert_eq!(other.json, missing.json, "[{b}] password: {what}");
        }
        for id in [w.staff_b, w.owner, w.admin_a_id, w.staff_a] {
            let u = app.store.user(id).await.unwrap().unwrap();
            assert_ne!(u.nickname, "pwned", "[{b}] {}", u.account);
            assert_eq!(u.avatar, "", "[{b}] {}", u.account);
        }
        // Positive control: a company admin manages their own staff.
        app.post(
            &format!("/api/v1/user/{}", w.staff_a.0),
            json!({"nickname": "Colleague"}),
            Some(&w.admin_a),
        )
        .await
        .expect_code(0);
        let u = app.store.user(w.staff_a).await.unwrap().unwrap();
        assert_eq!(u.nickname, "Colleague", "[{b}]");
    }
}
