//! A person's own account: a new password ends every session of the account, in the same
//! transaction.

use crate::common::{actor, failed_in_store};
use domain::user::BuiltinRole;
use service::users;
use store::testing::{TestResult, Write, each_backend};

#[tokio::test]
async fn a_new_password_ends_every_session() -> TestResult {
    each_backend(|s| async move {
        let ann = actor(&s, "ann@example.com", BuiltinRole::PlantOwner).await?;
        s.create_session("s1", ann.id, 1_000, 9_000).await?;
        s.insert_refresh_token("h1", ann.id, "s1", 1_000, 9_000)
            .await?;
        users::change_password(&s, &ann, "new-hash", 2_000).await?;
        assert!(s.session_caller("s1", ann.id).await?.is_none(), "ended");
        assert_eq!(s.take_refresh_token("h1", 2_001).await?, None);
        let row = s.user(ann.id).await?.ok_or("ann")?;
        assert_eq!(row.password_hash, "new-hash");
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_password_whose_sessions_cannot_end_is_not_set() -> TestResult {
    each_backend(|s| async move {
        let ann = actor(&s, "ann@example.com", BuiltinRole::PlantOwner).await?;
        let before = s.user(ann.id).await?.ok_or("ann")?.password_hash;
        s.create_session("s1", ann.id, 1_000, 9_000).await?;
        s.insert_refresh_token("h1", ann.id, "s1", 1_000, 9_000)
            .await?;
        // The password and the sessions are written; revoking the refresh tokens then fails.
        s.fail_writes_for_tests("refresh_tokens", Write::Update)
            .await?;
        let changed = users::change_password(&s, &ann, "new-hash", 2_000).await;
        assert!(failed_in_store(&changed), "{changed:?}");
        let reset = users::reset_password(&s, ann.id, "new-hash", 2_000).await;
        assert!(failed_in_store(&reset), "{reset:?}");
        assert_eq!(s.user(ann.id).await?.ok_or("ann")?.password_hash, before);
        assert!(
            s.session_caller("s1", ann.id).await?.is_some(),
            "still open"
        );
        Ok(())
    })
    .await
}
