//! Custom setting profiles: add, change, delete one's own.

use crate::common::actor;
use domain::ids::ProfileId;
use domain::{Code, settings::Raw, user::BuiltinRole};
use service::{
    ServiceError,
    settings::{ProfileDraft, delete_profile, save_profile},
};
use store::testing::{TestResult, each_backend};

fn params(value: &str) -> Vec<(String, Raw)> {
    vec![("batteryLowCap".to_string(), Raw::from(value))]
}

fn draft<'a>(
    id: Option<ProfileId>,
    name: &'a str,
    params: &'a [(String, Raw)],
) -> ProfileDraft<'a> {
    ProfileDraft { id, name, params }
}

/// Whether `r` is a refusal with code 4 whose detail names `field`.
fn refused<T>(r: &service::Result<T>, field: &str) -> bool {
    matches!(r, Err(ServiceError::Refused(e))
        if e.code == Code::InvalidParameter
            && e.detail.as_deref().is_some_and(|d| d.starts_with(field)))
}

#[tokio::test]
async fn a_profile_is_added_changed_and_deleted() -> TestResult {
    each_backend(|s| async move {
        let admin = actor(&s, "admin@example.com", BuiltinRole::InternalAdmin).await?;
        let low = params("20");
        let row = save_profile(&s, &admin, &draft(None, " Winter ", &low), 1).await?;
        assert_eq!(row.name, "Winter");
        let high = params("40");
        let changed = save_profile(&s, &admin, &draft(Some(row.id), "Summer", &high), 2).await?;
        assert_eq!((changed.id, changed.name.as_str()), (row.id, "Summer"));
        assert!(changed.params.contains("40"), "{}", changed.params);
        delete_profile(&s, &admin, Some(row.id)).await?;
        assert!(s.setting_profiles(admin.id).await?.is_empty());
        Ok(())
    })
    .await
}

#[tokio::test]
async fn profiles_refuse_bad_names_a_seventh_profile_and_others_profiles() -> TestResult {
    each_backend(|s| async move {
        let admin = actor(&s, "admin@example.com", BuiltinRole::InternalAdmin).await?;
        let other = actor(&s, "other@example.com", BuiltinRole::InternalAdmin).await?;
        let p = params("20");
        let blank = save_profile(&s, &admin, &draft(None, "  ", &p), 1).await;
        assert!(refused(&blank, "name"), "{blank:?}");
        let mut first = None;
        for n in 0..6 {
            let row = save_profile(&s, &admin, &draft(None, &format!("P{n}"), &p), 1).await?;
            first.get_or_insert(row.id);
        }
        let seventh = save_profile(&s, &admin, &draft(None, "P6", &p), 1).await;
        assert!(refused(&seventh, "profiles"), "{seventh:?}");
        let same_name = save_profile(&s, &admin, &draft(first, "P1", &p), 2).await;
        assert!(refused(&same_name, "name"), "{same_name:?}");
        let not_theirs = delete_profile(&s, &other, first).await;
        assert!(refused(&not_theirs, "id"), "{not_theirs:?}");
        assert_eq!(s.setting_profiles(admin.id).await?.len(), 6);
        Ok(())
    })
    .await
}
