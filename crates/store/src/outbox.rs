//! Messages for people (verification codes, notices, alarm e-mails, reports). When no mail
//! server is configured they stay here for an administrator to read. Queued mail
//! ([`Store::queue_mail`]) waits here for the mail worker, which retries it until the SMTP
//! server takes it.

use crate::{Result, Store};
use domain::ids::MailId;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OutboxRow {
    pub id: MailId,
    pub channel: String,
    pub recipient: String,
    pub subject: String,
    pub body: String,
    pub created_at: i64,
    pub sent_at: Option<i64>,
    /// `code`, `alarm` or `report`.
    pub kind: String,
    /// Waits for the mail worker (see [`Store::queue_mail`]).
    pub queued: bool,
    pub attempts: i64,
    pub last_error: Option<String>,
    pub next_attempt_at: Option<i64>,
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

/// Queues an e-mail: recipient, subject, body, now, kind, attachment name and bytes.
pub(crate) const QUEUE_MAIL: &str = "INSERT INTO outbox (channel, recipient, subject, body, \
    created_at, queued, kind, next_attempt_at, attachment_name, attachment) \
    VALUES ('email', $1, $2, $3, $4, TRUE, $5, $4, $6, $7) RETURNING id";

/// The attachment's name and bytes, as [`QUEUE_MAIL`] binds them.
pub(crate) fn attachment_parts(mail: &NewMail) -> (Option<&str>, Option<&[u8]>) {
    match &mail.attachment {
        Some((name, bytes)) => (Some(name.as_str()), Some(bytes.as_slice())),
        None => (None, None),
    }
}

/// A queued e-mail due for delivery.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct QueuedMail {
    pub id: MailId,
    pub kind: String,
    pub recipient: String,
    pub subject: String,
    pub body: String,
    /// Deliveries tried so far.
    pub attempts: i64,
    pub next_attempt_at: i64,
    pub attachment_name: Option<String>,
    pub attachment: Option<Vec<u8>>,
}

impl Store {
    /// Queues `mail`; the worker sends it from `now` on.
    pub async fn queue_mail(&self, mail: &NewMail, now: i64) -> Result<MailId> {
        let (name, bytes) = attachment_parts(mail);
        Ok(scalar!(
            self,
            fetch_one,
            MailId,
            QUEUE_MAIL,
            &mail.recipient,
            &mail.subject,
            &mail.body,
            now,
            &mail.kind,
            name,
            bytes
        )?)
    }

    /// Queued e-mails due at `now`, the longest waiting first.
    pub async fn due_mail(&self, now: i64, limit: i64) -> Result<Vec<QueuedMail>> {
        Ok(rows!(
            self,
            fetch_all,
            QueuedMail,
            "SELECT id, kind, recipient, subject, body, CAST(attempts AS BIGINT) AS attempts, \
             next_attempt_at, attachment_name, attachment FROM outbox \
             WHERE queued AND sent_at IS NULL AND next_attempt_at <= $1 \
             ORDER BY next_attempt_at, id LIMIT $2",
            now,
            limit
        )?)
    }

    /// Takes a due e-mail for delivery: moves its next attempt to `until`, unless another
    /// worker (another replica) took it first. Answers whether this worker has it.
    pub async fn claim_mail(&self, mail: &QueuedMail, until: i64) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE outbox SET next_attempt_at = $3 WHERE id = $1 AND next_attempt_at = $2 \
             AND sent_at IS NULL",
            mail.id,
            mail.next_attempt_at,
            until
        )? == 1)
    }

    /// The SMTP server took the e-mail. The attachment's bytes are not kept past delivery.
    pub async fn mail_sent(&self, id: MailId, now: i64) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE outbox SET sent_at = $2, attempts = attempts + 1, last_error = NULL, \
             attachment = NULL WHERE id = $1 AND sent_at IS NULL",
            id,
            now
        )? == 1)
    }

    /// A delivery failed: counted, the error kept, tried again at `retry_at`.
    pub async fn mail_failed(&self, id: MailId, error: &str, retry_at: i64) -> Result<()> {
        exec!(
            self,
            "UPDATE outbox SET attempts = attempts + 1, last_error = $2, next_attempt_at = $3 \
             WHERE id = $1 AND sent_at IS NULL",
            id,
            error,
            retry_at
        )?;
        Ok(())
    }

    /// Queued e-mails not delivered yet.
    pub async fn undelivered_mail(&self) -> Result<i64> {
        Ok(scalar!(
            self,
            fetch_one,
            i64,
            "SELECT CAST(COUNT(*) AS BIGINT) FROM outbox WHERE queued AND sent_at IS NULL"
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
    ) -> Result<MailId> {
        Ok(scalar!(
            self,
            fetch_one,
            MailId,
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
            "SELECT id, channel, recipient, subject, body, created_at, sent_at, kind, queued, \
             CAST(attempts AS BIGINT) AS attempts, last_error, next_attempt_at FROM outbox \
             WHERE ($1 IS NULL OR recipient = $1) ORDER BY id DESC LIMIT $2",
            recipient,
            limit
        )?)
    }
}
