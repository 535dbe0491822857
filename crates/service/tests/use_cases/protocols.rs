//! Protocol configs: an administrator's save is written with its audit entry or not at all.

use crate::common::{actor, audit_entries, fail_audit};
use devices::protocol::{shipped, stored::SaveError};
use domain::user::BuiltinRole;
use store::testing::{TestResult, each_backend};

#[tokio::test]
async fn a_protocol_save_is_audited_or_not_made() -> TestResult {
    each_backend(|s| async move {
        let admin = actor(&s, "admin@example.com", BuiltinRole::InternalAdmin).await?;
        let config = shipped()?.into_iter().next().ok_or("no shipped config")?;
        let code = config.code.clone();
        let saved = service::protocols::save(&s, &admin, config.clone(), 1).await?;
        assert_eq!(
            audit_entries(&s).await?,
            [("protocol.save".to_string(), format!("protocol:{code}"))]
        );
        let stored = s.protocol(&code).await?.ok_or("stored")?.config;
        fail_audit(&s).await?;
        let mut renamed = saved;
        renamed.name = "Renamed".into();
        let failed = service::protocols::save(&s, &admin, renamed, 2).await;
        assert!(matches!(failed, Err(SaveError::Store(_))), "{failed:?}");
        assert_eq!(
            s.protocol(&code).await?.ok_or("stored")?.config,
            stored,
            "not changed without its entry"
        );
        Ok(())
    })
    .await
}
