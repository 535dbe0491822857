//! Sign-in and token refresh: a sign-in writes its session, its first refresh token and the
//! throttle's record of the success together, and a refresh uses up the old token only when
//! it stores the new one.

use std::net::{IpAddr, Ipv4Addr};

use crate::common::{Error, failed_in_store};
use domain::{ids::UserId, login_guard::KNOWN_FOR_MS, user::UserKind};
use service::{
    sessions::{self, Credentials, Terms},
    tokens::digest,
};
use store::{
    Store,
    testing::{TestResult, Write, each_backend, new_user},
    users::NewUser,
};

const ACCOUNT: &str = "ann@example.com";
const PASSWORD: &str = "Kettle-Harbour4";
const IP: IpAddr = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 7));
const PAIR: &str = "pair:192.0.2.7|ann@example.com";
const KNOWN: &str = "known:192.0.2.7|ann@example.com";
const TERMS: Terms = Terms {
    refresh_ttl_ms: 86_400_000,
    delay_step_ms: 0,
};

/// A plant owner who signs in with [`PASSWORD`].
async fn owner(s: &Store) -> Result<UserId, Error> {
    let hash = service::passwords::hash(PASSWORD.into()).await?;
    Ok(s.create_user(&NewUser {
        password_hash: &hash,
        ..new_user(ACCOUNT, UserKind::Owner)
    })
    .await?)
}

fn credentials() -> Credentials<'static> {
    Credentials {
        username: ACCOUNT,
        password: PASSWORD.into(),
        code: None,
        ip: IP,
    }
}

#[tokio::test]
async fn a_sign_in_writes_its_session_token_and_success() -> TestResult {
    each_backend(|s| async move {
        let ann = owner(&s).await?;
        // A failure of this pair before: the success clears it.
        s.record_login_failure(PAIR, 1_000, 0).await?;
        let issued = sessions::sign_in(&s, credentials(), &TERMS, 2_000).await?;
        assert!(s.session_caller(&issued.session, ann).await?.is_some());
        let token = digest(&issued.refresh_token);
        assert!(s.refresh_token_owner(&token, 2_001).await?.is_some());
        assert!(s.throttle(PAIR).await?.is_none(), "cleared");
        let known = s.throttle(KNOWN).await?.ok_or("known")?;
        assert_eq!(known.locked_until, 2_000 + KNOWN_FOR_MS);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_sign_in_that_fails_half_way_leaves_nothing() -> TestResult {
    each_backend(|s| async move {
        owner(&s).await?;
        s.record_login_failure(PAIR, 1_000, 0).await?;
        // The session and its token are written and the pair cleared; marking the address
        // known then fails.
        s.fail_writes_for_tests("login_throttle", Write::Insert)
            .await?;
        let signed_in = sessions::sign_in(&s, credentials(), &TERMS, 2_000).await;
        assert!(failed_in_store(&signed_in), "{signed_in:?}");
        assert_eq!(
            s.throttle(PAIR).await?.map(|t| t.failures),
            Some(1),
            "not cleared"
        );
        // Purging everything that ever expires finds no session and no token.
        assert_eq!(s.purge_refresh_tokens(i64::MAX).await?, 0);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_refresh_trades_the_token_for_the_next_of_its_session() -> TestResult {
    each_backend(|s| async move {
        let ann = owner(&s).await?;
        let first = sessions::sign_in(&s, credentials(), &TERMS, 2_000).await?;
        let next = sessions::refresh(&s, &first.refresh_token, &TERMS, 3_000)
            .await?
            .ok_or("refreshed")?;
        assert_eq!(next.session, first.session);
        let (old, new) = (digest(&first.refresh_token), digest(&next.refresh_token));
        assert!(s.refresh_token_owner(&old, 3_001).await?.is_none(), "used");
        assert!(s.refresh_token_owner(&new, 3_001).await?.is_some());
        // Presented again within the grace: refused, and the session lives on.
        let again = sessions::refresh(&s, &first.refresh_token, &TERMS, 3_500).await?;
        assert!(again.is_none());
        assert!(s.session_caller(&first.session, ann).await?.is_some());
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_refresh_that_fails_half_way_keeps_the_old_token() -> TestResult {
    each_backend(|s| async move {
        owner(&s).await?;
        let first = sessions::sign_in(&s, credentials(), &TERMS, 2_000).await?;
        // The old token is used up; storing its successor then fails.
        s.fail_writes_for_tests("refresh_tokens", Write::Insert)
            .await?;
        let refreshed = sessions::refresh(&s, &first.refresh_token, &TERMS, 3_000).await;
        assert!(failed_in_store(&refreshed), "{refreshed:?}");
        let old = digest(&first.refresh_token);
        assert!(
            s.refresh_token_owner(&old, 3_001).await?.is_some(),
            "the old token still serves"
        );
        Ok(())
    })
    .await
}
