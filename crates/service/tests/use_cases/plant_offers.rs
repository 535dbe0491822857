//! Plants offered by company staff: accept, decline, withdraw.

use crate::common::{Error, actor, draft, failed_in_store, plant_count, staff};
use domain::{Code, ids::PlantId, policy::Actor, user::BuiltinRole};
use service::{
    ServiceError,
    plants::{self, offers},
};
use store::{
    Store,
    testing::{TestResult, Write, each_backend},
};

/// Acme's staff member, Ann (nobody's customer), and the plant the staff member made for her,
/// which waits on her answer.
async fn offered(s: &Store) -> Result<(Actor, Actor, PlantId), Error> {
    let acme = s.create_company("Acme", 1).await?;
    let maker = staff(s, "staff@acme.com", acme).await?;
    let ann = actor(s, "ann@example.com", BuiltinRole::PlantOwner).await?;
    let mut d = draft("Ann roof");
    d.owner = Some("ann@example.com".into());
    let id = plants::create(s, &maker, &d, 10).await?;
    Ok((maker, ann, id))
}

#[tokio::test]
async fn an_accepted_offer_gives_the_plant_and_makes_a_customer() -> TestResult {
    each_backend(|s| async move {
        let (maker, ann, id) = offered(&s).await?;
        assert_eq!(
            plant_count(&s, &ann).await?,
            0,
            "not hers before she accepts"
        );
        offers::accept(&s, &ann, id, 20).await?;
        let (row, _) = plants::visible(&s, &ann, id).await?;
        assert_eq!((row.owner_id, row.offered_to), (ann.id, None));
        let acme = maker.company.ok_or("company")?;
        assert!(s.is_customer(acme, ann.id).await?);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn only_the_account_offered_answers_and_only_the_maker_withdraws() -> TestResult {
    each_backend(|s| async move {
        let (maker, ann, id) = offered(&s).await?;
        let eve = actor(&s, "eve@example.com", BuiltinRole::PlantOwner).await?;
        let by_eve = offers::accept(&s, &eve, id, 20).await;
        assert!(matches!(by_eve, Err(ServiceError::Refused(e)) if e.code == Code::PlantMissing));
        let withdrawn_by_ann = offers::cancel(&s, &ann, id).await;
        assert!(
            matches!(withdrawn_by_ann, Err(ServiceError::Refused(e)) if e.code == Code::PlantMissing)
        );
        offers::decline(&s, &ann, id).await?;
        let again = offers::accept(&s, &ann, id, 21).await;
        assert!(matches!(again, Err(ServiceError::Refused(e)) if e.code == Code::PlantMissing));
        assert_eq!(plants::visible(&s, &maker, id).await?.0.owner_id, maker.id);

        let mut d = draft("Eve shed");
        d.owner = Some("eve@example.com".into());
        let shed = plants::create(&s, &maker, &d, 22).await?;
        offers::cancel(&s, &maker, shed).await?;
        let withdrawn = offers::accept(&s, &eve, shed, 23).await;
        assert!(matches!(withdrawn, Err(ServiceError::Refused(e)) if e.code == Code::PlantMissing));
        Ok(())
    })
    .await
}

#[tokio::test]
async fn an_accept_that_fails_half_way_leaves_the_offer_waiting() -> TestResult {
    each_backend(|s| async move {
        let (maker, ann, id) = offered(&s).await?;
        // The plant moves first; making Ann a customer then fails.
        s.fail_writes_for_tests("customers", Write::Insert).await?;
        let accepted = offers::accept(&s, &ann, id, 20).await;
        assert!(failed_in_store(&accepted), "{accepted:?}");
        let (row, _) = plants::visible(&s, &maker, id).await?;
        assert_eq!((row.owner_id, row.offered_to), (maker.id, Some(ann.id)));
        assert_eq!(plant_count(&s, &ann).await?, 0);
        Ok(())
    })
    .await
}
