//! Delivery of messages to people. With SMTP configured, email goes out by SMTP; otherwise (and
//! always for phone numbers, as no SMS gateway is configured) the message is written to the log
//! and kept in the outbox table, where an administrator reads it (`portal admin outbox`).
//! Queued mail (alarms, reports) is delivered by the mail worker (`jobs::mail_queue`) through
//! [`Mailer::deliver`]. The HTTP API sends verification and sign-in codes with [`Mailer::send`].

use std::time::Duration;

use lettre::{
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
    message::{Attachment, MultiPart, SinglePart, header::ContentType},
    transport::smtp::authentication::Credentials,
};
use store::{Store, StoreError, outbox::QueuedMail};

/// How long one SMTP exchange may take.
const SMTP_TIMEOUT: Duration = Duration::from_secs(20);

#[derive(Clone)]
pub struct SmtpConfig {
    pub host: String,
    pub port: u16,
    pub username: String,
    pub password: String,
    pub from: String,
    /// `starttls`, `tls` or `none`.
    pub security: String,
}

impl std::fmt::Debug for SmtpConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpConfig")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("username", &self.username)
            .field("password", &"<redacted>")
            .field("from", &self.from)
            .field("security", &self.security)
            .finish()
    }
}

/// Why [`Mailer::send`] did not send: the SMTP exchange failed (with its context), or the
/// outbox could not be written.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    #[error("{0}")]
    Smtp(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

fn smtp(context: &str, err: impl std::fmt::Display) -> SendError {
    SendError::Smtp(format!("{context}: {err}"))
}

pub struct Mailer {
    smtp: Option<(AsyncSmtpTransport<Tokio1Executor>, String)>,
}

impl Mailer {
    pub fn new(config: Option<&SmtpConfig>) -> Result<Mailer, String> {
        let Some(c) = config else {
            return Ok(Mailer { smtp: None });
        };
        let builder = match c.security.as_str() {
            "none" => AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&c.host),
            "tls" => {
                AsyncSmtpTransport::<Tokio1Executor>::relay(&c.host).map_err(|e| e.to_string())?
            }
            _ => AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(&c.host)
                .map_err(|e| e.to_string())?,
        };
        // A server that accepts the connection and then stalls must not hold the worker for
        // lettre's default minute.
        let mut builder = builder.port(c.port).timeout(Some(SMTP_TIMEOUT));
        if !c.username.is_empty() {
            builder = builder.credentials(Credentials::new(c.username.clone(), c.password.clone()));
        }
        Ok(Mailer {
            smtp: Some((builder.build(), c.from.clone())),
        })
    }

    /// Whether an SMTP server is configured (queued mail waits in the outbox until one is).
    pub fn configured(&self) -> bool {
        self.smtp.is_some()
    }

    /// Hands one queued e-mail (with its attachment, if any) to the SMTP server. The error is
    /// the reason to keep with the e-mail for the next attempt.
    pub async fn deliver(&self, mail: &QueuedMail) -> Result<(), String> {
        let Some((transport, from)) = &self.smtp else {
            return Err("no SMTP server configured".into());
        };
        let builder = Message::builder()
            .from(from.parse().map_err(|e| format!("smtp from: {e}"))?)
            .to(mail
                .recipient
                .parse()
                .map_err(|e| format!("recipient: {e}"))?)
            .subject(&mail.subject);
        let text = SinglePart::plain(mail.body.clone());
        let message = match (&mail.attachment_name, &mail.attachment) {
            (Some(name), Some(bytes)) => {
                builder.multipart(MultiPart::mixed().singlepart(text).singlepart(
                    Attachment::new(name.clone()).body(bytes.clone(), content_type(name)),
                ))
            }
            _ => builder.singlepart(text),
        }
        .map_err(|e| format!("build mail: {e}"))?;
        transport
            .send(message)
            .await
            .map(|_| ())
            .map_err(|e| format!("smtp: {e}"))
    }

    /// Sends `body` to an email address or phone number.
    pub async fn send(
        &self,
        store: &Store,
        recipient: &str,
        subject: &str,
        body: &str,
        now: i64,
    ) -> Result<(), SendError> {
        let is_email = recipient.contains('@');
        if let (true, Some((transport, from))) = (is_email, &self.smtp) {
            let message = Message::builder()
                .from(from.parse().map_err(|e| smtp("smtp from", e))?)
                .to(recipient.parse().map_err(|e| smtp("smtp to", e))?)
                .subject(subject)
                .body(body.to_string())
                .map_err(|e| smtp("build mail", e))?;
            transport
                .send(message)
                .await
                .map_err(|e| smtp("smtp send", e))?;
            // The code itself is not kept once it has been delivered.
            store
                .push_outbox(
                    "email",
                    recipient,
                    subject,
                    "(sent by SMTP)",
                    Some(now),
                    now,
                )
                .await?;
            return Ok(());
        }
        let channel = if is_email { "email" } else { "sms" };
        tracing::info!(%recipient, %subject, %body, "no {channel} delivery configured: message kept in the outbox");
        store
            .push_outbox(channel, recipient, subject, body, None, now)
            .await?;
        Ok(())
    }
}

/// The MIME type of an attachment, by its file name.
fn content_type(name: &str) -> ContentType {
    let mime = if name.ends_with(".xlsx") {
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    } else if name.ends_with(".pdf") {
        "application/pdf"
    } else {
        "application/octet-stream"
    };
    ContentType::parse(mime).unwrap_or(ContentType::TEXT_PLAIN)
}
