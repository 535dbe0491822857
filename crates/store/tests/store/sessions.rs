//! The store contract for sessions (issue 12, finding 9), on every backend: a revoked session
//! ends its access tokens (no user found for it) and its refresh chain; a used token presented
//! again ends its chain; disabling an account ends every session of it.

use domain::{ids::UserId, user::UserKind};
use store::testing::{TestResult, each_backend};
use store::{Store, users::NewUser};

fn new_user(account: &str) -> NewUser<'_> {
    NewUser {
        account,
        email: account,
        mobile: "",
        password_hash: "hash",
        nickname: "Ann",
        kind: UserKind::Owner,
        company: None,
        role: None,
        user_src: "web",
        now: 1_000,
    }
}

async fn user(s: &Store, account: &str) -> Result<UserId, store::StoreError> {
    s.create_user(&new_user(account)).await
}

#[tokio::test]
async fn a_session_answers_its_own_user_until_it_is_revoked() -> TestResult {
    each_backend(|s| async move {
        let ann = user(&s, "ann@example.com").await?;
        let bob = user(&s, "bob@example.com").await?;
        s.create_session("a1", ann, 1_000, 9_000).await?;
        assert_eq!(
            s.session_caller("a1", ann).await?.map(|c| c.user.id()),
            Some(ann)
        );
        assert!(s.session_caller("a1", bob).await?.is_none(), "not bob's");
        assert!(s.session_caller("nope", ann).await?.is_none());
        assert!(!s.revoke_user_session("a1", bob, 2_000).await?, "not bob's");
        assert!(s.revoke_user_session("a1", ann, 2_000).await?);
        assert!(s.session_caller("a1", ann).await?.is_none(), "revoked");
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_session_answers_its_caller_with_the_company_lock_and_the_role_permissions() -> TestResult
{
    each_backend(|s| async move {
        let sun = s.create_company("Sun", 1_000).await?;
        let field = s
            .create_role(sun, "Field", &["station.view", "gateway.view"], 1_000, None)
            .await?;
        let sam = s
            .create_user(&NewUser {
                kind: UserKind::Company,
                company: Some(sun),
                role: Some(field),
                ..new_user("sam@sun.example")
            })
            .await?;
        let ann = user(&s, "ann@example.com").await?;
        s.create_session("sam", sam, 1_000, 9_000).await?;
        s.create_session("ann", ann, 1_000, 9_000).await?;

        let caller = s.session_caller("sam", sam).await?.ok_or("live")?;
        let mut permissions = caller.permissions.clone();
        permissions.sort();
        assert_eq!(permissions, ["gateway.view", "station.view"]);
        assert!(!caller.company_disabled);
        s.set_company_disabled(sun, true, 2_000, None).await?;
        assert!(
            s.session_caller("sam", sam).await?.is_none(),
            "ended by the lock"
        );
        // A session written beside the lock (a sign-in in flight) still meets it.
        s.create_session("late", sam, 2_000, 9_000).await?;
        let caller = s.session_caller("late", sam).await?.ok_or("live")?;
        assert!(caller.company_disabled, "read with the caller");

        let owner = s.session_caller("ann", ann).await?.ok_or("live")?;
        assert!(owner.permissions.is_empty() && !owner.company_disabled);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_used_token_presented_after_the_grace_ends_its_whole_chain() -> TestResult {
    each_backend(|s| async move {
        let ann = user(&s, "ann@example.com").await?;
        s.create_session("chain", ann, 1_000, 9_000).await?;
        s.create_session("other", ann, 1_000, 9_000).await?;
        s.insert_refresh_token("t1", ann, "chain", 1_000, 9_000)
            .await?;
        s.insert_refresh_token("o1", ann, "other", 1_000, 9_000)
            .await?;
        assert!(s.take_refresh_token("t1", 2_000).await?.is_some());
        s.insert_refresh_token("t2", ann, "chain", 2_000, 10_000)
            .await?;
        // Within the grace (used at 2_000, not before 1_500): only refused.
        assert!(!s.revoke_reused_chain("t1", 1_500, 2_100).await?);
        assert!(s.session_caller("chain", ann).await?.is_some());
        // Later: the chain ends, the newest token with it; the other session lives on.
        assert!(s.revoke_reused_chain("t1", 2_500, 3_000).await?);
        assert!(s.session_caller("chain", ann).await?.is_none());
        assert_eq!(s.take_refresh_token("t2", 3_001).await?, None);
        assert!(s.take_refresh_token("o1", 3_002).await?.is_some());
        // Unknown tokens and live ones are not reuse.
        assert!(!s.revoke_reused_chain("unknown", 9_000, 9_000).await?);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn disabling_an_account_ends_its_sessions_for_good() -> TestResult {
    each_backend(|s| async move {
        let ann = user(&s, "ann@example.com").await?;
        s.create_session("a1", ann, 1_000, 9_000).await?;
        s.insert_refresh_token("r1", ann, "a1", 1_000, 9_000)
            .await?;
        s.set_disabled(ann, true, 2_000, None).await?;
        s.set_disabled(ann, false, 3_000, None).await?;
        assert!(s.session_caller("a1", ann).await?.is_none());
        assert_eq!(s.take_refresh_token("r1", 3_001).await?, None);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn signing_out_with_a_refresh_token_ends_its_session() -> TestResult {
    each_backend(|s| async move {
        let ann = user(&s, "ann@example.com").await?;
        s.create_session("a1", ann, 1_000, 9_000).await?;
        s.insert_refresh_token("r1", ann, "a1", 1_000, 9_000)
            .await?;
        // Without knowing whose it is (the access token had expired).
        assert!(s.revoke_refresh_token("r1", None, 2_000).await?);
        assert!(s.session_caller("a1", ann).await?.is_none());
        assert!(!s.revoke_refresh_token("unknown", None, 2_000).await?);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn used_tokens_are_kept_until_they_expire_then_purged_with_their_session() -> TestResult {
    each_backend(|s| async move {
        let ann = user(&s, "ann@example.com").await?;
        s.create_session("a1", ann, 1_000, 5_000).await?;
        s.insert_refresh_token("r1", ann, "a1", 1_000, 5_000)
            .await?;
        assert!(s.take_refresh_token("r1", 2_000).await?.is_some());
        s.insert_refresh_token("r2", ann, "a1", 2_000, 8_000)
            .await?;
        // The session lives as long as its newest token.
        assert_eq!(s.purge_refresh_tokens(4_000).await?, 0);
        assert!(
            s.revoke_reused_chain("r1", 3_000, 4_000).await?,
            "still recognised"
        );
        assert_eq!(s.purge_refresh_tokens(6_000).await?, 1, "r1 expired");
        assert_eq!(
            s.purge_refresh_tokens(9_000).await?,
            2,
            "r2 and the session"
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn disabling_a_company_ends_its_staffs_sessions_and_no_one_elses() -> TestResult {
    each_backend(|s| async move {
        let sun = s.create_company("Sun", 1_000).await?;
        let moon = s.create_company("Moon", 1_000).await?;
        let staff = |account: &'static str, company| {
            let s = s.clone();
            async move {
                s.create_user(&NewUser {
                    account,
                    email: account,
                    mobile: "",
                    password_hash: "hash",
                    nickname: "",
                    kind: UserKind::Company,
                    company: Some(company),
                    role: None,
                    user_src: "web",
                    now: 1_000,
                })
                .await
            }
        };
        let boss = staff("boss@sun.example", sun).await?;
        let other = staff("boss@moon.example", moon).await?;
        let owner = user(&s, "ann@example.com").await?;
        for (id, u) in [("b", boss), ("o", other), ("a", owner)] {
            s.create_session(id, u, 1_000, 9_000).await?;
            s.insert_refresh_token(&format!("r{id}"), u, id, 1_000, 9_000)
                .await?;
        }
        assert!(s.set_company_disabled(sun, true, 2_000, None).await?);
        assert!(s.set_company_disabled(sun, false, 3_000, None).await?);
        assert!(s.session_caller("b", boss).await?.is_none(), "ended");
        assert_eq!(s.take_refresh_token("rb", 3_001).await?, None);
        assert!(
            s.session_caller("o", other).await?.is_some(),
            "another company's"
        );
        assert!(s.session_caller("a", owner).await?.is_some(), "an owner's");
        assert!(
            !s.set_company_disabled(domain::ids::CompanyId(999), true, 4_000, None)
                .await?
        );
        Ok(())
    })
    .await
}
