//! Plants: create with tariff, delete, share, cancel a share, transfer.

use crate::common::{actor, draft, failed_in_store, plant, plant_count};
use domain::{Code, policy::PlantAccess, user::BuiltinRole};
use service::{ServiceError, files::FileStore, plants};
use store::testing::{TestResult, Write, each_backend};

#[tokio::test]
async fn a_plant_is_created_with_its_tariff() -> TestResult {
    each_backend(|s| async move {
        let ann = actor(&s, "ann@example.com", BuiltinRole::PlantOwner).await?;
        let id = plants::create(&s, &ann, &draft("Ann home"), 10).await?;
        let (row, access) = plants::visible(&s, &ann, id).await?;
        assert_eq!(
            (row.name.as_str(), access),
            ("Ann home", PlantAccess::Owner)
        );
        assert_eq!(s.tariff(id).await?.len(), 2);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_plant_whose_tariff_cannot_be_written_is_not_created() -> TestResult {
    each_backend(|s| async move {
        let ann = actor(&s, "ann@example.com", BuiltinRole::PlantOwner).await?;
        s.fail_writes_for_tests("tariff_segments", Write::Insert)
            .await?;
        let created = plants::create(&s, &ann, &draft("Ann home"), 10).await;
        assert!(failed_in_store(&created), "{created:?}");
        assert_eq!(
            plant_count(&s, &ann).await?,
            0,
            "no plant without its tariff"
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn deleting_a_plant_takes_its_tariff_and_shares_with_it() -> TestResult {
    each_backend(|s| async move {
        let ann = actor(&s, "ann@example.com", BuiltinRole::PlantOwner).await?;
        let bob = actor(&s, "bob@example.com", BuiltinRole::PlantOwner).await?;
        let id = plant(&s, &ann, "Ann home").await?;
        plants::share(&s, &ann, id, "bob@example.com", "visitor", 11).await?;
        let gone = plants::delete(&s, &ann, id).await?;
        assert_eq!(gone.id, id);
        assert_eq!(
            plant_count(&s, &ann).await? + plant_count(&s, &bob).await?,
            0
        );
        assert!(s.tariff(id).await?.is_empty());
        assert!(s.plant_shares(id).await?.is_empty());
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_delete_that_fails_half_way_leaves_the_plant_whole() -> TestResult {
    each_backend(|s| async move {
        let ann = actor(&s, "ann@example.com", BuiltinRole::PlantOwner).await?;
        actor(&s, "bob@example.com", BuiltinRole::PlantOwner).await?;
        let id = plant(&s, &ann, "Ann home").await?;
        plants::share(&s, &ann, id, "bob@example.com", "visitor", 11).await?;
        // The tariff and the shares go first; the plant row itself cannot.
        s.fail_writes_for_tests("plants", Write::Delete).await?;
        let deleted = plants::delete(&s, &ann, id).await;
        assert!(failed_in_store(&deleted), "{deleted:?}");
        assert_eq!(plant_count(&s, &ann).await?, 1);
        assert_eq!(s.tariff(id).await?.len(), 2, "the tariff is back");
        assert_eq!(s.plant_shares(id).await?.len(), 1, "the share is back");
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_plant_is_shared_unshared_and_transferred_by_its_owner_only() -> TestResult {
    each_backend(|s| async move {
        let ann = actor(&s, "ann@example.com", BuiltinRole::PlantOwner).await?;
        let bob = actor(&s, "bob@example.com", BuiltinRole::PlantOwner).await?;
        let id = plant(&s, &ann, "Ann home").await?;
        let refused = plants::share(&s, &ann, id, "ann@example.com", "visitor", 11).await;
        assert!(matches!(refused, Err(ServiceError::Refused(e)) if e.code == Code::ShareSelf));

        plants::share(&s, &ann, id, "bob@example.com", "visitor", 11).await?;
        assert_eq!(plants::visible(&s, &bob, id).await?.1, PlantAccess::Visitor);
        let by_visitor = plants::transfer(&s, &bob, id, "bob@example.com", 12).await;
        assert!(
            matches!(by_visitor, Err(ServiceError::Refused(e)) if e.code == Code::NoPermission)
        );
        plants::cancel_share(
            &s,
            FileStore::Database(&s),
            &bob,
            id,
            plants::ShareTarget::Own,
        )
        .await?;
        let unseen = plants::visible(&s, &bob, id).await;
        assert!(matches!(unseen, Err(ServiceError::Refused(e)) if e.code == Code::PlantMissing));

        plants::share(&s, &ann, id, "bob@example.com", "maintainer", 13).await?;
        plants::transfer(&s, &ann, id, "bob@example.com", 14).await?;
        assert_eq!(plants::visible(&s, &bob, id).await?.1, PlantAccess::Owner);
        assert!(
            s.plant_shares(id).await?.is_empty(),
            "the new owner's share ended"
        );
        assert_eq!(plant_count(&s, &ann).await?, 0);
        Ok(())
    })
    .await
}
