//! Release notes: each publish, edit and delete is written with its audit entry or not at all.

use crate::common::{actor, audit_entries, fail_audit, failed_in_store};
use domain::user::BuiltinRole;
use service::versions::{self, NoteInput};
use store::testing::{TestResult, each_backend};

fn note(version: &str) -> NoteInput {
    NoteInput {
        version: Some(version.into()),
        content_en: Some("Plants".into()),
        ..NoteInput::default()
    }
}

#[tokio::test]
async fn each_release_note_change_leaves_its_entry() -> TestResult {
    each_backend(|s| async move {
        let admin = actor(&s, "admin@example.com", BuiltinRole::InternalAdmin).await?;
        let (id, _) = versions::publish(&s, &admin, "ops", &note("V1"), 1).await?;
        versions::edit(&s, &admin, id, &note("V2"), 2).await?;
        versions::delete(&s, &admin, id, 3).await?;
        let target = format!("version:{id}");
        let expected: Vec<(String, String)> = ["version.publish", "version.edit", "version.delete"]
            .iter()
            .map(|a| (a.to_string(), target.clone()))
            .collect();
        assert_eq!(audit_entries(&s).await?, expected);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_release_note_change_whose_entry_fails_is_not_made() -> TestResult {
    each_backend(|s| async move {
        let admin = actor(&s, "admin@example.com", BuiltinRole::InternalAdmin).await?;
        let (id, _) = versions::publish(&s, &admin, "ops", &note("V1"), 1).await?;
        fail_audit(&s).await?;
        let published = versions::publish(&s, &admin, "ops", &note("V9"), 2).await;
        assert!(failed_in_store(&published), "{published:?}");
        assert_eq!(s.versions(10, 0).await?.1, 1, "nothing published");
        let edited = versions::edit(&s, &admin, id, &note("V2"), 2).await;
        assert!(failed_in_store(&edited), "{edited:?}");
        let deleted = versions::delete(&s, &admin, id, 3).await;
        assert!(failed_in_store(&deleted), "{deleted:?}");
        let kept = s.version(id).await?.ok_or("deleted")?;
        assert_eq!(kept.version, "V1", "neither edited nor deleted");
        Ok(())
    })
    .await
}
