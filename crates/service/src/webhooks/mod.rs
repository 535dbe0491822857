//! Alarm delivery by signed webhooks: a user's endpoints (personal settings), the outbox the
//! alarm decisions queue into ([`enqueue`]) and the sending ([`send`]). Every endpoint belongs
//! to one user and only that user reads or changes it: another's answers as missing (1100).
//! Each write is one transaction with its audit entry. The secret is answered once and
//! stored sealed ([`secret`]).

pub mod secret;
pub mod send;

use domain::{
    Code, DomainError,
    audit_action::{WEBHOOK_CREATE, WEBHOOK_DELETE, WEBHOOK_EDIT, WEBHOOK_ROTATE, WEBHOOK_TEST},
    ids::{PlantId, UserId, WebhookId},
    policy::Actor,
    webhook::{Event, MAX_ENDPOINTS, Severity, check_room, kinds_column, parse_kinds, parse_url},
};
use serde_json::json;
use store::{
    Store,
    webhook_deliveries::{AlarmEvent, AttemptRow, Titles},
    webhooks::{EndpointFields, EndpointRow},
};

use crate::{Result, audit};
pub use send::{DeliverySettings, Outcome};

/// An endpoint as its owner asks for it. On create, `url` is required and the rest defaults
/// (enabled, every kind, from `warning`); on update, what is left out stays.
#[derive(Debug, Clone, Default)]
pub struct EndpointInput<'a> {
    pub url: Option<&'a str>,
    pub enabled: Option<bool>,
    pub kinds: Option<&'a [String]>,
    pub min_severity: Option<&'a str>,
}

/// Checked fields, ready to store.
struct Checked {
    url: String,
    enabled: bool,
    kinds: String,
    min_severity: &'static str,
}

impl Checked {
    fn fields(&self) -> EndpointFields<'_> {
        EndpointFields {
            url: &self.url,
            enabled: self.enabled,
            kinds: &self.kinds,
            min_severity: self.min_severity,
        }
    }
}

/// `input` over `base` (the endpoint as it is, or none for a new one), checked: 4 `url`,
/// `kinds` or `minSeverity`.
fn check(input: &EndpointInput<'_>, base: Option<&EndpointRow>) -> Result<Checked> {
    let url = match (input.url, base) {
        (Some(raw), _) => parse_url(raw)?,
        (None, Some(b)) => b.url.clone(),
        (None, None) => return Err(DomainError::invalid("url").into()),
    };
    let kinds = match (input.kinds, base) {
        (Some(raw), _) => kinds_column(&parse_kinds(raw)?),
        (None, Some(b)) => b.kinds.clone(),
        (None, None) => String::new(),
    };
    let min_severity = match (input.min_severity, base) {
        (Some(raw), _) => Severity::parse(raw)?,
        (None, Some(b)) => Severity::parse(&b.min_severity).unwrap_or(Severity::Warning),
        (None, None) => Severity::Warning,
    };
    Ok(Checked {
        url,
        enabled: input.enabled.or(base.map(|b| b.enabled)).unwrap_or(true),
        kinds,
        min_severity: min_severity.as_str(),
    })
}

/// The entry's detail: what the endpoint is, never its secret.
fn detail(c: &Checked) -> String {
    json!({"url": c.url, "enabled": c.enabled, "kinds": c.kinds, "minSeverity": c.min_severity})
        .to_string()
}

fn missing() -> crate::ServiceError {
    Code::WebhookMissing.into()
}

/// The caller's endpoints.
pub async fn list(store: &Store, actor: &Actor) -> Result<Vec<EndpointRow>> {
    Ok(store.webhook_endpoints(actor.id).await?)
}

/// One endpoint of the caller (1100 otherwise).
pub async fn get(store: &Store, actor: &Actor, id: WebhookId) -> Result<EndpointRow> {
    store
        .webhook_endpoint(id, actor.id)
        .await?
        .ok_or_else(missing)
}

/// Adds an endpoint with a new secret (1101 past [`MAX_ENDPOINTS`]); answers it and the
/// secret, which is shown this once.
pub async fn create(
    store: &Store,
    actor: &Actor,
    input: &EndpointInput<'_>,
    now: i64,
) -> Result<(EndpointRow, String)> {
    actor.require_writable()?;
    let c = check(input, None)?;
    check_room(store.webhook_endpoints(actor.id).await?.len() as i64)?;
    let secret = secret::new();
    let (sealed, hint) = (secret::seal(&secret)?, secret::hint(&secret));
    let detail = detail(&c);
    let entry = audit::admin_entry(
        audit::author(actor, None),
        WEBHOOK_CREATE,
        "webhook",
        &detail,
        now,
    );
    let id = store
        .create_webhook_endpoint(
            actor.id,
            &c.fields(),
            secret::stored(&sealed, &hint),
            MAX_ENDPOINTS,
            now,
            &entry,
        )
        .await?
        .ok_or(Code::WebhookLimit)?;
    Ok((get(store, actor, id).await?, secret))
}

/// Changes an endpoint of the caller; switching it off drops what waits for it.
pub async fn update(
    store: &Store,
    actor: &Actor,
    id: WebhookId,
    input: &EndpointInput<'_>,
    now: i64,
) -> Result<EndpointRow> {
    actor.require_writable()?;
    let base = get(store, actor, id).await?;
    let c = check(input, Some(&base))?;
    let (target, detail) = (format!("webhook:{id}"), detail(&c));
    let entry = audit::admin_entry(
        audit::author(actor, None),
        WEBHOOK_EDIT,
        &target,
        &detail,
        now,
    );
    if !store
        .update_webhook_endpoint(id, actor.id, &c.fields(), now, &entry)
        .await?
    {
        return Err(missing());
    }
    get(store, actor, id).await
}

/// A new secret for an endpoint of the caller, shown this once; the old one stops at once.
pub async fn rotate_secret(
    store: &Store,
    actor: &Actor,
    id: WebhookId,
    now: i64,
) -> Result<String> {
    actor.require_writable()?;
    let secret = secret::new();
    let (sealed, hint) = (secret::seal(&secret)?, secret::hint(&secret));
    let target = format!("webhook:{id}");
    let entry = audit::admin_entry(
        audit::author(actor, None),
        WEBHOOK_ROTATE,
        &target,
        "{}",
        now,
    );
    if !store
        .rotate_webhook_secret(id, actor.id, secret::stored(&sealed, &hint), now, &entry)
        .await?
    {
        return Err(missing());
    }
    Ok(secret)
}

/// Deletes an endpoint of the caller, with its queue and log.
pub async fn delete(store: &Store, actor: &Actor, id: WebhookId, now: i64) -> Result<()> {
    actor.require_writable()?;
    let target = format!("webhook:{id}");
    let entry = audit::admin_entry(
        audit::author(actor, None),
        WEBHOOK_DELETE,
        &target,
        "{}",
        now,
    );
    if !store.delete_webhook_endpoint(id, actor.id, &entry).await? {
        return Err(missing());
    }
    Ok(())
}

/// Sends a test delivery to an endpoint of the caller now (enabled or not; quiet hours do
/// not hold it; tried once) and answers what came of it. It is logged like any delivery.
pub async fn send_test(
    store: &Store,
    settings: DeliverySettings,
    actor: &Actor,
    id: WebhookId,
    link: &str,
    now: i64,
) -> Result<Outcome> {
    actor.require_writable()?;
    let target = format!("webhook:{id}");
    let entry = audit::admin_entry(audit::author(actor, None), WEBHOOK_TEST, &target, "{}", now);
    let title = "Test delivery from the solar portal";
    let event = AlarmEvent {
        event: Event::Test.as_str(),
        kind: "offline",
        severity: Severity::Warning.as_str(),
        case_id: None,
        plant_id: PlantId(0),
        plant_name: "",
        device_sn: None,
        titles: Titles {
            en: title,
            zh: title,
            es: title,
        },
        detail: "{}",
        at: now,
        link,
    };
    let delivery = store
        .queue_test_delivery(id, actor.id, &event, now, &entry)
        .await?
        .ok_or_else(missing)?;
    let d = store
        .webhook_delivery(delivery, actor.id)
        .await?
        .ok_or_else(missing)?;
    Ok(send::deliver(store, settings, &d, now).await?)
}

/// A page of the log of an endpoint of the caller, newest first, with the total.
pub async fn attempts(
    store: &Store,
    actor: &Actor,
    id: WebhookId,
    limit: i64,
    offset: i64,
) -> Result<(Vec<AttemptRow>, i64)> {
    get(store, actor, id).await?;
    Ok(store.webhook_attempts(id, limit, offset).await?)
}

/// Queues an alarm event for the webhook endpoints of `users` (those enabled whose filter
/// lets it through) in a transaction of its own. Writes that decide an alarm in a transaction
/// queue inside it instead (`store`'s `enqueue_webhooks_in_tx!`), as the alarm job does.
pub async fn enqueue(
    store: &Store,
    event: &AlarmEvent<'_>,
    users: &[UserId],
    now: i64,
) -> Result<u64> {
    Ok(store.enqueue_webhooks(event, users, now).await?)
}
