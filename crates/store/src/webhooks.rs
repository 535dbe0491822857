//! A user's webhook endpoints (personal settings). Every read and write names the owner: an
//! endpoint of someone else reads as missing. Each write carries its audit entry into its
//! transaction. The secret is stored sealed (`service::sealing`) and no read of endpoints
//! returns it: only the sender's read of due deliveries does (`webhook_deliveries`); lists show
//! its last four characters, kept apart (`secret_hint`).

use domain::ids::{UserId, WebhookId};

use crate::{Result, Store, audit::NewAudit};

#[derive(Clone, PartialEq, sqlx::FromRow)]
pub struct EndpointRow {
    pub id: WebhookId,
    pub user_id: UserId,
    pub url: String,
    /// The secret's last four characters (never the secret, which these rows do not carry).
    pub secret_hint: String,
    pub enabled: bool,
    /// `,kind,kind,` or empty for every kind (`domain::webhook::kinds_column`).
    pub kinds: String,
    /// `warning` or `alarm`.
    pub min_severity: String,
    pub created_at: i64,
    pub updated_at: i64,
}

impl std::fmt::Debug for EndpointRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EndpointRow")
            .field("id", &self.id)
            .field("user_id", &self.user_id)
            .field("url", &self.url)
            .field("enabled", &self.enabled)
            .finish_non_exhaustive()
    }
}

/// A secret as it is stored: sealed, and its last four characters for the lists.
#[derive(Clone, Copy)]
pub struct StoredSecret<'a> {
    pub sealed: &'a str,
    pub hint: &'a str,
}

/// An endpoint whose secret is still stored in the clear (from before secrets were sealed).
#[derive(Clone, sqlx::FromRow)]
pub struct ClearSecret {
    pub id: WebhookId,
    pub secret: String,
}

/// What an endpoint is made of (new, or changed: the secret is changed apart).
#[derive(Debug, Clone)]
pub struct EndpointFields<'a> {
    pub url: &'a str,
    pub enabled: bool,
    pub kinds: &'a str,
    pub min_severity: &'a str,
}

const COLUMNS: &str = "id, user_id, url, secret_hint, enabled, kinds, min_severity, \
    created_at, updated_at";

impl Store {
    /// The user's endpoints, oldest first.
    pub async fn webhook_endpoints(&self, user: UserId) -> Result<Vec<EndpointRow>> {
        let sql = format!("SELECT {COLUMNS} FROM webhook_endpoints WHERE user_id = $1 ORDER BY id");
        Ok(rows!(self, fetch_all, EndpointRow, &sql, user)?)
    }

    /// One endpoint of `user`; `None` when missing or someone else's.
    pub async fn webhook_endpoint(
        &self,
        id: WebhookId,
        user: UserId,
    ) -> Result<Option<EndpointRow>> {
        let sql = format!("SELECT {COLUMNS} FROM webhook_endpoints WHERE id = $1 AND user_id = $2");
        Ok(rows!(self, fetch_optional, EndpointRow, &sql, id, user)?)
    }

    /// Adds an endpoint unless the user already has `max` (counted in the same transaction, so
    /// two requests at once cannot pass the limit together); `None` when full. The audit
    /// entry's target becomes `webhook:<id>`.
    pub async fn create_webhook_endpoint(
        &self,
        user: UserId,
        f: &EndpointFields<'_>,
        secret: StoredSecret<'_>,
        max: i64,
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<Option<WebhookId>> {
        Ok(in_tx!(self, |tx, sqlite| {
            let count = tx_scalar!(
                tx,
                sqlite,
                i64,
                "SELECT CAST(COUNT(*) AS BIGINT) FROM webhook_endpoints WHERE user_id = $1",
                user
            )?;
            if count >= max {
                None
            } else {
                let id = tx_scalar!(
                    tx,
                    sqlite,
                    WebhookId,
                    "INSERT INTO webhook_endpoints (user_id, url, secret, secret_hint, enabled, \
                     kinds, min_severity, created_at, updated_at) \
                     VALUES ($1, $2, $3, $8, $4, $5, $6, $7, $7) RETURNING id",
                    user,
                    f.url,
                    secret.sealed,
                    f.enabled,
                    f.kinds,
                    f.min_severity,
                    now,
                    secret.hint
                )?;
                audit_new_in_tx!(tx, sqlite, audit, id)?;
                Some(id)
            }
        }))
    }

    /// Changes an endpoint of `user`; false when it is not theirs. Turning it off drops what
    /// waits to be delivered to it: switched on again later, it does not receive a backlog.
    pub async fn update_webhook_endpoint(
        &self,
        id: WebhookId,
        user: UserId,
        f: &EndpointFields<'_>,
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        Ok(in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "UPDATE webhook_endpoints SET url = $3, enabled = $4, kinds = $5, \
                 min_severity = $6, updated_at = $7 WHERE id = $1 AND user_id = $2",
                id,
                user,
                f.url,
                f.enabled,
                f.kinds,
                f.min_severity,
                now
            )?;
            if n > 0 {
                if !f.enabled {
                    tx_exec!(
                        tx,
                        sqlite,
                        "DELETE FROM webhook_deliveries WHERE endpoint_id = $1 \
                         AND state = 'pending'",
                        id
                    )?;
                }
                audit_in_tx!(tx, sqlite, audit)?;
            }
            n > 0
        }))
    }

    /// A new secret for an endpoint of `user`; false when it is not theirs.
    pub async fn rotate_webhook_secret(
        &self,
        id: WebhookId,
        user: UserId,
        secret: StoredSecret<'_>,
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        Ok(exec_audited!(
            self,
            Some(audit),
            "UPDATE webhook_endpoints SET secret = $3, secret_hint = $5, updated_at = $4 \
             WHERE id = $1 AND user_id = $2",
            id,
            user,
            secret.sealed,
            now,
            secret.hint
        ) > 0)
    }

    /// Up to `limit` endpoints whose secret is still in the clear (not `v1:`, the sealed
    /// form), for the sender to seal.
    pub async fn webhook_secrets_in_clear(&self, limit: i64) -> Result<Vec<ClearSecret>> {
        let sql = format!(
            "SELECT id, secret FROM webhook_endpoints WHERE secret NOT LIKE 'v1:%' ORDER BY id {}",
            crate::sql::page(limit, 0)
        );
        Ok(rows!(self, fetch_all, ClearSecret, &sql)?)
    }

    /// Replaces an endpoint's secret in the clear by its sealed form, unless it changed since
    /// it was read (rotated meanwhile); false then.
    pub async fn seal_webhook_secret(
        &self,
        id: WebhookId,
        clear: &str,
        sealed: &str,
    ) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE webhook_endpoints SET secret = $3 WHERE id = $1 AND secret = $2",
            id,
            clear,
            sealed
        )? > 0)
    }

    /// Deletes an endpoint of `user` with its deliveries and log; false when it is not theirs.
    pub async fn delete_webhook_endpoint(
        &self,
        id: WebhookId,
        user: UserId,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        Ok(in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "DELETE FROM webhook_endpoints WHERE id = $1 AND user_id = $2",
                id,
                user
            )?;
            if n > 0 {
                // Not left to the foreign keys: SQLite enforces them only when asked to.
                tx_exec!(
                    tx,
                    sqlite,
                    "DELETE FROM webhook_deliveries WHERE endpoint_id = $1",
                    id
                )?;
                tx_exec!(
                    tx,
                    sqlite,
                    "DELETE FROM webhook_attempts WHERE endpoint_id = $1",
                    id
                )?;
                audit_in_tx!(tx, sqlite, audit)?;
            }
            n > 0
        }))
    }
}
