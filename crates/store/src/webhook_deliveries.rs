//! The webhook outbox and its log: deliveries queued in the transaction that decides an alarm
//! event, the sender's reads and writes, and the per-endpoint log of attempts.

use domain::ids::{DeliveryId, PlantId, UserId, WebhookId};

use crate::{Result, Store, audit::NewAudit};

/// One alarm event to tell the recipients' webhook endpoints of.
#[derive(Debug, Clone)]
pub struct AlarmEvent<'a> {
    /// `opened`, `updated`, `acknowledged`, `closed` (or `test`).
    pub event: &'a str,
    /// One of `domain::webhook::ALARM_KINDS`.
    pub kind: &'a str,
    /// `warning` or `alarm`.
    pub severity: &'a str,
    pub case_id: Option<i64>,
    pub plant_id: PlantId,
    pub plant_name: &'a str,
    pub device_sn: Option<&'a str>,
    /// The title in each language; each recipient gets it in their alarm language.
    pub titles: Titles<'a>,
    /// A JSON object: what the alarm was computed from.
    pub detail: &'a str,
    /// When it happened (ms).
    pub at: i64,
    /// The screen it is about.
    pub link: &'a str,
}

#[derive(Debug, Clone, Copy)]
pub struct Titles<'a> {
    pub en: &'a str,
    pub zh: &'a str,
    pub es: &'a str,
}

/// The one statement that queues an event for one recipient: a pending delivery per enabled
/// endpoint of theirs whose kind filter and minimum severity let it through.
pub(crate) const ENQUEUE: &str = "INSERT INTO webhook_deliveries (endpoint_id, user_id, event, \
    kind, severity, case_id, plant_id, plant_name, device_sn, title, detail, at, link, next_at, \
    created_at) \
    SELECT w.id, w.user_id, $2, $3, $4, $5, $6, $7, $8, \
    CASE u.notify_lang WHEN 'zh' THEN $10 WHEN 'es' THEN $11 ELSE $9 END, $12, $13, $14, $15, $15 \
    FROM webhook_endpoints w JOIN users u ON u.id = w.user_id \
    WHERE w.user_id = $1 AND w.enabled AND NOT u.disabled AND u.deleted_at IS NULL \
    AND (w.kinds = '' OR w.kinds LIKE '%,' || $3 || ',%') \
    AND ($4 = 'alarm' OR w.min_severity = 'warning')";

/// `enqueue_webhooks_in_tx!(tx, sqlite, &AlarmEvent, &[UserId], now)` queues an alarm event
/// for the recipients' endpoints inside [`in_tx!`], so the deliveries commit or roll back with
/// the decision they tell of; yields how many were queued.
macro_rules! enqueue_webhooks_in_tx {
    ($tx:ident, $sqlite:ident, $e:expr, $users:expr, $now:expr) => {{
        let e: &$crate::webhook_deliveries::AlarmEvent<'_> = $e;
        let mut queued: u64 = 0;
        for user in $users {
            queued += tx_exec!(
                $tx,
                $sqlite,
                $crate::webhook_deliveries::ENQUEUE,
                *user,
                e.event,
                e.kind,
                e.severity,
                e.case_id,
                e.plant_id,
                e.plant_name,
                e.device_sn,
                e.titles.en,
                e.titles.zh,
                e.titles.es,
                e.detail,
                e.at,
                e.link,
                $now
            )?;
        }
        queued
    }};
}

/// A delivery due to be sent, with its endpoint and its user's quiet hours.
#[derive(Clone, PartialEq, sqlx::FromRow)]
pub struct DueDelivery {
    pub id: DeliveryId,
    pub endpoint_id: WebhookId,
    pub user_id: UserId,
    pub url: String,
    pub secret: String,
    pub event: String,
    pub kind: String,
    pub severity: String,
    pub case_id: Option<i64>,
    pub plant_id: PlantId,
    pub plant_name: String,
    pub device_sn: Option<String>,
    pub title: String,
    pub detail: String,
    pub at: i64,
    pub link: String,
    pub attempts: i64,
    pub quiet_enabled: bool,
    pub quiet_from: i64,
    pub quiet_to: i64,
    pub quiet_zone: String,
}

impl std::fmt::Debug for DueDelivery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DueDelivery")
            .field("id", &self.id)
            .field("endpoint_id", &self.endpoint_id)
            .field("event", &self.event)
            .field("attempts", &self.attempts)
            .finish_non_exhaustive()
    }
}

/// One attempt of the log.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct AttemptRow {
    pub id: i64,
    pub delivery_id: DeliveryId,
    pub event: String,
    pub attempt: i64,
    pub at: i64,
    /// The HTTP status, when an answer came.
    pub status: Option<i64>,
    /// Why it failed without an answer (empty otherwise).
    pub error: String,
    pub duration_ms: i64,
    /// The delivery's state now: `pending`, `delivered` or `failed`.
    pub state: String,
}

/// An attempt made, and what becomes of its delivery.
#[derive(Debug, Clone)]
pub struct Attempt<'a> {
    pub delivery: DeliveryId,
    pub endpoint: WebhookId,
    pub event: &'a str,
    /// 1 for the first try.
    pub attempt: i64,
    pub at: i64,
    pub status: Option<i64>,
    pub error: &'a str,
    pub duration_ms: i64,
    /// `delivered`, `failed`, or `pending` again at `next_at`.
    pub state: &'a str,
    pub next_at: i64,
}

/// The columns of a due delivery, read through `d`, `w` and `u`.
const DUE: &str = "d.id, d.endpoint_id, d.user_id, w.url, w.secret, d.event, d.kind, d.severity, \
    d.case_id, d.plant_id, d.plant_name, d.device_sn, d.title, d.detail, d.at, d.link, \
    CAST(d.attempts AS BIGINT) AS attempts, u.quiet_enabled, \
    CAST(u.quiet_from AS BIGINT) AS quiet_from, CAST(u.quiet_to AS BIGINT) AS quiet_to, \
    u.quiet_zone";

impl Store {
    /// Queues an alarm event for the recipients' endpoints in a transaction of its own
    /// (callers inside a transaction use [`enqueue_webhooks_in_tx!`]).
    pub async fn enqueue_webhooks(
        &self,
        e: &AlarmEvent<'_>,
        users: &[UserId],
        now: i64,
    ) -> Result<u64> {
        Ok(in_tx!(self, |tx, sqlite| {
            enqueue_webhooks_in_tx!(tx, sqlite, e, users, now)
        }))
    }

    /// Up to `limit` pending deliveries due at `now` on enabled endpoints of accounts in use,
    /// oldest first.
    pub async fn due_webhook_deliveries(&self, now: i64, limit: i64) -> Result<Vec<DueDelivery>> {
        let sql = format!(
            "SELECT {DUE} FROM webhook_deliveries d \
             JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN users u ON u.id = d.user_id \
             WHERE d.state = 'pending' AND d.next_at <= $1 AND w.enabled AND NOT u.disabled \
             AND u.deleted_at IS NULL ORDER BY d.id {}",
            crate::sql::page(limit, 0)
        );
        Ok(rows!(self, fetch_all, DueDelivery, &sql, now)?)
    }

    /// Holds a pending delivery until `until` (quiet hours) without counting an attempt.
    pub async fn hold_webhook_delivery(&self, id: DeliveryId, until: i64) -> Result<()> {
        exec!(
            self,
            "UPDATE webhook_deliveries SET next_at = $2 WHERE id = $1 AND state = 'pending'",
            id,
            until
        )?;
        Ok(())
    }

    /// Logs an attempt and moves its delivery on, in one transaction.
    pub async fn record_webhook_attempt(&self, a: &Attempt<'_>) -> Result<()> {
        in_tx!(self, |tx, sqlite| {
            tx_exec!(
                tx,
                sqlite,
                "INSERT INTO webhook_attempts (endpoint_id, delivery_id, event, attempt, at, \
                 status, error, duration_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                a.endpoint,
                a.delivery,
                a.event,
                a.attempt,
                a.at,
                a.status,
                a.error,
                a.duration_ms
            )?;
            let finished = (a.state != "pending").then_some(a.at);
            tx_exec!(
                tx,
                sqlite,
                "UPDATE webhook_deliveries SET attempts = $2, state = $3, next_at = $4, \
                 finished_at = $5 WHERE id = $1",
                a.delivery,
                a.attempt,
                a.state,
                a.next_at,
                finished
            )?;
        });
        Ok(())
    }

    /// A test delivery to an endpoint of its owner, with its audit entry; the caller sends it
    /// at once. `None` when the endpoint is not theirs.
    pub async fn queue_test_delivery(
        &self,
        endpoint: WebhookId,
        user: UserId,
        e: &AlarmEvent<'_>,
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<Option<DeliveryId>> {
        Ok(in_tx!(self, |tx, sqlite| {
            let id = tx_rows!(
                tx,
                sqlite,
                fetch_optional,
                (DeliveryId,),
                "INSERT INTO webhook_deliveries (endpoint_id, user_id, event, kind, severity, \
                 case_id, plant_id, plant_name, device_sn, title, detail, at, link, next_at, \
                 created_at) SELECT w.id, w.user_id, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, \
                 $13, $14, $14 FROM webhook_endpoints w WHERE w.id = $1 AND w.user_id = $2 \
                 RETURNING id",
                endpoint,
                user,
                e.event,
                e.kind,
                e.severity,
                e.case_id,
                e.plant_id,
                e.plant_name,
                e.device_sn,
                e.titles.en,
                e.detail,
                e.at,
                e.link,
                now
            )?;
            if id.is_some() {
                audit_in_tx!(tx, sqlite, audit)?;
            }
            id.map(|(id,)| id)
        }))
    }

    /// A delivery of `user` as the sender reads it (a test delivery, sent at once).
    pub async fn webhook_delivery(
        &self,
        id: DeliveryId,
        user: UserId,
    ) -> Result<Option<DueDelivery>> {
        let sql = format!(
            "SELECT {DUE} FROM webhook_deliveries d \
             JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN users u ON u.id = d.user_id \
             WHERE d.id = $1 AND d.user_id = $2"
        );
        Ok(rows!(self, fetch_optional, DueDelivery, &sql, id, user)?)
    }

    /// A page of an endpoint's log, newest first, with the total.
    pub async fn webhook_attempts(
        &self,
        endpoint: WebhookId,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<AttemptRow>, i64)> {
        let sql = format!(
            "SELECT a.id, a.delivery_id, a.event, CAST(a.attempt AS BIGINT) AS attempt, a.at, \
             CAST(a.status AS BIGINT) AS status, a.error, a.duration_ms, \
             COALESCE(d.state, 'failed') AS state \
             FROM webhook_attempts a LEFT JOIN webhook_deliveries d ON d.id = a.delivery_id \
             WHERE a.endpoint_id = $1 ORDER BY a.id DESC {}",
            crate::sql::page(limit, offset)
        );
        let rows = rows!(self, fetch_all, AttemptRow, &sql, endpoint)?;
        let total = scalar!(
            self,
            fetch_one,
            i64,
            "SELECT CAST(COUNT(*) AS BIGINT) FROM webhook_attempts WHERE endpoint_id = $1",
            endpoint
        )?;
        Ok((rows, total))
    }

    /// Keeps the log and the outbox bounded: attempts beyond the newest `keep` of an endpoint
    /// or older than `before`, and deliveries finished (or still pending) before `before`.
    pub async fn prune_webhooks(&self, keep: i64, before: i64) -> Result<u64> {
        let over = format!(
            "DELETE FROM webhook_attempts WHERE id < (SELECT b.id FROM webhook_attempts b \
             WHERE b.endpoint_id = webhook_attempts.endpoint_id ORDER BY b.id DESC {})",
            crate::sql::page(1, keep - 1)
        );
        let mut n = exec!(self, &over)?;
        n += exec!(self, "DELETE FROM webhook_attempts WHERE at < $1", before)?;
        n += exec!(
            self,
            "DELETE FROM webhook_deliveries WHERE COALESCE(finished_at, created_at) < $1",
            before
        )?;
        Ok(n)
    }
}
