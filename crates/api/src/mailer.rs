//! Delivery of messages to people. With SMTP configured, email goes out by SMTP; otherwise (and
//! always for phone numbers, as no SMS gateway is configured) the message is written to the log
//! and kept in the outbox table, where an administrator reads it (`portal admin outbox`).

use lettre::{
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
    transport::smtp::authentication::Credentials,
};
use store::Store;

use crate::{config::SmtpConfig, envelope::ApiError};

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
        let mut builder = builder.port(c.port);
        if !c.username.is_empty() {
            builder = builder.credentials(Credentials::new(c.username.clone(), c.password.clone()));
        }
        Ok(Mailer {
            smtp: Some((builder.build(), c.from.clone())),
        })
    }

    /// Sends `body` to an email address or phone number.
    pub async fn send(
        &self,
        store: &Store,
        recipient: &str,
        subject: &str,
        body: &str,
        now: i64,
    ) -> Result<(), ApiError> {
        let is_email = recipient.contains('@');
        if let (true, Some((transport, from))) = (is_email, &self.smtp) {
            let message = Message::builder()
                .from(
                    from.parse()
                        .map_err(|e| ApiError::internal("smtp from", e))?,
                )
                .to(recipient
                    .parse()
                    .map_err(|e| ApiError::internal("smtp to", e))?)
                .subject(subject)
                .body(body.to_string())
                .map_err(|e| ApiError::internal("build mail", e))?;
            transport
                .send(message)
                .await
                .map_err(|e| ApiError::internal("smtp send", e))?;
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
