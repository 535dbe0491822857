//! Web Push: a user's subscriptions (personal settings), the outbox the alarm changes queue
//! into, and the sender's reads and writes (docs/push.md). Every read and write of a
//! subscription names its owner: someone else's reads as missing. A subscription belongs to
//! the session that made it: ending the session deletes it (`sessions`, `revoke_in_tx!`).

use domain::ids::{PlantId, PushDeliveryId, PushSubscriptionId, UserId};

use crate::{Result, Store, audit::NewAudit};

#[derive(Clone, PartialEq, sqlx::FromRow)]
pub struct SubscriptionRow {
    pub id: PushSubscriptionId,
    pub user_id: UserId,
    pub session_id: String,
    pub endpoint: String,
    /// The browser's P-256 public key, base64url.
    pub p256dh: String,
    /// The browser's authentication secret, base64url.
    pub auth: String,
    pub device_name: String,
    /// `,kind,kind,` or empty for every kind (`domain::webhook::kinds_column`).
    pub kinds: String,
    /// `warning` or `alarm`.
    pub min_severity: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub last_success_at: Option<i64>,
    pub last_error: String,
}

// The keys and the session stay out of logs.
impl std::fmt::Debug for SubscriptionRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SubscriptionRow")
            .field("id", &self.id)
            .field("user_id", &self.user_id)
            .field("device_name", &self.device_name)
            .finish_non_exhaustive()
    }
}

/// A subscription as its owner gives it (the keys checked by the use case).
#[derive(Debug, Clone)]
pub struct SubscriptionFields<'a> {
    pub endpoint: &'a str,
    pub p256dh: &'a str,
    pub auth: &'a str,
    pub device_name: &'a str,
    pub kinds: &'a str,
    pub min_severity: &'a str,
}

/// What a subscription asks for, changed apart from its keys.
#[derive(Debug, Clone)]
pub struct SubscriptionChoice<'a> {
    pub device_name: &'a str,
    pub kinds: &'a str,
    pub min_severity: &'a str,
}

/// A message due to be pushed, with its subscription and its user's quiet hours.
#[derive(Clone, PartialEq, sqlx::FromRow)]
pub struct DuePush {
    pub id: PushDeliveryId,
    pub subscription_id: PushSubscriptionId,
    pub user_id: UserId,
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
    pub kind: String,
    pub severity: String,
    pub case_id: Option<i64>,
    pub plant_id: PlantId,
    pub plant_name: String,
    pub title: String,
    pub body: String,
    pub link: String,
    pub at: i64,
    pub attempts: i64,
    pub quiet_enabled: bool,
    pub quiet_from: i64,
    pub quiet_to: i64,
    pub quiet_zone: String,
}

impl std::fmt::Debug for DuePush {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DuePush")
            .field("id", &self.id)
            .field("subscription_id", &self.subscription_id)
            .field("attempts", &self.attempts)
            .finish_non_exhaustive()
    }
}

const COLUMNS: &str = "id, user_id, session_id, endpoint, p256dh, auth, device_name, kinds, \
    min_severity, created_at, updated_at, last_success_at, last_error";

/// The subscriptions of live sessions only (`s` a subscription, `ss` its session): a session
/// ends revoked (sign-out, password change) or deleted once it ran out (housekeeping).
const LIVE_SESSION: &str = "JOIN sessions ss ON ss.id = s.session_id AND ss.revoked_at IS NULL";

/// The statement that queues a push for every recipient of a plant with a matching
/// subscription of a live session (the recipients as for webhooks and e-mails:
/// `alarms::recipient_of_plant`). Binds: $1 kind, $2 severity, $3 case id, $4 plant id,
/// $5 plant name, $6..$8 titles en/zh/es, $9..$11 bodies en/zh/es, $12 link, $13 at, $14 now.
pub(crate) fn enqueue_for_plant() -> String {
    format!(
        "INSERT INTO push_deliveries (subscription_id, user_id, kind, severity, case_id, \
         plant_id, plant_name, title, body, link, at, next_at, created_at) \
         SELECT s.id, s.user_id, $1, $2, $3, $4, $5, \
         CASE u.notify_lang WHEN 'zh' THEN $7 WHEN 'es' THEN $8 ELSE $6 END, \
         CASE u.notify_lang WHEN 'zh' THEN $10 WHEN 'es' THEN $11 ELSE $9 END, \
         $12, $13, $14, $14 FROM push_subscriptions s JOIN users u ON u.id = s.user_id \
         {} JOIN plants p ON p.id = $4 \
         WHERE {} AND NOT u.disabled AND u.deleted_at IS NULL \
         AND (s.kinds = '' OR s.kinds LIKE '%,' || $1 || ',%') \
         AND ($2 = 'alarm' OR s.min_severity = 'warning')",
        LIVE_SESSION,
        crate::alarms::recipient_of_plant()
    )
}

/// The same for one recipient (`$15`), for alarms decided per user (the e-mail alarms).
pub(crate) fn enqueue_for_user() -> String {
    format!(
        "INSERT INTO push_deliveries (subscription_id, user_id, kind, severity, case_id, \
         plant_id, plant_name, title, body, link, at, next_at, created_at) \
         SELECT s.id, s.user_id, $1, $2, $3, $4, $5, \
         CASE u.notify_lang WHEN 'zh' THEN $7 WHEN 'es' THEN $8 ELSE $6 END, \
         CASE u.notify_lang WHEN 'zh' THEN $10 WHEN 'es' THEN $11 ELSE $9 END, \
         $12, $13, $14, $14 FROM push_subscriptions s JOIN users u ON u.id = s.user_id \
         {} WHERE s.user_id = $15 AND NOT u.disabled AND u.deleted_at IS NULL \
         AND (s.kinds = '' OR s.kinds LIKE '%,' || $1 || ',%') \
         AND ($2 = 'alarm' OR s.min_severity = 'warning')",
        LIVE_SESSION
    )
}

/// One alarm change to push, with its texts in each language (each recipient gets theirs).
#[derive(Debug, Clone)]
pub struct PushEvent<'a> {
    pub kind: &'a str,
    pub severity: &'a str,
    pub case_id: Option<i64>,
    pub plant_id: PlantId,
    pub plant_name: &'a str,
    /// en, zh, es.
    pub titles: [&'a str; 3],
    pub bodies: [&'a str; 3],
    /// The screen it opens, relative to the portal (`/alarms?case=1`) or absolute.
    pub link: &'a str,
    pub at: i64,
}

/// `enqueue_push_in_tx!(tx, sqlite, &PushEvent, user, now)` queues a push for one recipient's
/// matching subscriptions inside [`in_tx!`].
macro_rules! enqueue_push_in_tx {
    ($tx:ident, $sqlite:ident, $e:expr, $user:expr, $now:expr) => {{
        let e: &$crate::push::PushEvent<'_> = $e;
        let sql = $crate::push::enqueue_for_user();
        tx_exec!(
            $tx,
            $sqlite,
            &sql,
            e.kind,
            e.severity,
            e.case_id,
            e.plant_id,
            e.plant_name,
            e.titles[0],
            e.titles[1],
            e.titles[2],
            e.bodies[0],
            e.bodies[1],
            e.bodies[2],
            e.link,
            e.at,
            $now,
            $user
        )?
    }};
}

/// The columns of a due message, read through `d`, `s` and `u`.
const DUE: &str = "d.id, d.subscription_id, d.user_id, s.endpoint, s.p256dh, s.auth, d.kind, \
    d.severity, d.case_id, d.plant_id, d.plant_name, d.title, d.body, d.link, d.at, \
    CAST(d.attempts AS BIGINT) AS attempts, u.quiet_enabled, \
    CAST(u.quiet_from AS BIGINT) AS quiet_from, CAST(u.quiet_to AS BIGINT) AS quiet_to, \
    u.quiet_zone";

impl Store {
    /// The user's subscriptions, oldest first.
    pub async fn push_subscriptions(&self, user: UserId) -> Result<Vec<SubscriptionRow>> {
        let sql =
            format!("SELECT {COLUMNS} FROM push_subscriptions WHERE user_id = $1 ORDER BY id");
        Ok(rows!(self, fetch_all, SubscriptionRow, &sql, user)?)
    }

    /// One subscription of `user`; `None` when missing or someone else's.
    pub async fn push_subscription(
        &self,
        id: PushSubscriptionId,
        user: UserId,
    ) -> Result<Option<SubscriptionRow>> {
        let sql =
            format!("SELECT {COLUMNS} FROM push_subscriptions WHERE id = $1 AND user_id = $2");
        Ok(rows!(
            self,
            fetch_optional,
            SubscriptionRow,
            &sql,
            id,
            user
        )?)
    }

    /// Subscribes a browser for `user` in `session`: its endpoint's subscription when there is
    /// one (of anyone: a browser signed into another account moves to this one, with new keys
    /// and choice, and what waited for the other account is dropped), else a new one unless
    /// the user has `max` (counted in the same transaction); `None` when full. The audit
    /// entry's target becomes `push:<id>`.
    #[allow(clippy::too_many_arguments)]
    pub async fn upsert_push_subscription(
        &self,
        user: UserId,
        session: &str,
        f: &SubscriptionFields<'_>,
        max: i64,
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<Option<PushSubscriptionId>> {
        Ok(in_tx!(self, |tx, sqlite| {
            let known = tx_rows!(
                tx,
                sqlite,
                fetch_optional,
                (PushSubscriptionId, UserId),
                "SELECT id, user_id FROM push_subscriptions WHERE endpoint = $1",
                f.endpoint
            )?;
            let count = tx_scalar!(
                tx,
                sqlite,
                i64,
                "SELECT CAST(COUNT(*) AS BIGINT) FROM push_subscriptions WHERE user_id = $1",
                user
            )?;
            match known {
                Some((id, owner)) => {
                    if owner != user && count >= max {
                        None
                    } else {
                        if owner != user {
                            tx_exec!(
                                tx,
                                sqlite,
                                "DELETE FROM push_deliveries WHERE subscription_id = $1",
                                id
                            )?;
                        }
                        tx_exec!(
                            tx,
                            sqlite,
                            "UPDATE push_subscriptions SET user_id = $2, session_id = $3, \
                             p256dh = $4, auth = $5, device_name = $6, kinds = $7, \
                             min_severity = $8, updated_at = $9, last_error = '' WHERE id = $1",
                            id,
                            user,
                            session,
                            f.p256dh,
                            f.auth,
                            f.device_name,
                            f.kinds,
                            f.min_severity,
                            now
                        )?;
                        audit_new_in_tx!(tx, sqlite, audit, id)?;
                        Some(id)
                    }
                }
                None if count >= max => None,
                None => {
                    let id = tx_scalar!(
                        tx,
                        sqlite,
                        PushSubscriptionId,
                        "INSERT INTO push_subscriptions (user_id, session_id, endpoint, p256dh, \
                         auth, device_name, kinds, min_severity, created_at, updated_at) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) RETURNING id",
                        user,
                        session,
                        f.endpoint,
                        f.p256dh,
                        f.auth,
                        f.device_name,
                        f.kinds,
                        f.min_severity,
                        now
                    )?;
                    audit_new_in_tx!(tx, sqlite, audit, id)?;
                    Some(id)
                }
            }
        }))
    }

    /// Changes what a subscription of `user` asks for; false when it is not theirs.
    pub async fn update_push_subscription(
        &self,
        id: PushSubscriptionId,
        user: UserId,
        c: &SubscriptionChoice<'_>,
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        Ok(exec_audited!(
            self,
            Some(audit),
            "UPDATE push_subscriptions SET device_name = $3, kinds = $4, min_severity = $5, \
             updated_at = $6 WHERE id = $1 AND user_id = $2",
            id,
            user,
            c.device_name,
            c.kinds,
            c.min_severity,
            now
        ) > 0)
    }

    /// Deletes a subscription of `user` with what waits for it; false when it is not theirs.
    pub async fn delete_push_subscription(
        &self,
        id: PushSubscriptionId,
        user: UserId,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        Ok(in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "DELETE FROM push_subscriptions WHERE id = $1 AND user_id = $2",
                id,
                user
            )?;
            if n > 0 {
                // Not left to the foreign keys: SQLite enforces them only when asked to.
                tx_exec!(
                    tx,
                    sqlite,
                    "DELETE FROM push_deliveries WHERE subscription_id = $1",
                    id
                )?;
                audit_in_tx!(tx, sqlite, audit)?;
            }
            n > 0
        }))
    }

    /// Up to `limit` messages due at `now` for subscriptions of live sessions of accounts in
    /// use, oldest first.
    pub async fn due_pushes(&self, now: i64, limit: i64) -> Result<Vec<DuePush>> {
        let sql = format!(
            "SELECT {DUE} FROM push_deliveries d \
             JOIN push_subscriptions s ON s.id = d.subscription_id {} \
             JOIN users u ON u.id = s.user_id \
             WHERE d.next_at <= $1 AND d.user_id = s.user_id AND NOT u.disabled \
             AND u.deleted_at IS NULL ORDER BY d.id {}",
            LIVE_SESSION,
            crate::sql::page(limit, 0)
        );
        Ok(rows!(self, fetch_all, DuePush, &sql, now)?)
    }

    /// Holds a message until `until` (quiet hours) without counting an attempt.
    pub async fn hold_push(&self, id: PushDeliveryId, until: i64) -> Result<()> {
        exec!(
            self,
            "UPDATE push_deliveries SET next_at = $2 WHERE id = $1",
            id,
            until
        )?;
        Ok(())
    }

    /// Drops a message unsent (its user can no longer see the plant).
    pub async fn drop_push(&self, id: PushDeliveryId) -> Result<()> {
        exec!(self, "DELETE FROM push_deliveries WHERE id = $1", id)?;
        Ok(())
    }

    /// What one attempt came to: the message is dropped (`delivery` taken or out of tries)
    /// or tried again at `retry_at`; the subscription records its last success or error.
    pub async fn record_push_attempt(
        &self,
        subscription: PushSubscriptionId,
        delivery: Option<PushDeliveryId>,
        accepted: bool,
        error: &str,
        retry_at: Option<i64>,
        now: i64,
    ) -> Result<()> {
        in_tx!(self, |tx, sqlite| {
            if let Some(d) = delivery {
                match retry_at {
                    Some(at) => tx_exec!(
                        tx,
                        sqlite,
                        "UPDATE push_deliveries SET attempts = attempts + 1, next_at = $2 \
                         WHERE id = $1",
                        d,
                        at
                    )?,
                    None => tx_exec!(tx, sqlite, "DELETE FROM push_deliveries WHERE id = $1", d)?,
                };
            }
            if accepted {
                tx_exec!(
                    tx,
                    sqlite,
                    "UPDATE push_subscriptions SET last_success_at = $2, last_error = '' \
                     WHERE id = $1",
                    subscription,
                    now
                )?;
            } else {
                tx_exec!(
                    tx,
                    sqlite,
                    "UPDATE push_subscriptions SET last_error = $2 WHERE id = $1",
                    subscription,
                    error
                )?;
            }
        });
        Ok(())
    }

    /// Forgets a subscription the push service says is gone (404, 410), with what waits for
    /// it.
    pub async fn forget_push_subscription(&self, id: PushSubscriptionId) -> Result<()> {
        in_tx!(self, |tx, sqlite| {
            tx_exec!(
                tx,
                sqlite,
                "DELETE FROM push_deliveries WHERE subscription_id = $1",
                id
            )?;
            tx_exec!(
                tx,
                sqlite,
                "DELETE FROM push_subscriptions WHERE id = $1",
                id
            )?;
        });
        Ok(())
    }

    /// Keeps the outbox and the subscriptions tidy: subscriptions whose session has ended
    /// (sign-outs delete theirs at once; this catches sessions housekeeping removed once they
    /// ran out), and messages queued before `before` or left behind by a subscription that
    /// moved on.
    pub async fn prune_push(&self, before: i64) -> Result<u64> {
        Ok(in_tx!(self, |tx, sqlite| {
            let dead = "SELECT s.id FROM push_subscriptions s WHERE NOT EXISTS \
                (SELECT 1 FROM sessions ss WHERE ss.id = s.session_id AND ss.revoked_at IS NULL)";
            let mut n = tx_exec!(
                tx,
                sqlite,
                &format!("DELETE FROM push_deliveries WHERE subscription_id IN ({dead})")
            )?;
            n += tx_exec!(
                tx,
                sqlite,
                &format!("DELETE FROM push_subscriptions WHERE id IN ({dead})")
            )?;
            n += tx_exec!(
                tx,
                sqlite,
                "DELETE FROM push_deliveries WHERE created_at < $1 OR NOT EXISTS \
                 (SELECT 1 FROM push_subscriptions s WHERE s.id = subscription_id \
                  AND s.user_id = push_deliveries.user_id)",
                before
            )?;
            n
        }))
    }
}

/// A push made of an e-mail alarm's webhook event (gateway offline, device fault), with the
/// texts it owns.
#[derive(Debug, Clone)]
pub(crate) struct AlarmPush<'a> {
    e: &'a crate::webhook_deliveries::AlarmEvent<'a>,
    bodies: [String; 3],
    link: String,
}

impl<'a> AlarmPush<'a> {
    /// The push of an e-mail alarm: its title, and the plant (and device) as the body; the
    /// link as a path of the portal, like a case's.
    pub(crate) fn of(e: &'a crate::webhook_deliveries::AlarmEvent<'a>) -> AlarmPush<'a> {
        let body = match e.device_sn {
            Some(sn) if !sn.is_empty() => format!("{} · {sn}", e.plant_name),
            _ => e.plant_name.to_string(),
        };
        let link = match e.link.split_once("://") {
            Some((_, rest)) => rest.find('/').map_or("/", |i| &rest[i..]).to_string(),
            None => e.link.to_string(),
        };
        AlarmPush {
            e,
            bodies: [body.clone(), body.clone(), body],
            link,
        }
    }

    pub(crate) fn event(&self) -> PushEvent<'_> {
        PushEvent {
            kind: self.e.kind,
            severity: self.e.severity,
            case_id: self.e.case_id,
            plant_id: self.e.plant_id,
            plant_name: self.e.plant_name,
            titles: [self.e.titles.en, self.e.titles.zh, self.e.titles.es],
            bodies: [&self.bodies[0], &self.bodies[1], &self.bodies[2]],
            link: &self.link,
            at: self.e.at,
        }
    }
}
