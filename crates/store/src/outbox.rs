//! Messages for people (verification codes, notices). When no mail server is configured they
//! stay here for an administrator to read.

use crate::{Result, Store};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OutboxRow {
    pub id: i64,
    pub channel: String,
    pub recipient: String,
    pub subject: String,
    pub body: String,
    pub created_at: i64,
    pub sent_at: Option<i64>,
}

impl Store {
    pub async fn push_outbox(
        &self,
        channel: &str,
        recipient: &str,
        subject: &str,
        body: &str,
        sent_at: Option<i64>,
        now: i64,
    ) -> Result<i64> {
        Ok(scalar!(
            self,
            fetch_one,
            i64,
            "INSERT INTO outbox (channel, recipient, subject, body, created_at, sent_at) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
            channel,
            recipient,
            subject,
            body,
            now,
            sent_at
        )?)
    }

    /// The newest messages first; `recipient` narrows to one address.
    pub async fn outbox(&self, recipient: Option<&str>, limit: i64) -> Result<Vec<OutboxRow>> {
        Ok(rows!(
            self,
            fetch_all,
            OutboxRow,
            "SELECT id, channel, recipient, subject, body, created_at, sent_at FROM outbox \
             WHERE ($1 IS NULL OR recipient = $1) ORDER BY id DESC LIMIT $2",
            recipient,
            limit
        )?)
    }
}
