//! Plants: editing the fields and the tariff together.

use crate::common::{actor, draft, failed_in_store, plant};
use domain::{
    Code,
    plant::{TariffSegment, Valuation},
    user::BuiltinRole,
};
use service::{
    ServiceError,
    plants::{self, Changes},
};
use store::testing::{TestResult, Write, each_backend};

/// The plant renamed `name`, priced at one constant `price`.
fn renamed(
    name: &str,
    price: f64,
) -> impl FnOnce(&store::plants::PlantRow) -> Result<Changes, domain::DomainError> {
    let name = name.to_string();
    move |_| {
        Ok(Changes {
            fields: draft(&name).fields,
            tariff: Some(vec![TariffSegment {
                kind: Valuation::Constant,
                start: String::new(),
                end: String::new(),
                price,
                direction: None,
            }]),
        })
    }
}

#[tokio::test]
async fn an_edit_writes_the_plant_and_its_new_tariff() -> TestResult {
    each_backend(|s| async move {
        let ann = actor(&s, "ann@example.com", BuiltinRole::PlantOwner).await?;
        let id = plant(&s, &ann, "Ann home").await?;
        let edited = plants::edit(&s, &ann, id, renamed("Ann roof", 0.2), 20).await?;
        assert_eq!(
            edited.before.name, "Ann home",
            "answers the plant as it was"
        );
        let (row, _) = plants::visible(&s, &ann, id).await?;
        assert_eq!(row.name, "Ann roof");
        let tariff = s.tariff(id).await?;
        assert_eq!(tariff.len(), 1, "the two segments gave way to one price");
        assert_eq!(tariff[0].price, 0.2);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn only_who_may_edit_a_plant_edits_it() -> TestResult {
    each_backend(|s| async move {
        let ann = actor(&s, "ann@example.com", BuiltinRole::PlantOwner).await?;
        let bob = actor(&s, "bob@example.com", BuiltinRole::PlantOwner).await?;
        let id = plant(&s, &ann, "Ann home").await?;
        let stranger = plants::edit(&s, &bob, id, renamed("Bob's", 0.2), 20).await;
        assert!(matches!(stranger, Err(ServiceError::Refused(e)) if e.code == Code::PlantMissing));
        plants::share(&s, &ann, id, "bob@example.com", "visitor", 21).await?;
        let visitor = plants::edit(&s, &bob, id, renamed("Bob's", 0.2), 22).await;
        assert!(matches!(visitor, Err(ServiceError::Refused(e)) if e.code == Code::NoPermission));
        let bad_price = plants::edit(&s, &ann, id, renamed("Ann roof", -1.0), 23).await;
        assert!(
            matches!(bad_price, Err(ServiceError::Refused(_))),
            "{bad_price:?}"
        );
        assert_eq!(plants::visible(&s, &ann, id).await?.0.name, "Ann home");
        Ok(())
    })
    .await
}

#[tokio::test]
async fn an_edit_whose_tariff_cannot_be_written_leaves_the_plant_as_it_was() -> TestResult {
    each_backend(|s| async move {
        let ann = actor(&s, "ann@example.com", BuiltinRole::PlantOwner).await?;
        let id = plant(&s, &ann, "Ann home").await?;
        // The plant row and the old tariff's removal go first; the new tariff cannot be written.
        s.fail_writes_for_tests("tariff_segments", Write::Insert)
            .await?;
        let edited = plants::edit(&s, &ann, id, renamed("Ann roof", 0.2), 20).await;
        assert!(failed_in_store(&edited), "{edited:?}");
        assert_eq!(plants::visible(&s, &ann, id).await?.0.name, "Ann home");
        assert_eq!(s.tariff(id).await?.len(), 2, "the old tariff is back");
        Ok(())
    })
    .await
}
