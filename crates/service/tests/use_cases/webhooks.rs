//! Webhook endpoints: each use case writes its change and its audit entry together or not at
//! all, and bad input or another user's endpoint changes nothing.

use crate::common::{actor, audit_entries, fail_audit, failed_in_store};
use domain::user::BuiltinRole;
use service::webhooks::{self, EndpointInput};
use store::testing::{TestResult, each_backend};

/// Where this process's credential key (which seals the secrets) is kept.
fn key() {
    service::sealing::use_data_dir(&std::env::temp_dir().join("portal-use-case-tests"));
}

fn url(u: &str) -> EndpointInput<'_> {
    EndpointInput {
        url: Some(u),
        ..EndpointInput::default()
    }
}

#[tokio::test]
async fn each_endpoint_use_case_writes_its_entry() -> TestResult {
    key();
    each_backend(|s| async move {
        let ann = actor(&s, "ann@example.com", BuiltinRole::PlantOwner).await?;
        let (row, secret) = webhooks::create(&s, &ann, &url("https://a.example.com/"), 1).await?;
        let id = row.id;
        webhooks::update(&s, &ann, id, &url("https://b.example.com/"), 2).await?;
        let rotated = webhooks::rotate_secret(&s, &ann, id, 3).await?;
        assert_ne!(rotated, secret);
        // Stored sealed, never in the clear; the hint is the secret's end.
        assert!(s.webhook_secrets_in_clear(10).await?.is_empty());
        assert_eq!(row.secret_hint, webhooks::secret::hint(&secret));
        let hint = webhooks::secret::hint(&rotated);
        assert_eq!(webhooks::get(&s, &ann, id).await?.secret_hint, hint);
        webhooks::delete(&s, &ann, id, 4).await?;
        let target = format!("webhook:{id}");
        let expected = [
            "webhook.create",
            "webhook.edit",
            "webhook.rotate",
            "webhook.delete",
        ]
        .map(|a| (a.to_string(), target.clone()));
        assert_eq!(audit_entries(&s).await?, expected);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn an_endpoint_whose_entry_fails_is_neither_added_nor_changed() -> TestResult {
    key();
    each_backend(|s| async move {
        let ann = actor(&s, "ann@example.com", BuiltinRole::PlantOwner).await?;
        let (row, _) = webhooks::create(&s, &ann, &url("https://a.example.com/"), 1).await?;
        fail_audit(&s).await?;
        let added = webhooks::create(&s, &ann, &url("https://c.example.com/"), 2).await;
        assert!(failed_in_store(&added), "{added:?}");
        let changed = webhooks::update(&s, &ann, row.id, &url("https://b.example.com/"), 2).await;
        assert!(failed_in_store(&changed));
        assert!(failed_in_store(
            &webhooks::rotate_secret(&s, &ann, row.id, 2).await
        ));
        assert!(failed_in_store(
            &webhooks::delete(&s, &ann, row.id, 2).await
        ));
        let list = webhooks::list(&s, &ann).await?;
        assert_eq!(list.len(), 1);
        assert_eq!(
            (list[0].url.as_str(), &list[0].secret_hint),
            ("https://a.example.com/", &row.secret_hint)
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn bad_input_and_other_users_endpoints_change_nothing() -> TestResult {
    key();
    each_backend(|s| async move {
        let ann = actor(&s, "ann@example.com", BuiltinRole::PlantOwner).await?;
        let bob = actor(&s, "bob@example.com", BuiltinRole::PlantOwner).await?;
        let (row, _) = webhooks::create(&s, &ann, &url("https://a.example.com/"), 1).await?;
        let kinds = vec!["flood".to_string()];
        let bad = EndpointInput {
            kinds: Some(&kinds),
            ..EndpointInput::default()
        };
        assert!(webhooks::update(&s, &ann, row.id, &bad, 2).await.is_err());
        assert!(
            webhooks::update(&s, &bob, row.id, &url("https://x.example.com/"), 2)
                .await
                .is_err()
        );
        assert!(webhooks::delete(&s, &bob, row.id, 2).await.is_err());
        assert_eq!(webhooks::get(&s, &ann, row.id).await?, row);
        assert_eq!(audit_entries(&s).await?.len(), 1, "only the create");
        Ok(())
    })
    .await
}
