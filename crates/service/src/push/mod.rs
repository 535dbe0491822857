//! Alarm delivery by Web Push (docs/push.md): a user's subscriptions (one per browser or
//! phone, personal settings), the server's VAPID key ([`vapid`]), the encryption ([`ece`]) and
//! the sending ([`send`]). Every subscription belongs to one user and to the session that
//! made it; only that user reads or changes it: another's answers as missing (1102). Each
//! write is one transaction with its audit entry.

pub mod ece;
pub mod send;
pub mod vapid;

use domain::{
    Code, DomainError, Lang,
    audit_action::{PUSH_DELETE, PUSH_EDIT, PUSH_SUBSCRIBE, PUSH_TEST},
    ids::{PlantId, PushSubscriptionId, UserId},
    policy::Actor,
    push::{
        AUTH_LEN, MAX_SUBSCRIPTIONS, P256DH_LEN, check_room, device_name, parse_endpoint,
        parse_key, test_texts,
    },
    webhook::{Severity, kinds_column, parse_kinds},
};
use serde_json::json;
use store::{
    Store,
    push::{SubscriptionChoice, SubscriptionFields, SubscriptionRow},
};

use crate::{Result, audit};
pub use send::{Outcome, Payload, PushSettings, Target, Verdict};
pub use vapid::Vapid;

/// A subscription as its owner gives it. On subscribe, `endpoint`, `p256dh` and `auth` are
/// required and the choice defaults (every kind, from `warning`); on update only the choice
/// is read, and what is left out stays.
#[derive(Debug, Clone, Default)]
pub struct SubscriptionInput<'a> {
    pub endpoint: Option<&'a str>,
    pub p256dh: Option<&'a str>,
    pub auth: Option<&'a str>,
    pub device_name: Option<&'a str>,
    pub kinds: Option<&'a [String]>,
    pub min_severity: Option<&'a str>,
}

/// The choice checked over `base` (the subscription as it is, or none).
struct Choice {
    device_name: String,
    kinds: String,
    min_severity: &'static str,
}

fn choice(input: &SubscriptionInput<'_>, base: Option<&SubscriptionRow>) -> Result<Choice> {
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
    let device_name = match (input.device_name, base) {
        (Some(raw), _) => device_name(raw),
        (None, Some(b)) => b.device_name.clone(),
        (None, None) => String::new(),
    };
    Ok(Choice {
        device_name,
        kinds,
        min_severity: min_severity.as_str(),
    })
}

/// The entry's detail: the device and the choice, never the endpoint or the keys.
fn detail(c: &Choice) -> String {
    json!({"deviceName": c.device_name, "kinds": c.kinds, "minSeverity": c.min_severity})
        .to_string()
}

fn missing() -> crate::ServiceError {
    Code::PushSubscriptionMissing.into()
}

/// The caller's subscriptions, oldest first.
pub async fn list(store: &Store, actor: &Actor) -> Result<Vec<SubscriptionRow>> {
    Ok(store.push_subscriptions(actor.id).await?)
}

/// One subscription of the caller (1102 otherwise).
pub async fn get(store: &Store, actor: &Actor, id: PushSubscriptionId) -> Result<SubscriptionRow> {
    store
        .push_subscription(id, actor.id)
        .await?
        .ok_or_else(missing)
}

/// Subscribes the caller's browser in `session` (the sign-in it is made in: signing out there
/// deletes it). The same endpoint again updates its subscription, whoever had it; a new one
/// past [`MAX_SUBSCRIPTIONS`] is refused (1103). 4 `endpoint` (https, or http when private
/// addresses are allowed), `p256dh`, `auth`, `kinds`, `minSeverity`.
pub async fn subscribe(
    store: &Store,
    actor: &Actor,
    session: &str,
    input: &SubscriptionInput<'_>,
    allow_http: bool,
    now: i64,
) -> Result<SubscriptionRow> {
    actor.require_writable()?;
    let endpoint = parse_endpoint(input.endpoint.unwrap_or_default(), allow_http)?;
    let p256dh = parse_key(input.p256dh.unwrap_or_default(), P256DH_LEN, "p256dh")?;
    let auth = parse_key(input.auth.unwrap_or_default(), AUTH_LEN, "auth")?;
    let c = choice(input, None)?;
    let mine = store.push_subscriptions(actor.id).await?;
    if !mine.iter().any(|s| s.endpoint == endpoint) {
        check_room(mine.len() as i64)?;
    }
    let detail = detail(&c);
    let entry = audit::admin_entry(
        audit::author(actor, None),
        PUSH_SUBSCRIBE,
        "push",
        &detail,
        now,
    );
    let fields = SubscriptionFields {
        endpoint: &endpoint,
        p256dh: &p256dh,
        auth: &auth,
        device_name: &c.device_name,
        kinds: &c.kinds,
        min_severity: c.min_severity,
    };
    let id = store
        .upsert_push_subscription(actor.id, session, &fields, MAX_SUBSCRIPTIONS, now, &entry)
        .await?
        .ok_or(Code::PushSubscriptionLimit)?;
    get(store, actor, id).await
}

/// Changes what a subscription of the caller asks for (device name, kinds, minimum severity).
pub async fn update(
    store: &Store,
    actor: &Actor,
    id: PushSubscriptionId,
    input: &SubscriptionInput<'_>,
    now: i64,
) -> Result<SubscriptionRow> {
    actor.require_writable()?;
    let base = get(store, actor, id).await?;
    let c = choice(input, Some(&base))?;
    let (target, detail) = (format!("push:{id}"), detail(&c));
    let entry = audit::admin_entry(audit::author(actor, None), PUSH_EDIT, &target, &detail, now);
    let changed = SubscriptionChoice {
        device_name: &c.device_name,
        kinds: &c.kinds,
        min_severity: c.min_severity,
    };
    if !store
        .update_push_subscription(id, actor.id, &changed, now, &entry)
        .await?
    {
        return Err(missing());
    }
    get(store, actor, id).await
}

/// Deletes a subscription of the caller with what waits for it.
pub async fn delete(store: &Store, actor: &Actor, id: PushSubscriptionId, now: i64) -> Result<()> {
    actor.require_writable()?;
    let target = format!("push:{id}");
    let entry = audit::admin_entry(audit::author(actor, None), PUSH_DELETE, &target, "{}", now);
    if !store.delete_push_subscription(id, actor.id, &entry).await? {
        return Err(missing());
    }
    Ok(())
}

/// Sends a test notification to a subscription of the caller now (quiet hours do not hold
/// it; tried once) and answers what the push service made of it; its last success or error
/// is recorded, and a subscription the service says is gone is deleted.
pub async fn send_test(
    store: &Store,
    settings: &PushSettings,
    actor: &Actor,
    id: PushSubscriptionId,
    lang: Lang,
    now: i64,
) -> Result<Outcome> {
    actor.require_writable()?;
    let sub = get(store, actor, id).await?;
    let target = format!("push:{id}");
    let entry = audit::admin_entry(audit::author(actor, None), PUSH_TEST, &target, "{}", now);
    store.insert_audit(&entry).await?;
    let vapid = Vapid::load_or_create(store).await?;
    let (title, body) = test_texts(lang);
    let payload = Payload {
        title: title.to_string(),
        body: body.to_string(),
        url: "/".to_string(),
        tag: "test".to_string(),
        kind: "test".to_string(),
        severity: Severity::Warning.as_str().to_string(),
        plant: String::new(),
        at: send::rfc3339(now),
    };
    let to = Target {
        endpoint: &sub.endpoint,
        p256dh: &sub.p256dh,
        auth: &sub.auth,
    };
    let o = send::send(settings, &vapid, to, &payload, false, now).await;
    record(store, sub.id, None, &o, None, now).await?;
    Ok(o)
}

/// Records what an attempt came to: the subscription forgotten when gone; else its last
/// success or error, and the message (`delivery`) dropped or tried again at `retry_at`.
pub async fn record(
    store: &Store,
    subscription: PushSubscriptionId,
    delivery: Option<domain::ids::PushDeliveryId>,
    o: &Outcome,
    retry_at: Option<i64>,
    now: i64,
) -> store::Result<()> {
    if o.verdict == Verdict::Gone {
        tracing::info!(%subscription, status = ?o.status, "push subscription gone: deleted");
        return store.forget_push_subscription(subscription).await;
    }
    let accepted = o.verdict == Verdict::Accepted;
    let retry_at = retry_at.filter(|_| o.verdict == Verdict::Retry);
    store
        .record_push_attempt(subscription, delivery, accepted, &o.error, retry_at, now)
        .await
}

/// Whether `user` may still see `plant` (a push is never sent about a plant they can no
/// longer see: a transfer, a share withdrawn, a company that stopped serving it).
pub async fn may_see(store: &Store, user: UserId, plant: PlantId) -> Result<bool> {
    let Some(row) = store.user(user).await? else {
        return Ok(false);
    };
    let actor = crate::actors::actor_of(store, &row).await?;
    match crate::plants::visible(store, &actor, plant).await {
        Ok(_) => Ok(true),
        Err(crate::ServiceError::Refused(DomainError {
            code: Code::PlantMissing,
            ..
        })) => Ok(false),
        Err(e) => Err(e),
    }
}
