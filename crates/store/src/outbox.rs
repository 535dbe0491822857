//! Messages for people (verification codes, notices, alarm e-mails, reports). When no mail
//! server is configured they stay here for an administrator to read. Queued mail
//! ([`Store::queue_mail`]) waits here for the mail worker, which retries it until the SMTP
//! server takes it.

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

/// An e-mail for the mail worker to deliver.
#[derive(Debug, Clone, Default)]
pub struct NewMail {
    /// `alarm` or `report`.
    pub kind: String,
    pub recipient: String,
    pub subject: String,
    pub body: String,
    /// File name and bytes of one attachment.
    pub attachment: Option<(String, Vec<u8>)>,
}

impl Store {
    /// Queues `mail`; the worker sends it from `now` on.
    pub async fn queue_mail(&self, mail: &NewMail, now: i64) -> Result<i64> {
        let (name, bytes) = match &mail.attachment {
            Some((name, bytes)) => (Some(name.as_str()), Some(bytes.as_slice())),
            None => (None, None),
        };
        Ok(scalar!(
            self,
            fetch_one,
            i64,
            "INSERT INTO outbox (channel, recipient, subject, body, created_at, queued, kind, \
             next_attempt_at, attachment_name, attachment) \
             VALUES ('email', $1, $2, $3, $4, TRUE, $5, $4, $6, $7) RETURNING id",
            &mail.recipient,
            &mail.subject,
            &mail.body,
            now,
            &mail.kind,
            name,
            bytes
        )?)
    }

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
