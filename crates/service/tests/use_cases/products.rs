//! The product catalogue: a product, its hardware list and its audit entry are written
//! together or not at all.

use crate::common::{Error, actor, audit_entries, fail_audit, failed_in_store};
use domain::{ids::ProductId, product::ProductInput, user::BuiltinRole};
use service::products;
use store::{
    Store,
    testing::{TestResult, each_backend},
};

fn input(part: &str, hardware: &[&str]) -> ProductInput {
    ProductInput {
        name: Some("Meter".into()),
        part_number: Some(part.into()),
        category: Some("meter".into()),
        hardware: hardware.iter().map(|h| h.to_string()).collect(),
        ..ProductInput::default()
    }
}

async fn versions(s: &Store, id: ProductId) -> Result<Vec<String>, Error> {
    let mut v: Vec<String> = s
        .hardware(Some(id))
        .await?
        .into_iter()
        .map(|h| h.version)
        .collect();
    v.sort();
    Ok(v)
}

#[tokio::test]
async fn adding_editing_and_removing_a_product_each_write_their_entry() -> TestResult {
    each_backend(|s| async move {
        let admin = actor(&s, "admin@example.com", BuiltinRole::InternalAdmin).await?;
        let id = products::add(&s, &admin, &input("M-1", &["A"]), 1).await?;
        products::edit(&s, &admin, id, &input("M-1", &["A", "B"]), 2).await?;
        assert_eq!(versions(&s, id).await?, ["A", "B"]);
        products::remove(&s, &admin, id, 3).await?;
        let target = format!("product:{}", id.0);
        let expected = [
            ("product.create", &target),
            ("product.edit", &target),
            ("product.delete", &target),
        ]
        .map(|(a, t)| (a.to_string(), t.clone()));
        assert_eq!(audit_entries(&s).await?, expected);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_product_whose_entry_fails_is_not_added_edited_or_removed() -> TestResult {
    each_backend(|s| async move {
        let admin = actor(&s, "admin@example.com", BuiltinRole::InternalAdmin).await?;
        let id = products::add(&s, &admin, &input("M-1", &["A"]), 1).await?;
        fail_audit(&s).await?;

        let added = products::add(&s, &admin, &input("M-2", &["X"]), 2).await;
        assert!(failed_in_store(&added), "{added:?}");
        assert!(s.product_by_part_number("M-2").await?.is_none());

        let edited = products::edit(&s, &admin, id, &input("M-9", &["B"]), 3).await;
        assert!(failed_in_store(&edited), "{edited:?}");
        assert!(s.product_by_part_number("M-1").await?.is_some());
        assert_eq!(versions(&s, id).await?, ["A"]);

        let removed = products::remove(&s, &admin, id, 4).await;
        assert!(failed_in_store(&removed), "{removed:?}");
        assert!(s.product(id).await?.is_some());
        assert_eq!(audit_entries(&s).await?.len(), 1);
        Ok(())
    })
    .await
}
