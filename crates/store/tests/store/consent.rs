//! Store contract for consent to company relations: a customer request moves into `customers`
//! only when its own account accepts it, together with its audit row; a request to an account
//! that already is a customer (through a plant offer) is simply used up; an agent request moves
//! into `agents` and takes the agent company's other requests with it; ending either writes its
//! audit row or nothing.

use domain::{ids::CompanyId, user::UserKind};
use store::{
    customer_offers::{NewCustomerOffer, OfferSide},
    testing::{TestResult, audit, each_backend, new_user},
};

async fn audits(s: &store::Store, action: &str) -> Result<i64, store::StoreError> {
    let filter = store::audit::AuditFilter {
        action: Some(action.into()),
        limit: 100,
        ..Default::default()
    };
    Ok(s.audit_visible(
        domain::policy::PlantVisibility::All,
        domain::ids::UserId(0),
        &filter,
    )
    .await?
    .1)
}

#[tokio::test]
async fn a_customer_request_moves_only_when_its_account_accepts_it() -> TestResult {
    each_backend(|s| async move {
        let acme = s.create_company("Acme Solar", 1).await?;
        let ann = s
            .create_user(&new_user("ann@example.com", UserKind::Owner))
            .await?;
        let eve = s
            .create_user(&new_user("eve@example.com", UserKind::Owner))
            .await?;
        let offer = NewCustomerOffer {
            company: acme,
            user: ann,
            type_id: None,
            remark: "roof",
            message: "hello",
            by: eve,
            now: 5,
        };
        let id = s.insert_customer_offer(&offer, &audit("o")).await?;
        assert!(s.customer_offer_pending(acme, ann).await?);
        assert!(matches!(
            s.insert_customer_offer(&offer, &audit("o")).await,
            Err(store::StoreError::Conflict(store::Conflict::CustomerOffer))
        ));
        assert_eq!(
            audits(&s, "o").await?,
            1,
            "the refused second request wrote nothing"
        );
        assert!(s.customer_offer(id, OfferSide::Asked(eve)).await?.is_none());
        assert!(
            s.customer_offer(id, OfferSide::Offering(CompanyId(999)))
                .await?
                .is_none()
        );

        assert_eq!(
            s.accept_customer_offer(id, eve, &audit("a"), 9).await?,
            None
        );
        assert!(!s.is_customer(acme, ann).await?);
        assert_eq!(audits(&s, "a").await?, 0);
        assert_eq!(
            s.accept_customer_offer(id, ann, &audit("a"), 9).await?,
            Some(acme)
        );
        assert!(s.is_customer(acme, ann).await?);
        assert!(!s.customer_offer_pending(acme, ann).await?);
        assert_eq!(audits(&s, "a").await?, 1);
        let serving = s.serving_companies(ann).await?;
        assert_eq!(serving.len(), 1);
        assert_eq!(serving[0].company_name, "Acme Solar");

        // Already a customer (a plant offer): a later request is used up, the relation stays.
        let again = s.insert_customer_offer(&offer, &audit("o")).await?;
        assert_eq!(
            s.accept_customer_offer(again, ann, &audit("a"), 11).await?,
            Some(acme)
        );
        assert_eq!(s.serving_companies(ann).await?.len(), 1);

        let relation = serving[0].id;
        assert!(!s.leave_customer(relation, eve, &audit("l")).await?);
        assert!(s.leave_customer(relation, ann, &audit("l")).await?);
        assert!(!s.is_customer(acme, ann).await?);
        assert_eq!(audits(&s, "l").await?, 1);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn an_accepted_agent_request_ends_the_agent_companys_other_requests() -> TestResult {
    each_backend(|s| async move {
        let sun = s.create_company("Sun Co", 1).await?;
        let star = s.create_company("Star Co", 1).await?;
        let moon = s.create_company("Moon Co", 1).await?;
        let boss = s
            .create_user(&new_user("boss@sun.example", UserKind::Company))
            .await?;
        let from_sun = s
            .insert_agent_offer(sun, moon, "", boss, &audit("o"), 1)
            .await?;
        let from_star = s
            .insert_agent_offer(star, moon, "", boss, &audit("o"), 2)
            .await?;
        assert_eq!(s.agent_offers(moon, false, 10).await?.len(), 2);
        assert_eq!(
            s.accept_agent_offer(from_sun, star, &audit("a"), 3).await?,
            None
        );
        let (_, principal) = s
            .accept_agent_offer(from_sun, moon, &audit("a"), 3)
            .await?
            .ok_or("accepted")?;
        assert_eq!(principal, sun);
        assert!(s.is_agent_of(sun, moon).await?);
        assert!(s.agent_offers(moon, false, 10).await?.is_empty());
        assert_eq!(
            s.accept_agent_offer(from_star, moon, &audit("a"), 4)
                .await?,
            None
        );
        assert_eq!(s.principal(moon).await?.map(|p| p.company_id), Some(sun));

        assert!(!s.leave_agency(star, &audit("l")).await?);
        assert!(s.leave_agency(moon, &audit("l")).await?);
        assert!(!s.is_agent_of(sun, moon).await?);
        assert_eq!(audits(&s, "l").await?, 1);
        Ok(())
    })
    .await
}
