//! Webhook endpoints and the outbox: what an alarm event queues (enabled endpoints whose kind
//! filter and minimum severity let it through, titles in each user's language), and that an
//! endpoint is only ever changed by its owner.

use domain::{
    ids::{PlantId, UserId, WebhookId},
    user::UserKind,
};
use store::{
    Store,
    audit::NewAudit,
    log_pages::Author,
    testing::{TestResult, each_backend},
    users::{NewUser, NotifyChoice},
    webhook_deliveries::{AlarmEvent, Titles},
    webhooks::{EndpointFields, StoredSecret},
};

async fn user(s: &Store, account: &str, lang: &str) -> Result<UserId, store::StoreError> {
    let id = s
        .create_user(&NewUser {
            account,
            email: account,
            mobile: "",
            password_hash: "h",
            nickname: "n",
            kind: UserKind::Owner,
            company: None,
            role: None,
            user_src: "web",
            now: 1,
        })
        .await?;
    let choice = NotifyChoice {
        enabled: false,
        email: "",
        offline_minutes: 30,
        lang,
    };
    s.set_notify(id, &choice).await?;
    Ok(id)
}

fn audit(user: UserId) -> NewAudit<'static> {
    NewAudit {
        by: Author {
            user_id: Some(user),
            account: "test",
            actor_company_id: None,
            plant_id: None,
            plant_owner_id: None,
            plant_company_id: None,
        },
        action: "webhook.create",
        target: "webhook",
        detail: "{}",
        result: "succeeded",
        command_id: None,
        now: 1,
    }
}

/// A secret stored as given (the store does not seal; `service::webhooks::secret` does).
fn clear(secret: &str) -> StoredSecret<'_> {
    StoredSecret {
        sealed: secret,
        hint: &secret[secret.len().saturating_sub(4)..],
    }
}

async fn endpoint(
    s: &Store,
    user: UserId,
    enabled: bool,
    kinds: &str,
    min: &str,
) -> Result<WebhookId, Box<dyn std::error::Error>> {
    let f = EndpointFields {
        url: "https://hooks.example.com/",
        enabled,
        kinds,
        min_severity: min,
    };
    Ok(
        s.create_webhook_endpoint(user, &f, clear("whsec_x"), 5, 1, &audit(user))
            .await?
            .ok_or("room")?,
    )
}

fn event<'a>(kind: &'a str, severity: &'a str) -> AlarmEvent<'a> {
    AlarmEvent {
        event: "opened",
        kind,
        severity,
        case_id: None,
        plant_id: PlantId(1),
        plant_name: "Roof",
        device_sn: Some("INV1"),
        titles: Titles {
            en: "Fault",
            zh: "故障",
            es: "Fallo",
        },
        detail: "{}",
        at: 5,
        link: "https://p/x",
    }
}

#[tokio::test]
async fn an_event_is_queued_for_enabled_endpoints_its_filter_lets_through() -> TestResult {
    each_backend(|s| async move {
        let ann = user(&s, "ann@example.com", "zh").await?;
        let bob = user(&s, "bob@example.com", "en").await?;
        let every = endpoint(&s, ann, true, "", "warning").await?;
        let faults = endpoint(&s, ann, true, ",fault,", "alarm").await?;
        endpoint(&s, ann, true, ",offline,", "warning").await?;
        endpoint(&s, ann, false, "", "warning").await?;
        endpoint(&s, bob, true, "", "warning").await?;

        assert_eq!(
            s.enqueue_webhooks(&event("fault", "alarm"), &[ann], 10)
                .await?,
            2
        );
        assert_eq!(
            s.enqueue_webhooks(&event("fault", "warning"), &[ann], 10)
                .await?,
            1
        );
        let due = s.due_webhook_deliveries(10, 100).await?;
        assert_eq!(due.len(), 3);
        assert_eq!(due.iter().filter(|d| d.endpoint_id == every).count(), 2);
        assert_eq!(due.iter().filter(|d| d.endpoint_id == faults).count(), 1);
        assert!(due.iter().all(|d| d.title == "故障" && d.user_id == ann));
        assert!(
            s.due_webhook_deliveries(9, 100).await?.is_empty(),
            "not due yet"
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn only_the_owner_changes_or_deletes_an_endpoint() -> TestResult {
    each_backend(|s| async move {
        let ann = user(&s, "ann@example.com", "en").await?;
        let bob = user(&s, "bob@example.com", "en").await?;
        let id = endpoint(&s, ann, true, "", "warning").await?;
        let f = EndpointFields {
            url: "https://evil.example.com/",
            enabled: true,
            kinds: "",
            min_severity: "warning",
        };
        assert!(
            !s.update_webhook_endpoint(id, bob, &f, 2, &audit(bob))
                .await?
        );
        assert!(
            !s.rotate_webhook_secret(id, bob, clear("x"), 2, &audit(bob))
                .await?
        );
        assert!(!s.delete_webhook_endpoint(id, bob, &audit(bob)).await?);
        assert!(s.webhook_endpoint(id, bob).await?.is_none());
        let row = s.webhook_endpoint(id, ann).await?.ok_or("ann's")?;
        assert_eq!(
            (row.url.as_str(), row.secret_hint.as_str()),
            ("https://hooks.example.com/", "ec_x")
        );
        for _ in 0..4 {
            endpoint(&s, ann, true, "", "warning").await?;
        }
        let sixth = s
            .create_webhook_endpoint(ann, &f, clear("s"), 5, 3, &audit(ann))
            .await?;
        assert!(sixth.is_none(), "at most 5");
        assert!(s.delete_webhook_endpoint(id, ann, &audit(ann)).await?);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn secrets_stored_in_the_clear_are_found_and_sealed_unless_rotated_meanwhile() -> TestResult {
    each_backend(|s| async move {
        let ann = user(&s, "ann@example.com", "en").await?;
        let a = endpoint(&s, ann, true, "", "warning").await?;
        let b = endpoint(&s, ann, true, "", "warning").await?;
        let sealed_already = EndpointFields {
            url: "https://hooks.example.com/",
            enabled: true,
            kinds: "",
            min_severity: "warning",
        };
        s.create_webhook_endpoint(
            ann,
            &sealed_already,
            clear("v1:c2VhbGVk"),
            5,
            1,
            &audit(ann),
        )
        .await?;
        let clear_ones: Vec<WebhookId> = s
            .webhook_secrets_in_clear(10)
            .await?
            .into_iter()
            .map(|c| c.id)
            .collect();
        assert_eq!(clear_ones, [a, b]);
        assert!(s.seal_webhook_secret(a, "whsec_x", "v1:AAAA").await?);
        // b was rotated after it was read: its new secret is not overwritten.
        s.rotate_webhook_secret(b, ann, clear("v1:BBBB"), 2, &audit(ann))
            .await?;
        assert!(!s.seal_webhook_secret(b, "whsec_x", "v1:CCCC").await?);
        assert!(s.webhook_secrets_in_clear(10).await?.is_empty());
        assert_eq!(
            s.webhook_endpoint(b, ann).await?.ok_or("b")?.secret_hint,
            "BBBB"
        );
        Ok(())
    })
    .await
}
