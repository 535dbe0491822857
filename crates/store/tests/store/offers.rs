//! Store contract for plants made for other accounts: a plant and its tariff in one
//! transaction, offered to an account that accepts it (becoming the company's customer) or
//! declines it.

use domain::user::UserKind;
use store::{
    offers::NewPlant,
    plants::NewTariffSegment,
    testing::{TestResult, each_backend, new_user, plant_fields},
};

#[tokio::test]
async fn an_offered_plant_moves_only_when_its_account_accepts_it() -> TestResult {
    each_backend(|s| async move {
        let acme = s.create_company("Acme Solar", 1).await?;
        let staff = s
            .create_user(&store::users::NewUser {
                company: Some(acme),
                ..new_user("staff@acme.example", UserKind::Company)
            })
            .await?;
        let ann = s
            .create_user(&new_user("ann@example.com", UserKind::Owner))
            .await?;
        let eve = s
            .create_user(&new_user("eve@example.com", UserKind::Owner))
            .await?;
        assert!(!s.is_customer(acme, ann).await?);

        let fields = plant_fields("Ann roof");
        let tariff = [NewTariffSegment {
            kind: 1,
            start_range: String::new(),
            end_range: String::new(),
            price: 0.2,
            direction: None,
        }];
        let plant = s
            .create_plant_with_tariff(&NewPlant {
                owner: staff,
                company: Some(acme),
                created_by: staff,
                offered_to: Some(ann),
                fields: &fields,
                tariff: &tariff,
                now: 10,
            })
            .await?;
        assert_eq!(s.tariff(plant).await?.len(), 1);
        let row = s.plant(plant, staff).await?.ok_or("plant")?;
        assert_eq!(
            (row.owner_id, row.offered_to, row.offered_at),
            (staff, Some(ann), Some(10))
        );

        let offers = s.plant_offers(ann).await?;
        assert_eq!(offers.len(), 1);
        assert_eq!(offers[0].company_name.as_deref(), Some("Acme Solar"));
        assert_eq!(offers[0].offered_by, "staff@acme.example");
        assert!(s.plant_offers(eve).await?.is_empty());

        assert!(
            !s.accept_plant_offer(plant, eve, 11).await?,
            "not eve's to take"
        );
        assert!(s.accept_plant_offer(plant, ann, 12).await?);
        assert!(!s.accept_plant_offer(plant, ann, 13).await?, "taken once");
        let row = s.plant(plant, ann).await?.ok_or("plant")?;
        assert_eq!(
            (row.owner_id, row.company_id, row.offered_to),
            (ann, Some(acme), None)
        );
        assert!(s.is_customer(acme, ann).await?);
        assert!(s.plant_offers(ann).await?.is_empty());

        // Declined, or withdrawn by its maker: the plant stays where it was.
        let second = s
            .create_plant_with_tariff(&NewPlant {
                offered_to: Some(eve),
                fields: &plant_fields("Eve roof"),
                tariff: &[],
                ..NewPlant {
                    owner: staff,
                    company: Some(acme),
                    created_by: staff,
                    offered_to: None,
                    fields: &fields,
                    tariff: &tariff,
                    now: 20,
                }
            })
            .await?;
        assert!(
            !s.end_plant_offer(second, Some(ann)).await?,
            "not ann's offer"
        );
        assert!(s.end_plant_offer(second, Some(eve)).await?);
        assert!(!s.is_customer(acme, eve).await?);
        let row = s.plant(second, staff).await?.ok_or("plant")?;
        assert_eq!((row.owner_id, row.offered_to), (staff, None));
        assert!(
            !s.end_plant_offer(second, None).await?,
            "nothing left to withdraw"
        );
        Ok(())
    })
    .await
}
