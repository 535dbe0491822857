//! The store contract for the VTN sync's claim (issue 19), on every backend: every replica
//! runs the sync job, and of those that find a connection due only the first to claim it
//! syncs; the next sync is claimed from the time the previous one recorded.

use store::energy_hub::vtn::VtnWrite;
use store::testing::{TestResult, each_backend};

#[tokio::test]
async fn one_replica_claims_a_due_sync() -> TestResult {
    each_backend(|s| async move {
        let vtn = VtnWrite {
            name: "Utility".into(),
            url: "http://127.0.0.1:1/openadr3".into(),
            version: "3.1".into(),
            client_id_enc: "v1:x".into(),
            client_secret_enc: "v1:y".into(),
            ven_name: "portal".into(),
            poll_seconds: 60,
            enabled: true,
        };
        let id = s.insert_vtn(&vtn, 1_000, None).await?;
        let seen = s.vtn(id).await?.ok_or("vtn")?.last_sync_at;
        assert_eq!(seen, None, "never synced");
        assert!(
            s.claim_vtn_sync(id, seen, 2_000).await?,
            "the first replica"
        );
        assert!(
            !s.claim_vtn_sync(id, seen, 2_001).await?,
            "a second one read the same row"
        );
        s.vtn_synced(id, Some("ven-1"), "", None, 2_500).await?;
        let seen = s.vtn(id).await?.ok_or("vtn")?.last_sync_at;
        assert_eq!(seen, Some(2_500));
        assert!(
            !s.claim_vtn_sync(id, Some(2_000), 70_000).await?,
            "from an older read"
        );
        assert!(s.claim_vtn_sync(id, seen, 70_000).await?, "the next one");
        Ok(())
    })
    .await
}
