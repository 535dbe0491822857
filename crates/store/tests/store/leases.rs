//! The store contract for leases (issue 19): while one replica holds a lease no other gets it,
//! and once it is dropped the next one does. SQLite, served by one process, grants every lease.

use store::{
    Backend,
    leases::DISPATCH,
    testing::{TestResult, each_backend},
};

#[tokio::test]
async fn a_lease_has_one_holder_at_a_time() -> TestResult {
    each_backend(|s| async move {
        let first = s.try_lease(DISPATCH).await?;
        assert!(first.is_some());
        // Another replica: the same database through a pool of its own.
        let other = s.clone();
        let second = other.try_lease(DISPATCH).await?;
        match s.backend() {
            Backend::Postgres => assert!(second.is_none(), "held by the first"),
            Backend::Sqlite => assert!(second.is_some(), "one process: always granted"),
        }
        if let Some(second) = second {
            second.release().await?;
        }
        first.ok_or("first")?.release().await?;
        let again = other.try_lease(DISPATCH).await?;
        assert!(again.is_some(), "free once released");
        Ok(())
    })
    .await
}
