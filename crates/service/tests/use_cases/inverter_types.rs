//! The inverter-type tree: each change with its audit entry or, when the entry cannot be
//! written, nothing at all.

use crate::common::{Error, actor, audit_actions, fail_audit, failed_in_store};
use domain::ids::InverterTypeId;
use domain::{policy::Actor, user::BuiltinRole};
use service::firmware::types::{self, TypeDraft};
use store::{
    Store,
    testing::{TestResult, each_backend},
};

/// An internal administrator, and two primary titles with a label under the first.
async fn tree(s: &Store) -> Result<(Actor, [InverterTypeId; 3]), Error> {
    let admin = actor(s, "admin@example.com", BuiltinRole::InternalAdmin).await?;
    let title = |name: &'static str| TypeDraft {
        name: Some(name),
        ..TypeDraft::default()
    };
    let hybrid = types::add(s, &admin, &title("Hybrid"), 1).await?;
    let string = types::add(s, &admin, &title("String"), 1).await?;
    let label = TypeDraft {
        name: Some("Hybrid 3ph"),
        parent_id: Some(hybrid.0),
        codes: Some(&[94, 93]),
        ..TypeDraft::default()
    };
    let label = types::add(s, &admin, &label, 2).await?;
    Ok((admin, [hybrid, string, label]))
}

#[tokio::test]
async fn each_change_of_the_tree_leaves_its_audit_entry() -> TestResult {
    each_backend(|s| async move {
        let (admin, [_, string, label]) = tree(&s).await?;
        let edit = TypeDraft {
            id: Some(label.0),
            name: Some("Hybrid 3-phase"),
            codes: Some(&[94]),
            ..TypeDraft::default()
        };
        types::edit(&s, &admin, &edit, 3).await?;
        let to_string = TypeDraft {
            id: Some(label.0),
            parent_id: Some(string.0),
            ..TypeDraft::default()
        };
        types::move_label(&s, &admin, &to_string, 4).await?;
        types::delete(&s, &admin, label, 5).await?;
        assert_eq!(
            audit_actions(&s).await?,
            [
                "inverterType.add",
                "inverterType.add",
                "inverterType.add",
                "inverterType.edit",
                "inverterType.move",
                "inverterType.delete"
            ]
        );
        assert_eq!(s.inverter_types().await?.len(), 2);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_change_whose_audit_entry_fails_leaves_the_tree_as_it_was() -> TestResult {
    each_backend(|s| async move {
        let (admin, [hybrid, string, label]) = tree(&s).await?;
        let before = s.inverter_types().await?;
        let codes_before = s.inverter_type_codes().await?;
        fail_audit(&s).await?;
        // Add: no label, and its codes stay free.
        let add = TypeDraft {
            name: Some("Hybrid 1ph"),
            parent_id: Some(hybrid.0),
            codes: Some(&[2, 21]),
            ..TypeDraft::default()
        };
        let added = types::add(&s, &admin, &add, 3).await;
        assert!(failed_in_store(&added), "{added:?}");
        // Edit: the old name and codes.
        let edit = TypeDraft {
            id: Some(label.0),
            name: Some("Renamed"),
            codes: Some(&[5]),
            ..TypeDraft::default()
        };
        let edited = types::edit(&s, &admin, &edit, 4).await;
        assert!(failed_in_store(&edited), "{edited:?}");
        // Move: under its old title.
        let to_string = TypeDraft {
            id: Some(label.0),
            parent_id: Some(string.0),
            ..TypeDraft::default()
        };
        let moved = types::move_label(&s, &admin, &to_string, 5).await;
        assert!(failed_in_store(&moved), "{moved:?}");
        // Delete: still there.
        let deleted = types::delete(&s, &admin, label, 6).await;
        assert!(failed_in_store(&deleted), "{deleted:?}");
        assert_eq!(s.inverter_types().await?, before);
        assert_eq!(s.inverter_type_codes().await?, codes_before);
        assert_eq!(audit_actions(&s).await?.len(), 3);
        Ok(())
    })
    .await
}
